"""The rest of the Force on Force excerpt, one rule at a time on hand-laid tables with
scripted dice: leaders and cohesion, splitting and merging, supply, ambush, spotting and
hiding, night, suppressed weapons, outgunned and intimidating weapons, smoke, first aid,
and the morale results."""

from __future__ import annotations

from typing import Any

import pytest

from rules.forceonforce import cohesion, combat, engine
from rules.forceonforce import fire as f
from rules.forceonforce.state import BattleState, Unit
from rules.spec import parse_battle
from tests.rules.conftest import ScriptedRoller, open_table
from tests.rules.test_fof_battle import battle


def make(
    faces: list[int] | tuple[int, ...] = (),
    att: dict[str, int] | None = None,
    dfn: dict[str, int] | None = None,
    **options: Any,
) -> BattleState:
    """Japanese veterans (d10, Morale d10) attack Australian trained troops (d8, d8)."""
    doc = battle(
        attacker__stands=att or {"rifle_squad": 1}, defender__stands=dfn or {"rifle_squad": 1}
    )
    doc["options"].update(options)
    spec = parse_battle(doc)
    state = BattleState(
        spec, ScriptedRoller(faces), open_table(), {**engine.DEFAULT_OPTIONS, **spec.options}
    )  # type: ignore[arg-type]
    for i, unit in enumerate(state.attacker.units):
        unit.x, unit.y = 2 + 3 * i, 34
    for i, unit in enumerate(state.defender.units):
        unit.x, unit.y = 2 + 3 * i, 1
    state.turn = 1
    return state


def at(unit: Unit, x: int, y: int) -> Unit:
    unit.x, unit.y = x, y
    return unit


def used(state: BattleState) -> int:
    return state.roller.dice_rolled


# --- leaders and cohesion ---------------------------------------------------------------


def test_a_unit_near_its_commander_and_seen_by_him_uses_his_better_morale() -> None:
    state = make(att={"commander": 1, "rifle_squad": 1})
    commander, squad = state.attacker.units
    at(commander, 10, 30)
    at(squad, 14, 30)
    assert cohesion.morale_die_for(state, squad) == 12  # Japanese d10, the leader's d12
    at(squad, 30, 30)
    assert cohesion.morale_die_for(state, squad) == 10


def test_a_leaderless_irregular_unit_must_pass_a_tq_check_to_act() -> None:
    state = make([2], irregular=["japanese"])
    squad = state.attacker.units[0]
    squad.leader = False
    engine.activate(state, squad)
    assert used(state) == 1
    assert state.log[-1]["purpose"] == "act leaderless" and squad.position == [2, 34]


def test_split_elements_are_units_and_the_stand_is_lost_only_with_all_of_them() -> None:
    state = make()
    squad = state.attacker.units[0]
    element = cohesion.split(state, squad, 2)
    assert (squad.healthy, element.healthy) == (2, 2)
    assert element.activated  # only one element acts on the activation of the split
    squad.lost = True
    assert state.attacker.lost == 0
    element.lost = True
    assert state.attacker.lost == 1
    with pytest.raises(cohesion.CohesionError):
        cohesion.split(state, state.defender.units[0], 4)


def test_merging_units_takes_the_majority_morale_and_the_lower_on_a_tie() -> None:
    state = make()
    squad = state.attacker.units[0]
    element = cohesion.split(state, squad, 1)
    element.morale_shift = -1
    cohesion.merge(state, squad, element)
    assert squad.healthy == 4 and squad.morale_shift == 0
    assert element.merged_into == squad.id and not element.fighting and not element.lost
    assert state.attacker.lost == 0
    half = cohesion.split(state, squad, 2)
    half.morale_shift = -1
    cohesion.merge(state, squad, half)
    assert squad.morale_shift == -1
    far = cohesion.split(state, squad, 2)
    at(far, 20, 20)
    with pytest.raises(cohesion.CohesionError):
        cohesion.merge(state, squad, far)


# --- supply, outgunned, intimidating, suppressed weapons ---------------------------------


def test_supply_levels_change_firepower() -> None:
    state = make(supply={"australian": "poor", "japanese": "abundant"})
    att, dfn = state.attacker.units[0], state.defender.units[0]
    poor = f.firepower(combat.shot_for(state, dfn, att))
    rich = f.firepower(combat.shot_for(state, att, dfn))
    assert ["poor supplies", -1] in poor.to_json()
    assert ["abundant supplies", 1] in rich.to_json()


def test_an_outgunning_force_gains_a_die() -> None:
    state = make(outgunned_by=["attacker"])
    att, dfn = state.attacker.units[0], state.defender.units[0]
    assert ["outgunned", 1] in f.firepower(combat.shot_for(state, att, dfn)).to_json()
    assert ["outgunned", 1] not in f.firepower(combat.shot_for(state, dfn, att)).to_json()


def test_suppressed_weapons_lose_a_die() -> None:
    plain = f.firepower(f.Shot(figures=4)).dice
    assert f.firepower(f.Shot(figures=4, suppressed_weapons=True)).dice == plain - 1


def test_an_intimidating_weapon_makes_confident_troops_test_against_suppression() -> None:
    # A medium mortar (2 support dice + its gunner = 3D: intimidating) misses entirely
    # (no 4+, so no suppression fire result): "All infantry units engaged by
    # Intimidating Weapons must make a Morale Check to avoid becoming Suppressed" (3.7).
    faces = [1] * 8 + [1] * 4 + [1, 1, 1, 1] + [5]
    state = make(faces, dfn={"medium_mortar": 1})
    mortar, target = state.defender.units[0], at(state.attacker.units[0], 2, 11)
    record = combat.attack(state, mortar, target, kind="activation")
    assert record is not None and record["hits"] == 0
    assert record["morale"]["reason"] == "intimidating weapon"
    assert record["effect"] == "suppressed" and target.suppressed and not target.pinned
    assert target.current_tq == 8  # a suppressed unit throws one die shift lower


# --- ambush, spotting, hiding -----------------------------------------------------------


def test_an_unspotted_ambush_fires_first_without_a_reaction_test() -> None:
    # The hidden d8 squad is 14" from the d10 mover: beyond its 10" optimum range (no
    # spot check), inside the ambush reach of 16". TQ check 5: sprung. 14" is beyond the
    # squad's own 8" optimum range (3.2): 4 figures + 1 light - 1 bolt + 1 exposed = 5D.
    faces = [5] + [1] * 5 + [1] * 4
    state = make(faces)
    mover, hidden = at(state.attacker.units[0], 2, 15), state.defender.units[0]
    hidden.hidden = True
    engine.react(state, mover, hidden, will_fire=False)
    kinds = [(r["kind"], r.get("purpose") or r.get("action")) for r in state.log]
    assert kinds == [("tq_check", "spring an ambush"), ("fire", "ambush")]
    assert used(state) == len(faces)


def test_a_spotted_ambush_is_a_normal_reaction() -> None:
    # 8" away, inside the mover's optimum range: it spots the ambushers (6 against 2),
    # then the reaction test (IU 7, NIU 3: the IU wins, the NIU failed: no fire).
    state = make([6, 2, 7, 3])
    mover, hidden = at(state.attacker.units[0], 2, 9), state.defender.units[0]
    hidden.hidden = True
    engine.react(state, mover, hidden, will_fire=False)
    assert [r["kind"] for r in state.log] == ["spot", "reaction"]
    assert mover.id in hidden.spotted_by and not hidden.may_react


def test_spotting_needs_a_pass_and_a_higher_roll() -> None:
    state = make([5, 5, 6, 5])
    spotter, hidden = state.attacker.units[0], state.defender.units[0]
    hidden.hidden = True
    assert not engine.spot(state, spotter, hidden)
    assert engine.spot(state, spotter, hidden)
    assert spotter.id in hidden.spotted_by


def test_a_unit_out_of_sight_hides_on_a_passed_check_and_a_stealthy_one_without() -> None:
    state = make([4], dfn={"rifle_squad": 1, "sniper": 1})
    squad, sniper = state.defender.units
    for enemy in state.attacker.units:
        enemy.lost = True  # nobody sees them
    assert combat.hide(state, squad) and squad.hidden
    assert combat.hide(state, sniper) and sniper.hidden
    assert used(state) == 1


def test_a_unit_in_enemy_sight_cannot_hide() -> None:
    state = make()
    assert not combat.hide(state, state.defender.units[0])
    assert used(state) == 0


# --- night, smoke -----------------------------------------------------------------------


def test_at_night_a_distant_target_is_elusive_and_must_be_located() -> None:
    state = make([3, 5], night=True)
    att, dfn = state.attacker.units[0], state.defender.units[0]
    # 33" apart, far beyond the halved optimum range: the locate test fails, no fire.
    assert combat.attack(state, att, dfn, kind="activation") is None
    assert state.log[-1]["kind"] == "locate" and att.fires == 1


def test_night_vision_removes_the_night_penalties() -> None:
    state = make(night=True, night_vision=["japanese"])
    att, dfn = state.attacker.units[0], state.defender.units[0]
    assert not combat.shot_for(state, att, dfn).night_beyond
    assert combat.shot_for(state, dfn, att).night_beyond


def test_smoke_gives_a_defence_die_and_costs_one_to_fire_out_of() -> None:
    state = make([5, 2])
    att, dfn = state.attacker.units[0], state.defender.units[0]
    assert combat.lay_smoke(state, att) and att.smoke
    assert "smoke" in combat.cover_of(state, att)
    assert ["firing out of smoke", -1] in f.firepower(combat.shot_for(state, att, dfn)).to_json()
    assert not combat.lay_smoke(state, att)  # once a turn
    assert not combat.lay_smoke(state, dfn)  # the 2 fails
    assert used(state) == 2


# --- first aid and morale results -------------------------------------------------------


@pytest.mark.parametrize(
    ("advanced", "healthy", "react_only"), [(False, 3, True), (True, 4, False)]
)
def test_first_aid_advanced_turns_a_three_into_a_light_wound(
    advanced: bool, healthy: int, react_only: bool
) -> None:
    state = make([3], advanced_first_aid=["australian"] if advanced else [])
    unit = state.defender.units[0]
    unit.healthy, unit.pending = 3, 1
    engine.first_aid(state)
    assert unit.healthy == healthy and unit.react_only is react_only
    assert state.log[-1]["results"] == ["light" if advanced else "serious"]


def test_a_dead_comrade_calls_for_a_tq_check() -> None:
    state = make([1, 2])
    unit = state.defender.units[0]
    unit.healthy, unit.pending = 3, 1
    engine.first_aid(state)
    assert unit.dead == 1 and unit.react_only
    assert [r["kind"] for r in state.log] == ["first_aid", "tq_check"]


def test_a_unit_whose_figures_are_all_hit_is_lost() -> None:
    state = make([8] * 6 + [1] * 4)  # 6 attack dice (4 + LMG + range - bolt + exposed), 4 defence
    att, dfn = state.attacker.units[0], state.defender.units[0]
    at(att, 2, 10)
    record = combat.attack(state, att, dfn, kind="activation")
    assert record is not None and record["effect"] == "wiped out" and dfn.lost


def test_regulars_pin_then_pull_back_then_pull_back_again() -> None:
    # 5.2: Pinned, Pinned again: Pull Back; while pulling back and regrouping every failed
    # Morale result is another Pull Back (Regulars are never Shaken).
    state = make([5])  # pinned in the open with no cover in reach: a TQ check (5.2, 3.9)
    unit, cause = state.defender.units[0], state.attacker.units[0]
    at(unit, 10, 6)
    assert combat.morale_failure(state, unit, cause, "pinned") == "pinned"
    assert combat.morale_failure(state, unit, cause, "pinned") == "pull back"
    assert unit.pulled_back and unit.y < 6
    assert combat.morale_failure(state, unit, cause, "pinned") == "pull back"
    assert unit.morale_die == 8


def test_an_irregular_failure_shakes_and_below_d6_the_unit_leaves() -> None:
    state = make(irregular=["australian"], morale_die={"australian": 6})
    unit, cause = state.defender.units[0], state.attacker.units[0]
    assert combat.morale_failure(state, unit, cause, "pinned") == "shaken: leaves the battle"
    assert unit.lost and unit.shaken_off


def test_multiple_suppressions_never_force_a_pull_back() -> None:
    # Suppressed, it goes to cover as a Pinned unit does: in the open with none in reach,
    # a check to get In Cover (5), then it stays In Cover.
    state = make([5])
    unit, cause = state.defender.units[0], state.attacker.units[0]
    for _ in range(3):
        assert combat.morale_failure(state, unit, cause, "suppressed") == "suppressed"
    assert not unit.pulled_back


def test_overwatch_fires_before_the_reaction_it_interrupts() -> None:
    # The attacker has initiative; its squad on Overwatch (+1) beats the reacting
    # defender (6+1 against 4), fires (5 dice d10 all 1s, 2 defence dice), then the
    # reaction goes on: the reaction test (IU 2, NIU 7: the NIU fires first), fire.
    faces = [6, 4] + [1] * 6 + [1] * 4 + [2, 7]
    state = make(faces, att={"rifle_squad": 2})
    mover, watcher = state.attacker.units
    at(watcher, 10, 20)
    niu = at(state.defender.units[0], 10, 12)
    watcher.overwatch = True
    state.initiative = state.attacker
    at(mover, 20, 20)
    faces_after = [1] * 7 + [1] * 4
    state.roller = ScriptedRoller(faces + faces_after)  # type: ignore[assignment]
    engine.react(state, mover, niu, will_fire=False)
    kinds = [(r["kind"], r.get("purpose") or r.get("action")) for r in state.log]
    assert kinds[:3] == [("reaction", "overwatch"), ("fire", "overwatch"), ("reaction", "reaction")]
    assert kinds[3] == ("fire", "reaction fire")
