"""Rally: Raw 5+/6, Trained 4+/5+, Veteran 3+/4+ for pinned/suppressed; a commander
within 2" adds 1; success clears the stand's state, failure leaves it."""

from __future__ import annotations

import pytest

from rules.korona.rally import rally, rally_target
from rules.korona.state import OK, PINNED, SUPPRESSED, BattleState
from tests.rules.conftest import make_state, place, stand

RALLY_TABLE = [
    ("raw", PINNED, 5),
    ("raw", SUPPRESSED, 6),
    ("trained", PINNED, 4),
    ("trained", SUPPRESSED, 5),
    ("veteran", PINNED, 3),
    ("veteran", SUPPRESSED, 4),
]


def rally_state(quality: str, status: int, dice: list[int], **doc) -> BattleState:
    state = make_state(
        defender={"commander": 1, "rifle_squad": 2}, defender_quality=quality, dice=dice, **doc
    )
    place(stand(state, "d.rifle_squad.1"), 18, 6, status=status)
    place(stand(state, "d.commander.1"), 30, 0)  # 12" away unless a test moves it
    return state


@pytest.mark.parametrize(("quality", "status", "target"), RALLY_TABLE)
def test_rally_table(quality: str, status: int, target: int) -> None:
    state = rally_state(quality, status, [])
    assert rally_target(state.defender, status) == target


@pytest.mark.parametrize(("quality", "status", "target"), RALLY_TABLE)
def test_rolling_the_target_rallies_to_ok(quality: str, status: int, target: int) -> None:
    state = rally_state(quality, status, [target])
    squad = stand(state, "d.rifle_squad.1")
    rally(state, state.defender)
    assert squad.status == OK
    record = state.log[-1]
    assert (record["kind"], record["stand"], record["dice"], record["target"]) == (
        "rally",
        "d.rifle_squad.1",
        [target],
        target,
    )
    assert (record["outcome"], record["modifiers"]) == ("rallied", [])
    assert record["status_before"] == ("pinned" if status == PINNED else "suppressed")


@pytest.mark.parametrize(("quality", "status", "target"), RALLY_TABLE)
def test_rolling_one_below_the_target_leaves_the_state(
    quality: str, status: int, target: int
) -> None:
    state = rally_state(quality, status, [target - 1])
    squad = stand(state, "d.rifle_squad.1")
    rally(state, state.defender)
    assert squad.status == status
    assert state.log[-1]["outcome"] == "failed"


def test_raw_suppressed_unit_needs_a_six_alone() -> None:
    state = rally_state("raw", SUPPRESSED, [5])
    rally(state, state.defender)
    assert stand(state, "d.rifle_squad.1").status == SUPPRESSED


@pytest.mark.parametrize(("quality", "status", "target"), RALLY_TABLE)
def test_commander_within_two_inches_adds_one(quality: str, status: int, target: int) -> None:
    state = rally_state(quality, status, [target - 1])
    place(stand(state, "d.commander.1"), 18, 4)  # exactly 2"
    rally(state, state.defender)
    assert stand(state, "d.rifle_squad.1").status == OK
    record = state.log[-1]
    assert record["modifiers"] == [{"reason": 'commander within 2"', "value": 1}]
    assert record["outcome"] == "rallied"


def test_commander_three_inches_away_adds_nothing() -> None:
    state = rally_state("trained", PINNED, [3])
    place(stand(state, "d.commander.1"), 18, 3)
    rally(state, state.defender)
    assert stand(state, "d.rifle_squad.1").status == PINNED
    assert state.log[-1]["modifiers"] == []


def test_a_suppressed_commander_still_adds_one() -> None:
    # Ruling (issue 13, item 7): suppressed "may not move or fire"; adding 1 is neither.
    # The commander rolls first (the stands roll in order); it fails on its 1, and its
    # squad's 3 + 1 rallies it.
    state = rally_state("trained", PINNED, [1, 3])
    place(stand(state, "d.commander.1"), 18, 5, status=SUPPRESSED)
    rally(state, state.defender)
    assert stand(state, "d.commander.1").status == SUPPRESSED
    assert stand(state, "d.rifle_squad.1").status == OK
    assert state.log[-1]["modifiers"] == [{"reason": 'commander within 2"', "value": 1}]


def test_commander_does_not_add_to_its_own_rally() -> None:
    state = rally_state("trained", PINNED, [3])
    stand(state, "d.rifle_squad.1").status = OK
    commander = place(stand(state, "d.commander.1"), 18, 5, status=PINNED)
    rally(state, state.defender)
    assert commander.status == PINNED
    assert state.log[-1]["modifiers"] == []


def test_only_pinned_and_suppressed_live_stands_roll() -> None:
    state = make_state(defender={"rifle_squad": 5}, dice=[6, 6])
    statuses = [OK, PINNED, SUPPRESSED, OK, SUPPRESSED]
    for squad, status in zip(state.defender.stands, statuses, strict=True):
        squad.status = status
    state.defender.stands[4].alive = False
    rally(state, state.defender)
    assert state.roller.dice_rolled == 2
    assert [r["stand"] for r in state.log] == ["d.rifle_squad.2", "d.rifle_squad.3"]
    assert [s.status for s in state.defender.stands] == [OK, OK, OK, OK, SUPPRESSED]


def test_rally_acts_only_on_the_force_it_is_given() -> None:
    state = make_state(dice=[6])
    attacker = stand(state, "a.rifle_squad.1")
    attacker.status = PINNED
    stand(state, "d.rifle_squad.1").status = PINNED
    rally(state, state.attacker)
    assert attacker.status == OK
    assert stand(state, "d.rifle_squad.1").status == PINNED
    assert state.log[-1]["side"] == "japanese"


# --- several companies: each stand's own commander (rulings section 4; issue 13, item 2) ---


def two_company_state(dice: list[int]) -> BattleState:
    """The defender is A Company (a.k.a. company 0: d.commander.1, d.rifle_squad.1) and B
    Company (d.commander.2, d.rifle_squad.2)."""
    state = make_state(
        defender={"commander": 2, "rifle_squad": 2},
        defender_companies=[
            {"name": "A Company", "stands": {"commander": 1, "rifle_squad": 1}},
            {"name": "B Company", "stands": {"commander": 1, "rifle_squad": 1}},
        ],
        dice=dice,
    )
    place(stand(state, "d.commander.1"), 6, 6)
    place(stand(state, "d.rifle_squad.1"), 6, 14)
    place(stand(state, "d.commander.2"), 30, 6)
    return state


def test_a_squad_rallies_with_its_own_companys_commander_beside_it() -> None:
    state = two_company_state([3])
    place(stand(state, "d.rifle_squad.2"), 30, 8, status=PINNED)  # 2" from B's commander
    rally(state, state.defender)
    assert stand(state, "d.rifle_squad.2").status == OK  # 3 + 1: Trained pinned, 4+
    assert state.log[-1]["stand"] == "d.rifle_squad.2"
    assert state.log[-1]["modifiers"] == [{"reason": 'commander within 2"', "value": 1}]


def test_another_companys_commander_beside_a_squad_adds_nothing() -> None:
    state = two_company_state([3])
    place(stand(state, "d.rifle_squad.2"), 6, 8, status=PINNED)  # 2" from A's commander
    rally(state, state.defender)
    assert stand(state, "d.rifle_squad.2").status == PINNED
    assert state.log[-1]["modifiers"] == []
