"""Tests for the battlefield: terrain tables, the generator, going, woods and line of sight."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.battlefield import (
    AREA_VEGETATION,
    SQUARE_IN,
    Battlefield,
    Going,
    Landform,
    Sight,
    Square,
    Vegetation,
    generate_battlefield,
    going_of,
    landform_for_roll,
    vegetation_for_roll,
    worse,
)
from rules.dice import Roller
from tests.rules.conftest import make_state

RIDGES = (
    Landform.STEEP_HIGH_RIDGE,
    Landform.STEEP_LOW_RIDGE,
    Landform.HIGH_RIDGE,
    Landform.LOW_RIDGE,
)

# One letter per landform and one per vegetation, so a test can draw its table.
_LANDFORM_CODES = {
    ".": Landform.FLAT,
    "S": Landform.STEEP_HIGH_RIDGE,
    "s": Landform.STEEP_LOW_RIDGE,
    "R": Landform.HIGH_RIDGE,
    "r": Landform.LOW_RIDGE,
    "H": Landform.HILL,
    "M": Landform.MUD,
    "~": Landform.RIVER,
}
_VEGETATION_CODES = {
    "-": Vegetation.NONE,
    "l": Vegetation.LIGHT_WOODS,
    "h": Vegetation.HEAVY_WOODS,
}


def make_square(col: int, row: int, landform: Landform, vegetation: Vegetation) -> Square:
    return Square(
        col=col,
        row=row,
        landform_dice=(6, 6),
        landform=landform,
        vegetation_die=None,
        vegetation=vegetation,
        going=going_of(landform, vegetation),
    )


def table(*rows: str) -> Battlefield:
    """A battlefield drawn row by row, row 0 (the defender's edge, y = 0) first.

    Each square is two letters, landform then vegetation: ``"R-"`` is a bare high ridge,
    ``".h"`` flat ground under heavy woods.
    """
    squares = tuple(
        tuple(
            make_square(col, row, _LANDFORM_CODES[token[0]], _VEGETATION_CODES[token[1]])
            for col, token in enumerate(line.split())
        )
        for row, line in enumerate(rows)
    )
    return Battlefield(width_ft=len(squares[0]), depth_ft=len(squares), squares=squares)


def two_d6_probability(total: int) -> Fraction:
    """The exact chance of a 2d6 total, in closed form."""
    return Fraction(6 - abs(7 - total), 36)


class ScriptedRoller:
    """Throws the faces it is given, in order, so every outcome can be enumerated."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self._faces = iter(faces)
        self.dice_rolled = 0

    def roll(self, count: int = 1, sides: int = 6) -> tuple[int, ...]:
        self.dice_rolled += count
        return tuple(next(self._faces) for _ in range(count))

    def d6(self) -> int:
        self.dice_rolled += 1
        return next(self._faces)


# --- Tables -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "landform"),
    [
        (2, Landform.STEEP_HIGH_RIDGE),
        (3, Landform.STEEP_HIGH_RIDGE),
        (4, Landform.STEEP_LOW_RIDGE),
        (5, Landform.MUD),
        (6, Landform.HIGH_RIDGE),
        (7, Landform.HIGH_RIDGE),
        (8, Landform.LOW_RIDGE),
        (9, Landform.LOW_RIDGE),
        (10, Landform.RIVER),
        (11, Landform.RIVER),
        (12, Landform.FLAT),
    ],
)
def test_landform_table_reads_six_nine_as_eight_nine(total: int, landform: Landform) -> None:
    assert landform_for_roll(total, plains=False) is landform


@pytest.mark.parametrize(
    ("total", "landform"),
    [
        (2, Landform.HILL),
        (3, Landform.HILL),
        (4, Landform.HILL),
        (5, Landform.MUD),
        (6, Landform.FLAT),
        (7, Landform.FLAT),
        (8, Landform.FLAT),
        (9, Landform.FLAT),
        (10, Landform.RIVER),
        (11, Landform.RIVER),
        (12, Landform.FLAT),
    ],
)
def test_plains_turn_ridges_flat_and_steep_ridges_into_hills(
    total: int, landform: Landform
) -> None:
    assert landform_for_roll(total, plains=True) is landform


@pytest.mark.parametrize("total", [0, 1, 13, True, 7.0])
def test_landform_roll_outside_two_to_twelve_is_rejected(total: object) -> None:
    with pytest.raises(ValueError, match="2d6 total"):
        landform_for_roll(total, plains=False)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("die", "jungle", "light"),
    [
        (1, Vegetation.LIGHT_WOODS, Vegetation.NONE),
        (2, Vegetation.HEAVY_WOODS, Vegetation.NONE),
        (3, Vegetation.HEAVY_WOODS, Vegetation.NONE),
        (4, Vegetation.HEAVY_WOODS, Vegetation.NONE),
        (5, Vegetation.HEAVY_WOODS, Vegetation.LIGHT_WOODS),
        (6, Vegetation.HEAVY_WOODS, Vegetation.LIGHT_WOODS),
    ],
)
def test_vegetation_table_for_every_face(die: int, jungle: Vegetation, light: Vegetation) -> None:
    assert vegetation_for_roll(die, "jungle") is jungle
    assert vegetation_for_roll(die, "light") is light
    assert vegetation_for_roll(die, "clearing") is Vegetation.NONE


def test_clearing_has_no_woods_without_a_die() -> None:
    assert vegetation_for_roll(None, "clearing") is Vegetation.NONE


@pytest.mark.parametrize("area", ["plains", "Jungle", "", "heavy"])
def test_unknown_area_vegetation_is_rejected(area: str) -> None:
    with pytest.raises(ValueError, match="unknown area vegetation"):
        vegetation_for_roll(3, area)


@pytest.mark.parametrize("die", [0, 7, None])
def test_vegetation_die_must_be_a_d6_face_where_one_is_rolled(die: int | None) -> None:
    with pytest.raises(ValueError, match="d6 face"):
        vegetation_for_roll(die, "jungle")


@pytest.mark.parametrize(
    ("landform", "vegetation", "going"),
    [
        # Bad: heavy woods, steep ridges, swamp (the 2d6 "mud/rocks/swamp" square).
        (Landform.FLAT, Vegetation.HEAVY_WOODS, Going.BAD),
        (Landform.STEEP_HIGH_RIDGE, Vegetation.NONE, Going.BAD),
        (Landform.STEEP_LOW_RIDGE, Vegetation.NONE, Going.BAD),
        (Landform.MUD, Vegetation.NONE, Going.BAD),
        # Rough: light woods, river/creek, hills.
        (Landform.FLAT, Vegetation.LIGHT_WOODS, Going.ROUGH),
        (Landform.RIVER, Vegetation.NONE, Going.ROUGH),
        (Landform.HILL, Vegetation.NONE, Going.ROUGH),
        # Good: the rest.
        (Landform.FLAT, Vegetation.NONE, Going.GOOD),
        (Landform.HIGH_RIDGE, Vegetation.NONE, Going.GOOD),
        (Landform.LOW_RIDGE, Vegetation.NONE, Going.GOOD),
        # The worse of ground and woods.
        (Landform.HILL, Vegetation.HEAVY_WOODS, Going.BAD),
        (Landform.MUD, Vegetation.LIGHT_WOODS, Going.BAD),
        (Landform.HIGH_RIDGE, Vegetation.LIGHT_WOODS, Going.ROUGH),
        (Landform.RIVER, Vegetation.LIGHT_WOODS, Going.ROUGH),
    ],
)
def test_going_of_each_terrain_the_rulings_name(
    landform: Landform, vegetation: Vegetation, going: Going
) -> None:
    assert going_of(landform, vegetation) is going


def test_square_going_is_the_worse_of_ground_and_woods() -> None:
    for landform, vegetation in product(Landform, Vegetation):
        ground = going_of(landform, Vegetation.NONE)
        woods = going_of(Landform.FLAT, vegetation)
        assert going_of(landform, vegetation) is max(ground, woods, key=lambda g: g.rank)


def test_worse_orders_good_then_rough_then_bad() -> None:
    assert worse(Going.GOOD, Going.ROUGH) is Going.ROUGH
    assert worse(Going.BAD, Going.ROUGH) is Going.BAD
    assert Going.worse(Going.GOOD, Going.GOOD) is Going.GOOD
    assert [g.rank for g in Going] == [0, 1, 2]


# --- Exact probabilities ------------------------------------------------------------------


def _landform_distribution(*, plains: bool) -> dict[Landform, Fraction]:
    chances: dict[Landform, Fraction] = Counter()
    for total in range(2, 13):
        chances[landform_for_roll(total, plains=plains)] += two_d6_probability(total)
    return dict(chances)


def test_landform_chances_match_the_exact_2d6_distribution() -> None:
    assert _landform_distribution(plains=False) == {
        Landform.STEEP_HIGH_RIDGE: Fraction(3, 36),
        Landform.STEEP_LOW_RIDGE: Fraction(3, 36),
        Landform.MUD: Fraction(4, 36),
        Landform.HIGH_RIDGE: Fraction(11, 36),
        Landform.LOW_RIDGE: Fraction(9, 36),
        Landform.RIVER: Fraction(5, 36),
        Landform.FLAT: Fraction(1, 36),
    }


def test_plains_landform_chances_match_the_exact_2d6_distribution() -> None:
    assert _landform_distribution(plains=True) == {
        Landform.HILL: Fraction(6, 36),
        Landform.MUD: Fraction(4, 36),
        Landform.FLAT: Fraction(21, 36),
        Landform.RIVER: Fraction(5, 36),
    }


def test_two_d6_closed_form_counts_every_pair_of_faces() -> None:
    counts = Counter(a + b for a, b in product(range(1, 7), repeat=2))
    assert all(two_d6_probability(t) == Fraction(counts[t], 36) for t in range(2, 13))


@pytest.mark.parametrize("plains", [False, True])
@pytest.mark.parametrize("area", AREA_VEGETATION)
def test_generated_square_chances_are_exact(area: str, plains: bool) -> None:
    """Every outcome of the dice through the real generator, on a one-square table."""
    veg_faces: tuple[int | None, ...] = (None,) if area == "clearing" else tuple(range(1, 7))
    veg_chance = Fraction(1, len(veg_faces))
    chances: dict[tuple[Landform, Vegetation], Fraction] = Counter()
    for a, b, v in product(range(1, 7), range(1, 7), veg_faces):
        faces = (a, b) if v is None else (a, b, v)
        roller = ScriptedRoller(faces)
        bf = generate_battlefield(roller, width_ft=1, depth_ft=1, vegetation=area, plains=plains)
        (square,) = bf
        assert roller.dice_rolled == len(faces)
        chances[square.landform, square.vegetation] += Fraction(1, 36) * veg_chance

    landform_chances = _landform_distribution(plains=plains)
    woods_chances: dict[Vegetation, Fraction] = {
        "jungle": {Vegetation.HEAVY_WOODS: Fraction(5, 6), Vegetation.LIGHT_WOODS: Fraction(1, 6)},
        "light": {Vegetation.LIGHT_WOODS: Fraction(2, 6), Vegetation.NONE: Fraction(4, 6)},
        "clearing": {Vegetation.NONE: Fraction(1)},
    }[area]
    # Ground and woods are rolled independently.
    assert dict(chances) == {
        (landform, woods): p_land * p_woods
        for landform, p_land in landform_chances.items()
        for woods, p_woods in woods_chances.items()
    }


def test_jungle_square_is_bad_going_with_chance_190_in_216() -> None:
    """Heavy woods (5/6), or light woods on steep ridge or swamp (1/6 x 10/36)."""
    bad = Fraction(0)
    for a, b, v in product(range(1, 7), repeat=3):
        landform = landform_for_roll(a + b, plains=False)
        if going_of(landform, vegetation_for_roll(v, "jungle")) is Going.BAD:
            bad += Fraction(1, 216)
    assert bad == Fraction(190, 216)


# --- The generator ------------------------------------------------------------------------


def test_generator_lays_out_width_by_depth_squares_in_row_major_order() -> None:
    bf = generate_battlefield(Roller(7), width_ft=4, depth_ft=2, vegetation="light", plains=False)
    assert (bf.width_in, bf.depth_in) == (48, 24)
    assert len(bf.squares) == 2 and all(len(row) == 4 for row in bf.squares)
    assert [(s.col, s.row) for s in bf] == [(c, r) for r in range(2) for c in range(4)]


@pytest.mark.parametrize("area", AREA_VEGETATION)
@pytest.mark.parametrize("plains", [False, True])
def test_generator_records_exactly_the_dice_it_rolled(area: str, plains: bool) -> None:
    roller = Roller(2024)
    bf = generate_battlefield(roller, vegetation=area, plains=plains)
    replay = Roller(2024)
    for square in bf:
        assert square.landform_dice == replay.roll(2, 6)
        if area == "clearing":
            assert square.vegetation_die is None
        else:
            assert square.vegetation_die == replay.d6()
        assert square.landform is landform_for_roll(sum(square.landform_dice), plains=plains)
        assert square.vegetation is vegetation_for_roll(square.vegetation_die, area)
    recorded = sum(2 + (square.vegetation_die is not None) for square in bf)
    assert roller.dice_rolled == replay.dice_rolled == recorded


def test_clearing_rolls_no_vegetation_die() -> None:
    roller = Roller(5)
    bf = generate_battlefield(roller, vegetation="clearing", plains=False)
    assert roller.dice_rolled == 2 * 9
    assert all(s.vegetation_die is None and s.vegetation is Vegetation.NONE for s in bf)


def test_plains_area_still_rolls_its_woods() -> None:
    roller = Roller(11)
    bf = generate_battlefield(roller, vegetation="jungle", plains=True)
    assert roller.dice_rolled == 3 * 9
    assert all(s.wooded for s in bf)
    assert not any(s.landform in RIDGES for s in bf)


def test_same_seed_gives_the_same_battlefield() -> None:
    first = generate_battlefield(Roller(99), vegetation="jungle", plains=False)
    second = generate_battlefield(Roller(99), vegetation="jungle", plains=False)
    assert first == second and hash(first) == hash(second)
    other = generate_battlefield(Roller(100), vegetation="jungle", plains=False)
    assert other != first


def test_battlefield_survives_a_json_round_trip() -> None:
    bf = generate_battlefield(Roller(3), width_ft=4, depth_ft=3, vegetation="light", plains=True)
    rows = bf.to_json()
    assert rows[1][2] == bf.squares[1][2].to_json()
    assert set(rows[0][0]) == {
        "col",
        "row",
        "landform_dice",
        "landform",
        "vegetation_die",
        "vegetation",
        "going",
    }
    assert Battlefield.from_json(rows, width_ft=4, depth_ft=3) == bf


def test_json_with_the_wrong_shape_is_rejected() -> None:
    rows = generate_battlefield(Roller(3), vegetation="light", plains=False).to_json()
    with pytest.raises(ValueError, match="rows"):
        Battlefield.from_json(rows, width_ft=3, depth_ft=4)
    rows[0][0], rows[0][1] = rows[0][1], rows[0][0]
    with pytest.raises(ValueError, match="stored at"):
        Battlefield.from_json(rows, width_ft=3, depth_ft=3)


@pytest.mark.parametrize("size", [0, -1, 13, 2.5, True, "3", None])
def test_generator_rejects_impossible_table_sizes(size: object) -> None:
    with pytest.raises(ValueError, match="width_ft"):
        generate_battlefield(Roller(1), width_ft=size, vegetation="light", plains=False)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="depth_ft"):
        generate_battlefield(Roller(1), depth_ft=size, vegetation="light", plains=False)  # type: ignore[arg-type]


def test_generator_rejects_an_unknown_vegetation_before_rolling() -> None:
    roller = Roller(1)
    with pytest.raises(ValueError, match="unknown area vegetation"):
        generate_battlefield(roller, vegetation="plains", plains=True)
    assert roller.dice_rolled == 0


# --- Positions ----------------------------------------------------------------------------


def test_square_at_counts_columns_and_rows_from_the_defenders_corner() -> None:
    bf = table(".- R-", "M- ~l")
    assert bf.square_at(0, 0) is bf.squares[0][0]
    assert bf.square_at(12, 0).landform is Landform.HIGH_RIDGE
    assert bf.square_at(11.5, 12).landform is Landform.MUD
    assert bf.going_at(13, 13) is Going.ROUGH


def test_square_at_clamps_the_far_edges_to_the_last_square() -> None:
    bf = table(".- R-", "M- ~l")
    assert bf.square_at(24, 24) is bf.squares[1][1]
    assert bf.square_at(24, 0) is bf.squares[0][1]


@pytest.mark.parametrize(("x", "y"), [(-0.5, 0), (0, 24.5), (24.01, 3), (math.nan, 1)])
def test_point_off_the_table_is_rejected(x: float, y: float) -> None:
    bf = table(".- R-", "M- ~l")
    with pytest.raises(ValueError, match="off the"):
        bf.square_at(x, y)
    with pytest.raises(ValueError, match="off the"):
        bf.sight(1, 1, x, y)


# --- Going along a move -------------------------------------------------------------------


def test_going_along_a_move_is_the_worst_square_it_crosses() -> None:
    bf = table(".- M- ~-")
    assert bf.going_along(6, 6, 30, 6) is Going.BAD
    assert bf.going_along(6, 6, 11, 6) is Going.GOOD
    assert bf.going_along(25, 6, 35, 6) is Going.ROUGH


def test_going_along_counts_the_start_and_end_squares() -> None:
    bf = table(".- .l", ".- .-")
    assert bf.going_along(18, 6, 6, 18) is Going.ROUGH
    assert bf.going_along(6, 6, 18, 8) is Going.ROUGH
    assert bf.going_along(6, 6, 6, 18) is Going.GOOD


def test_move_along_a_grid_line_is_slowed_by_the_ground_on_both_sides() -> None:
    # Conservative: a line on the boundary touches both squares.
    bf = table(".- M-", ".- .-")
    assert bf.going_along(12, 18, 12, 2) is Going.BAD
    assert bf.going_along(11.5, 18, 11.5, 2) is Going.GOOD


def test_move_through_a_corner_touches_all_four_squares() -> None:
    bf = table(".- M-", ".- .-")
    assert bf.going_along(6, 18, 18, 6) is Going.BAD  # through the swamp square itself
    assert bf.going_along(6, 6, 18, 18) is Going.BAD  # only grazes the swamp at (12, 12)
    assert [(s.col, s.row) for s in bf.squares_along(6, 6, 18, 18)] == [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
    ]


# --- Cover --------------------------------------------------------------------------------


def test_woods_ridges_and_hills_are_cover_and_open_ground_is_not() -> None:
    bf = table(".l .h R- r-", "S- s- H- .-", "M- ~- .- .-")
    cover = [[bf.cover_at(c * 12 + 6, r * 12 + 6) for c in range(4)] for r in range(3)]
    assert cover == [
        [True, True, True, True],
        [True, True, True, False],
        [False, False, False, False],
    ]


# --- Line of sight: ridges and hills ------------------------------------------------------


@pytest.mark.parametrize("code", ["S", "s", "R", "r", "H"])
def test_ridge_or_hill_between_the_units_blocks_sight(code: str) -> None:
    bf = table(f".- {code}- .-")
    assert bf.sight(6, 6, 30, 6) is Sight.BLOCKED
    assert bf.sight(30, 6, 6, 6) is Sight.BLOCKED


@pytest.mark.parametrize("code", ["M", "~", "."])
def test_low_ground_between_the_units_does_not_block(code: str) -> None:
    bf = table(f".- {code}- .-")
    assert bf.sight(6, 6, 30, 6) is Sight.CLEAR


def test_ridge_in_the_firers_own_square_does_not_block() -> None:
    bf = table("R- .- .-")
    assert bf.sight(6, 6, 30, 6) is Sight.CLEAR


def test_ridge_in_the_targets_square_does_not_block() -> None:
    bf = table(".- .- R-")
    assert bf.sight(6, 6, 30, 6) is Sight.CLEAR


def test_unit_on_the_edge_of_a_ridge_square_is_in_it() -> None:
    # x = 12 belongs to the flat square, but it is also the ridge's edge.
    bf = table("R- .- .-")
    assert bf.sight(12, 6, 30, 6) is Sight.CLEAR
    assert bf.sight(30, 6, 12, 6) is Sight.CLEAR


def test_sight_along_a_grid_line_beside_a_ridge_is_blocked() -> None:
    # Conservative ruling: a line exactly on the boundary touches both sides.
    bf = table(".- .-", "R- .-", ".- .-")
    assert bf.sight(12, 6, 12, 30) is Sight.BLOCKED
    assert bf.sight(12.5, 6, 12.5, 30) is Sight.CLEAR


def test_sight_through_the_corner_where_two_ridges_meet_is_blocked() -> None:
    bf = table(".- R-", "R- .-")
    assert bf.sight(6, 6, 18, 18) is Sight.BLOCKED


def test_sight_that_misses_a_ridge_by_a_fraction_is_clear() -> None:
    bf = table(".- .-", "R- .-")
    assert bf.sight(6, 6, 18, 18) is Sight.BLOCKED  # grazes the ridge's corner
    assert bf.sight(6, 6, 18, 17) is Sight.CLEAR  # crosses x = 12 at y = 11.5


def test_grazing_a_corner_is_decided_exactly_for_any_float_position() -> None:
    # From just off the corner of the table, the line to (12.5, 12.5) passes a hair above
    # or below the corner (12, 12): rounding the products would call both a contact.
    bf = table(".- R-", ".- .-")
    assert bf.sight(0, 1e-160, 12.5, 12.5) is Sight.CLEAR
    assert bf.sight(1e-160, 0, 12.5, 12.5) is Sight.BLOCKED
    assert bf.going_along(0, 1e-160, 12.5, 12.5) is Going.GOOD


def test_ridge_beyond_the_target_does_not_block() -> None:
    bf = table(".- .- R-")
    assert bf.sight(2, 6, 23, 6) is Sight.CLEAR


# --- Line of sight: woods -----------------------------------------------------------------


def test_target_deep_in_woods_cannot_be_seen_from_outside() -> None:
    bf = table(".- .- .h")
    assert bf.wood_depth(30, 6) == 6.0  # the table edge is not the edge of the woods
    assert bf.sight(6, 6, 30, 6) is Sight.BLOCKED


def test_target_two_inches_inside_woods_is_obscured() -> None:
    bf = table(".- .- .l")
    assert bf.wood_depth(26, 6) == 2.0
    assert bf.sight(6, 6, 26, 6) is Sight.OBSCURED


def test_target_exactly_three_inches_inside_woods_is_obscured() -> None:
    bf = table(".- .- .h")
    assert bf.sight(6, 6, 27, 6) is Sight.OBSCURED
    assert bf.sight(6, 6, 27.5, 6) is Sight.BLOCKED


def test_target_on_the_edge_of_its_woods_is_obscured() -> None:
    bf = table(".- .- .h")
    assert bf.wood_depth(24, 6) == 0.0
    assert bf.sight(6, 6, 24, 6) is Sight.OBSCURED


def test_wood_depth_measures_diagonally_to_the_nearest_open_square() -> None:
    bf = table(".- .h", ".h .h")
    assert bf.wood_depth(15, 15) == pytest.approx(math.hypot(3, 3))
    assert bf.sight(6, 6, 15, 15) is Sight.BLOCKED
    assert bf.sight(6, 6, 14, 14) is Sight.OBSCURED


def test_wood_depth_reaches_past_the_neighbouring_squares() -> None:
    bf = table(".- .h .h .h .h")
    assert bf.wood_depth(50, 6) == 38.0


def test_wood_depth_is_zero_outside_woods() -> None:
    bf = table(".- .h")
    assert bf.wood_depth(6, 6) == 0.0
    assert bf.wood_depth(12, 6) == 0.0


def test_wood_filling_the_whole_table_is_infinitely_deep() -> None:
    bf = table(".h .l", ".h .h")
    assert bf.wood_depth(0, 0) == math.inf
    assert bf.wood_depth(13, 13) == math.inf


def test_two_units_in_the_same_woods_see_each_other_obscured_within_six_inches() -> None:
    bf = table(".h .h .h", ".h .l .h", ".h .h .h")
    assert bf.sight(10, 18, 15, 18) is Sight.OBSCURED
    assert bf.sight(15, 15, 15, 21) is Sight.OBSCURED  # exactly 6"


def test_units_deep_in_the_same_woods_beyond_six_inches_are_hidden() -> None:
    bf = table(".h .h .h", ".h .l .h", ".h .h .h")
    assert bf.sight(10, 18, 18, 18) is Sight.BLOCKED


def test_beyond_six_inches_in_the_same_woods_a_target_near_the_edge_is_obscured() -> None:
    bf = table(".- .- .-", ".h .h .h", ".- .- .-")
    assert bf.sight(6, 18, 30, 22) is Sight.OBSCURED
    # Korona's rulings (2026-12-01): the 12" of the middle square's woods, which neither
    # stands in, block the line.
    assert bf.sight(6, 18, 30, 22, woods_between=True) is Sight.BLOCKED
    assert bf.sight(10, 18, 16, 21, woods_between=True) is Sight.OBSCURED  # side by side


def test_line_leaving_the_woods_is_not_the_same_woods() -> None:
    # The line clips the open corner square near the firer, so the target, 3.5" deep, is
    # seen from outside and hidden; with that square wooded it would be seen obscured.
    open_corner = table(".- .h .h", ".h .h .h", ".h .h .h")
    assert open_corner.sight(12.5, 11, 9, 15.5) is Sight.BLOCKED
    all_woods = table(".h .h .h", ".h .h .h", ".h .h .h")
    assert all_woods.sight(12.5, 11, 9, 15.5) is Sight.OBSCURED


def test_firer_on_the_edge_of_its_woods_is_still_in_them() -> None:
    bf = table(".- .h .h")
    assert bf.sight(12, 6, 17, 6) is Sight.OBSCURED


# Rulings section 4 (changed 2026-12-01), Korona's sight (woods_between=True): "Woods
# between two units (in squares neither of them stands in): a sight line that crosses 3"
# of such woods or less is obscured, one that crosses more is blocked."


def test_woods_between_two_units_in_the_open_block_a_line_crossing_more_than_three_inches() -> None:
    bf = table(".- .h .h .-")
    # Force on Force (3.9 Intervening Cover: fire passes over them) sees through.
    assert bf.sight(6, 6, 42, 6) is Sight.CLEAR
    assert bf.sight(6, 6, 42, 6, woods_between=True) is Sight.BLOCKED
    assert bf.sight(42, 6, 6, 6, woods_between=True) is Sight.BLOCKED
    assert (
        table(".- .l .-").sight(6, 6, 30, 6, woods_between=True) is Sight.BLOCKED
    )  # light woods too


def test_woods_between_two_units_obscure_a_line_crossing_three_inches_or_less() -> None:
    bf = table(".- .h .-", ".- .- .-")
    # From (6, 14) to (30, 11) the line is above y = 12 from x = 22 to 24: 2.02" of woods.
    assert bf.sight(6, 14, 30, 11, woods_between=True) is Sight.OBSCURED
    assert bf.sight(30, 11, 6, 14, woods_between=True) is Sight.OBSCURED
    # From (6, 14) to (30, 10): from x = 18 to 24, 6.08" of woods.
    assert bf.sight(6, 14, 30, 10, woods_between=True) is Sight.BLOCKED


def test_woods_between_measured_exactly_three_inches_obscure_and_a_hair_more_block() -> None:
    F = Fraction
    wood = ((12, 0, 24, 12),)
    # Slope 4/3 through the square's corner: in from (12, 9.6) to (13.8, 12), exactly 3".
    line = (F(6), F("1.6"), F(18), F("17.6"))
    assert Battlefield._woods_between(*line, wood) is Sight.OBSCURED
    longer = (F(6), F("1.59"), F(18), F("17.59"))  # in from (12, 9.59) to (13.8075, 12)
    assert Battlefield._woods_between(*longer, wood) is Sight.BLOCKED


def test_a_line_touching_woods_between_only_at_a_corner_is_clear() -> None:
    bf = table(".h .-", ".- .-")
    assert (
        bf.sight(9, 15, 15, 9, woods_between=True) is Sight.CLEAR
    )  # through (12, 12), the wood's corner


def test_woods_along_the_line_count_once_where_two_wooded_squares_meet() -> None:
    # Along y = 12, the edge shared by the two rows of woods: 12" of woods, not 24".
    bf = table(".- .h .-", ".- .h .-", ".- .- .-")
    assert Battlefield._woods_between(0, 12, 36, 12, ((12, 0, 24, 12), (12, 12, 24, 24))) is (
        Sight.BLOCKED
    )
    assert bf.sight(6, 30, 30, 30, woods_between=True) is Sight.CLEAR  # row 2 is open


def test_woods_between_add_to_the_targets_own_concealment() -> None:
    # The target is 2" inside its woods (obscured); the line first crosses 12" of
    # another wood in the open field's middle: blocked.
    bf = table(".- .h .- .l")
    assert bf.sight(6, 6, 38, 6, woods_between=True) is Sight.BLOCKED
    assert table(".- .- .- .l").sight(6, 6, 38, 6, woods_between=True) is Sight.OBSCURED


def test_woods_of_the_square_a_unit_stands_in_are_not_between() -> None:
    bf = table(".- .h .-")
    assert bf.sight(6, 6, 30, 6, woods_between=True) is Sight.BLOCKED
    # The firer at x = 12 stands in the wooded square (on its edge): its own woods.
    assert bf.sight(12, 6, 30, 6, woods_between=True) is Sight.CLEAR
    # A target at x = 24, on the wood's far edge, is on that square's edge: not between.
    assert bf.sight(6, 6, 24, 6, woods_between=True) is Sight.CLEAR


def test_sight_is_about_the_targets_concealment() -> None:
    bf = table(".- .- .h")
    assert bf.sight(30, 6, 6, 6) is Sight.CLEAR  # the hidden unit sees out
    assert bf.sight(6, 6, 30, 6) is Sight.BLOCKED


def test_ridge_inside_the_woods_still_blocks() -> None:
    bf = table(".h Rh .h")
    assert bf.sight(11, 6, 25, 6) is Sight.BLOCKED
    assert bf.sight(11, 6, 13, 6) is Sight.OBSCURED


# --- Properties ---------------------------------------------------------------------------


@st.composite
def battlefields(draw: st.DrawFn) -> Battlefield:
    width = draw(st.integers(1, 4))
    depth = draw(st.integers(1, 4))
    squares = tuple(
        tuple(
            make_square(
                col, row, draw(st.sampled_from(Landform)), draw(st.sampled_from(Vegetation))
            )
            for col in range(width)
        )
        for row in range(depth)
    )
    return Battlefield(width_ft=width, depth_ft=depth, squares=squares)


def half_inch_points(bf: Battlefield) -> st.SearchStrategy[tuple[float, float]]:
    """Points on the half-inch grid the engine rounds to; many fall on grid lines."""
    return st.tuples(
        st.integers(0, 2 * bf.width_in).map(lambda n: n / 2),
        st.integers(0, 2 * bf.depth_in).map(lambda n: n / 2),
    )


def any_points(bf: Battlefield) -> st.SearchStrategy[tuple[float, float]]:
    return half_inch_points(bf) | st.tuples(
        st.floats(0, bf.width_in, allow_nan=False), st.floats(0, bf.depth_in, allow_nan=False)
    )


def _reference_touches(p1: tuple[float, float], p2: tuple[float, float], square: Square) -> bool:
    """Exact closed segment against closed square, by clipping with fractions."""
    x1, y1, x2, y2 = (Fraction(v) for v in (*p1, *p2))
    xmin, ymin, xmax, ymax = (Fraction(v) for v in square.bounds)
    lo, hi = Fraction(0), Fraction(1)
    for start, delta, low, high in ((x1, x2 - x1, xmin, xmax), (y1, y2 - y1, ymin, ymax)):
        if delta == 0:
            if not low <= start <= high:
                return False
            continue
        t1, t2 = (low - start) / delta, (high - start) / delta
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return lo <= hi


def _reference_contains(square: Square, p: tuple[float, float]) -> bool:
    xmin, ymin, xmax, ymax = square.bounds
    return xmin <= p[0] <= xmax and ymin <= p[1] <= ymax


def _reference_depth_squared(bf: Battlefield, p: tuple[float, float]) -> Fraction | None:
    """The exact squared wood depth of a wooded point; None for infinitely deep."""
    best: Fraction | None = None
    x, y = Fraction(p[0]), Fraction(p[1])
    for square in bf:
        if square.wooded:
            continue
        xmin, ymin, xmax, ymax = (Fraction(v) for v in square.bounds)
        dx = max(xmin - x, Fraction(0), x - xmax)
        dy = max(ymin - y, Fraction(0), y - ymax)
        if best is None or dx * dx + dy * dy < best:
            best = dx * dx + dy * dy
    return best


def _reference_woods_between_squared(
    bf: Battlefield, p1: tuple[float, float], p2: tuple[float, float]
) -> Fraction:
    """The squared length of the line inside wooded squares neither unit stands in, by
    another method than the engine's: cut the line at every grid line it crosses; each
    piece's midpoint says which closed squares the piece lies in."""
    x1, y1, x2, y2 = (Fraction(v) for v in (*p1, *p2))
    dx, dy = x2 - x1, y2 - y1
    cuts = {Fraction(0), Fraction(1)}
    for start, delta, count in ((x1, dx, bf.width_ft), (y1, dy, bf.depth_ft)):
        if delta:
            for k in range(count + 1):
                t = (k * SQUARE_IN - start) / delta
                if 0 < t < 1:
                    cuts.add(t)
    ordered = sorted(cuts)
    inside = Fraction(0)
    for t0, t1 in zip(ordered, ordered[1:], strict=False):
        mx, my = x1 + dx * (t0 + t1) / 2, y1 + dy * (t0 + t1) / 2
        for square in bf:
            if (
                square.wooded
                and _reference_contains(square, (mx, my))
                and not _reference_contains(square, p1)
                and not _reference_contains(square, p2)
            ):
                inside += t1 - t0
                break
    return inside * inside * (dx * dx + dy * dy)


def _reference_sight(
    bf: Battlefield, p1: tuple[float, float], p2: tuple[float, float], woods_between: bool = True
) -> Sight:
    """The line-of-sight rules written out plainly, with exact arithmetic; without
    ``woods_between``, the woods between the units neither block nor obscure."""
    touched = [s for s in bf if _reference_touches(p1, p2, s)]
    between = [s for s in touched if not (_reference_contains(s, p1) or _reference_contains(s, p2))]
    if any(s.blocks_sight for s in between):
        return Sight.BLOCKED
    firer, target = bf.square_at(*p1), bf.square_at(*p2)
    distance_squared = (Fraction(p2[0]) - Fraction(p1[0])) ** 2 + (
        Fraction(p2[1]) - Fraction(p1[1])
    ) ** 2
    if firer.wooded and target.wooded and distance_squared <= 36 and all(s.wooded for s in between):
        return Sight.OBSCURED  # the same woods
    woods = _reference_woods_between_squared(bf, p1, p2) if woods_between else 0
    if woods > 9:
        return Sight.BLOCKED
    crossed = Sight.OBSCURED if woods > 0 else Sight.CLEAR
    if not target.wooded:
        return crossed
    depth_squared = _reference_depth_squared(bf, p2)
    return Sight.BLOCKED if depth_squared is None or depth_squared > 9 else Sight.OBSCURED


@settings(max_examples=200, deadline=None)  # a loaded machine must not fail it
@given(data=st.data(), bf=battlefields())
def test_sight_never_raises_anywhere_on_the_table(data: st.DataObject, bf: Battlefield) -> None:
    for _ in range(10):
        p1 = data.draw(any_points(bf))
        p2 = data.draw(any_points(bf))
        assert bf.sight(*p1, *p2) in Sight


@settings(max_examples=200, deadline=None)  # a loaded machine must not fail it
@given(data=st.data(), bf=battlefields())
def test_sight_agrees_with_an_exact_plain_reading_of_the_rules(
    data: st.DataObject, bf: Battlefield
) -> None:
    # Many pairs on one battlefield, so answers memoised for one pair are reused by others.
    for _ in range(10):
        p1 = data.draw(any_points(bf))
        p2 = data.draw(any_points(bf) if data.draw(st.booleans()) else half_inch_points(bf))
        assert bf.sight(*p1, *p2, woods_between=True) is _reference_sight(bf, p1, p2)
        assert bf.sight(*p1, *p2) is _reference_sight(bf, p1, p2, woods_between=False)


def whole_inch_points(bf: Battlefield) -> st.SearchStrategy[tuple[int, int]]:
    """Points where the engine puts its stands: whole inches, as ints."""
    return st.tuples(st.integers(0, bf.width_in), st.integers(0, bf.depth_in))


@settings(max_examples=200, deadline=None)  # a loaded machine must not fail it
@given(data=st.data(), bf=battlefields())
def test_sight_both_ways_agrees_with_the_plain_reading_at_whole_inches_too(
    data: st.DataObject, bf: Battlefield
) -> None:
    # mutual_sight shares the work of the two looks; each must still be sight's own answer.
    for _ in range(10):
        points = whole_inch_points(bf) if data.draw(st.booleans()) else any_points(bf)
        p1, p2 = data.draw(points), data.draw(points)
        both = bf.mutual_sight(*p1, *p2, woods_between=True)
        assert both == (_reference_sight(bf, p1, p2), _reference_sight(bf, p2, p1))
        assert bf.sight(*p1, *p2, woods_between=True) is both[0]
        assert bf.sight(*p2, *p1, woods_between=True) is both[1]
        plain = bf.mutual_sight(*p1, *p2)
        assert plain == (
            _reference_sight(bf, p1, p2, woods_between=False),
            _reference_sight(bf, p2, p1, woods_between=False),
        )


@settings(max_examples=200, deadline=None)  # a loaded machine must not fail it
@given(data=st.data(), bf=battlefields())
def test_the_engines_going_look_up_agrees_with_going_along(
    data: st.DataObject, bf: Battlefield
) -> None:
    state = make_state(field=bf)
    for _ in range(10):
        p1, p2 = data.draw(whole_inch_points(bf)), data.draw(whole_inch_points(bf))
        expected = bf.going_along(*p1, *p2)
        assert state.going(*p1, *p2) is expected
        assert state.going(*p1, *p2) is expected  # and again from the cache
        assert state.going_index(*p1, *p2) == expected.rank


@settings(max_examples=200, deadline=None)  # a loaded machine must not fail it
@given(data=st.data(), bf=battlefields())
def test_squares_along_a_segment_are_exactly_the_squares_it_touches(
    data: st.DataObject, bf: Battlefield
) -> None:
    p1 = data.draw(any_points(bf))
    p2 = data.draw(any_points(bf) if data.draw(st.booleans()) else half_inch_points(bf))
    expected = [s for s in bf if _reference_touches(p1, p2, s)]
    assert list(bf.squares_along(*p1, *p2)) == expected
    assert bf.square_at(*p1) in expected and bf.square_at(*p2) in expected
    assert bf.going_along(*p1, *p2) is max((s.going for s in expected), key=lambda g: g.rank)


@given(data=st.data(), bf=battlefields())
def test_unit_is_never_hidden_from_a_point_beside_it(data: st.DataObject, bf: Battlefield) -> None:
    p1 = data.draw(any_points(bf))
    assert bf.sight(*p1, *p1) is not Sight.BLOCKED
    square = bf.square_at(*p1)
    xmin, ymin, xmax, ymax = square.bounds
    dx = data.draw(st.floats(-4, 4, allow_nan=False))
    dy = data.draw(st.floats(-4, 4, allow_nan=False))
    p2 = (min(max(p1[0] + dx, xmin), xmax), min(max(p1[1] + dy, ymin), ymax))
    if bf.square_at(*p2) is square:
        assert bf.sight(*p1, *p2) is not Sight.BLOCKED
        if not square.wooded:
            assert bf.sight(*p1, *p2) is Sight.CLEAR


@given(data=st.data(), bf=battlefields())
def test_wood_depth_is_never_negative_and_zero_outside_woods(
    data: st.DataObject, bf: Battlefield
) -> None:
    p = data.draw(any_points(bf))
    depth = bf.wood_depth(*p)
    assert depth >= 0.0
    if not bf.square_at(*p).wooded:
        assert depth == 0.0
    else:
        exact = _reference_depth_squared(bf, p)
        assert depth == (math.inf if exact is None else math.sqrt(exact))
    assert bf.wood_depth(*p) == depth  # memoised answers are the same answers


@given(
    seed=st.integers(0, 2**63),
    width=st.integers(1, 6),
    depth=st.integers(1, 6),
    area=st.sampled_from(AREA_VEGETATION),
    plains=st.booleans(),
)
def test_generated_squares_always_have_the_going_of_their_terrain(
    seed: int, width: int, depth: int, area: str, plains: bool
) -> None:
    roller = Roller(seed)
    bf = generate_battlefield(
        roller, width_ft=width, depth_ft=depth, vegetation=area, plains=plains
    )
    assert len(list(bf)) == width * depth
    for square in bf:
        assert square.going is going_of(square.landform, square.vegetation)
        assert all(1 <= face <= 6 for face in square.landform_dice)
        if plains:
            assert square.landform not in RIDGES
    assert roller.dice_rolled == sum(2 + (s.vegetation_die is not None) for s in bf)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(AREA_VEGETATION),
    st.lists(st.tuples(st.integers(0, 72), st.integers(0, 72)), min_size=2, max_size=12),
)
def test_sees_both_ways_is_neither_sight_blocked(
    seed: int, vegetation: str, halves: list[tuple[int, int]]
) -> None:
    # Points on the 0.5" grid of a 3 x 3 ft table, as the engines place units and spots.
    field = generate_battlefield(Roller(seed), vegetation=vegetation, plains=False)
    points = [(x / 2, y / 2) for x, y in halves] + [(x // 2, y // 2) for x, y in halves]
    for (x1, y1), (x2, y2) in product(points, points):
        expected = (
            field.sight(x1, y1, x2, y2) is not Sight.BLOCKED
            and field.sight(x2, y2, x1, y1) is not Sight.BLOCKED
        )
        assert field.sees_both_ways(x1, y1, x2, y2) is expected
