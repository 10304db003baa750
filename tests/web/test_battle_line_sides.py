"""A turn log's lines about a battle say whose company each is in words, as the battle's
result does: a walk-through found "1st Company loses 3 rifle squads" and "battle at
Korona: 1st Company attacks A Company" telling the side only by the line's coloured bar
(no help to a screen reader, to a colour-blind player, or on paper)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from django.test import Client
from django.urls import reverse

from campaign.models import Campaign
from campaign.web import turnlog

SIDES = {"australian": "Australians", "japanese": "Japanese"}
FOUGHT = {"battle": "1:Isura", "attacker_side": "japanese", "defender_side": "australian"}


def words_of(records: list[dict[str, Any]]) -> list[str]:
    phases = turnlog.turn_phases(records, reading=turnlog.Reading(side_names=SIDES))
    return [line.words for phase in phases for line in phase.lines]


def test_a_battles_lines_name_each_company_with_its_side() -> None:
    records = [
        {
            "phase": "battles",
            "kind": "battle",
            "target": "Isura",
            "side": "japanese",
            "attackers": ["1st Company", "2nd Company"],
            "defenders": ["C Company (militia)"],
            **FOUGHT,
        },
        {
            "phase": "battles",
            "kind": "losses",
            "text": "1st Company loses 3 rifle squads (supply may replace them)",
            "side": "japanese",
            "company": "1st Company",
            "stands_lost": {"rifle_squad": 3},
            **FOUGHT,
        },
        {
            "phase": "battles",
            "kind": "withdrawal",
            "text": "C Company (militia) withdraws from Isura to Ioro",
            "side": "australian",
            "company": "C Company (militia)",
            "target": "Ioro",
            "from": "Isura",
            **FOUGHT,
        },
        {
            "phase": "battles",
            "kind": "surrender",
            "text": "2nd Company cannot withdraw from Isura and surrenders",
            "side": "japanese",
            "company": "2nd Company",
            **FOUGHT,
        },
    ]
    assert words_of(records) == [
        "Battle at Isura: the Japanese 1st Company and 2nd Company attack the Australians' "
        "C Company (militia)",
        "The Japanese 1st Company loses 3 rifle squads (supply may replace them)",
        "The Australians' C Company (militia) withdraws from Isura to Ioro",
        "The Japanese 2nd Company cannot withdraw from Isura and surrenders",
    ]


def test_a_company_line_of_no_battle_is_left_as_it_was() -> None:
    # A supply company's losses to a roll, say: no battle, nothing to tell apart.
    record = {
        "phase": "supply",
        "kind": "losses",
        "text": "A Company loses 1 rifle squad (supply may replace it)",
        "side": "australian",
        "company": "A Company",
        "stands_lost": {"rifle_squad": 1},
    }
    assert words_of([record]) == ["A Company loses 1 rifle squad (supply may replace it)"]


def text_of(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_a_player_reads_whose_company_each_battle_line_is_about(
    played: Campaign, aussie: Any
) -> None:
    client = Client()
    client.force_login(aussie)
    words = text_of(client.get(reverse("turn", args=[played.pk, 1])).content.decode())
    assert "Battle at Korona: the Japanese 1st Company attacks the Australians' A Company" in words
    assert "The Japanese 1st Company loses 1 commander and 3 rifle squads" in words
    assert "The Australians' A Company loses 1 commander and 1 rifle squad" in words
    assert "The Australians' B Company withdraws from Korona to Isura" in words


def test_a_players_turn_log_names_every_company_in_one_form(
    played: Campaign, aussie: Any, japanese: Any
) -> None:
    """The log read "B Company (Australians)" beside "the Australians' C Company
    (militia)": now every company named with its side reads the second way, on every
    turn's page and in the turn list, to each side."""
    for user in (aussie, japanese):
        client = Client()
        client.force_login(user)
        pages = [reverse("turns", args=[played.pk])] + [
            reverse("turn", args=[played.pk, n]) for n in (1, 2)
        ]
        for url in pages:
            words = text_of(client.get(url).content.decode())
            assert not re.search(r"Company \((Australians|Japanese)\b", words), url
            assert re.search(r"the (Australians'|Japanese) [A-Z0-9]\w* Company", words), url
