"""Force on Force's numbers, each with the section of the excerpt it comes from.

The excerpt is ``../shared/seeds/001_c71d02a4f58929c8.txt``; the shared rulings (section 5
of ``korona-rulings.md``) map Korona's stands and qualities onto it. Where the excerpt is
silent the number is ours: marked "Ruling" here and listed in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.units import Quality

# "Commonly Used Terms": Troop Quality runs D6 (mob) to D12 (rare individuals); 1.3 "Troop
# Quality may range from D6 to D12". A die shift moves along this ladder.
DIE_LADDER: tuple[int, ...] = (6, 8, 10, 12)
TOP_DIE = 12  # 1.3: no Troop Quality above D12; a positive shift stops there

# 1.1 The Nearly Universal Mechanic: a 4+ on the die is a success.
SUCCESS = 4
# 1.1: an unmodified "1" on a Troop Quality check triggers Fog of War.
FOG_OF_WAR_FACE = 1

# Shared rulings section 5: Korona quality -> Troop Quality die.
TROOP_QUALITY: dict[Quality, int] = {Quality.RAW: 6, Quality.TRAINED: 8, Quality.VETERAN: 10}
# Shared rulings section 5: the Morale die by side (the setting).
MORALE_DIE: dict[str, int] = {"australian": 8, "japanese": 10}

# Shared rulings section 5: a Korona stand is a unit of 4 figures.
FIGURES_PER_STAND = 4

# 1.3 Confidence: Low, Confident (the default) or High.
CONFIDENCE_LEVELS: tuple[str, ...] = ("low", "confident", "high")
# 1.3 Supplies: Poor loses a die of Firepower, Abundant gains one; 3.1 repeats both.
SUPPLY_FIREPOWER: dict[str, int] = {"poor": -1, "normal": 0, "abundant": 1}

# 1.4 Unit cohesion: figures within 1" (2" holding a defensive position). Ruling: a unit
# is one stand, so its figures are always in cohesion; units merge within 2" of each other.
COHESION_IN = 1.0
DEFENSIVE_COHESION_IN = 2.0
MERGE_DISTANCE_IN = 2.0
# 1.5 Leaders: a leader's morale replaces the unit's when they see each other. Ruling: the
# commander stand is the leader, of one shift better Morale than its force, and lends it
# to units within 6" (Korona's command radius) that it can see.
LEADER_MORALE_SHIFT = 1
LEADER_REACH_IN = 6.0

# 2.1 Tactical and 2.2 Rapid movement, inches in the open.
TACTICAL_MOVE_IN: dict[str, int] = {"infantry": 6, "mounted": 8, "vehicle": 10}
RAPID_MOVE_IN: dict[str, int] = {"infantry": 12, "mounted": 16, "vehicle": 20}
RAPID_REACTION_MODIFIER = -1  # 2.2 and 3.12: a unit that moved rapidly, -1 on reaction tests

# 3.1 Firepower modifiers.
OPTIMUM_RANGE_BONUS = 1  # +1 die in Optimum Range
EXPOSED_TARGET_BONUS = 1  # +1 die if the target is Exposed (also 3.9)
RAPID_TARGET_BONUS = 1  # 2.2: +1 die against a unit using Rapid Movement
RAPID_MOVER_PENALTY = -1  # 2.2 and 3.1: -1 die for the rest of the turn after a Rapid move
CLOSE_ASSAULT_DEFENSIVE_FIRE = -1  # 3.1: -1 die in defensive fire against a Close Assault
FIREPOWER_CAP = 10  # 3.1: Infantry Firepower never exceeds 10D; penalties come off the cap

# 3.2 Optimum Range: the Troop Quality die in inches ("D10 ... 10""; 4.1 "within 8" for
# TQ D8"); support weapons and enhanced optics double it.
OPTICS_RANGE_FACTOR = 2

# 3.3 Support weapon dice by the firer's movement this turn; None: may not fire.
SUPPORT_DICE: dict[str, dict[str, int | None]] = {
    "light": {"none": 1, "tactical": 1, "rapid": 1},
    "medium": {"none": 2, "tactical": 1, "rapid": 0},
    "heavy": {"none": 3, "tactical": 1, "rapid": None},
}
# 3.3 (*) and 3.7: medium and heavy support weapons always use suppression fire.
ALWAYS_SUPPRESSING = frozenset({"medium", "heavy"})

# 3.3 Other weapons: dice (or a die shift) by range band. "d6" = fire with D6.
SMALL_ARMS: dict[str, dict[str, int | str | None]] = {
    "assault": {"close_assault": 0, "optimum": 0, "beyond": 0},  # the default, no entry
    "smg": {"close_assault": 1, "optimum": 1, "beyond": "d6"},
    "bolt": {"close_assault": 0, "optimum": -1, "beyond": -1},
    "handgun": {"close_assault": 1, "optimum": "shift-1", "beyond": None},
}

# 3.6 Splitting fire: targets a unit may engage, by Troop Quality die.
SPLIT_FIRE_TARGETS: dict[int, int] = {6: 1, 8: 2, 10: 3, 12: 4}

# 3.7 Suppression Fire: 2 dice fewer (not for medium or heavy support weapons).
SUPPRESSION_FIRE_PENALTY = -2
SUPPRESSION_MIN_FIREPOWER = 3  # 3.7: Confident units test only against 3+ modified dice
LOW_CONFIDENCE_SUPPRESSION_SHIFT = -1  # 3.7: Low Confidence test at -1 die shift

# 3.9 Cover dice; 3.10 Armour dice.
COVER_DICE: dict[str, int] = {
    "in_cover": 1,
    "solid": 1,
    "smoke": 1,  # also 4.6: units in smoke gain +1D for defence
    "improved": 2,
    "fortified": 3,
    "reinforced": 4,
}
ARMOUR_DICE: dict[str, int] = {"none": 0, "light": 1, "heavy": 2}
EXPOSED_DISTANCE_IN = 2.0  # 3.9: open ground not within 2" of cover is Exposed
MIN_DEFENCE_DICE = 1  # 3.8 and 3.9: Defense can never be reduced to zero

# 3.12 Reaction test modifiers.
OVERWATCH_REACTION_MODIFIER = 1

# 4.1 Ambush: hidden units spring ambushes within twice their unmodified TQ in inches.
AMBUSH_RANGE_FACTOR = 2
# 4.2 Spotting modifiers (cumulative).
SPOT_RAPID_DETECTOR = -1
SPOT_STEALTHY_HIDDEN = -1
SPOT_CAMOUFLAGED = -1
SPOT_STEALTHY_DETECTOR = 1
SPOT_VEHICLE_OR_GUN = 1
SPOT_OPTICS = 1
# 4.4 Night: without night vision, optimum range halved, firepower halved beyond it.
NIGHT_RANGE_DIVISOR = 2
NIGHT_FIREPOWER_DIVISOR = 2
# 4.5 Suppressed weapons lose one firepower die.
SUPPRESSED_WEAPON_PENALTY = -1
# 4.6 Outgunned: +1 die; an Intimidating Weapon has unmodified firepower 3D or more.
OUTGUNNED_BONUS = 1
INTIMIDATING_FIREPOWER = 3
# 4.6 Smoke: +1D defence in smoke (COVER_DICE["smoke"]), -1D firing out of it.
FIRING_OUT_OF_SMOKE = -1

# 5.1 Who Got Hit: unit size -> (die, highest face hitting the Leader, highest face hitting
# the Special Weapon); higher faces hit any other figure. The excerpt's 7-8 row is cut
# off. Ruling: 7-8 figures roll a D8, 1 leader, 2 special weapon, 3-8 other.
WHO_GOT_HIT: dict[int, tuple[int, int, int]] = {
    2: (6, 3, 6),  # L/S/O 1-3, S/O 4-6: a two-figure unit has no "other" figure
    3: (6, 2, 4),
    4: (8, 2, 4),
    5: (10, 2, 4),
    6: (6, 1, 2),
    7: (8, 1, 2),  # ruling
    8: (8, 1, 2),  # ruling
}

# 5.2 Morale check points: unmodified firepower that forces a check.
MORALE_CHECK_FIREPOWER_ALL = 4  # all troops, fired on by a weapon of 4D+
MORALE_CHECK_FIREPOWER_CONFIDENT = 3  # Confident troops, by a support weapon of 3D+
# Ruling (5.2 is silent on the size of the check): one Morale die per healthy figure.

# 5.3 First Aid, d6 -> result; the advanced table moves the bands down.
FIRST_AID_STANDARD: dict[int, str] = {
    1: "dead",
    2: "serious",
    3: "serious",
    4: "light",
    5: "light",
    6: "ok",
}
FIRST_AID_ADVANCED: dict[int, str] = {
    1: "dead",
    2: "serious",
    3: "light",
    4: "light",
    5: "ok",
    6: "ok",
}


@dataclass(frozen=True, slots=True)
class FogOfWarEvent:
    face: int
    key: str
    text: str


# 1.1: a natural 1 on a TQ check draws a Fog of War card. The excerpt gives no cards:
# this d6 table is ours, and deliberately small (each effect lasts the turn at most).
FOG_OF_WAR_TABLE: tuple[FogOfWarEvent, ...] = (
    FogOfWarEvent(1, "jammed", "A support weapon jams: no support dice for the rest of the turn"),
    FogOfWarEvent(2, "low_ammo", "Ammunition runs low: one firepower die fewer this turn"),
    FogOfWarEvent(3, "lost_contact", "Orders go astray: the unit does nothing more this turn"),
    FogOfWarEvent(4, "second_wind", "A second wind: the unit shakes off Pinned or Suppressed"),
    FogOfWarEvent(5, "nerves", "A rumour of encirclement: the unit is Pinned"),
    FogOfWarEvent(6, "none", "The moment passes"),
)


@dataclass(frozen=True, slots=True)
class Profile:
    """How a Korona stand fights under Force on Force (rulings: the excerpt has no WWII
    stands). ``mover`` is the 2.1/2.2 row; ``korona_scale`` scales it by the going."""

    support: str | None  # light / medium / heavy support weapon, 3.3
    small_arms: str | None  # bolt rifles; None: a weapons team fights with its weapon only
    mover: str | None  # infantry / vehicle; None: emplaced, never moves
    fires: bool = True
    optics: bool = False  # 3.2: doubles the optimum range
    always_optimum: bool = False  # 3.2: vehicle-mounted or emplaced: always in optimum range
    stealthy: bool = False  # 4.2: sets up hidden
    armour: str = "none"  # 3.10
    leader: bool = False  # 1.5
    vehicle_or_gun: bool = False  # 4.2: +1 to spot it


# Rulings: Korona stand type -> Force on Force profile (see docs/rules.md).
PROFILES: dict[str, Profile] = {
    "commander": Profile(None, "bolt", "infantry", leader=True),
    "forward_observer": Profile(None, None, "infantry", fires=False),
    "sniper": Profile(None, "bolt", "infantry", optics=True, stealthy=True),
    "rifle_squad": Profile("light", "bolt", "infantry"),  # a Bren or Type 96/99 LMG
    "hmg": Profile("heavy", None, "infantry"),
    "small_mortar": Profile("light", None, "infantry"),  # "very light mortars", 3.3
    "medium_mortar": Profile("medium", None, "infantry"),
    "at_gun": Profile("heavy", None, None, always_optimum=True, vehicle_or_gun=True),
    "heavy_artillery": Profile("heavy", None, None, always_optimum=True, vehicle_or_gun=True),
    "wheeled_vehicle": Profile(None, None, "vehicle", fires=False, vehicle_or_gun=True),
    "tracked_vehicle": Profile(None, None, "vehicle", fires=False, vehicle_or_gun=True),
    "light_tank": Profile(
        "heavy", None, "vehicle", always_optimum=True, armour="light", vehicle_or_gun=True
    ),
    "medium_tank": Profile(
        "heavy", None, "vehicle", always_optimum=True, armour="heavy", vehicle_or_gun=True
    ),
    "heavy_tank": Profile(
        "heavy", None, "vehicle", always_optimum=True, armour="heavy", vehicle_or_gun=True
    ),
}
