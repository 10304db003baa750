"""The Old Breed options that either rule set plays: the parts that do not depend on how a
rule set keeps its units (Old Breed South Pacific 16.1, 16.2 and 17.0).

- Combat Events (17.0): the d10 after a fire action that showed a 1, which side rolls on
  which table, the tables themselves (data; our own entries) and their check.
- Area of Control (16.1): a place is in a side's Area of Control when it is closer to
  the side's Rout Edge (its own table edge) than at least two of its units (or than its
  sole remaining unit) and fewer than two enemy units are closer to that edge than it.
- The Fog of War cup (16.2): the random draw and where a drawn unit may be placed, one
  hex read as 3".

Units are given here as positions (whole inches from the defender's left corner) and
distances to an edge; ``rules.korona`` and ``rules.forceonforce`` apply the results to
their own units. Every die is rolled through the roller passed in and logged by the
caller's ``record``.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import hypot
from typing import Any, Protocol, TypeVar

from rules.battlefield import Battlefield, Sight
from rules.battlespec import ForceSpec
from rules.refusals import Code, Problem

# --- Combat Events (17.0) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventOutcome:
    """What an event did to one stand, in words and as the log's structured fields (the
    replay reads these, never the words): the stand, what it ``becomes`` (killed, pinned,
    suppressed or ok) and, for a stand put on the table, where (``to``) and whether it is
    hidden there."""

    words: str
    stand: str
    becomes: str
    to: tuple[int, int] | None = None
    hidden: bool = False

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"stand": self.stand, "becomes": self.becomes}
        if self.to is not None:
            out.update(to=list(self.to), hidden=self.hidden)
        return out


# Squads and weapon teams: the units whose fire can set off an event.
TRIGGERS = frozenset(
    {"rifle_squad", "hmg", "small_mortar", "medium_mortar", "at_gun", "heavy_artillery"}
)
EFFECTS = (
    "nothing",
    "pin_own_squad",
    "suppress_own_weapon",
    "rally_own",
    "return_lost_squad",
    "sniper_appears",
    "sniper_shot",
)

DEFAULT_COMBAT_EVENT_TABLE: dict[int, dict[str, str]] = {
    1: {
        "effect": "suppress_own_weapon",
        "text": "Ammunition runs low: one of your weapon teams is suppressed.",
    },
    2: {
        "effect": "pin_own_squad",
        "text": "A weapon jams at the worst moment: one of your squads is pinned.",
    },
    3: {
        "effect": "rally_own",
        "text": "Steady under fire: one of your pinned or suppressed stands rallies.",
    },
    4: {
        "effect": "return_lost_squad",
        "text": "Walking wounded: one of your lost squads rejoins near its commander "
        "(it still counts as lost).",
    },
    5: {"effect": "nothing", "text": "A lull in the firing."},
    6: {"effect": "nothing", "text": "Rain sweeps the position; nothing comes of it."},
}
DEFAULT_JAPANESE_EVENT_TABLE: dict[int, dict[str, str]] = {
    1: {
        "effect": "sniper_appears",
        "text": "A sniper tied into a tree reveals nothing yet: a hidden sniper appears.",
    },
    2: {"effect": "sniper_appears", "text": "A second sniper has crept forward unseen."},
    3: {"effect": "sniper_shot", "text": "A shot from the canopy: a sniper fires and vanishes."},
    4: {"effect": "rally_own", "text": "Jungle fighters: one Japanese stand rallies."},
    5: {
        "effect": "return_lost_squad",
        "text": "Stragglers rejoin: a lost Japanese squad returns (it still counts as lost).",
    },
    6: {"effect": "nothing", "text": "The jungle falls quiet."},
}
_DEFAULT_TABLES = {
    "combat_event_table": DEFAULT_COMBAT_EVENT_TABLE,
    "japanese_event_table": DEFAULT_JAPANESE_EVENT_TABLE,
}
TABLE_NAMES = {
    "combat_event_table": "Combat Event Table",
    "japanese_event_table": "Japanese Event Table",
}

PLACEMENT_RANGE_IN = 12  # an appearing sniper sets up within 12" of an enemy
SNIPER_KEEP_AWAY_IN = 3  # and no nearer than 3" to any


class Dice(Protocol):
    def die(self, sides: int) -> int: ...

    def d6(self) -> int: ...


class Record(Protocol):
    def __call__(self, kind: str, **fields: Any) -> dict[str, Any]: ...


class EventSide(Protocol):
    """A force as Combat Events see it: its side and the roster it came from."""

    @property
    def side(self) -> str: ...

    @property
    def spec(self) -> ForceSpec: ...


F = TypeVar("F", bound=EventSide)
T = TypeVar("T")


def check_table(table: Any, name: str) -> list[Problem]:
    """Problems with an event table: it must give an entry for every face 1-6. Each is
    about the table (no path), its message naming it by ``name``."""
    if not isinstance(table, dict):
        message = f"{name} must map the faces 1-6 to events"
        return [Problem("", message, Code.NOT_AN_EVENT_TABLE, {"given": reprlib.repr(table)})]
    problems = []
    faces = {str(face) for face in table}
    missing = sorted({str(face) for face in range(1, 7)} - faces)
    if missing or faces - {str(face) for face in range(1, 7)}:
        message = f"{name} must have exactly the faces 1-6 (missing {missing or 'none'})"
        problems.append(Problem("", message, Code.NOT_THE_SIX_FACES, {"missing": tuple(missing)}))
    for face, entry in table.items():
        if not isinstance(entry, dict) or entry.get("effect") not in EFFECTS:
            message = f"{name}[{face}] must name an effect: one of {', '.join(EFFECTS)}"
            fields = {"face": str(face)[:20], "known": tuple(EFFECTS)}
            problems.append(Problem("", message, Code.NO_EFFECT, fields))
    return problems


def event_table(options: dict[str, Any], key: str) -> dict[int, Any]:
    """The battle's table ``key`` (a GM's, from the options) or the shipped one."""
    given = options.get(key)
    return _DEFAULT_TABLES[key] if given is None else {int(f): e for f, e in given.items()}


def least_harm(candidates: Sequence[T], harm: Callable[[T], Any]) -> T | None:
    """The choice rule for a harmful event: the side that rolled must choose if it can, and
    chooses the candidate with the least ``harm`` (a sortable key ending in an id)."""
    return min(candidates, key=harm) if candidates else None


def combat_event(
    *,
    dice: Dice,
    record: Record,
    options: dict[str, Any],
    firer: str,
    firer_force: F,
    other_force: F,
    japanese: F | None,
    apply: Callable[[F, str], str | EventOutcome],
) -> None:
    """17.0 after a squad's or weapon team's fire showed a 1: the d10 says who rolls on
    which table (1 the firer's side, 2 the other side, 3 the Japanese on theirs, with
    Japanese present; else nothing), then a d6 on that table; ``apply`` makes the entry's
    effect happen to the rolling side's units and says what came of it (an
    ``EventOutcome`` when it changed a stand: its fields join the record)."""
    die = dice.die(10)
    if die == 1:
        roller, key = firer_force, "combat_event_table"
    elif die == 2:
        roller, key = other_force, "combat_event_table"
    elif die == 3 and japanese is not None:
        roller, key = japanese, "japanese_event_table"
    else:
        record(
            "combat_event_check", side=firer_force.side, stand=firer, dice=[die], outcome="no event"
        )
        return
    name = TABLE_NAMES[key]
    record(
        "combat_event_check",
        side=firer_force.side,
        stand=firer,
        dice=[die],
        outcome=f"{roller.spec.name} rolls on the {name}",
    )
    face = dice.d6()
    entry = event_table(options, key)[face]
    outcome = apply(roller, entry["effect"])
    changed = outcome.fields() if isinstance(outcome, EventOutcome) else {}
    record(
        "combat_event",
        side=roller.side,
        table=name,
        dice=[face],
        effect=entry["effect"],
        text=entry.get("text", ""),
        outcome=outcome.words if isinstance(outcome, EventOutcome) else outcome,
        **changed,
    )


# --- Area of Control (16.1) -------------------------------------------------------------


def edge_distance(field: Battlefield, attacker: bool, y: float) -> float:
    """How far ``y`` is from a side's own (rout) edge: the far edge is the attacker's."""
    return field.depth_in - y if attacker else y


def in_area_of_control(here: float, friends: Sequence[float], enemies: Sequence[float]) -> bool:
    """16.1 for a place ``here`` from the side's edge, given the distances of its units
    (``friends``) and of the enemy's (``enemies``) from that same edge. Level is not closer."""
    if not friends:
        return False
    behind_friends = sum(1 for d in friends if here < d)
    if behind_friends < min(2, len(friends)):
        return False
    return sum(1 for d in enemies if d < here) < 2


def area_of_control(
    field: Battlefield,
    attacker: bool,
    friends: Sequence[tuple[int, int]],
    enemies: Sequence[tuple[int, int]],
) -> Callable[[float, float], bool]:
    """A test of places against one side's Area of Control while no unit moves."""
    own = [edge_distance(field, attacker, y) for _, y in friends]
    theirs = [edge_distance(field, attacker, y) for _, y in enemies]

    def test(x: float, y: float) -> bool:
        return in_area_of_control(edge_distance(field, attacker, y), own, theirs)

    return test


# --- where events place units -----------------------------------------------------------


def rejoin_place(
    field: Battlefield, attacker: bool, anchor: tuple[int, int], aoc: Callable[[float, float], bool]
) -> tuple[int, int]:
    """Behind the anchor, toward the side's own edge, stepping back 2" at a time until the
    place is in its Area of Control; at its own edge it always may rejoin."""
    ax, y = anchor
    step = 2 if attacker else -2
    while True:
        y = min(max(y + step, 0), field.depth_in)
        if aoc(ax, y) or y in (0, field.depth_in):
            return ax, y


def sniper_place(
    field: Battlefield,
    enemies: Sequence[tuple[int, int]],
    aoc: Callable[[float, float], bool],
) -> tuple[int, int] | None:
    """An appearing sniper: in woods 3"-12" from the nearest enemy, in its Area of Control,
    the nearest such place to the enemy; None where there is none."""
    best = None
    for x in range(0, field.width_in + 1, 2):
        for y in range(0, field.depth_in + 1, 2):
            if not field.square_at(x, y).wooded:
                continue
            near = min((hypot(ex - x, ey - y) for ex, ey in enemies), default=None)
            if near is None or not SNIPER_KEEP_AWAY_IN <= near <= PLACEMENT_RANGE_IN:
                continue
            if not aoc(x, y):
                continue  # placed units go within their side's Area of Control
            key = (near, y, x)
            if best is None or key < best:
                best = key
    if best is None:
        return None
    return best[2], best[1]


# --- the Fog of War cup (16.2) ----------------------------------------------------------

HEX_IN = 3
AMBUSH_MIN_IN, AMBUSH_MAX_IN = 1 * HEX_IN, 2 * HEX_IN
OWN_PHASE_FRIEND_IN = 3 * HEX_IN
OWN_PHASE_ENEMY_IN = 3 * HEX_IN
GRID_IN = 2  # own-phase placements are searched on a 2" grid
SPACING_IN = 3  # as the AIs deploy: out of each other's 2" blast


def beneficial_cover(field: Battlefield, x: int, y: int) -> float:
    """Beneficial terrain: the edge of woods best, then deep woods, then high ground."""
    depth = field.wood_depth(x, y)
    if 0 < depth <= 3:
        return 3.0
    if depth > 3:
        return 2.0
    return 1.0 if field.cover_at(x, y) else 0.0


def _points(field: Battlefield) -> Iterator[tuple[int, int]]:
    for x in range(0, field.width_in + 1, GRID_IN):
        for y in range(0, field.depth_in + 1, GRID_IN):
            yield x, y


def draw(
    dice: Dice,
    record: Record,
    cup: list[T],
    *,
    side: str,
    name: Callable[[T], tuple[str, str]],
    when: str,
) -> T:
    """Draw one unit from the cup at random: a die over the units left (the last one needs
    no die); ``name`` gives a unit's id and type for the ``cup_draw`` record."""
    rolled = [dice.die(len(cup))] if len(cup) > 1 else []
    unit = cup.pop(rolled[0] - 1 if rolled else 0)
    unit_id, unit_type = name(unit)
    record(
        "cup_draw",
        side=side,
        stand=unit_id,
        stand_type=unit_type,
        dice=rolled,
        cup_size=len(cup) + 1,
        when=when,
        outcome=f"{unit_id} is drawn from the cup",
    )
    return unit


def record_place(
    record: Record, *, side: str, unit_id: str, unit_type: str, x: int, y: int, case: str
) -> None:
    record(
        "cup_place",
        side=side,
        stand=unit_id,
        stand_type=unit_type,
        to=[x, y],
        case=case,
        outcome=f"{unit_id} is placed at {x},{y} ({case})",
    )


def own_phase_place(
    field: Battlefield,
    friends: Sequence[tuple[int, int]],
    enemies: Sequence[tuple[int, int]],
    aoc: Callable[[float, float], bool],
) -> tuple[int, int] | None:
    """16.2 in the side's own phase: in cover, within its Area of Control, within 9" of a
    friendly unit, 3" from every friend and at least 9" from every enemy; cover first,
    then as near the enemy as the rule allows. None: it must enter at its own edge."""
    best = None
    for x, y in _points(field):
        cover = beneficial_cover(field, x, y)
        if cover == 0 or not aoc(x, y):
            continue
        if not any(hypot(fx - x, fy - y) <= OWN_PHASE_FRIEND_IN for fx, fy in friends):
            continue
        if any(hypot(fx - x, fy - y) < SPACING_IN for fx, fy in friends):
            continue  # never on top of a friend: out of its blast
        nearest = min((hypot(ex - x, ey - y) for ex, ey in enemies), default=float("inf"))
        if nearest < OWN_PHASE_ENEMY_IN:
            continue
        key = (-cover, nearest, y, x)
        if best is None or key < best:
            best = key
    return None if best is None else (best[3], best[2])


def edge_entry(
    field: Battlefield, attacker: bool, friends: Sequence[tuple[int, int]]
) -> tuple[int, int]:
    """The free spot on the side's own edge nearest the middle."""
    y = field.depth_in if attacker else 0
    middle = field.width_in // 2
    for offset in range(0, field.width_in + 1):
        for x in (middle - offset, middle + offset):
            if 0 <= x <= field.width_in and not any(
                hypot(fx - x, fy - y) < 2 for fx, fy in friends
            ):
                return x, y
    return middle, y


def _crowded(
    x: int,
    y: int,
    origin: tuple[int, int],
    others: Sequence[tuple[int, int]],
    friends: Sequence[tuple[int, int]],
) -> bool:
    """An ambush place too near: in the hex the enemy just left, within a hex of another
    enemy, or within 3" of a friend."""
    return (
        hypot(origin[0] - x, origin[1] - y) < HEX_IN / 2
        or any(hypot(ox - x, oy - y) <= HEX_IN for ox, oy in others)
        or any(hypot(fx - x, fy - y) < SPACING_IN for fx, fy in friends)
    )


def ambush_place(
    field: Battlefield,
    attacker: bool,
    mover: tuple[int, int],
    origin: tuple[int, int],
    others: Sequence[tuple[int, int]],
    friends: Sequence[tuple[int, int]],
    aoc: Callable[[float, float], bool],
) -> tuple[int, int] | None:
    """16.2 in the enemy's phase, an enemy unit having just moved to ``mover`` from
    ``origin``: in cover 1-2 hexes from it, within the side's Area of Control, closer to
    the side's edge than the mover, not in the hex it left, not within a hex of another
    enemy (``others``), 3" from friends. Only a place that sees the mover is taken: the
    point of an ambush is to shoot (None: keep the draw)."""
    mx, my = mover
    mover_edge = edge_distance(field, attacker, my)
    best = None
    for x in range(max(mx - AMBUSH_MAX_IN, 0), min(mx + AMBUSH_MAX_IN, field.width_in) + 1):
        for y in range(max(my - AMBUSH_MAX_IN, 0), min(my + AMBUSH_MAX_IN, field.depth_in) + 1):
            distance = hypot(mx - x, my - y)
            if not AMBUSH_MIN_IN <= distance <= AMBUSH_MAX_IN:
                continue
            cover = beneficial_cover(field, x, y)
            if cover == 0 or edge_distance(field, attacker, y) >= mover_edge:
                continue
            if _crowded(x, y, origin, others, friends) or not aoc(x, y):
                continue
            sees = (
                field.sight(x, y, mx, my) is not Sight.BLOCKED
                and field.sight(mx, my, x, y) is not Sight.BLOCKED
            )
            key = (not sees, -cover, distance, y, x)
            if best is None or key < best:
                best = key
    if best is None or best[0]:
        return None
    return best[-1], best[-2]
