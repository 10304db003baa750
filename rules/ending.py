"""What every rule set's battle shares about ending: the signal and the turn limit."""

from __future__ import annotations

from typing import Any

MAX_TURN_LIMIT = 100


class BattleOver(Exception):
    """Raised the moment a battle ends; ``winner`` is attacker or defender."""

    def __init__(self, winner: str, reason: str) -> None:
        super().__init__(f"{winner} wins: {reason}")
        self.winner = winner
        self.reason = reason


def turn_limit_problem(value: Any) -> str | None:
    """The problem with a BATTLE.json ``turn_limit`` option, if any."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TURN_LIMIT:
        return f"turn_limit must be a whole number from 1 to {MAX_TURN_LIMIT}, not {value!r}"
    return None
