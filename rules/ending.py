"""What every rule set's battle shares about ending: the signal and the turn limit."""

from __future__ import annotations

from typing import Any, Protocol

MAX_TURN_LIMIT = 100


# Why a side withdrew of its own accord (a result's ``withdrawal``, beside its reason
# "withdrew"): the pages word it from this key (rules.names.WITHDRAWAL_NAMES), never from
# the log's English.
HOPELESS = "hopeless"  # facing three times its fighting strength, or left with none
BEATEN_BY_THE_CLOCK = "beaten_by_the_clock"  # an attacker losing at the limit, out of reach
WITHDRAWALS = (HOPELESS, BEATEN_BY_THE_CLOCK)


class BattleOver(Exception):
    """Raised the moment a battle ends; ``winner`` is attacker or defender,
    ``withdrawal`` (one of WITHDRAWALS) why the loser withdrew, when it did, and
    ``fit_to_fight`` the two sides' fighting strengths when it was hopeless."""

    def __init__(
        self,
        winner: str,
        reason: str,
        withdrawal: str | None = None,
        fit_to_fight: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(f"{winner} wins: {reason}")
        self.winner = winner
        self.reason = reason
        self.withdrawal = withdrawal
        # A hopeless withdrawal: the loser's fighting strength and the winner's then.
        self.fit_to_fight = fit_to_fight


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


def result_problem(
    winner: str,
    lost: dict[str, int],
    present: dict[str, int],
) -> str | None:
    """Why a battle's result contradicts the end condition, if it does (None if not).

    ``lost`` and ``present``: the stands each side ("attacker", "defender") lost and
    brought, reinforcements included. The rulings (section 4, "End"): a side that has
    lost a third of the stands it brought (losses x 3 >= present) loses at once, so a
    side that did cannot have won unless the other did too in the same phase, when the
    side with the greater fraction lost loses and an exact tie goes to the defender (as
    ``end_on_a_third_lost``). A result where neither lost a third may go either way: the
    turn limit, or a side withdrawing of its own accord, ended it.
    """
    loser = "defender" if winner == "attacker" else "attacker"

    def broken(key: str) -> bool:
        return present[key] > 0 and lost[key] * 3 >= present[key]

    def share(key: str) -> str:
        return f"{lost[key]} of the {present[key]} stands it brought"

    if not broken(winner):
        return None
    if not broken(loser):
        return (
            f"the {winner} cannot have won: it lost {share(winner)}, a third or more, and "
            f"the {loser} lost {share(loser)}, less than a third. A side that loses a third "
            f"of its stands loses the battle at once: the winner is the {loser}"
        )
    # Both lost a third, in the same phase: the greater fraction lost loses, and on a tie
    # the attacker loses (the defender wins, as at the turn limit); cross-multiplied, so no
    # rounding.
    attacker_share = lost["attacker"] * present["defender"]
    defender_share = lost["defender"] * present["attacker"]
    right = "defender" if attacker_share >= defender_share else "attacker"
    if winner == right:
        return None
    why = (
        "the same fraction, and a tie goes to the defender"
        if attacker_share == defender_share
        else "and the side with the greater fraction lost loses"
    )
    return (
        f"the {winner} cannot have won: both sides lost a third or more (the attacker "
        f"{share('attacker')}, the defender {share('defender')}), {why}: the winner is "
        f"the {right}"
    )
