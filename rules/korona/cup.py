"""Reinforcements and the Fog of War cup (Old Breed South Pacific 16.2).

A force's reinforcements wait in a cup. Each tactical turn a side may draw one at random
(a die over the units left in the cup) and place it at once, one hex read as 3":
- during the enemy's move, when an enemy stand has just moved (its move is paused): in
  cover 3"-6" from that stand, within the side's Area of Control, closer to the side's
  own edge than the mover, not where the mover came from and not within 3" of any other
  enemy stand; placed unused and concealed, it may at once fire at the mover
  (opportunity fire);
- during the side's own move: in cover, within its Area of Control, within 9" of a
  friendly stand and at least 9" from every enemy stand, or else entering at its own
  table edge; the placement is its move for the turn.
Without the cup option (``fog_of_war_cup``), a drawn reinforcement enters at its own
edge in the side's move.
"""

from __future__ import annotations

from math import hypot

from rules.battlefield import Sight
from rules.korona.control import edge_distance, in_area_of_control
from rules.korona.fire import fire, in_range
from rules.korona.state import BattleState, Force, Stand

HEX_IN = 3
AMBUSH_MIN_IN, AMBUSH_MAX_IN = 1 * HEX_IN, 2 * HEX_IN
OWN_PHASE_FRIEND_IN = 3 * HEX_IN
OWN_PHASE_ENEMY_IN = 3 * HEX_IN
GRID_IN = 2  # placements are searched on a 2" grid
SPACING_IN = 3  # as the AI deploys: out of each other's 2" blast


def _cover(state: BattleState, x: int, y: int) -> float:
    """Beneficial terrain: the edge of woods best, then deep woods, then high ground."""
    depth = state.field.wood_depth(x, y)
    if 0 < depth <= 3:
        return 3.0
    if depth > 3:
        return 2.0
    return 1.0 if state.field.cover_at(x, y) else 0.0


def _points(state: BattleState):
    for x in range(0, state.field.width_in + 1, GRID_IN):
        for y in range(0, state.field.depth_in + 1, GRID_IN):
            yield x, y


def _draw(state: BattleState, force: Force, when: str) -> Stand:
    # A die over the units left; the last one needs no die.
    dice = [state.roller.die(len(force.cup))] if len(force.cup) > 1 else []
    stand = force.cup.pop(dice[0] - 1 if dice else 0)
    state.cup_drawn.add(force.key)
    state.record(
        "cup_draw",
        side=force.side,
        stand=stand.id,
        stand_type=stand.unit.name,
        dice=dice,
        cup_size=len(force.cup) + 1,
        when=when,
        outcome=f"{stand.id} is drawn from the cup",
    )
    return stand


def _place(state: BattleState, stand: Stand, x: int, y: int, case: str) -> None:
    stand.x, stand.y = x, y
    stand.force.stands.append(stand)
    state.record(
        "cup_place",
        side=stand.force.side,
        stand=stand.id,
        stand_type=stand.unit.name,
        to=[x, y],
        case=case,
        outcome=f"{stand.id} is placed at {x},{y} ({case})",
    )


def may_draw(state: BattleState, force: Force) -> bool:
    return bool(force.cup) and force.key not in state.cup_drawn


def own_move(state: BattleState, force: Force) -> None:
    """At the start of the side's move: draw and place one reinforcement, if any wait."""
    if not may_draw(state, force):
        return
    best = None
    if state.options.get("fog_of_war_cup"):
        friends = [s for s in force.stands if s.alive]
        enemies = [s for s in force.enemy.stands if s.alive]
        for x, y in _points(state):
            cover = _cover(state, x, y)
            if cover == 0 or not in_area_of_control(state, force, x, y):
                continue
            if not any(hypot(f.x - x, f.y - y) <= OWN_PHASE_FRIEND_IN for f in friends):
                continue
            if any(hypot(f.x - x, f.y - y) < SPACING_IN for f in friends):
                continue  # never on top of a friend: out of its blast
            nearest = min((hypot(e.x - x, e.y - y) for e in enemies), default=float("inf"))
            if nearest < OWN_PHASE_ENEMY_IN:
                continue
            # Cover first, then as near the enemy as the rule allows.
            key = (-cover, nearest, y, x)
            if best is None or key < best:
                best = key
    stand = _draw(state, force, "own move")
    if best is not None:
        _place(state, stand, best[3], best[2], "in cover within its Area of Control")
    else:
        x, y = _edge_entry(state, force)
        _place(state, stand, x, y, "enters at its own table edge")
    stand.moved = True  # placing it was its move


def _edge_entry(state: BattleState, force: Force) -> tuple[int, int]:
    """The free spot on the side's own edge nearest the middle."""
    y = state.field.depth_in if force.key == "attacker" else 0
    middle = state.field.width_in // 2
    for offset in range(0, state.field.width_in + 1):
        for x in (middle - offset, middle + offset):
            if 0 <= x <= state.field.width_in and not any(
                s.alive and hypot(s.x - x, s.y - y) < 2 for s in force.stands
            ):
                return x, y
    return middle, y


def _ambush_key(
    state: BattleState,
    force: Force,
    mover: Stand,
    origin: tuple[int, int],
    others: list[Stand],
    mover_edge: float,
    x: int,
    y: int,
) -> tuple[bool, float, float, int, int] | None:
    """How good (smaller is better) an ambush place is, or None where the rules forbid it.
    A place that can see the mover comes first: the point of an ambush is to shoot."""
    distance = hypot(mover.x - x, mover.y - y)
    if not AMBUSH_MIN_IN <= distance <= AMBUSH_MAX_IN:
        return None
    cover = _cover(state, x, y)
    if cover == 0 or edge_distance(state, force, y) >= mover_edge:
        return None
    if hypot(origin[0] - x, origin[1] - y) < HEX_IN / 2:
        return None  # not in the hex the enemy just left
    if any(hypot(o.x - x, o.y - y) <= HEX_IN for o in others):
        return None  # nor within a hex of another enemy
    if any(s.alive and hypot(s.x - x, s.y - y) < SPACING_IN for s in force.stands):
        return None
    if not in_area_of_control(state, force, x, y):
        return None
    field = state.field
    sees = (
        field.sight(x, y, mover.x, mover.y) is not Sight.BLOCKED
        and field.sight(mover.x, mover.y, x, y) is not Sight.BLOCKED
    )
    return (not sees, -cover, distance, y, x)


def enemy_moved(state: BattleState, mover: Stand, origin: tuple[int, int]) -> None:
    """An enemy stand has just moved: the other side may draw and place in ambush."""
    force = mover.force.enemy
    if not state.options.get("fog_of_war_cup") or not may_draw(state, force):
        return
    mover_edge = edge_distance(state, force, mover.y)
    others = [s for s in mover.force.stands if s.alive and s is not mover]
    best = None
    field = state.field
    for x in range(
        max(mover.x - AMBUSH_MAX_IN, 0), min(mover.x + AMBUSH_MAX_IN, field.width_in) + 1
    ):
        for y in range(
            max(mover.y - AMBUSH_MAX_IN, 0), min(mover.y + AMBUSH_MAX_IN, field.depth_in) + 1
        ):
            key = _ambush_key(state, force, mover, origin, others, mover_edge, x, y)
            if key is not None and (best is None or key < best):
                best = key
    if best is None or best[0]:
        return  # no place to ambush from that sees the mover: keep the draw for later
    stand = _draw(state, force, "enemy move")
    _place(state, stand, best[-1], best[-2], f"in ambush, {mover.id}'s move paused")
    stand.hidden = True  # concealed until it fires
    visible, obscured = state.sees(stand, mover)
    weapon = stand.unit
    if (
        visible
        and weapon.fire_dice > 0
        and in_range(weapon, stand.distance(mover))
        and (not weapon.limbers or not stand.limbered)
    ):
        stand.hidden = False
        fire(
            state,
            side=force.side,
            firer=stand.id,
            firer_type=weapon.name,
            weapon=weapon,
            target=mover,
            obscured=obscured,
            extra={"opportunity_fire": True},
        )
    stand.fired = True  # used: marked for opportunity fire whether or not it could shoot
