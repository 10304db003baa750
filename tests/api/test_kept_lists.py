"""The API lists kept for their reader until the campaign's stamp changes (areas,
companies, turns, adjustments; ``CampaignScoped.respond_kept``): a kept list is never
stale, never another reader's, and never answers a reader who lost access."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, Membership
from campaign.services.adjustments import adjust_stands, set_control
from campaign.services.turns import advance_turn, give_order
from tests.api.helpers import url

pytestmark = pytest.mark.django_db


def test_a_played_turn_is_in_every_kept_list_at_once(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    before = {rest: client.get(url(campaign, rest)).json() for rest in ("turns/", "companies/")}
    assert before["turns/"]["count"] == 0
    advance_turn(campaign_id=campaign.pk)
    assert client.get(url(campaign, "turns/")).json()["count"] == 1
    assert client.get(url(campaign, "companies/")).json() != before["companies/"]


def test_a_gm_change_is_in_the_kept_lists_at_once(
    campaign: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    client = login(aussie)
    oivi = campaign.areas.get(name="Oivi")

    def controller() -> Any:
        areas = client.get(url(campaign, "areas/?page_size=100")).json()["results"]
        return next(a["controller"] for a in areas if a["name"] == "Oivi")

    assert controller() == "japanese"
    assert client.get(url(campaign, "adjustments/")).json()["count"] == 0
    set_control(area=oivi, side="australian", reason="a test", user=gm_user)
    assert controller() == "australian"
    assert client.get(url(campaign, "adjustments/")).json()["count"] == 1
    a_company = campaign.companies.get(name="A Company")
    adjust_stands(company=a_company, unit_type="rifle_squad", held=3, reason="a test", user=gm_user)
    rows = client.get(url(campaign, "companies/?page_size=100")).json()["results"]
    mine = next(row for row in rows if row["name"] == "A Company")
    assert mine["stands"]["rifle_squad"] == 3


def test_a_kept_list_is_its_readers_only(
    campaign: Campaign, aussie: Any, japanese: Any, gm_user: Any, login: Any
) -> None:
    path = url(campaign, "companies/?page_size=100")
    names = {
        who: {row["name"] for row in login(user).get(path).json()["results"]}
        for who, user in (("aussie", aussie), ("japanese", japanese), ("gm", gm_user))
    }
    assert "A Company" in names["aussie"] and "A Company" not in names["japanese"]
    assert "1st Company" in names["japanese"] and "1st Company" not in names["aussie"]
    assert {"A Company", "1st Company"} <= names["gm"]
    # Asked again, in the other order: each still gets their own.
    assert {r["name"] for r in login(japanese).get(path).json()["results"]} == names["japanese"]
    assert {r["name"] for r in login(aussie).get(path).json()["results"]} == names["aussie"]


def test_a_reader_who_lost_access_is_not_answered_from_the_cache(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    assert client.get(url(campaign, "areas/")).status_code == 200
    Membership.objects.filter(user=aussie, campaign=campaign).delete()
    assert client.get(url(campaign, "areas/")).status_code == 404


def test_lists_read_afresh_see_a_change_the_stamp_does_not(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The orders list reads its rows each time; only the opened campaign is kept."""
    client = login(aussie)
    assert client.get(url(campaign, "orders/")).json()["count"] == 0
    give_order(
        company=campaign.companies.get(name="A Company"),
        kind="hold",
        target=None,
        side="australian",
    )
    assert client.get(url(campaign, "orders/")).json()["count"] == 1


def test_the_kept_campaign_is_one_sides_only(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    battles = {
        side: login(user).get(url(played, "battles/?page_size=100")).json()
        for side, user in (("australian", aussie), ("japanese", japanese))
    }
    for side, answer in battles.items():
        assert answer["count"] > 0, "the played campaign has battles of both sides"
        for battle in answer["results"]:
            assert side in (battle["attacker_side"], battle["defender_side"]), battle
    mine = login(aussie).get(url(played, "battles/?page_size=100")).json()
    assert mine == battles["australian"]
