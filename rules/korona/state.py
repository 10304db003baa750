"""The state of a Korona battle: stands on the table, the two forces, and the log."""

from __future__ import annotations

from functools import cache
from math import ceil, floor, hypot
from typing import Any

from rules.battlefield import SQUARE_IN, Battlefield, Going, Sight
from rules.battlespec import BattleSpec, ForceSpec
from rules.dice import Roller
from rules.kernel import state as kernel
from rules.kernel.state import ATTACKER as ATTACKER  # the rule set's own names for them
from rules.kernel.state import DEFENDER as DEFENDER
from rules.units import Quality

OK, PINNED, SUPPRESSED = 0, 1, 2
STATUS_NAMES = ("ok", "pinned", "suppressed")
GOING_INDEX = {Going.GOOD: 0, Going.ROUGH: 1, Going.BAD: 2}

CONTACT_IN = 1.5  # stands whose centres are this close are in base-to-base contact
SUPPORT_RADIUS_IN = 2.0  # commander support, rally bonus, the 4-hit blast, fragile stands
COMMAND_RADIUS_IN = 6.0


def _span(low: int, high: int, count: int) -> tuple[int, int]:
    """The first and last index of the closed 1-ft squares that [low, high] inches touch."""
    first = max(0, (low + SQUARE_IN - 1) // SQUARE_IN - 1)
    last = min(count - 1, high // SQUARE_IN)
    return first, last


_GOINGS = (Going.GOOD, Going.ROUGH, Going.BAD)  # by GOING_INDEX


@cache
def _span_table(count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each whole inch along a side of ``count`` squares: ``_span``'s first square for
    an interval starting there and its last square for one ending there."""
    inches = range(count * SQUARE_IN + 1)
    return (
        tuple(_span(i, i, count)[0] for i in inches),
        tuple(_span(i, i, count)[1] for i in inches),
    )


class Stand(kernel.Piece):
    """One stand on the table. Positions are whole inches from the defender's left corner."""

    __slots__ = (
        "status", "alive", "moved", "limbered", "stood_fast", "cleared", "fired", "company",
    )  # fmt: skip

    force: Force

    def muster(self) -> None:
        self.status = OK
        self.alive = True
        self.limbered = False
        self.company = 0  # its company's index in the force (ForceSpec.companies)

    def new_turn(self) -> None:
        """What a stand did this turn, cleared as a turn begins."""
        self.moved = False
        self.stood_fast = False  # failed its command roll: stays put for the rest of the move
        self.cleared = False  # passed its command roll: free to move for the rest of it
        self.fired = False  # fired this turn: a heavy or man-packed weapon may not move now

    def distance_to(self, x: float, y: float) -> float:
        return hypot(self.x - x, self.y - y)

    def __repr__(self) -> str:
        return f"<Stand {self.id} at {self.x},{self.y} {STATUS_NAMES[self.status]}>"


class Force(kernel.Force[Stand]):
    """One side of the battle: its stands on the table, and each company's commander."""

    __slots__ = ("quality", "stands", "commander", "commanders")

    def __init__(self, key: str, spec: ForceSpec) -> None:
        super().__init__(key, spec)
        self.quality = Quality(spec.quality)
        muster = kernel.Muster(key, spec.sniper)
        # On the table (alive or not), and the reinforcements not yet drawn (16.2).
        self.stands = [Stand(i, self, u, r) for i, u, r in muster(spec.stands)]
        self.cup = [Stand(i, self, u, r) for i, u, r in muster(spec.reinforcements)]
        # Each stand belongs to a company: the table's stands go to the companies in order,
        # each taking what is left of its own count of that type, then the cup's.
        left = [dict(c.stands) for c in spec.companies]
        for stand in [*self.stands, *self.cup]:
            for index, counts in enumerate(left):
                if counts.get(stand.report_type, 0) > 0:
                    counts[stand.report_type] -= 1
                    stand.company = index
                    break
        # Each company's commander (rulings section 4): the first on its roster, or None.
        self.commanders: dict[int, Stand | None] = {}
        for stand in [*self.stands, *self.cup]:
            if stand.unit.commander and self.commanders.get(stand.company) is None:
                self.commanders[stand.company] = stand
        # The force's first commander on the table leads its deployment and advance.
        self.commander = next((s for s in self.stands if s.unit.commander), None)
        # Reinforcements count among the stands a side brought from the start.
        self.present = len(self.stands) + len(self.cup)

    def on_table(self) -> list[Stand]:
        return self.stands

    def in_play(self, piece: Stand) -> bool:
        return piece.alive

    def roster_lost(self, piece: Stand) -> bool:
        """A stand of the roster lost: a stand brought back by an event still counts."""
        return (not piece.alive or piece.returned) and not piece.extra

    def type_of(self, piece: Stand) -> str:
        return piece.unit.name

    @property
    def lost(self) -> int:
        """The stands lost from the roster (``roster_lost``) in one pass: the battle asks
        after every fire and assault whether a side has lost a third."""
        count = 0
        for stand in self.stands:
            if (not stand.alive or stand.returned) and not stand.extra:
                count += 1
        return count

    def report_row(self, piece: Stand) -> dict[str, Any]:
        # With several companies (BATTLE.json ``companies``), the one it belongs to.
        return {"company": self.spec.companies[piece.company].name} if self.spec.companies else {}

    def alive(self) -> list[Stand]:
        return [s for s in self.stands if s.alive]

    def commander_of(self, stand: Stand) -> Stand | None:
        """The commander ``stand`` answers to: its own company's (rulings section 4), alive
        and on the table; None when its company has lost it (or never had one)."""
        cmd = self.commanders.get(stand.company)
        if cmd is None or not cmd.alive or cmd not in self.stands:
            return None
        return cmd

    def commander_near(self, stand: Stand) -> bool:
        """Is ``stand``'s own commander able to lend its +1 to it (within 2")?

        Ruling (issue 13, item 7): a pinned or suppressed commander still lends it. The
        text says what suppression stops, "may not move or fire until rallied", and says
        so again where it stops a leader (an FO "cannot call in fire missions if ... they
        are suppressed"); adding 1 to a rally or an assault is neither.
        """
        cmd = self.commander_of(stand)
        return cmd is not None and cmd is not stand and cmd.distance(stand) <= SUPPORT_RADIUS_IN


class BattleState(kernel.BattleState[Force]):
    """Everything a Korona battle knows; the phases in ``engine`` act on it."""

    def __init__(
        self, spec: BattleSpec, roller: Roller, battlefield: Battlefield, options: dict[str, Any]
    ) -> None:
        forces = (Force(ATTACKER, spec.attacker), Force(DEFENDER, spec.defender))
        super().__init__(spec, roller, battlefield, options, forces)
        self._sight: dict[tuple[int, int, int, int], tuple[bool, bool]] = {}
        self.going_cache: dict[tuple[int, int, int, int], int] = {}  # the worst going's index
        # GOING_INDEX of every square, rows first: the going look-ups read this grid.
        self._going_grid = [[GOING_INDEX[sq.going] for sq in row] for row in battlefield.squares]
        # The squares a whole-inch interval touches, by its ends: _span by table look-up.
        self._col_first, self._col_last = _span_table(battlefield.width_ft)
        self._row_first, self._row_last = _span_table(battlefield.depth_ft)
        self._block_worst: dict[tuple[int, int, int, int], int] = {}
        # The table's size in inches (the field works it out on every call).
        self.width_in, self.depth_in = battlefield.width_in, battlefield.depth_in
        # movement.reachable_point's answers: (start x, y, movement row, goal x, y) -> end.
        self.reach_cache: dict[tuple[int, int, Any, float, float], tuple[int, int]] = {}
        # The going of every square of a block (squares' first and last column and row)
        # when they all share one (its GOING_INDEX), else None.
        self._block_uniform: dict[tuple[int, int, int, int], int | None] = {}
        self.cover_cache: dict[tuple[int, int], float] = {}  # the AI's worth of a spot
        # The AI's note of each square, by (col, row): an open one's worth as cover, or the
        # open squares around a wooded one.
        self.open_around: dict[tuple[int, int], float | tuple[tuple[int, int, int, int], ...]] = {}

    def record_stand(self, kind: str, stand: Stand, **fields: Any) -> dict[str, Any]:
        """A record of what ``stand`` did or what befell it: its side, id and type first
        (``record``'s, built in one go)."""
        entry: dict[str, Any] = {
            "turn": self.turn,
            "phase": self.phase,
            "kind": kind,
            "dice": [],
            "side": stand.force.spec.side,
            "stand": stand.id,
            "stand_type": stand.unit.name,
            **fields,
        }
        self.log.append(entry)
        return entry

    def sees(self, viewer: Stand, target: Stand) -> tuple[bool, bool]:
        """(visible, obscured) for ``viewer`` looking at ``target``.

        Ruling: sight is mutual. A unit hidden deep in woods cannot see out either, so
        the viewer must also be visible from the target's place. Obscured follows the
        target's concealment. Woods between the two obscure or block (rulings section 4).
        """
        key = (viewer.x, viewer.y, target.x, target.y)
        found = self._sight.get(key)
        if found is None:
            forward, back = self.field.mutual_sight(
                viewer.x, viewer.y, target.x, target.y, woods_between=True
            )
            visible = forward is not Sight.BLOCKED and back is not Sight.BLOCKED
            found = (visible, visible and forward is Sight.OBSCURED)
            self._sight[key] = found
            # The same two looks answer the target looking back: cache that too.
            self._sight[(target.x, target.y, viewer.x, viewer.y)] = (
                visible,
                visible and back is Sight.OBSCURED,
            )
        return found

    def going(self, x1: int, y1: int, x2: int, y2: int) -> Going:
        """The worst going on the straight path between two whole-inch points (cached)."""
        return _GOINGS[self.going_index(x1, y1, x2, y2)]

    def going_index(self, x1: int, y1: int, x2: int, y2: int) -> int:
        """``GOING_INDEX`` of ``going(x1, y1, x2, y2)``: 0 good, 1 rough, 2 bad (cached)."""
        key = (x1, y1, x2, y2)
        found = self.going_cache.get(key)
        if found is None:
            found = self.going_cache[key] = self.worst_going(x1, y1, x2, y2)
        return found

    def worst_going(self, x1: int, y1: int, x2: int, y2: int) -> int:
        """``going_index`` worked out, its cache not asked (a caller that asked it first)."""
        field = self.field
        block = self._block(x1, y1, x2, y2)
        col_lo, col_hi, row_lo, row_hi = block
        # The path touches only squares of this block, and it touches the squares the two
        # ends stand in: when the worst of the block is no worse than the worst of those
        # two, that is the answer without a segment test. A path within one row (or
        # column) of squares touches every square of its span, so the block's worst is
        # the answer too; squares are closed, as in going_along.
        worst = self._block_worst.get(block)
        if worst is None:
            worst = max(
                max(row[col_lo : col_hi + 1]) for row in self._going_grid[row_lo : row_hi + 1]
            )
            self._block_worst[block] = worst
        if col_lo == col_hi or row_lo == row_hi or worst == 0:
            return worst
        grid = self._going_grid
        first, last = field.square_at(x1, y1), field.square_at(x2, y2)
        if grid[first.row][first.col] >= worst or grid[last.row][last.col] >= worst:
            return worst
        return GOING_INDEX[field.going_along(x1, y1, x2, y2)]

    def box_going(self, x: int, y: int, px: float, py: float) -> int | None:
        """The going index every path within the box of (x, y) and the whole-inch points
        around (px, py) shares, when every square the box touches has the same going (a
        path touches only squares its box touches); else None."""
        low_x, low_y, high_x, high_y = floor(px), floor(py), ceil(px), ceil(py)
        if x < low_x:
            low_x = x
        if y < low_y:
            low_y = y
        if x > high_x:
            high_x = x
        if y > high_y:
            high_y = y
        block = self._ordered_block(low_x, low_y, high_x, high_y)  # the ends are in order
        uniform = self._block_uniform.get(block, -1)
        if uniform == -1:
            col_lo, col_hi, row_lo, row_hi = block
            goings = {
                g for row in self._going_grid[row_lo : row_hi + 1] for g in row[col_lo : col_hi + 1]
            }
            uniform = self._block_uniform[block] = goings.pop() if len(goings) == 1 else None
        return uniform

    def _block(self, x1: int, y1: int, x2: int, y2: int) -> tuple[int, int, int, int]:
        """The squares' columns and rows (first, last) a path between two points touches."""
        if x1 <= x2:
            low_x, high_x = x1, x2
        else:
            low_x, high_x = x2, x1
        if y1 <= y2:
            low_y, high_y = y1, y2
        else:
            low_y, high_y = y2, y1
        return self._ordered_block(low_x, low_y, high_x, high_y)

    def _ordered_block(
        self, low_x: int, low_y: int, high_x: int, high_y: int
    ) -> tuple[int, int, int, int]:
        """``_block`` of a box whose ends are in order (low <= high)."""
        if low_x >= 0 and low_y >= 0:  # a negative index would count from the end
            try:  # whole inches on the table: by table look-up (a float is a TypeError)
                return (
                    self._col_first[low_x],
                    self._col_last[high_x],
                    self._row_first[low_y],
                    self._row_last[high_y],
                )
            except (TypeError, IndexError):
                pass
        col_lo, col_hi = _span(low_x, high_x, self.field.width_ft)
        row_lo, row_hi = _span(low_y, high_y, self.field.depth_ft)
        return col_lo, col_hi, row_lo, row_hi

    def in_woods(self, stand: Stand) -> bool:
        return self.field.square_at(stand.x, stand.y).wooded

    def stands_near(self, x: float, y: float, radius: float) -> list[Stand]:
        return [
            s
            for force in self.forces
            for s in force.stands
            if s.alive and hypot(s.x - x, s.y - y) <= radius
        ]
