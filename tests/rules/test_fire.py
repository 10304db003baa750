"""Fire: hits on 5-6, pinned / suppressed / killed, the 4-hit blast, snipers, the knee
mortar's impact fuse and shooting at armour, each with the dice scripted."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.korona.fire import (
    KILLED,
    can_harm,
    dice_for,
    effect_of_hits,
    fire,
    impact_fuse_applies,
    in_range,
)
from rules.korona.state import OK, PINNED, SUPPRESSED, BattleState, Stand
from rules.probability import HIT, at_least
from rules.units import OFF_TABLE_ARTILLERY, UNIT_TYPES
from tests.rules.conftest import ScriptedRoller, make_state, place, stand, table

STATES = {"ok": OK, "pinned": PINNED, "suppressed": SUPPRESSED}
# The table a test draws for woods: heavy woods, light woods and open ground on row 0.
WOODS = table(".h .l .-", ".- .- .-", ".- .- .-")


def shoot(state: BattleState, firer_id: str, target: Stand, *, obscured: bool = False):
    firer = stand(state, firer_id)
    return fire(
        state,
        side=firer.force.side,
        firer=firer.id,
        firer_type=firer.unit.name,
        weapon=firer.unit,
        target=target,
        obscured=obscured,
    )


# --- the effect of hits -----------------------------------------------------------------

# What one fire action scoring ``hits`` leaves a unit in each state as (text and rulings):
# 1 hit pins, 2 suppress, 3 or more kill; a pinned unit hit once stays pinned; a
# suppressed unit suppressed again is killed; nothing ever improves a unit's state.
EFFECT_TABLE = {
    OK: [OK, PINNED, SUPPRESSED, KILLED, KILLED, KILLED],
    PINNED: [PINNED, PINNED, SUPPRESSED, KILLED, KILLED, KILLED],
    SUPPRESSED: [SUPPRESSED, SUPPRESSED, KILLED, KILLED, KILLED, KILLED],
}


@pytest.mark.parametrize("status", [OK, PINNED, SUPPRESSED])
@pytest.mark.parametrize("hits", range(6))
def test_effect_of_hits_table(status: int, hits: int) -> None:
    assert effect_of_hits(status, hits) == EFFECT_TABLE[status][hits]


def test_unhurt_unit_hit_once_is_pinned() -> None:
    assert effect_of_hits(OK, 1) == PINNED


def test_pinned_unit_hit_once_stays_pinned() -> None:
    assert effect_of_hits(PINNED, 1) == PINNED


def test_pinned_unit_hit_twice_is_suppressed() -> None:
    assert effect_of_hits(PINNED, 2) == SUPPRESSED


def test_suppressed_unit_suppressed_again_is_killed() -> None:
    assert effect_of_hits(SUPPRESSED, 2) == KILLED


def test_suppressed_unit_hit_once_stays_suppressed() -> None:
    assert effect_of_hits(SUPPRESSED, 1) == SUPPRESSED


@pytest.mark.parametrize("status", [OK, PINNED, SUPPRESSED])
def test_three_hits_kill_whatever_the_state(status: int) -> None:
    assert effect_of_hits(status, 3) == KILLED


@pytest.mark.parametrize("status", [OK, PINNED, SUPPRESSED])
@pytest.mark.parametrize("hits", range(1, 6))
def test_pin_only_hits_never_do_more_than_pin(status: int, hits: int) -> None:
    assert effect_of_hits(status, hits, pin_only=True) == max(status, PINNED)


@given(status=st.sampled_from([OK, PINNED, SUPPRESSED]), hits=st.integers(-2, 20))
def test_effect_of_hits_never_improves_a_state(status: int, hits: int) -> None:
    after = effect_of_hits(status, hits)
    assert after >= status
    assert effect_of_hits(status, hits, pin_only=True) >= status
    # More hits are never better for the target.
    assert effect_of_hits(status, hits + 1) >= after


# --- dice and hits ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "hits", "effect"),
    [
        ((1, 2, 3), 0, "none"),
        ((4, 4, 4), 0, "none"),
        ((5, 1, 4), 1, "pinned"),
        ((6, 4, 1), 1, "pinned"),
        ((5, 6, 4), 2, "suppressed"),
        ((6, 5, 5), 3, "killed"),
    ],
)
def test_only_fives_and_sixes_hit(faces: tuple[int, ...], hits: int, effect: str) -> None:
    state = make_state(dice=faces)
    target = stand(state, "d.rifle_squad.1")
    record = shoot(state, "a.rifle_squad.1", target)
    assert record["dice"] == list(faces)
    assert (record["hits"], record["effect"]) == (hits, effect)
    assert target.alive is (effect != "killed")


def test_every_outcome_of_three_dice_gives_the_exact_chances() -> None:
    state = make_state()
    target = stand(state, "d.rifle_squad.1")
    effects: Counter[str] = Counter()
    for faces in product(range(1, 7), repeat=3):
        state.roller = ScriptedRoller(faces)  # type: ignore[assignment]
        target.status, target.alive = OK, True
        record = shoot(state, "a.rifle_squad.1", target)
        assert record["hits"] == sum(face >= 5 for face in faces)
        effects[record["effect"]] += 1
    share = {effect: Fraction(count, 6**3) for effect, count in effects.items()}
    assert share["killed"] == at_least(3, 3, HIT)
    assert share["suppressed"] == at_least(2, 3, HIT) - at_least(3, 3, HIT)
    assert share["pinned"] == at_least(1, 3, HIT) - at_least(2, 3, HIT)
    assert share["none"] == 1 - at_least(1, 3, HIT)


@pytest.mark.parametrize(
    ("firer_type", "dice"),
    [("rifle_squad", 3), ("commander", 2), ("hmg", 4), ("small_mortar", 3)],
)
def test_obscured_target_costs_one_die(firer_type: str, dice: int) -> None:
    state = make_state(attacker={firer_type: 1}, dice=[1] * 10)
    target = stand(state, "d.rifle_squad.1")
    clear = shoot(state, f"a.{firer_type}.1", target)
    obscured = shoot(state, f"a.{firer_type}.1", target, obscured=True)
    assert (len(clear["dice"]), clear["obscured"]) == (dice, False)
    assert (len(obscured["dice"]), obscured["obscured"]) == (dice - 1, True)
    assert state.roller.dice_rolled == 2 * dice - 1


def test_dice_for_never_goes_below_none() -> None:
    assert dice_for(UNIT_TYPES["at_gun"], obscured=True) == 0
    assert dice_for(UNIT_TYPES["forward_observer"], obscured=True) == 0
    assert dice_for(UNIT_TYPES["air_bombing"], obscured=True) == 4


def test_fire_record_carries_every_field() -> None:
    state = make_state(dice=[5, 2, 1])
    state.turn, state.phase = 4, "attacker fire"
    target = stand(state, "d.rifle_squad.2")
    record = shoot(state, "a.rifle_squad.1", target)
    assert record is state.log[-1]
    assert record == {
        "turn": 4,
        "phase": "attacker fire",
        "kind": "fire",
        "side": "japanese",
        "firer": "a.rifle_squad.1",
        "firer_type": "rifle_squad",
        "target": "d.rifle_squad.2",
        "target_type": "rifle_squad",
        "dice": [5, 2, 1],
        "obscured": False,
        "hits": 1,
        "status_before": "ok",
        "effect": "pinned",
    }


# --- four hits: the blast ---------------------------------------------------------------


def test_four_hits_kill_and_suppress_every_stand_within_two_inches() -> None:
    state = make_state(
        attacker={"hmg": 1, "rifle_squad": 3},
        defender={"rifle_squad": 4},
        dice=[5, 6, 5, 6],
    )
    target = place(stand(state, "d.rifle_squad.1"), 18, 18)
    friend_at_two = place(stand(state, "d.rifle_squad.2"), 18, 20)  # exactly 2"
    friend_beyond = place(stand(state, "d.rifle_squad.3"), 20, 19)  # 2.24"
    pinned_friend = place(stand(state, "d.rifle_squad.4"), 16, 18, status=PINNED)
    foe_near = place(stand(state, "a.rifle_squad.1"), 17, 17)  # the firer's own side
    suppressed_foe = place(stand(state, "a.rifle_squad.2"), 19, 18, status=SUPPRESSED)
    place(stand(state, "a.hmg.1"), 18, 30)

    record = shoot(state, "a.hmg.1", target)

    assert (record["hits"], record["effect"]) == (4, "killed")
    assert not target.alive
    assert friend_at_two.alive and friend_at_two.status == SUPPRESSED
    assert pinned_friend.alive and pinned_friend.status == SUPPRESSED
    assert foe_near.alive and foe_near.status == SUPPRESSED
    assert not suppressed_foe.alive  # suppressed again: killed
    assert friend_beyond.alive and friend_beyond.status == OK
    assert sorted(record["blast"], key=lambda c: c["stand"]) == [
        {"stand": "a.rifle_squad.1", "status_before": "ok", "effect": "suppressed"},
        {"stand": "a.rifle_squad.2", "status_before": "suppressed", "effect": "killed"},
        {"stand": "d.rifle_squad.2", "status_before": "ok", "effect": "suppressed"},
        {"stand": "d.rifle_squad.4", "status_before": "pinned", "effect": "suppressed"},
    ]


def test_three_hits_kill_without_a_blast() -> None:
    state = make_state(attacker={"hmg": 1}, dice=[5, 6, 5, 1])
    target = place(stand(state, "d.rifle_squad.1"), 18, 18)
    neighbour = place(stand(state, "d.rifle_squad.2"), 18, 19)
    record = shoot(state, "a.hmg.1", target)
    assert (record["hits"], record["effect"]) == (3, "killed")
    assert "blast" not in record
    assert neighbour.status == OK


def test_four_hits_on_a_suppressed_target_still_blast() -> None:
    state = make_state(attacker={"hmg": 1}, dice=[5, 5, 5, 5])
    target = place(stand(state, "d.rifle_squad.1"), 18, 18, status=SUPPRESSED)
    neighbour = place(stand(state, "d.rifle_squad.2"), 19, 18)
    record = shoot(state, "a.hmg.1", target)
    assert record["status_before"] == "suppressed"
    assert neighbour.status == SUPPRESSED
    assert [c["stand"] for c in record["blast"]] == ["d.rifle_squad.2"]


def test_blast_leaves_tanks_alone() -> None:
    # Ruling: the small-arms blast does not trouble armour.
    state = make_state(attacker={"hmg": 1, "light_tank": 1}, dice=[6, 6, 6, 6])
    target = place(stand(state, "d.rifle_squad.1"), 18, 18)
    tank = place(stand(state, "a.light_tank.1"), 18, 19)
    record = shoot(state, "a.hmg.1", target)
    assert tank.alive and tank.status == OK
    assert record["blast"] == []


# --- snipers ----------------------------------------------------------------------------


def sniper_state(dice: list[int]) -> BattleState:
    state = make_state(
        attacker={"rifle_squad": 3}, defender={"rifle_squad": 2}, sniper=True, dice=dice
    )
    place(stand(state, "d.sniper.1"), 18, 4)
    return state


def test_sniper_hits_only_on_six() -> None:
    state = sniper_state([5, 5, 4])
    target = place(stand(state, "a.rifle_squad.1"), 18, 18)
    record = shoot(state, "d.sniper.1", target)
    assert (record["hits"], record["effect"]) == (0, "none")
    assert target.alive and target.status == OK


@pytest.mark.parametrize("status", [OK, PINNED, SUPPRESSED])
def test_any_six_from_a_sniper_kills_the_target(status: int) -> None:
    state = sniper_state([1, 6, 2])
    target = place(stand(state, "a.rifle_squad.1"), 18, 18, status=status)
    record = shoot(state, "d.sniper.1", target)
    assert (record["hits"], record["effect"]) == (1, "killed")
    assert not target.alive


def test_sniper_kills_exactly_its_target_even_with_three_sixes() -> None:
    state = sniper_state([6, 6, 6])
    target = place(stand(state, "a.rifle_squad.1"), 18, 18)
    beside = place(stand(state, "a.rifle_squad.2"), 19, 18)
    suppressed_beside = place(stand(state, "a.rifle_squad.3"), 17, 18, status=SUPPRESSED)
    record = shoot(state, "d.sniper.1", target)
    assert (record["hits"], record["effect"]) == (3, "killed")
    assert "blast" not in record
    assert not target.alive
    assert beside.alive and beside.status == OK
    assert suppressed_beside.alive and suppressed_beside.status == SUPPRESSED


def test_obscured_sniper_rolls_two_dice() -> None:
    state = sniper_state([6, 1])
    target = stand(state, "a.rifle_squad.1")
    record = shoot(state, "d.sniper.1", target, obscured=True)
    assert record["dice"] == [6, 1]
    assert not target.alive


# --- the impact fuse --------------------------------------------------------------------


def knee_mortar_state(
    dice: list[int], *, side: str = "japanese", impact_fuse: bool = True
) -> BattleState:
    other = "australian" if side == "japanese" else "japanese"
    return make_state(
        attacker={"small_mortar": 1},
        defender={"rifle_squad": 3},
        attacker_side=side,
        defender_side=other,
        field=WOODS,
        dice=dice,
        options={"impact_fuse": impact_fuse},
    )


@pytest.mark.parametrize(("x", "woods"), [(6, "heavy"), (18, "light")])
def test_japanese_knee_mortar_only_pins_in_woods_even_with_three_hits(x: int, woods: str) -> None:
    state = knee_mortar_state([6, 6, 5])
    target = place(stand(state, "d.rifle_squad.1"), x, 6)
    neighbour = place(stand(state, "d.rifle_squad.2"), x + 1, 6)
    record = shoot(state, "a.small_mortar.1", target)
    assert (record["hits"], record["effect"], record["impact_fuse"]) == (3, "pinned", True)
    assert target.alive and target.status == PINNED
    assert neighbour.status == OK


def test_knee_mortar_never_kills_a_suppressed_unit_in_woods() -> None:
    state = knee_mortar_state([6, 6, 6])
    target = place(stand(state, "d.rifle_squad.1"), 6, 6, status=SUPPRESSED)
    record = shoot(state, "a.small_mortar.1", target)
    assert record["effect"] == "suppressed"
    assert target.alive and target.status == SUPPRESSED


def test_japanese_knee_mortar_kills_in_the_open() -> None:
    state = knee_mortar_state([6, 6, 5])
    target = place(stand(state, "d.rifle_squad.1"), 30, 6)
    record = shoot(state, "a.small_mortar.1", target)
    assert record["effect"] == "killed"
    assert "impact_fuse" not in record
    assert not target.alive


def test_australian_small_mortar_kills_in_woods() -> None:
    state = knee_mortar_state([6, 6, 5], side="australian")
    target = place(stand(state, "d.rifle_squad.1"), 6, 6)
    record = shoot(state, "a.small_mortar.1", target)
    assert record["effect"] == "killed"
    assert not target.alive


def test_knee_mortar_kills_in_woods_when_the_impact_fuse_option_is_off() -> None:
    state = knee_mortar_state([6, 6, 5], impact_fuse=False)
    target = place(stand(state, "d.rifle_squad.1"), 6, 6)
    record = shoot(state, "a.small_mortar.1", target)
    assert record["effect"] == "killed"
    assert not target.alive


def test_impact_fuse_is_only_for_the_small_mortar() -> None:
    state = make_state(attacker={"hmg": 1, "small_mortar": 1}, field=WOODS)
    target = place(stand(state, "d.rifle_squad.1"), 6, 6)
    hmg, mortar = UNIT_TYPES["hmg"], UNIT_TYPES["small_mortar"]
    assert impact_fuse_applies(state, "japanese", mortar, target)
    assert not impact_fuse_applies(state, "japanese", hmg, target)
    assert not impact_fuse_applies(state, "australian", mortar, target)


# --- shooting at armour -----------------------------------------------------------------


def armour_state(dice: list[int], *, gun: str = "at_gun", tank: str = "light_tank") -> BattleState:
    return make_state(
        attacker={gun: 1, "rifle_squad": 1},
        defender={tank: 1, "rifle_squad": 2},
        attacker_side="australian",
        defender_side="japanese",
        dice=dice,
    )


def test_at_gun_destroys_a_light_tank_when_2d6_plus_3_reaches_8() -> None:
    state = armour_state([4, 2, 3])
    tank = stand(state, "d.light_tank.1")
    record = shoot(state, "a.at_gun.1", tank)
    assert not tank.alive
    assert record["armour"] == {"to_hit": 4, "penetration": [2, 3], "attack": 3, "defence": 8}
    assert (record["dice"], record["hits"], record["effect"]) == ([4, 2, 3], 1, "killed")


def test_at_gun_bounces_off_a_light_tank_when_2d6_plus_3_is_7() -> None:
    state = armour_state([6, 2, 2])
    tank = stand(state, "d.light_tank.1")
    record = shoot(state, "a.at_gun.1", tank)
    assert tank.alive
    assert record["armour"]["penetration"] == [2, 2]
    assert (record["hits"], record["effect"]) == (1, "none")


def test_a_miss_on_armour_rolls_no_penetration_dice() -> None:
    state = armour_state([3])
    tank = stand(state, "d.light_tank.1")
    record = shoot(state, "a.at_gun.1", tank)
    assert tank.alive
    assert state.roller.dice_rolled == 1
    assert record["armour"] == {"to_hit": 3, "penetration": [], "attack": 3, "defence": 8}
    assert (record["dice"], record["hits"], record["effect"]) == ([3], 0, "none")


def test_armour_is_hit_on_four_or_more() -> None:
    for to_hit, hit in [(1, False), (2, False), (3, False), (4, True), (5, True), (6, True)]:
        state = armour_state([to_hit, 6, 6])
        record = shoot(state, "a.at_gun.1", stand(state, "d.light_tank.1"))
        assert record["hits"] == int(hit)


def test_obscured_armour_still_gets_its_one_die() -> None:
    # Ruling: "one less die" is for the firing table's dice; the gun keeps its one die.
    state = armour_state([5, 3, 2])
    tank = stand(state, "d.light_tank.1")
    record = shoot(state, "a.at_gun.1", tank, obscured=True)
    assert record["obscured"] is True
    assert record["dice"] == [5, 3, 2]
    assert not tank.alive


def test_heavy_artillery_destroys_a_heavy_tank_on_2d6_of_5() -> None:
    state = armour_state([4, 1, 4], gun="heavy_artillery", tank="heavy_tank")
    tank = stand(state, "d.heavy_tank.1")
    record = shoot(state, "a.heavy_artillery.1", tank)
    assert record["armour"] == {"to_hit": 4, "penetration": [1, 4], "attack": 5, "defence": 10}
    assert not tank.alive


def test_rifle_squad_cannot_harm_a_tank() -> None:
    state = armour_state([])
    tank = stand(state, "d.light_tank.1")
    assert not can_harm(UNIT_TYPES["rifle_squad"], tank)
    assert not can_harm(UNIT_TYPES["air_strafing"], tank)
    assert can_harm(UNIT_TYPES["at_gun"], tank)
    assert can_harm(UNIT_TYPES["air_bombing"], tank)
    assert can_harm(OFF_TABLE_ARTILLERY, tank)
    with pytest.raises(ValueError, match="cannot shoot at armour"):
        shoot(state, "a.rifle_squad.1", tank)
    assert state.roller.dice_rolled == 0
    assert tank.alive


def test_only_stands_with_fire_dice_harm_soft_targets() -> None:
    state = make_state()
    target = stand(state, "d.rifle_squad.1")
    assert can_harm(UNIT_TYPES["rifle_squad"], target)
    assert can_harm(UNIT_TYPES["at_gun"], target)
    assert not can_harm(UNIT_TYPES["forward_observer"], target)


# --- range ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "distance", "reached"),
    [
        ("small_mortar", 0, False),
        ("small_mortar", 5.99, False),
        ("small_mortar", 6, True),
        ("small_mortar", 18, True),
        ("small_mortar", 18.01, False),
        ("medium_mortar", 5.99, False),
        ("medium_mortar", 24, True),
        ("medium_mortar", 24.01, False),
        ("hmg", 0, True),
        ("hmg", 24, True),
        ("hmg", 24.01, False),
        ("rifle_squad", 15, True),
        ("rifle_squad", 15.01, False),
        ("commander", 6, True),
        ("commander", 6.01, False),
        ("sniper", 18, True),
        ("sniper", 18.01, False),
        ("at_gun", 32, True),
        ("at_gun", 32.01, False),
        ("air_strafing", 1000, True),
    ],
)
def test_in_range(weapon: str, distance: float, reached: bool) -> None:
    assert in_range(UNIT_TYPES[weapon], distance) is reached


def test_off_table_artillery_reaches_any_distance() -> None:
    assert in_range(OFF_TABLE_ARTILLERY, 10_000)


def test_fire_at_armour_record_has_the_fire_fields_too() -> None:
    state = armour_state([2])
    record = shoot(state, "a.at_gun.1", stand(state, "d.light_tank.1"))
    assert {
        "turn",
        "phase",
        "kind",
        "side",
        "firer",
        "firer_type",
        "target",
        "dice",
        "obscured",
        "hits",
        "effect",
        "armour",
    } <= set(record)
    assert record["kind"] == "fire"
