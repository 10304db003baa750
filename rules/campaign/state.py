"""A plain snapshot of a campaign: everything the campaign rules read and change.

The Django models mirror these types; a turn is computed from a snapshot without a
database. Names are the game's own: areas and companies are keyed by their names, sides
by their key (``australian``, ``japanese``).
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from rules.korona.events import DEFAULT_COMBAT_EVENT_TABLE, DEFAULT_JAPANESE_EVENT_TABLE

SIDE_KEYS = ("australian", "japanese")
FEATURES = ("port", "airfield", "airstrip", "hq")
COMPANY_KINDS = ("fighting", "supply")
ORDER_KINDS = ("hold", "advance", "withdraw")
STANDING_ORDERS = ("hold", "aggressive", "sensible")
BATTLE_MODES = ("auto", "tabletop")
UNENTERED_TABLETOP = ("wait", "auto")

# The campaign's event tables: die face -> effect. Effects and their fields:
#   ship_returns {side}          the side's ship comes back to its port
#   no_supply_support {side}     the side's fighting companies get no supply-company support
#   ship_departs {side}          the ship leaves; that side has no company in supply this turn
#   planes_lost {side, count}    that many Buffalos lost, never below 0
#   planes_recalled {side}       every Buffalo leaves for good
#   bomber_arrives {side}        one Hurricane-bomber arrives (at most ``max_bombers``)
#   strafe_company {side, track} the side's fighting company on the track nearest the
#                                enemy base is out of supply this turn
#   side_out_of_supply {side}    no company of the side is in supply this turn
#   none                         no effect in game terms
DEFAULT_NAVAL_TABLE: dict[int, dict[str, Any]] = {
    1: {
        "effect": "ship_returns",
        "side": "australian",
        "text": "An Australian convoy has fought off a Japanese attack.",
    },
    2: {
        "effect": "no_supply_support",
        "side": "australian",
        "text": "An Australian convoy has been attacked by the Japanese.",
    },
    3: {
        "effect": "ship_departs",
        "side": "australian",
        "text": "An Australian convoy has been attacked and the ship has had to depart.",
    },
    4: {
        "effect": "ship_departs",
        "side": "japanese",
        "text": "A Japanese convoy has been attacked and the ship has had to depart.",
    },
    5: {
        "effect": "no_supply_support",
        "side": "japanese",
        "text": "A Japanese convoy has been attacked by the Allies.",
    },
    6: {
        "effect": "ship_returns",
        "side": "japanese",
        "text": "A Japanese convoy has fought off an Allied attack.",
    },
}
DEFAULT_AERIAL_TABLE: dict[int, dict[str, Any]] = {
    1: {
        "effect": "planes_lost",
        "side": "australian",
        "count": 1,
        "text": "A raid on the airfield: one Buffalo is destroyed.",
    },
    2: {
        "effect": "planes_lost",
        "side": "australian",
        "count": 2,
        "text": "An air battle: two Buffalos have been lost.",
    },
    3: {
        "effect": "planes_recalled",
        "side": "australian",
        "text": "The Buffalos have been recalled to help the fight elsewhere.",
    },
    4: {
        "effect": "bomber_arrives",
        "side": "australian",
        "text": "Reinforcement: a Hurricane-bomber has been sent to help out.",
    },
    5: {
        "effect": "strafe_company",
        "side": "japanese",
        "track": "Korona track",
        "text": "A strafing attack on the track: one Japanese company is out of supply.",
    },
    6: {
        "effect": "side_out_of_supply",
        "side": "japanese",
        "text": "An attack on the Japanese HQ: no Japanese company is in supply.",
    },
}

# What a copy of a snapshot shares with its original: values nothing can change.
_IMMUTABLE = (str, int, float, bool, type(None))
_PLAIN_IMMUTABLE = frozenset(_IMMUTABLE)  # exactly these types (no subclass)


def _copy_data(value: Any) -> Any:
    """Plain data (an event table, as the GM wrote it) copied all the way down: dicts and
    lists anew, immutable values shared, anything else deep-copied."""
    if type(value) is dict:
        # The common case, an event table's entry of plain values: shared at once.
        return {
            key: item if type(item) in _PLAIN_IMMUTABLE else _copy_data(item)
            for key, item in value.items()
        }
    if isinstance(value, _IMMUTABLE):
        return value
    if isinstance(value, dict):
        return {key: _copy_data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy_data(item) for item in value]
    return copy.deepcopy(value)


@dataclass(slots=True)
class Settings:
    """Every ruling that a GM could want otherwise, with the rulings' defaults."""

    turn_limit: int = 20
    naval_trigger: int = 6  # "on a roll of d6" read as: an event on a 6
    aerial_trigger: int = 6
    ship_absence_blocks_supply: bool = False  # absence blocks supply every turn it lasts
    supply_company_bonus: int = 1
    rough_tracks: tuple[str, ...] = ("southern track",)  # "A Bastard of a track"
    rough_track_penalty: int = 1
    out_of_supply_turns_before_losses: int = 2
    airdrop_zone: int = 6
    airdrop_base: str | None = "Korona"  # the area an airdrop lets a company count as base
    airdrop_side: str | None = "australian"  # the side with aircraft to drop supplies
    objective: str | None = "Korona"  # its controller wins at the end
    max_bombers: int = 1
    establishment: int = 12  # stands of a fighting company
    battle_mode: str = "auto"  # default for new battles: auto or tabletop
    ruleset: str = "korona"
    tactical_turn_limit: int = 12
    # The battle table (rulings section 4: 3 ft x 3 ft, its size a setting), and the going
    # of each landform where it differs from the rulings' (landform -> good/rough/bad).
    table_width_ft: int = 3
    table_depth_ft: int = 3
    landform_going: dict[str, str] = field(default_factory=dict)
    fog_of_war: bool = True
    combat_events: bool = False  # Old Breed 17.0 in every battle (rules.korona.events)
    # The Combat Event tables the battles use, as data the GM edits (face -> entry).
    combat_event_table: dict[int, dict[str, Any]] = field(
        default_factory=lambda: copy.deepcopy(DEFAULT_COMBAT_EVENT_TABLE)
    )
    japanese_event_table: dict[int, dict[str, Any]] = field(
        default_factory=lambda: copy.deepcopy(DEFAULT_JAPANESE_EVENT_TABLE)
    )
    fog_of_war_cup: bool = False  # extra companies join a battle from the cup (16.2)
    # "Replace any stands that it has lost so far": supply refills battle losses too.
    supply_replaces_battle_losses: bool = True
    unentered_tabletop: str = "wait"  # a tabletop battle past its deadline: wait or auto
    naval_table: dict[int, dict[str, Any]] = field(
        default_factory=lambda: copy.deepcopy(DEFAULT_NAVAL_TABLE)
    )
    aerial_table: dict[int, dict[str, Any]] = field(
        default_factory=lambda: copy.deepcopy(DEFAULT_AERIAL_TABLE)
    )

    def copy(self) -> Settings:
        return Settings(
            turn_limit=self.turn_limit,
            naval_trigger=self.naval_trigger,
            aerial_trigger=self.aerial_trigger,
            ship_absence_blocks_supply=self.ship_absence_blocks_supply,
            supply_company_bonus=self.supply_company_bonus,
            rough_tracks=self.rough_tracks,
            rough_track_penalty=self.rough_track_penalty,
            out_of_supply_turns_before_losses=self.out_of_supply_turns_before_losses,
            airdrop_zone=self.airdrop_zone,
            airdrop_base=self.airdrop_base,
            airdrop_side=self.airdrop_side,
            objective=self.objective,
            max_bombers=self.max_bombers,
            establishment=self.establishment,
            battle_mode=self.battle_mode,
            ruleset=self.ruleset,
            tactical_turn_limit=self.tactical_turn_limit,
            table_width_ft=self.table_width_ft,
            table_depth_ft=self.table_depth_ft,
            landform_going=dict(self.landform_going),
            fog_of_war=self.fog_of_war,
            combat_events=self.combat_events,
            combat_event_table=_copy_data(self.combat_event_table),
            japanese_event_table=_copy_data(self.japanese_event_table),
            fog_of_war_cup=self.fog_of_war_cup,
            supply_replaces_battle_losses=self.supply_replaces_battle_losses,
            unentered_tabletop=self.unentered_tabletop,
            naval_table=_copy_data(self.naval_table),
            aerial_table=_copy_data(self.aerial_table),
        )


@dataclass(slots=True)
class Side:
    key: str  # australian / japanese
    name: str  # "Australians"
    base: str  # area name

    def copy(self) -> Side:
        return Side(key=self.key, name=self.name, base=self.base)


@dataclass(slots=True)
class Area:
    name: str
    zone: int
    track: str
    vegetation: str  # jungle / light / clearing
    plains: bool = False
    features: tuple[str, ...] = ()
    x: float = 0.0  # map coordinates for drawing, 0-1000 across and down
    y: float = 0.0
    controller: str | None = None  # the side that last held it alone with a fighting company

    def copy(self) -> Area:
        return Area(
            name=self.name,
            zone=self.zone,
            track=self.track,
            vegetation=self.vegetation,
            plains=self.plains,
            features=self.features,
            x=self.x,
            y=self.y,
            controller=self.controller,
        )


@dataclass(slots=True)
class Company:
    name: str
    side: str
    kind: str  # fighting / supply
    area: str
    stands: dict[str, int]  # unit type -> stands held now
    establishment: dict[str, int]  # unit type -> stands at full strength
    quality: str | None = None  # raw / trained / veteran; None for a supply company
    turns_out_of_supply: int = 0  # consecutive turns, up to and including the last turn
    banzai: bool = False  # won a battle last turn: counts as in supply this turn
    standing_order: str = "hold"  # hold / aggressive / sensible (rules.campaign.ai)
    in_supply: bool | None = None  # the last supply result, for players to read

    def copy(self) -> Company:
        return Company(
            name=self.name,
            side=self.side,
            kind=self.kind,
            area=self.area,
            stands=dict(self.stands),
            establishment=dict(self.establishment),
            quality=self.quality,
            turns_out_of_supply=self.turns_out_of_supply,
            banzai=self.banzai,
            standing_order=self.standing_order,
            in_supply=self.in_supply,
        )

    @property
    def fighting(self) -> bool:
        return self.kind == "fighting"

    @property
    def strength(self) -> int:
        return sum(self.stands.values())


@dataclass(slots=True)
class Ship:
    name: str
    side: str
    port: str  # area name
    present: bool = True

    def copy(self) -> Ship:
        return Ship(name=self.name, side=self.side, port=self.port, present=self.present)


@dataclass(slots=True)
class AirGroup:
    side: str
    base: str  # area name
    buffalos: int = 0
    bombers: int = 0  # Hurricane-bombers

    def copy(self) -> AirGroup:
        return AirGroup(
            side=self.side, base=self.base, buffalos=self.buffalos, bombers=self.bombers
        )

    @property
    def planes(self) -> int:
        return self.buffalos + self.bombers


@dataclass(slots=True)
class Order:
    company: str
    kind: str  # hold / advance / withdraw
    target: str | None = None  # the linked area, for advance and withdraw
    # Defending, swap one rifle squad for a sniper; None: the AI chooses (woods in its third).
    sniper: bool | None = None


# Each map's areas linked to each area (``_linked``), by its links: a turn asks for an
# area's neighbours some hundred times (the AI's plans, the orders' checks), over a map
# that never changes. Kept for a few maps at a time (each campaign has its own).
_LINKED: dict[tuple[tuple[str, str], ...], dict[str, tuple[str, ...]]] = {}
_LINKED_MAPS = 64


def _linked(links: tuple[tuple[str, str], ...]) -> dict[str, tuple[str, ...]]:
    """Area -> the areas linked to it, by name, in order (none: not in the dict)."""
    found = _LINKED.get(links)
    if found is None:
        ends: dict[str, set[str]] = {}
        for a, b in links:
            ends.setdefault(a, set()).add(b)
            ends.setdefault(b, set()).add(a)
        found = {area: tuple(sorted(linked)) for area, linked in ends.items()}
        if len(_LINKED) >= _LINKED_MAPS:
            _LINKED.clear()
        _LINKED[links] = found
    return found


@dataclass(slots=True)
class CampaignState:
    name: str
    seed: int
    settings: Settings
    sides: dict[str, Side]
    areas: dict[str, Area]
    links: list[tuple[str, str]]
    companies: dict[str, Company]
    ships: list[Ship] = field(default_factory=list)
    air: list[AirGroup] = field(default_factory=list)
    turn: int = 0  # turns played so far
    finished: bool = False
    winner: str | None = None
    end_reason: str | None = None

    def copy(self) -> CampaignState:
        """A copy that shares nothing that can change with this state (what
        ``copy.deepcopy`` gives, built field by field: a turn copies its state many times
        over, the AI's sketches too). Each class's ``copy`` names every field:
        tests/campaign/test_state_copy.py fails for one left out."""
        return CampaignState(
            name=self.name,
            seed=self.seed,
            settings=self.settings.copy(),
            sides={key: side.copy() for key, side in self.sides.items()},
            areas={name: area.copy() for name, area in self.areas.items()},
            links=list(self.links),  # pairs of names: immutable, shared
            companies={name: company.copy() for name, company in self.companies.items()},
            ships=[ship.copy() for ship in self.ships],
            air=[group.copy() for group in self.air],
            turn=self.turn,
            finished=self.finished,
            winner=self.winner,
            end_reason=self.end_reason,
        )

    def sketch(self, companies: Collection[str]) -> CampaignState:
        """A what-if of this state holding only ``companies`` (in its order), each a copy
        of its own to move about: the AI's odds and the orders page pair a battle from one
        (``rules.campaign.planning``). Everything else (its settings, sides, areas, links,
        ships and air) is this state's own, shared, not copied: whoever asks for a sketch
        changes its companies only, and the pairing reads the rest. A copy of the whole
        state copied every company and event table for each what-if, to drop most of them
        at once (issue 17)."""
        return replace(
            self,
            companies={
                name: company.copy()
                for name, company in self.companies.items()
                if name in companies
            },
        )

    def neighbours(self, area: str) -> list[str]:
        """The areas linked to ``area``, by name, in a stable order."""
        return list(_linked(tuple(self.links)).get(area, ()))

    def companies_in(
        self, area: str, *, side: str | None = None, fighting: bool | None = None
    ) -> list[Company]:
        return [
            c
            for c in self.companies.values()
            if c.area == area
            and (side is None or c.side == side)
            and (fighting is None or c.fighting == fighting)
        ]

    def enemy_of(self, side: str) -> str:
        return next(key for key in self.sides if key != side)
