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
from campaign.models import SPECTATOR, Membership
from notifications.feeds import feed_urls
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


def test_a_corrected_result_says_so_on_its_own_turns_page_and_feed(
    django_user_model: Any,
) -> None:
    """The walk of 7 December 2026: turn 1's page showed the corrected numbers with no
    sign they had changed; the GM's line was only on the next turn's page, "Before the
    turn". The battle's line on its own turn's page now says it was corrected, when, and
    links to its report, which says why; so does the turn's entry of the turns feed."""
    campaign = played("Corrected", WRONG)
    player = django_user_model.objects.create_user("player", "p@example.com", "pw")
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    client = Client()
    client.force_login(player)
    second = Battle.objects.get(campaign=campaign, key="1:Korona:2")
    page = reverse("turn", args=[campaign.pk, 1])
    feed = feed_urls(player)["turns"]
    assert "corrected" not in words(client, page)
    assert "corrected" not in Client().get(feed).content.decode()

    correct_battle_result(battle_id=second.pk, **RIGHT, reason=REASON)

    read = words(client, page)
    assert "Korona (battle 2) — result corrected" in read
    lines = read.split("battle report")
    marked = [i for i, line in enumerate(lines) if "This result was corrected" in line]
    assert len(marked) == 1, read  # the one battle corrected, on its own line
    assert (
        "beat the Japanese 2nd Company (the game master entered the result from the table). "
        "This result was corrected by the game master after the turn was played, on "
    ) in lines[marked[0]]
    assert "its report says why" in lines[marked[0]]
    report = reverse("battle", args=[campaign.pk, second.pk])
    assert f'href="{report}#correction"' in client.get(page).content.decode()
    assert 'id="correction"' in client.get(report).content.decode()
    entry = html.unescape(Client().get(feed).content.decode())
    assert (
        "The result of the battle at Korona (battle 2) was corrected by the game master "
        "after the turn was played, on "
    ) in entry
    assert "its report says why." in entry


def test_a_spectator_reads_on_the_turns_page_only_that_a_battle_of_it_was_corrected(
    django_user_model: Any,
) -> None:
    """A spectator reads no battle while the campaign is played (rulings, section 6):
    the turn's page tells them that a battle of the turn was corrected, and when, and
    links to the GM's changes, which say why; neither its place nor its result."""
    campaign = played("Watched", WRONG)
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "pw")
    Membership.objects.create(user=watcher, campaign=campaign, side=SPECTATOR)
    client = Client()
    client.force_login(watcher)
    second = Battle.objects.get(campaign=campaign, key="1:Korona:2")
    page = reverse("turn", args=[campaign.pk, 1])
    assert "corrected" not in words(client, page)

    correct_battle_result(battle_id=second.pk, **RIGHT, reason=REASON)

    read = words(client, page)
    assert (
        "The result of a battle of this turn, fought on the table, was corrected by the "
        "game master after the turn was played, on "
    ) in read
    assert "the game master's changes say why" in read
    assert "Korona (battle 2)" not in read and "rifle squads" not in read
    # Turn 2 has no page yet: its changes are on the turns page.
    assert f'<a href="{reverse("turns", args=[campaign.pk])}">the game master' in (
        client.get(page).content.decode()
    )
    assert REASON in words(client, reverse("turns", args=[campaign.pk]))
