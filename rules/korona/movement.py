"""Movement by going, the command radius and its initiative roll, limbering."""

from __future__ import annotations

from math import ceil, floor, hypot

from rules.korona import cup
from rules.korona.state import (
    COMMAND_RADIUS_IN,
    OK,
    BattleState,
    Stand,
)
from rules.units import MOVEMENT, QUALITY_INITIATIVE, movement_allowance


def can_move(stand: Stand) -> bool:
    """Pinned and suppressed stands may not move until rallied; a heavy or man-packed
    weapon that fired this turn may not move in it (it fires only in turns it did not
    move)."""
    return (
        stand.alive
        and stand.status == OK
        and stand.unit.move_class != "static"
        and not (stand.fired and stand.unit.fires_only_unmoved)
    )


def allowance_along(state: BattleState, stand: Stand, x: int, y: int) -> int | None:
    """Inches ``stand`` may move toward (x, y): set by the worst going on the straight path.

    Ruling: a move is a straight line and the worst going it crosses sets the allowance
    (no path-finding). None means the stand may not enter that going at all.
    """
    return movement_allowance(stand.unit, state.going_index(stand.x, stand.y, x, y))


def reachable_point(state: BattleState, stand: Stand, x: float, y: float) -> tuple[int, int]:
    """The farthest whole-inch point toward (x, y) that ``stand`` can reach this move.

    It starts from the good-going allowance and shortens the move to the allowance of the
    worst going on the path until the path allows it.
    """
    field = state.field
    x = min(max(x, 0), field.width_in)
    y = min(max(y, 0), field.depth_in)
    allowances = MOVEMENT[stand.unit.move_class]
    inches = allowances[0]
    sx, sy = stand.x, stand.y
    if not inches:
        return sx, sy
    # Each try ends at the whole-inch point at most ``inches`` along the line toward (x, y):
    # whole inches keep the sight and going look-ups cacheable; rounding toward the start
    # means a move never exceeds its allowance.
    dx, dy = x - sx, y - sy
    length = hypot(dx, dy)
    known_going = state._going
    while True:
        if length > inches:
            scale = inches / length
            px, py = sx + dx * scale, sy + dy * scale
        else:
            px, py = x, y
        ex = floor(px) if px >= sx else ceil(px)
        ey = floor(py) if py >= sy else ceil(py)
        if ex == sx and ey == sy:
            return ex, ey
        index = known_going.get((sx, sy, ex, ey))
        if index is None:
            index = state.going_index(sx, sy, ex, ey)
        allowed = allowances[index]
        if allowed is None:
            return sx, sy  # it may not enter that going at all
        if hypot(ex - sx, ey - sy) <= allowed:
            return ex, ey
        inches = allowed


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
    going = state.going(stand.x, stand.y, x, y)
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
    origin = (stand.x, stand.y)
    stand.x, stand.y = x, y
    stand.moved = True
    # The other side may pause this move to place a reinforcement in ambush (16.2).
    cup.enemy_moved(state, stand, origin)


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
