"""The same words for the same things: the turn e-mail's schedule as the pages say it,
and a battle's ground ("light woods", not the scenario's bare "light")."""

from __future__ import annotations

from html import unescape
from typing import Any

from django.urls import reverse

from battles.models import Battle
from campaign.models import Campaign, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from campaign.services.visibility import open_campaign
from notifications.services import public_turn_words, turn_words
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join


def test_the_turn_email_says_when_the_next_turn_is_played_as_the_pages_do(
    played: Campaign, aussie: Any, login: Any
) -> None:
    assert played.next_deadline is None  # no schedule: played when ready, or by the GM
    turn = Turn.objects.get(campaign=played, number=2)
    body = turn_words(open_campaign(user=aussie, campaign=played), turn).body
    said = "Turn 3 is played once every side is ready, or when the game master plays it."
    assert said in body
    assert "when the game master says so" not in body
    assert said in login(aussie).get(reverse("campaign-map", args=[played.pk])).content.decode()


def test_a_solo_players_turn_email_says_their_ready_plays_the_next_turn(
    aussie: Any, japanese: Any
) -> None:
    """As the map says it: every other side is the campaign AI's, so the player's own
    "ready" plays the turn; the group's channel, read by every side, names the side whose
    "ready" plays it (which sides a player plays is public)."""
    solo = create_campaign(data=korona_doc(), name="Korona solo", seed=1)
    join(aussie, solo, "australian")
    advance_turn(campaign_id=solo.pk)
    solo.refresh_from_db()
    turn = Turn.objects.get(campaign=solo, number=1)
    body = turn_words(open_campaign(user=aussie, campaign=solo), turn).body
    alone = "Turn 2 is played when you mark your orders ready, or when the game master plays it."
    assert alone in body
    assert "every side is ready" not in body
    public = public_turn_words(solo, turn).body
    assert (
        "Turn 2 is played when the Australians mark their orders ready (the campaign AI plays "
        "the other side, always ready), or when the game master plays it."
    ) in public


def test_a_player_with_a_teammate_is_emailed_that_either_ready_plays_the_next_turn(
    aussie: Any, outsider: Any
) -> None:
    """As the map says it: the Japanese are the campaign AI's and two players play the
    Australians, so the turn is played when either marks the side's orders ready."""
    team = create_campaign(data=korona_doc(), name="Korona, two Australians", seed=1)
    join(aussie, team, "australian")
    join(outsider, team, "australian")  # the teammate
    advance_turn(campaign_id=team.pk)
    team.refresh_from_db()
    turn = Turn.objects.get(campaign=team, number=1)
    body = turn_words(open_campaign(user=aussie, campaign=team), turn).body
    assert (
        "Turn 2 is played when you or a teammate marks your side's orders ready, or when the "
        "game master plays it." in body
    )
    assert "when you mark your orders ready" not in body


def test_a_battles_heading_says_light_woods(played: Campaign, aussie: Any, login: Any) -> None:
    battle = Battle.objects.filter(campaign=played, area__name="Korona").first()
    assert battle is not None and battle.area.vegetation == "light"
    client = login(aussie)
    for name in ("battle", "battle-sheet"):
        html = client.get(reverse(name, args=[played.pk, battle.pk])).content.decode()
        assert "(zone 5, light woods, plains)" in html, name


def test_an_areas_page_says_light_woods(played: Campaign, aussie: Any, login: Any) -> None:
    korona = played.areas.get(name="Korona")
    html = login(aussie).get(reverse("area", args=[played.pk, korona.pk])).content.decode()
    assert "<dt>Ground</dt><dd>light woods, plains</dd>" in html


def test_a_campaign_no_player_plays_says_the_game_master_plays_its_turns(
    gm_user: Any, aussie: Any, login: Any
) -> None:
    """AI against AI with no deadline: the orders page (the GM looking at a side) showed
    both sides "played by the campaign AI, always ready" and said "the turn is played once
    every side is ready", yet nothing makes that turn due (no side's "ready" is awaited,
    ``mark_side_ready`` is never called): only "Advance turn now" plays it. The page and
    the map say so; a campaign with a player keeps its words."""
    from campaign.services.schedule import sweep_due

    alone = create_campaign(data=korona_doc(), name="Table night", seed=1)
    assert alone.next_deadline is None
    assert sweep_due(enqueue=False).claimed == []  # the truth the words tell: never due
    gm = login(gm_user)
    orders = unescape(
        gm.get(reverse("orders", args=[alone.pk]) + "?side=australian").content.decode()
    )
    said = (
        'No deadline: no player plays a side, so no side\'s "ready" plays the turn: it is '
        'played when the game master presses "Advance turn now"'
    )
    assert said in orders
    assert "once every side is ready" not in orders
    shown = unescape(gm.get(reverse("campaign-map", args=[alone.pk])).content.decode())
    assert 'Turn 1 is played when the game master presses "Advance turn now"' in shown
    assert "once every side is ready" not in shown
    join(aussie, alone, "australian")  # a player: their "ready" plays it now
    orders = gm.get(reverse("orders", args=[alone.pk]) + "?side=japanese").content.decode()
    assert "Advance turn now" not in orders and "when you mark your orders ready" not in orders
    # The one side a player plays is named (d125441: "once every side is ready" read as
    # though the AI's side were awaited too).
    assert "when the Australians mark their orders ready" in unescape(orders)
