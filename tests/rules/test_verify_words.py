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


def _turn_file(view: str) -> dict[str, object]:
    """A played turn's file as a reader downloads it, with one initiative die in its log
    (the seed kept secret, so it cannot be checked)."""
    return {
        "format": "korona-turn/1",
        "turn": 1,
        "view": view,
        "commitment": {
            "turn": "0" * 64,
            "branches": {"public": "a", "australian": "b", "japanese": "c", "initiative": "d"},
        },
        "revealed": {},
        "log": [
            {
                "kind": "initiative",
                "dice": [4],
                "dice_streams": ["initiative/initiative:australian"],
            }
        ],
        "battles": [],
        "orders": [],
    }


def test_the_initiative_die_is_yours_only_to_a_side_s_player() -> None:
    """A spectator has no side: the unchecked initiative die is not "your initiative die",
    and the total its seed would give away is a side's, not "the enemy's"."""
    from rules.campaign.verify import verify_turn

    player = " ".join(verify_turn(_turn_file("australian")).notes)
    assert "from the initiative seed (your initiative die), which is kept secret" in player
    assert "give away the enemy's initiative total" in player
    spectator = " ".join(verify_turn(_turn_file("public")).notes)
    assert "1 die was rolled from the initiative seed, which is kept secret" in spectator
    assert "give away a side's initiative total in a tied round" in spectator
    assert "your" not in spectator.replace("your own", "") and "enemy" not in spectator
