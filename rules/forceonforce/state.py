"""The state of a Force on Force battle: units of figures, the two forces, the log.

A Korona stand is one unit of 4 figures (shared rulings, section 5). Positions are whole
inches from the defender's left corner, as in the Korona engine, on the same battlefield.
"""

from __future__ import annotations

from math import hypot, inf
from typing import Any, Protocol

from rules.battlefield import SQUARE_IN, Battlefield, Going, Square, Vegetation
from rules.battlespec import BattleSpec, ForceSpec
from rules.dice import Roller
from rules.forceonforce import tables as t
from rules.forceonforce.fire import shift_die
from rules.kernel import state as kernel
from rules.kernel.state import ATTACKER as ATTACKER  # the rule set's own names for them
from rules.kernel.state import DEFENDER as DEFENDER
from rules.units import MOVEMENT


class Placed(Protocol):
    """Anything with a place on the table: a unit, or a spot it might move to."""

    x: int
    y: int


# current_tq of each Troop Quality die: (steady, Pinned or Suppressed), from shift_die.
_CURRENT_TQ: dict[int, tuple[int | None, int | None]] = {
    die: (shift_die(die, 0), shift_die(die, -1)) for die in t.DIE_LADDER
}


# _squares_about's answers by (inches, last square): the few a table has (issue 17).
_ABOUT: dict[tuple[float, int], tuple[int, int, int]] = {}


def _squares_about(inches: float, last: int) -> tuple[int, int, int]:
    """The squares (columns or rows, 0 to ``last``) of a spot ``inches`` along the table and
    of the spots EXPOSED_DISTANCE_IN beyond it and short of it, clamped to the table."""
    found = _ABOUT.get((inches, last))
    if found is None:
        reach = t.EXPOSED_DISTANCE_IN
        found = _ABOUT[(inches, last)] = (
            min(int(max(inches, 0) // SQUARE_IN), last),
            min(int(max(inches + reach, 0) // SQUARE_IN), last),
            min(int(max(inches - reach, 0) // SQUARE_IN), last),
        )
    return found


class Unit(kernel.Piece):
    """One Force on Force unit (a Korona stand) on the table."""

    __slots__ = (
        "profile", "healthy", "wounded_light", "pending", "serious", "dead", "leader",
        "morale_shift", "pinned", "suppressed", "pulled_back", "regrouping", "lost",
        "shaken_off", "in_cover", "spotted_by", "smoke",
        "activated", "reacted", "may_react", "overwatch", "fires", "penalty_moves",
        "movement", "react_only", "jammed", "fp_extra", "fired_at_by", "element_of",
        "merged_into", "smoke_tried", "reaction_moved", "split",
        "split_done",
    )  # fmt: skip

    force: Force

    def muster(self) -> None:
        self.profile = t.PROFILES[self.stand_type]
        self.healthy = t.FIGURES_PER_STAND  # figures that fight (light wounds included)
        self.wounded_light = 0  # 5.3: light wounds fight on; the unit bears the penalty
        self.pending = 0  # hit, awaiting next turn's First Aid Check
        self.serious = 0
        self.dead = 0
        self.leader = True  # 1.5: an Irregular unit without its leader tests to act
        self.morale_shift = 0  # Shaken: a permanent negative die shift
        self.pinned = False
        self.suppressed = False
        self.pulled_back = False  # pulled back this turn: regroups next turn
        self.regrouping = False
        self.lost = False
        self.shaken_off = False
        self.in_cover = False
        self.spotted_by: set[str] = set()
        self.smoke = False
        self.element_of: str | None = None  # 1.4: split off from this roster unit
        self.merged_into: str | None = None  # 1.4: merged back; off the table, not lost

    def new_turn(self) -> None:
        self.activated = False
        self.reacted = False
        self.may_react = True
        self.overwatch = False
        self.fires = 0
        self.penalty_moves = 0
        self.movement = "none"
        self.react_only = False
        self.jammed = False
        self.fp_extra = 0
        self.fired_at_by: str | None = None
        self.smoke_tried = False
        self.reaction_moved = False  # 3.13: one Reaction move a turn
        # 3.6: the split an activation declared: target id -> (figures' dice, support dice)
        self.split: dict[str, tuple[int, bool]] | None = None
        self.split_done: set[str] = set()  # the split's parts already resolved

    # --- what it is ---------------------------------------------------------------------

    @property
    def fighting(self) -> bool:
        return not self.lost and self.healthy > 0 and self.merged_into is None

    @property
    def tq(self) -> int:
        return self.force.tq

    @property
    def current_tq(self) -> int | None:
        """5.2: Pinned (and 3.7 Suppressed) units throw a die one shift lower; None: below
        D6, may not fire."""
        tq = self.force.tq
        row = _CURRENT_TQ.get(tq)
        if row is None:
            return shift_die(tq, -1 if (self.pinned or self.suppressed) else 0)
        return row[1] if (self.pinned or self.suppressed) else row[0]

    @property
    def morale_die(self) -> int | None:
        return shift_die(self.force.morale, self.morale_shift)

    @property
    def figures(self) -> int:
        return self.healthy

    @property
    def can_fire(self) -> bool:
        # fighting spelt out: the AI asks this of every unit it weighs (issue 17).
        if self.lost or self.healthy <= 0 or self.merged_into is not None:
            return False
        if not self.profile.fires:
            return False
        # current_tq is not None, its table read here.
        row = _CURRENT_TQ.get(self.force.tq)
        if row is None:
            return self.current_tq is not None
        return row[1 if (self.pinned or self.suppressed) else 0] is not None

    def __repr__(self) -> str:
        return f"<Unit {self.id} at {self.x},{self.y} {self.healthy} fig>"


class Force(kernel.Force[Unit]):
    __slots__ = (
        "tq", "morale", "regular", "confidence", "supply", "advanced_first_aid",
        "night_vision", "units", "has_elements",
    )  # fmt: skip

    def __init__(self, key: str, spec: ForceSpec, options: dict[str, Any]) -> None:
        super().__init__(key, spec)
        side = spec.side
        self.tq = t.TROOP_QUALITY[spec.quality]
        self.morale = options["morale_die"].get(side, t.MORALE_DIE[side])
        self.regular = side not in options["irregular"]
        self.confidence = options["confidence"].get(side, "confident")
        self.supply = options["supply"].get(side, "normal")
        self.advanced_first_aid = side in options["advanced_first_aid"]
        self.night_vision = side in options["night_vision"]
        muster = kernel.Muster(key, spec.sniper)
        self.units = [Unit(i, self, u, r) for i, u, r in muster(spec.stands)]
        # Reinforcements wait in the Fog of War cup (Old Breed 16.2) when the option is on;
        # without it they join from the start (ruling).
        joining = self.cup if options.get("fog_of_war_cup") else self.units
        joining += [Unit(i, self, u, r) for i, u, r in muster(spec.reinforcements, swap=False)]
        # Reinforcements count among the units a side brought from the start.
        self.present = len(self.units) + len(self.cup)
        self.has_elements = False  # a unit has split (1.4)

    def on_table(self) -> list[Unit]:
        return self.units

    def in_play(self, piece: Unit) -> bool:
        return piece.fighting

    def type_of(self, piece: Unit) -> str:
        return piece.stand_type

    def roster_lost(self, piece: Unit) -> bool:
        """A roster unit is lost when it and every element split from it are lost (an
        element merged back is neither). A unit brought back by a Combat Event still counts
        as lost; a sniper that appeared by one was never on the roster."""
        if piece.element_of is not None or piece.extra:
            return False
        if piece.returned:
            return True
        if not self.has_elements:
            return piece.lost
        parts = [piece, *(u for u in self.units if u.element_of == piece.id)]
        remaining = [u for u in parts if u.merged_into is None]
        return all(u.lost for u in remaining)

    def fighting(self) -> list[Unit]:
        return [u for u in self.units if u.fighting]

    @property
    def lost(self) -> int:
        """The units lost from the roster (``roster_lost``) in one pass: the battle asks
        after every fire whether a side has lost a third."""
        if self.has_elements:
            return sum(1 for u in self.units if self.roster_lost(u))
        lost = 0
        for u in self.units:  # a loop, not sum over a generator (issue 17)
            if (u.lost or u.returned) and u.element_of is None and not u.extra:
                lost += 1
        return lost


class BattleState(kernel.BattleState[Force]):
    def __init__(
        self, spec: BattleSpec, roller: Roller, battlefield: Battlefield, options: dict[str, Any]
    ) -> None:
        forces = (Force(ATTACKER, spec.attacker, options), Force(DEFENDER, spec.defender, options))
        super().__init__(spec, roller, battlefield, options, forces)
        self.initiative: Force = self.attacker
        # sees' answers by (a.x, a.y, b.x, b.y), kept both ways; read directly where the
        # answer is nearly always known already (issue 17).
        self.known_sight: dict[tuple[int, int, int, int], bool] = {}
        self._going: dict[tuple[int, int, int, int], Going] = {}
        self._exposed: dict[tuple[int, int], bool] = {}
        self._solid: dict[tuple[int, int], bool] = {}  # solid_cover by spot
        self._allowances: dict[tuple[str, str], tuple[int, int]] = {}
        self._intervening: dict[tuple[int, int, int, int], bool] = {}
        # The table's heavy woods squares, worked out for the table they are of (a test may
        # lay another table on the state before the battle asks).
        self._heavy_woods: tuple[Battlefield | None, tuple[Square, ...]] = (None, ())
        self.fog_table: tuple[t.FogOfWarEvent, ...] = t.FOG_OF_WAR_TABLE

    @property
    def night(self) -> bool:
        return bool(self.options["night"])

    def sees(self, a: Placed, b: Placed) -> bool:
        """Line of sight, mutual as in the Korona engine (a ruling shared with it)."""
        key = (a.x, a.y, b.x, b.y)
        found = self.known_sight.get(key)
        if found is None:
            # One call for both ways: on whole inches the geometry is exact, so the answer
            # from b is the one sight(b, a) gives.
            found = self.field.sees_both_ways(a.x, a.y, b.x, b.y)
            self.known_sight[key] = found
            self.known_sight[(b.x, b.y, a.x, a.y)] = found
        return found

    def seen_of(self, unit: Unit, units: list[Unit]) -> list[Unit]:
        """Those of ``units`` fighting and known to ``unit`` (not Hidden, or spotted by
        it) that it sees: ``sees`` for each, its memo read here."""
        memo, me, ux, uy = self.known_sight, unit.id, unit.x, unit.y
        seen = []
        for other in units:
            # Unit.fighting, spelt out: this loop asks it most (issue 17).
            if (
                not other.lost
                and other.healthy > 0
                and other.merged_into is None
                and (not other.hidden or me in other.spotted_by)
            ):
                found = memo.get((ux, uy, other.x, other.y))
                if found is None:
                    found = self.sees(unit, other)
                if found:
                    seen.append(other)
        return seen

    def sees_any(self, unit: Unit, units: list[Unit], reach: float = inf) -> bool:
        """Whether ``seen_of(unit, units)`` would list one within ``reach`` of ``unit``:
        the distance asked before the sight, and no more sight once one is seen (the
        sight is the dear part: issue 17)."""
        return self._sees_one_of(unit, units, reach, unit.id)

    def sees_fighting(self, unit: Unit, units: list[Unit]) -> bool:
        """Whether ``unit`` sees one of ``units`` still fighting, Hidden or not: ``any`` of
        ``sees`` in a loop, its memo read here (issue 17)."""
        return self._sees_one_of(unit, units, inf, None)

    def _sees_one_of(
        self, unit: Unit, units: list[Unit], reach: float, known_to: str | None
    ) -> bool:
        """Whether ``unit`` sees one of ``units`` fighting (Unit.fighting, spelt out) within
        ``reach``; a Hidden one counts only if spotted by ``known_to``, any if it is None."""
        memo, ux, uy = self.known_sight, unit.x, unit.y
        for other in units:
            if other.lost or other.healthy <= 0 or other.merged_into is not None:
                continue
            if known_to is not None and other.hidden and known_to not in other.spotted_by:
                continue
            if reach < inf and hypot(ux - other.x, uy - other.y) > reach:
                continue
            found = memo.get((ux, uy, other.x, other.y))
            if found is None:
                found = self.sees(unit, other)
            if found:
                return True
        return False

    def going(self, x1: int, y1: int, x2: int, y2: int) -> Going:
        key = (x1, y1, x2, y2)
        found = self._going.get(key)
        if found is None:
            found = self._going[key] = self.field.going_along(x1, y1, x2, y2)
        return found

    def exposed(self, x: int, y: int) -> bool:
        """3.9: in open ground and not within 2" of cover (woods, ridges, hills): no
        cover at the spot nor 2" from it in any of the four directions, those clamped to
        the table."""
        key = (x, y)
        found = self._exposed.get(key)
        if found is None:
            field = self.field
            cover = field.cover_by_square
            col, right, left = _squares_about(x, field.width_ft - 1)
            row, below, above = _squares_about(y, field.depth_ft - 1)
            here = cover[row]
            found = not (
                here[col] or here[right] or here[left] or cover[below][col] or cover[above][col]
            )
            self._exposed[key] = found
        return found

    def exposed_row(self, xs: range, y: int) -> list[bool]:
        """``exposed(x, y)`` for each x of ``xs``, in one pass (deployment weighs a grid of
        spots once: issue 17); not kept."""
        field = self.field
        cover = field.cover_by_square
        row, below, above = _squares_about(y, field.depth_ft - 1)
        here, nearer, farther = cover[row], cover[below], cover[above]
        last = field.width_ft - 1
        found = []
        for x in xs:
            col, right, left = _squares_about(x, last)
            found.append(
                not (here[col] or here[right] or here[left] or nearer[col] or farther[col])
            )
        return found

    def solid_cover(self, unit: Unit) -> bool:
        """Ruling: heavy woods and high ground (ridges, hills) are Solid Cover (3.9)."""
        key = (unit.x, unit.y)
        found = self._solid.get(key)
        if found is None:
            square = self.field.square_at(unit.x, unit.y)
            found = square.vegetation is Vegetation.HEAVY_WOODS or square.blocks_sight
            self._solid[key] = found
        return found

    def intervening_cover(self, shooter: Placed, target: Placed) -> bool:
        """3.9 Intervening Cover: "If enemy fire passes over an intervening terrain feature
        to reach a unit, it may claim the Solid Cover bonus (assuming the terrain would
        provide Solid Cover under normal circumstances)". Ruling: a square of heavy woods
        (our Solid Cover) that the line of fire touches, other than the firer's and the
        target's own squares (ridges and hills between block sight: no fire passes)."""
        key = (shooter.x, shooter.y, target.x, target.y)
        found = self._intervening.get(key)
        if found is None:
            field = self.field
            ends = (field.square_at(shooter.x, shooter.y), field.square_at(target.x, target.y))
            found = self._heavy_woods_near(*ends) and any(
                square.vegetation is Vegetation.HEAVY_WOODS and all(square is not e for e in ends)
                for square in field.squares_along(shooter.x, shooter.y, target.x, target.y)
            )
            self._intervening[key] = found
            self._intervening[(target.x, target.y, shooter.x, shooter.y)] = found
        return found

    def _heavy_woods_near(self, first: Square, second: Square) -> bool:
        """Whether heavy woods other than the two squares lie in the block of squares from
        one to the other or in the ring about it: where a line of fire between points in
        them can touch (issue 17: most tables have none, and the line is the dear part)."""
        of, heavy = self._heavy_woods
        if of is not self.field:
            heavy = tuple(s for s in self.field if s.vegetation is Vegetation.HEAVY_WOODS)
            self._heavy_woods = (self.field, heavy)
        left, right = min(first.col, second.col) - 1, max(first.col, second.col) + 1
        top, bottom = min(first.row, second.row) - 1, max(first.row, second.row) + 1
        return any(
            left <= square.col <= right
            and top <= square.row <= bottom
            and square is not first
            and square is not second
            for square in heavy
        )

    def within_move(self, unit: Unit, speed: str, x: int, y: int, dist: float) -> bool:
        """Whether ``unit`` moving at ``speed`` reaches ``(x, y)``, ``dist`` away, by its
        allowance in the going along the way. A spot within the least allowance of any
        going is reached whatever the going, one beyond the greatest is not: only those
        between need the going (issue 17: the going is the dear part)."""
        bounds = self.move_bounds(unit, speed)
        if dist <= bounds[0]:
            return True
        if dist > bounds[1]:
            return False
        return dist <= self.move_allowance(unit, speed, self.going(unit.x, unit.y, x, y))

    def move_bounds(self, unit: Unit, speed: str) -> tuple[int, int]:
        """The least and the greatest allowance of ``unit`` moving at ``speed`` in any going."""
        key = (unit.stand_type, speed)  # the allowances depend on nothing else
        bounds = self._allowances.get(key)
        if bounds is None:
            allowances = [self.move_allowance(unit, speed, going) for going in Going]
            bounds = self._allowances[key] = (min(allowances), max(allowances))
        return bounds

    def move_allowance(self, unit: Unit, speed: str, going: Going) -> int:
        """2.1/2.2 in the open, scaled by the Korona movement table for the going (ruling):
        a rifle squad moves 6/4/3" tactically in good/rough/bad going, twice that rapidly."""
        mover = unit.profile.mover
        if mover is None:
            return 0
        base = (t.TACTICAL_MOVE_IN if speed == "tactical" else t.RAPID_MOVE_IN)[mover]
        row = MOVEMENT[unit.unit.move_class]
        good, here = row[0], row[going.rank]
        if here is None or not good:
            return 0
        scale = here / 6 if mover == "infantry" else here / good
        return int(base * scale)
