"""Smaller findings of the walk-through (issue 15): the orders page says what a company
without an order does in plain words, the site has an icon, a player is not offered the
GM's notice, and the map page shows the newest messages the reader may read."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from campaign.models import Campaign, Company
from notifications.models import Message, Preference

pytestmark = pytest.mark.django_db


def words(response: Any) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_the_orders_page_says_what_a_standing_order_does(
    campaign: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    rows = Company.objects.filter(campaign=campaign, side="australian")
    rows.filter(name="A Company").update(standing_order="sensible")
    rows.filter(name="B Company").update(standing_order="aggressive")
    rows.filter(name="1st Supply Company").update(standing_order="aggressive")
    page = words(login(aussie).get(f"/campaigns/{campaign.pk}/orders/"))
    assert "sensible" not in page  # the campaign AI's word: on a side a player plays, it holds
    assert page.count("no order given, so it holds in Korona.") == 1  # A Company
    assert (
        "no order given, so it advances towards the enemy's base by itself, unless an enemy "
        "company is in its area (out of supply, it falls back towards its own)"
        in page.replace("&#x27;", "'")
    )
    assert (
        "no order given, so it follows its side's foremost fighting company, one area "
        "behind it" in page.replace("&#x27;", "'")
    )
    gm = words(login(gm_user).get(f"/campaigns/{campaign.pk}/orders/?side=australian"))
    # The Australians have a player: the campaign AI does not move their A Company.
    assert (
        "no order given, so it holds in Korona: its side has a player, and the campaign AI "
        "plays only a side with none." in gm
    )


def test_the_site_has_an_icon(campaign: Campaign, aussie: Any, login: Any) -> None:
    icon = Client().get("/favicon.ico")
    assert icon.status_code == 301 and icon["Location"].endswith("campaign/favicon.svg")
    html = login(aussie).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert 'rel="icon" href="/static/campaign/favicon.svg"' in html


def test_a_player_is_offered_the_table_notice_in_a_players_words(
    aussie: Any, gm_user: Any, login: Any
) -> None:
    """A player is told when a battle of their side waits for the table (until the walk
    of 7 December 2026 only the GM was, and a player was not offered the setting): in a
    player's words, not the GM's "(game master)"."""
    player = login(aussie).get("/accounts/notices/").content.decode()
    assert 'name="battle_waiting"' in player
    assert "When a battle of my side waits to be fought at the table" in player
    assert "tabletop result (game master)" not in player
    gm = login(gm_user).get("/accounts/notices/").content.decode()
    assert "When a battle waits for its tabletop result (game master)" in gm
    # The player's switch is theirs: a save without it turns it off.
    answer = login(aussie).post(
        "/accounts/notices/",
        {"email": "on", "turn_played": "on", "reminder_hours": "12", "time_zone": "UTC"},
    )
    assert answer.status_code == 302
    assert Preference.objects.get(user=aussie).battle_waiting is False


def test_the_map_shows_the_newest_messages_the_reader_may_read(
    campaign: Campaign, aussie: Any, japanese: Any, gm_user: Any, login: Any
) -> None:
    def post(user: Any, channel: str, text: str, side: str = "") -> None:
        Message.objects.create(
            campaign=campaign, channel=channel, side=side, author=user, text=text,
            author_side="" if user is gm_user else side or "australian",
        )  # fmt: skip

    map_page = login(aussie).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'hx-get="/campaigns/{campaign.pk}/messages/latest/"' in map_page
    latest = f"/campaigns/{campaign.pk}/messages/latest/"
    assert "Nothing written yet." in words(login(aussie).get(latest))
    # Not "Write to the other side": played solo, the other side is the campaign AI.
    assert "Write on the public board, which everyone in the campaign reads" in words(
        login(aussie).get(latest)
    )
    post(gm_user, "announcement", "Turn 2 is played on Friday")
    post(aussie, "public", "Good luck")
    post(japanese, "side", "Flank them through Munara", side="japanese")
    for n in range(3):
        post(aussie, "side", f"Hold Korona {n}", side="australian")
    theirs = words(login(aussie).get(latest))
    assert "(5 in all)" in theirs and "All 5 messages" in theirs
    assert "Hold Korona 2" in theirs and "Hold Korona 0" in theirs
    assert "Good luck" not in theirs  # the newest three only
    assert "Munara" not in theirs  # never the enemy's channel, nor its count
    enemy = words(login(japanese).get(latest))
    assert "(3 in all)" in enemy and "Munara" in enemy and "Hold Korona" not in enemy
    assert "(6 in all)" in words(login(gm_user).get(latest))
    assert Client().get(latest).status_code == 302  # signed out: to the sign-in page
