"""The typed shapes of a battle's result and of every kind of log record.

A battle's result (``rules.rulesets.resolve_battle``) is a :class:`BattleResult`; its
``log`` holds records, each a dict whose ``kind`` names its shape below (both rule sets
write the shared kinds: terrain, deploy, move, fire, end). Every record carries ``turn``,
``phase``, ``kind`` and ``dice`` (every die the record rolled, if only an empty list: the
log accounts for all of them). ``RECORD_KINDS`` maps each kind to its shape;
``tests/rules/test_records.py`` fights battles of both rule sets, with and without the Old
Breed options, and checks every record against it: no field outside its shape, none of
its required fields missing, each of the declared type.

These are JSON shapes (a result is stored as JSON): positions are ``[x, y]`` lists.
"""

# No ``from __future__ import annotations``: TypedDict reads NotRequired from the
# annotations themselves, which Python 3.11 cannot do from strings.
from typing import Any, NotRequired, TypedDict

Point = list[int]  # [x, y] in inches, or a square's [col, row]


class Record(TypedDict):
    turn: int  # 0 before the first turn (terrain, deployment)
    phase: str
    kind: str
    dice: list[int]


class Terrain(Record):
    square: Point
    landform: str
    vegetation: str
    going: str


class Deploy(Record):
    positions: dict[str, Point]  # stand id -> where it starts
    hidden: list[str]


class Move(Record):
    side: str
    stand: str
    stand_type: NotRequired[str]
    to: Point
    going: str
    purpose: str
    speed: NotRequired[str]  # Force on Force: tactical or rapid
    # and "from": Point, which Python cannot name as a field: see MOVE_FIELDS


class Fire(Record):
    side: str
    firer: str
    firer_type: str
    target: str
    target_type: str
    hits: int
    effect: str
    obscured: NotRequired[bool]
    status_before: NotRequired[str]
    revealed: NotRequired[bool]
    impact_fuse: NotRequired[bool]
    blast: NotRequired[list[dict[str, Any]]]
    # Force on Force: firepower against defence
    action: NotRequired[str]
    attack_die: NotRequired[int]
    attack: NotRequired[list[int]]
    firepower: NotRequired[list[list[int | str]]]
    defence_die: NotRequired[int]
    defence: NotRequired[list[int]]
    defence_dice: NotRequired[list[list[int | str]]]
    suppressing: NotRequired[bool]
    firer_at: NotRequired[Point]
    target_at: NotRequired[Point]
    morale: NotRequired[dict[str, Any]]
    split_fire: NotRequired[dict[str, Any]]


class Shot(Record):  # Korona: one shot at one stand whose cover and status it reads
    side: str
    firer: str
    firer_type: str
    target: str
    target_type: str
    obscured: bool
    hits: int
    status_before: str
    effect: str


class Support(Shot):  # Korona: an off-table or air fire mission
    mission: str
    called_by: str
    blast: NotRequired[list[dict[str, Any]]]


class CombatEventFire(Shot):  # Korona: a sniper's shot from a Combat Event
    pass


class Assault(Record):
    side: str
    by: str
    attackers: list[str]
    defenders: list[str]
    rolls: list[dict[str, Any]]
    modifiers: dict[str, Any]
    totals: NotRequired[dict[str, Any]]
    outcome: str
    winner: str
    removed: list[str]


class Rally(Record):
    side: str
    stand: str
    stand_type: str
    status_before: str
    modifiers: list[dict[str, Any]]
    target: int
    outcome: str


class Command(Record):
    side: str
    stand: str
    stand_type: str
    target: int
    reason: str
    outcome: str


class Caught(Record):
    side: str
    stand: str
    stand_type: str
    outcome: str
    reason: str


class Sniper(Record):
    side: str
    stand: str
    outcome: str


class Withdraw(Record):
    side: str
    outcome: str


class CombatEventCheck(Record):
    side: str
    stand: str
    outcome: str


class CombatEvent(Record):  # Old Breed 17.0: the entry rolled and what it did
    side: str
    table: str
    effect: str
    text: str
    outcome: str
    stand: NotRequired[str]  # the stand it changed, if one
    becomes: NotRequired[str]  # killed, pinned, suppressed or ok
    to: NotRequired[Point]  # where a stand was put on the table
    hidden: NotRequired[bool]


class Initiative(Record):
    dies: list[int]
    winner: str


class Overwatch(Record):
    side: str
    units: list[str]


class Reaction(Record):
    purpose: str
    initiative_unit: str
    reacting_unit: str
    totals: list[int]
    winner: str


class Spot(Record):
    side: str
    spotter: str
    hidden_unit: str
    modifier: int
    spotted: bool


class Locate(Record):
    side: str
    spotter: str
    hidden_unit: str
    spotted: bool


class TqCheck(Record):
    side: str
    stand: str
    purpose: str
    die: int
    modifier: int
    passed: bool


class FogOfWar(Record):
    side: str
    stand: str
    cause: str
    event: str
    outcome: str


class FirstAid(Record):
    side: str
    stand: str
    advanced: bool
    results: list[str]


class Split(Record):
    side: str
    stand: str
    element: str
    figures: int


class Merge(Record):
    side: str
    stand: str
    joined: str
    figures: int


class End(Record):
    winner: str
    reason: str
    lost: dict[str, Any]
    present: dict[str, Any]


RECORD_KINDS: dict[str, type[Record]] = {
    "terrain": Terrain,
    "deploy": Deploy,
    "move": Move,
    "fire": Fire,
    "support": Support,
    "combat_event_fire": CombatEventFire,
    "assault": Assault,
    "rally": Rally,
    "command": Command,
    "caught": Caught,
    "sniper": Sniper,
    "withdraw": Withdraw,
    "combat_event_check": CombatEventCheck,
    "combat_event": CombatEvent,
    "initiative": Initiative,
    "overwatch": Overwatch,
    "reaction": Reaction,
    "spot": Spot,
    "locate": Locate,
    "tq_check": TqCheck,
    "fog_of_war": FogOfWar,
    "first_aid": FirstAid,
    "split": Split,
    "merge": Merge,
    "end": End,
}
# Fields a kind has beyond its TypedDict, named by words Python keeps for itself.
EXTRA_FIELDS: dict[str, dict[str, Any]] = {"move": {"from": Point}}


class BattleResult(TypedDict):
    """What ``resolve_battle`` gives: the outcome, the forces and the whole log."""

    ruleset: str
    seed: int
    winner: str  # attacker or defender
    reason: str
    # Why the loser withdrew, only when ``reason`` is "withdrew": rules.ending.WITHDRAWALS.
    withdrawal: NotRequired[str]
    # Only beside ``withdrawal`` "hopeless": [the loser's fighting strength, the winner's]
    # when it withdrew, as its rule set counts them (Korona: stands alive and not
    # suppressed; Force on Force: units fighting that fire).
    fit_to_fight: NotRequired[list[int]]
    turns: int
    area: str
    forces: dict[str, Any]  # role -> the force as fought
    stands_present: dict[str, Any]
    losses: dict[str, Any]
    stands: list[dict[str, Any]]
    terrain: list[list[dict[str, Any]]]
    options: dict[str, Any]
    log: list[dict[str, Any]]  # each record of a shape in RECORD_KINDS
