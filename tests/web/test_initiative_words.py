"""The initiative roll in words: a walk-through of 7 December 2026 read the rules'
"Initiative: Australians 3 - 1 out of supply = 2" as a score of 3 to 1."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from django.urls import reverse

from campaign.models import Campaign, Turn
from campaign.web.turnlog import record_words


def initiative(text: str) -> dict[str, Any]:
    return {"kind": "initiative", "phase": "initiative", "text": text}


def test_a_side_out_of_supply_rolls_less_and_one_in_supply_rolls_its_die() -> None:
    record = initiative(
        "initiative: Australians 3 - 1 out of supply = 2; Japanese 4 - 0 out of supply = 4: "
        "Japanese move first"
    )
    assert record_words(record) == (
        "Initiative: Australians rolled 3, less 1 for companies out of supply, making 2; "
        "Japanese rolled 4: Japanese move first"
    )


def test_the_fogged_record_of_ones_own_roll_reads_the_same_way() -> None:
    # rules.campaign.visibility._own_initiative: the reader's own die alone.
    record = initiative("initiative: Japanese 2 - 2 out of supply = 0: Australians move first")
    assert record_words(record) == (
        "Initiative: Japanese rolled 2, less 2 for companies out of supply, making 0: "
        "Australians move first"
    )


def test_the_turn_page_says_the_roll_in_words(played: Campaign, aussie: Any, login: Any) -> None:
    page = login(aussie).get(reverse("turn", args=[played.pk, 1])).content.decode()
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())
    turn = Turn.objects.get(campaign=played, number=1)
    assert any(r["kind"] == "initiative" for r in turn.log)
    assert "out of supply = " not in text
    assert re.search(r"Initiative: Australians rolled \d", text), text
