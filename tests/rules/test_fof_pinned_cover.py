"""Force on Force: a Pinned unit's move to cover (5.2) and its Quality Check to get In
Cover even after moving (3.9), on a hand-laid table with scripted dice; and whole
battles with such moves that replay from their seed."""

from __future__ import annotations

from typing import Any

from rules.forceonforce import combat, engine
from rules.forceonforce.state import BattleState, Unit
from rules.narrate import describe_record
from rules.rulesets import resolve_battle
from rules.spec import parse_battle
from tests.rules.conftest import table
from tests.rules.test_fof_battle import battle
from tests.rules.test_fof_mechanics import at, make, used
from tests.rules.test_fof_reactions_more import ridge_state

# Light woods in the right third of the middle row (x 24-36, y 12-24): within 2" of it
# (x 22 and beyond) a unit is not Exposed; everywhere else is open ground.
WOOD = (".- .- .-", ".- .- .l", ".- .- .-")
PIN = combat.morale_failure


def wood_state(
    faces: list[int], pinned_at: tuple[int, int], firer_at: tuple[int, int]
) -> tuple[BattleState, Unit, Unit]:
    """An Australian trained squad (d8; Pinned, it tests on a d6) at ``pinned_at``, fired
    on by a Japanese squad at ``firer_at``."""
    state = make(faces)
    state.field = table(*WOOD)
    firer, unit = state.attacker.units[0], state.defender.units[0]
    at(firer, *firer_at)
    at(unit, *pinned_at)
    return state, unit, firer


def kinds(state: BattleState) -> list[tuple[str, str | None]]:
    return [(r["kind"], r.get("purpose") or r.get("action")) for r in state.log]


def test_a_pinned_unit_already_in_cover_goes_in_cover_where_it_is() -> None:
    state, unit, firer = wood_state([], pinned_at=(26, 18), firer_at=(10, 30))
    assert PIN(state, unit, firer, "pinned") == "pinned"
    assert unit.pinned and unit.in_cover and unit.position == [26, 18]
    assert state.log == [] and used(state) == 0 and unit.penalty_moves == 0


def test_a_pinned_unit_in_the_open_moves_to_the_nearest_cover_not_toward_the_firer() -> None:
    # The d10 squad 10" off fires 6 dice (one 8: one success) against 4 d8 (all 1s): one
    # hit; the morale check, 3 d8 all failing, Pins the exposed squad. It moves 4" to the
    # edge of the woods, away from the firer, then passes its check (d6, 4) to get In Cover.
    state, unit, firer = wood_state(
        [8, 1, 1, 1, 1, 1] + [1, 1, 1, 1] + [2, 2, 2] + [4],
        pinned_at=(18, 18),
        firer_at=(10, 24),
    )
    before = unit.distance(firer)
    record = combat.attack(state, firer, unit, kind="activation")
    assert record is not None and record["effect"] == "pinned"
    assert kinds(state) == [
        ("fire", "activation"),
        ("move", "pinned: moves to cover"),
        ("tq_check", "get in cover"),
    ]
    assert unit.position == [22, 18] and not state.exposed(unit.x, unit.y)
    assert state.log[1]["speed"] == "tactical" and state.log[1]["from"] == [18, 18]
    assert unit.distance(firer) >= before
    assert unit.in_cover and state.log[2]["die"] == 6  # 5.2: Pinned, one die shift down
    assert unit.penalty_moves == 1  # 3.1: the move costs a firepower die for the turn
    assert combat.shot_for(state, unit, firer).earlier_actions == 1
    assert used(state) == sum(len(r["dice"]) for r in state.log) == 14


def test_a_pinned_unit_that_would_have_to_move_toward_the_firer_tests_where_it_is() -> None:
    # The only cover within 6" lies toward the firer (east of the squad): 5.2, it may only
    # attempt to get In Cover where it is.
    state, unit, firer = wood_state([4], pinned_at=(18, 18), firer_at=(34, 18))
    assert combat.cover_within_reach(state, unit, firer) is None
    assert PIN(state, unit, firer, "pinned") == "pinned"
    assert kinds(state) == [("tq_check", "get in cover")]
    assert unit.position == [18, 18] and unit.in_cover and unit.penalty_moves == 0


def test_a_pinned_unit_with_no_cover_in_reach_tests_to_get_in_cover_where_it_is() -> None:
    # The woods are 16" off, beyond a Tactical move of 6".
    state, unit, firer = wood_state([2], pinned_at=(6, 18), firer_at=(6, 34))
    assert PIN(state, unit, firer, "pinned") == "pinned"
    assert kinds(state) == [("tq_check", "get in cover")]
    assert unit.position == [6, 18] and not unit.in_cover and used(state) == 1


def test_the_quality_check_decides_whether_the_unit_that_moved_is_in_cover() -> None:
    for face, in_cover in ((4, True), (3, False)):
        state, unit, firer = wood_state([face], pinned_at=(18, 18), firer_at=(10, 30))
        unit.in_cover = True  # In Cover in the open: moving loses it (3.9)
        PIN(state, unit, firer, "pinned")
        assert unit.position == [22, 18] and unit.in_cover is in_cover
        assert state.log[-1]["passed"] is in_cover and used(state) == 1


def test_a_unit_that_moved_rapidly_has_no_movement_left_and_only_tests() -> None:
    state, unit, firer = wood_state([5], pinned_at=(18, 18), firer_at=(10, 30))
    unit.movement = "rapid"
    assert PIN(state, unit, firer, "pinned") == "pinned"
    assert kinds(state) == [("tq_check", "get in cover")]
    assert unit.position == [18, 18] and unit.in_cover and unit.penalty_moves == 0


def test_an_exposed_unit_in_cover_with_nowhere_to_go_stays_in_cover_without_dice() -> None:
    state, unit, firer = wood_state([], pinned_at=(6, 18), firer_at=(6, 34))
    unit.in_cover = True
    assert PIN(state, unit, firer, "pinned") == "pinned"
    assert state.log == [] and unit.in_cover and unit.position == [6, 18]


def test_an_emplaced_weapon_neither_moves_nor_tests() -> None:
    state = make([], dfn={"at_gun": 1})
    state.field = table(*WOOD)
    firer, gun = state.attacker.units[0], at(state.defender.units[0], 18, 18)
    at(firer, 10, 30)
    assert gun.profile.mover is None
    assert PIN(state, gun, firer, "pinned") == "pinned"
    assert state.log == [] and gun.position == [18, 18] and not gun.in_cover


def test_a_unit_pinned_before_its_reaction_move_has_made_its_move_to_cover() -> None:
    # The squad in the open reacts to the d10 squad by moving and loses the test (IU 7,
    # NIU 3): it takes the declared fire first (one hit), fails its morale check (3 d8),
    # is Pinned and moves to the nearest cover away from the firer, the lee of the ridge;
    # it passes its check to get In Cover (d6, 4) and makes no other move (3.13).
    state, iu, niu = ridge_state([7, 3] + [8, 1, 1, 1, 1, 1] + [1, 1, 1, 1] + [2, 2, 2] + [4])
    engine.activate(state, iu)
    assert kinds(state) == [
        ("reaction", "reaction move"),
        ("fire", "activation"),
        ("move", "pinned: moves to cover"),
        ("tq_check", "get in cover"),
    ]
    assert niu.pinned and niu.in_cover and niu.position == [25, 10] and used(state) == 16


# --- whole battles ----------------------------------------------------------------------


def _fight(seed: int, **options: Any) -> dict[str, Any]:
    doc = battle()
    doc["options"].update(options)
    return resolve_battle(parse_battle(doc), seed)


def test_battles_with_pinned_moves_to_cover_replay_from_their_seed() -> None:
    seed = next(
        seed
        for seed in range(100)
        if any(r.get("purpose") == "pinned: moves to cover" for r in _fight(seed)["log"])
    )
    first = _fight(seed)
    assert first == _fight(seed)
    log = first["log"]
    i = next(i for i, r in enumerate(log) if r.get("purpose") == "pinned: moves to cover")
    assert log[i - 1]["kind"] == "fire" and log[i - 1]["effect"] == "pinned"
    assert (log[i + 1]["kind"], log[i + 1]["purpose"]) == ("tq_check", "get in cover")
    assert describe_record(log[i]).endswith(
        f"moves from {tuple(log[i]['from'])} to {tuple(log[i]['to'])} "
        f"(pinned: moves to cover, {log[i]['going']} going)"
    )
    assert "tests to get in cover: d" in describe_record(log[i + 1])
