"""Issue 12, Force on Force fidelity: no fire without sight, re-checked as each fire
resolves; Suppression Fire (3.7); regrouping (5.2); optimum range (3.2); Overwatch in the
End Phase (3.16, step 8); and the smaller points, each from the excerpt's words, on
hand-laid tables with scripted dice, driven through the engine's public steps
(``engine.activate``, ``engine.end_phase``, ``combat.attack``, the AI's choices)."""

from __future__ import annotations

from typing import Any

from rules.dice import Roller
from rules.forceonforce import ai, combat, engine
from rules.forceonforce import fire as f
from rules.forceonforce.combat import Spot
from rules.forceonforce.state import BattleState
from tests.rules.conftest import table
from tests.rules.test_fof_mechanics import at, make, used
from tests.rules.test_fof_reactions_more import ridge_state

# A high ridge in the middle square: x 12-24", y 12-24".
MIDDLE_RIDGE = (".- .- .-", ".- R- .-", ".- .- .-")


def fires(state: BattleState) -> list[dict[str, Any]]:
    return [r for r in state.log if r["kind"] == "fire"]


def kinds(state: BattleState) -> list[tuple[str, str | None]]:
    return [(r["kind"], r.get("purpose") or r.get("action")) for r in state.log]


def ridge_table(faces: list[int] | None = None, **options: Any) -> BattleState:
    state = make(faces or [], **options)
    state.field = table(*MIDDLE_RIDGE)
    return state


# --- 1. no fire without sight -----------------------------------------------------------


def test_a_hidden_unit_that_cannot_see_the_activating_unit_springs_no_ambush() -> None:
    # 4.1/3.11b: the hidden d8 squad is 15" from the Japanese squad, inside its ambush
    # reach of 16", but the ridge blocks the line both ways: it may not react at all.
    # A forward observer does not fire and stays by its friends: the activation is
    # nothing but a unit in the hidden unit's reach.
    state = ridge_table(att={"forward_observer": 1})
    state.roller = Roller(3)  # type: ignore[assignment]
    iu, hidden = state.attacker.units[0], state.defender.units[0]
    at(iu, 18, 26).in_cover = True
    at(hidden, 18, 11).hidden = True
    state.initiative = state.attacker
    assert not state.sees(hidden, iu)
    assert not ai.reacts(state, hidden, iu, fired_on=False)
    engine.activate(state, iu)
    assert not [r for r in fires(state) if r["firer"] == hidden.id]
    assert ("tq_check", "spring an ambush") not in kinds(state)


def test_no_fire_is_resolved_without_line_of_sight_whatever_its_kind() -> None:
    # combat.attack is every fire's one door (action, reaction, ambush, opportunity,
    # Overwatch, the cup's placement, events): it asks for sight as the fire resolves.
    state = ridge_table([])
    shooter, target = at(state.attacker.units[0], 18, 30), at(state.defender.units[0], 18, 6)
    assert not state.sees(shooter, target)
    for kind in ("activation", "reaction fire", "ambush", "overwatch", "opportunity fire"):
        assert combat.attack(state, shooter, target, kind=kind) is None
    assert state.log == [] and used(state) == 0 and shooter.fires == 0


def test_an_unspotted_hidden_unit_cannot_be_engaged() -> None:
    # 4.2: "the Spotting Check fails and the spotting unit may not engage the hidden unit".
    state = make([])
    shooter, target = at(state.attacker.units[0], 2, 20), at(state.defender.units[0], 2, 12)
    target.hidden = True
    assert combat.attack(state, shooter, target, kind="activation") is None
    assert state.log == []


def test_an_ambush_reaches_twice_the_troop_quality_and_no_farther() -> None:
    # 4.1: "Hidden units can spring an Ambush on enemy units within twice their
    # unmodified Troop Quality" (d8: 16"). 17" away the ambush fire is not resolved.
    state = make([])
    ambusher, target = at(state.defender.units[0], 2, 1), at(state.attacker.units[0], 2, 18)
    assert combat.attack(state, ambusher, target, kind="ambush") is None
    assert state.log == []


def test_the_event_sniper_fires_from_a_place_that_sees_its_target() -> None:
    # 17.0's sniper shot is a Force on Force fire action: from a real place in sight, not
    # from the target's own spot.
    from rules.forceonforce import oldbreed

    state = make([1] * 40, combat_events=True)
    target = at(state.attacker.units[0], 18, 14)
    outcome = oldbreed.apply_event(state, state.defender, "sniper_shot")
    shots = fires(state)
    assert shots, outcome
    shot = shots[0]
    assert shot["firer_at"] != shot["target_at"] == target.position
    sx, sy = shot["firer_at"]
    assert state.sees(Spot(sx, sy), target)


# --- 2. sight re-checked as each fire resolves ------------------------------------------


def test_an_end_phase_unit_that_took_cover_out_of_sight_does_not_then_fire() -> None:
    # The Australian squad (d8) in the open at (10, 28) fires in the End Phase at the
    # Japanese squad (d10) 6" east. The Japanese win the round of fire's reaction test
    # (8 against 2) and fire first: two hits, the morale check fails, Pinned: it moves to
    # the nearest cover, (10, 22) in the lee of the ridge, out of the Japanese sight.
    # Its own declared fire is asked again and not resolved.
    faces = [2, 8, 2] + [10, 10, 1, 1, 1, 1] + [1, 1, 1, 1] + [1, 1] + [5]
    state = ridge_table(faces)
    state.initiative = state.attacker
    iu, niu = at(state.attacker.units[0], 16, 28), at(state.defender.units[0], 10, 28)
    iu.activated = iu.in_cover = True
    engine.end_phase(state)
    assert kinds(state) == [
        ("tq_check", "get in cover"),
        ("reaction", "round of fire"),
        ("fire", "round of fire"),
        ("move", "pinned: moves to cover"),
        ("tq_check", "get in cover"),
    ]
    assert niu.position == [10, 22] and not state.sees(iu, niu)
    assert used(state) == len(faces)


# --- 3. Suppression Fire (3.7) ----------------------------------------------------------


def test_suppression_fire_throws_two_dice_fewer_and_a_single_four_suppresses() -> None:
    # A Japanese squad's suppression fire at a Confident Australian squad 8" away in the
    # open: 4 figures + 1 light + 1 optimum - 1 bolt + 1 exposed - 2 suppression = 4D.
    # One 4+, no hit: Confident, 3+ dice: a morale check (4 d8), failed: Suppressed.
    faces = [4, 1, 1, 1] + [5, 1, 1, 1] + [1, 1, 1, 1] + [3]
    state = make(faces)
    shooter, target = at(state.attacker.units[0], 2, 9), state.defender.units[0]
    record = combat.attack(state, shooter, target, kind="activation", declared=combat.SUPPRESSING)
    assert record is not None and record["hits"] == 0 and len(record["attack"]) == 4
    assert ["suppression fire", -2] in record["firepower"]
    assert record["morale"]["reason"] == "suppression fire"
    assert record["effect"] == "suppressed" and target.suppressed and not target.pinned
    assert used(state) == len(faces)


def test_low_confidence_units_test_suppression_at_a_minus_one_shift() -> None:
    # "Low Confidence Units: Make Morale Check with a -1 Negative Die Shift to their
    # Morale - Failure indicates unit is Suppressed": d8 Morale tests on a d6, and the
    # suppression result comes before 5.2's "fired on" check (which would Pin).
    faces = [4, 1, 1, 1] + [5, 1, 1, 1] + [1, 1, 1, 1] + [3]
    state = make(faces, confidence={"australian": "low"})
    shooter, target = at(state.attacker.units[0], 2, 9), state.defender.units[0]
    record = combat.attack(state, shooter, target, kind="activation", declared=combat.SUPPRESSING)
    assert record is not None
    assert record["morale"]["reason"] == "suppression fire" and record["morale"]["die"] == 6
    assert record["effect"] == "suppressed" and not target.pinned


def test_a_confident_unit_fired_on_by_a_medium_weapon_is_suppressed_not_pinned() -> None:
    # A medium mortar (3D, always suppression fire) rolls a 4+ but hits nothing: the
    # Confident target's check is the suppression check, and its failure Suppresses.
    # 4 figures + 2 medium + 1 optimum + 1 exposed = 8 d8; 4 defence d10; 4 morale d10.
    faces = [4] + [1] * 7 + [4, 1, 1, 1] + [1, 1, 1, 1] + [5]
    state = make(faces, dfn={"medium_mortar": 1})
    mortar, target = state.defender.units[0], at(state.attacker.units[0], 2, 11)
    record = combat.attack(state, mortar, target, kind="activation")
    assert record is not None and record["hits"] == 0 and record["suppressing"]
    assert record["morale"]["reason"] == "suppression fire"
    assert record["effect"] == "suppressed" and target.suppressed and not target.pinned


def test_high_confidence_units_cannot_be_suppressed() -> None:
    # "High Confidence Units: Cannot be Suppressed", even by an Intimidating weapon; a
    # 3D weapon calls for no 5.2 check of troops that are not Confident.
    faces = [4] + [1] * 7 + [4, 1, 1, 1]
    state = make(faces, dfn={"medium_mortar": 1}, confidence={"japanese": "high"})
    mortar, target = state.defender.units[0], at(state.attacker.units[0], 2, 11)
    record = combat.attack(state, mortar, target, kind="activation")
    assert record is not None and record["effect"] == "none" and not target.suppressed
    assert used(state) == len(faces)


def test_casualties_morale_checks_take_precedence_over_suppression() -> None:
    # "Morale Checks resulting from casualties are also resolved normally and take
    # precedence over any Suppression results": a hit, so the check Pins.
    faces = [10, 1, 1, 1] + [1, 1, 1, 1] + [1, 1, 1]
    state = make(faces + [5])
    shooter, target = at(state.attacker.units[0], 2, 9), state.defender.units[0]
    record = combat.attack(state, shooter, target, kind="activation", declared=combat.SUPPRESSING)
    assert record is not None and record["hits"] == 1
    assert record["morale"]["reason"] == "casualties"
    assert record["effect"] == "pinned" and target.pinned and not target.suppressed


WOODS_NW = (".h .- .-", ".- .- .-", ".- .- .-")  # heavy woods x 0-12", y 0-12"


def test_the_ai_declares_suppression_fire_at_a_target_it_cannot_hurt() -> None:
    # An Australian commander (rifles only) 24" from a Low Confidence Japanese squad In
    # Cover in heavy woods: normal fire is under half an expected hit; Suppression Fire
    # may still suppress it with a single 4+.
    state = make([], dfn={"commander": 1}, confidence={"japanese": "low"})
    state.field = table(".- .- .-", ".- .- .-", ".h .- .-")
    shooter, target = at(state.defender.units[0], 6, 2), at(state.attacker.units[0], 6, 26)
    target.in_cover = shooter.in_cover = True
    assert ai.best_target(state, shooter) is target
    assert ai.worth(state, shooter, target) < ai.HARMLESS
    state.initiative = state.defender
    state.roller = Roller(5)  # type: ignore[assignment]
    target.may_react = False  # it lost a reaction test earlier this turn (3.14)
    engine.activate(state, shooter)
    own = [r for r in fires(state) if r["firer"] == shooter.id]
    assert own and own[0]["suppressing"] and ["suppression fire", -2] in own[0]["firepower"]


def test_the_ai_declares_suppression_fire_to_cover_a_friends_move() -> None:
    # The squad's shot at the Confident squad In Cover in heavy woods, 10" away, is not
    # heavy (under 1.5 expected hits) and keeps 3 dice under suppression; the target sees
    # a friend still to activate that means to advance: suppression covers its move.
    state = make([], att={"rifle_squad": 2})
    state.field = table(*WOODS_NW)
    shooter, friend = state.attacker.units
    at(shooter, 6, 20).in_cover = True
    at(friend, 20, 30)
    target = at(state.defender.units[0], 6, 10)
    target.in_cover = True
    state.initiative = state.attacker
    assert ai.HARMLESS <= ai.worth(state, shooter, target) < ai.HEAVY_FIRE
    assert ai.wants_to_advance(state, friend) and state.sees(target, friend)
    assert ai.suppression_fire(state, shooter, target)
    friend.activated = True  # nobody left to cover: fire for effect
    assert not ai.suppression_fire(state, shooter, target)


def test_medium_and_heavy_weapons_and_high_confidence_targets_need_no_declaration() -> None:
    state = make([], att={"hmg": 1}, confidence={"australian": "high"})
    hmg, target = at(state.attacker.units[0], 2, 30), state.defender.units[0]
    assert not ai.suppression_fire(state, hmg, target)


# --- 4. regrouping ----------------------------------------------------------------------


def test_a_regrouping_unit_treats_every_failed_morale_result_as_another_pull_back() -> None:
    # 5.2: "A unit that is regrouping following a Pull Back will treat all failed Morale
    # results as another Pull Back." A Regular is never Shaken.
    state = make([])
    unit, cause = state.defender.units[0], at(state.attacker.units[0], 2, 12)
    at(unit, 10, 6)
    unit.regrouping = True
    assert combat.morale_failure(state, unit, cause, "pinned") == "pull back"
    assert unit.pulled_back and unit.morale_shift == 0
    assert combat.morale_failure(state, unit, cause, "pinned") == "pull back"
    assert unit.morale_shift == 0


# --- 5. optimum range -------------------------------------------------------------------


def test_only_support_weapons_and_optics_double_the_optimum_range() -> None:
    # 3.2: "Support Weapons and units with enhanced optics have twice the usual Optimum
    # Range". A d10 rifle squad 15" away is beyond its 10"; an HMG and a sniper are not.
    state = make([], att={"rifle_squad": 1, "hmg": 1, "sniper": 1})
    squad, hmg, sniper = (
        next(u for u in state.attacker.units if u.stand_type == kind)
        for kind in ("rifle_squad", "hmg", "sniper")
    )
    target = state.defender.units[0]
    for unit in (squad, hmg, sniper):
        at(unit, target.x, target.y + 15)
    assert combat.band(squad, target, night=False) == ("beyond", False)
    assert combat.band(hmg, target, night=False) == ("optimum", False)
    assert combat.band(sniper, target, night=False) == ("optimum", False)
    shot = combat.shot_for(state, squad, target)
    assert ["optimum range", 1] not in f.firepower(shot).to_json()


# --- 6. Overwatch in the End Phase ------------------------------------------------------


def test_overwatch_units_fire_at_an_end_phase_unit_before_it_acts() -> None:
    # Step 8 and 3.16 note 2: "Overwatch units may react to the movement or fire of a NIU
    # in the end phase". The Japanese squad on Overwatch wins the test (6+1 against 3)
    # and fires first; the Australian squad, Pinned by it, does not go on to fire.
    faces = [2] + [6, 3] + [10, 10, 1, 1, 1] + [1, 1, 1, 1] + [1, 1] + [5]
    state = make(faces, att={"rifle_squad": 2})
    state.initiative = state.attacker
    target, watcher = state.attacker.units
    at(target, 2, 14).activated = True
    at(watcher, 12, 14).overwatch = True
    watcher.activated = True
    target.in_cover = watcher.in_cover = True
    niu = at(state.defender.units[0], 2, 6)
    engine.end_phase(state)
    assert kinds(state)[:3] == [
        ("tq_check", "get in cover"),
        ("reaction", "overwatch"),
        ("fire", "overwatch"),
    ]
    assert fires(state)[0]["effect"] == "pinned"
    assert not [r for r in fires(state) if r["firer"] == niu.id]
    assert used(state) == len(faces)


# --- 7. the smaller points --------------------------------------------------------------


def test_an_end_phase_reaction_tie_goes_to_the_initiative_unit() -> None:
    # 3.12: "In the case of a tie of any sort ... initiative unit acts first". Both roll
    # 5: the Japanese (initiative) squad fires first in the End Phase round of fire.
    faces = [5, 5] + [1] * 40
    state = make(faces)
    state.initiative = state.attacker
    iu, niu = at(state.attacker.units[0], 2, 14), at(state.defender.units[0], 2, 6)
    iu.activated = iu.in_cover = niu.in_cover = True
    engine.end_phase(state)
    shots = fires(state)
    assert kinds(state)[0] == ("reaction", "round of fire")
    assert shots[0]["firer"] == iu.id and shots[1]["firer"] == niu.id


def test_a_regrouping_unit_does_not_start_fire_in_its_own_activation() -> None:
    # 5.2: "Regrouping units can return fire in a round of fire, but may not initiate a
    # round of fire or go on Overwatch. Nor may they move."
    state = make([1] * 30)
    state.initiative = state.attacker
    unit, enemy = at(state.attacker.units[0], 2, 14), at(state.defender.units[0], 2, 6)
    unit.regrouping = unit.in_cover = True
    assert ai.best_target(state, unit) is enemy
    engine.activate(state, unit)
    assert not fires(state) and unit.position == [2, 14]


def test_a_pull_back_goes_to_the_nearest_cover_farther_from_the_enemy() -> None:
    # 5.2: "must move into the nearest covered position that does not require movement
    # towards enemy units". Heavy woods cover x 0-12", y 12-24"; the unit at (4, 26) is 2"
    # from being out of the open: it stops at (4, 24), not deeper in the woods.
    state = make([])
    state.field = table(".- .- .-", ".h R- .-", ".- .- .-")
    unit, cause = at(state.defender.units[0], 4, 26), at(state.attacker.units[0], 18, 34)
    unit.pinned = True
    assert state.exposed(4, 26) and not state.exposed(4, 24)
    assert combat.morale_failure(state, unit, cause, "pinned") == "pull back"
    assert unit.position == [4, 24]


def test_a_react_only_unit_fires_only_at_a_unit_firing_at_it() -> None:
    # 5.3: a unit with a serious wound "may only react to fire this turn".
    state = make([])
    actor, reactor = at(state.attacker.units[0], 2, 12), state.defender.units[0]
    reactor.react_only = True
    assert ai.worth(state, reactor, actor) >= 1.0
    assert not ai.reacts(state, reactor, actor, fired_on=False)
    assert ai.reacts(state, reactor, actor, fired_on=True)


def test_no_rapid_reaction_move_after_firing() -> None:
    # 2.2: "Units may make a Rapid move and then fire, but may not fire and then make a
    # Rapid move." At (10, 12) only a Rapid move reaches the lee of the ridge.
    state, iu, niu = ridge_state([])
    at(niu, 10, 12)
    assert ai.reaction_move(state, niu, iu) == ((22, 12), "rapid")
    niu.fires = 1
    move = ai.reaction_move(state, niu, iu)
    assert move is None or move[1] == "tactical"


def test_a_stealthy_spotter_gets_plus_one() -> None:
    # 4.2: "+1 if Detecting Unit is a Stealthy Unit" (the sniper: and +1 for its optics).
    state = make([], att={"sniper": 1})
    state.roller = Roller(2)  # type: ignore[assignment]
    state.initiative = state.attacker
    sniper, hidden = at(state.attacker.units[0], 2, 12), state.defender.units[0]
    sniper.in_cover = True
    hidden.hidden = True
    engine.activate(state, sniper)
    spots = [r for r in state.log if r["kind"] == "spot"]
    assert spots and spots[0]["modifier"] == 2


def test_a_fire_with_no_dice_is_not_a_fire() -> None:
    # 3.4: "When a unit's Firepower is reduced to zero, it may no longer fire during that
    # turn": no fire record, and it does not count as a fire (diminishing firepower).
    state = make([])
    shooter, target = at(state.attacker.units[0], 2, 30), state.defender.units[0]
    shooter.penalty_moves = 10
    assert combat.attack(state, shooter, target, kind="activation") is None
    assert state.log == [] and shooter.fires == 0


def test_fire_over_intervening_heavy_woods_claims_solid_cover() -> None:
    # 3.9 Intervening Cover: "If enemy fire passes over an intervening terrain feature to
    # reach a unit, it may claim the Solid Cover bonus". Heavy woods between the two.
    state = make([1] * 20)
    state.field = table(".- .- .-", ".h .- .-", ".- .- .-")
    shooter, target = at(state.attacker.units[0], 6, 30), at(state.defender.units[0], 6, 8)
    assert state.sees(shooter, target)
    record = combat.attack(state, shooter, target, kind="activation")
    assert record is not None and ["solid", 1] in record["defence_dice"]
    around = at(state.attacker.units[0], 30, 8)
    assert not state.intervening_cover(around, target)


def test_the_ai_splits_fire_between_a_nearly_finished_target_and_another() -> None:
    # 3.6: "To split fire, the owning player must announce what targets a unit is going
    # to engage and how many Firepower Dice will be devoted to each target. Support Weapon
    # dice must be allocated to one target"; a D10 unit may engage three. The squad's
    # main target has one figure left: two figures' dice and the LMG stay on it, the two
    # other figures' dice go to the second squad; the two parts are one fire (3.4).
    state = make([], dfn={"rifle_squad": 4})  # four: one lost does not end the battle
    state.initiative = state.attacker
    shooter = at(state.attacker.units[0], 6, 14)
    weak, other = at(state.defender.units[0], 2, 6), at(state.defender.units[1], 10, 6)
    at(state.defender.units[2], 30, 1).may_react = False
    at(state.defender.units[3], 34, 1).may_react = False
    weak.healthy = 1
    shooter.in_cover = True
    for unit in (weak, other):
        unit.may_react = False  # both lost a reaction test earlier (3.14): no reactions
    assert ai.best_target(state, shooter) is weak
    state.roller = Roller(11)  # type: ignore[assignment]
    engine.activate(state, shooter)
    shots = [r for r in fires(state) if r["firer"] == shooter.id]
    assert [(r["target"], r["split_fire"]) for r in shots] == [
        (weak.id, {"figures": 2, "support": True}),
        (other.id, {"figures": 2, "support": False}),
    ]
    assert ["figures", 2] in shots[0]["firepower"] and ["support weapon", 1] in shots[0][
        "firepower"
    ]
    assert all(m[0] != "support weapon" for m in shots[1]["firepower"])
    assert all(m[0] != "diminishing firepower" for r in shots for m in r["firepower"])
    assert shooter.fires == 1


def test_a_d6_unit_never_splits_its_fire() -> None:
    # 3.6: "D6 Troop Quality: May only engage ONE target".
    state = make([], dfn={"rifle_squad": 2})
    state.attacker.tq = 6
    shooter = at(state.attacker.units[0], 6, 14)
    weak = at(state.defender.units[0], 2, 6)
    at(state.defender.units[1], 10, 6)
    weak.healthy = 1
    assert ai.split_fire(state, shooter, weak) is None
