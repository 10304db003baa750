"""The same words for the same things: the turn e-mail's schedule as the pages say it,
and a battle's ground ("light woods", not the scenario's bare "light")."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from battles.models import Battle
from campaign.models import Campaign, Turn
from campaign.services.visibility import open_campaign
from notifications.services import turn_words


def test_the_turn_email_says_when_the_next_turn_is_played_as_the_pages_do(
    played: Campaign, aussie: Any, login: Any
) -> None:
    assert played.next_deadline is None  # no schedule: played when ready, or by the GM
    turn = Turn.objects.get(campaign=played, number=2)
    body = turn_words(open_campaign(user=aussie, campaign=played), turn).body
    said = "Turn 3 is played once every side is ready, or when the GM plays it."
    assert said in body
    assert "when the game master says so" not in body
    assert said in login(aussie).get(reverse("campaign-map", args=[played.pk])).content.decode()


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
