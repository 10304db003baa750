"""The Korona battle: the turn sequence, the end of the battle and the result.

Side A (the attacker) moves and assaults, side B fires, side B moves and assaults,
side A fires, then both rally. The battle ends when a side has lost a third of the
stands it brought, when a side withdraws, or after the turn limit.
"""

from __future__ import annotations

from typing import Any

from rules.battlefield import Battlefield, RolledTable, generate_battlefield
from rules.battlespec import BattleSpec
from rules.dice import Roller
from rules.ending import BEATEN_BY_THE_CLOCK, HOPELESS
from rules.kernel import battle, options
from rules.kernel.battle import Engine, withdraw
from rules.korona import ai, cup, events
from rules.korona.assault import assault
from rules.korona.fire import INDIRECT_FIRE, fire
from rules.korona.rally import rally
from rules.korona.state import CONTACT_IN, SUPPRESSED, BattleState, Force, Stand
from rules.korona.support import available_mission, call_mission
from rules.records import BattleResult

DEFAULT_OPTIONS: dict[str, Any] = {
    "turn_limit": 12,
    "impact_fuse": True,
    "combat_events": False,  # Old Breed 17.0
    "fog_of_war_cup": False,  # Old Breed 16.2: reinforcements placed from the cup
    "combat_event_table": None,  # None: the shipped tables (rules.korona.events)
    "japanese_event_table": None,
}


_CHECKS: dict[str, options.Check] = {
    "turn_limit": options.turn_limit,
    "impact_fuse": options.boolean,
    "combat_events": options.boolean,
    "fog_of_war_cup": options.boolean,
    "combat_event_table": lambda key, value: events.check_table(value, key),
    "japanese_event_table": lambda key, value: events.check_table(value, key),
}


def check_options(given: dict[str, Any]) -> list[str]:
    """Problems with the Korona options of a BATTLE.json (``ruleset`` already removed)."""
    return options.check(given, _CHECKS, "korona")


def _drawn_in(
    force: Force, attackers: list[Stand], target: Stand, engaged: set[str]
) -> list[Stand]:
    """The defenders of an assault on ``target``, adding to ``attackers`` as it goes.

    "Assaults occur when base to base contact is made": every stand of either side not yet
    in an assault this move (``engaged``) that touches a stand in this one fights in it,
    until none is left touching; on the moving side that includes a friend of another
    plan that ended its move beside it (issue 13: it was left in contact, out of the
    fight)."""
    defenders = [target]
    grown = True
    while grown:
        grown = False
        for stands, fighting, touching in (
            (force.enemy.stands, defenders, attackers),
            (force.stands, attackers, defenders),
        ):
            for s in stands:
                if (
                    s.alive
                    and s not in fighting
                    and s.id not in engaged
                    and any(s.distance(t) <= CONTACT_IN for t in touching)
                ):
                    fighting.append(s)
                    grown = True
    return defenders


def _move_phase(state: BattleState, force: Force) -> None:
    state.phase = f"{force.key} move"
    if ai.hopeless(state, force):
        strength = (ai.fit_to_fight(force), ai.fit_to_fight(force.enemy))
        withdraw(state, force, HOPELESS, fit_to_fight=strength)
    if ai.beaten_by_the_clock(state, force):
        withdraw(state, force, BEATEN_BY_THE_CLOCK)
    # The attacker draws its reinforcement as it moves; the defender keeps its draw for an
    # ambush during the enemy's move when the cup allows one, and otherwise draws now.
    cup.own_move(state, force)
    plans = ai.plan_move(state, force)
    engaged: set[str] = set()
    for target, group in plans:
        attackers = [
            s for s in group if s.alive and s.id not in engaged and s.distance(target) <= CONTACT_IN
        ]
        if not attackers or not target.alive or target.id in engaged:
            continue
        defenders = _drawn_in(force, attackers, target, engaged)
        engaged.update(s.id for s in defenders)
        engaged.update(s.id for s in attackers)
        assault(state, attackers, defenders)
        state.end_check()


def _fire_phase(state: BattleState, force: Force) -> None:
    state.phase = f"{force.key} fire"
    caller = _fire_mission(state, force)
    shooters = [
        s
        for s in force.stands
        if s.alive and s is not caller and (s.unit.fire_dice > 0 or s.unit.gun_attack)
    ]
    shooters.sort(key=lambda s: -s.unit.fire_dice)  # stable: heavy weapons first, by id
    # Where the enemy stands: a shooter whose weapon cannot reach that box has no target.
    # Nothing moves in a fire phase, but a Combat Event may bring a stand back or add one.
    reach = ai.EnemyBox(force)
    for stand in shooters:
        if not _may_fire(stand):
            continue
        indirect = stand.unit.name in INDIRECT_FIRE
        if not indirect and reach.beyond(stand, stand.unit):
            continue
        events_logged = _fire_one(state, stand, indirect, caller)
        if events_logged is None:
            continue  # no target
        if events_logged:
            reach = ai.EnemyBox(force)  # an event happened: look again
        state.end_check()


def _fire_mission(state: BattleState, force: Force) -> Stand | None:
    """The force's off-table fire mission, if it has one and a target: its caller."""
    mission = available_mission(state, force)
    if mission is None:
        return None
    choice = ai.choose_target(state, mission.caller, mission.weapon, force.side)
    if choice is None:
        return None
    call_mission(state, mission, *choice)
    state.end_check()
    return mission.caller


def _may_fire(stand: Stand) -> bool:
    """Alive and not suppressed, not fired already this turn (opportunity fire from the
    cup), not moved if it fires only unmoved, not limbered."""
    unit = stand.unit
    return (
        stand.alive
        and stand.status != SUPPRESSED
        and not stand.fired
        and not (unit.fires_only_unmoved and stand.moved)
        and not (unit.limbers and stand.limbered)
    )


def _fire_one(state: BattleState, stand: Stand, indirect: bool, caller: Stand | None) -> int | None:
    """The stand fires at the AI's target, directly or (a mortar) at one a friend spots;
    then the Combat Event roll: the records it added (None: no target, no fire)."""
    choice = ai.choose_target(state, stand, stand.unit, stand.force.side)
    extra: dict[str, Any] | None = None
    if choice is None and indirect:
        spotted = ai.choose_indirect_target(state, stand, busy=caller)
        if spotted is not None:
            spotter, spotted_target, spotted_obscured = spotted
            choice = (spotted_target, spotted_obscured)
            extra = {"indirect": True, "spotted_by": spotter.id}
    if choice is None:
        return None
    target, obscured = choice
    if stand.hidden:
        extra = {**(extra or {}), "revealed": True}
    stand.hidden = False
    stand.fired = True
    record = fire(
        state,
        side=stand.force.side,
        firer=stand.id,
        firer_type=stand.unit.name,
        weapon=stand.unit,
        target=target,
        obscured=obscured,
        extra=extra,
    )
    logged = len(state.log)
    events.after_fire(state, stand, record)
    return len(state.log) - logged


def roll_terrain(spec: BattleSpec, roller: Roller) -> Battlefield:
    """The table, the first thing rolled: the battle's size and the going of each landform
    as the battle gives it (the rulings' by default)."""
    return generate_battlefield(
        roller,
        width_ft=spec.width_ft,
        depth_ft=spec.depth_ft,
        vegetation=spec.area.vegetation,
        plains=spec.area.plains,
        landform_going=spec.landform_going_map(),
    )


def _deploy(state: BattleState) -> None:
    ai.deploy_defender(state, state.defender)
    ai.deploy_attacker(state, state.attacker)


def _turn(state: BattleState) -> None:
    # "Fire only in turns where they did not move": the defender fires before it moves, so
    # a move made last turn must not stop this turn's fire.
    for force in state.forces:
        for stand in force.stands:
            stand.new_turn()
    attacker, defender = state.attacker, state.defender
    _move_phase(state, attacker)
    _fire_phase(state, defender)
    _move_phase(state, defender)
    _fire_phase(state, attacker)
    state.phase = "rally"
    rally(state, attacker)
    rally(state, defender)


ENGINE = Engine("korona", DEFAULT_OPTIONS, roll_terrain, BattleState, _deploy, _turn)


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
    """Fight the battle described by ``spec`` with dice from ``seed``; returns the result.

    ``battlefield`` replaces the generated terrain (a table laid out by hand); by default
    the terrain is rolled first, from the same dice, unless ``table`` (``roll_table``)
    rolled it already.
    """
    return battle.resolve(ENGINE, spec, seed, battlefield, table)
