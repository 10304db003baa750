"""What every phase of a campaign turn shares: the map's distances, the turn in play,
the log's records, and the moves a company makes when it must give way."""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import names as naming
from rules.battlefield import RolledTable
from rules.battlespec import BattleSpec
from rules.campaign.seeds import TurnDice
from rules.campaign.state import CampaignState, Company, Order
from rules.refusals import Refusal


class TurnError(Refusal):
    """A turn that cannot be played (a finished campaign, say)."""


class OrderError(Refusal):
    """An order the rules do not allow; the message says why, in the game's words."""


@dataclass(slots=True)
class PlannedBattle:
    key: str  # "<turn>:<area>[:<n>]", unique within a campaign
    area: str
    attacker_side: str
    defender_side: str
    attackers: list[str]  # company names
    defenders: list[str]
    seed: int
    spec: dict[str, Any]  # the BATTLE.json the battle is fought from
    # ``spec`` as ``parse_battle`` read it when the turn paired the battle (None for one
    # read back from its row): fought at once, it is not read a second time.
    parsed: BattleSpec | None = field(default=None, compare=False, repr=False)
    # Its table, when the pairing rolled it (the AI's sniper choice reads it): fought at
    # once, the battle is fought on it, not on the same table rolled again.
    table: RolledTable | None = field(default=None, compare=False, repr=False)


# Each map's distances from an area (``distances_from``), by its areas, its links and the
# area: a turn asks for some forty (each order checked, each of the AI's plans), over a
# map that never changes. Kept for a few maps at a time (each campaign has its own).
_DISTANCES: dict[tuple[tuple[str, ...], tuple[tuple[str, str], ...], str], dict[str, int]] = {}
_DISTANCES_KEPT = 1024


def distances_from(state: CampaignState, origin: str) -> dict[str, int]:
    """Fewest links from ``origin`` to every area (breadth first)."""
    key = (tuple(state.areas), tuple(state.links), origin)
    found = _DISTANCES.get(key)
    if found is None:
        found = _breadth_first(key[0], key[1], origin)
        if len(_DISTANCES) >= _DISTANCES_KEPT:
            _DISTANCES.clear()
        _DISTANCES[key] = found
    return dict(found)


def _breadth_first(
    areas: tuple[str, ...], links: tuple[tuple[str, str], ...], origin: str
) -> dict[str, int]:
    adjacency: dict[str, list[str]] = {name: [] for name in areas}
    for a, b in links:
        adjacency[a].append(b)
        adjacency[b].append(a)
    seen = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for there in adjacency[here]:
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


class _Map:
    """Distances to each side's base, computed once a turn."""

    def __init__(self, state: CampaignState) -> None:
        self.state = state
        self.to_base = {key: distances_from(state, side.base) for key, side in state.sides.items()}
        self._cache: dict[str, dict[str, int]] = {}

    def distance(self, origin: str, target: str) -> int:
        if target not in self._cache:
            self._cache[target] = distances_from(self.state, target)
        return self._cache[target].get(origin, 10**6)

    def home(self, side: str, area: str) -> int:
        return self.to_base[side].get(area, 10**6)

    def enemy_base(self, side: str, area: str) -> int:
        return self.to_base[self.state.enemy_of(side)].get(area, 10**6)


@dataclass(slots=True)
class Events:
    """What the naval and aerial events leave for the rest of the turn."""

    no_supply: set[str] = field(default_factory=set)  # sides with no company in supply
    no_support: set[str] = field(default_factory=set)  # sides without supply-company support
    strafed: set[str] = field(default_factory=set)  # companies out of supply
    last_strafed: str | None = None  # the company the last event strafed, for its record


@dataclass(slots=True)
class TurnInPlay:
    """One turn as its phases play it, each in turn reading and adding to it: the map
    (a copy of the campaign's), the dice, the log and what earlier phases decided."""

    number: int
    state: CampaignState
    mapping: _Map
    log: list[dict[str, Any]]
    dice: TurnDice | None = None  # None once the dice are rolled (the results' phases)
    seed: int | None = None  # the turn seed
    orders: Mapping[str, Order] = field(default_factory=dict)
    players: Collection[str] = ()
    planned: Mapping[str, Mapping[str, Order]] = field(default_factory=dict)  # the AI's
    events: Events = field(default_factory=Events)
    first: str = ""  # the side that won the initiative
    arrival: dict[str, dict[str, int]] = field(default_factory=dict)
    battles: list[PlannedBattle] = field(default_factory=list)
    results: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def turn_dice(self) -> TurnDice:
        if self.dice is None:
            raise AssertionError("a phase rolled dice after the turn's dice were rolled")
        return self.dice


def record(log: list[dict[str, Any]], phase: str, kind: str, text: str, **fields: Any) -> None:
    """Add a record to the turn's log: every record has the same fields, and its text."""
    entry: dict[str, Any] = {
        "phase": phase,
        "kind": kind,
        "side": None,
        "company": None,
        "dice": [],
        "dice_streams": [],  # the stream of each die (rules.campaign.seeds)
        "modifiers": [],
        "target": None,
        "outcome": None,
    }
    entry.update(fields)
    entry["text"] = text
    log.append(entry)


def describe(stands: dict[str, int]) -> str:
    return naming.stands(stands)


def engaged(state: CampaignState, company: Company) -> bool:
    """Is an enemy fighting company in the company's area?"""
    return any(c.fighting and c.side != company.side for c in state.companies_in(company.area))


def retreat(state: CampaignState, mapping: _Map, company: Company) -> str | None:
    """The linked area closer to the company's base with no enemy fighting company."""
    here = mapping.home(company.side, company.area)
    options = [
        a
        for a in state.neighbours(company.area)
        if mapping.home(company.side, a) < here
        and not any(c.fighting and c.side != company.side for c in state.companies_in(a))
    ]
    return min(options) if options else None


def supply_companies_caught(state: CampaignState, mapping: _Map, log: list[dict[str, Any]]) -> None:
    """Supply companies never fight: caught by an enemy fighting company they withdraw
    toward their base, and are destroyed if they cannot."""
    for company in sorted(state.companies.values(), key=lambda c: c.name):
        if company.fighting or not engaged(state, company):
            continue
        origin = company.area
        target = retreat(state, mapping, company)
        if target is None:
            del state.companies[company.name]
            record(
                log,
                "battles",
                "supply_company_destroyed",
                f"{company.name} is caught in {origin} with nowhere to go and is destroyed",
                side=company.side,
                company=company.name,
                outcome="destroyed",
            )
        else:
            company.area = target
            record(
                log,
                "battles",
                "supply_company_withdraws",
                f"{company.name} is caught in {origin} and withdraws to {target}",
                side=company.side,
                company=company.name,
                target=target,
                outcome="withdrew",
                **{"from": origin},
            )
