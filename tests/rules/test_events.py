"""Combat Events (Old Breed South Pacific 17.0) as an option of the Korona rules."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import Roller
from rules.kernel import battle
from rules.korona import engine
from rules.korona.events import (
    DEFAULT_COMBAT_EVENT_TABLE,
    DEFAULT_JAPANESE_EVENT_TABLE,
    after_fire,
    check_table,
)
from rules.korona.state import OK, PINNED, SUPPRESSED
from rules.spec import BattleSpecError, parse_battle
from tests.rules.conftest import battle_doc, make_spec, make_state, place, stand, table

ON = {"combat_events": True}


def fire_record(*dice: int) -> dict[str, Any]:
    return {"dice": list(dice)}


def events_of(state) -> list[dict[str, Any]]:
    return [r for r in state.log if r["kind"].startswith("combat_event")]


def test_no_event_is_rolled_unless_the_option_is_on() -> None:
    state = make_state()  # scripted roller with no dice: any roll would fail the test
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1, 1, 1))
    assert events_of(state) == []


@pytest.mark.parametrize("dice", [(2, 1, 1), (6, 5, 1), ()])
def test_only_a_one_on_the_first_die_can_set_off_an_event(dice: tuple[int, ...]) -> None:
    state = make_state(options=ON)
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(*dice))
    assert events_of(state) == []


def test_a_commanders_fire_never_sets_off_an_event() -> None:
    state = make_state(attacker={"commander": 1, "rifle_squad": 1}, options=ON)
    after_fire(state, stand(state, "a.commander.1"), fire_record(1, 1))
    assert events_of(state) == []


@pytest.mark.parametrize("d10", [4, 5, 6, 7, 8, 9, 10])
def test_four_to_ten_on_the_d10_is_no_event(d10: int) -> None:
    state = make_state(options=ON, dice=[d10])
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1, 4, 4))
    [check] = events_of(state)
    assert (check["kind"], check["dice"], check["outcome"]) == (
        "combat_event_check",
        [d10],
        "no event",
    )


def test_a_one_on_the_d10_makes_the_firers_side_roll_on_the_combat_event_table() -> None:
    state = make_state(options=ON, dice=[1, 5])  # 5: "a lull in the firing"
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    check, event = events_of(state)
    assert check["outcome"] == "Attackers rolls on the Combat Event Table"
    assert (event["side"], event["table"], event["dice"]) == (
        "japanese",
        "Combat Event Table",
        [5],
    )
    assert event["text"] == DEFAULT_COMBAT_EVENT_TABLE[5]["text"]


def test_a_two_on_the_d10_makes_the_other_side_roll() -> None:
    state = make_state(options=ON, dice=[2, 6])
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    _, event = events_of(state)
    assert (event["side"], event["table"]) == ("australian", "Combat Event Table")


def test_a_three_on_the_d10_is_the_japanese_event_table_with_japanese_present() -> None:
    state = make_state(
        options=ON, dice=[3, 6], attacker_side="australian", defender_side="japanese"
    )
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    _, event = events_of(state)
    assert (event["side"], event["table"]) == ("japanese", "Japanese Event Table")
    assert event["text"] == DEFAULT_JAPANESE_EVENT_TABLE[6]["text"]


def test_a_three_is_ignored_when_no_japanese_are_present() -> None:
    state = make_state(options=ON, dice=[3], attacker_side="australian", defender_side="japanese")
    for force in state.forces:  # a battle of two Australian forces (a training exercise)
        force.spec = type(force.spec)(**{**_fields(force.spec), "side": "australian"})
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    [check] = events_of(state)
    assert check["outcome"] == "no event"


def _fields(spec: Any) -> dict[str, Any]:
    return {name: getattr(spec, name) for name in spec.__slots__}


# --- the effects, and the choice rule ----------------------------------------------------


def test_a_side_that_must_pin_a_squad_chooses_one_already_pinned() -> None:
    """The roller chooses, least harm first: pinning a pinned squad changes nothing."""
    state = make_state(options=ON, dice=[1, 2], attacker={"rifle_squad": 3})
    stand(state, "a.rifle_squad.3").status = PINNED
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    assert [s.status for s in state.attacker.stands] == [OK, OK, PINNED]
    assert events_of(state)[-1]["outcome"] == "a.rifle_squad.3 is pinned"
    # What the replay reads: the stand and what it became, beside the words.
    assert (events_of(state)[-1]["stand"], events_of(state)[-1]["becomes"]) == (
        "a.rifle_squad.3",
        "pinned",
    )


def test_a_side_must_choose_even_to_its_own_harm() -> None:
    """Its only weapon team is suppressed already: suppressed again, it is killed."""
    state = make_state(options=ON, dice=[1, 1], attacker={"rifle_squad": 1, "hmg": 1})
    stand(state, "a.hmg.1").status = SUPPRESSED
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    assert not stand(state, "a.hmg.1").alive
    assert events_of(state)[-1]["outcome"] == "a.hmg.1 is killed (already suppressed)"
    assert events_of(state)[-1]["stand"] == "a.hmg.1"
    assert events_of(state)[-1]["becomes"] == "killed"


def test_an_event_with_nothing_to_strike_says_so() -> None:
    state = make_state(options=ON, dice=[1, 1], attacker={"rifle_squad": 2})
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    assert events_of(state)[-1]["outcome"] == "no stand the event can strike"
    assert "stand" not in events_of(state)[-1] and "becomes" not in events_of(state)[-1]


def test_rallying_picks_the_worst_shaken_stand() -> None:
    state = make_state(options=ON, dice=[1, 3], attacker={"rifle_squad": 3})
    stand(state, "a.rifle_squad.2").status = PINNED
    stand(state, "a.rifle_squad.3").status = SUPPRESSED
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    assert stand(state, "a.rifle_squad.3").status == OK
    assert stand(state, "a.rifle_squad.2").status == PINNED
    assert events_of(state)[-1]["stand"] == "a.rifle_squad.3"
    assert events_of(state)[-1]["becomes"] == "ok"


def test_a_squad_brought_back_still_counts_as_lost() -> None:
    state = make_state(options=ON, dice=[1, 4], attacker={"commander": 1, "rifle_squad": 3})
    lost = stand(state, "a.rifle_squad.2")
    lost.alive = False
    assert state.attacker.lost == 1
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    assert lost.alive and lost.status == OK
    assert state.attacker.lost == 1  # the end of the battle still counts it
    assert state.attacker.losses_by_type()["rifle_squad"] == 1
    commander = stand(state, "a.commander.1")
    assert (lost.x, lost.y) == (commander.x, min(commander.y + 2, state.field.depth_in))
    record = events_of(state)[-1]
    assert (record["stand"], record["becomes"]) == ("a.rifle_squad.2", "ok")
    assert (record["to"], record["hidden"]) == ([lost.x, lost.y], False)


def test_an_appearing_sniper_hides_in_woods_near_the_enemy_and_is_no_loss() -> None:
    woods = table(".- .- .-", ".- .l .-", ".- .- .-")  # light woods in the middle square
    state = make_state(
        options=ON, dice=[3, 1], field=woods, attacker_side="australian", defender_side="japanese"
    )
    place(stand(state, "a.rifle_squad.1"), 18, 26)
    place(stand(state, "a.rifle_squad.2"), 30, 30)
    place(stand(state, "d.rifle_squad.1"), 16, 20)
    place(stand(state, "d.rifle_squad.2"), 22, 20)
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    sniper = stand(state, "d.sniper.1")
    assert sniper.hidden and sniper.extra
    assert state.field.square_at(sniper.x, sniper.y).wooded
    nearest = min(e.distance(sniper) for e in state.attacker.stands)
    assert 3 <= nearest <= 12
    assert sniper.y < 20  # within the Japanese Area of Control: behind their two squads
    present = state.defender.present
    sniper.alive = False
    assert state.defender.present == present
    assert state.defender.lost == 0


def test_a_sniper_shot_fires_three_dice_at_the_most_valuable_target() -> None:
    state = make_state(
        options=ON,
        dice=[3, 3, 6, 2, 2],
        attacker_side="australian",
        defender_side="japanese",
        attacker={"commander": 1, "rifle_squad": 2},
    )
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    shot = [r for r in state.log if r["kind"] == "combat_event_fire"]
    assert shot[0]["target"] == "a.commander.1"
    assert shot[0]["dice"] == [6, 2, 2]
    assert not stand(state, "a.commander.1").alive


# --- the tables as data, and whole battles ----------------------------------------------


def test_a_table_must_cover_every_face_with_a_known_effect() -> None:
    assert check_table(DEFAULT_COMBAT_EVENT_TABLE, "t") == []
    assert check_table(DEFAULT_JAPANESE_EVENT_TABLE, "t") == []
    short = {face: {"effect": "nothing"} for face in range(1, 6)}
    assert check_table(short, "t")
    unknown = {face: {"effect": "nothing"} for face in range(1, 7)} | {3: {"effect": "boom"}}
    assert any("t[3]" in problem for problem in check_table(unknown, "t"))


def test_a_battle_file_with_a_bad_table_is_refused() -> None:
    doc = battle_doc(
        options={"combat_events": True, "combat_event_table": {"1": {"effect": "nothing"}}}
    )
    with pytest.raises(BattleSpecError, match="combat_event_table"):
        parse_battle(doc)


def test_a_gms_own_table_is_used() -> None:
    mine = {str(face): {"effect": "nothing", "text": f"my event {face}"} for face in range(1, 7)}
    state = make_state(options={"combat_events": True, "combat_event_table": mine}, dice=[1, 4])
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    assert events_of(state)[-1]["text"] == "my event 4"


class CountingRoller(Roller):
    made: list[CountingRoller] = []

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        CountingRoller.made.append(self)


@pytest.mark.parametrize("seed", range(12))
def test_whole_battles_with_events_log_every_die_and_replay(seed: int, monkeypatch) -> None:
    spec = make_spec(
        attacker={"commander": 1, "rifle_squad": 9, "hmg": 1, "small_mortar": 1},
        defender={"commander": 1, "rifle_squad": 9, "small_mortar": 1, "forward_observer": 1},
        vegetation="light",
        attacker_quality="veteran",
        options=ON,
    )
    monkeypatch.setattr(battle, "Roller", CountingRoller)  # the kernel throws the dice
    result = engine.resolve(spec, seed)
    roller = CountingRoller.made[-1]
    assert sum(len(r["dice"]) for r in result["log"]) == roller.dice_rolled
    assert engine.resolve(spec, seed) == result
    for key in ("attacker", "defender"):
        assert sum(result["losses"][key].values()) <= sum(result["stands_present"][key].values())


def test_no_sniper_appears_where_its_side_has_no_area_of_control() -> None:
    """Its squads stand at their own edge: no wooded place is behind two of them."""
    woods = table(".- .- .-", ".- .l .-", ".- .- .-")
    state = make_state(
        options=ON, dice=[3, 1], field=woods, attacker_side="australian", defender_side="japanese"
    )
    place(stand(state, "a.rifle_squad.1"), 18, 26)
    after_fire(state, stand(state, "a.rifle_squad.1"), fire_record(1))
    assert all(not s.unit.sniper for s in state.defender.stands)
    assert "does not appear" in events_of(state)[-1]["outcome"]
