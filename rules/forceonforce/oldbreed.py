"""The Old Breed options under Force on Force: Combat Events (17.0), the Fog of War cup
(16.2) and Area of Control (16.1) applied to Force on Force units. The tables, the d10,
the draw and the places are the Korona engine's, in ``rules.oldbreed``; what they do to a
unit is read here in Force on Force's own terms (docs/rules.md, "Force on Force").
"""

from __future__ import annotations

from math import hypot
from typing import Any

from rules import oldbreed
from rules.forceonforce import tables as t
from rules.forceonforce.combat import attack, optimum_reach
from rules.forceonforce.state import BattleState, Force, Unit
from rules.kernel import oldbreed as kernel
from rules.kernel.oldbreed import area_of_control

__all__ = ["after_fire", "apply_event", "area_of_control", "enemy_moved", "own_phase", "worth"]

_SUPPORT_WORTH = {"light": 1.0, "medium": 2.0, "heavy": 3.0}


# --- Combat Events (17.0) ---------------------------------------------------------------


def after_fire(state: BattleState, shooter: Unit, record: dict[str, Any]) -> None:
    """Ruling: the trigger is a fire action of a squad or weapon team whose first
    firepower die shows a natural 1 (as the Korona rules read the first die)."""
    dice = record["attack"]
    kernel.after_fire(state, shooter, dice[0] if dice else None, EFFECTS)


def worth(unit: Unit) -> float:
    """What a unit is worth to its own side when an event makes it choose: its fighting
    figures, its support weapon, its leadership."""
    value = unit.healthy + _SUPPORT_WORTH.get(unit.profile.support or "", 0.0)
    return value + (1.0 if unit.profile.leader else 0.0)


def apply_event(state: BattleState, force: Force, effect: str) -> str | oldbreed.EventOutcome:
    """What an event table's ``effect`` does to ``force``'s units; the side chooses."""
    handler = EFFECTS.get(effect)
    return "no effect" if handler is None else handler(state, force)


def _pin_own_squad(state: BattleState, force: Force) -> str | oldbreed.EventOutcome:
    return _worsen(state, [u for u in force.fighting() if u.stand_type == "rifle_squad"], "pinned")


def _suppress_own_weapon(state: BattleState, force: Force) -> str | oldbreed.EventOutcome:
    weapons = [u for u in force.fighting() if u.unit.crew_served]
    return _worsen(state, weapons, "suppressed")


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


def _rally_own(state: BattleState, force: Force) -> str | oldbreed.EventOutcome:
    """The worst shaken, most valuable unit shakes off Pinned and Suppressed."""
    shaken = [u for u in force.fighting() if u.pinned or u.suppressed]
    if not shaken:
        return "no unit to rally"
    best = max(shaken, key=lambda u: (u.suppressed, u.pinned, worth(u), u.id))
    before = "suppressed" if best.suppressed else "pinned"
    best.pinned = best.suppressed = False
    return oldbreed.EventOutcome(f"{best.id} rallies from {before}", best.id, "ok")


def _return_lost_squad(state: BattleState, force: Force) -> str | oldbreed.EventOutcome:
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
    outcome = kernel.rejoin(state, force, unit, (anchor.x, anchor.y))
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
    return outcome


def _sniper_appears(state: BattleState, force: Force) -> str | oldbreed.EventOutcome:
    def sniper(unit_id: str, at: tuple[int, int]) -> Unit:
        unit = Unit(unit_id, force, "sniper", "sniper")
        unit.x, unit.y = at
        unit.in_cover = not state.exposed(*at)
        unit.activated = True  # it acts from the next turn; hidden, it may spring an ambush
        return unit

    return kernel.sniper_appears(state, force, sniper)


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
    enemies = force.enemy.positions()
    for target in sorted(targets, key=lambda u: (worth(u), u.suppressed, u.id), reverse=True):
        spot = _sniper_spot(state, sniper, target, reach, enemies)
        if spot is None:
            continue
        sniper.x, sniper.y = spot
        record = attack(state, sniper, target, kind="combat event")
        if record is None:
            return f"the sniper has no shot at {target.id}"
        return f"a sniper fires at {target.id}: {record.get('effect', 'none')}"
    return "no place from which a sniper sees a target"


def _sniper_spot(
    state: BattleState, sniper: Unit, target: Unit, reach: float, enemies: list[tuple[int, int]]
) -> tuple[int, int] | None:
    """Where the event's sniper shoots ``target`` from (see ``_sniper_shot``); None."""
    field = state.field
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
    return None if best is None else (best[3], best[2])


# --- the Fog of War cup (16.2) ----------------------------------------------------------


def own_phase(state: BattleState, force: Force) -> None:
    """At the start of the side's own phase (its activations, or the End Phase for the side
    without initiative): draw and place one unit. The placement is its activation."""
    unit = kernel.draw_own(state, force, "own phase", in_cover=True)
    if unit is None:
        return
    unit.in_cover = not state.exposed(unit.x, unit.y)
    unit.activated = unit.reacted = True  # used: placing it was its action this turn
    unit.movement = "tactical"


def enemy_moved(state: BattleState, mover: Unit, origin: tuple[int, int]) -> Unit | None:
    """An enemy unit has just moved: the other side may draw and place one in ambush (the
    mover's move paused). Returns the placed unit, concealed and unused; the engine lets it
    fire at the mover at once (opportunity fire)."""
    unit: Unit | None = kernel.draw_in_ambush(state, mover, origin)
    if unit is not None:
        unit.in_cover = not state.exposed(unit.x, unit.y)
        unit.reacted = True  # its opportunity fire is its use this turn (no End Phase action)
    return unit


EFFECTS = kernel.effect_table(globals())  # _pin_own_squad and the rest, above
