"""The Old Breed options under Force on Force: Combat Events (17.0), the Fog of War cup
(16.2) and Area of Control (16.1) on Force on Force units, with scripted or seeded dice."""

from __future__ import annotations

import io
import json
from math import hypot
from pathlib import Path
from typing import Any

import pytest

from rules import cli
from rules.dice import Roller
from rules.forceonforce import engine, oldbreed
from rules.forceonforce.state import BattleState, Unit
from rules.narrate import describe_record
from rules.oldbreed import EventOutcome
from rules.rulesets import resolve_battle
from rules.spec import parse_battle
from tests.rules.conftest import ScriptedRoller, open_table, table
from tests.rules.test_fof_battle import BASE, battle

WOODED_MIDDLE_ROW = (".- .- .-", ".l .l .l", ".- .- .-")
EVENTS_AND_CUP = {"combat_events": True, "fog_of_war_cup": True}


def make(
    dice: Any = (),
    *,
    att: dict[str, int] | None = None,
    dfn: dict[str, int] | None = None,
    reinforcements: dict[str, int] | None = None,
    field: Any = None,
    **options: Any,
) -> BattleState:
    """Japanese veterans attack Australian trained troops; the units parked apart."""
    doc = battle(
        attacker__stands=att or {"rifle_squad": 2}, defender__stands=dfn or {"rifle_squad": 2}
    )
    doc["options"].update({**EVENTS_AND_CUP, **options})
    if reinforcements:
        doc["defender"]["reinforcements"] = reinforcements
    spec = parse_battle(doc)
    roller = dice if isinstance(dice, Roller) else ScriptedRoller(dice)
    state = BattleState(
        spec, roller, field or open_table(), {**engine.DEFAULT_OPTIONS, **spec.options}
    )  # type: ignore[arg-type]
    for i, unit in enumerate(state.attacker.units):
        unit.x, unit.y = 2 + 4 * i, 34
    for i, unit in enumerate(state.defender.units):
        unit.x, unit.y = 2 + 4 * i, 1
    state.turn, state.phase = 1, "test"
    return state


def unit(state: BattleState, unit_id: str) -> Unit:
    return next(u for f in state.forces for u in [*f.units, *f.cup] if u.id == unit_id)


def at(u: Unit, x: int, y: int) -> Unit:
    u.x, u.y = x, y
    return u


def fire_record(*attack: int) -> dict[str, Any]:
    return {"attack": list(attack)}


def kinds(state: BattleState) -> list[str]:
    return [r["kind"] for r in state.log]


# --- Combat Events: the trigger and who rolls -------------------------------------------


def test_a_squads_first_firepower_die_of_1_rolls_the_d10_and_the_firers_side_rolls() -> None:
    state = make([1, 2])  # d10 1: the firer's side; d6 2: pin_own_squad
    squad = unit(state, "a.rifle_squad.1")
    oldbreed.after_fire(state, squad, fire_record(1, 6, 4))
    check, event = state.log
    assert (check["kind"], check["dice"], check["stand"]) == ("combat_event_check", [1], squad.id)
    assert (event["kind"], event["dice"], event["effect"], event["side"]) == (
        "combat_event",
        [2],
        "pin_own_squad",
        "japanese",
    )
    assert sum(u.pinned for u in state.attacker.units) == 1


def test_a_2_makes_the_other_side_roll_and_a_3_the_japanese_table() -> None:
    state = make([2, 5, 3, 6])
    squad = unit(state, "a.rifle_squad.1")
    oldbreed.after_fire(state, squad, fire_record(1))
    assert state.log[-1]["side"] == "australian"
    assert state.log[-1]["table"] == "Combat Event Table"
    oldbreed.after_fire(state, squad, fire_record(1))
    assert state.log[-1]["table"] == "Japanese Event Table"


def test_no_event_on_4_to_10_nor_without_a_1_first_nor_for_a_sniper_or_with_the_option_off() -> (
    None
):
    state = make([4])
    squad = unit(state, "a.rifle_squad.1")
    oldbreed.after_fire(state, squad, fire_record(1))
    assert state.log[-1]["outcome"] == "no event" and len(state.log) == 1
    oldbreed.after_fire(state, squad, fire_record(2, 1))  # the scripted roller would fail
    sniper = Unit("a.sniper.9", state.attacker, "sniper", "sniper")
    oldbreed.after_fire(state, sniper, fire_record(1))
    off = make([], combat_events=False)
    oldbreed.after_fire(off, unit(off, "a.rifle_squad.1"), fire_record(1))
    assert off.log == []


def test_a_gms_table_replaces_the_shipped_one() -> None:
    table_ = {str(f): {"effect": "nothing", "text": "quiet"} for f in range(1, 7)}
    table_["4"] = {"effect": "suppress_own_weapon", "text": "Mud in the breech."}
    state = make([1, 4], att={"rifle_squad": 1, "hmg": 1}, combat_event_table=table_)
    oldbreed.after_fire(state, unit(state, "a.rifle_squad.1"), fire_record(1))
    assert state.log[-1]["text"] == "Mud in the breech."
    assert unit(state, "a.hmg.1").suppressed


# --- Combat Events: each result on a Force on Force unit --------------------------------


def test_pin_own_squad_pins_a_squad_and_suppress_own_weapon_suppresses_a_weapon() -> None:
    state = make(att={"rifle_squad": 1, "hmg": 1})
    outcome = oldbreed.apply_event(state, state.attacker, "pin_own_squad")
    assert outcome.words == "a.rifle_squad.1 is pinned" and unit(state, "a.rifle_squad.1").pinned
    assert outcome.fields() == {"stand": "a.rifle_squad.1", "becomes": "pinned"}
    outcome = oldbreed.apply_event(state, state.attacker, "suppress_own_weapon")
    assert outcome.words == "a.hmg.1 is suppressed" and unit(state, "a.hmg.1").suppressed
    assert unit(state, "a.hmg.1").current_tq == 8  # 3.7: one die shift down, d10 to d8


def test_rally_own_frees_the_worst_shaken_unit() -> None:
    state = make()
    first, second = state.defender.units
    first.pinned = True
    second.suppressed = True
    assert oldbreed.apply_event(state, state.defender, "rally_own") == EventOutcome(
        "d.rifle_squad.2 rallies from suppressed", "d.rifle_squad.2", "ok"
    )
    assert not second.suppressed and first.pinned
    state.defender.units[0].pinned = False
    assert oldbreed.apply_event(state, state.defender, "rally_own") == "no unit to rally"


def test_a_squad_brought_back_rejoins_behind_its_commander_and_still_counts_as_lost() -> None:
    state = make(dfn={"commander": 1, "rifle_squad": 3})
    commander = at(unit(state, "d.commander.1"), 18, 20)
    at(unit(state, "d.rifle_squad.2"), 10, 24)
    at(unit(state, "d.rifle_squad.3"), 26, 24)
    lost = unit(state, "d.rifle_squad.1")
    lost.lost, lost.healthy, lost.pending = True, 0, 2
    assert state.defender.lost == 1
    outcome = oldbreed.apply_event(state, state.defender, "return_lost_squad")
    assert outcome.words.startswith("d.rifle_squad.1 rejoins at")
    assert outcome.fields() == {
        "stand": "d.rifle_squad.1",
        "becomes": "ok",
        "to": [lost.x, lost.y],
        "hidden": False,
    }
    assert lost.fighting and lost.healthy == 4 and lost.pending == 0
    assert lost.x == commander.x and lost.y < commander.y  # behind, toward its own edge
    aoc = oldbreed.area_of_control(state, state.defender)
    assert aoc(lost.x, lost.y) or lost.y == 0
    assert state.defender.lost == 1  # still counts as lost
    assert state.defender.losses_by_type()["rifle_squad"] == 1
    again = oldbreed.apply_event(state, state.defender, "return_lost_squad")
    assert again == "no lost squad to bring back"


def test_a_sniper_appears_hidden_in_woods_in_its_area_of_control_off_the_roster() -> None:
    state = make(field=table(*WOODED_MIDDLE_ROW))
    at(unit(state, "d.rifle_squad.1"), 8, 26)
    at(unit(state, "d.rifle_squad.2"), 28, 26)
    at(unit(state, "a.rifle_squad.1"), 14, 30)
    at(unit(state, "a.rifle_squad.2"), 22, 34)
    # The table is data: whichever side rolls the effect gets the sniper.
    outcome = oldbreed.apply_event(state, state.defender, "sniper_appears")
    sniper = state.defender.units[-1]
    assert outcome.words == f"d.sniper.1 appears, hidden, at {sniper.x},{sniper.y}"
    assert outcome.to == (sniper.x, sniper.y) and outcome.hidden
    assert sniper.hidden and sniper.extra and sniper.stand_type == "sniper"
    assert state.field.square_at(sniper.x, sniper.y).wooded
    assert oldbreed.area_of_control(state, state.defender)(sniper.x, sniper.y)
    near = min(hypot(e.x - sniper.x, e.y - sniper.y) for e in state.attacker.units)
    assert 3 <= near <= 12
    present = state.defender.present
    sniper.lost = True
    assert state.defender.lost == 0 and state.defender.present == present  # its loss no loss


def test_no_sniper_appears_without_woods() -> None:
    state = make()
    assert oldbreed.apply_event(state, state.attacker, "sniper_appears").startswith("no woods")
    assert len(state.attacker.units) == 2


def test_a_sniper_shot_is_a_force_on_force_fire_action_that_can_kill() -> None:
    state = make(Roller(3), dfn={"rifle_squad": 1, "hmg": 1})
    hmg = unit(state, "d.hmg.1")
    outcome = oldbreed.apply_event(state, state.attacker, "sniper_shot")
    shot = next(r for r in reversed(state.log) if r["kind"] == "fire")
    if shot["effect"] == "pinned":  # in the open, with no cover in reach: 5.2's TQ check
        assert (state.log[-1]["kind"], state.log[-1]["purpose"]) == ("tq_check", "get in cover")
    assert outcome.startswith("a sniper fires at d.hmg.1")  # the most worth: a heavy weapon
    assert (shot["kind"], shot["action"], shot["target"], shot["firer"]) == (
        "fire",
        "combat event",
        "d.hmg.1",
        "a.sniper.event",
    )
    assert shot["dice"] and hmg.healthy == 4 - shot["hits"]
    assert all(u.id != "a.sniper.event" for u in state.attacker.units)  # it vanishes


def test_the_side_that_rolls_must_choose_and_chooses_the_least_harm() -> None:
    state = make(att={"rifle_squad": 3})
    first, second, third = state.attacker.units
    second.healthy = 2  # the least worth
    third.pinned = True  # already pinned: the event changes nothing there
    assert oldbreed.apply_event(state, state.attacker, "pin_own_squad") == (
        "a.rifle_squad.3 is already pinned"
    )
    third.pinned = False
    assert oldbreed.apply_event(state, state.attacker, "pin_own_squad") == EventOutcome(
        "a.rifle_squad.2 is pinned", "a.rifle_squad.2", "pinned"
    )
    # With one squad left, it must be the one, to its own harm.
    second.lost = third.lost = True
    assert oldbreed.apply_event(state, state.attacker, "pin_own_squad") == EventOutcome(
        "a.rifle_squad.1 is pinned", "a.rifle_squad.1", "pinned"
    )
    assert oldbreed.apply_event(state, state.attacker, "suppress_own_weapon") == (
        "no unit the event can strike"
    )


# --- the Fog of War cup -----------------------------------------------------------------


def test_with_the_cup_reinforcements_wait_in_it_and_count_as_brought() -> None:
    state = make(reinforcements={"rifle_squad": 2, "hmg": 1})
    assert [u.id for u in state.defender.cup] == ["d.rifle_squad.3", "d.rifle_squad.4", "d.hmg.1"]
    assert len(state.defender.units) == 2 and state.defender.present == 5
    without = make(reinforcements={"rifle_squad": 2}, fog_of_war_cup=False)
    assert len(without.defender.units) == 4 and without.defender.cup == []


def test_the_draw_is_a_die_over_the_units_left_and_one_a_turn() -> None:
    state = make([2], reinforcements={"rifle_squad": 2, "hmg": 1})
    oldbreed.own_phase(state, state.defender)
    draw, placed = state.log
    assert (draw["kind"], draw["dice"], draw["cup_size"], draw["stand"]) == (
        "cup_draw",
        [2],
        3,
        "d.rifle_squad.4",
    )
    assert placed["kind"] == "cup_place"
    oldbreed.own_phase(state, state.defender)  # a second die would fail the scripted roller
    assert len(state.defender.cup) == 2


def test_the_draw_is_random_from_the_seed() -> None:
    def first_drawn(seed: int) -> str:
        state = make(Roller(seed), reinforcements={"rifle_squad": 2, "hmg": 1, "commander": 1})
        oldbreed.own_phase(state, state.defender)
        return state.log[0]["stand"]

    drawn = [first_drawn(seed) for seed in range(40)]
    assert drawn == [first_drawn(seed) for seed in range(40)]
    assert len(set(drawn)) == 4  # every unit in the cup can come out


def test_in_its_own_phase_a_drawn_unit_goes_into_cover_near_friends_far_from_enemies() -> None:
    state = make([1], reinforcements={"rifle_squad": 2}, field=table(*WOODED_MIDDLE_ROW))
    at(unit(state, "d.rifle_squad.1"), 10, 26)
    at(unit(state, "d.rifle_squad.2"), 20, 26)
    at(unit(state, "a.rifle_squad.1"), 30, 34)
    at(unit(state, "a.rifle_squad.2"), 34, 34)
    aoc = oldbreed.area_of_control(state, state.defender)
    oldbreed.own_phase(state, state.defender)
    placed = unit(state, "d.rifle_squad.3")
    assert placed in state.defender.units and state.field.square_at(placed.x, placed.y).wooded
    assert aoc(placed.x, placed.y)
    friends = state.defender.units[:2]
    assert any(placed.distance(f) <= 9 for f in friends)
    assert all(placed.distance(f) >= 3 for f in friends)
    assert min(placed.distance(e) for e in state.attacker.units) >= 9
    assert placed.activated and placed.reacted  # the placement was its action


def test_with_no_cover_in_reach_it_enters_at_its_own_edge() -> None:
    state = make([1], reinforcements={"rifle_squad": 2})
    oldbreed.own_phase(state, state.defender)
    placed = unit(state, "d.rifle_squad.3")
    assert placed.y == 0 and state.log[-1]["case"] == "enters at its own table edge"


def ambush_state(roller: Any) -> BattleState:
    state = make(roller, reinforcements={"rifle_squad": 2}, field=table(*WOODED_MIDDLE_ROW))
    at(unit(state, "d.rifle_squad.1"), 8, 22)
    at(unit(state, "d.rifle_squad.2"), 28, 22)
    at(unit(state, "a.rifle_squad.1"), 18, 30)
    at(unit(state, "a.rifle_squad.2"), 34, 34)
    return state


def test_an_enemy_move_can_bring_a_concealed_unit_into_ambush() -> None:
    state = ambush_state([1])
    mover = at(unit(state, "a.rifle_squad.1"), 18, 24)
    placed = oldbreed.enemy_moved(state, mover, (18, 30))
    assert placed is not None and placed.id == "d.rifle_squad.3"
    assert 3 <= placed.distance(mover) <= 6
    assert placed.y < mover.y  # closer to its own edge than the mover
    assert oldbreed.area_of_control(state, state.defender)(placed.x, placed.y)
    assert state.field.cover_at(placed.x, placed.y) and state.sees(placed, mover)
    assert placed.hidden and placed.reacted
    assert state.log[-1]["case"] == "in ambush, a.rifle_squad.1's move paused"


def test_no_ambush_next_to_another_enemy_nor_where_the_mover_cannot_be_seen() -> None:
    state = ambush_state([1])
    at(unit(state, "a.rifle_squad.2"), 18, 21)
    placed = oldbreed.enemy_moved(state, at(unit(state, "a.rifle_squad.1"), 18, 24), (18, 30))
    assert placed is not None and hypot(placed.x - 18, placed.y - 21) > 3
    deep = make([], reinforcements={"rifle_squad": 2},
                field=table(".h .h .h", ".h .h .h", ".- .- .-"))  # fmt: skip
    at(unit(deep, "d.rifle_squad.1"), 8, 21)
    at(unit(deep, "d.rifle_squad.2"), 28, 21)
    at(unit(deep, "a.rifle_squad.2"), 34, 34)
    mover = at(unit(deep, "a.rifle_squad.1"), 18, 26)
    assert oldbreed.enemy_moved(deep, mover, (18, 30)) is None
    assert len(deep.defender.cup) == 2  # the draw is kept for later


def test_the_paused_move_gives_the_placed_unit_opportunity_fire_at_the_mover(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = ambush_state(Roller(5))
    state.initiative = state.attacker
    mover = unit(state, "a.rifle_squad.1")
    monkeypatch.setattr(engine.ai, "wants_to_advance", lambda state, u: u is mover)
    monkeypatch.setattr(engine.ai, "plan_move", lambda state, u: ((18, 24), "tactical"))
    engine.activate(state, mover)
    at_move = kinds(state).index("move")
    assert kinds(state)[at_move : at_move + 4] == ["move", "cup_draw", "cup_place", "fire"]
    placed, shot = state.log[at_move + 2]["stand"], state.log[at_move + 3]
    assert (shot["firer"], shot["target"], shot["action"]) == (
        placed,
        "a.rifle_squad.1",
        "opportunity fire",
    )
    assert shot["dice"]
    assert not unit(state, placed).hidden  # firing gave it away


# --- whole battles, the campaign settings and the command line ---------------------------


def old_breed_battle(seed: int) -> dict[str, Any]:
    doc = json.loads(json.dumps(BASE))
    doc["options"].update(EVENTS_AND_CUP)
    doc["attacker"]["reinforcements"] = {"rifle_squad": 2, "hmg": 1}
    doc["defender"]["reinforcements"] = {"rifle_squad": 2, "hmg": 1}
    return resolve_battle(parse_battle(doc), seed)


@pytest.mark.parametrize("seed", [10, 11, 12])
def test_whole_battles_with_the_old_breed_options_replay_from_their_seed(seed: int) -> None:
    result = old_breed_battle(seed)
    assert old_breed_battle(seed) == result
    assert result["options"]["combat_events"] and result["options"]["fog_of_war_cup"]
    draws = [r for r in result["log"] if r["kind"] == "cup_draw"]
    per_side_turn = [(r["side"], r["turn"]) for r in draws]
    assert len(per_side_turn) == len(set(per_side_turn))  # one a turn a side at most
    in_cup = sum(1 for s in result["stands"] if s["in_cup"])
    assert in_cup == 6 - len(draws)
    for r in result["log"]:
        if r["kind"] in ("combat_event_check", "combat_event"):
            assert len(r["dice"]) == 1
        if r["kind"] == "cup_draw":
            assert len(r["dice"]) == (1 if r["cup_size"] > 1 else 0)


def test_a_seed_with_an_ambush_fires_at_the_mover() -> None:
    # The first seed from 10 whose battle has a cup ambush (the seeds shift as rules land).
    log, i = next(
        (log, i)
        for log in (old_breed_battle(seed)["log"] for seed in range(10, 60))
        for i, r in enumerate(log)
        if r.get("when") == "enemy move"
    )
    assert log[i - 1]["kind"] == "move" and log[i + 1]["kind"] == "cup_place"
    assert log[i + 2]["action"] == "opportunity fire"
    assert log[i + 2]["target"] == log[i - 1]["stand"]


def test_the_cli_simulates_and_gives_odds_with_the_old_breed_options(tmp_path: Path) -> None:
    doc = json.loads(json.dumps(BASE))
    doc["options"].update(EVENTS_AND_CUP)
    doc["defender"]["reinforcements"] = {"rifle_squad": 2}
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(doc))
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["simulate", str(path), "--seed", "3"], stdout=out, stderr=err) == 0
    assert "drawn from the cup" in out.getvalue()
    out = io.StringIO()
    assert cli.main(["odds", str(path), "--runs", "5", "--json"], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["runs"] == 5
    doc["options"]["impact_fuse"] = True
    path.write_text(json.dumps(doc))
    assert cli.main(["simulate", str(path), "--seed", "3"], stdout=out, stderr=err) == 2
    assert "impact_fuse is a Korona fire rule" in err.getvalue()


def test_every_record_of_an_old_breed_battle_has_words() -> None:
    for seed in (10, 11):
        for entry in old_breed_battle(seed)["log"]:
            text = describe_record(entry)
            assert not text.endswith(": " + entry["kind"]), f"no words for {entry['kind']}"
    words = describe_record(
        {"turn": 2, "phase": "attacker activation", "kind": "cup_draw", "dice": [2],
         "stand": "d.rifle_squad.4", "cup_size": 3, "when": "enemy move"}
    )  # fmt: skip
    assert words == (
        "T2 attacker activation: defender rifle squad 4 is drawn from the cup of 3 "
        "(enemy move): d3 2"
    )
    words = describe_record(
        {"turn": 2, "phase": "end phase", "kind": "cup_place", "dice": [],
         "stand": "d.hmg.1", "to": [4, 0], "case": "enters at its own table edge"}
    )  # fmt: skip
    assert words == "T2 end phase: defender HMG 1 is placed at (4, 0): enters at its own table edge"
