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
# Each movement row's lengths to try and its allowances by going, in one look-up.
_ROWS = {move_class: (_TRIES[move_class], row) for move_class, row in MOVEMENT.items()}


def reachable_point(state: BattleState, stand: Stand, x: float, y: float) -> tuple[int, int]:
    """The whole-inch point nearest (x, y) that ``stand`` can reach this move.

    It tries the farthest point toward (x, y) that the good-going allowance reaches, then
    the rough and the bad going's (skipping a length the going of the line already rules
    out): at each length, of the whole-inch points around the point on the line (the two
    roundings of each coordinate), the one nearest (x, y) whose own straight path's worst
    going allows that distance. Every candidate is checked against the going of its own
    path: a rounded point may touch a corner of worse going than the line it came from.
    The start is the answer when nothing fits or nothing is nearer (x, y).

    The answer depends only on the start, the stand's movement row and (x, y): the
    battle keeps it (``BattleState.reach_cache``).
    """
    # On the table (as min(max(x, 0), width), without the calls): the answer is the
    # same for every goal that comes to the same point here.
    if x < 0:
        x = 0
    elif x > state.width_in:
        x = state.width_in
    if y < 0:
        y = 0
    elif y > state.depth_in:
        y = state.depth_in
    key = (stand.x, stand.y, stand.unit.move_class, x, y)
    found = state.reach_cache.get(key)
    if found is None:
        found = state.reach_cache[key] = _reachable_point(state, stand, x, y)
    return found


def _reachable_point(state: BattleState, stand: Stand, x: float, y: float) -> tuple[int, int]:
    """``reachable_point`` worked out, for a goal (x, y) on the table."""
    sx, sy = stand.x, stand.y
    dx, dy = x - sx, y - sy
    length = hypot(dx, dy)
    tries, allowances = _ROWS[stand.unit.move_class]
    # Every try's points lie in the box of the start and the first try's points (they
    # are nearer the start on the same line): when all the squares that box touches have
    # one going, every path among them has it, and none need be looked at on its own.
    if length > tries[0]:
        scale = tries[0] / length
        px, py = sx + dx * scale, sy + dy * scale
    else:
        px, py = x, y
    shared = state.box_going(sx, sy, px, py)
    reach: float = inf  # the going of the whole box's allowance, when it has one going
    if shared is not None:
        allowed = allowances[shared]
        if allowed is None:
            return sx, sy  # the going of the whole box is closed to it
        reach = allowed
    ceiling = inf  # the longest move the going of the line itself allows
    for inches in tries:
        if inches > ceiling:
            continue
        if length > inches:
            scale = inches / length
            px, py = sx + dx * scale, sy + dy * scale
        else:
            px, py = x, y
        low_x, low_y = floor(px), floor(py)
        best = None
        # Points within 1.42" of one ``inches`` from the start, farther than the going of
        # the whole box allows (``reach``): none fits, and none need be looked at.
        if length <= inches or inches - 1.5 <= reach:
            xs = (low_x,) if low_x == px else (low_x, low_x + 1)
            ys = (low_y,) if low_y == py else (low_y, low_y + 1)
            best = _nearest_fit(state, sx, sy, xs, ys, inches, x, y, allowances, shared)
        if best is None:
            ceiling = _ceiling(state, sx, sy, low_x, low_y, inches, allowances, shared, ceiling)
        elif best[0] >= length:
            return sx, sy  # no nearer the goal than staying put
        else:
            return best[1], best[2]
    return sx, sy


def _nearest_fit(
    state: BattleState,
    sx: int,
    sy: int,
    xs: tuple[int, ...],
    ys: tuple[int, ...],
    inches: int,
    x: float,
    y: float,
    allowances: tuple[int | None, ...],
    shared: int | None,
) -> tuple[float, int, int] | None:
    """Of the points (xs x ys) around one on the line, the one nearest (x, y) whose own
    path from (sx, sy) is no longer than ``inches`` and whose worst going allows it (its
    distance to (x, y), x, y), or None. ``shared``: the going index of every such path,
    when they share one."""
    width, depth = state.width_in, state.depth_in
    known = state.going_cache  # going_index's answers, looked up here first
    best: tuple[float, int, int] | None = None
    # The points come in (x, y) order, so a later one is never smaller on a tie: nearer
    # alone decides, as the least (distance, x, y) would.
    nearest = inf
    for ex in xs:
        if not 0 <= ex <= width:
            continue
        for ey in ys:
            if (ex == sx and ey == sy) or not 0 <= ey <= depth:
                continue
            moved = hypot(ex - sx, ey - sy)
            if moved > inches:
                continue
            going = shared
            if going is None:
                path = (sx, sy, ex, ey)
                going = known.get(path)
                if going is None:  # going_index's work, its cache asked already
                    going = known[path] = state.worst_going(sx, sy, ex, ey)
            allowed = allowances[going]
            if allowed is None or moved > allowed:
                continue
            distance = hypot(ex - x, ey - y)
            if distance < nearest:
                nearest, best = distance, (distance, ex, ey)
    return best


def _ceiling(
    state: BattleState,
    sx: int,
    sy: int,
    ex: int,
    ey: int,
    inches: int,
    allowances: tuple[int | None, ...],
    shared: int | None,
    ceiling: float,
) -> float:
    """The ceiling after a length that nothing fitted: lowered to the allowance of the
    going of the path to its first point (ex, ey), when that going is what ruled it out."""
    if (ex == sx and ey == sy) or not (0 <= ex <= state.width_in and 0 <= ey <= state.depth_in):
        return ceiling
    moved = hypot(ex - sx, ey - sy)
    if moved > inches:
        return ceiling
    allowed = allowances[state.going_index(sx, sy, ex, ey) if shared is None else shared]
    if allowed is not None and moved > allowed:
        return allowed if allowed < ceiling else ceiling  # (as min(), without the call)
    return ceiling


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
