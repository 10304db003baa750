"""Reinforcements and the Fog of War cup (Old Breed South Pacific 16.2)."""

from __future__ import annotations

from math import hypot
from typing import Any

import pytest

from rules.korona import cup
from rules.korona.control import in_area_of_control
from rules.korona.engine import DEFAULT_OPTIONS, resolve
from rules.korona.movement import move
from rules.korona.state import SUPPRESSED, BattleState
from rules.spec import BattleSpecError, parse_battle
from tests.rules.conftest import ScriptedRoller, battle_doc, open_table, place, stand, table

WOODED_MIDDLE_ROW = (".- .- .-", ".l .l .l", ".- .- .-")


def cup_state(
    *, dice: list[int], on: bool = True, field: Any = None, reinforcements: Any = None
) -> BattleState:
    doc = battle_doc(options={"fog_of_war_cup": on})
    doc["defender"]["reinforcements"] = reinforcements or {"rifle_squad": 2}
    spec = parse_battle(doc)
    state = BattleState(
        spec,
        ScriptedRoller(dice),  # type: ignore[arg-type]
        field or open_table(),
        {**DEFAULT_OPTIONS, **spec.options},
    )
    state.turn, state.phase = 1, "test"
    return state


def test_reinforcements_are_checked_like_stands() -> None:
    doc = battle_doc()
    doc["attacker"]["reinforcements"] = {"tiger": 1, "rifle_squad": -1}
    with pytest.raises(BattleSpecError) as refused:
        parse_battle(doc)
    assert any(p.startswith("attacker.reinforcements.tiger") for p in refused.value.problems)
    assert "attacker.reinforcements.rifle_squad: must be from 0 to 1000, not -1" in (
        refused.value.problems
    )


def test_reinforcements_wait_in_the_cup_and_count_as_brought() -> None:
    state = cup_state(dice=[])
    defender = state.defender
    assert [s.id for s in defender.cup] == ["d.rifle_squad.3", "d.rifle_squad.4"]
    assert len(defender.stands) == 2
    assert defender.present == 4
    assert defender.present_by_type() == {"rifle_squad": 4}


def test_without_the_cup_a_drawn_reinforcement_enters_at_its_own_edge() -> None:
    state = cup_state(dice=[2], on=False)
    cup.own_move(state, state.defender)
    drawn = stand(state, "d.rifle_squad.4")  # the die showed 2: the second in the cup
    assert drawn.y == 0 and drawn.moved
    assert [r["kind"] for r in state.log] == ["cup_draw", "cup_place"]
    assert state.log[0]["dice"] == [2]


def test_the_last_unit_in_the_cup_is_drawn_without_a_die() -> None:
    state = cup_state(dice=[], on=False, reinforcements={"hmg": 1})
    cup.own_move(state, state.defender)
    assert state.log[0]["dice"] == []
    assert stand(state, "d.hmg.1").y == 0


def test_only_one_reinforcement_is_drawn_a_turn() -> None:
    state = cup_state(dice=[1], on=False)
    cup.own_move(state, state.defender)
    cup.own_move(state, state.defender)  # the scripted roller would fail on a second die
    assert len(state.defender.cup) == 1


def test_in_its_own_move_a_drawn_unit_goes_into_cover_near_friends_far_from_enemies() -> None:
    state = cup_state(dice=[1], field=table(*WOODED_MIDDLE_ROW))
    place(stand(state, "d.rifle_squad.1"), 10, 26)
    place(stand(state, "d.rifle_squad.2"), 20, 26)
    place(stand(state, "a.rifle_squad.1"), 30, 34)
    place(stand(state, "a.rifle_squad.2"), 34, 34)
    cup.own_move(state, state.defender)
    placed = stand(state, "d.rifle_squad.3")
    assert state.field.square_at(placed.x, placed.y).wooded
    assert in_area_of_control(state, state.defender, placed.x, placed.y)
    friends = [stand(state, "d.rifle_squad.1"), stand(state, "d.rifle_squad.2")]
    assert any(f.distance(placed) <= 9 for f in friends)
    assert all(f.distance(placed) >= 3 for f in friends)
    assert min(e.distance(placed) for e in state.attacker.stands) >= 9


def ambush_state(dice: list[int]) -> BattleState:
    state = cup_state(dice=dice, field=table(*WOODED_MIDDLE_ROW))
    place(stand(state, "d.rifle_squad.1"), 8, 22)
    place(stand(state, "d.rifle_squad.2"), 28, 22)
    # 4" from the light wood's edge at y = 24: a move there touches rough going (4").
    place(stand(state, "a.rifle_squad.1"), 18, 28)
    place(stand(state, "a.rifle_squad.2"), 34, 34)
    return state


def test_an_enemy_move_can_be_paused_for_an_ambush_with_opportunity_fire() -> None:
    state = ambush_state([1, 5, 6, 2])  # draw the first; its three dice: two hits
    mover = stand(state, "a.rifle_squad.1")
    move(state, mover, 18, 24, purpose="advance")
    placed = stand(state, "d.rifle_squad.3")
    assert 3 <= hypot(placed.x - mover.x, placed.y - mover.y) <= 6
    assert placed.y < mover.y  # closer to its own edge than the mover
    assert in_area_of_control(state, state.defender, placed.x, placed.y)
    assert state.field.cover_at(placed.x, placed.y)
    kinds = [r["kind"] for r in state.log]
    assert kinds == ["move", "cup_draw", "cup_place", "fire"]
    shot = state.log[-1]
    assert (shot["firer"], shot["target"], shot["opportunity_fire"]) == (
        "d.rifle_squad.3",
        "a.rifle_squad.1",
        True,
    )
    assert mover.status == SUPPRESSED
    assert placed.fired  # used: it will not fire again this turn


def test_no_ambush_without_the_cup_option() -> None:
    state = cup_state(dice=[], on=False, field=table(*WOODED_MIDDLE_ROW))
    place(stand(state, "d.rifle_squad.1"), 8, 22)
    place(stand(state, "d.rifle_squad.2"), 28, 22)
    move(state, place(stand(state, "a.rifle_squad.1"), 18, 30), 18, 24, purpose="advance")
    assert len(state.defender.cup) == 2


def test_no_ambush_next_to_another_enemy_stand() -> None:
    state = ambush_state([1, 1, 1, 1])
    place(stand(state, "a.rifle_squad.2"), 18, 21)  # sits where the ambush went before
    move(state, stand(state, "a.rifle_squad.1"), 18, 24, purpose="advance")
    placed = [s for s in state.defender.stands if s.id == "d.rifle_squad.3"]
    assert placed, "a place farther from the other stand still sees the mover"
    assert hypot(placed[0].x - 18, placed[0].y - 21) > 3


def test_no_ambush_from_where_the_mover_cannot_be_seen() -> None:
    """The AI keeps its draw rather than place a unit that cannot shoot."""
    state = cup_state(dice=[], field=table(".h .h .h", ".h .h .h", ".- .- .-"))
    # Its Area of Control stops 3" short of the woods' edge (y = 24): from deeper in, the
    # mover in the open cannot be seen, nor can it see.
    place(stand(state, "d.rifle_squad.1"), 8, 21)
    place(stand(state, "d.rifle_squad.2"), 28, 21)
    place(stand(state, "a.rifle_squad.2"), 34, 34)
    mover = place(stand(state, "a.rifle_squad.1"), 18, 30)
    move(state, mover, 18, 26, purpose="advance")
    assert len(state.defender.cup) == 2


@pytest.mark.parametrize("seed", range(8))
def test_whole_battles_with_the_cup_keep_the_rules(seed: int) -> None:
    doc = battle_doc(
        attacker={"commander": 1, "rifle_squad": 9, "hmg": 1},
        defender={"commander": 1, "rifle_squad": 6},
        vegetation="light",
        options={"fog_of_war_cup": True},
    )
    doc["defender"]["reinforcements"] = {"rifle_squad": 3, "hmg": 1}
    spec = parse_battle(doc)
    result = resolve(spec, seed)
    assert resolve(spec, seed) == result
    assert result["stands_present"]["defender"] == {"commander": 1, "rifle_squad": 9, "hmg": 1}
    draws = [r for r in result["log"] if r["kind"] == "cup_draw"]
    per_turn = [r["turn"] for r in draws]
    assert len(per_turn) == len(set(per_turn))  # one a turn at most
    roster = {s["id"]: s for s in result["stands"]}
    assert sum(1 for s in roster.values() if s["in_cup"]) == 4 - len(draws)
