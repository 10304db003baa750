"""Django's words where the GM reads them, said as Korona says things (a walk-through):
the lists and a row's page by their names, not "Select campaign to change" and "Change
campaign"; a missing reason said as what to give, not "reason: This field is required."."""

from __future__ import annotations

import re

from django.test import Client

from tests.admin.conftest import new_campaign, waiting_campaign
from tests.admin.test_campaign_admin import url


def heading(page: str) -> tuple[str, str]:
    """The page's <title> (before " | Korona: game master") and its first <h1>."""
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    h1 = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert title is not None and h1 is not None
    return title[1].split(" | ")[0].strip(), h1[1].strip()


def test_the_lists_and_a_rows_page_are_titled_by_their_names(gm: Client) -> None:
    campaign, battles = waiting_campaign("Kokoda table")
    battle = next(iter(battles.values()))
    turn = campaign.turns.get(number=1)
    pages = {
        "/admin/campaign/campaign/": "Campaigns",
        "/admin/battles/battle/": "Battles",
        "/admin/campaign/turn/": "Turns",
        f"/admin/campaign/campaign/{campaign.pk}/change/": "Campaign: Kokoda table",
        f"/admin/battles/battle/{battle.pk}/change/": f"Battle: {battle}",
        f"/admin/campaign/turn/{turn.pk}/change/": "Turn: Kokoda table, turn 1",
    }
    for address, words in pages.items():
        page = gm.get(address).content.decode()
        assert heading(page) == (words, words), address
        django_words = r"Select \w+ to (change|view)|Change campaign|View (turn|battle)"
        assert not re.search(django_words, page)
    # An add page says what it adds.
    assert heading(gm.get("/admin/campaign/membership/add/").content.decode()) == (
        "Add membership", "Add membership",
    )  # fmt: skip


def test_a_missing_reason_is_said_as_what_to_give(gm: Client) -> None:
    campaign = new_campaign()
    page = gm.get(url(campaign, "settings"))
    data = {f.name: f.value() for f in page.context["form"] if f.value() not in (None, False)}
    data["turn_limit"] = "15"
    data.pop("reason", None)
    response = gm.post(url(campaign, "settings"), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert ">Reason</a>: Give a reason for this change." in page
    assert "This field is required" not in page
