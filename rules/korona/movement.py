"""Movement by going, the command radius and its initiative roll, limbering."""

from __future__ import annotations

from math import floor, hypot, inf

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


# The lengths a move tries, longest first: the allowances of the stand's movement row.
_TRIES = {
    move_class: tuple(sorted({inches for inches in row if inches}, reverse=True))
    for move_class, row in MOVEMENT.items()
}


def reachable_point(state: BattleState, stand: Stand, x: float, y: float) -> tuple[int, int]:
    """The whole-inch point nearest (x, y) that ``stand`` can reach this move.

    It tries the farthest point toward (x, y) that the good-going allowance reaches, then
    the rough and the bad going's (skipping a length the going of the line already rules
    out): at each length, of the whole-inch points around the point on the line (the two
    roundings of each coordinate), the one nearest (x, y) whose own straight path's worst
    going allows that distance. Every candidate is checked against the going of its own
    path: a rounded point may touch a corner of worse going than the line it came from.
    The start is the answer when nothing fits or nothing is nearer (x, y).
    """
    field = state.field
    width, depth = field.width_in, field.depth_in
    x = min(max(x, 0), width)
    y = min(max(y, 0), depth)
    sx, sy = stand.x, stand.y
    dx, dy = x - sx, y - sy
    length = hypot(dx, dy)
    ceiling = inf  # the longest move the going of the line itself allows
    for inches in _TRIES[stand.unit.move_class]:
        if inches > ceiling:
            continue
        if length > inches:
            scale = inches / length
            px, py = sx + dx * scale, sy + dy * scale
        else:
            px, py = x, y
        low_x, low_y = floor(px), floor(py)
        xs = (low_x,) if low_x == px else (low_x, low_x + 1)
        ys = (low_y,) if low_y == py else (low_y, low_y + 1)
        best, ceiling = _nearest_fit(state, stand, xs, ys, inches, (x, y), ceiling)
        if best is not None:
            if best[0] >= length:
                return sx, sy  # no nearer the goal than staying put
            return best[1], best[2]
    return sx, sy


def _nearest_fit(
    state: BattleState,
    stand: Stand,
    xs: tuple[int, ...],
    ys: tuple[int, ...],
    inches: int,
    goal: tuple[float, float],
    ceiling: float,
) -> tuple[tuple[float, int, int] | None, float]:
    """Of the points (xs x ys) around one on the line, the one nearest ``goal`` whose own
    path's worst going allows the move (distance to the goal, x, y), or None; and the
    ceiling, lowered when the first point's going rules out this length."""
    width, depth = state.field.width_in, state.field.depth_in
    allowances = MOVEMENT[stand.unit.move_class]
    known_going = state._going
    sx, sy = stand.x, stand.y
    x, y = goal
    first = (xs[0], ys[0])
    best: tuple[float, int, int] | None = None
    for ex in xs:
        for ey in ys:
            if (ex, ey) == (sx, sy) or not (0 <= ex <= width and 0 <= ey <= depth):
                continue
            moved = hypot(ex - sx, ey - sy)
            if moved > inches:
                continue
            index = known_going.get((sx, sy, ex, ey))
            if index is None:
                index = state.going_index(sx, sy, ex, ey)
            allowed = allowances[index]
            if allowed is None or moved > allowed:
                if allowed is not None and (ex, ey) == first:
                    ceiling = min(ceiling, allowed)
                continue
            key = (hypot(ex - x, ey - y), ex, ey)
            if best is None or key < best:
                best = key
    return best, ceiling


def within_allowance(state: BattleState, stand: Stand, x: int, y: int) -> bool:
    """Does the going of the straight path to (x, y) allow ``stand`` to move that far?"""
    allowed = allowance_along(state, stand, x, y)
    return allowed is not None and hypot(x - stand.x, y - stand.y) <= allowed


def needs_command_roll(stand: Stand) -> bool:
    """A stand more than 6" from its commander (or with no commander) must roll to move."""
    if stand.unit.commander:
        return False
    commander = stand.force.commander_of(stand)  # its own company's (rulings section 4)
    return commander is None or commander.distance(stand) > COMMAND_RADIUS_IN


def command_roll(state: BattleState, stand: Stand) -> bool:
    """The initiative roll: Veteran 3+, Trained 4+, Raw 5+. Failing, the stand stays put."""
    target = QUALITY_INITIATIVE[stand.force.quality]
    die = state.roller.d6()
    passed = die >= target
    commander = stand.force.commander_of(stand)
    state.record_stand(
        "command",
        stand,
        dice=[die],
        target=target,
        reason="no commander"
        if commander is None
        else f'{commander.distance(stand):.1f}" from its commander',
        outcome="moves" if passed else "stays put",
    )
    return passed


def move(state: BattleState, stand: Stand, x: int, y: int, *, purpose: str) -> bool:
    """Move ``stand`` toward (x, y): every move of a battle goes through here.

    The allowance is checked here, against the worst going of the straight path: a move
    asked to go farther than its going allows is cut back to ``reachable_point`` toward
    the same place (and not made if that is where the stand is). Returns whether it moved.
    """
    if not within_allowance(state, stand, x, y):
        x, y = reachable_point(state, stand, x, y)
        if (x, y) == (stand.x, stand.y):
            return False
    going = state.going(stand.x, stand.y, x, y)
    state.record_stand(
        "move",
        stand,
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
    return True


def limber(state: BattleState, stand: Stand, *, limbered: bool) -> None:
    """Limbering or unlimbering a heavy weapon takes the stand's whole move."""
    stand.limbered = limbered
    stand.moved = True
    state.record_stand(
        "limber",
        stand,
        outcome="limbered" if limbered else "unlimbered",
    )
