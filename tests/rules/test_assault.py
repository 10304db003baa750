"""Assault: a die each plus modifiers, the higher total wins and the loser's stands in the
assault are removed, ties are rolled again; commanders, snipers and FOs caught in contact
with no friend within 2" are destroyed before any roll."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules.korona.assault import assault, catch_unsupported, modifiers, supported
from rules.korona.state import OK, PINNED, SUPPRESSED, BattleState
from rules.probability import opposed_d6_win
from tests.rules.conftest import make_state, place, stand


def mods_of(state: BattleState, key: str, lead_id: str, *ids: str) -> list[dict]:
    force = state.attacker if key == "attacker" else state.defender
    lead = stand(state, lead_id)
    return modifiers(force, lead, [lead, *(stand(state, i) for i in ids)])


# --- modifiers --------------------------------------------------------------------------


def test_trained_rifle_squad_alone_has_no_modifiers() -> None:
    state = make_state()
    assert mods_of(state, "attacker", "a.rifle_squad.1") == []


def test_crew_served_weapon_is_minus_two() -> None:
    state = make_state(attacker={"hmg": 1})
    assert mods_of(state, "attacker", "a.hmg.1") == [{"reason": "crew served weapon", "value": -2}]


@pytest.mark.parametrize(
    ("quality", "expected"),
    [
        ("raw", [{"reason": "raw troops", "value": -1}]),
        ("trained", []),
        ("veteran", [{"reason": "veteran troops", "value": 1}]),
    ],
)
def test_quality_modifier(quality: str, expected: list[dict]) -> None:
    state = make_state(attacker_quality=quality)
    assert mods_of(state, "attacker", "a.rifle_squad.1") == expected


def test_each_additional_stand_in_contact_is_plus_one() -> None:
    state = make_state(attacker={"rifle_squad": 3})
    assert mods_of(state, "attacker", "a.rifle_squad.1", "a.rifle_squad.2", "a.rifle_squad.3") == [
        {"reason": "additional squads in contact", "value": 2}
    ]


def commander_state(commander_at: tuple[int, int], *, status: int = OK) -> BattleState:
    state = make_state(attacker={"commander": 1, "rifle_squad": 2})
    place(stand(state, "a.rifle_squad.1"), 18, 19)
    place(stand(state, "a.commander.1"), *commander_at, status=status)
    return state


def test_commander_within_two_inches_not_in_contact_is_plus_one() -> None:
    state = commander_state((18, 21))  # exactly 2" behind the squad in contact
    assert mods_of(state, "attacker", "a.rifle_squad.1") == [
        {"reason": "commander adding support", "value": 1}
    ]


def test_commander_three_inches_away_adds_nothing() -> None:
    state = commander_state((18, 22))
    assert mods_of(state, "attacker", "a.rifle_squad.1") == []


def test_commander_in_contact_counts_as_a_stand_not_as_support() -> None:
    state = commander_state((19, 19))
    assert mods_of(state, "attacker", "a.rifle_squad.1", "a.commander.1") == [
        {"reason": "additional squads in contact", "value": 1}
    ]


@pytest.mark.parametrize("status", [PINNED, SUPPRESSED])
def test_a_pinned_or_suppressed_commander_still_supports(status: int) -> None:
    # Ruling (issue 13, item 7): suppressed "may not move or fire"; support is neither.
    state = commander_state((18, 20), status=status)
    assert mods_of(state, "attacker", "a.rifle_squad.1") == [
        {"reason": "commander adding support", "value": 1}
    ]


def test_each_squad_is_supported_by_its_own_companys_commander_only() -> None:
    # Rulings section 4: "each stand answers to its own company's commander".
    state = make_state(
        attacker={"commander": 2, "rifle_squad": 2},
        attacker_companies=[
            {"name": "1st Company", "stands": {"commander": 1, "rifle_squad": 1}},
            {"name": "2nd Company", "stands": {"commander": 1, "rifle_squad": 1}},
        ],
    )
    place(stand(state, "a.rifle_squad.2"), 18, 19)  # the 2nd Company's squad
    place(stand(state, "a.commander.1"), 18, 21)  # the 1st's commander, 2" behind it
    place(stand(state, "a.commander.2"), 30, 30)
    assert mods_of(state, "attacker", "a.rifle_squad.2") == []
    place(stand(state, "a.commander.2"), 20, 19)  # its own, 2" beside it
    assert mods_of(state, "attacker", "a.rifle_squad.2") == [
        {"reason": "commander adding support", "value": 1}
    ]
    # Its company's commander lost: none, though another company's stands beside it.
    stand(state, "a.commander.2").alive = False
    assert mods_of(state, "attacker", "a.rifle_squad.2") == []


def test_dead_commander_adds_no_support() -> None:
    state = commander_state((18, 20))
    stand(state, "a.commander.1").alive = False
    assert mods_of(state, "attacker", "a.rifle_squad.1") == []


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("light_tank", {"reason": "tank", "value": 3}),
        ("medium_tank", {"reason": "tank", "value": 3}),
        ("heavy_tank", {"reason": "tank", "value": 3}),
        ("tracked_vehicle", {"reason": "other vehicle", "value": 1}),
        ("wheeled_vehicle", {"reason": "other vehicle", "value": 1}),
    ],
)
def test_vehicle_modifiers(unit: str, expected: dict) -> None:
    state = make_state(attacker={unit: 1})
    assert mods_of(state, "attacker", f"a.{unit}.1") == [expected]


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (OK, []),
        (PINNED, [{"reason": "pinned", "value": -1}]),
        (SUPPRESSED, [{"reason": "suppressed", "value": -2}]),
    ],
)
def test_state_modifier_of_the_lead_stand(status: int, expected: list[dict]) -> None:
    state = make_state()
    stand(state, "d.rifle_squad.1").status = status
    assert mods_of(state, "defender", "d.rifle_squad.1") == expected


def test_modifiers_add_up_each_with_its_reason() -> None:
    state = make_state(
        defender={"commander": 1, "small_mortar": 1, "rifle_squad": 1}, defender_quality="raw"
    )
    place(stand(state, "d.small_mortar.1"), 18, 18, status=SUPPRESSED)
    place(stand(state, "d.rifle_squad.1"), 20, 18)
    place(stand(state, "d.commander.1"), 19, 17)  # 1.4" behind the two in contact
    assert mods_of(state, "defender", "d.small_mortar.1", "d.rifle_squad.1") == [
        {"reason": "crew served weapon", "value": -2},
        {"reason": "raw troops", "value": -1},
        {"reason": "additional squads in contact", "value": 1},
        {"reason": "commander adding support", "value": 1},
        {"reason": "suppressed", "value": -2},
    ]


# --- the fight --------------------------------------------------------------------------


def test_higher_total_wins_and_the_losers_stands_are_all_removed() -> None:
    state = make_state(attacker={"rifle_squad": 1}, defender={"rifle_squad": 3}, dice=[5, 3])
    attacker = place(stand(state, "a.rifle_squad.1"), 18, 19)
    d1 = place(stand(state, "d.rifle_squad.1"), 18, 18)
    d2 = place(stand(state, "d.rifle_squad.2"), 19, 18)
    bystander = stand(state, "d.rifle_squad.3")
    winner = assault(state, [attacker], [d1, d2])
    record = state.log[-1]
    assert winner == "attacker"
    assert attacker.alive and not d1.alive and not d2.alive
    assert bystander.alive  # only the stands in the assault are removed
    assert record["kind"] == "assault"
    assert record["totals"] == {"attacker": 5, "defender": 4}  # 3 +1 for the second stand
    assert record["removed"] == ["d.rifle_squad.1", "d.rifle_squad.2"]
    assert (record["winner"], record["dice"], record["rolls"]) == (
        "attacker",
        [5, 3],
        [{"attacker": 5, "defender": 3}],
    )


def test_defender_with_the_higher_total_removes_every_attacker() -> None:
    state = make_state(dice=[4, 6])
    a1 = place(stand(state, "a.rifle_squad.1"), 18, 19)
    a2 = place(stand(state, "a.rifle_squad.2"), 17, 18)
    defender = place(stand(state, "d.rifle_squad.1"), 18, 18)
    assert assault(state, [a1, a2], [defender]) == "defender"
    assert not a1.alive and not a2.alive and defender.alive
    record = state.log[-1]
    assert record["removed"] == ["a.rifle_squad.1", "a.rifle_squad.2"]
    assert record["totals"] == {"attacker": 5, "defender": 6}


def test_modifiers_can_beat_the_higher_die() -> None:
    # Veteran (+1) against a pinned (-1) raw (-1) defender: 2 + 1 = 3 beats 4 - 2 = 2.
    state = make_state(attacker_quality="veteran", defender_quality="raw", dice=[2, 4])
    attacker = place(stand(state, "a.rifle_squad.1"), 18, 19)
    defender = place(stand(state, "d.rifle_squad.1"), 18, 18, status=PINNED)
    assert assault(state, [attacker], [defender]) == "attacker"
    record = state.log[-1]
    assert record["modifiers"] == {
        "attacker": [{"reason": "veteran troops", "value": 1}],
        "defender": [{"reason": "raw troops", "value": -1}, {"reason": "pinned", "value": -1}],
    }
    assert record["totals"] == {"attacker": 3, "defender": 2}


def test_a_tie_is_rolled_again_and_both_rolls_are_logged() -> None:
    # Veteran +1: 3 + 1 ties the trained defender's 4; the second roll 2 v 1 decides it.
    state = make_state(attacker_quality="veteran", dice=[3, 4, 2, 1])
    attacker = place(stand(state, "a.rifle_squad.1"), 18, 19)
    defender = place(stand(state, "d.rifle_squad.1"), 18, 18)
    assert assault(state, [attacker], [defender]) == "attacker"
    record = state.log[-1]
    assert record["rolls"] == [{"attacker": 3, "defender": 4}, {"attacker": 2, "defender": 1}]
    assert record["dice"] == [3, 4, 2, 1]
    assert record["totals"] == {"attacker": 3, "defender": 1}
    assert state.roller.dice_rolled == 4
    assert not defender.alive


def test_ties_are_rolled_again_as_often_as_they_come() -> None:
    state = make_state(dice=[2, 2, 5, 5, 6, 6, 1, 3])
    attacker = place(stand(state, "a.rifle_squad.1"), 18, 19)
    defender = place(stand(state, "d.rifle_squad.1"), 18, 18)
    assert assault(state, [attacker], [defender]) == "defender"
    assert len(state.log[-1]["rolls"]) == 4
    assert state.roller.unused == []


@pytest.mark.parametrize(
    ("extra_stands", "quality", "attacker_status", "defender_status", "net"),
    [
        (0, "trained", OK, OK, 0),
        (1, "trained", OK, OK, 1),
        (0, "raw", OK, OK, -1),
        (0, "raw", SUPPRESSED, OK, -3),
        (2, "veteran", OK, PINNED, 4),
        (0, "trained", PINNED, SUPPRESSED, 1),
    ],
)
def test_every_first_roll_gives_the_exact_opposed_chance(
    extra_stands: int, quality: str, attacker_status: int, defender_status: int, net: int
) -> None:
    """Over all 36 first rolls, the share the attacker wins of those not tied is exactly
    the chance the AI computes for that difference of modifiers."""
    wins = decided = 0
    for first in product(range(1, 7), repeat=2):
        state = make_state(
            attacker={"rifle_squad": extra_stands + 1},
            attacker_quality=quality,
            dice=[*first, 6, 1],  # a tie is settled by a second roll
        )
        attackers = [place(s, 18, 19) for s in state.attacker.stands]
        attackers[0].status = attacker_status
        defender = place(stand(state, "d.rifle_squad.1"), 18, 18, status=defender_status)
        winner = assault(state, attackers, [defender])
        record = state.log[-1]
        totals = record["totals"]
        assert (
            totals["attacker"]
            - record["rolls"][-1]["attacker"]
            - (totals["defender"] - record["rolls"][-1]["defender"])
            == net
        )
        if len(record["rolls"]) == 1:
            decided += 1
            wins += winner == "attacker"
    assert Fraction(wins, decided) == opposed_d6_win(net)


# --- commanders, snipers and FOs caught in contact --------------------------------------


FRAGILE = [
    ("commander", {"commander": 1, "rifle_squad": 2}, False, "d.commander.1"),
    ("forward_observer", {"forward_observer": 1, "rifle_squad": 2}, False, "d.forward_observer.1"),
    ("sniper", {"rifle_squad": 3}, True, "d.sniper.1"),
]


@pytest.mark.parametrize(("unit", "stands", "sniper", "fragile_id"), FRAGILE)
def test_fragile_stand_caught_without_a_friend_within_two_inches_dies_before_any_roll(
    unit: str, stands: dict, sniper: bool, fragile_id: str
) -> None:
    state = make_state(defender=stands, sniper=sniper)  # no dice scripted: none may be rolled
    fragile = place(stand(state, fragile_id), 18, 18)
    attacker = place(stand(state, "a.rifle_squad.1"), 18, 19)
    assert assault(state, [attacker], [fragile]) == "attacker"
    caught, fight = state.log[-2:]
    assert caught == {
        "turn": 1,
        "phase": "test",
        "kind": "caught",
        "side": "australian",
        "stand": fragile_id,
        "stand_type": unit,
        "outcome": "destroyed",
        "reason": caught["reason"],
        "dice": [],  # docs/rules.md: every record has a dice list
    }
    assert '2"' in caught["reason"]
    assert not fragile.alive and attacker.alive
    assert (fight["kind"], fight["dice"], fight["winner"], fight["removed"]) == (
        "assault",
        [],
        "attacker",
        [],
    )
    assert state.roller.dice_rolled == 0


@pytest.mark.parametrize(("unit", "stands", "sniper", "fragile_id"), FRAGILE)
def test_fragile_stand_with_a_friend_within_two_inches_fights(
    unit: str, stands: dict, sniper: bool, fragile_id: str
) -> None:
    state = make_state(defender=stands, sniper=sniper, dice=[1, 6])
    fragile = place(stand(state, fragile_id), 18, 18)
    friend = next(s for s in state.defender.stands if s is not fragile)
    place(friend, 18, 16)  # exactly 2" away, not in the assault
    attacker = place(stand(state, "a.rifle_squad.1"), 18, 19)
    assert assault(state, [attacker], [fragile]) == "defender"
    assert [r["kind"] for r in state.log] == ["assault"]
    assert fragile.alive and not attacker.alive
    assert state.log[-1]["dice"] == [1, 6]


def test_a_friend_just_beyond_two_inches_does_not_save_an_observer() -> None:
    state = make_state(defender={"forward_observer": 1, "rifle_squad": 1})
    observer = place(stand(state, "d.forward_observer.1"), 18, 18)
    place(stand(state, "d.rifle_squad.1"), 20, 17)  # 2.24"
    assert not supported(observer)
    assert catch_unsupported(state, [observer]) == []
    assert not observer.alive


def test_an_enemy_or_a_dead_friend_is_no_support() -> None:
    state = make_state(defender={"forward_observer": 1, "rifle_squad": 1})
    observer = place(stand(state, "d.forward_observer.1"), 18, 18)
    place(stand(state, "d.rifle_squad.1"), 18, 17).alive = False
    place(stand(state, "a.rifle_squad.2"), 17, 18)
    assert not supported(observer)


def test_unsupported_attacking_commander_is_caught_and_the_defender_wins() -> None:
    state = make_state(attacker={"commander": 1, "rifle_squad": 1})
    commander = place(stand(state, "a.commander.1"), 18, 19)
    defender = place(stand(state, "d.rifle_squad.1"), 18, 18)
    assert assault(state, [commander], [defender]) == "defender"
    assert not commander.alive and defender.alive
    assert state.log[-1]["outcome"] == "defender wins: no one left to fight"
    assert state.roller.dice_rolled == 0


def test_caught_stand_leaves_the_rest_of_its_side_to_fight() -> None:
    # The FO is caught; the squad beside it (3" away) fights on alone and loses.
    state = make_state(defender={"forward_observer": 1, "rifle_squad": 1}, dice=[6, 2])
    observer = place(stand(state, "d.forward_observer.1"), 15, 18)
    squad = place(stand(state, "d.rifle_squad.1"), 18, 18)
    attacker = place(stand(state, "a.rifle_squad.1"), 16, 19)
    assert assault(state, [attacker], [observer, squad]) == "attacker"
    caught, fight = state.log
    assert caught["stand"] == "d.forward_observer.1"
    assert fight["defenders"] == ["d.forward_observer.1", "d.rifle_squad.1"]
    assert fight["removed"] == ["d.rifle_squad.1"]
    # The squad's total: 2, with no extra-stand bonus for the FO already gone.
    assert fight["totals"] == {"attacker": 6, "defender": 2}
    assert not squad.alive


# --- contact is an assault (issue 13) -------------------------------------------------------
# "Assaults occur when bases to base contact is made."


def test_a_stand_left_in_contact_beside_an_assault_joins_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The plan sends a.rifle_squad.1 at d.rifle_squad.1. a.rifle_squad.2, in no plan
    # that reached its target, ended its move touching d.rifle_squad.1 too, and
    # d.rifle_squad.2 touches it: all four fight one assault (it fought a.1 against d.1,
    # the others left standing in contact).
    from rules.ending import BattleOver
    from rules.korona import engine

    state = make_state(attacker={"rifle_squad": 6}, defender={"rifle_squad": 6}, dice=[5, 2])
    target = place(stand(state, "d.rifle_squad.1"), 18, 10)
    place(stand(state, "d.rifle_squad.2"), 20, 9)
    first = place(stand(state, "a.rifle_squad.1"), 18, 11)
    place(stand(state, "a.rifle_squad.2"), 19, 10)
    far = place(stand(state, "d.rifle_squad.3"), 2, 2)
    monkeypatch.setattr(engine.ai, "plan_move", lambda state, force: [(target, [first]), (far, [])])
    with pytest.raises(BattleOver):  # two of six lost: a third
        engine._move_phase(state, state.attacker)
    [record] = [r for r in state.log if r["kind"] == "assault"]
    assert record["attackers"] == ["a.rifle_squad.1", "a.rifle_squad.2"]
    assert record["defenders"] == ["d.rifle_squad.1", "d.rifle_squad.2"]
    assert record["modifiers"]["attacker"] == [
        {"reason": "additional squads in contact", "value": 1}
    ]
    assert record["winner"] == "attacker"  # 5 + 1 against 2 + 1
    assert not stand(state, "d.rifle_squad.2").alive
