"""Movement by going, the command radius and its initiative roll, limbering."""

from __future__ import annotations

from math import hypot

from rules.korona.state import (
    COMMAND_RADIUS_IN,
    GOING_INDEX,
    OK,
    BattleState,
    Stand,
)
from rules.units import QUALITY_INITIATIVE, movement_allowance


def can_move(stand: Stand) -> bool:
    """Pinned and suppressed stands may not move until rallied."""
    return stand.alive and stand.status == OK and stand.unit.move_class != "static"


def allowance_along(state: BattleState, stand: Stand, x: float, y: float) -> int | None:
    """Inches ``stand`` may move toward (x, y): set by the worst going on the straight path.

    Ruling: a move is a straight line and the worst going it crosses sets the allowance
    (no path-finding). None means the stand may not enter that going at all.
    """
    going = state.field.going_along(stand.x, stand.y, x, y)
    return movement_allowance(stand.unit, GOING_INDEX[going])


def reachable_point(state: BattleState, stand: Stand, x: float, y: float) -> tuple[int, int]:
    """The whole-inch point nearest (x, y) on the line toward it that ``stand`` can reach."""
    width, depth = state.field.width_in, state.field.depth_in
    x = min(max(x, 0), width)
    y = min(max(y, 0), depth)
    allowance = allowance_along(state, stand, x, y)
    if not allowance:
        return stand.x, stand.y
    dx, dy = x - stand.x, y - stand.y
    length = hypot(dx, dy)
    if length > allowance:
        scale = allowance / length
        x, y = stand.x + dx * scale, stand.y + dy * scale
    # Whole inches keep line-of-sight look-ups cacheable; round toward the start so a
    # move never exceeds its allowance.
    tx = int(x) if x >= stand.x else -int(-x)
    ty = int(y) if y >= stand.y else -int(-y)
    return tx, ty


def needs_command_roll(stand: Stand) -> bool:
    """A stand more than 6" from its commander (or with no commander) must roll to move."""
    if stand.unit.commander:
        return False
    commander = stand.force.commander
    return commander is None or not commander.alive or commander.distance(stand) > COMMAND_RADIUS_IN


def command_roll(state: BattleState, stand: Stand) -> bool:
    """The initiative roll: Veteran 3+, Trained 4+, Raw 5+. Failing, the stand stays put."""
    target = QUALITY_INITIATIVE[stand.force.quality]
    die = state.roller.d6()
    passed = die >= target
    commander = stand.force.commander
    state.record(
        "command",
        side=stand.force.side,
        stand=stand.id,
        stand_type=stand.unit.name,
        dice=[die],
        target=target,
        reason="no commander"
        if commander is None or not commander.alive
        else f'{commander.distance(stand):.1f}" from its commander',
        outcome="moves" if passed else "stays put",
    )
    return passed


def move(state: BattleState, stand: Stand, x: int, y: int, *, purpose: str) -> None:
    """Move ``stand`` to (x, y), which the caller got from ``reachable_point``."""
    going = state.field.going_along(stand.x, stand.y, x, y)
    state.record(
        "move",
        side=stand.force.side,
        stand=stand.id,
        stand_type=stand.unit.name,
        to=[x, y],
        going=str(going),
        purpose=purpose,
        **{"from": [stand.x, stand.y]},
    )
    stand.x, stand.y = x, y
    stand.moved = True


def limber(state: BattleState, stand: Stand, *, limbered: bool) -> None:
    """Limbering or unlimbering a heavy weapon takes the stand's whole move."""
    stand.limbered = limbered
    stand.moved = True
    state.record(
        "limber",
        side=stand.force.side,
        stand=stand.id,
        stand_type=stand.unit.name,
        outcome="limbered" if limbered else "unlimbered",
    )
