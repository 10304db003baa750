"""Orders in a player's words: a company's standing order on its page, and an order
played in the turn log and on the company page, never the rules' own note "(no order;
its side has a player)" nor what the campaign AI does on a side with no player."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Campaign, Company, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join


def text_of(response: Any) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def ai_standing(db: Any, aussie: Any) -> Campaign:
    """Korona with the scenario's standing orders (the campaign AI's), the Australians
    played by a player who gave no order, one turn played."""
    campaign = create_campaign(data=korona_doc(standing_order=None), name="Korona", seed=1)
    join(aussie, campaign, "australian")
    advance_turn(campaign_id=campaign.pk)
    return campaign


def test_a_company_given_no_order_holds_in_a_players_words(
    ai_standing: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    log = Turn.objects.get(campaign=ai_standing, number=1).log
    held = next(r for r in log if r.get("company") == "A Company" and r["kind"] == "order")
    assert held["text"] == "A Company holds in Korona (no order; its side has a player)"
    a = Company.objects.get(campaign=ai_standing, name="A Company")
    assert a.standing_order == "sensible"  # the campaign AI's, on a side with no player
    page = text_of(client.get(reverse("company", args=[ai_standing.pk, a.pk])))
    assert (
        "Standing order hold (the default while you play this side): what it does when you "
        "give it no order; only the game master can change it" in page
    )
    assert "its side has a player" not in page and "campaign AI" not in page
    assert "A Company holds in Korona (no order given)" in page
    turn = text_of(client.get(reverse("turn", args=[ai_standing.pk, 1])))
    assert "A Company holds in Korona (no order given)" in turn
    assert "its side has a player" not in turn


def test_the_gm_reads_what_the_campaign_ai_does_with_a_standing_order(
    ai_standing: Campaign, gm_user: Any, login: Any
) -> None:
    a = Company.objects.get(campaign=ai_standing, name="A Company")
    page = text_of(login(gm_user).get(reverse("company", args=[ai_standing.pk, a.pk])))
    # The Australians have a player: A Company holds, as its player's page says.
    said = "sensible (its side has a player, so it holds)"
    assert f"{said}, used when it is given no order" in page
    first = Company.objects.get(campaign=ai_standing, name="1st Company")
    page = text_of(login(gm_user).get(reverse("company", args=[ai_standing.pk, first.pk])))
    said = "sensible (its side has no player: the campaign AI chooses)"
    assert f"{said}, used when it is given no order" in page
    turn = text_of(login(gm_user).get(reverse("turn", args=[ai_standing.pk, 1])))
    # The Japanese, with no player, are played by the campaign AI.
    assert "(no order given: the campaign AI chose)" in turn
    assert "the campaign AI's order" not in turn


def test_the_gms_list_of_companies_says_what_the_players_page_says(
    ai_standing: Campaign, aussie: Any, django_user_model: Any, login: Any
) -> None:
    """The walk-through: the player's company page said "hold", the GM's list of
    companies "sensible", for the same company. A sensible company of a side a player
    plays holds; the list says so, and says the campaign AI plays a side with none."""
    gm = django_user_model.objects.create_superuser("desk", "desk@example.com", "pw")
    rows = {}
    listing = login(gm).get("/admin/campaign/company/").content.decode()
    for row in re.findall(r"<tr>.*?</tr>", listing, flags=re.S):
        cells = [unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(
            r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S)]  # fmt: skip
        if len(cells) > 2:
            rows[cells[1]] = cells[-1]
    a = Company.objects.get(campaign=ai_standing, name="A Company")
    player_page = text_of(login(aussie).get(reverse("company", args=[ai_standing.pk, a.pk])))
    assert "Standing order hold (the default while you play this side): what" in player_page
    # The standing order first, then what it does: "hold (sensible: its side has a
    # player)" read as "hold is sensible".
    assert rows["A Company"] == "sensible (its side has a player, so it holds)"
    assert rows["1st Company"] == "sensible (its side has no player: the campaign AI chooses)"
    # The company inline on an area's page says the same, not the stored "sensible".
    area = login(gm).get(f"/admin/campaign/area/{a.area_id}/change/").content.decode()
    cells = [unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(
        r'<td class="field-standing_words">(.*?)</td>', area, flags=re.S)]  # fmt: skip
    assert "sensible (its side has a player, so it holds)" in cells
    assert "sensible" not in cells


def test_an_enemy_company_seen_in_full_is_not_said_to_be_the_readers_to_order(
    ai_standing: Campaign, aussie: Any, login: Any
) -> None:
    """With no fog of war a player reads the enemy's companies in full: their standing
    order is not "the default while you play this side", nor used "when you give it no
    order", and says what it does whoever plays that side."""
    from campaign.services.campaigns import update_settings

    update_settings(
        campaign=ai_standing,
        settings={**ai_standing.settings, "fog_of_war": False},
        reason="the players agreed to play in the open",
    )
    first = Company.objects.get(campaign=ai_standing, name="1st Company")
    page = text_of(login(aussie).get(reverse("company", args=[ai_standing.pk, first.pk])))
    assert (
        "Standing order hold while a player plays its side, else the campaign AI's choice, "
        "used when it is given no order" in page
    )
    assert "you play this side" not in page and "you give it" not in page
