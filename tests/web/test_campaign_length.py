"""The players are told which turn it is out of how many, how the campaign is won, and,
once it has ended, who won and why in plain words (from the settings and the end
causes, never from the engine's English).

A walk-through: the GM cut the campaign to 8 turns, and on turn 8 no page said it was
the last, nor that holding Korona at the end wins; then "Japanese (the turn limit (8) is
reached)"."""

from __future__ import annotations

import dataclasses
import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Turn
from campaign.services.campaigns import update_settings
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from rules.campaign.state import Settings
from tests.web.conftest import PASSWORD, join, meeting_doc

pytestmark = pytest.mark.django_db

SIDES = {"australian": "Australians", "japanese": "Japanese"}


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    # The words as read: tags out, spaces folded.
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def page_html(client: Client, url: str) -> str:
    return client.get(url).content.decode()


def map_url(campaign: Campaign) -> str:
    return reverse("campaign-map", args=[campaign.pk])


def orders_url(campaign: Campaign) -> str:
    return reverse("orders", args=[campaign.pk])


def set_length(campaign: Campaign, turns: int) -> None:
    update_settings(
        campaign=campaign,
        settings={**campaign.settings, "turn_limit": turns},
        reason="a shorter campaign",
    )
    campaign.refresh_from_db()


def test_the_pages_say_which_turn_it_is_out_of_how_many(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)  # two turns played, the rulings' length: 20
    assert "Turn 2 played · Turn 3 of 20 is next" in page(client, map_url(played))
    assert "Orders for turn 3: Australians Turn 3 of 20." in page(client, orders_url(played))
    assert "Turn 3 of 20 (2 played)" in page(client, reverse("campaigns"))
    for url in (map_url(played), orders_url(played), reverse("campaigns")):
        assert "the last turn" not in page(client, url)


def test_the_last_turn_is_said_to_be_the_last(played: Campaign, japanese: Any, login: Any) -> None:
    set_length(played, 3)
    client = login(japanese)
    assert "Turn 3 of 3 is next: the last turn" in page(client, map_url(played))
    assert "Turn 3 of 3: the last turn." in page(client, orders_url(played))
    assert "Turn 3 of 3: the last turn (2 played)" in page(client, reverse("campaigns"))


def test_the_map_and_orders_say_how_the_campaign_is_won_once_from_its_settings(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    won = (
        "To win, hold Korona when the campaign ends: after turn 20, or sooner if a side "
        "loses its base or its last fighting company."
    )
    for url in (map_url(played), orders_url(played)):
        assert page(client, url).count(won) == 1
    update_settings(
        campaign=played,
        settings={**played.settings, "objective": "Isura", "turn_limit": 9},
        reason="a new objective",
    )
    moved = page(client, map_url(played))
    assert "To win, hold Isura when the campaign ends: after turn 9, or sooner" in moved
    assert "Korona when the campaign ends" not in moved
    update_settings(
        campaign=played,
        settings={**played.settings, "objective": None, "turn_limit": 9},
        reason="no objective",
    )
    assert (
        "The campaign ends after turn 9, or sooner if a side loses its base or its last "
        "fighting company; it has no objective to hold, so nobody wins it."
    ) in page(client, orders_url(played))


def test_a_length_changed_mid_campaign_shows_at_once_past_the_maps_etag(
    played: Campaign, aussie: Any
) -> None:
    client = Client()
    client.force_login(aussie)
    client.cookies["csrftoken"] = "r" * 32  # a browser after its first page: an ETag
    first = client.get(map_url(played))
    assert "Turn 3 of 20 is next" in first.content.decode()
    assert client.get(map_url(played), headers={"If-None-Match": first["ETag"]}).status_code == 304
    set_length(played, 3)
    again = client.get(map_url(played), headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert "Turn 3 of 3 is next: the last turn" in again.content.decode()
    # The open map's poll, with the stamp it was drawn with, redraws it too.
    seen = re.search(r'data-stamp="([^"]+)"', first.content.decode())
    assert seen
    live = reverse("campaign-map-live", args=[played.pk])
    redrawn = client.get(live, {"seen": html.unescape(seen[1])})
    assert redrawn.status_code == 200
    assert "Turn 3 of 3 is next: the last turn" in redrawn.content.decode()


def test_a_campaign_ended_by_its_length_says_who_won_and_why_in_plain_words(
    played: Campaign, aussie: Any, login: Any
) -> None:
    set_length(played, 3)
    client = login(aussie)
    drawn = re.search(r'data-stamp="([^"]+)"', page_html(client, map_url(played)))
    assert drawn
    advance_turn(campaign_id=played.pk)
    played.refresh_from_db()
    assert played.status == Campaign.Status.FINISHED
    assert played.end_causes == [{"kind": "turn_limit", "side": None, "area": None, "turns": 3}]
    held = (
        f"The {SIDES[played.winner]} won: they held Korona"
        if played.winner
        else "Nobody won: no side held Korona"
    )
    said = f"{held} when the 3 turns were up."
    listed = page(client, reverse("campaigns"))
    # The player reads their own side's lot first (tests/web/test_campaign_list_next_turn.py),
    # then why, the winner said once.
    lot = {
        "australian": "Your side won. They held Korona when the 3 turns were up.",
        "japanese": f"Your side lost. {said}",
        "": "Nobody won. No side held Korona when the 3 turns were up.",
    }
    assert f"Outcome {lot[played.winner or '']}" in listed
    assert "turn limit" not in listed and "((" not in listed and "))" not in listed
    assert f"The campaign has ended. {said}" in page(client, map_url(played))
    assert "Turn 3 of 3" not in listed  # once ended, no turn is coming
    # The open map's poll redraws it, and its live region says so in the same words.
    live = reverse("campaign-map-live", args=[played.pk])
    redrawn = client.get(live, {"seen": html.unescape(drawn[1])}, headers={"HX-Request": "true"})
    news = redrawn.content.decode().split('id="map-news"')[1]
    assert f"The campaign has ended. {said}" in news.split("</div>")[0]


def finished(causes: list[dict[str, Any]], winner: str | None = "japanese") -> Campaign:
    return Campaign(
        status=Campaign.Status.FINISHED,
        winner=winner,
        end_reason="the engine's words",
        end_causes=causes,
    )


def test_each_end_cause_is_worded_from_its_fields() -> None:
    from campaign.web.ending import outcome

    base = {"kind": "base_lost", "side": "australian", "area": "Port Murray", "turns": None}
    none_left = {"kind": "no_fighting_companies", "side": "australian"}
    limit = {"kind": "turn_limit", "turns": 8}
    korona = Settings()
    assert outcome(finished([base]), korona, SIDES) == (
        "The Japanese won: they held Korona when the Australians lost their base, Port Murray."
    )
    # Two causes of one side name it once; the base's name is closed by a comma, so
    # "Port Murray and the Australians" does not read as one place.
    assert outcome(finished([base, none_left]), korona, SIDES) == (
        "The Japanese won: they held Korona when the Australians lost their base, Port "
        "Murray, and had no fighting companies left."
    )
    assert outcome(finished([base, limit]), korona, SIDES) == (
        "The Japanese won: they held Korona when the Australians lost their base, Port "
        "Murray, and the 8 turns were up."
    )
    assert outcome(finished([base, none_left, limit]), korona, SIDES) == (
        "The Japanese won: they held Korona when the Australians lost their base, Port "
        "Murray, and had no fighting companies left, and the 8 turns were up."
    )
    both = [{**none_left, "side": "japanese"}, none_left]
    assert outcome(finished(both, winner=None), korona, SIDES) == (
        "Nobody won: no side held Korona when the Japanese had no fighting companies left "
        "and the Australians had no fighting companies left."
    )
    assert outcome(finished([limit], winner=None), korona, SIDES) == (
        "Nobody won: no side held Korona when the 8 turns were up."
    )
    assert outcome(finished([limit], winner=None), Settings(objective=None), SIDES) == (
        "Nobody won: the campaign ended when the 8 turns were up, with no objective to hold."
    )
    # Never the engine's own words, when it has causes; without them, as written then.
    assert "engine" not in outcome(finished([limit]), korona, SIDES)
    assert outcome(finished([]), korona, SIDES) == (
        "The Japanese won. Why it ended: the engine's words."
    )


def test_the_length_and_the_objective_read_the_same_to_every_side(
    played: Campaign, aussie: Any, japanese: Any, gm_user: Any, login: Any
) -> None:
    """Fog of war (rulings section 6): every setting is public (docs/campaign.md, "The
    GM's changes"), so the turn line and how the campaign is won are one text for both
    sides, whatever each side may see; the game master, who plays no side, reads who
    wins rather than "To win, hold ..."."""
    set_length(played, 5)

    def header(user: Any) -> str:
        words = page(login(user), map_url(played))
        start = words.index("Turn 2 played")
        return words[start : words.index("fighting company.", start)]

    seen = {header(user) for user in (aussie, japanese)}
    assert seen == {
        "Turn 2 played · Turn 3 of 5 is next To win, hold Korona when the campaign ends: "
        "after turn 5, or sooner if a side loses its base or its last "
    }
    assert header(gm_user) == (
        "Turn 2 played · Turn 3 of 5 is next The side holding Korona when the campaign ends "
        "wins it: after turn 5, or sooner if a side loses its base or its last "
    )


def test_a_spectator_and_the_gm_are_told_who_wins_not_to_hold_the_objective(
    played: Campaign, outsider: Any, gm_user: Any, login: Any
) -> None:
    """ "To win, hold Korona" was addressed to a player; a spectator and the game master
    (on the map, and on the orders page looking at a side) play none."""
    join(outsider, played, "spectator")
    won = (
        "The side holding Korona when the campaign ends wins it: after turn 20, or sooner "
        "if a side loses its base or its last fighting company."
    )
    assert page(login(outsider), map_url(played)).count(won) == 1
    for url in (map_url(played), orders_url(played)):
        shown = page(login(gm_user), url)
        assert shown.count(won) == 1 and "To win" not in shown, url


def test_a_turn_waiting_for_its_tabletop_battles_is_under_way_not_next(
    django_user_model: Any, client: Client
) -> None:
    """Turn 1's supply is rolled and its companies have moved while its battles wait for
    the table: the map's turn line does not call it the next turn."""
    campaign = create_campaign(data=meeting_doc(), name="Korona on the table", seed=7)
    settings = campaign.get_settings()
    campaign.set_settings(dataclasses.replace(settings, battle_mode="tabletop"))
    campaign.save()
    advance_turn(campaign_id=campaign.pk)
    assert Turn.objects.get(campaign=campaign, number=1).status == Turn.Status.BATTLES_PENDING
    user = django_user_model.objects.create_user("aussie", "a@x.org", PASSWORD)
    join(user, campaign, "australian")
    client.force_login(user)
    said = page(client, map_url(campaign))
    assert "is next" not in said
    # Turn 1 has rolled and moved (the map shows its companies moved): neither "No turn
    # played yet" nor a map "after turn 0".
    assert "Korona on the table Turn 1 of 20 is under way To win" in said
    assert "No turn played yet" not in said and "after turn 0" not in said
    drawn = page_html(client, map_url(campaign))
    title = re.search(r'<title id="map-title">([^<]*)</title>', drawn)
    assert title and title[1] == "Map of Korona on the table during turn 1, waiting for its battles"
    # The poll's live region says it the same way.
    live = reverse("campaign-map-live", args=[campaign.pk])
    redrawn = client.get(live, {"seen": "0"}, headers={"HX-Request": "true"}).content.decode()
    news = redrawn.split('id="map-news"')[1].split("</div>")[0]
    assert "The map has been redrawn. Turn 1 of 20 is under way. Turn 1 waits for" in news


@pytest.mark.parametrize(
    ("status", "due_turn", "under_way", "waiting"),
    [
        (None, None, False, False),
        (Turn.Status.DONE, None, False, False),
        (Turn.Status.FAILED, None, False, False),
        (Turn.Status.DONE, 3, True, False),  # claimed by the scheduler, not yet rolled
        (Turn.Status.QUEUED, None, True, False),
        (Turn.Status.ROLLING, None, True, False),
        (Turn.Status.BATTLES_PENDING, None, True, True),
    ],
)
def test_whether_a_turn_is_under_way_is_decided_once_from_its_state(
    status: str | None, due_turn: int | None, under_way: bool, waiting: bool
) -> None:
    from campaign.web.ending import length_of

    campaign = Campaign(status=Campaign.Status.ACTIVE, turn=2, due_turn=due_turn)
    length = length_of(campaign, Settings(turn_limit=8), status)
    assert length is not None
    assert (length.under_way, length.waiting) == (under_way, waiting)
    said = "Turn 3 of 8 is under way" if under_way else "Turn 3 of 8 is next"
    assert length.said == said
    last = length_of(Campaign(status=Campaign.Status.ACTIVE, turn=7), Settings(turn_limit=8))
    assert last is not None and last.said == "Turn 8 of 8 is next: the last turn"
