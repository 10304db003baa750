"""Off-table support: what each side may call in each zone, who may call it, and the
mission as it lands in the log."""

from __future__ import annotations

import pytest

from rules.korona.engine import _fire_phase
from rules.korona.state import PINNED, SUPPRESSED, BattleState
from rules.korona.support import available_mission, call_mission, caller_of
from rules.units import OFF_TABLE_ARTILLERY
from tests.rules.conftest import make_state, place, stand, table

AUSTRALIANS = {"forward_observer": 1, "commander": 1, "rifle_squad": 2}
JAPANESE = {"commander": 1, "rifle_squad": 2}


def australian_state(zone: int, **doc) -> BattleState:
    """Australians defending with an FO; the Japanese attack."""
    return make_state(zone=zone, defender=AUSTRALIANS, attacker=JAPANESE, **doc)


def japanese_state(zone: int, **doc) -> BattleState:
    """Japanese defending with their commander; the Australians attack."""
    return make_state(
        zone=zone,
        attacker=AUSTRALIANS,
        attacker_side="australian",
        defender=JAPANESE,
        defender_side="japanese",
        **doc,
    )


def mission_summary(state: BattleState, side: str) -> tuple[str, str, int] | None:
    force = next(f for f in state.forces if f.side == side)
    mission = available_mission(state, force)
    if mission is None:
        return None
    return mission.kind, mission.weapon.name, mission.weapon.fire_dice


# --- what may be called where -----------------------------------------------------------


@pytest.mark.parametrize("zone", [1, 2])
def test_australians_have_artillery_in_zones_one_and_two(zone: int) -> None:
    state = australian_state(zone, buffalos=3, hurricane=True)
    assert mission_summary(state, "australian") == ("artillery", "heavy_artillery", 5)
    mission = available_mission(state, state.defender)
    assert mission is not None and mission.weapon.range_in is None
    assert mission.weapon is OFF_TABLE_ARTILLERY


@pytest.mark.parametrize("zone", [0, 3, 4, 5, 8])
def test_australians_have_nothing_outside_zones_one_two_six_and_seven(zone: int) -> None:
    state = australian_state(zone, buffalos=3, hurricane=True)
    assert mission_summary(state, "australian") is None


@pytest.mark.parametrize(("buffalos", "dice"), [(1, 1), (2, 2), (3, 3), (5, 3)])
@pytest.mark.parametrize("zone", [6, 7])
def test_buffalos_strafe_with_a_die_each_at_most_three(zone: int, buffalos: int, dice: int) -> None:
    state = australian_state(zone, buffalos=buffalos)
    assert mission_summary(state, "australian") == ("strafing", "air_strafing", dice)


@pytest.mark.parametrize("buffalos", [0, 3])
@pytest.mark.parametrize("zone", [6, 7])
def test_the_hurricane_bombs_with_five_dice_in_preference(zone: int, buffalos: int) -> None:
    state = australian_state(zone, buffalos=buffalos, hurricane=True)
    assert mission_summary(state, "australian") == ("bombing", "air_bombing", 5)


@pytest.mark.parametrize("zone", [6, 7])
def test_no_planes_no_air_support(zone: int) -> None:
    state = australian_state(zone, buffalos=0, hurricane=False)
    assert mission_summary(state, "australian") is None


@pytest.mark.parametrize("zone", [6, 7])
def test_japanese_have_artillery_in_zones_six_and_seven(zone: int) -> None:
    state = japanese_state(zone, buffalos=3, hurricane=True)
    assert mission_summary(state, "japanese") == ("artillery", "heavy_artillery", 5)


@pytest.mark.parametrize("zone", [1, 2, 3, 4, 5])
def test_japanese_have_nothing_outside_zones_six_and_seven(zone: int) -> None:
    state = japanese_state(zone, buffalos=3, hurricane=True)
    assert mission_summary(state, "japanese") is None


def test_zone_five_has_no_support_for_either_side() -> None:
    state = australian_state(5, buffalos=3, hurricane=True)
    assert mission_summary(state, "australian") is None
    assert mission_summary(state, "japanese") is None


# --- who may call it --------------------------------------------------------------------


def test_the_australian_caller_is_the_forward_observer() -> None:
    state = australian_state(1)
    assert caller_of(state.defender) is stand(state, "d.forward_observer.1")


def test_the_japanese_caller_is_the_commander() -> None:
    state = japanese_state(6)
    assert caller_of(state.defender) is stand(state, "d.commander.1")


def test_australians_without_an_fo_cannot_call_support() -> None:
    state = make_state(zone=1, defender={"commander": 1, "rifle_squad": 2})
    assert caller_of(state.defender) is None
    assert available_mission(state, state.defender) is None


def test_a_forward_observer_that_moved_cannot_call_support() -> None:
    state = australian_state(1)
    stand(state, "d.forward_observer.1").moved = True
    assert available_mission(state, state.defender) is None


def test_a_suppressed_forward_observer_cannot_call_support() -> None:
    state = australian_state(1)
    stand(state, "d.forward_observer.1").status = SUPPRESSED
    assert available_mission(state, state.defender) is None


def test_a_pinned_forward_observer_can_still_call_support() -> None:
    state = australian_state(1)
    stand(state, "d.forward_observer.1").status = PINNED
    assert mission_summary(state, "australian") == ("artillery", "heavy_artillery", 5)


def test_a_dead_forward_observer_calls_nothing() -> None:
    state = australian_state(1)
    stand(state, "d.forward_observer.1").alive = False
    assert available_mission(state, state.defender) is None


def test_a_japanese_commander_that_moved_cannot_call_support() -> None:
    state = japanese_state(6)
    stand(state, "d.commander.1").moved = True
    assert available_mission(state, state.defender) is None


# --- the mission ------------------------------------------------------------------------


def test_a_mission_is_logged_as_support_with_its_caller() -> None:
    state = australian_state(1, dice=[5, 5, 1, 2, 3])
    mission = available_mission(state, state.defender)
    assert mission is not None
    target = stand(state, "a.rifle_squad.1")
    record = call_mission(state, mission, target, False)
    assert record == {
        "turn": 1,
        "phase": "test",
        "kind": "support",
        "side": "australian",
        "firer": "off-table artillery",
        "firer_type": "heavy_artillery",
        "target": "a.rifle_squad.1",
        "target_type": "rifle_squad",
        "dice": [5, 5, 1, 2, 3],
        "obscured": False,
        "hits": 2,
        "status_before": "ok",
        "effect": "suppressed",
        "mission": "artillery",
        "called_by": "d.forward_observer.1",
    }
    assert target.status == SUPPRESSED


def test_an_obscured_strafing_run_loses_a_die() -> None:
    state = australian_state(6, buffalos=2, dice=[6])
    mission = available_mission(state, state.defender)
    assert mission is not None
    record = call_mission(state, mission, stand(state, "a.rifle_squad.1"), True)
    assert (record["mission"], record["dice"], record["effect"]) == ("strafing", [6], "pinned")


# --- in the fire phase ------------------------------------------------------------------


def fire_phase_state(dice: list[int], field=None) -> BattleState:
    """Australians (defender) in zone 1 with an FO, facing four Japanese squads."""
    state = make_state(
        zone=1,
        attacker={"rifle_squad": 4},
        defender={"forward_observer": 1, "rifle_squad": 4},
        field=field,
        dice=dice,
    )
    place(stand(state, "d.forward_observer.1"), 18, 2)
    for n, x in enumerate((2, 10, 26, 34), start=1):
        place(stand(state, f"a.rifle_squad.{n}"), x, 34)  # beyond every rifle's 15"
    state.phase = "defender fire"
    return state


def test_one_mission_per_fire_phase_and_the_caller_fires_nothing_else() -> None:
    state = fire_phase_state([1] * 5)
    _fire_phase(state, state.defender)
    support = [r for r in state.log if r["kind"] == "support"]
    assert len(support) == 1
    assert support[0]["called_by"] == "d.forward_observer.1"
    assert support[0]["phase"] == "defender fire"
    assert not [r for r in state.log if r["kind"] == "fire"]  # every squad out of range
    assert state.roller.dice_rolled == 5


def test_a_mission_needs_the_callers_line_of_sight() -> None:
    # A bare high ridge across the middle row hides the attackers from the FO.
    ridge = table(".- .- .-", "R- R- R-", ".- .- .-")
    state = fire_phase_state([], field=ridge)
    _fire_phase(state, state.defender)
    assert state.log == []
    assert state.roller.dice_rolled == 0


def test_a_moved_forward_observer_calls_nothing_in_the_fire_phase() -> None:
    state = fire_phase_state([])
    stand(state, "d.forward_observer.1").moved = True
    _fire_phase(state, state.defender)
    assert [r for r in state.log if r["kind"] == "support"] == []


def test_a_japanese_commander_that_calls_a_mission_does_not_also_fire() -> None:
    # The commander could fire its own 2 dice at the squad 5" away; calling the
    # artillery is its fire action for the phase.
    state = japanese_state(6, dice=[1] * 5)
    place(stand(state, "d.commander.1"), 18, 10)
    for n, x in enumerate((2, 34), start=1):
        place(stand(state, f"d.rifle_squad.{n}"), x, 0)  # out of rifle range
    place(stand(state, "a.rifle_squad.1"), 18, 15)
    place(stand(state, "a.rifle_squad.2"), 30, 36)
    place(stand(state, "a.commander.1"), 2, 36)
    place(stand(state, "a.forward_observer.1"), 6, 36)
    state.phase = "defender fire"
    _fire_phase(state, state.defender)
    support = [r for r in state.log if r["kind"] == "support"]
    assert [r["called_by"] for r in support] == ["d.commander.1"]
    assert [r["firer"] for r in state.log if r["kind"] == "fire"] == []
    assert state.roller.dice_rolled == 5


# --- on-table heavy artillery: "36" direct, no limit indirect" (issue 13, item 9) --------


def gun_state(dice: list[int], *, spotter: str = "forward_observer") -> BattleState:
    """Australian on-table heavy artillery on a 4 ft x 1 ft open table, zone 5 (no
    off-table support), Japanese squads 38"-44" away at the other end."""
    state = make_state(
        zone=5,
        attacker={"rifle_squad": 4},
        defender={"heavy_artillery": 1, spotter: 1},
        field=table(".- .- .- .-"),
        width_ft=4,
        depth_ft=1,
        dice=dice,
    )
    place(stand(state, "d.heavy_artillery.1"), 2, 6)
    place(stand(state, "a.rifle_squad.1"), 44, 6)
    # Three more, so that one lost is not a third; out of the gun's 36" and 2" apart.
    for number, (x, y) in enumerate([(46, 0), (46, 12), (40, 0)], start=2):
        place(stand(state, f"a.rifle_squad.{number}"), x, y)
    return state


def test_heavy_artillery_beyond_36_inches_fires_indirectly_at_what_its_fo_sees() -> None:
    state = gun_state([5, 5, 5, 1, 1])
    place(stand(state, "d.forward_observer.1"), 30, 6)  # 14" from the target, sees it
    _fire_phase(state, state.defender)
    [record] = [r for r in state.log if r["kind"] == "fire"]
    assert record["firer"] == "d.heavy_artillery.1" and record["target"] == "a.rifle_squad.1"
    assert record["dice"] == [5, 5, 5, 1, 1] and record["effect"] == "killed"
    assert record["indirect"] is True and record["spotted_by"] == "d.forward_observer.1"
    assert state.roller.unused == []


def test_a_commander_spots_for_the_guns_too() -> None:
    state = gun_state([1, 1, 1, 1, 6], spotter="commander")
    place(stand(state, "d.commander.1"), 38, 6)  # 6": the commander also fires, 2 dice
    state.roller._faces += [1, 1]
    _fire_phase(state, state.defender)
    gun = next(r for r in state.log if r["firer"] == "d.heavy_artillery.1")
    assert gun["spotted_by"] == "d.commander.1" and gun["effect"] == "pinned"


def test_no_indirect_fire_without_a_spotter_who_sees_the_target() -> None:
    state = gun_state([])
    observer = place(stand(state, "d.forward_observer.1"), 30, 6)
    observer.moved = True  # an FO that moved cannot call a fire mission
    _fire_phase(state, state.defender)
    assert [r for r in state.log if r["kind"] == "fire"] == []
    observer.moved = False
    observer.status = SUPPRESSED
    _fire_phase(state, state.defender)
    assert [r for r in state.log if r["kind"] == "fire"] == []


def test_heavy_artillery_within_36_inches_fires_direct() -> None:
    state = gun_state([6, 1, 1, 1, 1])
    place(stand(state, "a.rifle_squad.1"), 30, 6)  # 28": in direct range
    place(stand(state, "d.forward_observer.1"), 20, 6)
    _fire_phase(state, state.defender)
    [record] = [r for r in state.log if r["kind"] == "fire"]
    assert "indirect" not in record and record["effect"] == "pinned"
