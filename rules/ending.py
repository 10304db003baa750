"""What every rule set's battle shares about ending: the signal and the turn limit."""

from __future__ import annotations

from typing import Any, Protocol

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


class _Side(Protocol):
    key: str
    enemy: Any

    def broken(self) -> bool: ...

    def fraction_lost(self) -> float: ...


def end_on_a_third_lost(attacker: _Side, defender: _Side) -> None:
    """Raise BattleOver if either side has lost a third of what it brought.

    Ruling: when both break in the same phase, the side with the greater fraction lost
    loses; an exact tie goes to the defender, as at the turn limit.
    """
    attacker_broken, defender_broken = attacker.broken(), defender.broken()
    if not (attacker_broken or defender_broken):
        return
    if attacker_broken and defender_broken:
        loser = attacker if attacker.fraction_lost() >= defender.fraction_lost() else defender
    else:
        loser = attacker if attacker_broken else defender
    raise BattleOver(loser.enemy.key, "a_third_lost")
