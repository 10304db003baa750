"""The unit profiles against the "WWII in the Pacific" firing, movement and armour tables."""

from __future__ import annotations

import pytest

from rules.units import (
    MOVEMENT,
    OFF_TABLE_ARTILLERY,
    QUALITY_ASSAULT,
    QUALITY_INITIATIVE,
    RALLY_TARGET,
    STAND_TYPES,
    UNIT_TYPES,
    MoveClass,
    Quality,
    movement_allowance,
)


# The firing table: unit, number of dice, range (minimum, maximum; None = no limit).
@pytest.mark.parametrize(
    ("name", "dice", "min_range", "max_range"),
    [
        ("rifle_squad", 3, 0, 15),
        ("commander", 2, 0, 6),
        ("sniper", 3, 0, 18),
        ("hmg", 4, 0, 24),
        ("small_mortar", 3, 6, 18),
        ("medium_mortar", 4, 6, 24),
        ("at_gun", 1, 0, 32),
        ("heavy_artillery", 5, 0, 36),
        ("air_strafing", 3, 0, None),
        ("air_bombing", 5, 0, None),
    ],
)
def test_firing_table(name: str, dice: int, min_range: int, max_range: int | None) -> None:
    unit = UNIT_TYPES[name]
    assert (unit.fire_dice, unit.min_range_in, unit.range_in) == (dice, min_range, max_range)


def test_off_table_artillery_fires_five_dice_with_no_range_limit() -> None:
    assert OFF_TABLE_ARTILLERY.fire_dice == 5
    assert OFF_TABLE_ARTILLERY.range_in is None
    assert OFF_TABLE_ARTILLERY.gun_attack == 5


def test_only_snipers_kill_on_sixes() -> None:
    assert [name for name, unit in UNIT_TYPES.items() if unit.sniper] == ["sniper"]


@pytest.mark.parametrize(
    ("move_class", "good", "rough", "bad"),
    [
        (MoveClass.LEADER, 6, 4, 3),
        (MoveClass.INFANTRY, 6, 4, 3),
        (MoveClass.MAN_PACKED, 4, 2, 1),
        (MoveClass.WHEELED, 12, None, None),
        (MoveClass.TRACKED, 8, 2, None),
    ],
)
def test_movement_table(
    move_class: MoveClass, good: int, rough: int | None, bad: int | None
) -> None:
    assert MOVEMENT[move_class] == (good, rough, bad)


@pytest.mark.parametrize(
    ("name", "move_class"),
    [
        ("commander", MoveClass.LEADER),
        ("forward_observer", MoveClass.LEADER),
        ("sniper", MoveClass.LEADER),
        ("rifle_squad", MoveClass.INFANTRY),
        ("hmg", MoveClass.MAN_PACKED),
        ("small_mortar", MoveClass.MAN_PACKED),
        ("wheeled_vehicle", MoveClass.WHEELED),
        ("tracked_vehicle", MoveClass.TRACKED),
        ("light_tank", MoveClass.TRACKED),
    ],
)
def test_each_stand_moves_on_its_row_of_the_table(name: str, move_class: MoveClass) -> None:
    assert UNIT_TYPES[name].move_class is move_class


def test_movement_allowance_reads_the_row_by_going() -> None:
    rifle, jeep = UNIT_TYPES["rifle_squad"], UNIT_TYPES["wheeled_vehicle"]
    assert [movement_allowance(rifle, going) for going in range(3)] == [6, 4, 3]
    assert [movement_allowance(jeep, going) for going in range(3)] == [12, None, None]


@pytest.mark.parametrize(
    ("name", "attack"),
    [
        ("at_gun", 3),
        ("heavy_artillery", 5),
        ("light_tank", 3),
        ("medium_tank", 4),
        ("heavy_tank", 5),
    ],
)
def test_gun_attack_values(name: str, attack: int) -> None:
    assert UNIT_TYPES[name].gun_attack == attack


@pytest.mark.parametrize(
    ("name", "defence"), [("light_tank", 8), ("medium_tank", 9), ("heavy_tank", 10)]
)
def test_tank_defence_values(name: str, defence: int) -> None:
    assert UNIT_TYPES[name].defence == defence
    assert UNIT_TYPES[name].armoured


def test_soft_stands_are_not_armoured() -> None:
    soft = [n for n in STAND_TYPES if not UNIT_TYPES[n].armoured]
    assert "rifle_squad" in soft and "tracked_vehicle" in soft and "light_tank" not in soft


@pytest.mark.parametrize(
    ("name", "modifier"),
    [
        ("hmg", -2),
        ("small_mortar", -2),
        ("medium_mortar", -2),
        ("at_gun", -2),
        ("heavy_artillery", -2),
        ("light_tank", 3),
        ("heavy_tank", 3),
        ("wheeled_vehicle", 1),
        ("tracked_vehicle", 1),
        ("rifle_squad", 0),
        ("commander", 0),
    ],
)
def test_assault_modifier_by_type(name: str, modifier: int) -> None:
    assert UNIT_TYPES[name].assault_modifier == modifier


def test_heavy_and_man_packed_weapons_fire_only_unmoved() -> None:
    unmoved_only = {n for n in STAND_TYPES if UNIT_TYPES[n].fires_only_unmoved}
    assert unmoved_only == {"hmg", "small_mortar", "medium_mortar", "at_gun", "heavy_artillery"}


def test_commanders_snipers_and_observers_are_fragile_in_contact() -> None:
    fragile = {n for n in STAND_TYPES if UNIT_TYPES[n].fragile_in_contact}
    assert fragile == {"commander", "sniper", "forward_observer"}


def test_quality_tables() -> None:
    assert QUALITY_INITIATIVE == {Quality.VETERAN: 3, Quality.TRAINED: 4, Quality.RAW: 5}
    assert RALLY_TARGET == {Quality.RAW: (5, 6), Quality.TRAINED: (4, 5), Quality.VETERAN: (3, 4)}
    assert QUALITY_ASSAULT == {Quality.RAW: -1, Quality.TRAINED: 0, Quality.VETERAN: 1}


def test_off_table_support_is_not_a_stand_type() -> None:
    assert "air_strafing" not in STAND_TYPES
    assert "air_bombing" not in STAND_TYPES
    assert "rifle_squad" in STAND_TYPES
