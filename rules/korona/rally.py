"""Rally: pinned and suppressed stands roll to recover; a commander within 2" adds 1."""

from __future__ import annotations

from rules.korona.state import OK, PINNED, STATUS_NAMES, BattleState, Force
from rules.units import RALLY_TARGET


def rally_target(force: Force, status: int) -> int:
    pinned, suppressed = RALLY_TARGET[force.quality]
    return pinned if status == PINNED else suppressed


def rally(state: BattleState, force: Force) -> None:
    """Every pinned or suppressed stand of ``force`` rolls; success clears its state."""
    for stand in force.stands:
        if not stand.alive or stand.status == OK:
            continue
        die = state.roller.d6()
        bonus = 1 if force.commander_near(stand) else 0
        target = rally_target(force, stand.status)
        success = die + bonus >= target
        state.record_stand(
            "rally",
            stand,
            status_before=STATUS_NAMES[stand.status],
            dice=[die],
            modifiers=[{"reason": 'commander within 2"', "value": 1}] if bonus else [],
            target=target,
            outcome="rallied" if success else "failed",
        )
        if success:
            stand.status = OK
