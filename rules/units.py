"""The unit types every rule set shares, with their Korona profiles.

The names are the vocabulary of the whole product: a company's stands, a BATTLE.json
``stands`` map and a battle's losses are all keyed by them. The numbers are the Korona
firing, movement and armour tables ("WWII in the Pacific" rules); rulings where the text
is silent are marked and collected in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Quality(StrEnum):
    RAW = "raw"
    TRAINED = "trained"
    VETERAN = "veteran"


class MoveClass(StrEnum):
    """The rows of the movement table."""

    LEADER = "leader"  # commanders, FOs, snipers
    INFANTRY = "infantry"
    MAN_PACKED = "man_packed"  # man-packed weapons (and, by ruling, limbered heavy weapons)
    WHEELED = "wheeled"
    TRACKED = "tracked"
    STATIC = "static"  # off-table support: never on the table


# Inches per move by going (good, rough, bad); None = may not enter that going.
MOVEMENT: dict[MoveClass, tuple[int | None, int | None, int | None]] = {
    MoveClass.LEADER: (6, 4, 3),
    MoveClass.INFANTRY: (6, 4, 3),
    MoveClass.MAN_PACKED: (4, 2, 1),
    MoveClass.WHEELED: (12, None, None),
    MoveClass.TRACKED: (8, 2, None),
    MoveClass.STATIC: (None, None, None),
}

# Attack values of guns against armour: light (up to 50 mm) 3, medium (51-75 mm) 4,
# heavy (76 mm up) 5.
LIGHT_GUN, MEDIUM_GUN, HEAVY_GUN = 3, 4, 5


@dataclass(frozen=True, slots=True)
class UnitType:
    name: str
    label: str
    move_class: MoveClass
    fire_dice: int  # dice against soft targets; 0 = does not fire
    range_in: float | None  # None = no limit
    min_range_in: float = 0.0
    sniper: bool = False  # each 6 is a hit, at most one kill a shot
    crew_served: bool = False  # -2 in assault, may not start one
    fires_only_unmoved: bool = False  # heavy and man-packed weapons
    limbers: bool = False  # limbering and unlimbering each take a move
    gun_attack: int | None = None  # may shoot at armour: 1 die at 4+, then 2d6 + this
    defence: int | None = None  # armoured: only guns can hurt it
    assault_modifier: int = 0  # crew served -2, tank +3, other vehicles +1
    commander: bool = False
    observer: bool = False
    off_table: bool = False  # fire missions only, never a stand on the table

    @property
    def armoured(self) -> bool:
        return self.defence is not None

    @property
    def fragile_in_contact(self) -> bool:
        """Commanders, snipers and FOs die when caught in contact without support."""
        return self.commander or self.observer or self.sniper


_TYPES = (
    UnitType("commander", "Commander", MoveClass.LEADER, 2, 6, commander=True),
    UnitType("forward_observer", "Forward Observer", MoveClass.LEADER, 0, None, observer=True),
    UnitType("sniper", "Sniper", MoveClass.LEADER, 3, 18, sniper=True),
    UnitType("rifle_squad", "Rifle squad", MoveClass.INFANTRY, 3, 15),
    UnitType(
        "hmg",
        "HMG",
        MoveClass.MAN_PACKED,
        4,
        24,
        crew_served=True,
        fires_only_unmoved=True,
        assault_modifier=-2,
    ),
    UnitType(
        "small_mortar",
        "Small mortar",
        MoveClass.MAN_PACKED,
        3,
        18,
        min_range_in=6,
        crew_served=True,
        fires_only_unmoved=True,
        assault_modifier=-2,
    ),
    UnitType(
        "medium_mortar",
        "Medium/heavy mortar",
        MoveClass.MAN_PACKED,
        4,
        24,
        min_range_in=6,
        crew_served=True,
        fires_only_unmoved=True,
        limbers=True,
        assault_modifier=-2,
    ),
    UnitType(
        "at_gun",
        "AT gun",
        MoveClass.MAN_PACKED,
        1,
        32,
        crew_served=True,
        fires_only_unmoved=True,
        limbers=True,
        gun_attack=LIGHT_GUN,
        assault_modifier=-2,
    ),
    UnitType(
        "heavy_artillery",
        "Heavy artillery",
        MoveClass.MAN_PACKED,
        5,
        36,
        crew_served=True,
        fires_only_unmoved=True,
        limbers=True,
        gun_attack=HEAVY_GUN,
        assault_modifier=-2,
    ),
    UnitType("wheeled_vehicle", "Wheeled vehicle", MoveClass.WHEELED, 0, None, assault_modifier=1),
    UnitType("tracked_vehicle", "Tracked vehicle", MoveClass.TRACKED, 0, None, assault_modifier=1),
    # Tanks fire their machine guns at soft targets as an HMG does (ruling) and their gun
    # at armour; they are vehicles, not man-packed weapons, so they may move and fire.
    UnitType(
        "light_tank",
        "Light tank",
        MoveClass.TRACKED,
        4,
        24,
        gun_attack=LIGHT_GUN,
        defence=8,
        assault_modifier=3,
    ),
    UnitType(
        "medium_tank",
        "Medium tank",
        MoveClass.TRACKED,
        4,
        24,
        gun_attack=MEDIUM_GUN,
        defence=9,
        assault_modifier=3,
    ),
    UnitType(
        "heavy_tank",
        "Heavy tank",
        MoveClass.TRACKED,
        4,
        24,
        gun_attack=HEAVY_GUN,
        defence=10,
        assault_modifier=3,
    ),
    # A supply company's stands: they carry, never fight, and are never on a battle table.
    UnitType("carrier", "Carriers", MoveClass.INFANTRY, 0, None),
    # Off-table support: fire missions called in by an FO or a commander.
    UnitType(
        "air_strafing",
        "Air support: strafing",
        MoveClass.STATIC,
        3,
        None,
        off_table=True,
    ),
    UnitType(
        "air_bombing",
        "Air support: bombing",
        MoveClass.STATIC,
        5,
        None,
        off_table=True,
        gun_attack=HEAVY_GUN,
    ),
)

UNIT_TYPES: dict[str, UnitType] = {unit.name: unit for unit in _TYPES}
# The types a company can field as stands on the table, in the order reports list them.
STAND_TYPES: tuple[str, ...] = tuple(unit.name for unit in _TYPES if not unit.off_table)

# Off-table heavy artillery fires as the on-table piece does, with no range limit.
OFF_TABLE_ARTILLERY = UnitType(
    "heavy_artillery",
    "Off-table heavy artillery",
    MoveClass.STATIC,
    5,
    None,
    off_table=True,
    gun_attack=HEAVY_GUN,
)

QUALITY_INITIATIVE = {Quality.VETERAN: 3, Quality.TRAINED: 4, Quality.RAW: 5}
# Rally targets: (pinned, suppressed).
RALLY_TARGET = {Quality.RAW: (5, 6), Quality.TRAINED: (4, 5), Quality.VETERAN: (3, 4)}
QUALITY_ASSAULT = {Quality.RAW: -1, Quality.TRAINED: 0, Quality.VETERAN: 1}


def movement_allowance(unit: UnitType, going_index: int) -> int | None:
    """Inches a stand of this type may move in the given going (0 good, 1 rough, 2 bad)."""
    return MOVEMENT[unit.move_class][going_index]
