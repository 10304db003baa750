"""The tactical battlefield: terrain generation, going, woods and line of sight.

The table is ``width_ft`` x ``depth_ft`` feet, cut into 1-ft squares, and every square is
rolled up before a battle (rulings section 4): 2d6 for its landform, then, depending on the
area's vegetation, a d6 for its woods. Positions are in inches, ``(x, y)`` with
``0 <= x <= width_in`` and ``0 <= y <= depth_in``; row 0 lies along the defender's edge
(``y = 0``) and the attacker enters from ``y = depth_in``.

Geometry rulings written down here (the texts are silent on them):

* A square is a *closed* 12" x 12" region. A straight line "touches" every square it
  meets, even along an edge or at a single corner: a line running exactly along a grid
  line touches the squares on both sides, and a line through a corner touches all four
  squares around it. This is the conservative reading: a line of sight squeezing between
  two ridges that meet at a corner is blocked, and a move along the edge of a swamp is
  slowed by it. ``square_at`` still gives every point exactly one square (column
  ``x // 12``, row ``y // 12``, clamped at the far edges) for "where is this unit".
* Line of sight: "ridges and hills block it unless the firer or target is in that
  square". A unit standing exactly on the edge of a square is in it for this purpose, so
  a square that contains the firer's or the target's point (on its edge included) never
  blocks, and likewise never breaks "the same woods".
* Woods between two units (rulings section 4, changed 2026-12-01; Korona's sight, with
  ``woods_between=True``; Force on Force keeps its own 3.9 Intervening Cover, where fire
  passes over intervening terrain and the target may claim cover): the wooded squares
  the sight line crosses that neither unit stands in (a square containing either unit's
  point, its edge included, is that unit's) are measured along the line. Crossing 3" of
  them or less obscures the line, crossing more blocks it: the same 3" that hides a unit
  inside woods. The length is the union of the line's pieces inside those closed squares
  (a piece along the edge shared by two wooded squares counts once, a piece along the
  edge of one counts: squares are closed); a line that only touches a wooded square at a
  corner crosses 0" of it and is not obscured. Two units that see each other as "the
  same woods" (both in woods, within 6", the line never leaving woods) are not further
  obscured by the woods between them: the same-woods rule is about exactly those woods.
* A target in a wooded square exactly on the edge of the woods (depth 0) is still in the
  woods, so it is obscured like any target within 3" of the edge.
* The table edge is not an edge of the woods: the ground off the table is not open
  ground, so a wood filling the whole table has infinite depth.
* ``cover_at`` counts ridges and hills as cover as well as woods, so the AI's "move from
  cover to cover" treats high ground as a place to stop; the fire rules' own concealment
  (obscured, unseen) comes only from ``sight``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar

from rules.dice import Roller

SQUARE_IN = 12
"""A terrain square is one foot on a side."""

MAX_TABLE_FT = 12
"""The largest table side the generator accepts; larger tables are a typo, not a battle."""

WOODS_EDGE_IN = 3.0
"""A unit within this many inches of the edge of its woods is visible but obscured."""

SAME_WOODS_SIGHT_IN = 6.0
"""Two units in the same woods see each other (obscured) within this range."""

_WOOD_DEPTH_MEMO_LIMIT = 1 << 17
"""wood_depth memo entries kept before the memo is emptied: enough for every point of the
0.5" grid the engine rounds to on the largest (12 x 12 ft, about 83,500 points) table."""


class Landform(StrEnum):
    """What the 2d6 terrain roll says the ground of a square is."""

    STEEP_HIGH_RIDGE = "steep_high_ridge"
    STEEP_LOW_RIDGE = "steep_low_ridge"
    MUD = "mud_rocks_swamp"
    HIGH_RIDGE = "high_ridge"
    LOW_RIDGE = "low_ridge"
    RIVER = "river_creek"
    FLAT = "flat"
    HILL = "hill"


class Vegetation(StrEnum):
    """The woods on a square."""

    NONE = "none"
    LIGHT_WOODS = "light_woods"
    HEAVY_WOODS = "heavy_woods"


class Going(StrEnum):
    """How hard a square is to cross; movement allowances are given per going."""

    GOOD = "good"
    ROUGH = "rough"
    BAD = "bad"

    @property
    def rank(self) -> int:
        """0 for good, 1 for rough, 2 for bad: higher is slower."""
        return _GOING_RANK[self]

    @staticmethod
    def worse(a: Going, b: Going) -> Going:
        """The slower of two goings (a square's going is the worse of ground and woods)."""
        return a if _GOING_RANK[a] >= _GOING_RANK[b] else b


_GOING_RANK: dict[Going, int] = {Going.GOOD: 0, Going.ROUGH: 1, Going.BAD: 2}
_GOING_BY_RANK: tuple[Going, ...] = (Going.GOOD, Going.ROUGH, Going.BAD)
_BAD_RANK = 2

worse = Going.worse


class Sight(StrEnum):
    """What a unit sees of a target: a clear shot, an obscured one (one die less), none."""

    CLEAR = "clear"
    OBSCURED = "obscured"
    BLOCKED = "blocked"


AREA_VEGETATION: tuple[str, ...] = ("jungle", "light", "clearing")
"""The vegetation a campaign area (or a BATTLE.json) may give for its battlefield."""

# The 2d6 landform table, indexed by the total. The text's "6,9 = low ridge" overlaps
# "6, 7 = high ridge" and leaves 8 and 9 unassigned, so the rulings read it as 8-9.
_LANDFORM_BY_TOTAL: tuple[Landform | None, ...] = (
    None,
    None,
    Landform.STEEP_HIGH_RIDGE,  # 2
    Landform.STEEP_HIGH_RIDGE,  # 3
    Landform.STEEP_LOW_RIDGE,  # 4
    Landform.MUD,  # 5
    Landform.HIGH_RIDGE,  # 6
    Landform.HIGH_RIDGE,  # 7
    Landform.LOW_RIDGE,  # 8
    Landform.LOW_RIDGE,  # 9
    Landform.RIVER,  # 10
    Landform.RIVER,  # 11
    Landform.FLAT,  # 12
)

# "In areas where the map obviously shows plains, replace all ridges with flat ground,
# and steep ridges with hills."
_PLAINS_LANDFORM: dict[Landform, Landform] = {
    Landform.STEEP_HIGH_RIDGE: Landform.HILL,
    Landform.STEEP_LOW_RIDGE: Landform.HILL,
    Landform.HIGH_RIDGE: Landform.FLAT,
    Landform.LOW_RIDGE: Landform.FLAT,
}

_SIGHT_BLOCKING_LANDFORMS = frozenset(
    {
        Landform.STEEP_HIGH_RIDGE,
        Landform.STEEP_LOW_RIDGE,
        Landform.HIGH_RIDGE,
        Landform.LOW_RIDGE,
        Landform.HILL,
    }
)

# Going of the ground (rulings section 4): "heavy woods, steep ridges, swamp = bad; light
# woods, mud/rocks, river/creek, hills = rough; the rest good". The 2d6 table's one
# "mud/rocks/swamp" result is the rulings' "mud/rocks": rough. A battle (BATTLE.json
# ``table.landform_going``) or a campaign (setting ``landform_going``) may set another
# going for any landform, such as bad for a GM who reads that square as swamp.
RULINGS_LANDFORM_GOING: dict[Landform, Going] = {
    Landform.STEEP_HIGH_RIDGE: Going.BAD,
    Landform.STEEP_LOW_RIDGE: Going.BAD,
    Landform.MUD: Going.ROUGH,
    Landform.HIGH_RIDGE: Going.GOOD,
    Landform.LOW_RIDGE: Going.GOOD,
    Landform.RIVER: Going.ROUGH,
    Landform.FLAT: Going.GOOD,
    Landform.HILL: Going.ROUGH,
}

# The generator's table when it is given none: the one before the rulings settled
# mud/rocks (swamp, bad). Korona passes the battle's own table; Force on Force does not
# yet, and keeps this one.
_LANDFORM_GOING: dict[Landform, Going] = {
    Landform.STEEP_HIGH_RIDGE: Going.BAD,
    Landform.STEEP_LOW_RIDGE: Going.BAD,
    Landform.MUD: Going.BAD,
    Landform.HIGH_RIDGE: Going.GOOD,
    Landform.LOW_RIDGE: Going.GOOD,
    Landform.RIVER: Going.ROUGH,
    Landform.FLAT: Going.GOOD,
    Landform.HILL: Going.ROUGH,
}

_VEGETATION_GOING: dict[Vegetation, Going] = {
    Vegetation.NONE: Going.GOOD,
    Vegetation.LIGHT_WOODS: Going.ROUGH,
    Vegetation.HEAVY_WOODS: Going.BAD,
}


def landform_for_roll(total: int, *, plains: bool) -> Landform:
    """The landform for a 2d6 total, with ridges flattened in a plains area."""
    if isinstance(total, bool) or not isinstance(total, int) or not 2 <= total <= 12:
        raise ValueError(f"a 2d6 total is between 2 and 12, not {total!r}")
    landform = _LANDFORM_BY_TOTAL[total]
    assert landform is not None
    if plains:
        return _PLAINS_LANDFORM.get(landform, landform)
    return landform


def _check_area_vegetation(area_vegetation: str) -> None:
    if area_vegetation not in AREA_VEGETATION:
        raise ValueError(
            f"unknown area vegetation {area_vegetation!r}; expected one of {AREA_VEGETATION}"
        )


def rolls_vegetation_die(area_vegetation: str) -> bool:
    """Whether a square in this area rolls a d6 for its woods (a clearing rolls none)."""
    _check_area_vegetation(area_vegetation)
    return area_vegetation != "clearing"


def vegetation_for_roll(die: int | None, area_vegetation: str) -> Vegetation:
    """The woods on a square from its d6 and the area's vegetation.

    Jungle is heavy woods on 2+ and light woods on a 1; light vegetation is light woods on
    5+; a clearing has no woods and rolls no die, so ``die`` is ignored (pass ``None``).
    """
    if not rolls_vegetation_die(area_vegetation):
        return Vegetation.NONE
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
        raise ValueError(f"a vegetation die is a d6 face from 1 to 6, not {die!r}")
    if area_vegetation == "jungle":
        return Vegetation.HEAVY_WOODS if die >= 2 else Vegetation.LIGHT_WOODS
    return Vegetation.LIGHT_WOODS if die >= 5 else Vegetation.NONE


def going_of(
    landform: Landform,
    vegetation: Vegetation,
    landform_going: Mapping[Landform, Going] | None = None,
) -> Going:
    """A square's going: the worse of its ground's (by ``landform_going``) and its woods'."""
    ground = (landform_going or _LANDFORM_GOING)[landform]
    return Going.worse(ground, _VEGETATION_GOING[vegetation])


@dataclass(frozen=True, slots=True)
class Square:
    """One rolled 1-ft square, with the dice that made it so a battle log can show them."""

    col: int
    row: int
    landform_dice: tuple[int, int]
    landform: Landform
    vegetation_die: int | None
    vegetation: Vegetation
    going: Going

    @property
    def blocks_sight(self) -> bool:
        """Ridges (steep or not, high or low) and hills stand between units."""
        return self.landform in _SIGHT_BLOCKING_LANDFORMS

    @property
    def wooded(self) -> bool:
        """Light or heavy woods: cover that hides the units inside it."""
        return self.vegetation is not Vegetation.NONE

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """The closed region of the square in inches: ``(x_min, y_min, x_max, y_max)``."""
        x = self.col * SQUARE_IN
        y = self.row * SQUARE_IN
        return (x, y, x + SQUARE_IN, y + SQUARE_IN)

    def to_json(self) -> dict[str, Any]:
        return {
            "col": self.col,
            "row": self.row,
            "landform_dice": list(self.landform_dice),
            "landform": self.landform.value,
            "vegetation_die": self.vegetation_die,
            "vegetation": self.vegetation.value,
            "going": self.going.value,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Square:
        """The inverse of ``to_json``; unknown terrain names raise ``ValueError``."""
        dice = tuple(data["landform_dice"])
        if len(dice) != 2:
            raise ValueError(f"a square's landform is rolled on 2d6, not {dice!r}")
        return cls(
            col=int(data["col"]),
            row=int(data["row"]),
            landform_dice=(int(dice[0]), int(dice[1])),
            landform=Landform(data["landform"]),
            vegetation_die=None if data["vegetation_die"] is None else int(data["vegetation_die"]),
            vegetation=Vegetation(data["vegetation"]),
            going=Going(data["going"]),
        )


Rect = tuple[int, int, int, int]

# Coordinates are floats on the way in and, when needed, Fractions inside: the geometry
# below only subtracts, multiplies and compares, so it is exact on either.
Coord = float | Fraction

_FINE_GRID = 1024.0


def _line(x1: float, y1: float, x2: float, y2: float) -> tuple[Coord, Coord, Coord, Coord]:
    """The points as they are when whole numbers (the geometry is exact on them), else
    as ``_exact`` makes them."""
    if type(x1) is int and type(y1) is int and type(x2) is int and type(y2) is int:
        return x1, y1, x2, y2
    return _exact(x1, y1, x2, y2)


def _exact(x1: float, y1: float, x2: float, y2: float) -> tuple[Coord, Coord, Coord, Coord]:
    """The points as numbers the geometry can use without rounding.

    Positions on a 1/1024" grid (the engine rounds to 0.5") are below 2**8 inches, so every
    difference has at most 18 significant bits and every product of two at most 36: float
    arithmetic on them is exact. Anything else (a stray float from some calculation) is
    converted to a Fraction, which is slower but never wrong at a grazing contact.
    """
    if (
        (x1 * _FINE_GRID).is_integer()
        and (y1 * _FINE_GRID).is_integer()
        and (x2 * _FINE_GRID).is_integer()
        and (y2 * _FINE_GRID).is_integer()
    ):
        return x1, y1, x2, y2
    return Fraction(x1), Fraction(y1), Fraction(x2), Fraction(y2)


def _high_ground_between(
    ax: Coord, ay: Coord, bx: Coord, by: Coord, blocking: Iterable[Rect]
) -> bool:
    """Ridges and hills block the line, unless the firer or the target is in that square."""
    for rect in blocking:
        xmin, ymin, xmax, ymax = rect
        if (xmin <= ax <= xmax and ymin <= ay <= ymax) or (
            xmin <= bx <= xmax and ymin <= by <= ymax
        ):
            continue
        if _segment_touches(ax, ay, bx, by, rect):
            return True
    return False


def _segment_touches(x1: Coord, y1: Coord, x2: Coord, y2: Coord, rect: Rect) -> bool:
    """Whether the closed segment p1-p2 meets the closed rectangle.

    Separating axes: the two box axes, then the segment's normal (the rectangle's corners
    all strictly on one side of the line). No division, so with ``_exact`` coordinates
    grazing contacts along an edge or at a corner are decided exactly, and count.
    """
    xmin, ymin, xmax, ymax = rect
    if (x1 if x1 > x2 else x2) < xmin or (x1 if x1 < x2 else x2) > xmax:
        return False
    if (y1 if y1 > y2 else y2) < ymin or (y1 if y1 < y2 else y2) > ymax:
        return False
    dx = x2 - x1
    dy = y2 - y1
    below = dx * (ymin - y1)
    above = dx * (ymax - y1)
    left = dy * (xmin - x1)
    right = dy * (xmax - x1)
    # Which side of the line each corner is on: the segment touches the box unless all
    # four are strictly on one side.
    a, b, c, d = below - left, below - right, above - left, above - right
    if (a > 0) + (b > 0) + (c > 0) + (d > 0) == 4:
        return False
    return (a < 0) + (b < 0) + (c < 0) + (d < 0) != 4


def _between(
    x1: Coord, y1: Coord, x2: Coord, y2: Coord, rects: tuple[Rect, ...]
) -> tuple[Rect, ...]:
    """The squares of ``rects`` that overlap the box of the line p1-p2 and hold neither
    end (those are the units' own, not between them)."""
    lo_x, hi_x = (x1, x2) if x1 <= x2 else (x2, x1)
    lo_y, hi_y = (y1, y2) if y1 <= y2 else (y2, y1)
    return tuple(
        rect
        for rect in rects
        if rect[0] <= hi_x
        and rect[2] >= lo_x
        and rect[1] <= hi_y
        and rect[3] >= lo_y
        and not _contains(rect, x1, y1)
        and not _contains(rect, x2, y2)
    )


def _contains(rect: Rect, x: Coord, y: Coord) -> bool:
    return rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3]


_BOTH_BLOCKED = (Sight.BLOCKED, Sight.BLOCKED)


@dataclass(frozen=True, slots=True)
class _PairCandidates:
    """For a (firer square, target square) pair: the squares a line between them could
    touch that could block it or break "the same woods". The pair's own squares are left
    out, since they always contain the firer or the target."""

    blocking: tuple[Rect, ...]
    open_ground: tuple[Rect, ...]
    wooded: tuple[Rect, ...]  # woods that may lie between the two units
    ends_wooded: tuple[bool, bool] = (False, False)  # the firer's square's, the target's
    # Nothing can block the line and neither end is in woods: seen both ways, whatever the
    # points in the two squares (sees_both_ways asks this first: issue 17).
    clear: bool = False


@dataclass(frozen=True, slots=True)
class Battlefield:
    """A rolled table: ``squares[row][col]``, row 0 along the defender's edge.

    Immutable in use; the private fields only memoise answers that depend on the squares
    alone, so they take no part in equality, hashing or the repr.
    """

    width_ft: int
    depth_ft: int
    squares: tuple[tuple[Square, ...], ...]
    _blocking_rects: tuple[Rect, ...] = field(init=False, repr=False, compare=False)
    _open_rects: tuple[Rect, ...] = field(init=False, repr=False, compare=False)
    _cover_cells: tuple[tuple[bool, ...], ...] = field(init=False, repr=False, compare=False)
    # Each square's (blocks_sight, wooded, bounds), by row and column, for _pair_candidates.
    _sight_cells: tuple[tuple[tuple[bool, bool, Rect], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    # Each square's going rank and closed bounds, by row and column, for going_along.
    _going_cells: tuple[tuple[tuple[int, Rect], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    _pair_cache: dict[tuple[int, int], _PairCandidates] = field(
        init=False, repr=False, compare=False
    )
    _wood_depth_memo: dict[tuple[float, float], tuple[float, bool]] = field(
        init=False, repr=False, compare=False
    )
    # square_at of every whole-inch point, by y then x (rows of one square row shared).
    _by_inch: tuple[tuple[Square, ...], ...] = field(init=False, repr=False, compare=False)
    # The same squares by number (row * width_ft + col): _pair's key, without the squares.
    _cell_by_inch: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_table_side("width_ft", self.width_ft)
        _check_table_side("depth_ft", self.depth_ft)
        if len(self.squares) != self.depth_ft:
            raise ValueError(f"expected {self.depth_ft} rows of squares, got {len(self.squares)}")
        for row_index, row in enumerate(self.squares):
            if len(row) != self.width_ft:
                raise ValueError(
                    f"row {row_index} has {len(row)} squares, expected {self.width_ft}"
                )
            for col_index, square in enumerate(row):
                if (square.col, square.row) != (col_index, row_index):
                    raise ValueError(
                        f"square ({square.col}, {square.row}) is stored at "
                        f"({col_index}, {row_index})"
                    )
        self._tabulate()

    def _tabulate(self) -> None:
        """The answers that depend on the squares alone, worked out once per table."""
        # Each square's properties asked once (issue 17: the table is rolled per battle).
        sight = tuple(
            tuple((s.blocks_sight, s.wooded, s.bounds) for s in row) for row in self.squares
        )
        object.__setattr__(self, "_sight_cells", sight)
        every = [cell for row in sight for cell in row]
        object.__setattr__(self, "_blocking_rects", tuple(b for high, _, b in every if high))
        object.__setattr__(self, "_open_rects", tuple(b for _, woods, b in every if not woods))
        cells = tuple(
            tuple((s.going.rank, cell[2]) for s, cell in zip(row, cells, strict=True))
            for row, cells in zip(self.squares, sight, strict=True)
        )
        object.__setattr__(self, "_going_cells", cells)
        cover = tuple(tuple(woods or high for high, woods, _ in row) for row in sight)
        object.__setattr__(self, "_cover_cells", cover)
        object.__setattr__(self, "_pair_cache", {})
        object.__setattr__(self, "_wood_depth_memo", {})
        by_inch, cell_by_inch = _by_inch(self.squares, self.width_ft, self.depth_ft)
        object.__setattr__(self, "_by_inch", by_inch)
        object.__setattr__(self, "_cell_by_inch", cell_by_inch)

    @property
    def width_in(self) -> int:
        return self.width_ft * SQUARE_IN

    @property
    def depth_in(self) -> int:
        return self.depth_ft * SQUARE_IN

    def __iter__(self) -> Iterator[Square]:
        """Every square in row-major order (row 0 first), the order they were rolled in."""
        for row in self.squares:
            yield from row

    def square_at(self, x: float, y: float) -> Square:
        """The square a unit at ``(x, y)`` stands in; a point off the table is an error."""
        if type(x) is int and type(y) is int and x >= 0 and y >= 0:
            try:  # a whole-inch point: by table look-up
                return self._by_inch[y][x]
            except IndexError:
                pass  # off the far edge: the error below
        width, depth = self.width_ft, self.depth_ft
        if not (0.0 <= x <= width * SQUARE_IN and 0.0 <= y <= depth * SQUARE_IN):
            raise ValueError(f'({x!r}, {y!r}) is off the {self.width_in}" x {self.depth_in}" table')
        col = int(x // SQUARE_IN)
        row = int(y // SQUARE_IN)
        return self.squares[row if row < depth else depth - 1][col if col < width else width - 1]

    def going_at(self, x: float, y: float) -> Going:
        return self.square_at(x, y).going

    def squares_along(self, x1: float, y1: float, x2: float, y2: float) -> tuple[Square, ...]:
        """Every square the straight segment p1-p2 touches, in row-major order.

        Squares are closed, so a segment along a grid line, or through a corner, touches
        the squares on both sides (the module docstring explains why).
        """
        self.square_at(x1, y1)
        self.square_at(x2, y2)
        col_lo, col_hi = _span(min(x1, x2), max(x1, x2), self.width_ft)
        row_lo, row_hi = _span(min(y1, y2), max(y1, y2), self.depth_ft)
        ax, ay, bx, by = _exact(x1, y1, x2, y2)
        return tuple(
            square
            for row in self.squares[row_lo : row_hi + 1]
            for square in row[col_lo : col_hi + 1]
            if _segment_touches(ax, ay, bx, by, square.bounds)
        )

    def going_along(self, x1: float, y1: float, x2: float, y2: float) -> Going:
        """The worst going of every square a straight move touches, start and end included.

        The squares holding the two ends are touched; of the others in the move's span,
        only those worse than the ends' going are tested against the line.
        """
        going = max(self.square_at(x1, y1).going.rank, self.square_at(x2, y2).going.rank)
        if going < _BAD_RANK:
            col_lo, col_hi = _span(min(x1, x2), max(x1, x2), self.width_ft)
            row_lo, row_hi = _span(min(y1, y2), max(y1, y2), self.depth_ft)
            ax, ay, bx, by = _exact(x1, y1, x2, y2)
            for row in self._going_cells[row_lo : row_hi + 1]:
                for rank, rect in row[col_lo : col_hi + 1]:
                    if rank > going and _segment_touches(ax, ay, bx, by, rect):
                        going = rank
                        if going == _BAD_RANK:
                            return Going.BAD
        return _GOING_BY_RANK[going]

    def wood_depth(self, x: float, y: float) -> float:
        """How far inside its woods a point is, in inches.

        0.0 outside woods; otherwise the distance to the nearest square that is not wooded
        (any direction, diagonals included). The table edge does not count as an edge of
        the woods, so a table that is all woods gives ``math.inf``.
        """
        return self._woods_at(x, y)[0]

    def _woods_at(self, x: float, y: float) -> tuple[float, bool]:
        """The wood depth at a point, and whether it is more than 3" (decided exactly)."""
        key = (x, y)
        memo = self._wood_depth_memo
        known = memo.get(key)
        if known is not None:
            return known
        if not self.square_at(x, y).wooded:
            known = (0.0, False)
        elif not self._open_rects:
            known = (math.inf, True)
        else:
            ex, ey = (x, y) if type(x) is int and type(y) is int else _exact(x, y, x, y)[:2]
            squared: Coord = math.inf  # to the nearest open square
            for xmin, ymin, xmax, ymax in self._open_rects:
                dx = xmin - ex if ex < xmin else (ex - xmax if ex > xmax else 0)
                dy = ymin - ey if ey < ymin else (ey - ymax if ey > ymax else 0)
                distance = dx * dx + dy * dy
                if distance < squared:
                    squared = distance
            # sqrt of an exact square is correctly rounded: exactly 3.0 at 3" deep.
            known = (math.sqrt(squared), squared > WOODS_EDGE_IN * WOODS_EDGE_IN)
        if len(memo) >= _WOOD_DEPTH_MEMO_LIMIT:
            memo.clear()
        memo[key] = known
        return known

    def _pair(
        self, x1: float, y1: float, x2: float, y2: float, whole: bool | None = None
    ) -> _PairCandidates:
        """What may stand between the two points' squares (kept per pair of squares, by
        their numbers: row * width_ft + col). ``whole``: whether the four are ints, if the
        caller has asked already (sees_both_ways: issue 17)."""
        if whole is None:
            whole = type(x1) is int and type(y1) is int and type(x2) is int and type(y2) is int
        if whole and x1 >= 0 and y1 >= 0 and x2 >= 0 and y2 >= 0:
            cells = self._cell_by_inch
            try:  # whole-inch points: by table look-up (square_at's)
                # ints, as ``whole`` says (mypy cannot follow it there).
                key = (cells[y1][x1], cells[y2][x2])  # type: ignore[call-overload]
            except IndexError:
                pass  # off the far edge: square_at's error below
            else:
                candidates = self._pair_cache.get(key)
                if candidates is not None:
                    return candidates
        firer = self.square_at(x1, y1)
        target = self.square_at(x2, y2)
        width = self.width_ft
        key = (firer.row * width + firer.col, target.row * width + target.col)
        candidates = self._pair_cache.get(key)
        if candidates is None:
            candidates = self._pair_cache[key] = self._pair_candidates(firer, target)
        return candidates

    def sight(
        self, x1: float, y1: float, x2: float, y2: float, *, woods_between: bool = False
    ) -> Sight:
        """What a unit at p1 sees of a unit at p2.

        Sight is about the target's concealment, so ``sight(a, b)`` may differ from
        ``sight(b, a)``: a unit deep in woods sees a unit in the open that cannot see it.
        ``woods_between``: the Korona rulings' woods between the two units obscure or
        block the line (module docstring); off, they do neither (Force on Force, whose
        3.9 Intervening Cover lets fire pass over them).
        """
        return self.mutual_sight(x1, y1, x2, y2, woods_between=woods_between)[0]

    def mutual_sight(
        self, x1: float, y1: float, x2: float, y2: float, *, woods_between: bool = False
    ) -> tuple[Sight, Sight]:
        """``(sight(p1, p2), sight(p2, p1))``, sharing the work the two have in common.

        What blocks the line and whether it stays in the same woods do not depend on the
        direction (the geometry is exact); only the target's concealment does.
        """
        candidates = self._pair(x1, y1, x2, y2)
        ax, ay, bx, by = _line(x1, y1, x2, y2)

        if candidates.blocking and _high_ground_between(ax, ay, bx, by, candidates.blocking):
            return _BOTH_BLOCKED

        firer_wooded, target_wooded = candidates.ends_wooded
        wooded_between = candidates.wooded if woods_between else ()
        if not (firer_wooded or target_wooded):
            between = self._woods_between(ax, ay, bx, by, wooded_between)
            return (between, between)
        # Both in woods, near enough, and the line stays in the woods: "the same woods".
        same_woods = False
        if firer_wooded and target_wooded:
            dx = bx - ax
            dy = by - ay
            same_woods = dx * dx + dy * dy <= SAME_WOODS_SIGHT_IN * SAME_WOODS_SIGHT_IN and (
                self._within_woods(ax, ay, bx, by, candidates.open_ground)
            )
        # Seen from outside its woods (or from too far inside the same woods), a unit
        # more than 3" inside its woods is not seen.
        between = Sight.CLEAR if same_woods else self._woods_between(ax, ay, bx, by, wooded_between)
        if between is Sight.BLOCKED:
            return _BOTH_BLOCKED
        forward = self._concealed(x2, y2, target_wooded, same_woods, between)
        return forward, self._concealed(x1, y1, firer_wooded, same_woods, between)

    def sees_both_ways(self, x1: float, y1: float, x2: float, y2: float) -> bool:
        """Whether neither way of ``mutual_sight(x1, y1, x2, y2)`` is BLOCKED (woods between
        off): a sight that is mutual asks only this. The same geometry, asked lazily: the
        woods' depth only for a wooded end, "the same woods" only for a deep one."""
        # _line's test, asked once for _pair too.
        whole = type(x1) is int and type(y1) is int and type(x2) is int and type(y2) is int
        candidates = self._pair(x1, y1, x2, y2, whole)
        if candidates.clear:
            return True
        ax, ay, bx, by = (x1, y1, x2, y2) if whole else _exact(x1, y1, x2, y2)
        if candidates.blocking and _high_ground_between(ax, ay, bx, by, candidates.blocking):
            return False
        # Not seen only more than 3" inside its woods, and then only from outside them.
        firer_wooded, target_wooded = candidates.ends_wooded
        deep = (firer_wooded and self._woods_at(x1, y1)[1]) or (
            target_wooded and self._woods_at(x2, y2)[1]
        )
        if not deep:
            return True
        if not (firer_wooded and target_wooded):
            return False
        dx = bx - ax
        dy = by - ay
        return dx * dx + dy * dy <= SAME_WOODS_SIGHT_IN * SAME_WOODS_SIGHT_IN and (
            self._within_woods(ax, ay, bx, by, candidates.open_ground)
        )

    def _concealed(
        self, x: float, y: float, wooded: bool, same_woods: bool, between: Sight
    ) -> Sight:
        """How a unit at (x, y) is seen, the line being ``between``: in woods it is
        obscured, and not seen at all more than 3" inside them (but from the same woods)."""
        if not wooded:
            return between
        if same_woods or not self._woods_at(x, y)[1]:
            return Sight.OBSCURED
        return Sight.BLOCKED

    @property
    def cover_by_square(self) -> tuple[tuple[bool, ...], ...]:
        """``cover_at`` for each square, by row and column (``[row][col]``)."""
        return self._cover_cells

    def cover_at(self, x: float, y: float) -> bool:
        """Whether a unit here is in cover: woods, and also ridges and hills.

        High ground counts so the AI's "from cover to cover" can stop on a ridge; it does
        not obscure the unit to fire (``sight`` alone decides that).
        """
        square = self.square_at(x, y)
        return square.wooded or square.blocks_sight

    def to_json(self) -> list[list[dict[str, Any]]]:
        return [[square.to_json() for square in row] for row in self.squares]

    @classmethod
    def from_json(
        cls, rows: Sequence[Sequence[Mapping[str, Any]]], *, width_ft: int, depth_ft: int
    ) -> Battlefield:
        """The inverse of ``to_json`` (replays and tests); a malformed table raises ValueError."""
        return cls(
            width_ft=width_ft,
            depth_ft=depth_ft,
            squares=tuple(tuple(Square.from_json(data) for data in row) for row in rows),
        )

    def _pair_candidates(self, firer: Square, target: Square) -> _PairCandidates:
        # A segment between the two squares stays inside their bounding block of squares,
        # but it may run along the block's outer edge, so one ring around it is included.
        col_lo, col_hi = _widened(firer.col, target.col, self.width_ft)
        row_lo, row_hi = _widened(firer.row, target.row, self.depth_ft)
        blocking: list[Rect] = []
        open_ground: list[Rect] = []
        wooded: list[Rect] = []
        ends = ((firer.col, firer.row), (target.col, target.row))
        for row_index in range(row_lo, row_hi + 1):
            row = self._sight_cells[row_index]
            for col_index in range(col_lo, col_hi + 1):
                if (col_index, row_index) in ends:
                    continue  # the firer's or the target's own square
                high, woods, bounds = row[col_index]
                if high:
                    blocking.append(bounds)
                if woods:
                    wooded.append(bounds)
                else:
                    open_ground.append(bounds)
        return _PairCandidates(
            tuple(blocking),
            tuple(open_ground),
            tuple(wooded),
            (firer.wooded, target.wooded),
            not blocking and not firer.wooded and not target.wooded,
        )

    @staticmethod
    def _woods_between(
        x1: Coord, y1: Coord, x2: Coord, y2: Coord, wooded: tuple[Rect, ...]
    ) -> Sight:
        """What the woods between two units do to the line: none crossed (or only touched
        at a corner) CLEAR, 3" or less OBSCURED, more BLOCKED. Squares containing either
        unit are theirs, not between them. The line's pieces inside each square are
        intervals of its parameter, merged so that a shared edge counts once; worked in
        floats, and again in Fractions when the answer is within rounding of 0" or 3".
        """
        if not wooded:
            return Sight.CLEAR
        if type(x1) is int and type(y1) is int and type(x2) is int and type(y2) is int:
            return _woods_between_whole(x1, y1, x2, y2, wooded)
        near = _between(x1, y1, x2, y2, wooded)
        if not near:
            return Sight.CLEAR
        inside_sq = _length_inside_squared(float(x1), float(y1), float(x2), float(y2), near)
        limit = WOODS_EDGE_IN * WOODS_EDGE_IN
        if inside_sq < 1e-6 or abs(inside_sq - limit) < 1e-6:
            inside_sq = _length_inside_squared(
                Fraction(x1), Fraction(y1), Fraction(x2), Fraction(y2), near
            )
        if inside_sq == 0:
            return Sight.CLEAR
        return Sight.OBSCURED if inside_sq <= limit else Sight.BLOCKED

    @staticmethod
    def _within_woods(
        x1: Coord, y1: Coord, x2: Coord, y2: Coord, open_ground: tuple[Rect, ...]
    ) -> bool:
        """Whether the line between two wooded points stays in woods ("the same woods").

        Open squares that contain either unit are the edge the unit stands on, not a gap
        between the two, so they do not count (as for blocking ridges).
        """
        for rect in open_ground:
            if _contains(rect, x1, y1) or _contains(rect, x2, y2):
                continue
            if _segment_touches(x1, y1, x2, y2, rect):
                return False
        return True


def _woods_between_whole(x1: int, y1: int, x2: int, y2: int, wooded: tuple[Rect, ...]) -> Sight:
    """``Battlefield._woods_between`` for whole-inch ends, in integers: exact, so it needs
    neither the floats' check nor Fractions.

    Every bound of the line's parameter t inside a square is a multiple of 1/``scale``
    (|dx| |dy|, or the one that is not 0), so t times ``scale`` is a whole number: the
    pieces are merged in those units, ``inside`` of them, and the squared length inside
    is (inside / scale)^2 (dx^2 + dy^2), compared with 0 and 3" squared without division.
    """
    dx, dy = x2 - x1, y2 - y1
    scale = abs(dx * dy) or abs(dx) or abs(dy)
    if scale == 0:
        return Sight.CLEAR  # a point: no length inside anything
    pieces = _pieces_whole(x1, y1, x2, y2, scale, wooded)
    if not pieces:
        return Sight.CLEAR
    inside = _union_length(pieces)  # more than 0: every piece has some length
    if inside * inside * (dx * dx + dy * dy) <= WOODS_EDGE_IN * WOODS_EDGE_IN * scale * scale:
        return Sight.OBSCURED
    return Sight.BLOCKED


def _pieces_whole(
    x1: int, y1: int, x2: int, y2: int, scale: int, wooded: tuple[Rect, ...]
) -> list[tuple[int, int]]:
    """The line's parameter inside each of the closed squares ``wooded`` between the two
    ends (as ``_between``: overlapping the line's box, holding neither end), times
    ``scale`` (whole numbers), where it has some length."""
    dx, dy = x2 - x1, y2 - y1
    lo_x, hi_x = (x1, x2) if x1 <= x2 else (x2, x1)
    lo_y, hi_y = (y1, y2) if y1 <= y2 else (y2, y1)
    # The parameter's change for an inch along each axis, exact (the difference divides
    # ``scale``; negative when it is), or 0 along an axis the line does not move along.
    step_x = scale // dx if dx else 0
    step_y = scale // dy if dy else 0
    pieces = []
    for xmin, ymin, xmax, ymax in wooded:
        # Overlapping the line's box: along an axis it does not move along, the line is
        # within the square's span, so only the other axis bounds it.
        if xmin > hi_x or xmax < lo_x or ymin > hi_y or ymax < lo_y:
            continue
        if (xmin <= x1 <= xmax and ymin <= y1 <= ymax) or (
            xmin <= x2 <= xmax and ymin <= y2 <= ymax
        ):
            continue  # an end's own square (as _contains)
        low, high = _clipped(0, scale, xmin - x1, xmax - x1, step_x)
        low, high = _clipped(low, high, ymin - y1, ymax - y1, step_y)
        if high > low:
            pieces.append((low, high))
    return pieces


def _widened(a: int, b: int, count: int) -> tuple[int, int]:
    """The indices from ``a`` to ``b`` (either order) and one more each way, kept within
    0 to ``count`` - 1: max(0, min(a, b) - 1), min(count - 1, max(a, b) + 1) without
    those four builtin calls (dearer than this one)."""
    low, high = (a, b) if a <= b else (b, a)
    return (low - 1 if low > 0 else 0), (high + 1 if high < count - 1 else count - 1)


def _clipped(low: int, high: int, first: int, last: int, step: int) -> tuple[int, int]:
    """The interval (low, high) cut to the one from ``first`` to ``last`` times ``step``
    (in either order: as max(low, min(...)), min(high, max(...)), without those calls,
    dearer here than this one); uncut along an axis the line does not move along (a
    ``step`` of 0: the box test has kept it within the square's span)."""
    if not step:
        return low, high
    one, other = first * step, last * step
    if one > other:
        one, other = other, one
    return (one if one > low else low), (other if other < high else high)


def _union_length(pieces: list[tuple[Any, Any]], zero: Any = 0) -> Any:
    """The length of the union of the intervals ``pieces`` (a shared end counts once),
    summed from ``zero`` in the pieces' own numbers (ints, floats or Fractions)."""
    pieces.sort()
    total = zero
    start, end = pieces[0]
    for low, high in pieces[1:]:
        if low > end:
            total += end - start
            start, end = low, high
        elif high > end:
            end = high
    total += end - start
    return total


def _length_inside_squared(x1: Any, y1: Any, x2: Any, y2: Any, rects: tuple[Rect, ...]) -> Any:
    """The squared length of the segment's part inside the union of the closed ``rects``
    (floats in, a float out; Fractions in, exact out)."""
    dx, dy = x2 - x1, y2 - y1
    zero, one = x1 - x1, x1 - x1 + 1
    pieces = []
    for rect in rects:
        low, high = zero, one
        for start, delta, lo, hi in ((x1, dx, rect[0], rect[2]), (y1, dy, rect[1], rect[3])):
            if delta == 0:
                if not lo <= start <= hi:
                    high = low - 1
                    break
                continue
            t_lo, t_hi = (lo - start) / delta, (hi - start) / delta
            if t_lo > t_hi:
                t_lo, t_hi = t_hi, t_lo
            if t_lo > low:
                low = t_lo
            if t_hi < high:
                high = t_hi
        if high > low:
            pieces.append((low, high))
    if not pieces:
        return zero
    total = _union_length(pieces, zero)
    return total * total * (dx * dx + dy * dy)


def _by_inch(
    squares: tuple[tuple[Square, ...], ...], width_ft: int, depth_ft: int
) -> tuple[tuple[tuple[Square, ...], ...], tuple[tuple[int, ...], ...]]:
    """The square of every whole-inch point on the table, by y then x, and its number
    (row * width_ft + col); the points of one row of squares share their rows."""
    by_row = [_by_inches(row) for row in squares]
    numbered = [_by_inches([s.row * width_ft + s.col for s in row]) for row in squares]
    return _by_inches(by_row), _by_inches(numbered)


_T = TypeVar("_T")


def _by_inches(by_foot: Sequence[_T]) -> tuple[_T, ...]:
    """What holds at each whole inch along a row or column of squares, from what holds in
    each square: each SQUARE_IN times, then the last once more (the far edge is in it)."""
    inches: list[_T] = []
    for one in by_foot:  # lists repeated, not a generator an inch (issue 17)
        inches += [one] * SQUARE_IN
    inches.append(by_foot[-1])
    return tuple(inches)


def _span(lo: float, hi: float, count: int) -> tuple[int, int]:
    """The first and last index of the closed squares overlapping ``[lo, hi]`` inches."""
    first = max(0, math.ceil(lo / SQUARE_IN) - 1)
    last = min(count - 1, int(hi // SQUARE_IN))
    return first, last


def _check_table_side(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number of feet, not {value!r}")
    if not 1 <= value <= MAX_TABLE_FT:
        raise ValueError(f"{name} must be between 1 and {MAX_TABLE_FT} feet, not {value}")


def generate_battlefield(
    roller: Roller,
    *,
    width_ft: int = 3,
    depth_ft: int = 3,
    vegetation: str,
    plains: bool,
    landform_going: Mapping[Landform, Going] | None = None,
) -> Battlefield:
    """Roll up a table square by square, row 0 first and column 0 first.

    ``landform_going`` gives each landform's going (every landform; Korona passes the
    battle's, by default ``RULINGS_LANDFORM_GOING``).

    Each square rolls 2d6 for its landform and then, unless the area is a clearing, a d6
    for its woods; the dice are kept on the square. A plains area still rolls its woods:
    plains flatten the ground, the area's vegetation decides the trees.
    """
    _check_table_side("width_ft", width_ft)
    _check_table_side("depth_ft", depth_ft)
    rolls_woods = rolls_vegetation_die(vegetation)
    if not isinstance(plains, bool):
        raise ValueError(f"plains must be True or False, not {plains!r}")
    rows: list[tuple[Square, ...]] = []
    for row in range(depth_ft):
        squares: list[Square] = []
        for col in range(width_ft):
            first, second = roller.roll(2, 6)
            landform = landform_for_roll(first + second, plains=plains)
            die = roller.d6() if rolls_woods else None
            woods = vegetation_for_roll(die, vegetation)
            squares.append(
                Square(
                    col=col,
                    row=row,
                    landform_dice=(first, second),
                    landform=landform,
                    vegetation_die=die,
                    vegetation=woods,
                    going=going_of(landform, woods, landform_going),
                )
            )
        rows.append(tuple(squares))
    return Battlefield(width_ft=width_ft, depth_ft=depth_ft, squares=tuple(rows))


@dataclass(frozen=True, slots=True)
class RolledTable:
    """A battle's table as its rule set rolls it first from the battle's seed, with the
    dice that took. A battle fought on it (``rules.rulesets.resolve_battle``'s ``table``)
    goes on from the next die, as if it had rolled the table itself: a table rolled
    before the battle (the campaign AI reads it to choose the defender's sniper) is
    rolled once, not again for the fight (issue 17)."""

    battlefield: Battlefield
    seed: int
    dice: int  # the battle's first dice, which rolled the table
    # The battle's terrain it was rolled for (BattleSpec.terrain): a battle of another
    # table is refused it.
    terrain: tuple[Any, ...]
