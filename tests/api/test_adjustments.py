"""The GM's adjustments through the API: the same public log as the turn pages, under the
same fog of war (``CampaignView.adjustments``)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Area, Campaign, Company
from campaign.services.adjustments import adjust_stands, set_control
from campaign.services.visibility import open_campaign
from tests.api.helpers import url

pytestmark = pytest.mark.django_db


def adjustments(client: Any, campaign: Campaign) -> list[dict[str, Any]]:
    response = client.get(url(campaign, "adjustments/"))
    assert response.status_code == 200
    return response.json()["results"]


def test_every_player_reads_the_gms_changes_with_their_reasons(
    played: Campaign, gm_user: Any, aussie: Any, japanese: Any, login: Any
) -> None:
    set_control(
        area=Area.objects.get(campaign=played, name="Ioro"),
        side=None,
        reason="the villagers rose",
        user=gm_user,
    )
    full = "Ioro: held by the Australian side, now by nobody"
    # Ioro is out of the Japanese's sight: they read neither holder (section 6).
    fogged = "Ioro: who holds it was changed, out of your sight"
    for user, what in ((aussie, full), (japanese, fogged), (gm_user, full)):
        (row,) = adjustments(login(user), played)
        assert row["before_turn"] == 3
        assert row["during_turn"] is None
        assert row["what"] == what
        assert row["reason"] == "the villagers rose"


def test_an_enemys_stands_change_comes_without_its_numbers(
    played: Campaign, gm_user: Any, aussie: Any, japanese: Any, login: Any
) -> None:
    assert open_campaign(user=aussie, campaign=played).company("1st Company") is None
    adjust_stands(
        company=Company.objects.get(campaign=played, name="1st Company"),
        unit_type="rifle_squad",
        held=5,
        reason="dysentery",
        user=gm_user,
    )
    (seen_by_enemy,) = adjustments(login(aussie), played)
    assert seen_by_enemy["what"] == "An enemy company (Japanese): stands adjusted"
    (seen_by_own_side,) = adjustments(login(japanese), played)
    assert seen_by_own_side["what"].startswith("1st Company: rifle squads from")
    assert seen_by_own_side["what"].endswith("to 5")


def test_a_stranger_gets_404(played: Campaign, outsider: Any, login: Any) -> None:
    assert login(outsider).get(url(played, "adjustments/")).status_code == 404


def test_the_adjustments_list_queries(
    big_campaign: Campaign, gm_user: Any, aussie: Any, login: Any, django_assert_num_queries: Any
) -> None:
    for area in Area.objects.filter(campaign=big_campaign):
        set_control(area=area, side=None, reason="a test", user=gm_user)
    client = login(aussie)
    # the user (the session is cached), the campaign's stamp (kept lists), the campaign
    # opened (10: with the turns' start states for the fog of war), the adjustments (1)
    with django_assert_num_queries(13):
        assert len(adjustments(client, big_campaign)) == 10
    # Again, nothing changed: the stamp (the user comes from the cache); the list is kept.
    with django_assert_num_queries(1):
        assert len(adjustments(client, big_campaign)) == 10
