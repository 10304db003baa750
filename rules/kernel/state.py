"""The state every rule set's battle keeps: two forces of pieces (Korona stands, Force on
Force units), the turn and phase, the log, and the reinforcements' cup."""

from __future__ import annotations

from collections.abc import Iterable
from math import hypot
from typing import Any, Generic, TypeVar

from rules.battlefield import Battlefield
from rules.battlespec import BattleSpec, ForceSpec
from rules.dice import Roller
from rules.ending import end_on_a_third_lost
from rules.units import UNIT_TYPES

ATTACKER, DEFENDER = "attacker", "defender"


class Piece:
    """A piece on the table (a Korona stand, a Force on Force unit): what the kernel reads
    of it. Positions are whole inches from the defender's left corner."""

    __slots__ = (
        "id", "force", "stand_type", "unit", "report_type", "x", "y", "hidden", "returned",
        "extra",
    )  # fmt: skip

    def __init__(self, piece_id: str, force: Any, stand_type: str, report_type: str) -> None:
        self.id = piece_id
        self.force = force
        self.stand_type = stand_type  # its key in ``rules.units.UNIT_TYPES``
        self.unit = UNIT_TYPES[stand_type]
        # The type the campaign knows it by: a sniper swapped in for a squad is a squad.
        self.report_type = report_type
        self.x = 0
        self.y = 0
        self.hidden = False
        self.returned = False  # brought back by a Combat Event: still counts as lost
        self.extra = False  # appeared by a Combat Event: not on the roster, its loss no loss
        self.muster()
        self.new_turn()

    def muster(self) -> None:
        """The rule set's own state of a piece as it is mustered."""

    def new_turn(self) -> None:
        """What a piece did this turn, cleared as a turn begins."""

    def distance(self, other: Piece) -> float:
        return hypot(self.x - other.x, self.y - other.y)

    @property
    def position(self) -> list[int]:
        return [self.x, self.y]


P = TypeVar("P", bound=Piece)


class Muster:
    """A force's roster numbered as both rule sets number it: ``a.rifle_squad.3``, with
    the first rifle squad swapped for a sniper (``a.sniper.1``) where the force has one."""

    def __init__(self, key: str, sniper: bool) -> None:
        self.letter = key[0]
        self.sniper = sniper
        self.numbers: dict[str, int] = {}

    def __call__(self, counts: dict[str, int], *, swap: bool = True) -> list[tuple[str, str, str]]:
        """(id, type, the type it reports as) for each piece of ``counts``, in order."""
        pieces = []
        for name, count in counts.items():
            for _ in range(count):
                self.numbers[name] = number = self.numbers.get(name, 0) + 1
                if swap and self.sniper and name == "rifle_squad":
                    self.sniper = False
                    pieces.append((f"{self.letter}.sniper.1", "sniper", name))
                else:
                    pieces.append((f"{self.letter}.{name}.{number}", name, name))
        return pieces


class Force(Generic[P]):
    """One side: its roster, its cup (reinforcements not yet drawn, Old Breed 16.2) and
    what it has lost. A rule set keeps its pieces on the table in its own list, given by
    ``on_table``, and says which are in play and which are lost from the roster."""

    __slots__ = ("key", "spec", "cup", "enemy", "present")

    def __init__(self, key: str, spec: ForceSpec) -> None:
        self.key = key
        self.spec = spec
        self.cup: list[P] = []
        self.enemy: Any  # the other force, set by the state
        self.present = 0  # the pieces it brought, reinforcements included (set by the rule set)

    # --- what a rule set supplies -----------------------------------------------------

    def on_table(self) -> list[P]:
        raise NotImplementedError

    def in_play(self, piece: P) -> bool:
        """On the table and fighting (alive, not lost, not merged away)."""
        raise NotImplementedError

    def roster_lost(self, piece: P) -> bool:
        """Is ``piece`` lost from the roster (a piece brought back by an event still is)?"""
        raise NotImplementedError

    def type_of(self, piece: P) -> str:
        """The piece's own type (a sniper swapped in for a squad is a sniper)."""
        raise NotImplementedError

    def report_row(self, piece: P) -> dict[str, Any]:
        """What the result's row for ``piece`` adds to the kernel's."""
        return {}

    # --- what follows ------------------------------------------------------------------

    @property
    def side(self) -> str:
        return self.spec.side

    @property
    def lost(self) -> int:
        return sum(1 for piece in self.on_table() if self.roster_lost(piece))

    def broken(self) -> bool:
        """A side that has lost a third of what it brought has lost the battle."""
        return self.lost * 3 >= self.present

    def fraction_lost(self) -> float:
        return self.lost / self.present

    def positions(self) -> list[tuple[int, int]]:
        """Where its pieces in play stand."""
        return [(p.x, p.y) for p in self.on_table() if self.in_play(p)]

    def present_by_type(self) -> dict[str, int]:
        present = dict(self.spec.stands)
        for unit, count in self.spec.reinforcements.items():
            present[unit] = present.get(unit, 0) + count
        return present

    def losses_by_type(self) -> dict[str, int]:
        losses = dict.fromkeys(self.present_by_type(), 0)
        for piece in self.on_table():
            if self.roster_lost(piece):
                losses[piece.report_type] += 1
        return losses


F = TypeVar("F", bound=Force[Any])


class BattleState(Generic[F]):
    """Everything a battle knows that does not depend on its rule set."""

    def __init__(
        self,
        spec: BattleSpec,
        roller: Roller,
        battlefield: Battlefield,
        options: dict[str, Any],
        forces: tuple[F, F],
    ) -> None:
        self.spec = spec
        self.roller = roller
        self.field = battlefield
        self.options = options
        self.attacker, self.defender = forces
        self.attacker.enemy = self.defender
        self.defender.enemy = self.attacker
        self.turn = 0
        self.phase = "setup"
        self.log: list[dict[str, Any]] = []
        self.cup_drawn: set[str] = set()  # forces that drew from their cup this turn

    @property
    def forces(self) -> tuple[F, F]:
        return self.attacker, self.defender

    def record(self, kind: str, **fields: Any) -> dict[str, Any]:
        # Every record carries its dice, if only an empty list: the log accounts for all.
        entry: dict[str, Any] = {
            "turn": self.turn, "phase": self.phase, "kind": kind, "dice": [], **fields
        }  # fmt: skip
        self.log.append(entry)
        return entry

    def end_check(self) -> None:
        """Raise BattleOver if either side has lost a third of what it brought."""
        end_on_a_third_lost(self.attacker, self.defender)

    def japanese(self) -> F | None:
        return next((f for f in self.forces if f.side == "japanese"), None)


def pieces_of(forces: Iterable[Force[Any]]) -> Iterable[tuple[Force[Any], Any]]:
    """Every piece of the forces, on the table and in the cup, with its force."""
    for force in forces:
        for piece in [*force.on_table(), *force.cup]:
            yield force, piece
