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
edge in the side's move. The draw and the places are shared with Force on Force in
``rules.oldbreed``.
"""

from __future__ import annotations

from rules import oldbreed
from rules.korona.control import area_of_control
from rules.korona.fire import fire, in_range
from rules.korona.state import ATTACKER, BattleState, Force, Stand


def _draw(state: BattleState, force: Force, when: str) -> Stand:
    stand = oldbreed.draw(state.roller, state.record, force.cup, side=force.side,
                          name=lambda s: (s.id, s.unit.name), when=when)  # fmt: skip
    state.cup_drawn.add(force.key)
    return stand


def _place(state: BattleState, stand: Stand, x: int, y: int, case: str) -> None:
    stand.x, stand.y = x, y
    stand.force.stands.append(stand)
    oldbreed.record_place(state.record, side=stand.force.side, unit_id=stand.id,
                          unit_type=stand.unit.name, x=x, y=y, case=case)  # fmt: skip


def _positions(stands: list[Stand]) -> list[tuple[int, int]]:
    return [(s.x, s.y) for s in stands if s.alive]


def may_draw(state: BattleState, force: Force) -> bool:
    return bool(force.cup) and force.key not in state.cup_drawn


def own_move(state: BattleState, force: Force) -> None:
    """At the start of the side's move: draw and place one reinforcement, if any wait."""
    if not may_draw(state, force):
        return
    place = None
    if state.options.get("fog_of_war_cup"):
        place = oldbreed.own_phase_place(
            state.field,
            _positions(force.stands),
            _positions(force.enemy.stands),
            area_of_control(state, force),
        )
    stand = _draw(state, force, "own move")
    if place is not None:
        _place(state, stand, *place, "in cover within its Area of Control")
    else:
        x, y = oldbreed.edge_entry(state.field, force.key == ATTACKER, _positions(force.stands))
        _place(state, stand, x, y, "enters at its own table edge")
    stand.moved = True  # placing it was its move


def enemy_moved(state: BattleState, mover: Stand, origin: tuple[int, int]) -> None:
    """An enemy stand has just moved: the other side may draw and place in ambush."""
    force = mover.force.enemy
    if not state.options.get("fog_of_war_cup") or not may_draw(state, force):
        return
    place = oldbreed.ambush_place(
        state.field,
        force.key == ATTACKER,
        (mover.x, mover.y),
        origin,
        [(s.x, s.y) for s in mover.force.stands if s.alive and s is not mover],
        _positions(force.stands),
        area_of_control(state, force),
    )
    if place is None:
        return  # no place to ambush from that sees the mover: keep the draw for later
    stand = _draw(state, force, "enemy move")
    _place(state, stand, *place, f"in ambush, {mover.id}'s move paused")
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
