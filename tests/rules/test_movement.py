"""Movement: allowances by going, the worst going on the path, the command radius and its
initiative roll, limbering."""

from __future__ import annotations

from math import cos, hypot, pi, sin

import pytest

from rules.korona.movement import (
    allowance_along,
    can_move,
    command_roll,
    limber,
    move,
    needs_command_roll,
    reachable_point,
)
from rules.korona.state import OK, PINNED, SUPPRESSED, BattleState
from rules.units import MOVEMENT, UNIT_TYPES
from tests.rules.conftest import deadline, make_state, place, stand, table

# Row 0: good, rough (light woods), bad (heavy woods); rows 1-2 open ground.
GOINGS = table(".- .l .h", ".- .- .-", ".- .- .-")
# A light wood between two open squares, and a swamp between two open squares.
WOOD_BETWEEN = table(".- .l .-", ".- M- .-", ".- .- .-")

MOVERS = [
    ("commander", (6, 4, 3)),
    ("forward_observer", (6, 4, 3)),
    ("sniper", (6, 4, 3)),
    ("rifle_squad", (6, 4, 3)),
    ("hmg", (4, 2, 1)),
    ("small_mortar", (4, 2, 1)),
    ("wheeled_vehicle", (12, None, None)),
    ("tracked_vehicle", (8, 2, None)),
    ("light_tank", (8, 2, None)),
]


def mover_state(unit: str, field=GOINGS, dice: list[int] | None = None) -> BattleState:
    stands = {"commander": 1} if unit == "commander" else {unit: 1}
    if unit == "sniper":
        return make_state(
            attacker_side="japanese",
            defender={"rifle_squad": 1},
            sniper=True,
            field=field,
            dice=dice or [],
        )
    return make_state(attacker=stands, field=field, dice=dice or [])


def mover(state: BattleState, unit: str):
    return stand(state, "d.sniper.1" if unit == "sniper" else f"a.{unit}.1")


# --- allowances -------------------------------------------------------------------------


@pytest.mark.parametrize(("unit", "allowances"), MOVERS)
def test_allowance_by_going(unit: str, allowances: tuple[int | None, ...]) -> None:
    state = mover_state(unit)
    walker = place(mover(state, unit), 2, 6)
    # Stay inside good going; reach into the light wood; reach into the heavy wood.
    got = [allowance_along(state, walker, x, 6) for x in (10, 14, 26)]
    assert got == list(allowances)


@pytest.mark.parametrize(("unit", "allowances"), MOVERS)
def test_the_worst_going_crossed_sets_the_allowance(unit: str, allowances) -> None:
    state = mover_state(unit, WOOD_BETWEEN)
    walker = place(mover(state, unit), 6, 6)
    assert allowance_along(state, walker, 30, 6) == allowances[1]  # through the light wood
    place(walker, 6, 18)
    assert allowance_along(state, walker, 30, 18) == allowances[2]  # through the swamp
    place(walker, 6, 30)
    assert allowance_along(state, walker, 30, 30) == allowances[0]  # open all the way


def test_wheeled_vehicle_cannot_enter_rough_going() -> None:
    state = mover_state("wheeled_vehicle")
    jeep = place(mover(state, "wheeled_vehicle"), 2, 6)
    assert allowance_along(state, jeep, 14, 6) is None
    with deadline(2, "reachable_point"):
        assert reachable_point(state, jeep, 14, 6) == (2, 6)


def test_tracked_vehicle_cannot_enter_bad_going_but_crawls_through_rough() -> None:
    state = mover_state("tracked_vehicle", table(".h .l .-", ".- .- .-", ".- .- .-"))
    carrier = place(mover(state, "tracked_vehicle"), 18, 6)  # in the light wood
    with deadline(2, "reachable_point"):
        # Up to the heavy woods at x = 12 (2", its rough allowance), never into them.
        assert reachable_point(state, carrier, 6, 6) == (16, 6)
        assert allowance_along(state, carrier, 12, 6) is None
        end = reachable_point(state, carrier, 30, 6)
    assert hypot(end[0] - 18, end[1] - 6) <= 2


def test_a_move_in_open_ground_goes_the_full_allowance() -> None:
    state = make_state()
    squad = place(stand(state, "a.rifle_squad.1"), 6, 18)
    with deadline(2, "reachable_point"):
        assert reachable_point(state, squad, 30, 18) == (12, 18)
        assert reachable_point(state, squad, 9, 18) == (9, 18)


def test_going_beyond_the_end_of_the_move_does_not_slow_it() -> None:
    # The wood starts at x = 12; a 6" move from x = 2 never touches it, so the far target
    # beyond the wood does not slow this move.
    state = make_state(field=WOOD_BETWEEN)
    squad = place(stand(state, "a.rifle_squad.1"), 2, 6)
    with deadline(2, "reachable_point"):
        assert reachable_point(state, squad, 34, 6) == (8, 6)


def test_a_move_into_rough_going_is_cut_to_the_rough_allowance() -> None:
    state = make_state(field=WOOD_BETWEEN)
    squad = place(stand(state, "a.rifle_squad.1"), 10, 6)
    with deadline(2, "reachable_point"):
        end = reachable_point(state, squad, 34, 6)
    assert end == (14, 6)


def test_a_move_never_leaves_the_table() -> None:
    state = make_state()
    squad = place(stand(state, "a.rifle_squad.1"), 2, 34)
    with deadline(2, "reachable_point"):
        x, y = reachable_point(state, squad, -20, 60)
    assert 0 <= x <= 36 and 0 <= y <= 36
    assert hypot(x - 2, y - 34) <= 6


# Targets all round the compass at several distances: the move must never be longer than
# the allowance, whichever way it points (rounding to whole inches included).
_DIRECTIONS = [2 * pi * k / 32 for k in range(32)]


@pytest.mark.parametrize("unit", ["rifle_squad", "hmg", "wheeled_vehicle", "tracked_vehicle"])
def test_no_move_is_longer_than_its_allowance_in_any_direction(unit: str) -> None:
    state = make_state(attacker={unit: 1})
    walker = stand(state, f"a.{unit}.1")
    good = MOVEMENT[UNIT_TYPES[unit].move_class][0]
    too_long = []
    with deadline(5, "reachable_point in 32 directions"):
        for start in [(18, 18), (17, 19), (5, 31)]:
            for angle in _DIRECTIONS:
                for reach in (3.5, 7.3, 20):
                    place(walker, *start)
                    target = (start[0] + reach * cos(angle), start[1] + reach * sin(angle))
                    end = reachable_point(state, walker, *target)
                    length = hypot(end[0] - start[0], end[1] - start[1])
                    if length > good:
                        too_long.append((start, target, end, round(length, 3)))
    assert too_long == [], f'{len(too_long)} moves longer than {good}": {too_long[:3]}'


def test_a_move_toward_lower_coordinates_stays_within_six_inches() -> None:
    # From (10, 10) toward (0, 5): the exact 6" point is (4.63, 7.32); a whole-inch end
    # must round toward the start, not away from it (hypot(6, 3) = 6.7" is too far).
    state = make_state()
    squad = place(stand(state, "a.rifle_squad.1"), 10, 10)
    with deadline(2, "reachable_point"):
        end = reachable_point(state, squad, 0, 5)
    assert hypot(end[0] - 10, end[1] - 10) <= 6
    assert hypot(end[0] - 0, end[1] - 5) < hypot(10, 5)  # it did move toward the target


# --- who may move -----------------------------------------------------------------------


def test_pinned_and_suppressed_stands_cannot_move() -> None:
    state = make_state()
    squad = stand(state, "a.rifle_squad.1")
    assert can_move(squad)
    squad.status = PINNED
    assert not can_move(squad)
    squad.status = SUPPRESSED
    assert not can_move(squad)
    squad.status = OK
    squad.alive = False
    assert not can_move(squad)


def test_a_man_packed_weapon_that_fired_this_turn_cannot_move_in_it() -> None:
    state = make_state(attacker={"commander": 1, "hmg": 1, "rifle_squad": 1})
    hmg = stand(state, "a.hmg.1")
    squad = stand(state, "a.rifle_squad.1")
    assert can_move(hmg)
    hmg.fired = squad.fired = True
    assert not can_move(hmg)  # it fires only in turns where it did not move
    assert can_move(squad)  # a rifle squad may fire and move


def command_state(quality: str = "trained", dice: list[int] | None = None) -> BattleState:
    state = make_state(
        attacker={"commander": 1, "rifle_squad": 2}, attacker_quality=quality, dice=dice or []
    )
    place(stand(state, "a.commander.1"), 18, 30)
    return state


@pytest.mark.parametrize(
    ("squad_at", "must_roll"),
    [((18, 24), False), ((24, 30), False), ((12, 30), False), ((24, 31), True), ((18, 23), True)],
)
def test_command_roll_needed_only_beyond_six_inches(
    squad_at: tuple[int, int], must_roll: bool
) -> None:
    state = command_state()
    squad = place(stand(state, "a.rifle_squad.1"), *squad_at)
    assert needs_command_roll(squad) is must_roll


def test_commander_never_rolls_to_move() -> None:
    state = command_state()
    assert not needs_command_roll(stand(state, "a.commander.1"))


def test_without_a_commander_every_stand_rolls() -> None:
    state = make_state()
    assert needs_command_roll(stand(state, "a.rifle_squad.1"))


def test_with_its_commander_dead_a_stand_rolls() -> None:
    state = command_state()
    squad = place(stand(state, "a.rifle_squad.1"), 18, 28)
    stand(state, "a.commander.1").alive = False
    assert needs_command_roll(squad)


@pytest.mark.parametrize(("quality", "target"), [("veteran", 3), ("trained", 4), ("raw", 5)])
def test_initiative_roll_target_by_quality(quality: str, target: int) -> None:
    state = command_state(quality, dice=[target, target - 1])
    squad = place(stand(state, "a.rifle_squad.1"), 18, 10)
    assert command_roll(state, squad) is True
    assert command_roll(state, squad) is False
    passed, failed = state.log
    assert passed == {
        "turn": 1,
        "phase": "test",
        "kind": "command",
        "side": "japanese",
        "stand": "a.rifle_squad.1",
        "stand_type": "rifle_squad",
        "dice": [target],
        "target": target,
        "reason": '20.0" from its commander',
        "outcome": "moves",
    }
    assert (failed["dice"], failed["outcome"]) == ([target - 1], "stays put")


def test_initiative_roll_without_a_commander_says_so() -> None:
    state = make_state(dice=[6])
    assert command_roll(state, stand(state, "a.rifle_squad.1"))
    assert state.log[-1]["reason"] == "no commander"


# --- moving and limbering ---------------------------------------------------------------


def test_move_records_the_path_and_marks_the_stand_moved() -> None:
    state = make_state(field=WOOD_BETWEEN)
    squad = place(stand(state, "a.rifle_squad.1"), 10, 6)
    move(state, squad, 14, 6, purpose="advance")
    assert (squad.x, squad.y, squad.moved) == (14, 6, True)
    assert state.log[-1] == {
        "turn": 1,
        "phase": "test",
        "kind": "move",
        "side": "japanese",
        "stand": "a.rifle_squad.1",
        "stand_type": "rifle_squad",
        "from": [10, 6],
        "to": [14, 6],
        "going": "rough",
        "purpose": "advance",
        "dice": [],  # docs/rules.md: every record has a dice list
    }


def test_limbering_takes_the_move_and_is_recorded() -> None:
    state = make_state(attacker={"medium_mortar": 1})
    mortar = stand(state, "a.medium_mortar.1")
    limber(state, mortar, limbered=True)
    assert (mortar.limbered, mortar.moved) == (True, True)
    assert state.log[-1]["kind"] == "limber"
    assert state.log[-1]["outcome"] == "limbered"
    mortar.moved = False
    limber(state, mortar, limbered=False)
    assert (mortar.limbered, mortar.moved) == (False, True)
    assert state.log[-1]["outcome"] == "unlimbered"
    assert state.log[-1]["dice"] == []  # docs/rules.md: every record has a dice list
    assert state.roller.dice_rolled == 0


# --- the allowance, checked where every move is made (issue 13, items 3 and 5) ------------


def test_a_move_asked_beyond_its_allowance_is_cut_back_to_it() -> None:
    # "Rough going - light woods": 4" for infantry. Asked to go 6" into the light wood,
    # the one move function cuts the move back to 4", wherever the request came from.
    state = make_state(field=WOOD_BETWEEN)
    squad = place(stand(state, "a.rifle_squad.1"), 10, 6)
    assert move(state, squad, 16, 6, purpose="test")
    assert (squad.x, squad.y) == (14, 6)
    record = state.log[-1]
    assert record["kind"] == "move" and record["to"] == [14, 6] and record["going"] == "rough"


def test_a_rounded_point_touching_worse_going_at_a_corner_is_not_taken() -> None:
    # Heavy woods in the square below-left of (12, 12). From (13, 10) toward (10, 16) a
    # rifle squad's 6" point (10.3, 15.4) rounds to (10, 15) or (11, 16)..., whose paths
    # cross the heavy woods (3"): each candidate is checked against its own path.
    field = table(".- .-", ".h .-")
    state = make_state(field=field)
    squad = place(stand(state, "a.rifle_squad.1"), 13, 10)
    end = reachable_point(state, squad, 10, 16)
    assert hypot(end[0] - 13, end[1] - 10) <= allowance_along(state, squad, *end)
    assert move(state, squad, 10, 15, purpose="test")  # 5.8", through heavy woods: cut
    assert hypot(squad.x - 13, squad.y - 10) <= 3


def test_a_move_that_cannot_be_made_at_all_is_not_made() -> None:
    state = mover_state("wheeled_vehicle")
    jeep = place(mover(state, "wheeled_vehicle"), 2, 6)
    logged = len(state.log)
    assert not move(state, jeep, 14, 6, purpose="test")  # into rough going: never
    assert (jeep.x, jeep.y) == (2, 6) and len(state.log) == logged and not jeep.moved


def test_a_man_packed_weapon_in_bad_going_moves_its_inch_diagonally() -> None:
    # Man-packed weapons: 1" in bad going. A diagonal move toward the enemy rounded back
    # toward the start on both axes was no move at all; the weapon may move its inch.
    state = make_state(attacker={"hmg": 1}, field=table(".h .h .h", ".h .h .h", ".h .h .h"))
    hmg = place(stand(state, "a.hmg.1"), 18, 30)
    for target in [(10, 22), (26, 22), (19, 10), (30, 29)]:
        end = reachable_point(state, hmg, *target)
        assert hypot(end[0] - 18, end[1] - 30) == 1, (target, end)
        assert hypot(end[0] - target[0], end[1] - target[1]) < hypot(18 - target[0], 30 - target[1])


def test_every_move_of_whole_battles_keeps_within_its_allowance() -> None:
    """The log of many battles, each terrain: no move longer than its going allows."""
    from rules.dice import derive_seed
    from rules.korona.engine import resolve
    from tests.rules.conftest import VARIANTS

    moves = 0
    for name, spec in sorted(VARIANTS.items()):
        for run in range(6):
            result = resolve(spec, derive_seed(13, name, run))
            types = {s["id"]: s["type"] for s in result["stands"]}
            for rec in result["log"]:
                if rec["kind"] != "move":
                    continue
                moves += 1
                unit = UNIT_TYPES[types[rec["stand"]]]
                allowed = MOVEMENT[unit.move_class][("good", "rough", "bad").index(rec["going"])]
                length = hypot(rec["to"][0] - rec["from"][0], rec["to"][1] - rec["from"][1])
                assert allowed is not None and length <= allowed, (name, run, rec)
    assert moves > 100


# --- several companies: each stand's own commander (rulings section 4; issue 13, item 2) ---


def companies_state(dice: list[int] | None = None) -> BattleState:
    """The attacker is the 1st Company (a.commander.1, a.rifle_squad.1) and the 2nd
    (a.commander.2, a.rifle_squad.2)."""
    return make_state(
        attacker={"commander": 2, "rifle_squad": 2},
        attacker_companies=[
            {"name": "1st Company", "stands": {"commander": 1, "rifle_squad": 1}},
            {"name": "2nd Company", "stands": {"commander": 1, "rifle_squad": 1}},
        ],
        dice=dice or [],
    )


def test_a_squad_beside_its_own_companys_commander_moves_freely() -> None:
    # "Squads within 6" of their commander may move freely": the second company's squad
    # beside the second commander, the first commander far away.
    state = companies_state()
    place(stand(state, "a.commander.1"), 2, 34)
    place(stand(state, "a.commander.2"), 30, 30)
    squad = place(stand(state, "a.rifle_squad.2"), 30, 26)
    assert state.attacker.commander_of(squad) is stand(state, "a.commander.2")
    assert not needs_command_roll(squad)


def test_a_squad_beside_another_companys_commander_must_roll() -> None:
    state = companies_state([3])
    place(stand(state, "a.commander.1"), 30, 30)
    place(stand(state, "a.commander.2"), 2, 34)
    squad = place(stand(state, "a.rifle_squad.2"), 30, 26)
    assert needs_command_roll(squad)
    assert not command_roll(state, squad)  # Trained: 4+
    assert "from its commander" in state.log[-1]["reason"]


def test_a_company_whose_commander_is_lost_has_none() -> None:
    state = companies_state([4])
    place(stand(state, "a.commander.1"), 30, 30)
    stand(state, "a.commander.2").alive = False
    squad = place(stand(state, "a.rifle_squad.2"), 30, 26)
    assert state.attacker.commander_of(squad) is None
    assert needs_command_roll(squad)
    assert command_roll(state, squad)
    assert state.log[-1]["reason"] == "no commander"
    # The first company still has its own.
    assert not needs_command_roll(place(stand(state, "a.rifle_squad.1"), 28, 28))
