"""A battle named in a turn's check in a reader's words, never by its key."""

from __future__ import annotations

import pytest

from rules.campaign.verify import battle_words


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("11:Korona", "the battle at Korona"),
        ("3:Oivi:2", "the battle at Oivi (the second there)"),
        ("3:Oivi:7", "the battle at Oivi (the 7th there)"),
        ("3:Oivi:22", "the battle at Oivi (the 22nd there)"),
        ("odd", "the battle odd"),
    ],
)
def test_a_battle_is_named_by_its_area(key: str, words: str) -> None:
    assert battle_words(key) == words
