"""What the battle pages show, from a battle's spec, result and log: plain functions.

Nothing here decides who may read a battle (``campaign.services.visibility`` does); the
views ask first and then call these. Positions are the engine's: whole inches from the
defender's left corner, the defender's edge at y = 0. The pictures put the defender's
edge at the bottom, so the attacker comes down the table from the top.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import names, rulesets
from rules.battlefield import SQUARE_IN
from rules.spec import parse_battle
from rules.units import UNIT_TYPES

FORCES = ("attacker", "defender")

# One short word per landform, small enough to write inside a square of the picture (the
# 2d6 table's mud/rocks/swamp by what it is read as: ``SquareView.mud_read_as``).
LANDFORM_SHORT = {
    "flat": "flat",
    "hill": "hill",
    "low_ridge": "low ridge",
    "high_ridge": "high ridge",
    "steep_low_ridge": "steep low",
    "steep_high_ridge": "steep high",
    "river_creek": "river",
}

MUD = "mud_rocks_swamp"  # the 2d6 table's one result for two grounds of the rulings

# Each landform's colour in the picture and in its key (rules.names.LANDFORM_NAMES's
# keys, in their order): the key's words are the rules' names, never typed again.
GROUND_COLOURS = {
    "flat": "#ece3c6",
    "hill": "#d9b98a",
    "low_ridge": "#cfa472",
    "high_ridge": "#b3834f",
    "steep_low_ridge": "#95613d",
    "steep_high_ridge": "#74452a",
    "mud_rocks_swamp": "#8e9a63",
    "river_creek": "#86b8de",
}
# The wooded squares' patterns in the picture (templates/battles/_field.html's defs).
WOODS_PATTERNS = {"light_woods": "woods-light", "heavy_woods": "woods-heavy"}


@dataclass(frozen=True)
class KeySwatch:
    """One line of the key beside a battle's picture: ``key`` the rules' key
    ("mud_rocks_swamp"), ``name`` its words, ``fill`` its colour or pattern."""

    key: str
    name: str
    fill: str

    @property
    def mark(self) -> str:
        """The key as a page attribute: 'light-woods'."""
        return self.key.replace("_", "-")


@dataclass(frozen=True)
class PictureKey:
    """The key to a battle's picture: its grounds and its woods, each named by
    ``rules.names`` (as the set-up's terrain rolls and the squares' titles name them);
    a woods swatch is drawn over ``under_woods``, flat ground's colour."""

    grounds: tuple[KeySwatch, ...]
    woods: tuple[KeySwatch, ...]
    under_woods: str = GROUND_COLOURS["flat"]


def picture_key() -> PictureKey:
    """The key to a battle's picture, built from the rules' names: never typed by hand."""
    return PictureKey(
        grounds=tuple(
            KeySwatch(key, names.landform(key), GROUND_COLOURS[key]) for key in names.LANDFORM_NAMES
        ),
        woods=tuple(
            KeySwatch(key, names.vegetation(key), f"url(#{pattern})")
            for key, pattern in WOODS_PATTERNS.items()
        ),
    )


# Short marks written on a stand's counter in the pictures.
STAND_MARKS = {
    "commander": "C",
    "forward_observer": "FO",
    "sniper": "S",
    "rifle_squad": "R",
    "hmg": "MG",
    "small_mortar": "M",
    "medium_mortar": "HM",
    "at_gun": "AT",
    "heavy_artillery": "A",
    "wheeled_vehicle": "WV",
    "tracked_vehicle": "TV",
    "light_tank": "LT",
    "medium_tank": "MT",
    "heavy_tank": "HT",
    "carrier": "Ca",
}

# How far a counter's drawing reaches from its centre, its outline included: a circle of
# radius 1.2 (a Japanese square is 2.2 across) with its widest outline, .7 for a stand
# lost this step, half of it outside (templates/battles/_field_style.html).
COUNTER_REACH = 1.6
# Counters closer than this, across or down (a counter is 2.4 across), are drawn apart,
# where one covered part of another or all of it (two stands on one inch): each moves by
# pushes of at most ``SPREAD_REACH``, then any still touching another goes to the
# nearest free spot in its square; a square with no free spot left draws all its
# counters in a grid, smaller when they must be (``_grid``); never out of its square nor
# off the table. The frames, the lines and the log keep where they stand.
COUNTER_GAP = 2.6
SPREAD_REACH = 2.6
SPREAD_ROUNDS = 12


def unit_label(unit_type: str) -> str:
    unit = UNIT_TYPES.get(unit_type)
    return unit.label if unit else unit_type.replace("_", " ")


def stand_words(stand_id: str, sides: Mapping[str, str] | None = None) -> str:
    """A stand as the log's lines name it (``rules.narrate.stand_name``): by its side
    when the battle's ``sides`` are given, 'a.hmg.1' -> 'Japanese HMG 1' (the pages give
    them: ``rules.narrate.stand_sides``), else by its role, 'attacker HMG 1'."""
    return rulesets.stand_name(stand_id, sides)


def stand_mark(stand_id: str) -> str:
    """The counter's mark: 'R3' for rifle squad 3, 'C' for a lone commander."""
    _, _, rest = stand_id.partition(".")
    unit, _, number = rest.rpartition(".")
    mark = STAND_MARKS.get(unit, unit[:2].upper())
    return (
        f"{mark}{number}" if unit in ("rifle_squad", "sniper") or number not in ("", "1") else mark
    )


def stand_order(stand_id: str) -> tuple[str, tuple[int, str], int]:
    """Where a stand comes in a list: by its force ('a.' first), then its unit in the
    units' own order (``rules.names.unit_rank``: the commander first), then its number
    (rifle squad 2 before 10); never in the order of a log read back from jsonb."""
    force, _, rest = stand_id.partition(".")
    unit, _, number = rest.rpartition(".")
    return (force, names.unit_rank(unit), int(number) if number.isdigit() else 0)


def force_key_of(stand_id: str) -> str:
    return "attacker" if stand_id.startswith("a.") else "defender"


# --- the terrain ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SquareView:
    """One 1-ft square as the pages draw and list it."""

    col: int
    row: int
    landform: str
    vegetation: str
    going: str
    dice: tuple[int, ...]  # the 2d6 and the woods d6, as rolled (none for a hand-laid table)
    depth_in: int  # the table's depth, to draw the defender's edge at the bottom

    @property
    def x(self) -> int:
        return self.col * SQUARE_IN

    @property
    def y(self) -> int:
        """The top of the square in the picture (y grows down the page)."""
        return self.depth_in - (self.row + 1) * SQUARE_IN

    @property
    def size(self) -> int:
        return SQUARE_IN

    @property
    def landform_words(self) -> str:
        return names.landform(self.landform)

    @property
    def landform_parts(self) -> list[str]:
        """The ground's words (``ground_words``) split at their slashes ("river", "creek"),
        where the sheet's squares table may wrap them on a phone."""
        return self.ground_words.split("/")

    @property
    def short(self) -> str:
        if self.landform == MUD:
            return self.mud_read_as
        return LANDFORM_SHORT.get(self.landform, self.landform.replace("_", " "))

    @property
    def mud_read_as(self) -> str:
        """What the 2d6 table's "mud/rocks/swamp" square is read as, by its going: the
        rulings' mud/rocks (rough, Korona's ruling, docs/rules.md) or, where the GM made
        it bad, swamp. "swamp / rough" puzzled a player who read swamp = bad."""
        return "swamp" if self.going == "bad" else "mud/rocks"

    @property
    def ground_words(self) -> str:
        """The square's ground in the sheet's table: "mud/rocks/swamp (read as mud/rocks)"."""
        if self.landform == MUD:
            return f"{self.landform_words} (read as {self.mud_read_as})"
        return self.landform_words

    @property
    def vegetation_words(self) -> str:
        return names.vegetation(self.vegetation)

    @property
    def wooded(self) -> bool:
        return self.vegetation != "none"

    @property
    def label(self) -> str:
        """The square's name on the sheet: columns by letter from the defender's left,
        rows by number from the defender's edge (A1 is the defender's left corner)."""
        return f"{chr(ord('A') + self.col)}{self.row + 1}"

    @property
    def name_line(self) -> str:
        """What the picture writes in the square: 'B3 hill'."""
        return f"{self.label} {self.short}"

    @property
    def going_line(self) -> str:
        """The square's going in the picture: 'rough, light woods'."""
        return f"{self.going}, {self.vegetation_words}" if self.wooded else self.going

    @property
    def dice_parts(self) -> list[str]:
        """The square's rolls, each kept whole where the sheet's dice column wraps (a
        phone): "2d6 2+5 = 7", "woods d6 4"."""
        if not self.dice:
            return ["laid out by hand"]
        parts = [f"2d6 {self.dice[0]}+{self.dice[1]} = {self.dice[0] + self.dice[1]}"]
        if len(self.dice) > 2:
            parts.append(f"woods d6 {self.dice[2]}")
        return parts

    @property
    def dice_words(self) -> str:
        return ", ".join(self.dice_parts)

    @property
    def title(self) -> str:
        return (
            f"{self.label}: {self.ground_words}, {self.vegetation_words}, "
            f"{self.going} going ({self.dice_words})"
        )


@dataclass(frozen=True, slots=True)
class Table:
    width_ft: int
    depth_ft: int
    squares: list[SquareView]
    source: str  # "log", "result" or "seed": where the squares were read from

    @property
    def width_in(self) -> int:
        return self.width_ft * SQUARE_IN

    @property
    def depth_in(self) -> int:
        return self.depth_ft * SQUARE_IN

    @property
    def rows(self) -> list[list[SquareView]]:
        """Rows from the attacker's edge (top of the picture) to the defender's."""
        by_row: dict[int, list[SquareView]] = {}
        for square in self.squares:
            by_row.setdefault(square.row, []).append(square)
        return [sorted(by_row[row], key=lambda s: s.col) for row in sorted(by_row, reverse=True)]

    @property
    def has_mud(self) -> bool:
        """A square rolled "mud/rocks/swamp": the sheet says how it is read."""
        return any(square.landform == MUD for square in self.squares)

    @property
    def columns(self) -> list[str]:
        return [chr(ord("A") + col) for col in range(self.width_ft)]

    @property
    def counter_inset(self) -> float:
        """How far in from the table's edges a counter's centre is drawn at least (the
        template and replay.js read it)."""
        return COUNTER_REACH

    def drawn_at(self, x: float, y: float) -> tuple[float, float]:
        """Where a counter whose centre is at (x, y) in the picture is drawn: there, or as
        near it as keeps the whole counter on the table. The engines put stands on the
        very edge (an edge entry, a move that stops at it), and a counter centred there
        hung half off the table over the inch marks. Only the drawing moves: the frames,
        the log and the counter's name keep the engine's position, and at most
        ``COUNTER_REACH`` inches, never into another 1-ft square."""
        inset = COUNTER_REACH
        return (
            min(max(x, inset), self.width_in - inset),
            min(max(y, inset), self.depth_in - inset),
        )

    def square_bounds(self, x: float, y: float) -> tuple[float, float, float, float]:
        """Where in the picture a counter of a stand at (x, y) in the picture may be drawn:
        inside the square it stands in (``square_of``: on a line between two, the square
        to its right or above it in the engine's terms) and wholly on the table."""
        col = min(max(int(x // SQUARE_IN), 0), self.width_ft - 1)
        row = min(max(int((self.depth_in - y) // SQUARE_IN), 0), self.depth_ft - 1)
        inset = COUNTER_REACH
        line = 0.01  # a centre on the square's right or upper line is in the next square
        return (
            max(col * SQUARE_IN, inset),
            max(self.depth_in - (row + 1) * SQUARE_IN + line, inset),
            min((col + 1) * SQUARE_IN - line, self.width_in - inset),
            min(self.depth_in - row * SQUARE_IN, self.depth_in - inset),
        )

    def drawn_apart(
        self, positions: Mapping[str, Sequence[float]], lost: Collection[str] = ()
    ) -> dict[str, list[float]]:
        """Where the counters of one step are drawn, in the picture: each at ``drawn_at``,
        and the stands still fighting that stand closer than ``COUNTER_GAP`` pushed apart
        (two on one inch side by side), so that no counter hides another, each in its own
        square: a square too crowded for that draws its counters in a grid, smaller
        when they must be, the scale a third number (``_grid``). A lost stand, drawn
        faded beneath them, stays where it fell unless it touches a counter drawn before
        it (the living first, then the lost by name): it then goes to the nearest free
        spot in its square, or, with none left, stays and its mark is left out
        (``unmarked``). Marks lying on one another ran together into a garble (a
        walk-through: "R18R13" at a replay's last step)."""
        origin = {
            stand: self.drawn_at(x, self.depth_in - y)
            for stand, (x, y) in sorted(positions.items())
        }
        drawn = {stand: list(point) for stand, point in origin.items()}
        living = [stand for stand in drawn if stand not in lost]
        bounds = {stand: self.square_bounds(*origin[stand]) for stand in living}
        for _ in range(SPREAD_ROUNDS):
            if not _push_apart(drawn, living):
                break
            for stand in living:
                drawn[stand] = _held(drawn[stand], origin[stand], bounds[stand])
        crowded: dict[Bounds, list[str]] = {}
        while True:  # each pass finds at most one more square too crowded to spread in
            settled, full = _settled(drawn, origin, living, bounds, crowded)
            if full is None:
                break
            crowded[full] = [stand for stand in living if bounds[stand] == full]
        drawn.update(settled)
        placed = [drawn[stand] for stand in living]
        for stand in sorted(set(lost) & drawn.keys()):
            if any(_touching(drawn[stand], other) for other in placed):
                bounds_lost = self.square_bounds(*origin[stand])
                drawn[stand] = _free_spot(origin[stand], placed, bounds_lost) or drawn[stand]
            placed.append(drawn[stand])
        return {stand: [round(v, 2) for v in at] for stand, at in drawn.items()}

    @staticmethod
    def unmarked(drawn: Mapping[str, Sequence[float]], lost: Collection[str]) -> list[str]:
        """The lost stands whose marks a step leaves out (``drawn_apart``): each one that
        touches a counter drawn before it, the living first, then the lost by name. Its
        faded counter is still drawn, and its title still names it."""
        placed = [at for stand, at in drawn.items() if stand not in lost]
        out = []
        for stand in sorted(set(lost) & drawn.keys()):
            if any(_touching(drawn[stand], other) for other in placed):
                out.append(stand)
            placed.append(drawn[stand])
        return out

    @property
    def slots_json(self) -> str:
        """``LABEL_SLOTS`` for replay.js, which moves the squares' names at each step."""
        return json.dumps(LABEL_SLOTS)

    def labels(self, drawn: Mapping[str, Sequence[float]] | None = None) -> list[SquareLabel]:
        """Each square's name and going as the picture writes them, where no counter of
        ``drawn`` (a step's, every stand lost ones included) is: ``label_slots``."""
        chosen = label_slots(self, drawn or {})
        out = []
        for i, square in enumerate(self.squares):
            for j, text in enumerate((square.name_line, square.going_line)):
                slot = chosen[2 * i + j]
                dx, dy, anchor = LABEL_SLOTS[int(slot, 36)] if slot != "-" else (0, 0, "start")
                out.append(
                    SquareLabel(
                        kind="cell-label" if j == 0 else "cell-going",
                        text=text,
                        corner_x=square.x,
                        corner_y=square.y,
                        x=round(square.x + dx, 2),
                        y=round(square.y + dy, 2),
                        anchor=anchor,
                        shown=slot != "-",
                    )
                )
        return out

    @property
    def woods(self) -> list[Woods]:
        """The trees of every wooded square, clear of its name and going where the sheet
        writes them (no counters: their first places)."""
        return self.woods_among(self.labels())

    def woods_among(self, labels: Sequence[SquareLabel]) -> list[Woods]:
        """The trees of every wooded square, each whole, on the grid of its kind (as the
        key's pattern draws them), and each one a shown name or going of its square would
        touch left out: a name written over trees read badly and hid them (a
        walk-through). replay.js does the same at each step, where the names move."""
        shown = [label for label in labels if label.shown]
        out = []
        for square in self.squares:
            grid = TREE_GRIDS.get(square.vegetation)
            if grid is None:
                continue
            tile, (dx, dy), half = grid
            boxes = [
                _label_box(label)
                for label in shown
                if (label.corner_x, label.corner_y) == (square.x, square.y)
            ]
            per_side = round(SQUARE_IN / tile)
            trees = []
            for row in range(per_side):
                for col in range(per_side):
                    x = round(square.x + col * tile + dx, 2)
                    y = round(square.y + row * tile + dy, 2)
                    box = (x - half[0], y - half[1], x + half[0], y + half[1])
                    clear = not any(_meet(box, other) for other in boxes)
                    trees.append(Tree(x, y, " ".join(f"{v:g}" for v in box), clear))
            out.append(Woods(square.label, WOODS_PATTERNS[square.vegetation], trees))
        return out

    @property
    def tick_y(self) -> float:
        """Where the inch marks along the defender's edge are written."""
        return self.depth_in + 2.6

    @property
    def edge_label_y(self) -> float:
        return self.depth_in + 4.6

    @property
    def axis_label_y(self) -> float:
        """Where "inches from the left corner", the inch marks' caption, is written: on
        the defender's edge's line, at the other end, where the table is wide enough for
        both apart (3 ft and more), else on a line of its own below (as one caption,
        "defender's edge (inches from the left corner)" ran two labels together)."""
        return round(self.edge_label_y + (0 if self.width_ft >= 3 else 1.8), 2)

    @property
    def view_height(self) -> float:
        """The picture's height in its viewBox: the table, its margins and the labels."""
        return round(self.axis_label_y + 0.4 + 4, 2)

    @property
    def x_ticks(self) -> list[int]:
        return list(range(0, self.width_in + 1, 6))

    @property
    def y_ticks(self) -> list[tuple[int, int]]:
        """(inches from the defender's edge, y in the picture)."""
        return [(y, self.depth_in - y) for y in range(0, self.depth_in + 1, 6)]


def _push_apart(drawn: dict[str, list[float]], stands: Sequence[str]) -> bool:
    """One round: each two of ``stands`` closer than ``COUNTER_GAP`` across and down
    moved apart, along whichever of the two they are farther apart on, half the
    shortfall each. Did any move?"""
    moved = False
    near = COUNTER_GAP - 1e-6  # as _touching, inline: this is the replay's inner loop
    points = [drawn[stand] for stand in stands]
    for i, a in enumerate(points):
        for j in range(i + 1, len(points)):
            b = points[j]
            dx, dy = b[0] - a[0], b[1] - a[1]
            if not (-near < dx < near and -near < dy < near):
                continue
            if max(abs(dx), abs(dy)) < 1e-6:  # on one point: apart at an angle of their own
                dx, dy = math.cos(2.4 * (i + j)), math.sin(2.4 * (i + j))
            axis = 0 if abs(dx) >= abs(dy) else 1
            apart = (dx, dy)[axis]
            push = (COUNTER_GAP - abs(apart)) / 2 * (1 if apart >= 0 else -1)
            a[axis] -= push
            b[axis] += push
            moved = True
    return moved


def _held(
    point: list[float], origin: tuple[float, float], bounds: tuple[float, float, float, float]
) -> list[float]:
    """``point``, but at most ``SPREAD_REACH`` from ``origin`` and within ``bounds``."""
    dx, dy = point[0] - origin[0], point[1] - origin[1]
    away = math.hypot(dx, dy)
    if away > SPREAD_REACH:
        dx, dy = dx / away * SPREAD_REACH, dy / away * SPREAD_REACH
    left, top, right, bottom = bounds
    return [min(max(origin[0] + dx, left), right), min(max(origin[1] + dy, top), bottom)]


Bounds = tuple[float, float, float, float]


def _settled(
    drawn: Mapping[str, list[float]],
    origin: Mapping[str, tuple[float, float]],
    living: Sequence[str],
    bounds: Mapping[str, Bounds],
    crowded: Mapping[Bounds, Sequence[str]],
) -> tuple[dict[str, list[float]], Bounds | None]:
    """Where ``living``'s counters, pushed apart to ``drawn``, end: the ``crowded``
    squares' in their grid (``_grid``), then each other one where the pushes left it or,
    when it touches one placed before it, at the free spot in its square nearest where
    it stands (its ``origin``). The first square found with no free spot left, if any,
    to be drawn as a grid too."""
    out: dict[str, list[float]] = {}
    for square, stands in crowded.items():
        out |= _grid(stands, drawn, square)
    placed = list(out.values())
    for stand in living:
        if stand in out:
            continue
        at = drawn[stand]
        if any(_touching(at, other) for other in placed):
            at = _free_spot(origin[stand], placed, bounds[stand])  # type: ignore[assignment]
            if at is None:
                return out, bounds[stand]
        out[stand] = list(at)
        placed.append(out[stand])
    return out, None


def _grid(
    stands: Sequence[str], drawn: Mapping[str, Sequence[float]], square: Bounds
) -> dict[str, list[float]]:
    """A square too crowded for its counters to spread in: all of them in rows of an
    even grid, each counter wholly inside the square, in the order they stand (by rows
    down the picture, then across), at full size for 16 of them or fewer (4 by 4), else
    smaller by as much as the grid needs (.88 for 25, .74 for 36, .64 for 49); the scale
    is the third number of each place."""
    across = max(4, math.ceil(math.sqrt(len(stands))))
    scale = min(1.0, SQUARE_IN / (COUNTER_GAP * (across - 1) + 2 * COUNTER_REACH))
    reach = COUNTER_REACH * scale
    pitch = (SQUARE_IN - 2 * reach) / (across - 1)
    left, top = square[0] // SQUARE_IN * SQUARE_IN, square[1] // SQUARE_IN * SQUARE_IN
    rows = math.ceil(len(stands) / across)
    top += (SQUARE_IN - 2 * reach - pitch * (rows - 1)) / 2  # the rows in the middle
    by_row = sorted(stands, key=lambda stand: (drawn[stand][1], drawn[stand][0]))
    out = {}
    for row in range(rows):
        line = sorted(by_row[row * across : (row + 1) * across], key=lambda s: drawn[s][0])
        for col, stand in enumerate(line):
            at = [left + reach + col * pitch, top + reach + row * pitch]
            out[stand] = at + [scale] if scale < 1 else at
    return out


def _touching(a: Sequence[float], b: Sequence[float]) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) < COUNTER_GAP - 1e-6


# Where to look for a free spot, nearest first: a grid of quarter inches around a point.
_SPOTS = sorted(
    ((dx / 4, dy / 4) for dx in range(-48, 49) for dy in range(-48, 49)),
    key=lambda d: (math.hypot(*d), d),
)
# A counter farther than this across or down from the point looked around touches none.
_NEAR_SPOTS = max(max(abs(dx), abs(dy)) for dx, dy in _SPOTS) + COUNTER_GAP


def _free_spot(
    origin: Sequence[float],
    placed: Sequence[Sequence[float]],
    bounds: tuple[float, float, float, float],
) -> list[float] | None:
    """The nearest point to ``origin`` within ``bounds`` where a counter touches none of
    ``placed``, if there is one within a foot."""
    left, top, right, bottom = bounds
    ox, oy = origin
    # Only a counter within a foot and a gap of ``origin`` can touch a spot looked at.
    placed = [p for p in placed if abs(p[0] - ox) < _NEAR_SPOTS and abs(p[1] - oy) < _NEAR_SPOTS]
    near = COUNTER_GAP - 1e-6  # as _touching, inline: some 9,000 spots a counter
    for dx, dy in _SPOTS:
        x, y = ox + dx, oy + dy
        if not (left <= x <= right and top <= y <= bottom):
            continue
        for other in placed:
            if -near < other[0] - x < near and -near < other[1] - y < near:
                break
        else:
            return [x, y]
    return None


# --- the squares' names, where no counter is --------------------------------------------

NAME_FONT, GOING_FONT = 1.25, 1.05  # templates/battles/_field_style.html
# Where a square's name or going may be written, from its top left corner (x, y of the
# text, hanging from y; its anchor): in rows down the square, each at its left or its
# right side. The names' slots first (the top row preferred), then the goings', each
# right beneath a name's (``GOING_BELOW``), so that the two read as one square's; none
# beneath the lowest name, where the going would sit on the square's bottom line, above
# the next square's name. replay.js reads them from the picture.
GOING_BELOW = 1.45
_NAME_ROWS = [round(0.45 + 1.55 * k, 2) for k in range(7)]
_GOING_ROWS = [round(row + GOING_BELOW, 2) for row in _NAME_ROWS[:-1]]
_SIDES = ((0.4, "start"), (SQUARE_IN - 0.4, "end"))
LABEL_SLOTS: tuple[tuple[float, float, str], ...] = (
    *((dx, dy, anchor) for dy in _NAME_ROWS for dx, anchor in _SIDES),
    *((dx, dy, anchor) for dy in _GOING_ROWS for dx, anchor in _SIDES),
)
NAME_SLOTS = range(0, 2 * len(_NAME_ROWS))
GOING_SLOTS = range(2 * len(_NAME_ROWS), len(LABEL_SLOTS))
# A stand's counter as the names keep clear of it: its half width with its widest
# outline, and a little room.
COUNTER_CLEAR = 1.6


@dataclass(frozen=True, slots=True)
class SquareLabel:
    """A square's name or going, where the picture writes it (``Table.labels``)."""

    kind: str  # "cell-label" (the name) or "cell-going"
    text: str
    corner_x: int  # the square's top left corner, which replay.js adds a slot's place to
    corner_y: int
    x: float
    y: float
    anchor: str
    shown: bool  # False when every slot had a counter on it


# A wooded square's trees: one a tile (inches), at its place in the tile (from the tile's
# top left corner) and its half width and half height with its outline, as the key's
# patterns draw them (templates/battles/_field.html, "woods-light", "woods-heavy").
TREE_GRIDS: dict[str, tuple[float, tuple[float, float], tuple[float, float]]] = {
    "light_woods": (4.0, (2.0, 2.1), (1.0, 1.1)),
    "heavy_woods": (2.4, (1.2, 1.1), (0.8, 0.75)),
}


@dataclass(frozen=True, slots=True)
class Tree:
    """One tree of a wooded square, where the picture draws it (its middle)."""

    x: float
    y: float
    box: str  # "left top right bottom", which replay.js keeps the names clear of
    shown: bool  # False where a name or going of its square is written over it


@dataclass(frozen=True, slots=True)
class Woods:
    """A wooded square's trees (``Table.woods_among``)."""

    square: str  # its name, "B3"
    kind: str  # "woods-light" or "woods-heavy": the tree drawn, as the key's pattern
    trees: list[Tree]


def _label_box(label: SquareLabel) -> tuple[float, float, float, float]:
    """Where a square's name or going is written, with its halo (``_text_box``)."""
    font = NAME_FONT if label.kind == "cell-label" else GOING_FONT
    width = text_width(label.text, font)
    left = label.x - (width if label.anchor == "end" else 0)
    return (left - 0.2, label.y - 0.25 * font, left + width + 0.2, label.y + 1.1 * font)


# Said under the replay's picture at a step where a square's name or going found no room
# among the stands (``label_slots`` left it out): replay.js writes the same, step by step.
UNWRITTEN_LEAD = "Covered by stands at this step: "


def unwritten_words(labels: Sequence[SquareLabel]) -> str:
    """The squares whose name or going the picture leaves out at a step, each as the
    picture would write it ("B3 flat – rough, light woods"), in a sentence; "" for none.
    ``labels``: the squares' names and goings in pairs (``Table.labels``)."""
    left_out = [
        f"{name.text} – {going.text}"
        for name, going in zip(labels[::2], labels[1::2], strict=True)
        if not (name.shown and going.shown)
    ]
    return UNWRITTEN_LEAD + "; ".join(left_out) + "." if left_out else ""


def text_width(text: str, font: float) -> float:
    """A generous estimate of the width a line of the squares' type takes (the browser's
    sans-serif: a capital or a digit .72 of the size, a space or comma .34, others .64)."""
    widths = (0.34 if c in " ,." else 0.72 if c.isupper() or c.isdigit() else 0.64 for c in text)
    return sum(widths) * font


def _text_box(
    square: SquareView, slot: int, width: float, font: float
) -> tuple[float, float, float, float]:
    dx, dy, anchor = LABEL_SLOTS[slot]
    left = square.x + dx - (width if anchor == "end" else 0)
    top = square.y + dy
    return (left - 0.1, top - 0.25 * font, left + width + 0.1, top + 1.1 * font)


def _meet(a: Sequence[float], b: Sequence[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def label_slots(table: Table, drawn: Mapping[str, Sequence[float]]) -> str:
    """Where each square's name and going are written among the counters ``drawn``
    (where the picture draws them, a smaller one by its size): the name in the first of
    its slots that touches no counter, the going right beneath it (``_name_and_going``),
    as a base-36 digit per line (the squares in ``table``'s order, name then going), '-'
    where a line has no room (the square's title and the sheet still say it)."""
    counters = [
        (x - clear, y - clear, x + clear, y + clear)
        for x, y, *scale in drawn.values()
        for clear in (COUNTER_CLEAR * (scale[0] if scale else 1),)
    ]
    chosen = []
    for square in table.squares:
        edge = (square.x, square.y, square.x + SQUARE_IN, square.y + SQUARE_IN)
        taken = [box for box in counters if _meet(box, edge)]
        chosen.append(_name_and_going(square, taken))
    return "".join(chosen)


def _name_and_going(square: SquareView, taken: list[tuple[float, float, float, float]]) -> str:
    """A square's name and its going, as two slots (``label_slots``): the first name slot
    with its going's slot right beneath it where neither touches what is ``taken``; else
    the name alone in its first free slot and the going left out (written anywhere else
    it would read as another line's, or another square's); '-' for a line not written."""
    name_width = text_width(square.name_line, NAME_FONT)
    going_width = text_width(square.going_line, GOING_FONT)
    lone = None
    for slot in NAME_SLOTS:
        name = _text_box(square, slot, name_width, NAME_FONT)
        if any(_meet(name, other) for other in taken):
            continue
        lone = lone or (slot, name)
        beneath = GOING_SLOTS.start + slot
        if beneath not in GOING_SLOTS:
            continue
        going = _text_box(square, beneath, going_width, GOING_FONT)
        if not any(_meet(going, other) for other in taken):
            taken += [name, going]
            return _base36(slot) + _base36(beneath)
    if lone is None:
        return "--"
    taken.append(lone[1])
    return _base36(lone[0]) + "-"


def _base36(n: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[n]


def table_of(spec: Mapping[str, Any], seed: int, log: Sequence[Mapping[str, Any]] = (),
             result: Mapping[str, Any] | None = None) -> Table:  # fmt: skip
    """The battle's terrain: from the log's terrain records when it was fought, else the
    result's terrain, else rolled from the seed as the engines roll it first (a tabletop
    battle waiting to be fought plays on the same table the rules would have used)."""
    table = spec.get("table") or {}
    width_ft, depth_ft = int(table.get("width_ft", 3)), int(table.get("depth_ft", 3))
    depth_in = depth_ft * SQUARE_IN
    records = [r for r in log if r.get("kind") == "terrain"]
    if records:
        squares = [
            SquareView(
                col=r["square"][0],
                row=r["square"][1],
                landform=r["landform"],
                vegetation=r["vegetation"],
                going=r["going"],
                dice=tuple(r.get("dice") or ()),
                depth_in=depth_in,
            )
            for r in records
        ]
        return Table(width_ft, depth_ft, squares, "log")
    rows = (result or {}).get("terrain")
    if rows:
        squares = [_square_from_json(s, depth_in) for row in rows for s in row]
        return Table(width_ft, depth_ft, squares, "result")
    battle = parse_battle(spec)
    field_ = rulesets.RULESETS[battle.ruleset].terrain(battle, seed)
    squares = [_square_from_json(s.to_json(), depth_in) for row in field_.squares for s in row]
    return Table(width_ft, depth_ft, squares, "seed")


def _square_from_json(data: Mapping[str, Any], depth_in: int) -> SquareView:
    dice = list(data.get("landform_dice") or ())
    if data.get("vegetation_die") is not None:
        dice.append(data["vegetation_die"])
    return SquareView(
        col=int(data["col"]),
        row=int(data["row"]),
        landform=str(data["landform"]),
        vegetation=str(data["vegetation"]),
        going=str(data["going"]),
        dice=tuple(dice),
        depth_in=depth_in,
    )


# --- the forces -------------------------------------------------------------------------


@dataclass(slots=True)
class StandLine:
    unit_type: str
    label: str
    present: int
    lost: int | None  # None while the battle has no result
    reinforcements: int = 0

    @property
    def left(self) -> int | None:
        return None if self.lost is None else self.present + self.reinforcements - self.lost


@dataclass(slots=True)
class ForceView:
    key: str  # attacker / defender
    side: str
    side_name: str
    name: str  # as the spec names it: "1st Company and 2nd Company"
    quality: str
    sniper: str  # what the report says of the defender's sniper ("" for nothing)
    stands: list[StandLine]
    companies: list[tuple[str, int | None]] = field(default_factory=list)  # name, page id
    won: bool | None = None

    @property
    def present(self) -> int:
        return sum(line.present + line.reinforcements for line in self.stands)

    @property
    def lost(self) -> int | None:
        if any(line.lost is None for line in self.stands):
            return None
        return sum(line.lost or 0 for line in self.stands)

    @property
    def left(self) -> int | None:
        lost = self.lost
        return None if lost is None else self.present - lost


# The stand a defender's sniper swap puts on the table (rules.kernel.state.Muster).
SWAPPED_SNIPER = "d.sniper.1"

SNIPER_WORDS = {
    "chosen": "one rifle squad fights as a sniper",
    "fielded": "one rifle squad fought as a sniper, hidden in woods",
    "refused": "its sniper was not fielded: with no woods within reach to hide in, "
    "the squad fought as a rifle squad",
    "entered": "one rifle squad was to fight as a sniper at the table",
}


def sniper_fought(log: Sequence[Mapping[str, Any]]) -> str | None:
    """What became of the defender's sniper swap in a fought battle, from its log:
    "fielded" when the deployment put the sniper on the table, "refused" when the set-up
    says the swap was not made (no woods to hide in), None when there was no swap (or
    no log: a battle not fought by the rules)."""
    for record in log:
        if record.get("kind") == "sniper" and str(record.get("stand", "")).startswith("d."):
            return "refused"
        if record.get("kind") == "deploy":
            return "fielded" if SWAPPED_SNIPER in (record.get("positions") or {}) else None
    return None


def _sniper_words(chosen: bool, result: Mapping[str, Any] | None, fought: str | None) -> str:
    """The report says what happened once the battle is fought, never the choice alone:
    a swap refused at the set-up fielded no sniper. Before it is fought, the choice (the
    spec as the reader may read it: ``battles.services.reading.battle_spec``)."""
    if result is None:
        return SNIPER_WORDS["chosen"] if chosen else ""
    if fought is not None:
        return SNIPER_WORDS[fought]
    return SNIPER_WORDS["entered"] if chosen and result.get("reason") == "entered" else ""


def _with_sniper_row(stands: list[StandLine], sniper_lost: bool | None) -> list[StandLine]:
    """The sniper as a row of its own: the result counts it among the rifle squads (the
    type the campaign knows), so one of them is taken out and shown as the sniper."""
    squads = next((line for line in stands if line.unit_type == "rifle_squad"), None)
    if squads is None or squads.present < 1:
        return stands
    squads.present -= 1
    lost = None if squads.lost is None or sniper_lost is None else int(sniper_lost)
    if lost is not None and squads.lost is not None:
        squads.lost = max(squads.lost - lost, 0)
    row = StandLine(unit_type="sniper", label=unit_label("sniper"), present=1, lost=lost)
    at = stands.index(squads)
    return [*stands[:at], row, *stands[at:]]


def _present_before_cup(
    force: Mapping[str, Any], result: Mapping[str, Any] | None, key: str, extra: dict[str, int]
) -> dict[str, int]:
    """The stands ``force`` brought besides the Fog of War cup's (``extra``, listed beside
    them): the result's (what fought) once there is one, else the spec's. The rules count
    the cup's in the result's ``stands_present`` (``present_by_type``, as the end of a
    battle counts them); a result entered from the table stores the spec's stands alone
    (``checked_result``). The table read "11 + 2 in the cup" for 9 squads and 2 in the
    cup, fought by the rules: 16 where the rules counted 11."""
    present = dict((result or {}).get("stands_present", {}).get(key) or force["stands"])
    if result is None or result.get("reason") == "entered":
        return present
    return {unit: max(count - extra.get(unit, 0), 0) for unit, count in present.items()}


def forces_of(
    spec: Mapping[str, Any],
    result: Mapping[str, Any] | None,
    *,
    side_names: Mapping[str, str],
    companies: Mapping[str, list[tuple[str, int | None]]] | None = None,
    log: Sequence[Mapping[str, Any]] = (),
    lost_stands: Collection[str] = (),
) -> list[ForceView]:
    """Both forces with their stands present and, once there is a result, lost.

    The stands present are the result's (what actually fought) when there is one, else
    the spec's; the Fog of War cup's reinforcements are listed beside them. Once fought,
    the defender's sniper is what its ``log`` says happened, and one it fielded is a row
    of its own, lost if it is among ``lost_stands`` (the replay's last frame)."""
    fought = sniper_fought(log) if result is not None else None
    forces = []
    for key in FORCES:
        force = spec[key]
        extra = dict(force.get("reinforcements") or {})
        present = _present_before_cup(force, result, key, extra)
        losses = None if result is None else dict((result.get("losses") or {}).get(key) or {})
        types = sorted({*present, *extra, *(losses or ())}, key=names.unit_rank)
        stands = [
            StandLine(
                unit_type=t,
                label=unit_label(t),
                present=int(present.get(t, 0)),
                lost=None if losses is None else int(losses.get(t, 0)),
                reinforcements=int(extra.get(t, 0)),
            )
            for t in types
            if present.get(t, 0) or extra.get(t, 0) or (losses and losses.get(t, 0))
        ]
        if key == "defender" and fought == "fielded":
            stands = _with_sniper_row(stands, SWAPPED_SNIPER in lost_stands)
        winner = (result or {}).get("winner")
        forces.append(
            ForceView(
                key=key,
                side=force["side"],
                side_name=side_names.get(force["side"], force["side"].capitalize()),
                name=force.get("name", key),
                quality=str(force.get("quality", "")),
                sniper=_sniper_words(bool(force.get("sniper", False)), result, fought)
                if key == "defender"
                else "",
                stands=stands,
                companies=list((companies or {}).get(key, [])),
                won=None if winner is None else winner == key,
            )
        )
    return forces


def ruleset_label(name: str) -> str:
    """The rule set in a battle page's heading line: "Korona rules", "Force on Force"."""
    ruleset = rulesets.ruleset_of({"ruleset": name})
    return ruleset.short_label if ruleset else name


def force_words(force: ForceView) -> str:
    """A force as the outcome names it, with no brackets round the company names (one of
    them may have its own): "the Australians' A Company, B Company and C Company
    (militia)", "the Japanese 1st Company"."""
    companies = names.by_name(name for name, _ in force.companies) or [force.name]
    return f"{names.owners(force.side_name)} {names.join(companies)}"


def attack_words(forces: Sequence[ForceView]) -> str:
    """Who attacks whom, by side and company, as the battle sheet says it: "The
    Japanese 1st Company attacks the Australians' A Company and C Company (militia)"
    ("Australians (C Company (militia))" read as brackets in brackets)."""
    attacker, defender = forces[0], forces[1]
    several = len(attacker.companies) > 1 or (
        not attacker.companies and names.several(attacker.name)
    )
    who = force_words(attacker)
    attack = "attack" if several else "attacks"
    return f"{who[:1].upper()}{who[1:]} {attack} {force_words(defender)}"


def outcome_words(result: Mapping[str, Any] | None, forces: Sequence[ForceView]) -> str:
    """Who won, by side and company, with their role and why: 'The Australians' A
    Company, defending, wins: the Japanese lost a third or more of their stands (5 of
    12)', the loser's count from the result as the forces' table below gives it; 'The Japanese
    1st Company and 2nd Company, attacking, win: ...'; a withdrawal with its cause,
    'the Japanese withdrew from a hopeless position: ...' (the result's ``withdrawal``,
    with the strengths then when it has them, ``fit_to_fight``)."""
    if not result:
        return "Not fought yet."
    by_key = {f.key: f for f in forces}
    winner = by_key.get(result.get("winner", ""))
    reason = result.get("reason", "")
    if winner is None:
        return "No winner recorded."
    loser = next((f for f in forces if f is not winner), None)
    other = f"the {loser.side_name}" if loser else "the other side"
    piece = rulesets.piece(result.get("ruleset"))
    why = {
        "a_third_lost": f"{other} lost a third or more of their {piece}s"
        + share_of(result, loser.key if loser else ""),
        "turn_limit": f"at the turn limit, the smaller share lost (after {result.get('turns')} "
        "turns)",
        "withdrew": f"{other} withdrew",
        "entered": "result entered by the game master from the table",
    }.get(reason, reason.replace("_", " "))
    withdrawal = names.withdrawal_words(
        result.get("withdrawal"),
        result.get("fit_to_fight"),
        piece=rulesets.piece(result.get("ruleset")),
    )
    if reason == "withdrew" and withdrawal:
        why += f" {withdrawal}"
    several = len(winner.companies) > 1 or (not winner.companies and names.several(winner.name))
    role = "attacking" if winner.key == "attacker" else "defending"
    who = force_words(winner)
    return f"{who[:1].upper()}{who[1:]}, {role}, {'win' if several else 'wins'}: {why}."


def share_of(result: Mapping[str, Any], force: str) -> str:
    """' (5 of 12)': ``loss_count`` in brackets, to follow a defeat's words; '' when the
    result does not have the counts."""
    count = loss_count(result, force)
    return f" ({count})" if count else ""


def loss_count(result: Mapping[str, Any], force: str) -> str:
    """'5 of 12': how many of its pieces ``force`` lost of how many it brought, from the
    result's ``losses`` and ``stands_present`` (reinforcements included, as the rules
    count them); '' when the result does not have them."""
    losses = (result.get("losses") or {}).get(force)
    present = (result.get("stands_present") or {}).get(force)
    if not isinstance(losses, Mapping) or not isinstance(present, Mapping) or not present:
        return ""
    return f"{sum(losses.values())} of {sum(present.values())}"


# --- the log, turn by turn ---------------------------------------------------------------


@dataclass(slots=True)
class LogLine:
    kind: str
    text: str
    dice: list[int]
    side: str | None


@dataclass(slots=True)
class LogPhase:
    name: str
    lines: list[LogLine]


@dataclass(slots=True)
class LogTurn:
    number: int  # 0 is the set-up
    phases: list[LogPhase]

    @property
    def title(self) -> str:
        return "Set-up" if self.number == 0 else f"Turn {self.number}"


def square_of(position: Sequence[float], table: Table | None = None) -> str:
    """The sheet's name of the square a position (inches from the defender's left corner,
    along and in from the defender's edge) lies in: "C4". A stand on the table's far
    edge is in the last square."""
    col, row = int(position[0] // SQUARE_IN), int(position[1] // SQUARE_IN)
    if table is not None:
        col, row = min(col, table.width_ft - 1), min(row, table.depth_ft - 1)
    return f"{chr(ord('A') + max(col, 0))}{max(row, 0) + 1}"


def _inches(start: Sequence[float], end: Sequence[float]) -> str:
    distance = round(math.dist(start, end))
    return f"{distance} inch{'es' if distance != 1 else ''}"


# A stand's id as the engines write it: "d.rifle_squad.1".
_STAND_ID = re.compile(r"[ad]\.[a-z_]+\.\d+")


def purpose_words(purpose: str, sides: Mapping[str, str] | None = None) -> str:
    """Why a stand moved, in words: the AI's "assault d.rifle_squad.1" names the stand it
    closes with by its id; the page says "to assault Australian rifle squad 1"."""
    verb, _, target = purpose.partition(" ")
    if verb == "assault" and _STAND_ID.fullmatch(target):
        return f"to assault {stand_words(target, sides)}"
    return purpose


def assault_words(
    record: Mapping[str, Any], text: str, sides: Mapping[str, str] | None = None
) -> str:
    """An assault's line with its verb agreeing with the stands that assault: "Japanese
    rifle squad 6 assaults Australian rifle squad 1", "... and ... assault ..."."""
    who = ", ".join(stand_words(s, sides) for s in record.get("attackers") or ())
    on = ", ".join(stand_words(s, sides) for s in record.get("defenders") or ())
    head = f"{who} assault {on}"
    if len(record.get("attackers") or ()) != 1 or not text.startswith(head):
        return text
    return f"{who} assaults {on}{text[len(head) :]}"


def end_words(
    record: Mapping[str, Any], sides: Mapping[str, str] | None = None, piece: str = "stand"
) -> str | None:
    """The battle's last line, who won and why, naming the side that lost by the record's
    fields: "The Japanese win: the Australians withdrew"; "The Australians win: the
    Japanese lost a third or more of their stands (4 of 12)". The rules' own words, "the Japanese
    win (withdrew)", read as if the winners had withdrawn (a walk-through). None for a
    battle whose ``sides`` do not name both forces, or a reason not known here: the rules'
    words then. Shares are counted in the rule set's ``piece`` (``rulesets.piece``: a
    Force on Force force loses a third of its units)."""
    winner = str(record.get("winner", ""))
    if winner not in ("attacker", "defender") or not sides:
        return None
    loser = "defender" if winner == "attacker" else "attacker"
    won, lost = (sides.get(role[0]) for role in (winner, loser))
    if not won or not lost or won == winner or lost == loser:
        return None
    won, lost = names.people(won), names.people(lost)
    present, losses = record.get("present") or {}, record.get("lost") or {}

    def share(role: str) -> str:
        return f"{losses.get(role, 0)} of {present.get(role, 0)}"

    why = {
        "a_third_lost": f": the {lost} lost a third or more of their {piece}s ({share(loser)})",
        "withdrew": f": the {lost} withdrew",
        "turn_limit": f" at the turn limit: {_turn_limit_words(record, winner, loser, piece)} "
        f"({share(winner)}; the {lost} {share(loser)})",
    }.get(str(record.get("reason", "")))
    return None if why is None else f"The {won} win{why}"


def _turn_limit_words(record: Mapping[str, Any], winner: str, loser: str, piece: str) -> str:
    """Why the winner won at the turn limit: the smaller share of its stands lost, or, the
    shares equal, the defender's tie (rulings section 4)."""
    present, losses = record.get("present") or {}, record.get("lost") or {}
    won = losses.get(winner, 0) * present.get(loser, 0)
    lost = losses.get(loser, 0) * present.get(winner, 0)
    if won == lost:
        return f"both lost the same share of their {piece}s, and a tie goes to the defender"
    return f"they lost the smaller share of their {piece}s"


def place_words(
    record: Mapping[str, Any],
    table: Table | None = None,
    sides: Mapping[str, str] | None = None,
) -> str | None:
    """A move or a placing in plain words, by the sheet's squares rather than the log's
    coordinates: "Japanese rifle squad 3 moves 6 inches, from square B2 to square B3
    (advance, good going)". None for any other record."""
    kind = record.get("kind")
    if kind == "move":
        start, end = record["from"], record["to"]
        where = (
            f"within square {square_of(end, table)}"
            if square_of(start, table) == square_of(end, table)
            else f"from square {square_of(start, table)} to square {square_of(end, table)}"
        )
        return (
            f"{stand_words(record['stand'], sides)} moves {_inches(start, end)}, {where} "
            f"({purpose_words(str(record['purpose']), sides)}, {record['going']} going)"
        )
    if kind == "cup_place":
        return (
            f"{stand_words(record['stand'], sides)} is placed in square "
            f"{square_of(record['to'], table)}: {record['case']}"
        )
    return None


def line_of(
    record: Mapping[str, Any],
    table: Table | None = None,
    sides: Mapping[str, str] | None = None,
    piece: str = "stand",
) -> str:
    """rules/narrate.py's words for one record, without its turn and phase heading, its
    stands named by their ``sides`` (``rules.narrate.stand_sides``); a move or a placing
    by the sheet's squares (``place_words``); the end's shares in the rule set's ``piece``."""
    placed = place_words(record, table, sides)
    if placed is not None:
        return placed
    if record.get("kind") == "end":
        ended = end_words(record, sides, piece)
        if ended is not None:
            return ended
    text = rulesets.narrate_words(record, sides)
    if record.get("kind") == "assault":
        text = assault_words(record, text, sides)
    if record.get("kind") == "terrain":  # the square by the sheet's name, not its indices
        col, row = record["square"]
        text = text.replace(f"square {col},{row}", f"square {chr(ord('A') + col)}{row + 1}", 1)
    return text


def log_turns(
    log: Iterable[Mapping[str, Any]],
    table: Table | None = None,
    sides: Mapping[str, str] | None = None,
    *,
    ruleset: str | None = None,
) -> list[LogTurn]:
    """The log grouped turn by turn and, inside each turn, phase by phase, in order, each
    phase by its side ("Japanese fire": ``rules.narrate.phase_name``), its lines in
    ``line_of``'s words (the end's shares in ``ruleset``'s word for a piece)."""
    piece = rulesets.piece(ruleset)
    turns: list[LogTurn] = []
    for record in log:
        number = int(record.get("turn", 0))
        if not turns or turns[-1].number != number:
            turns.append(LogTurn(number, []))
        phases = turns[-1].phases
        phase = rulesets.phase_name(str(record.get("phase", "")), sides)
        if not phases or phases[-1].name != phase:
            phases.append(LogPhase(phase, []))
        phases[-1].lines.append(
            LogLine(
                kind=record["kind"],
                text=line_of(record, table, sides, piece),
                dice=list(record.get("dice") or ()),
                side=record.get("side"),
            )
        )
    return turns


# --- the replay --------------------------------------------------------------------------


def replay_frames(
    log: Sequence[Mapping[str, Any]],
    *,
    ruleset: str = rulesets.DEFAULT_RULESET,
    table: Table | None = None,
    sides: Mapping[str, str] | None = None,
) -> list[dict]:
    """The steps of the replay, as the battle's rule set builds them from its log's
    structured records (``rules.replay``), each line in the page's words (``line_of``)
    and each phase by its side ("Japanese fire": ``rules.narrate.phase_name``). A log
    without a deploy record (a battle fought at the table) has no frames."""
    piece = rulesets.piece(ruleset)
    frames = rulesets.RULESETS[ruleset].replay(
        log, lambda record: line_of(record, table, sides, piece)
    )
    # Most steps move no stand (a shot, a rally): each set of places is drawn once.
    worked_out: dict[tuple[object, ...], tuple[dict[str, list[float]], str, list[str]]] = {}
    for frame in frames:
        frame["phase"] = rulesets.phase_name(str(frame["phase"]), sides)
        if table is not None:
            key = (
                tuple(sorted((stand, tuple(at)) for stand, at in frame["positions"].items())),
                tuple(sorted(frame["lost"])),
            )
            if key not in worked_out:
                # Where the picture draws each counter (replay.js reads it): the
                # positions above are the truth. Where each square's name and going are
                # written at this step, clear of the counters (``label_slots``). The
                # lost stands whose marks would lie on another counter (``unmarked``).
                drawn = table.drawn_apart(frame["positions"], frame["lost"])
                unmarked = table.unmarked(drawn, frame["lost"])
                worked_out[key] = (drawn, label_slots(table, drawn), unmarked)
            drawn, labels, unmarked = worked_out[key]
            frame["drawn"] = {stand: list(at) for stand, at in drawn.items()}
            frame["labels"] = labels
            frame["unmarked"] = list(unmarked)
    return frames


@dataclass(frozen=True, slots=True)
class Counter:
    """One stand's counter in the picture, where the first frame puts it."""

    id: str
    force: str
    side: str
    mark: str
    words: str
    x: float
    y: float  # in the picture: the defender's edge at the bottom
    drawn_x: float  # where the counter is drawn, wholly on the table (``Table.drawn_at``)
    drawn_y: float
    lost: bool
    hidden: bool
    off: bool = False  # not on the table yet in the first frame
    scale: float = 1  # drawn smaller in a crowded square (``Table.drawn_apart``)


def counters(
    frames: Sequence[Mapping[str, Any]],
    forces: Sequence[ForceView],
    table: Table,
    sides: Mapping[str, str] | None = None,
) -> list[Counter]:
    """A counter for every stand that is ever on the table, where the first frame puts
    it; one that only arrives later (from the cup, or an event) starts off the table.
    The server draws them, so the picture reads without a script; replay.js moves them.
    Each is drawn wholly on the table (``Table.drawn_at``) and apart from the others
    (``Table.drawn_apart``, the frame's ``drawn``)."""
    if not frames:
        return []
    side_of = {f.key: f.side for f in forces}
    first = frames[0]
    seen: dict[str, list[int]] = {}
    at: dict[str, Sequence[float]] = {}
    for frame in frames:
        for stand, pos in frame["positions"].items():
            seen.setdefault(stand, pos)
            at.setdefault(stand, frame.get("drawn", {}).get(stand) or ())
    drawn = []
    for stand, pos in sorted(seen.items(), key=lambda kv: stand_order(kv[0])):
        x, y = pos[0], table.depth_in - pos[1]
        drawn_x, drawn_y, *scale = at[stand] or table.drawn_at(x, y)
        drawn.append(
            Counter(
                id=stand,
                force=force_key_of(stand),
                side=side_of.get(force_key_of(stand), ""),
                mark=stand_mark(stand),
                words=stand_words(stand, sides),
                x=x,
                y=y,
                lost=stand in first["lost"],
                hidden=stand in first["hidden"],
                off=stand not in first["positions"],
                drawn_x=drawn_x,
                drawn_y=drawn_y,
                scale=scale[0] if scale else 1,
            )
        )
    return drawn


def lost_on_the_table(frames: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Stands lost per force by the last frame (what the replay ends with)."""
    counts = {key: 0 for key in FORCES}
    for stand in frames[-1]["lost"] if frames else ():
        counts[force_key_of(stand)] += 1
    return counts


def deploy_positions(
    log: Sequence[Mapping[str, Any]], table: Table, sides: Mapping[str, str] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Each force's stands where they were set up (for the sheet), by force, with the
    square each stands in (a stand on the far edge is in the last square)."""
    deploy = next((r for r in log if r.get("kind") == "deploy"), None)
    out: dict[str, list[dict[str, Any]]] = {key: [] for key in FORCES}
    if deploy is None:
        return out
    hidden = set(deploy.get("hidden") or ())
    for stand, (x, y) in sorted(deploy["positions"].items(), key=lambda kv: stand_order(kv[0])):
        out[force_key_of(stand)].append(
            {
                "stand": stand_words(stand, sides),
                "mark": stand_mark(stand),
                "x": x,
                "y": y,
                "square": f"{chr(ord('A') + min(x // SQUARE_IN, table.width_ft - 1))}"
                f"{min(y // SQUARE_IN, table.depth_ft - 1) + 1}",
                "hidden": stand in hidden,
            }
        )
    return out


# --- the sheet: special rules and support ------------------------------------------------


def special_rules(
    spec: Mapping[str, Any], log: Sequence[Mapping[str, Any]] = ()
) -> list[tuple[str, str]]:
    """The rules in force for this battle, in words, from the spec's options (which the
    campaign settings filled in when the battle was made), as its rule set says them.
    The defender's sniper as chosen, or, once fought, as its log says it went."""
    rules = rulesets.rules_in_force(spec.get("options"))
    defender = spec.get("defender") or {}
    if defender.get("sniper") and sniper_fought(log) != "refused":
        rules.append(("Sniper", "the defender fields one rifle squad as a sniper, hidden"))
    elif defender.get("sniper"):
        rules.append(("Sniper", "none: the swap was not made, with no woods within reach"))
    return rules


@dataclass(frozen=True, slots=True)
class SupportLine:
    side: str
    side_name: str
    called_by: str
    missions: list[str]
    available: bool  # some mission can be called here


def support_available(spec: Mapping[str, Any], side_names: Mapping[str, str]) -> list[SupportLine]:
    """Off-table support each side may call in this battle's zone (rules/korona/support.py):
    one fire mission per fire phase, called by an unmoved, unsuppressed FO (Australians)
    or commander (Japanese) who can see the target."""
    lines = []
    for key in FORCES:
        side = spec[key]["side"]
        missions, available = rulesets.support_missions(spec, side)
        lines.append(
            SupportLine(
                side=side,
                side_name=side_names.get(side, side.capitalize()),
                called_by="the forward observer" if side == "australian" else "the commander",
                missions=missions,
                available=available,
            )
        )
    return lines
