"""The Old Breed options under Force on Force: Combat Events (17.0), the Fog of War cup
(16.2) and Area of Control (16.1) applied to Force on Force units. The tables, the d10,
the draw and the places are the Korona engine's, in ``rules.oldbreed``; what they do to a
unit is read here in Force on Force's own terms (docs/rules.md, "Force on Force").
"""

from __future__ import annotations

from collections.abc import Callable
from math import hypot
from typing import Any

from rules import oldbreed
from rules.forceonforce import tables as t
from rules.forceonforce.combat import attack, optimum_reach
from rules.forceonforce.state import ATTACKER, BattleState, Force, Unit
from rules.units import UNIT_TYPES

_SUPPORT_WORTH = {"light": 1.0, "medium": 2.0, "heavy": 3.0}


def _positions(units: list[Unit]) -> list[tuple[int, int]]:
    return [(u.x, u.y) for u in units if u.fighting]


def area_of_control(state: BattleState, force: Force) -> Callable[[float, float], bool]:
    """16.1 for ``force`` as its units and the enemy's stand now (units fighting)."""
    return oldbreed.area_of_control(
        state.field,
        force.key == ATTACKER,
        _positions(force.units),
        _positions(force.enemy.units),
    )


# --- Combat Events (17.0) ---------------------------------------------------------------


def after_fire(state: BattleState, shooter: Unit, record: dict[str, Any]) -> None:
    """Ruling: the trigger is a fire action of a squad or weapon team whose first
    firepower die shows a natural 1 (as the Korona rules read the first die)."""
    if not state.options.get("combat_events") or shooter.stand_type not in oldbreed.TRIGGERS:
        return
    if not record["attack"] or record["attack"][0] != 1:
        return
    oldbreed.combat_event(
        dice=state.roller,
        record=state.record,
        options=state.options,
        firer=shooter.id,
        firer_force=shooter.force,
        other_force=shooter.force.enemy,
        japanese=next((f for f in state.forces if f.side == "japanese"), None),
        apply=lambda force, effect: apply_event(state, force, effect),
    )


def worth(unit: Unit) -> float:
    """What a unit is worth to its own side when an event makes it choose: its fighting
    figures, its support weapon, its leadership."""
    value = unit.healthy + _SUPPORT_WORTH.get(unit.profile.support or "", 0.0)
    return value + (1.0 if unit.profile.leader else 0.0)


def apply_event(state: BattleState, force: Force, effect: str) -> str | oldbreed.EventOutcome:
    """What an event table's ``effect`` does to ``force``'s units; the side chooses."""
    fighting = force.fighting()
    if effect == "pin_own_squad":
        return _worsen(state, [u for u in fighting if u.stand_type == "rifle_squad"], "pinned")
    if effect == "suppress_own_weapon":
        weapons = [u for u in fighting if UNIT_TYPES[u.stand_type].crew_served]
        return _worsen(state, weapons, "suppressed")
    if effect == "rally_own":
        return _rally(fighting)
    if effect == "return_lost_squad":
        return _return_lost(state, force)
    if effect == "sniper_appears":
        return _sniper_appears(state, force)
    if effect == "sniper_shot":
        return _sniper_shot(state, force)
    return "no effect"


def _worsen(state: BattleState, candidates: list[Unit], status: str) -> str | oldbreed.EventOutcome:
    """Pinned (5.2) or Suppressed (3.7) until the end of the turn. The side must choose a
    unit if it can, and chooses the least harm: one already so (no change), then the least
    worth. Ruling: an event never escalates a status (only a failed morale check does)."""
    chosen = oldbreed.least_harm(candidates, lambda u: (not getattr(u, status), worth(u), u.id))
    if chosen is None:
        return "no unit the event can strike"
    if getattr(chosen, status):
        return f"{chosen.id} is already {status}"
    setattr(chosen, status, True)
    if status == "pinned" and not state.exposed(chosen.x, chosen.y):
        chosen.in_cover = True  # 5.2: a pinned unit goes to ground
    return oldbreed.EventOutcome(f"{chosen.id} is {status}", chosen.id, status)


def _rally(fighting: list[Unit]) -> str | oldbreed.EventOutcome:
    """The worst shaken, most valuable unit shakes off Pinned and Suppressed."""
    shaken = [u for u in fighting if u.pinned or u.suppressed]
    if not shaken:
        return "no unit to rally"
    best = max(shaken, key=lambda u: (u.suppressed, u.pinned, worth(u), u.id))
    before = "suppressed" if best.suppressed else "pinned"
    best.pinned = best.suppressed = False
    return oldbreed.EventOutcome(f"{best.id} rallies from {before}", best.id, "ok")


def _return_lost(state: BattleState, force: Force) -> str | oldbreed.EventOutcome:
    """A lost squad (not one that split) rejoins at full strength behind its commander,
    in its Area of Control; it acts from the next turn and still counts as lost."""
    split = {u.element_of for u in force.units if u.element_of is not None}
    lost = [
        u
        for u in force.units
        if u.lost and u.stand_type == "rifle_squad" and not u.extra
        and u.element_of is None and u.id not in split
    ]  # fmt: skip
    if not lost:
        return "no lost squad to bring back"
    unit = min(lost, key=lambda u: u.id)
    fighting = force.fighting()
    commander = next((u for u in fighting if u.stand_type == "commander"), None)
    anchor = commander or (fighting[0] if fighting else None)
    if anchor is None:
        return "no one left to rejoin"
    aoc = area_of_control(state, force)
    unit.x, unit.y = oldbreed.rejoin_place(
        state.field, force.key == ATTACKER, (anchor.x, anchor.y), aoc
    )
    unit.healthy, unit.wounded_light, unit.pending, unit.serious, unit.dead = (
        t.FIGURES_PER_STAND, 0, 0, 0, 0,
    )  # fmt: skip
    unit.leader, unit.morale_shift = True, 0
    unit.pinned = unit.suppressed = unit.pulled_back = unit.regrouping = False
    unit.lost = unit.shaken_off = unit.hidden = False
    unit.spotted_by.clear()
    unit.in_cover = not state.exposed(unit.x, unit.y)
    unit.activated = unit.reacted = True
    unit.may_react = False
    unit.returned = True  # it still counts as lost for the end of the battle
    words = f"{unit.id} rejoins at {unit.x},{unit.y}"
    return oldbreed.EventOutcome(words, unit.id, "ok", to=(unit.x, unit.y))


def _sniper_appears(state: BattleState, force: Force) -> str | oldbreed.EventOutcome:
    """A hidden sniper, not on the roster: its loss is no loss, as it brought nothing."""
    place = oldbreed.sniper_place(
        state.field, _positions(force.enemy.units), area_of_control(state, force)
    )
    if place is None:
        return "no woods within reach of the enemy: the sniper does not appear"
    number = 1 + sum(1 for u in force.units if u.stand_type == "sniper")
    unit = Unit(f"{force.key[0]}.sniper.{number}", force, "sniper", "sniper")
    unit.x, unit.y = place
    unit.hidden = True
    unit.extra = True
    unit.in_cover = not state.exposed(unit.x, unit.y)
    unit.activated = True  # it acts from the next turn; hidden, it may spring an ambush
    force.units.append(unit)
    words = f"{unit.id} appears, hidden, at {unit.x},{unit.y}"
    return oldbreed.EventOutcome(words, unit.id, "ok", to=(unit.x, unit.y), hidden=True)


def _sniper_shot(state: BattleState, force: Force) -> str:
    """A sniper fires once at the most valuable enemy unit not hidden and not armoured
    that it can see: one Force on Force fire action of a sniper of the side's quality
    (ruling: it has crept in) from a spot on a 2" grid within the sniper's optimum range
    (optics: twice its Troop Quality) that sees the target and is at least 3" from every
    enemy unit, not Exposed if there is one, the nearest to the target among equals;
    then it vanishes."""
    targets = [
        e
        for e in force.enemy.fighting()
        if not e.hidden and e.profile.armour == "none"
    ]  # fmt: skip
    if not targets:
        return "no target for the sniper"
    sniper = Unit(f"{force.key[0]}.sniper.event", force, "sniper", "sniper")
    reach = optimum_reach(sniper)
    enemies = _positions(force.enemy.units)
    field = state.field
    for target in sorted(targets, key=lambda u: (worth(u), u.suppressed, u.id), reverse=True):
        best: tuple[bool, float, int, int] | None = None
        for x in range(0, field.width_in, 2):
            for y in range(0, field.depth_in, 2):
                away = hypot(x - target.x, y - target.y)
                if away > reach or any(
                    hypot(x - ex, y - ey) < oldbreed.SNIPER_KEEP_AWAY_IN for ex, ey in enemies
                ):
                    continue
                sniper.x, sniper.y = x, y
                if not state.sees(sniper, target):
                    continue
                key = (state.exposed(x, y), away, y, x)
                if best is None or key < best:
                    best = key
        if best is None:
            continue
        sniper.x, sniper.y = best[3], best[2]
        record = attack(state, sniper, target, kind="combat event")
        if record is None:
            return f"the sniper has no shot at {target.id}"
        return f"a sniper fires at {target.id}: {record.get('effect', 'none')}"
    return "no place from which a sniper sees a target"


# --- the Fog of War cup (16.2) ----------------------------------------------------------


def may_draw(state: BattleState, force: Force) -> bool:
    return bool(force.cup) and force.key not in state.cup_drawn


def _draw(state: BattleState, force: Force, when: str) -> Unit:
    unit = oldbreed.draw(state.roller, state.record, force.cup, side=force.side,
                         name=lambda u: (u.id, u.stand_type), when=when)  # fmt: skip
    state.cup_drawn.add(force.key)
    return unit


def _place(state: BattleState, unit: Unit, x: int, y: int, case: str) -> None:
    unit.x, unit.y = x, y
    unit.in_cover = not state.exposed(x, y)
    unit.force.units.append(unit)
    oldbreed.record_place(state.record, side=unit.force.side, unit_id=unit.id,
                          unit_type=unit.stand_type, x=x, y=y, case=case)  # fmt: skip


def own_phase(state: BattleState, force: Force) -> None:
    """At the start of the side's own phase (its activations, or the End Phase for the side
    without initiative): draw and place one unit. The placement is its activation."""
    if not may_draw(state, force):
        return
    place = oldbreed.own_phase_place(
        state.field,
        _positions(force.units),
        _positions(force.enemy.units),
        area_of_control(state, force),
    )
    unit = _draw(state, force, "own phase")
    if place is not None:
        _place(state, unit, *place, "in cover within its Area of Control")
    else:
        x, y = oldbreed.edge_entry(state.field, force.key == ATTACKER, _positions(force.units))
        _place(state, unit, x, y, "enters at its own table edge")
    unit.activated = unit.reacted = True  # used: placing it was its action this turn
    unit.movement = "tactical"


def enemy_moved(state: BattleState, mover: Unit, origin: tuple[int, int]) -> Unit | None:
    """An enemy unit has just moved: the other side may draw and place one in ambush (the
    mover's move paused). Returns the placed unit, concealed and unused; the engine lets it
    fire at the mover at once (opportunity fire)."""
    force = mover.force.enemy
    if not may_draw(state, force):
        return None
    place = oldbreed.ambush_place(
        state.field,
        force.key == ATTACKER,
        (mover.x, mover.y),
        origin,
        [(u.x, u.y) for u in mover.force.units if u.fighting and u is not mover],
        _positions(force.units),
        area_of_control(state, force),
    )
    if place is None:
        return None  # no place to ambush from that sees the mover: keep the draw
    unit = _draw(state, force, "enemy move")
    _place(state, unit, *place, f"in ambush, {mover.id}'s move paused")
    unit.hidden = True  # concealed until it fires
    unit.reacted = True  # its opportunity fire is its use this turn (no End Phase action)
    return unit
