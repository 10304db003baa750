"""Fire between units on the table: the pure rules of ``fire`` applied to the state.

Every die of one attack (firepower, defence, Who Got Hit, the morale check) goes into
that attack's one ``fire`` record; Fog of War draws and reaction tests have their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import hypot
from typing import Any

from rules.forceonforce import fire as f
from rules.forceonforce import tables as t
from rules.forceonforce.cohesion import morale_die_for
from rules.forceonforce.state import BattleState, Unit

PULL_BACK_IN = 6  # 5.2: up to 6" to find cover


def doubled_range(unit: Unit) -> bool:
    """3.2: "Support Weapons and units with enhanced optics have twice the usual Optimum
    Range": a weapon team (its fire is its support weapon) and a unit with optics. A rifle
    squad's fire is its rifles' with the section's light support weapon among them: the
    rifles' optimum range (ruling)."""
    weapon_team = unit.profile.support is not None and unit.profile.small_arms is None
    return weapon_team or unit.profile.optics


# optimum_reach's answers by (Troop Quality, unit type, dark): nothing else moves them.
_REACH: dict[tuple[int, str, bool], float] = {}


def optimum_reach(unit: Unit, *, night: bool = False) -> float:
    """The unit's optimum range in inches (3.2; 4.4 halved at night without night vision)."""
    dark = night and not unit.force.night_vision
    key = (unit.force.tq, unit.stand_type, dark)
    found = _REACH.get(key)
    if found is None:
        found = _REACH[key] = f.optimum_range(unit.tq, doubled=doubled_range(unit), night=dark)
    return found


def band(shooter: Unit, target: Unit, night: bool) -> tuple[str, bool]:
    """The range band of a shot and whether, at night, the target is beyond the reduced
    optimum range (4.4)."""
    dark = night and not shooter.force.night_vision
    # optimum_reach's table read here: the AI asks the band of every shot it weighs.
    reach = _REACH.get((shooter.force.tq, shooter.stand_type, dark))
    if reach is None:
        reach = optimum_reach(shooter, night=night)
    within = hypot(shooter.x - target.x, shooter.y - target.y) <= reach
    if shooter.profile.always_optimum:
        return "optimum", dark and not within
    return ("optimum" if within else "beyond"), dark and not within


@dataclass(frozen=True, slots=True)
class Declared:
    """How a fire was declared: as Suppression Fire (3.7), or as one part of a split fire
    (3.6): the figures allotted to it, and whether the support weapon fires in it."""

    suppression: bool = False
    allotted: int | None = None
    support: bool = True


AIMED = Declared()  # a plain fire: all its figures at one target, the support weapon too
SUPPRESSING = Declared(suppression=True)


def shot_for(state: BattleState, shooter: Unit, target: Unit, declared: Declared = AIMED) -> f.Shot:
    rng, night_beyond = band(shooter, target, state.night)
    # The fields by place, in Shot's order, not by keyword: the AI weighs a shot at every
    # target it considers (issue 17).
    return f.Shot(
        shooter.healthy,  # figures
        shooter.profile.support if declared.support else None,  # support
        shooter.jammed,  # support_jammed
        shooter.movement,  # movement
        rng,  # band
        shooter.profile.small_arms,  # small_arms
        state.exposed(target.x, target.y) and not target.smoke,  # target_exposed
        target.movement == "rapid",  # target_moving_rapidly
        shooter.force.supply,  # supply
        shooter.fires + shooter.penalty_moves,  # earlier_actions
        declared.suppression,  # suppression
        False,  # defending_close_assault
        shooter.force.key in state.options["outgunned_by"],  # outgunned
        False,  # suppressed_weapons
        shooter.smoke,  # out_of_smoke
        night_beyond,  # night_beyond
        declared.allotted,  # allotted
        shooter.fp_extra,  # extra
    )


def cover_of(state: BattleState, target: Unit, shooter: Unit | None = None) -> list[str]:
    """3.9's cover dice of ``target`` against fire from ``shooter``. Intervening Cover: fire
    that passes over heavy woods between the two claims the Solid Cover bonus (ruling: once;
    a unit already in Solid Cover has it)."""
    cover = []
    if target.in_cover:
        cover.append("in_cover")
    if state.solid_cover(target) or (
        shooter is not None and state.intervening_cover(shooter, target)
    ):
        cover.append("solid")
    if target.smoke:
        cover.append("smoke")
    dug_in = state.options["dug_in"]
    if dug_in and target.force.key == "defender" and target.in_cover:
        cover.append(dug_in)
    return cover


def fog_of_war(state: BattleState, unit: Unit, cause: str) -> None:
    """1.1: a natural 1 on a Troop Quality check: draw (roll d6 on) our Fog of War table."""
    if not state.options["fog_of_war"]:
        return
    face = state.roller.d6()
    event = f.fog_of_war_event(face, state.fog_table)
    if event.key == "jammed":
        unit.jammed = True
    elif event.key == "low_ammo":
        unit.fp_extra -= 1
    elif event.key == "lost_contact":
        unit.activated = True
        unit.may_react = False
    elif event.key == "second_wind":
        unit.pinned = unit.suppressed = False
    elif event.key == "nerves":
        unit.pinned = True
    # state.record's entry, made here as a fire's is (attack; issue 17).
    state.log.append({
        "turn": state.turn, "phase": state.phase, "kind": "fog_of_war", "dice": [face],
        "side": unit.force.side, "stand": unit.id, "cause": cause, "event": event.key,
        "outcome": event.text,
    })  # fmt: skip


def tq_check(state: BattleState, unit: Unit, purpose: str, modifier: int = 0) -> bool:
    die = unit.current_tq or t.DIE_LADDER[0]
    check = f.tq_check(state.roller, die, modifier)
    # state.record's entry, made here as a fire's is (attack; issue 17).
    state.log.append({
        "turn": state.turn, "phase": state.phase, "kind": "tq_check", "dice": [check.face],
        "side": unit.force.side, "stand": unit.id, "purpose": purpose, "die": die,
        "modifier": modifier, "passed": check.passed,
    })  # fmt: skip
    if check.fog_of_war:
        fog_of_war(state, unit, purpose)
    return check.passed


AMBUSH = "ambush"


def fire_problem(state: BattleState, shooter: Unit, target: Unit, kind: str) -> str | None:
    """Why ``shooter`` may not fire at ``target`` now, or None. Asked when each fire
    resolves, whatever its kind: the firer must see the target at that moment (3.11b,
    3.13, 3.14, 3.16: "in their line of sight"); a Hidden target must have been spotted by
    the firer (4.2: "may not engage the hidden unit"); an ambush reaches twice the
    ambusher's unmodified Troop Quality in inches (4.1). There is no other maximum range."""
    # sees, its memo read first: the AI has looked at the target already (issue 17).
    seen = state.known_sight.get((shooter.x, shooter.y, target.x, target.y))
    if not (state.sees(shooter, target) if seen is None else seen):
        return "no line of sight"
    if target.hidden and shooter.id not in target.spotted_by:
        return "the target is hidden and not spotted"
    if kind == AMBUSH and shooter.distance(target) > t.AMBUSH_RANGE_FACTOR * shooter.tq:
        return "beyond the ambush reach"
    return None


def may_fire_at(state: BattleState, shooter: Unit, target: Unit, kind: str = "fire") -> bool:
    return fire_problem(state, shooter, target, kind) is None


# f.firepower's answers by shot: a pure function of a small domain, its answer immutable,
# and the same few shots are fired over and over (issue 17).
_FIREPOWER: dict[f.Shot, f.Firepower] = {}


def attack(
    state: BattleState,
    shooter: Unit,
    target: Unit,
    *,
    kind: str,
    declared: Declared = AIMED,
) -> dict[str, Any] | None:
    """One fire action by ``shooter`` at ``target`` (3.0-5.2). None: no fire (the firer
    cannot see or reach the target now, cannot locate it at night, or has no dice); a fire
    with no dice is not taken and not logged (3.4: "may no longer fire")."""
    die = shooter.current_tq
    if die is None or not (shooter.fighting and target.fighting):
        return None
    if fire_problem(state, shooter, target, kind) is not None:
        return None
    shot = shot_for(state, shooter, target, declared)
    fp = _FIREPOWER.get(shot)
    if fp is None:
        fp = _FIREPOWER[shot] = f.firepower(shot)
    if fp.dice == 0:
        return None
    if shot.night_beyond and not locate(state, shooter, target):
        shooter.fires += 1
        return None
    shooter.fires += 1
    shooter.hidden = False  # firing gives the position away (ruling)
    dfn_die = target.current_tq or t.DIE_LADDER[0]  # ruling: defence never below D6
    cover = cover_of(state, target, shooter)
    dfn = f.defence(target.healthy, fp.dice, cover=cover, armour=target.profile.armour)
    ex = f.exchange(state.roller, fp.dice, die, dfn.dice, dfn_die)
    dice = [*ex.attack, *ex.defence]
    hits = min(ex.hits, target.healthy)
    struck = _who_got_hit(state, target, hits, dice)
    target.healthy -= hits
    target.pending += hits
    target.fired_at_by = shooter.id
    # state.record's entry, its keys in the same order, made here: binding its keywords
    # was the dear part of the record of every fire (issue 17).
    record: dict[str, Any] = {
        "turn": state.turn, "phase": state.phase, "kind": "fire", "dice": dice,
        "side": shooter.force.side, "firer": shooter.id, "firer_type": shooter.stand_type,
        "target": target.id, "target_type": target.stand_type, "action": kind,
        "attack_die": die, "attack": list(ex.attack), "firepower": fp.to_json(),
        "defence_die": dfn_die, "defence": list(ex.defence), "defence_dice": dfn.to_json(),
        "hits": hits, "suppressing": fp.suppressing, "firer_at": shooter.position,
        "target_at": target.position,
    }  # fmt: skip
    state.log.append(record)
    if declared.allotted is not None:
        record["split_fire"] = {"figures": declared.allotted, "support": declared.support}
    if struck:
        record["who_got_hit"] = struck
    if target.healthy == 0:
        target.lost = True
        record["effect"] = "wiped out"
    else:
        record["effect"] = _morale(state, shooter, target, fp, ex, record)
    return record


def _who_got_hit(state: BattleState, target: Unit, hits: int, dice: list[int]) -> list[str]:
    """5.1, for Irregulars only (a Regular's fallen leader is replaced): who each hit
    struck, the dice added to ``dice``; a struck leader is lost."""
    struck: list[str] = []
    if not hits or target.force.regular:
        return struck
    for _ in range(hits):
        size = target.healthy - len(struck)
        who, face = f.who_got_hit(state.roller, size)
        if face is not None:
            dice.append(face)
        struck.append(who)
        if who == "leader":
            target.leader = False
    return struck


def _morale(
    state: BattleState,
    shooter: Unit,
    target: Unit,
    fp: f.Firepower,
    ex: f.Exchange,
    record: dict[str, Any],
) -> str:
    """The fire's effect on a target left standing: one morale check, by precedence:
    casualties, suppression (3.7), fired on (5.2); its dice go to the record's."""
    hits = record["hits"]
    dice = record["dice"]
    call = f.morale_call(
        hits=hits,
        confidence=target.force.confidence,
        suppressing=fp.suppressing,
        unmodified=fp.unmodified,
        dice=fp.dice,
        attack_successes=ex.attack_successes,
        infantry=target.profile.mover != "vehicle",
    )
    if call is None:
        return "none"
    if call.shift:
        record["morale_shift"] = call.shift
    own = morale_die_for(state, target)
    if own is None:  # a Shaken unit's Morale below D6 has already left (ruling: fail)
        return morale_failure(state, target, shooter, call.failure)
    morale = f.morale_check(state.roller, own, target.healthy, record.get("morale_shift", 0))
    dice.extend(morale.faces)
    record["morale"] = {"reason": call.reason, "die": morale.die, "faces": list(morale.faces)}
    if morale.stands:
        return "stands"
    return morale_failure(state, target, shooter, call.failure)


def locate(state: BattleState, shooter: Unit, target: Unit) -> bool:
    """4.4: at night a target beyond the reduced optimum range is Elusive: the firer must
    win an opposed Troop Quality check to engage it (ties to the target, as spotting)."""
    test = f.opposed_test(state.roller, shooter.current_tq or 6, target.current_tq or 6,
                          ties_to_a=False)  # fmt: skip
    state.record("locate", side=shooter.force.side, spotter=shooter.id, hidden_unit=target.id,
                 dice=list(test.faces), spotted=test.first_wins)  # fmt: skip
    for unit, one in zip((shooter, target), test.fog_of_war, strict=True):
        if one:
            fog_of_war(state, unit, "locating an elusive unit")
    return test.first_wins


def hide(state: BattleState, unit: Unit) -> bool:
    """4.3: out of sight of every enemy, a unit hides on a passed TQ check (Stealthy
    units without one). Vehicles and guns hide only at the start."""
    if unit.hidden or unit.profile.vehicle_or_gun:
        return False
    if any(state.sees(e, unit) for e in unit.force.enemy.units if e.fighting):
        return False
    if unit.profile.stealthy or tq_check(state, unit, "hide"):
        unit.hidden = True
        unit.spotted_by.clear()
        return True
    return False


def lay_smoke(state: BattleState, unit: Unit) -> bool:
    """4.6: smoke grenades on a passed TQ check, once a turn; the smoke covers the unit
    for the turn: +1D defence, -1D firing out of it."""
    if unit.smoke_tried:
        return False
    unit.smoke_tried = True
    unit.smoke = tq_check(state, unit, "lay smoke")
    return unit.smoke


def morale_failure(state: BattleState, unit: Unit, cause: Unit, failure: str) -> str:
    """5.2 and 3.7: what a failed morale check does to ``unit``."""
    if failure == "suppressed":
        # 3.7: "Suppressed units suffer from the same effects as Pinned units" (so it goes
        # to cover as a Pinned unit does), "but multiple Suppressions will not force a unit
        # to Pull Back".
        unit.suppressed = True
        take_cover(state, unit, cause)
        return "suppressed"
    if not unit.force.regular:
        return shaken(state, unit, cause)
    if unit.regrouping or unit.pulled_back:
        # 5.2: "A unit that is regrouping following a Pull Back will treat all failed
        # Morale results as another Pull Back" (ruling: from the Pull Back on, the turn it
        # pulls back included).
        unit.pulled_back = True
        fall_back(state, unit, cause)
        return "pull back"
    if unit.pinned:
        unit.pulled_back = True
        fall_back(state, unit, cause)
        return "pull back"
    unit.pinned = True
    take_cover(state, unit, cause)
    return "pinned"


def take_cover(state: BattleState, unit: Unit, cause: Unit) -> None:
    """5.2 and 3.9: a Pinned unit must move to cover if it has any movement left, never
    toward the enemy, then may take a Quality Check to get In Cover, even after moving.

    Rulings: a unit not Exposed is already in cover and is In Cover, with no dice. An
    Exposed unit has movement left if it can move and has not moved Rapidly this turn;
    it moves Tactically to the nearest spot that is not Exposed, none nearer to ``cause``
    (the firer), costing a firepower die for the turn (3.1). Moved or not, it then tests
    to get In Cover, unless it stayed put already In Cover. An emplaced weapon neither
    moves nor tests (as on its activation)."""
    if not state.exposed(unit.x, unit.y):
        unit.in_cover = True
        return
    if unit.profile.mover is None:
        return
    spot = cover_within_reach(state, unit, cause) if unit.movement != "rapid" else None
    if spot is not None:
        move_unit(state, unit, spot, "tactical", purpose="pinned: moves to cover")
    elif unit.in_cover:
        return
    unit.in_cover = tq_check(state, unit, "get in cover")


def cover_within_reach(state: BattleState, unit: Unit, cause: Unit) -> tuple[int, int] | None:
    """The nearest spot that is not Exposed within ``unit``'s Tactical move, none nearer to
    ``cause``; out of its sight first among equals. None: no cover within reach."""
    mover = unit.profile.mover
    if mover is None:
        return None
    best: tuple[int, int] | None = None
    best_key: tuple[float, bool] | None = None
    for x, y in spots_away(state, unit, cause, t.TACTICAL_MOVE_IN[mover]):
        if state.exposed(x, y):
            continue
        dist = hypot(x - unit.x, y - unit.y)
        if not state.within_move(unit, "tactical", x, y, dist):
            continue
        key = (dist, state.sees(cause, Spot(x, y)))
        if best_key is None or key < best_key:
            best, best_key = (x, y), key
    return best


def move_unit(
    state: BattleState, unit: Unit, to: tuple[int, int], speed: str, *, purpose: str = "advance"
) -> None:
    """Move ``unit``: an activation's advance, or a reaction or pinned unit's move (3.1:
    -1D for the turn, as is an advance after the unit's first fire)."""
    start = unit.position
    going = state.going(unit.x, unit.y, *to)
    unit.x, unit.y = to
    unit.movement = speed if unit.movement != "rapid" else "rapid"
    if unit.fires or purpose != "advance":
        unit.penalty_moves += 1  # 3.1/3.4: a reaction move, or a move after the first fire
    unit.in_cover = False
    if unit.hidden and any(state.sees(e, unit) for e in unit.force.enemy.units if e.fighting):
        unit.hidden = False
    if speed == "rapid":
        purpose += " (rapid)"
    # state.record's entry, made here as the fire's is (issue 17).
    state.log.append({
        "turn": state.turn, "phase": state.phase, "kind": "move", "dice": [],
        "side": unit.force.side, "stand": unit.id, "from": start, "to": unit.position,
        "speed": speed, "going": str(going), "purpose": purpose,
    })  # fmt: skip


def shaken(state: BattleState, unit: Unit, cause: Unit) -> str:
    unit.morale_shift -= 1
    unit.pinned = True
    if unit.morale_die is None:
        unit.lost = unit.shaken_off = True
        return "shaken: leaves the battle"
    fall_back(state, unit, cause)
    return "shaken"


def spots_away(state: BattleState, unit: Unit, cause: Unit, reach: int) -> list[tuple[int, int]]:
    """Whole-inch spots on the table within ``reach`` of ``unit`` on a 2" grid, none nearer
    to ``cause`` (5.2: never toward the enemy); the unit's own spot first among equals."""
    field = state.field
    width, depth = field.width_in, field.depth_in
    ux, uy, cx, cy = unit.x, unit.y, cause.x, cause.y
    away = hypot(ux - cx, uy - cy)  # unit.distance(cause)
    spots = []
    for dx, dy in _grid_within(reach):
        x, y = ux + dx, uy + dy
        if 0 <= x < width and 0 <= y < depth and hypot(x - cx, y - cy) >= away:
            spots.append((x, y))
    return spots


def spots_away_nearest(
    state: BattleState, unit: Unit, cause: Unit, reach: int
) -> list[tuple[float, int, int]]:
    """``spots_away``'s spots nearest the unit first, those as near in spots_away's order,
    each as (its distance from the unit, x, y): the grid taken in that order, so not
    sorted a call (issue 17)."""
    field = state.field
    width, depth = field.width_in, field.depth_in
    ux, uy, cx, cy = unit.x, unit.y, cause.x, cause.y
    away = hypot(ux - cx, uy - cy)  # unit.distance(cause)
    spots = []
    for dist, dx, dy in _grid_nearest(reach):
        x, y = ux + dx, uy + dy
        if 0 <= x < width and 0 <= y < depth and hypot(x - cx, y - cy) >= away:
            spots.append((dist, x, y))
    return spots


# _grid_within's and _grid_nearest's answers by reach: tables of a few reaches (issue 17).
_GRID: dict[int, tuple[tuple[int, int], ...]] = {}
_NEAREST: dict[int, tuple[tuple[float, int, int], ...]] = {}


def _grid_within(reach: int) -> tuple[tuple[int, int], ...]:
    """The offsets on a 2" grid within ``reach``, in the order spots_away tries them."""
    found = _GRID.get(reach)
    if found is None:
        span = range(-reach, reach + 1, 2)
        found = _GRID[reach] = tuple(
            (dx, dy) for dx in span for dy in span if hypot(dx, dy) <= reach
        )
    return found


def _grid_nearest(reach: int) -> tuple[tuple[float, int, int], ...]:
    """``_grid_within(reach)`` as (distance, dx, dy), nearest first, as near in its order
    (an offset's distance is the distance of its spot from the unit: whole inches)."""
    found = _NEAREST.get(reach)
    if found is None:
        ranked = sorted(
            (hypot(dx, dy), index, dx, dy) for index, (dx, dy) in enumerate(_grid_within(reach))
        )
        found = _NEAREST[reach] = tuple((dist, dx, dy) for dist, _, dx, dy in ranked)
    return found


def fall_back(state: BattleState, unit: Unit, cause: Unit) -> None:
    """5.2 Pull Back (and an Irregular's Shaken move): "move away from the last enemy unit
    that fired at it ... It can move up to 6" to find cover ..., but must move into the
    nearest covered position that does not require movement towards enemy units."

    Rulings: the spots on a 2" grid within 6" (whatever the going) that are farther from
    ``cause`` and no nearer to the nearest other enemy unit; of them the nearest that is
    not Exposed, out of ``cause``'s sight first among equals; with no cover among them,
    the one farthest from ``cause`` (it still moves away). No dice."""
    if unit.profile.mover is None:
        return
    away = unit.distance(cause)
    others = [e for e in unit.force.enemy.units if e.fighting and e is not cause]

    def nearest_other(x: int, y: int) -> float:
        return min((hypot(x - e.x, y - e.y) for e in others), default=float("inf"))

    keep = nearest_other(unit.x, unit.y)
    cover: tuple[float, bool, int, int] | None = None
    open_: tuple[float, int, int] | None = None
    for x, y in spots_away(state, unit, cause, PULL_BACK_IN):
        gain = hypot(x - cause.x, y - cause.y) - away
        if gain <= 0 or nearest_other(x, y) < keep:
            continue
        if not state.exposed(x, y):
            key = (hypot(x - unit.x, y - unit.y), state.sees(cause, Spot(x, y)), y, x)
            cover = key if cover is None or key < cover else cover
        else:
            far = (-gain, y, x)
            open_ = far if open_ is None or far < open_ else open_
    if cover is not None:
        best = (cover[3], cover[2])
    elif open_ is not None:
        best = (open_[2], open_[1])
    else:
        return  # nowhere farther from the enemy: it stays
    start = unit.position
    unit.x, unit.y = best
    unit.penalty_moves += 1
    unit.in_cover = not state.exposed(unit.x, unit.y)
    state.record("move", side=unit.force.side, stand=unit.id, dice=[], **{"from": start},
                 to=unit.position, speed="tactical", purpose="falls back",
                 going=str(state.going(start[0], start[1], unit.x, unit.y)))  # fmt: skip


class Spot:
    """A place on the table where a unit might go, for line-of-sight questions."""

    __slots__ = ("x", "y")

    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y
