"""A turn log's lines start with a capital letter: a walk-through read "naval events:
rolled 6, needing 6: an event" and "battle at Korona: ...", the rules' own text (kept in
the records, which replays compare), as the lines of the turn pages."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Turn
from campaign.web import turnlog


def lines_of(html: str) -> list[str]:
    spans = re.findall(r'<span class="words">(.*?)</span>\s*</li>', html, flags=re.S)
    return [unescape(re.sub(r"<[^>]+>", "", span)).strip() for span in spans]


def test_every_line_of_a_turn_page_starts_with_a_capital(
    played: Campaign, aussie: Any, japanese: Any, gm_user: Any
) -> None:
    read = 0
    for user in (aussie, japanese, gm_user):
        client = Client()
        client.force_login(user)
        for number in (1, 2):
            html = client.get(reverse("turn", args=[played.pk, number])).content.decode()
            for line in lines_of(html):
                read += 1
                assert not line[:1].islower(), (user.username, number, line)
    assert read > 20


def test_the_rules_lower_case_text_is_read_from_a_capital() -> None:
    record = {
        "phase": "naval",
        "kind": "event_check",
        "dice": [6],
        "text": "naval events: rolled 6, needing 6: an event",
    }
    assert turnlog.record_words(record) == "Naval events: rolled 6, needing 6: an event"
    assert record["text"] == "naval events: rolled 6, needing 6: an event"  # kept


def test_a_turns_summary_starts_each_line_with_a_capital(played: Campaign) -> None:
    """The turn's email and feed list the same lines (turn_summary)."""
    sides = {"australian": "Australians", "japanese": "Japanese"}
    for turn in Turn.objects.filter(campaign=played):
        summary = turnlog.turn_summary(turn.log, sides)
        assert summary
        assert all(not line[:1].islower() for line in summary), summary
