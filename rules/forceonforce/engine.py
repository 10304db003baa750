"""The Force on Force battle: the turn sequence, the end of the battle and the result.

Each turn: First Aid Checks, initiative, Overwatch declared, the side with initiative
activates its units one at a time while the other side reacts, then the End Phase, in
which the non-initiative units that have not reacted move and fire. The battle ends as
a Korona battle does: a side that has lost a third of its units loses, a side may
withdraw, and at the turn limit the smaller fraction lost wins (the defender on ties).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules import oldbreed as old_breed
from rules.battlefield import Battlefield, RolledTable, generate_battlefield
from rules.battlespec import SIDES, BattleSpec
from rules.dice import Roller
from rules.ending import HOPELESS
from rules.forceonforce import ai, oldbreed
from rules.forceonforce import fire as f
from rules.forceonforce import tables as t
from rules.forceonforce.combat import (
    AIMED,
    SUPPRESSING,
    Declared,
    attack,
    fog_of_war,
    hide,
    lay_smoke,
    may_fire_at,
    move_unit,
    tq_check,
)
from rules.forceonforce.state import ATTACKER, DEFENDER, BattleState, Force, Unit
from rules.kernel import battle, options
from rules.kernel.battle import Engine, withdraw
from rules.records import BattleResult

RULESET = "force_on_force"

DEFAULT_OPTIONS: dict[str, Any] = {
    "turn_limit": 12,
    "morale_die": {},  # side -> 6/8/10/12 (default: Australians d8, Japanese d10)
    "irregular": [],  # sides fighting as Irregulars (default: both Regulars)
    "confidence": {},  # side -> low/confident/high (default confident)
    "supply": {},  # side -> poor/normal/abundant
    "advanced_first_aid": [],  # sides with medics
    "night": False,
    "night_vision": [],  # sides with night vision devices
    "fog_of_war": True,
    "defender_hidden": False,  # defender units in woods set up Hidden (ambushes)
    "dug_in": None,  # defender's cover when In Cover: improved / fortified / reinforced
    "outgunned_by": [],  # forces (attacker/defender) that outgun the other (4.6)
    "combat_events": False,  # Old Breed 17.0 (rules.forceonforce.oldbreed)
    "fog_of_war_cup": False,  # Old Breed 16.2: reinforcements placed from the cup
    "combat_event_table": None,  # None: the shipped tables (rules.oldbreed)
    "japanese_event_table": None,
}

_SIDE_MAPS: dict[str, set[object]] = {
    "morale_die": set(t.DIE_LADDER),
    "confidence": set(t.CONFIDENCE_LEVELS),
    "supply": set(t.SUPPLY_FIREPOWER),
}
_SIDE_LISTS = ("irregular", "advanced_first_aid", "night_vision")
# A Korona fire rule with no meaning here: refused with the reason rather than ignored.
IMPACT_FUSE_REFUSED = (
    "impact_fuse is a Korona fire rule (a knee mortar's hits only pin in woods); Force on "
    "Force has no pinning hit to limit (a hit is a casualty, pinning comes from morale), "
    "so it does not apply"
)


def _side_map(key: str, value: Any) -> list[str]:
    allowed = _SIDE_MAPS[key]
    if isinstance(value, dict) and all(
        s in SIDES and v in allowed and not isinstance(v, bool) for s, v in value.items()
    ):
        return []
    listed = ", ".join(str(v) for v in sorted(allowed, key=str))
    return [f"{key} must map australian/japanese to one of {listed}"]


def _side_list(key: str, value: Any) -> list[str]:
    if isinstance(value, list) and all(s in SIDES for s in value):
        return []
    return [f"{key} must be a list of sides (australian, japanese)"]


def _outgunned_by(key: str, value: Any) -> list[str]:
    if isinstance(value, list) and all(s in (ATTACKER, DEFENDER) for s in value):
        return []
    return ["outgunned_by must be a list of attacker/defender"]


def _impact_fuse(key: str, value: Any) -> list[str]:
    return [] if value in (False, None) else [IMPACT_FUSE_REFUSED]


def _event_table(key: str, value: Any) -> Sequence[str]:
    return [] if value is None else old_breed.check_table(value, key)


def _dug_in(key: str, value: Any) -> list[str]:
    if value in (None, "improved", "fortified", "reinforced"):
        return []
    return [f"dug_in must be improved, fortified or reinforced, not {value!r}"]


_CHECKS: dict[str, options.Check] = {
    "turn_limit": options.turn_limit,
    **dict.fromkeys(_SIDE_MAPS, _side_map),
    **dict.fromkeys(_SIDE_LISTS, _side_list),
    "outgunned_by": _outgunned_by,
    "impact_fuse": _impact_fuse,
    "combat_event_table": _event_table,
    "japanese_event_table": _event_table,
    **dict.fromkeys(
        ("night", "fog_of_war", "defender_hidden", "combat_events", "fog_of_war_cup"),
        options.boolean,
    ),
    "dug_in": _dug_in,
}


def check_options(given: dict[str, Any]) -> list[str]:
    """Problems with the Force on Force options of a BATTLE.json."""
    return options.check(given, _CHECKS, RULESET)


# --- the start of a turn ----------------------------------------------------------------


def first_aid(state: BattleState) -> None:
    """5.3: a d6 per casualty of last turn, the unit's healthy figures tending them."""
    state.phase = "first aid"
    for force in state.forces:
        for unit in force.units:
            if unit.pending == 0 or unit.lost:
                continue
            faces = list(state.roller.roll(unit.pending, 6))
            results = [f.first_aid(face, advanced=force.advanced_first_aid) for face in faces]
            unit.pending = 0
            for result in results:
                if result == "dead":
                    unit.dead += 1
                elif result == "serious":
                    unit.serious += 1
                else:
                    unit.healthy += 1
                    unit.wounded_light += result == "light"
            if "serious" in results:
                unit.react_only = True
            # state.record's entry, made here as a fire's is (combat.attack; issue 17).
            state.log.append({
                "turn": state.turn, "phase": state.phase, "kind": "first_aid", "dice": faces,
                "side": force.side, "stand": unit.id, "advanced": force.advanced_first_aid,
                "results": results,
            })  # fmt: skip
            if "dead" in results and not tq_check(state, unit, "a comrade dead"):
                unit.react_only = True


def _initiative(state: BattleState) -> None:
    """Ruling (the excerpt does not say how): an opposed Troop Quality test of the two
    forces each turn; the attacker keeps it on any tie, as the initiative unit does."""
    state.phase = "initiative"
    att, dfn = state.attacker, state.defender
    test = f.opposed_test(state.roller, att.tq, dfn.tq, ties_to_a=True)
    state.initiative = att if test.first_wins else dfn
    state.record("initiative", dice=list(test.faces), dies=[att.tq, dfn.tq],
                 winner=state.initiative.key)  # fmt: skip


# --- activation and reactions -----------------------------------------------------------


def _reaction_modifier(unit: Unit) -> int:
    mod = t.RAPID_REACTION_MODIFIER if unit.movement == "rapid" else 0
    return mod + (t.OVERWATCH_REACTION_MODIFIER if unit.overwatch else 0)


def _reaction_test(
    state: BattleState, iu: Unit, niu: Unit, purpose: str, niu_modifier: int = 0
) -> f.Opposed:
    test = f.opposed_test(
        state.roller, iu.current_tq or 6, niu.current_tq or 6,
        _reaction_modifier(iu), _reaction_modifier(niu) + niu_modifier, ties_to_a=True,
    )  # fmt: skip
    # state.record's entry, made here as a fire's is (combat.attack; issue 17).
    state.log.append({
        "turn": state.turn, "phase": state.phase, "kind": "reaction", "dice": list(test.faces),
        "purpose": purpose, "initiative_unit": iu.id, "reacting_unit": niu.id,
        "totals": list(test.totals), "winner": iu.id if test.first_wins else niu.id,
    })  # fmt: skip
    iu_draws, niu_draws = test.fog_of_war  # the two in turn, not a zip (issue 17)
    if iu_draws:
        fog_of_war(state, iu, "reaction test")
    if niu_draws:
        fog_of_war(state, niu, "reaction test")
    return test


def _fire(state: BattleState, shooter: Unit, target: Unit, kind: str) -> bool:
    """Fire if able; True if the shot was taken. Whether the firer may fire at the target
    (sight, a Hidden target, the ambush reach) is asked now, as the fire resolves
    (``combat.fire_problem``); the AI declares Suppression Fire (3.7) where it serves."""
    if not (shooter.can_fire and target.fighting):
        return False
    part = shooter.split.get(target.id) if shooter.split is not None else None
    if part is not None:
        # 3.6: one part of a split fire: its allotted dice; all the parts are one fire
        # for diminishing firepower (3.4).
        later_part = bool(shooter.split_done)
        shooter.split_done.add(target.id)
        shooter.fires -= later_part
        declared = Declared(allotted=part[0], support=part[1])
        record = attack(state, shooter, target, kind=kind, declared=declared)
        if record is None:
            shooter.fires += later_part
        if record is not None:
            oldbreed.after_fire(state, shooter, record)
        state.end_check()
        return record is not None
    suppressing = kind != "ambush" and ai.suppression_fire(state, shooter, target)
    declared = SUPPRESSING if suppressing else AIMED
    record = attack(state, shooter, target, kind=kind, declared=declared)
    if record is not None:
        oldbreed.after_fire(state, shooter, record)  # Combat Events (17.0)
    state.end_check()
    return record is not None


OPPORTUNITY_FIRE = "opportunity fire, activation spent"  # 3.15 (the cup's is 16.2's)


def _interrupt(
    state: BattleState, iu: Unit | None, niu: Unit, moving: bool
) -> tuple[Unit, str] | None:
    """One initiative unit may interrupt ``niu``'s reaction: one on Overwatch (3.16, +1 on
    the test), else one not yet activated that gives up its activation (3.15, Opportunity
    Fire). Winning the reaction test it fires first; losing it, it fires after the
    reaction: returned with its action. An Overwatch unit that loses falls off Overwatch."""
    units = state.initiative.units
    watcher = _overwatcher(units, state, niu)
    action = "overwatch"
    if watcher is None:
        if iu is None:
            return None  # the End Phase: Overwatch units only
        if not moving:
            return None  # ai.opportunity_fire: the AI fires so only at a reaction move
        watcher = next(
            (u for u in units if u is not iu and ai.opportunity_fire(state, u, niu, moving)),
            None,
        )
        if watcher is None:
            return None
        watcher.activated = True  # 3.15: its activation is spent
        action = OPPORTUNITY_FIRE
    test = _reaction_test(state, watcher, niu, action)
    if test.first_wins:
        _fire(state, watcher, niu, action)
        if not niu.fighting or niu.pinned or niu.suppressed:
            niu.may_react = False
        return None
    watcher.overwatch = False  # fallen off Overwatch
    return watcher, action


def _overwatcher(units: list[Unit], state: BattleState, niu: Unit) -> Unit | None:
    """The first of ``units`` on Overwatch that may fire at ``niu``, if any."""
    for ow in units:  # a loop, not next() over a generator (issue 17)
        if ow.overwatch and ow.can_fire and may_fire_at(state, ow, niu):
            return ow
    return None


def react(
    state: BattleState,
    iu: Unit,
    niu: Unit,
    will_fire: bool,
    move: tuple[tuple[int, int], str] | None = None,
) -> None:
    """3.12 (the house-rule table): one non-initiative unit reacts to ``iu``, by fire or,
    given ``move`` (a spot and a speed), by moving (3.13). Declared when ``iu``'s
    activation starts, the reaction is re-checked as it resolves: it answers a unit
    "within their Line of Sight" (3.13, 3.14), and a Hidden unit ambushes only within
    twice its Troop Quality (4.1); otherwise it does not happen."""
    if not state.sees(niu, iu):
        return
    hidden = niu.hidden and iu.id not in niu.spotted_by and move is None
    if hidden and niu.distance(iu) > t.AMBUSH_RANGE_FACTOR * niu.tq:
        return
    late = _interrupt(state, iu, niu, moving=move is not None)
    if niu.may_react and niu.fighting and iu.fighting:
        niu.reacted = True
        _reaction(state, iu, niu, will_fire, move)
    if late is not None and niu.fighting and state.sees(late[0], niu):
        _fire(state, late[0], niu, late[1])


def _reaction(
    state: BattleState,
    iu: Unit,
    niu: Unit,
    will_fire: bool,
    move: tuple[tuple[int, int], str] | None,
) -> None:
    """The reaction itself: a move (3.13), an ambush (4.1) or reaction fire (3.12)."""
    if move is not None and not niu.hidden:
        _reaction_move(state, iu, niu, will_fire, *move)
    elif niu.hidden and _ambush(state, niu, iu):
        _fire(state, niu, iu, "ambush")
        if will_fire and iu.fighting:
            _fire(state, iu, niu, "return fire")
            iu.reacted = True
    else:
        _reaction_fire(state, iu, niu, will_fire)


def _reaction_fire(state: BattleState, iu: Unit, niu: Unit, will_fire: bool) -> None:
    """3.12 and 3.14: ``niu`` reacts to ``iu`` with fire; the reaction test says who
    fires first, or whether either fires at all."""
    test = _reaction_test(state, iu, niu, "reaction")
    iu_pass, niu_pass = test.passed
    if test.first_wins:
        niu.may_react = False  # 3.14: lost the test, no more reactions this turn
        if will_fire:
            _fire(state, iu, niu, "reaction round" if niu_pass else "opportunity")
            iu.reacted = True
            if niu_pass and niu.fighting:
                _fire(state, niu, iu, "return fire")
        elif niu_pass:
            _fire(state, niu, iu, "reaction fire")
    else:
        _fire(state, niu, iu, "reaction fire")
        if iu_pass and will_fire and iu.fighting:
            _fire(state, iu, niu, "return fire")
            iu.reacted = True


def _reaction_move(
    state: BattleState, iu: Unit, niu: Unit, will_fire: bool, to: tuple[int, int], speed: str
) -> None:
    """3.13: ``niu`` reacts to ``iu`` by moving, once a turn. Winning the reaction test it
    moves before ``iu`` fires (which then fires only if it still sees it); losing it, it
    takes ``iu``'s declared fire first and then moves, if it still can. Ruling: a unit
    reacting with a Rapid move takes the -1 of a unit making a Rapid move (3.12)."""
    niu.reaction_moved = True
    rapid = t.RAPID_REACTION_MODIFIER if speed == "rapid" and niu.movement != "rapid" else 0
    test = _reaction_test(state, iu, niu, "reaction move", rapid)
    if test.first_wins:
        niu.may_react = False  # 3.14: lost the test, no more reactions this turn
        before = (niu.pulled_back, niu.morale_shift, niu.position)
        if will_fire:
            _fire(state, iu, niu, "activation")
        if not niu.fighting or (niu.pulled_back, niu.morale_shift, niu.position) != before:
            # Eliminated, or the fire made it Pull Back, Shaken, or Pinned and it moved to
            # cover (5.2): it has moved.
            return
    move_unit(state, niu, to, speed, purpose="reaction move")


def _ambush(state: BattleState, hidden: Unit, mover: Unit) -> bool:
    """4.1: the mover may spot the ambushers within its optimum range; unspotted, they
    spring the ambush on a passed TQ check and fire first without a reaction test. A unit
    the mover has already spotted makes a normal reaction."""
    if mover.id in hidden.spotted_by:
        return False
    if mover.distance(hidden) <= f.optimum_range(mover.tq) and spot(state, mover, hidden):
        return False
    hidden.hidden = False
    return tq_check(state, hidden, "spring an ambush")


def spot(state: BattleState, spotter: Unit, hidden: Unit) -> bool:
    """4.2: opposed TQ test; the spotter must pass and roll higher."""
    mod = t.SPOT_RAPID_DETECTOR if spotter.movement == "rapid" else 0
    mod += t.SPOT_STEALTHY_HIDDEN if hidden.profile.stealthy else 0
    mod += t.SPOT_VEHICLE_OR_GUN if hidden.profile.vehicle_or_gun else 0
    mod += t.SPOT_OPTICS if spotter.profile.optics else 0
    mod += t.SPOT_STEALTHY_DETECTOR if spotter.profile.stealthy else 0
    test = f.opposed_test(state.roller, spotter.current_tq or 6, hidden.current_tq or 6, mod,
                          ties_to_a=False)  # fmt: skip
    state.record("spot", side=spotter.force.side, spotter=spotter.id, hidden_unit=hidden.id,
                 dice=list(test.faces), modifier=mod, spotted=test.first_wins)  # fmt: skip
    for unit, one in zip((spotter, hidden), test.fog_of_war, strict=True):
        if one:
            fog_of_war(state, unit, "spotting")
    if test.first_wins:
        hidden.spotted_by.add(spotter.id)
    return test.first_wins


def activate(state: BattleState, unit: Unit, *, end_phase: bool = False) -> None:
    """One unit's activation (6 and 7 of the turn sequence): move and/or fire, the other
    side reacting; with ``end_phase``, a non-initiative unit's move and/or fire in the End
    Phase (8), where Overwatch units may interrupt it and a Regular initiative unit fired
    at may fight a round of fire."""
    if not _may_act(state, unit):
        return
    moving = None
    if not unit.overwatch and ai.wants_to_advance(state, unit):
        moving = ai.plan_move(state, unit)
    if moving is None:
        _stay(state, unit)
    elif not _advance(state, unit, moving):
        return
    target = ai.best_target(state, unit)
    if target is None and moving is None and _hides(state, unit):
        return  # 3.11a: hiding is the activation, and no one may react to it
    if target is None and unit.can_fire:
        target = next((h for h in ai.hidden_enemies(state, unit) if spot(state, unit, h)), None)
    if end_phase:
        _end_phase_action(state, unit, target, moved=moving is not None)
    else:
        _activation_fire(state, unit, target)


def _may_act(state: BattleState, unit: Unit) -> bool:
    """Marks the unit activated; may it act? Not when it may only react (5.3), is
    regrouping (5.2: it may not move nor initiate a round of fire), or is an Irregular
    unit without its leader that fails its check (1.5)."""
    if unit.activated or not unit.fighting:
        return False
    unit.activated = True
    if unit.react_only or unit.regrouping:
        return False
    return unit.force.regular or unit.leader or tq_check(state, unit, "act leaderless")


def _advance(state: BattleState, unit: Unit, moving: tuple[tuple[int, int], str]) -> bool:
    """The activation's move; False if the unit was lost to an ambush from the cup."""
    if state.exposed(unit.x, unit.y) and any(
        state.sees(e, unit) for e in unit.force.enemy.units if e.fighting
    ):
        lay_smoke(state, unit)  # cover the dash across open ground
    origin = (unit.x, unit.y)
    move_unit(state, unit, *moving)
    # 16.2: the enemy may draw from its cup and place a unit in ambush, pausing this
    # move; the placed unit fires at once at the mover (opportunity fire).
    placed = oldbreed.enemy_moved(state, unit, origin)
    if placed is not None and placed.can_fire:
        _fire(state, placed, unit, "opportunity fire")
        return unit.fighting
    return True


def _stay(state: BattleState, unit: Unit) -> None:
    """3.9, a unit that does not move: a Regular one not Exposed is In Cover; any other
    not In Cover that can move takes a check to get In Cover."""
    if unit.force.regular and not state.exposed(unit.x, unit.y):
        unit.in_cover = True
    elif not unit.in_cover and unit.profile.mover is not None:
        unit.in_cover = tq_check(state, unit, "get in cover")


def _hides(state: BattleState, unit: Unit) -> bool:
    """3.11a with ``defender_hidden``: a defender in woods with no target goes into hiding."""
    return (
        state.options["defender_hidden"]
        and unit.force.key == DEFENDER
        and state.field.square_at(unit.x, unit.y).wooded
        and hide(state, unit)
    )


def _activation_fire(state: BattleState, unit: Unit, target: Unit | None) -> None:
    """3.11a: the declared fire, at one target or split between two or more (3.6)."""
    split = ai.split_fire(state, unit, target) if target is not None else None
    declared = [target] if target is not None else []
    if split is not None:
        declared = [u for u, _, _ in split]
        unit.split = {u.id: (n, sup) for u, n, sup in split}
        unit.split_done = set()
    try:
        _declared_fire(state, unit, target, declared)
    finally:
        unit.split = None


def _reactions(
    state: BattleState, unit: Unit, target: Unit | None, pending: list[Unit]
) -> list[tuple[Unit, tuple[tuple[int, int], str] | None]]:
    """The enemy units that react to ``unit``'s activation, with a reaction move or None
    (fire): those fired on first, its main target first among them, then the nearest;
    ruling: at most three reactions to one activation."""
    reactions = []
    for e in unit.force.enemy.units:
        if e.lost or e.healthy <= 0 or e.merged_into is not None:  # Unit.fighting, spelt out
            continue
        fired_on = e in pending
        # 3.13: the AI moves only a unit fired on, and only out of sight or the open.
        move = ai.reaction_move(state, e, unit) if fired_on else None
        if move is not None or ai.reacts(state, e, unit, fired_on):
            reactions.append((e, move))
    reactions.sort(key=lambda r: (r[0] not in pending, r[0] is not target, unit.distance(r[0]),
                                  r[0].id))  # fmt: skip
    return reactions[:3]


def _declared_fire(
    state: BattleState, unit: Unit, target: Unit | None, declared: list[Unit]
) -> None:
    """The reactions to ``unit``'s activation, then its declared fire at what is left."""
    pending = list(declared)
    for niu, move in _reactions(state, unit, target, pending):
        if not unit.fighting:
            return
        logged = len(state.log)
        react(state, unit, niu, niu in pending, move)
        if niu in pending and any(
            r["kind"] == "fire" and r["firer"] == unit.id and r["target"] == niu.id
            for r in state.log[logged:]
        ):
            pending.remove(niu)  # the declared fire was the round of fire
    for aim in pending:
        if unit.fighting and aim.fighting:
            # A reaction move (3.13) may have taken it from sight: ``_fire`` asks again.
            _fire(state, unit, aim, "activation")


def _end_phase_action(state: BattleState, unit: Unit, target: Unit | None, moved: bool) -> None:
    """8, the End Phase: ``unit`` (not of the side with initiative) has moved, if it
    meant to, and fires at ``target``. "Overwatch units may react to the movement or fire
    of a NIU in the end phase" (3.16's note 2): one that sees it takes a reaction test (+1),
    and winning fires first: the unit then goes on only if not Pinned, Suppressed or gone;
    losing, it fires after the unit's action, if it still sees it, and falls off
    Overwatch. A Regular initiative unit fired at may fight a round of fire (3.11): the
    reaction test's ties go to it, the initiative unit (3.12)."""
    if target is None and not moved:
        return  # nothing to react to
    unit.may_react = True  # here: whether it may go on with its action
    late = _interrupt(state, None, unit, moving=moved)
    if not unit.fighting:
        return
    if late is None and not unit.may_react:
        return  # the Overwatch unit fired first and Pinned or Suppressed it: it stops
    if target is not None and target.fighting and unit.fighting:
        _end_phase_fire(state, unit, target)
    if late is not None and unit.fighting:
        _fire(state, late[0], unit, late[1])


def _end_phase_fire(state: BattleState, unit: Unit, target: Unit) -> None:
    if not (target.force.regular and target.can_fire and may_fire_at(state, target, unit)):
        _fire(state, unit, target, "end phase")
        return
    test = _reaction_test(state, target, unit, "round of fire")
    target_passed = test.passed[0]
    if test.first_wins and target_passed:
        _fire(state, target, unit, "round of fire")
        if unit.fighting:
            _fire(state, unit, target, "end phase")
        return
    _fire(state, unit, target, "end phase")
    if target_passed and target.fighting:
        _fire(state, target, unit, "round of fire")


def end_phase(state: BattleState) -> None:
    """8: "any Non-Initiative unit that has not made a Reaction during the turn may be
    moved and/or fired"; then Pinned and Suppressed end, a unit that pulled back regroups
    next turn, smoke clears (5.2, 4.6)."""
    iu_force = state.initiative
    state.phase = "end phase"
    oldbreed.own_phase(state, iu_force.enemy)
    for unit in iu_force.enemy.units:
        if not unit.reacted:
            activate(state, unit, end_phase=True)
    for force in state.forces:
        for unit in force.units:
            unit.pinned = unit.suppressed = False
            unit.regrouping = unit.pulled_back
            unit.pulled_back = False
            unit.smoke = False


def _turn(state: BattleState) -> None:
    for force in state.forces:
        for unit in force.units:
            unit.new_turn()
    first_aid(state)
    for force in (state.attacker, state.defender):
        state.phase = "withdrawal"
        if ai.hopeless(state, force):
            strength = (ai.fit_to_fight(force), ai.fit_to_fight(force.enemy))
            withdraw(state, force, HOPELESS, fit_to_fight=strength)
    _initiative(state)
    iu_force: Force = state.initiative
    state.phase = "overwatch"
    watching = [u.id for u in iu_force.units if u.fighting and ai.overwatch(state, u)]
    for unit in iu_force.units:
        unit.overwatch = unit.id in watching
    state.record("overwatch", side=iu_force.side, dice=[], units=watching)
    state.phase = f"{iu_force.key} activation"
    # 16.2: the side with initiative draws from its cup as its activations begin; the other
    # keeps its draw for an ambush during them, else draws as the End Phase begins.
    oldbreed.own_phase(state, iu_force)
    for unit in iu_force.units:
        if not unit.overwatch:
            activate(state, unit)
    end_phase(state)


def roll_terrain(spec: BattleSpec, roller: Roller) -> Battlefield:
    """The table, the first thing rolled. The going of each landform is the generator's
    own (mud/rocks/swamp bad): this engine does not read ``table.landform_going``."""
    return generate_battlefield(
        roller, width_ft=spec.width_ft, depth_ft=spec.depth_ft,
        vegetation=spec.area.vegetation, plains=spec.area.plains,
    )  # fmt: skip


def _deploy(state: BattleState) -> None:
    ai.deploy_defender(state, state.defender)
    ai.deploy_attacker(state, state.attacker)


ENGINE = Engine(RULESET, DEFAULT_OPTIONS, roll_terrain, BattleState, _deploy, _turn)


def roll_table(spec: BattleSpec, seed: int) -> RolledTable:
    """The table the battle is fought on, rolled from its seed for ``resolve`` later."""
    return battle.roll_table(ENGINE, spec, seed)


def resolve(
    spec: BattleSpec,
    seed: int,
    *,
    battlefield: Battlefield | None = None,
    table: RolledTable | None = None,
) -> BattleResult:
    """Fight the battle described by ``spec`` under Force on Force with dice from ``seed``."""
    return battle.resolve(ENGINE, spec, seed, battlefield, table)
