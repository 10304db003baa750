"""Builders for hand-made Korona battles: a drawn table, chosen forces, scripted dice.

A rule is tested in isolation on a ``BattleState`` built here: ``make_state`` takes the
stands of each force, a table drawn square by square (``table``) and the faces the dice
are to show (``ScriptedRoller``), then parks every stand well apart so that a test only
has to place the stands it is about.
"""

from __future__ import annotations

import signal
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rules.battlefield import Battlefield, Landform, Vegetation, going_of
from rules.korona.engine import DEFAULT_OPTIONS
from rules.korona.state import BattleState, Stand
from rules.spec import BattleSpec, load_battle, parse_battle

# --- dice -------------------------------------------------------------------------------


class ScriptedRoller:
    """A stand-in for ``rules.dice.Roller`` that throws the faces it is given, in order.

    Rolling more dice than were scripted, or a face a die cannot show, fails the test: a
    rule that rolls one die too many is a bug the test must see.
    """

    def __init__(self, faces: Iterable[int] = (), seed: int = 0) -> None:
        self.seed = seed
        self._faces = list(faces)
        self._next = 0
        self.dice_rolled = 0

    def _throw(self, sides: int) -> int:
        if self._next >= len(self._faces):
            raise AssertionError(
                f"the rules rolled a die beyond the {len(self._faces)} the test scripted"
            )
        face = self._faces[self._next]
        if not 1 <= face <= sides:
            raise AssertionError(f"scripted face {face} is not on a d{sides}")
        self._next += 1
        self.dice_rolled += 1
        return face

    def roll(self, count: int = 1, sides: int = 6) -> tuple[int, ...]:
        if count < 0:
            raise ValueError(f"cannot roll {count} dice")
        return tuple(self._throw(sides) for _ in range(count))

    def d6(self) -> int:
        return self._throw(6)

    def die(self, sides: int) -> int:
        return self._throw(sides)

    @property
    def unused(self) -> list[int]:
        return self._faces[self._next :]


# --- the table --------------------------------------------------------------------------

LANDFORM_CODES = {
    ".": Landform.FLAT,
    "S": Landform.STEEP_HIGH_RIDGE,
    "s": Landform.STEEP_LOW_RIDGE,
    "R": Landform.HIGH_RIDGE,
    "r": Landform.LOW_RIDGE,
    "H": Landform.HILL,
    "M": Landform.MUD,
    "~": Landform.RIVER,
}
VEGETATION_CODES = {"-": Vegetation.NONE, "l": Vegetation.LIGHT_WOODS, "h": Vegetation.HEAVY_WOODS}
# Dice that would have rolled each landform (the table is drawn, not rolled).
_LANDFORM_DICE = {
    Landform.FLAT: (6, 6),
    Landform.STEEP_HIGH_RIDGE: (1, 1),
    Landform.STEEP_LOW_RIDGE: (2, 2),
    Landform.MUD: (2, 3),
    Landform.HIGH_RIDGE: (3, 3),
    Landform.LOW_RIDGE: (4, 4),
    Landform.RIVER: (5, 5),
    Landform.HILL: (1, 1),
}
_VEGETATION_DIE = {Vegetation.NONE: None, Vegetation.LIGHT_WOODS: 1, Vegetation.HEAVY_WOODS: 6}


def table(*rows: str) -> Battlefield:
    """A battlefield drawn row by row, row 0 (the defender's edge, y = 0) first.

    Each square is two letters, landform then vegetation: ``".-"`` open flat ground,
    ``".h"`` flat ground under heavy woods, ``"R-"`` a bare high ridge.
    """
    data = []
    for row, line in enumerate(rows):
        cells = []
        for col, token in enumerate(line.split()):
            landform, vegetation = LANDFORM_CODES[token[0]], VEGETATION_CODES[token[1]]
            cells.append(
                {
                    "col": col,
                    "row": row,
                    "landform_dice": list(_LANDFORM_DICE[landform]),
                    "landform": landform.value,
                    "vegetation_die": _VEGETATION_DIE[vegetation],
                    "vegetation": vegetation.value,
                    "going": going_of(landform, vegetation).value,
                }
            )
        data.append(cells)
    return Battlefield.from_json(data, width_ft=len(data[0]), depth_ft=len(data))


def open_table(width_ft: int = 3, depth_ft: int = 3) -> Battlefield:
    return table(*[" ".join([".-"] * width_ft)] * depth_ft)


# --- battles ----------------------------------------------------------------------------


def battle_doc(
    *,
    attacker: Mapping[str, int] | None = None,
    defender: Mapping[str, int] | None = None,
    attacker_side: str = "japanese",
    defender_side: str = "australian",
    attacker_quality: str = "trained",
    defender_quality: str = "trained",
    zone: int = 5,
    vegetation: str = "clearing",
    plains: bool = False,
    buffalos: int = 0,
    hurricane: bool = False,
    sniper: bool = False,
    width_ft: int = 3,
    depth_ft: int = 3,
    options: Mapping[str, Any] | None = None,
    attacker_companies: list[dict[str, Any]] | None = None,
    defender_companies: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A BATTLE.json document; by default two rifle squads a side in a zone-5 clearing.
    ``*_companies`` split a force into companies (BATTLE.json ``companies``)."""
    doc: dict[str, Any] = {
        "area": {
            "name": "Testing Ground",
            "zone": zone,
            "vegetation": vegetation,
            "plains": plains,
        },
        "table": {"width_ft": width_ft, "depth_ft": depth_ft},
        "attacker": {
            "side": attacker_side,
            "name": "Attackers",
            "quality": attacker_quality,
            "stands": dict(attacker or {"rifle_squad": 2}),
        },
        "defender": {
            "side": defender_side,
            "name": "Defenders",
            "quality": defender_quality,
            "stands": dict(defender or {"rifle_squad": 2}),
            "sniper": sniper,
        },
        "support": {"buffalos": buffalos, "hurricane": hurricane},
        "options": {"ruleset": "korona", **(options or {})},
    }
    for key, companies in (("attacker", attacker_companies), ("defender", defender_companies)):
        if companies is not None:
            doc[key]["companies"] = companies
    return doc


def make_spec(**doc: Any) -> BattleSpec:
    return parse_battle(battle_doc(**doc))


PARK_SPACING_IN = 4  # farther apart than the 2" of support, blast and rally bonus


def make_state(
    *,
    field: Battlefield | None = None,
    dice: Iterable[int] = (),
    options: Mapping[str, Any] | None = None,
    **doc: Any,
) -> BattleState:
    """A battle ready for one rule to act on, its stands parked 4" apart at the table ends.

    ``dice`` are the faces the roller will throw (``state.roller`` is a ScriptedRoller);
    ``doc`` goes to ``battle_doc``; ``field`` defaults to open flat ground.
    """
    spec = make_spec(**doc)
    field = field or open_table(spec.width_ft, spec.depth_ft)
    state = BattleState(
        spec,
        ScriptedRoller(dice),  # type: ignore[arg-type]
        field,
        {**DEFAULT_OPTIONS, **spec.options, **(options or {})},
    )
    state.turn = 1
    state.phase = "test"
    per_row = field.width_in // PARK_SPACING_IN + 1
    for force in state.forces:
        for index, parked in enumerate(force.stands):
            row, col = divmod(index, per_row)
            y = row * PARK_SPACING_IN
            parked.x = col * PARK_SPACING_IN
            parked.y = field.depth_in - y if force is state.attacker else y
    return state


def stand(state: BattleState, stand_id: str) -> Stand:
    """The stand with this id (``a.rifle_squad.1``, ``d.commander.1``, ``d.sniper.1``)."""
    for force in state.forces:
        for candidate in force.stands:
            if candidate.id == stand_id:
                return candidate
    raise KeyError(stand_id)


def place(target: Stand, x: int, y: int, *, status: int | None = None) -> Stand:
    target.x, target.y = x, y
    if status is not None:
        target.status = status
    return target


# --- whole battles ----------------------------------------------------------------------

FIXTURE = Path(__file__).parents[2] / "fixtures" / "battles" / "korona-turn1.json"


def korona_turn1() -> BattleSpec:
    """The reference battle: the Japanese 1st Company attacks A Company at Korona."""
    return load_battle(FIXTURE)


# Battles unlike the fixture, so the audit sees support, snipers, armour and limbering.
VARIANTS = {
    "korona": korona_turn1(),
    "jungle_sniper": make_spec(
        attacker={"commander": 1, "rifle_squad": 8, "hmg": 1, "small_mortar": 1},
        defender={"commander": 1, "forward_observer": 1, "rifle_squad": 6, "small_mortar": 1},
        attacker_quality="veteran",
        vegetation="jungle",
        sniper=True,
        zone=4,
    ),
    "australians_attack_with_artillery": make_spec(
        attacker={"commander": 1, "forward_observer": 1, "rifle_squad": 9, "small_mortar": 1},
        defender={"commander": 1, "rifle_squad": 7, "hmg": 1, "small_mortar": 1},
        attacker_side="australian",
        defender_side="japanese",
        attacker_quality="raw",
        vegetation="light",
        zone=2,
    ),
    "japanese_artillery_and_air": make_spec(
        attacker={"commander": 1, "rifle_squad": 9, "hmg": 1, "small_mortar": 1},
        defender={"commander": 1, "forward_observer": 1, "rifle_squad": 8, "small_mortar": 1},
        vegetation="light",
        plains=True,
        zone=6,
        buffalos=2,
    ),
    "armour_and_guns": make_spec(
        attacker={"commander": 1, "rifle_squad": 6, "light_tank": 2, "medium_mortar": 1},
        defender={"commander": 1, "rifle_squad": 6, "at_gun": 1, "heavy_artillery": 1},
        vegetation="clearing",
        width_ft=4,
        depth_ft=4,
        zone=7,
        hurricane=True,
    ),
}


# --- time limits ------------------------------------------------------------------------


@contextmanager
def deadline(seconds: float, what: str) -> Iterator[None]:
    """Fail, instead of hanging the run, when ``what`` takes longer than ``seconds``.

    A whole battle takes about a hundredth of a second; a loop that never ends is a bug
    the suite must report, not wait for.
    """

    def too_long(signum: int, frame: object) -> None:
        pytest.fail(f"{what} did not finish within {seconds} s (a loop that never ends?)")

    previous = signal.signal(signal.SIGALRM, too_long)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
