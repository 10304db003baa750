"""A tabletop result the GM corrected says so where the players read it: the battle's
report (when, why, and what was first entered) and its card on the campaign's list of
battles. The walk of 7 December 2026 found both showing the corrected result as though it
had always been so; only the log of the GM's changes, on the turns page, told of it."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from battles.services.correction import correct_battle_result
from campaign.models import Membership
from tests.battles.test_correction import RIGHT, WRONG, played

pytestmark = pytest.mark.django_db

REASON = "The table swapped the sides when reporting."


def words(client: Client, url: str) -> str:
    page = client.get(url)
    assert page.status_code == 200, url
    text = re.sub(r"<[^>]+>", " ", page.content.decode().split("<main", 1)[-1])
    return " ".join(html.unescape(text).split())


def test_a_corrected_result_says_so_on_its_report_and_in_the_list_of_battles(
    django_user_model: Any,
) -> None:
    campaign = played("Corrected", WRONG)
    player = django_user_model.objects.create_user("player", "p@example.com", "pw")
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    client = Client()
    client.force_login(player)
    second = Battle.objects.get(campaign=campaign, key="1:Korona:2")
    first = Battle.objects.get(campaign=campaign, key="1:Korona:1")
    report = reverse("battle", args=[campaign.pk, second.pk])
    listed = reverse("battles", args=[campaign.pk])
    assert "corrected" not in words(client, report)
    assert "corrected" not in words(client, listed)

    correct_battle_result(battle_id=second.pk, **RIGHT, reason=REASON)

    read = words(client, report)
    assert "The game master corrected this result on " in read
    assert f". Why: {REASON} It was first entered as: the Japanese, attacking, win; " in read
    # The losses as a sentence says them (the walk of 7 December 2026 read "win; lost: the
    # Japanese nothing, the Australians 3 rifle squads").
    assert "win; the Japanese lost nothing, the Australians lost 3 rifle squads" in read
    assert "corrected" not in words(client, reverse("battle", args=[campaign.pk, first.pk]))
    cards = words(client, listed).split("Korona (battle ")
    assert "The game master corrected this result on " in cards[2]  # battle 2's card
    assert "corrected" not in cards[1]
