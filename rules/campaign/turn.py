"""The six phases of a Korona campaign turn, as pure functions over a snapshot.

``start_turn`` rolls the naval and aerial events, supply and initiative, moves the
companies and pairs the battles; ``finish_turn`` feeds the battles' results back into
the map (losses, withdrawals, surrender, control) and checks for the end of the
campaign. ``play_turn`` does both, resolving every battle through ``rules``.

Every die of a turn comes from the turn seed (by default ``derive_seed(campaign seed,
"turn", number)``), through the stream of its roll group (``rules.campaign.seeds``; a
record's ``dice_streams`` names each die's), and lands in the turn's log as a record
with ``phase``, ``kind``, ``side``, ``company``, ``dice``, ``modifiers`` (each with
``reason`` and ``value``), ``target`` and ``outcome``, plus a ``text`` in plain words.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from rules import names as naming
from rules.battlefield import SQUARE_IN, generate_battlefield
from rules.campaign.seeds import INITIATIVE, PUBLIC, TurnDice, battle_seed, default_turn_seed
from rules.campaign.state import CampaignState, Company, Order
from rules.dice import Roller, derive_seed
from rules.refusals import Refusal
from rules.rulesets import RULESETS, resolve_battle
from rules.spec import parse_battle
from rules.units import STAND_TYPES

# Order in which supply losses strip a company, and (reversed) regains refill it.
LOSS_ORDER = (
    "rifle_squad",
    "carrier",
    "sniper",
    "small_mortar",
    "hmg",
    "medium_mortar",
    "at_gun",
    "heavy_artillery",
    "wheeled_vehicle",
    "tracked_vehicle",
    "light_tank",
    "medium_tank",
    "heavy_tank",
    "forward_observer",
    "commander",
)
REGAIN_ORDER = (
    "commander",
    "forward_observer",
    "hmg",
    "small_mortar",
    "medium_mortar",
    "at_gun",
    "heavy_artillery",
    "sniper",
    "light_tank",
    "medium_tank",
    "heavy_tank",
    "wheeled_vehicle",
    "tracked_vehicle",
    "rifle_squad",
    "carrier",
)
BANZAI_SIDE = "japanese"
_UNIT_RANK = {unit: rank for rank, unit in enumerate(STAND_TYPES)}
MAX_INITIATIVE_ROUNDS = 100


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


@dataclass(slots=True)
class TurnPlan:
    """A turn after movement, its battles paired and waiting for their results."""

    number: int
    state: CampaignState
    log: list[dict[str, Any]]
    battles: list[PlannedBattle]
    initiative: str


@dataclass(slots=True)
class TurnOutcome:
    number: int
    state: CampaignState
    log: list[dict[str, Any]]
    battles: list[PlannedBattle]
    results: dict[str, dict[str, Any]] = field(default_factory=dict)


# --- the map --------------------------------------------------------------------------


def distances_from(state: CampaignState, origin: str) -> dict[str, int]:
    """Fewest links from ``origin`` to every area (breadth first)."""
    adjacency: dict[str, list[str]] = {name: [] for name in state.areas}
    for a, b in state.links:
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


def _record(log: list[dict[str, Any]], phase: str, kind: str, text: str, **fields: Any) -> None:
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


# --- phases 1 and 2: naval and aerial events --------------------------------------------


@dataclass(slots=True)
class _Events:
    no_supply: set[str] = field(default_factory=set)  # sides with no company in supply
    no_support: set[str] = field(default_factory=set)  # sides without supply-company support
    strafed: set[str] = field(default_factory=set)  # companies out of supply
    last_strafed: str | None = None  # the company the last event strafed, for its record


def _apply_event(
    state: CampaignState, mapping: _Map, event: dict[str, Any], events: _Events
) -> str:
    # The scenario check gives a side to every effect that reads one (EVENT_EFFECTS).
    effect, side = event["effect"], cast(str, event.get("side"))
    if effect == "ship_returns":
        back = [s for s in state.ships if s.side == side and not s.present]
        for ship in back:
            ship.present = True
        return f"{', '.join(s.name for s in back)} returns" if back else "no impact in game terms"
    if effect == "ship_departs":
        gone = [s for s in state.ships if s.side == side and s.present]
        for ship in gone:
            ship.present = False
        events.no_supply.add(side)
        names = ", ".join(s.name for s in gone) or "the ship"
        return f"{names} departs: no {naming.side_adjective(side)} company is in supply this turn"
    if effect == "no_supply_support":
        events.no_support.add(side)
        return f"{naming.side_companies(side)} get no supply-company support this turn"
    if effect == "side_out_of_supply":
        events.no_supply.add(side)
        return f"no {naming.side_adjective(side)} company is in supply this turn"
    air = [g for g in state.air if g.side == side]
    if effect == "planes_lost":
        lost = 0
        for group in air:
            taken = min(group.buffalos, event.get("count", 1) - lost)
            group.buffalos -= taken
            lost += taken
        return f"{lost} Buffalo{'s' if lost != 1 else ''} lost"
    if effect == "planes_recalled":
        for group in air:
            group.buffalos = 0
        return "the Buffalos leave for good"
    if effect == "bomber_arrives":
        for group in air[:1]:
            if group.bombers < state.settings.max_bombers:
                group.bombers += 1
                return "a Hurricane-bomber arrives"
        return "no effect: the Hurricane-bomber is already here" if air else "no effect"
    if effect == "strafe_company":
        enemy = state.enemy_of(side)
        candidates = [
            c
            for c in state.companies.values()
            if c.side == side and c.fighting and state.areas[c.area].track == event.get("track")
        ]
        if not candidates:
            return (
                f"no {naming.side_adjective(side)} fighting company on the "
                f"{event.get('track')}: no effect"
            )
        target = min(candidates, key=lambda c: (mapping.home(enemy, c.area), c.name))
        events.strafed.add(target.name)
        events.last_strafed = target.name
        return f"{target.name} is strafed and out of supply this turn"
    return "no impact in game terms"


def _events_phase(
    state: CampaignState,
    mapping: _Map,
    dice: TurnDice,
    log: list[dict[str, Any]],
    phase: str,
    trigger: int,
    table: Mapping[int, dict[str, Any]],
    events: _Events,
) -> None:
    roller, stream = dice.stream(PUBLIC, phase)
    check = roller.d6()
    if check < trigger:
        _record(
            log,
            phase,
            "event_check",
            f"{phase} events: rolled {check}, needing {trigger}: nothing happens",
            dice=[check],
            dice_streams=[stream],
            target=trigger,
            outcome="no event",
        )
        return
    face = roller.d6()
    event = table[face]
    events.last_strafed = None
    outcome = _apply_event(state, mapping, event, events)
    _record(
        log,
        phase,
        "event_check",
        f"{phase} events: rolled {check}, needing {trigger}: an event",
        dice=[check],
        dice_streams=[stream],
        target=trigger,
        outcome="event",
    )
    _record(
        log,
        phase,
        "event",
        f"{phase} event {face}: {event.get('text', event['effect'])} ({outcome})",
        side=event.get("side"),
        # The strafed company, by name (the fog of war shows it to the enemy only in sight).
        company=events.last_strafed,
        dice=[face],
        dice_streams=[stream],
        outcome=outcome,
        effect=event["effect"],
    )


# --- phase 3: supply ------------------------------------------------------------------------


def _supply_base_distance(state: CampaignState, mapping: _Map, company: Company) -> tuple[int, str]:
    """Zones to the company's base, or to the airdrop base when an airdrop supplies it."""
    side = state.sides[company.side]
    distance, base = mapping.home(company.side, company.area), side.base
    settings = state.settings
    area = state.areas[company.area]
    planes = sum(g.planes for g in state.air if g.side == company.side)
    if (
        company.side == settings.airdrop_side
        and settings.airdrop_base in state.areas
        and area.zone == settings.airdrop_zone
        and planes > 0
        and state.companies_in(company.area, side=company.side, fighting=False)
    ):
        airdrop = mapping.distance(company.area, settings.airdrop_base)
        if airdrop < distance:
            distance, base = airdrop, settings.airdrop_base
    return distance, base


def _strip(company: Company, count: int, order: tuple[str, ...]) -> dict[str, int]:
    """Take ``count`` stands from the company in ``order``; returns what was taken."""
    taken: dict[str, int] = {}
    for unit in order:
        while count and company.stands.get(unit, 0) > 0:
            company.stands[unit] -= 1
            taken[unit] = taken.get(unit, 0) + 1
            count -= 1
    return taken


def _refill(company: Company, count: int) -> dict[str, int]:
    """Give back up to ``count`` lost stands, commander first, never above establishment."""
    given: dict[str, int] = {}
    for unit in REGAIN_ORDER:
        while count and company.stands.get(unit, 0) < company.establishment.get(unit, 0):
            company.stands[unit] = company.stands.get(unit, 0) + 1
            given[unit] = given.get(unit, 0) + 1
            count -= 1
    return given


def _describe(stands: dict[str, int]) -> str:
    return naming.stands(stands)


def _supply_phase(
    state: CampaignState, mapping: _Map, dice: TurnDice, log: list[dict[str, Any]], events: _Events
) -> None:
    settings = state.settings
    for company in sorted(state.companies.values(), key=lambda c: (c.side, c.name)):
        if not company.fighting:
            continue
        distance, base = _supply_base_distance(state, mapping, company)
        roller, stream = dice.stream(company.side, f"supply:{company.name}")
        die = roller.d6()
        modifiers: list[dict[str, Any]] = []
        if company.side not in events.no_support and any(
            c.side == company.side
            and not c.fighting
            and (c.area == company.area or c.area in state.neighbours(company.area))
            for c in state.companies.values()
        ):
            modifiers.append({"reason": "supply company", "value": settings.supply_company_bonus})
        if state.areas[company.area].track in settings.rough_tracks:
            modifiers.append(
                {"reason": "a bastard of a track", "value": -settings.rough_track_penalty}
            )
        total = die + sum(m["value"] for m in modifiers)
        by_roll = total >= distance
        reasons = []
        if company.side in events.no_supply:
            reasons.append("no company of its side is in supply this turn")
        if company.name in events.strafed:
            reasons.append("strafed")
        in_supply = by_roll and not reasons
        banzai = False
        if company.banzai and not by_roll and not reasons:
            in_supply, banzai = True, True
        company.banzai = False
        company.in_supply = in_supply
        company.turns_out_of_supply = 0 if in_supply else company.turns_out_of_supply + 1
        change: dict[str, int] = {}
        if in_supply:
            change = _refill(company, die // 2)
            effect = f"regains {_describe(change)}" if change else ""
        elif company.turns_out_of_supply >= settings.out_of_supply_turns_before_losses:
            change = _strip(company, die // 2, LOSS_ORDER)
            effect = f"loses {_describe(change)}" if change else ""
        else:
            effect = ""
        mods = "".join(f" {m['value']:+d} ({m['reason']})" for m in modifiers)
        verdict = "in supply" if in_supply else "out of supply"
        why = " (Banzai!)" if banzai else f" ({'; '.join(reasons)})" if reasons else ""
        text = (
            f"{company.name}: supply roll {die}{mods} = {total} against distance "
            f"{distance} to {base}: {verdict}{why}" + (f"; {effect}" if effect else "")
        )
        _record(
            log,
            "supply",
            "supply",
            text,
            side=company.side,
            company=company.name,
            dice=[die],
            dice_streams=[stream],
            modifiers=modifiers,
            target=distance,
            outcome=verdict,
            total=total,
            base=base,
            forced=reasons,
            banzai=banzai,
            turns_out_of_supply=company.turns_out_of_supply,
            stands_gained=change if in_supply else {},
            stands_lost={} if in_supply else change,
        )
        if company.strength == 0:
            del state.companies[company.name]
            _record(
                log,
                "supply",
                "company_removed",
                f"{company.name} has no stands left and is removed",
                side=company.side,
                company=company.name,
                outcome="removed",
            )


# --- phase 4: initiative ---------------------------------------------------------------------


def _initiative_phase(state: CampaignState, dice_of: TurnDice, log: list[dict[str, Any]]) -> str:
    sides = sorted(state.sides)
    # Not a side's own branch: with its seed a side would recompute a tied round's die.
    streams = {side: dice_of.stream(INITIATIVE, side) for side in sides}
    penalties = {
        side: sum(
            1
            for c in state.companies.values()
            if c.side == side and c.fighting and c.in_supply is False
        )
        for side in sides
    }
    for _ in range(MAX_INITIATIVE_ROUNDS):
        dice = {side: streams[side][0].d6() for side in sides}
        totals = {side: dice[side] - penalties[side] for side in sides}
        best = max(totals.values())
        leaders = [side for side in sides if totals[side] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        text = "; ".join(
            f"{state.sides[s].name} {dice[s]} - {penalties[s]} out of supply = {totals[s]}"
            for s in sides
        )
        _record(
            log,
            "initiative",
            "initiative",
            f"initiative: {text}: "
            + (f"{state.sides[winner].name} move first" if winner else "a tie, rolled again"),
            dice=[dice[s] for s in sides],
            dice_streams=[streams[s][1] for s in sides],
            modifiers=[
                {"reason": f"{s}: companies out of supply", "value": -penalties[s]}
                for s in sides
                if penalties[s]
            ],
            rolls={s: dice[s] for s in sides},
            totals=totals,
            outcome=winner or "tie",
        )
        if winner:
            return winner
    return sides[0]


# --- phase 5: orders and movement --------------------------------------------------------------


def engaged(state: CampaignState, company: Company) -> bool:
    """Is an enemy fighting company in the company's area?"""
    return any(c.fighting and c.side != company.side for c in state.companies_in(company.area))


def check_order(
    state: CampaignState, order: Order, *, side: str | None = None, in_supply: bool | None = None
) -> None:
    """Raise OrderError with the reason if the rules forbid ``order`` now.

    ``side`` is the side giving the order (None: the GM, who may order anyone).
    ``in_supply`` is the company's supply this turn; None uses its last known supply.
    """
    company = state.companies.get(order.company)
    if company is None:
        raise OrderError(f"there is no company {order.company!r}")
    if side is not None and company.side != side:
        raise OrderError(f"{company.name} belongs to the other side")
    if order.kind not in ("hold", "advance", "withdraw"):
        raise OrderError(f"{order.kind!r} is not an order (hold, advance or withdraw)")
    if order.kind == "hold":
        if order.target is not None:
            raise OrderError("a hold order names no area")
        return
    if order.target is None:
        raise OrderError(f"an {order.kind} order must name the area to move to")
    if order.target not in state.areas:
        raise OrderError(f"there is no area {order.target!r}")
    if order.target not in state.neighbours(company.area):
        raise OrderError(f"{order.target} is not linked to {company.area}")
    if engaged(state, company):
        raise OrderError(
            f"{company.name} is engaged by the enemy in {company.area} and may not move"
        )
    mapping = _Map(state)
    if order.kind == "advance":
        supplied = company.in_supply if in_supply is None else in_supply
        if company.fighting and supplied is False:
            raise OrderError(f"{company.name} is out of supply and may not advance")
        if mapping.enemy_base(company.side, order.target) > mapping.enemy_base(
            company.side, company.area
        ):
            raise OrderError(
                f"{order.target} is farther from the enemy base: that is not an advance"
            )
    elif mapping.home(company.side, order.target) >= mapping.home(company.side, company.area):
        raise OrderError(
            f"{order.target} is not closer to {company.name}'s base: that is not a withdrawal"
        )


def standing_order(state: CampaignState, mapping: _Map, company: Company) -> Order:
    """The order a company follows when given none: hold, or aggressive.

    Aggressive: a fighting company in supply advances toward the enemy base; one out of
    supply withdraws toward its own base. Supply companies follow their side's front.
    """
    if company.standing_order != "aggressive" or engaged(state, company):
        return Order(company.name, "hold")
    links = state.neighbours(company.area)
    if not company.fighting:
        return _supply_follow(state, mapping, company)
    # Out of supply, it cannot advance, and a second turn out would cost it stands.
    in_trouble = company.in_supply is False
    if in_trouble:
        back = [
            a
            for a in links
            if mapping.home(company.side, a) < mapping.home(company.side, company.area)
        ]
        if back:
            return Order(company.name, "withdraw", min(back))
        return Order(company.name, "hold")
    if company.in_supply:
        here = mapping.enemy_base(company.side, company.area)
        forward = [a for a in links if mapping.enemy_base(company.side, a) < here]
        if forward:
            # Nearest the enemy base first; between equal routes, toward the enemy's
            # fighting companies, then off the rough tracks, then by name.
            enemies = [
                c.area for c in state.companies.values() if c.fighting and c.side != company.side
            ]

            def preference(area: str) -> tuple[int, int, bool, str]:
                nearest = min((mapping.distance(area, e) for e in enemies), default=0)
                rough = state.areas[area].track in state.settings.rough_tracks
                return (mapping.enemy_base(company.side, area), nearest, rough, area)

            return Order(company.name, "advance", min(forward, key=preference))
    return Order(company.name, "hold")


def _supply_follow(state: CampaignState, mapping: _Map, company: Company) -> Order:
    """An aggressive supply company moves one area toward its side's forward fighting
    companies, keeping an area behind the front and never entering an enemy's area."""
    friends = [c for c in state.companies.values() if c.side == company.side and c.fighting]
    if not friends:
        return Order(company.name, "hold")
    front = min(friends, key=lambda c: (mapping.enemy_base(c.side, c.area), c.name))
    if mapping.distance(company.area, front.area) <= 1:
        return Order(company.name, "hold")
    here = mapping.distance(company.area, front.area)
    steps = [
        a
        for a in state.neighbours(company.area)
        if mapping.distance(a, front.area) < here
        and not any(c.fighting and c.side != company.side for c in state.companies_in(a))
    ]
    if not steps:
        return Order(company.name, "hold")
    target = min(steps)
    kind = (
        "advance"
        if mapping.enemy_base(company.side, target)
        <= mapping.enemy_base(company.side, company.area)
        else "withdraw"
    )
    if kind == "withdraw" and mapping.home(company.side, target) >= mapping.home(
        company.side, company.area
    ):
        return Order(company.name, "hold")
    return Order(company.name, kind, target)


def _movement_phase(
    state: CampaignState,
    mapping: _Map,
    orders: Mapping[str, Order],
    first: str,
    log: list[dict[str, Any]],
    players: Collection[str] = (),
    planned_by_side: Mapping[str, Mapping[str, Order]] | None = None,
) -> dict[str, dict[str, int]]:
    """Move the companies, the initiative winner's first; returns each area's arrival
    rank per side (0 = there before movement), which decides who defends.

    ``players``: the sides a player plays. A company with no order follows its standing
    order; ``sensible`` is the AI (``rules.campaign.ai``): ``planned_by_side`` holds its
    orders, planned for each whole side at the start of the turn (``ai_orders``); a side
    with a player is played by its player, so there its ``sensible`` companies with no
    order hold (the rulings: "a company with no order holds")."""
    arrival: dict[str, dict[str, int]] = {}
    for company in state.companies.values():
        if company.fighting:
            arrival.setdefault(company.area, {}).setdefault(company.side, 0)
    rank = 0
    sides = [first] + [s for s in sorted(state.sides) if s != first]
    for side in sides:
        planned = (planned_by_side or {}).get(side, {})
        for company in sorted(
            (c for c in state.companies.values() if c.side == side), key=lambda c: c.name
        ):
            given = orders.get(company.name)
            if given is not None and given.company != company.name:
                _record(
                    log,
                    "movement",
                    "order",
                    f"an order for {given.company} was filed "
                    f"under {company.name} and is ignored; it holds",
                    side=side,
                    company=company.name,
                    outcome="refused",
                    order=given.kind,
                    reason="the order names another company",
                    source="order",
                )
                continue
            if given is not None:
                order = given
            elif company.standing_order == "sensible":
                order = planned.get(company.name, Order(company.name, "hold"))
            else:
                order = standing_order(state, mapping, company)
            source = "order" if given is not None else f"standing order ({company.standing_order})"
            if given is None and company.standing_order == "sensible" and side in players:
                source = "no order; its side has a player"
            if order.kind == "hold":
                _record(
                    log,
                    "movement",
                    "order",
                    f"{company.name} holds in {company.area} ({source})",
                    side=side,
                    company=company.name,
                    target=company.area,
                    outcome="hold",
                    order="hold",
                    source=source,
                )
                continue
            try:
                check_order(state, order, in_supply=company.in_supply)
            except OrderError as refused:
                _record(
                    log,
                    "movement",
                    "order",
                    f"{company.name}'s order to {order.kind} to "
                    f"{order.target} is refused: {refused}; it holds",
                    side=side,
                    company=company.name,
                    target=order.target,
                    outcome="refused",
                    order=order.kind,
                    reason=str(refused),
                    source=source,
                )
                continue
            assert order.target is not None  # check_order: a move names its area
            origin = company.area
            company.area = order.target
            rank += 1
            if company.fighting:
                arrival.setdefault(company.area, {}).setdefault(side, rank)
            _record(
                log,
                "movement",
                "order",
                f"{company.name} {order.kind}s from {origin} to {order.target} ({source})",
                side=side,
                company=company.name,
                target=order.target,
                outcome="moved",
                order=order.kind,
                source=source,
                **{"from": origin},
            )
    return dict(arrival)


# --- phase 6: battles --------------------------------------------------------------------------


def _retreat(state: CampaignState, mapping: _Map, company: Company) -> str | None:
    """The linked area closer to the company's base with no enemy fighting company."""
    here = mapping.home(company.side, company.area)
    options = [
        a
        for a in state.neighbours(company.area)
        if mapping.home(company.side, a) < here
        and not any(c.fighting and c.side != company.side for c in state.companies_in(a))
    ]
    return min(options) if options else None


def _supply_companies_caught(
    state: CampaignState, mapping: _Map, log: list[dict[str, Any]]
) -> None:
    """Supply companies never fight: caught by an enemy fighting company they withdraw
    toward their base, and are destroyed if they cannot."""
    for company in sorted(state.companies.values(), key=lambda c: c.name):
        if company.fighting or not engaged(state, company):
            continue
        origin = company.area
        target = _retreat(state, mapping, company)
        if target is None:
            del state.companies[company.name]
            _record(
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
            _record(
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


def _force(state: CampaignState, companies: list[Company], *, cup: bool = False) -> dict[str, Any]:
    """A battle force from its companies: the first leads; with the Fog of War cup, the
    companies that joined this battle as extras come as cup reinforcements."""
    lead = companies[0]

    def counts(group: list[Company]) -> dict[str, int]:
        stands: dict[str, int] = {}
        for company in group:
            for unit, count in company.stands.items():
                if count and unit != "carrier":
                    stands[unit] = stands.get(unit, 0) + count
        return stands

    on_table, joining = (companies[:1], companies[1:]) if cup else (companies, [])
    force: dict[str, Any] = {
        "side": lead.side,
        "name": " and ".join(c.name for c in companies),
        # Ruling: several companies fight at the quality of the strongest among them.
        "quality": lead.quality or "trained",
        "stands": counts(on_table),
    }
    if joining:
        force["reinforcements"] = counts(joining)
    if len(companies) > 1 and RULESETS[state.settings.ruleset].reads_companies:
        # Each stand answers to its own company's commander (rulings section 4).
        force["companies"] = [{"name": c.name, "stands": counts([c])} for c in companies]
    return force


def _faces(table: dict[int, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """An event table as BATTLE.json writes it (faces as strings)."""
    return {str(face): dict(entry) for face, entry in table.items()}


def deployment_has_woods(spec: Mapping[str, Any], seed: int) -> bool:
    """Has the defender's deployment third woods on the table this battle will be fought
    on? The table is rolled as the engines roll it (``generate_battlefield`` first, from
    a ``Roller`` of the battle's seed), on a throwaway roller: no die of the turn or the
    battle is used up by asking."""
    table = spec.get("table") or {}
    area = spec["area"]
    field_ = generate_battlefield(
        Roller(seed),
        width_ft=table.get("width_ft", 3),
        depth_ft=table.get("depth_ft", 3),
        vegetation=area["vegetation"],
        plains=bool(area.get("plains")),
    )
    third = max(field_.depth_in // 3, 2)  # the defender's zone, as its deployment reads it
    return any(sq.wooded for row in field_.squares for sq in row if sq.row * SQUARE_IN < third)


def _sniper_choice(
    force: Mapping[str, Any],
    on_table: list[Company],
    snipers: Mapping[str, bool | None],
    spec: Mapping[str, Any],
    seed: int,
) -> bool:
    """Does the defending force swap one rifle squad for a sniper? A company's own choice
    (its order's option) when it made one; a company with no choice (None: its side has
    no player) takes the AI's, which swaps when its deployment third has woods. The text
    gives a defender one sniper: one company choosing it is enough. Only a force with a
    rifle squad on the table can swap one."""
    if not force["stands"].get("rifle_squad"):
        return False
    choices = [snipers.get(c.name) for c in on_table]
    if any(choice is True for choice in choices):
        return True
    return any(choice is None for choice in choices) and deployment_has_woods(spec, seed)


def pair_battles(
    state: CampaignState,
    arrival: dict[str, dict[str, int]],
    number: int,
    log: list[dict[str, Any]],
    snipers: Mapping[str, bool | None] | None = None,
    *,
    turn_seed: int | None = None,
) -> list[PlannedBattle]:
    """Pair the battles of every contested area. ``snipers``: each company's sniper
    choice (True, False, None for the AI's); a company missing from it takes the AI's.
    Each battle is seeded from ``turn_seed``'s public branch (without one, a sketch's:
    from the campaign seed, never a real battle's seed)."""
    snipers = snipers or {}
    battles = []
    air = {g.side: g for g in state.air}
    for area_name in sorted(state.areas):
        here = state.companies_in(area_name, fighting=True)
        sides = sorted({c.side for c in here})
        if len(sides) < 2:
            continue
        ranks = arrival.get(area_name, {})
        # The side there first defends; both there before movement: the side holding it.
        holder = state.areas[area_name].controller
        defender = min(sides, key=lambda s: (ranks.get(s, 10**6), s != holder, s))
        attacker = next(s for s in sides if s != defender)

        att, dfn = (
            sorted((c for c in here if c.side == side), key=lambda c: (-c.strength, c.name))
            for side in (attacker, defender)
        )
        pairs = [([a], [d]) for a, d in zip(att, dfn, strict=False)]
        # A side's extra companies join its largest battle.
        for extra in att[len(pairs) :]:
            max(pairs, key=lambda p: sum(c.strength for c in p[0]))[0].append(extra)
        for extra in dfn[len(pairs) :]:
            max(pairs, key=lambda p: sum(c.strength for c in p[1]))[1].append(extra)
        area = state.areas[area_name]
        cup = state.settings.fog_of_war_cup
        for index, (a_cos, d_cos) in enumerate(pairs):
            key = f"{number}:{area_name}" + (f":{index + 1}" if len(pairs) > 1 else "")
            support = air.get("australian")
            spec = {
                "area": {
                    "name": area.name,
                    "zone": area.zone,
                    "vegetation": area.vegetation,
                    "plains": area.plains,
                },
                "table": {
                    "width_ft": state.settings.table_width_ft,
                    "depth_ft": state.settings.table_depth_ft,
                    **(
                        {"landform_going": dict(state.settings.landform_going)}
                        if state.settings.landform_going
                        else {}
                    ),
                },
                "attacker": _force(state, a_cos, cup=cup),
                "defender": {**_force(state, d_cos, cup=cup), "sniper": False},
                "support": {
                    "buffalos": support.buffalos if support else 0,
                    "hurricane": bool(support and support.bombers),
                },
                "options": {
                    "ruleset": state.settings.ruleset,
                    "turn_limit": state.settings.tactical_turn_limit,
                    **(
                        {
                            "combat_events": True,
                            "combat_event_table": _faces(state.settings.combat_event_table),
                            "japanese_event_table": _faces(state.settings.japanese_event_table),
                        }
                        if state.settings.combat_events
                        else {}
                    ),
                    **({"fog_of_war_cup": True} if cup else {}),
                },
            }
            seed = (
                derive_seed(state.seed, "battle", key)
                if turn_seed is None
                else battle_seed(turn_seed, key)
            )
            on_table = d_cos[:1] if cup else d_cos
            if _sniper_choice(spec["defender"], on_table, snipers, spec, seed):
                spec["defender"]["sniper"] = True
            parse_battle(spec)  # a battle the rules cannot fight is a bug here, not later
            battle = PlannedBattle(
                key=key,
                area=area_name,
                attacker_side=attacker,
                defender_side=defender,
                attackers=[c.name for c in a_cos],
                defenders=[c.name for c in d_cos],
                seed=seed,
                spec=spec,
            )
            battles.append(battle)
            _record(
                log,
                "battles",
                "battle",
                f"battle at {area_name}: {spec['attacker']['name']}"
                f" {naming.verb(spec['attacker']['name'], 'attacks', 'attack')}"
                f" {spec['defender']['name']}",
                side=attacker,
                target=area_name,
                outcome="to be fought",
                battle=key,
                attacker_side=attacker,
                defender_side=defender,
                attackers=battle.attackers,
                defenders=battle.defenders,
            )
    return battles


def sniper_choices(
    state: CampaignState, orders: Mapping[str, Order], players: Collection[str] = ()
) -> dict[str, bool | None]:
    """Each fighting company's sniper choice for the turn: its order's option; with no
    order (or an order that leaves it open), the AI's (None) on a side with no player,
    none on a side with a player (it chose nothing)."""
    choices: dict[str, bool | None] = {}
    for company in state.companies.values():
        given = orders.get(company.name)
        if given is not None and given.sniper is not None:
            choices[company.name] = given.sniper
        else:
            choices[company.name] = False if company.side in players else None
    return choices


def ai_orders(
    state: CampaignState, orders: Mapping[str, Order], players: Collection[str]
) -> dict[str, dict[str, Order]]:
    """The AI's orders (``rules.campaign.ai.plan_side``) for each side with no player
    that has ``sensible`` companies without an order, planned at the start of the turn,
    before its events, supply rolls, initiative and movement: a side's player gives its
    orders then, so the AI knows no more than a player would (not the enemy's moves of
    the turn, nor this turn's rolls)."""
    from rules.campaign import ai  # ai reads planning, which reads this module

    return {
        side: ai.plan_side(state, side)
        for side in sorted(state.sides)
        if side not in players
        and any(
            c.side == side and c.standing_order == "sensible" and c.name not in orders
            for c in state.companies.values()
        )
    }


def start_turn(
    state: CampaignState,
    orders: Mapping[str, Order] | None = None,
    *,
    roller: Roller | None = None,
    players: Collection[str] = (),
    seed: int | None = None,
) -> TurnPlan:
    """Phases 1-5 and the pairing of phase 6, on a copy of ``state``.

    The dice come from the turn ``seed`` (by default the campaign seed's for this turn,
    ``rules.campaign.seeds.default_turn_seed``); a ``roller`` given instead serves every
    stream (tests script their dice that way). ``players``: the sides a player plays (the
    rest are the AI's: its standing orders and its sniper choices).
    """
    if state.finished:
        raise TurnError(f"the campaign {state.name!r} has ended; no more turns are played")
    state = state.copy()
    number = state.turn + 1
    if seed is None:
        seed = default_turn_seed(state.seed, number)
    planned = ai_orders(state, orders or {}, players)
    dice = TurnDice(seed, scripted=roller)
    log: list[dict[str, Any]] = []
    mapping = _Map(state)
    events = _Events()
    settings = state.settings
    _events_phase(
        state, mapping, dice, log, "naval", settings.naval_trigger, settings.naval_table, events
    )
    _events_phase(
        state,
        mapping,
        dice,
        log,
        "aerial",
        settings.aerial_trigger,
        settings.aerial_table,
        events,
    )
    for ship in state.ships:
        # Checked after the events: a ship brought back this turn no longer blocks.
        if not ship.present and settings.ship_absence_blocks_supply:
            events.no_supply.add(ship.side)
    _supply_phase(state, mapping, dice, log, events)
    first = _initiative_phase(state, dice, log)
    orders = orders or {}
    arrival = _movement_phase(state, mapping, orders, first, log, players, planned)
    _supply_companies_caught(state, mapping, log)
    battles = pair_battles(
        state, arrival, number, log, sniper_choices(state, orders, players), turn_seed=seed
    )
    if dice.rolled != sum(len(r["dice"]) for r in log):
        raise AssertionError("a campaign roll went unlogged")  # a bug, never bad input
    return TurnPlan(number=number, state=state, log=log, battles=battles, initiative=first)


# --- feedback and the end ---------------------------------------------------------------------


def _take_losses(
    companies: list[Company], losses: Mapping[str, int], *, replaceable: bool = True
) -> dict[str, dict[str, int]]:
    """Killed stands leave the company, from the company holding most of that type first.

    ``replaceable`` (the setting ``supply_replaces_battle_losses``, on by default): they
    stay on its establishment, so supply may replace them ("replace any stands that it has
    lost so far"); off, they are lost for good (the establishment shrinks with them)."""
    taken: dict[str, dict[str, int]] = {}
    # A fixed unit order: results read back from a database come with their keys in any
    # order, and the log must not depend on it.
    for unit, count in sorted(losses.items(), key=lambda item: _UNIT_RANK.get(item[0], 99)):
        for _ in range(count):
            holder = max(companies, key=lambda c: (c.stands.get(unit, 0), c.name))
            if holder.stands.get(unit, 0) <= 0:
                break
            holder.stands[unit] -= 1
            if not replaceable:
                holder.establishment[unit] = max(
                    holder.establishment.get(unit, 0) - 1, holder.stands[unit]
                )
            taken.setdefault(holder.name, {})
            taken[holder.name][unit] = taken[holder.name].get(unit, 0) + 1
    return taken


def check_result(battle: PlannedBattle, result: Mapping[str, Any]) -> None:
    """A battle result must name a winner and lose no more stands than were present."""
    if result.get("winner") not in ("attacker", "defender"):
        raise ValueError("the winner must be attacker or defender")
    losses = result.get("losses") or {}
    for key in ("attacker", "defender"):
        present = battle.spec[key]["stands"]
        for unit, count in (losses.get(key) or {}).items():
            if not isinstance(count, int) or count < 0:
                raise ValueError(f"{key} losses of {unit} must be a whole number >= 0")
            if count > present.get(unit, 0):
                raise ValueError(f"{key} lost {count} {unit} but had {present.get(unit, 0)}")


def update_control(state: CampaignState) -> list[tuple[str, str | None, str]]:
    """An area belongs to the side that last held it alone with a fighting company."""
    changes = []
    for area in state.areas.values():
        sides = {c.side for c in state.companies_in(area.name, fighting=True)}
        if len(sides) == 1:
            side = sides.pop()
            if area.controller != side:
                changes.append((area.name, area.controller, side))
                area.controller = side
    return changes


def finish_turn(plan: TurnPlan, results: Mapping[str, Mapping[str, Any]]) -> TurnOutcome:
    """Feed every battle's result back into the map; check the end of the campaign."""
    state = plan.state.copy()
    log = list(plan.log)
    mapping = _Map(state)
    # A fixed order, whatever order the plan lists the battles and their companies in (a
    # plan rebuilt from the database, its battles fought as separate worker tasks, lists
    # a battle's companies as the rows come): the battles by area and number, each
    # side's companies by name. Withdrawals depend on it, and so does the log.
    for battle in sorted(plan.battles, key=_battle_order):
        if battle.key not in results:
            raise TurnError(f"the battle {battle.key} has no result yet")
        result = results[battle.key]
        check_result(battle, result)
        winner_key = result["winner"]
        winner_side = battle.attacker_side if winner_key == "attacker" else battle.defender_side
        sides = {"attacker": sorted(battle.attackers), "defender": sorted(battle.defenders)}
        # Every record of this battle names it and its two sides (who may read it).
        fought = {
            "battle": battle.key,
            "attacker_side": battle.attacker_side,
            "defender_side": battle.defender_side,
        }
        for key, names in sides.items():
            companies = [state.companies[n] for n in names if n in state.companies]
            replaceable = state.settings.supply_replaces_battle_losses
            taken = _take_losses(
                companies, (result.get("losses") or {}).get(key, {}), replaceable=replaceable
            )
            for name, lost in taken.items():
                _record(
                    log,
                    "battles",
                    "losses",
                    f"{name} loses {_describe(lost)}"
                    + (" (supply may replace them)" if replaceable else " for good"),
                    side=state.companies[name].side,
                    company=name,
                    outcome="losses",
                    stands_lost=lost,
                    **fought,
                )
        loser_key = "defender" if winner_key == "attacker" else "attacker"
        _record(
            log,
            "battles",
            "battle_result",
            f"battle at {battle.area}: the "
            f"{winner_key} ({state.sides[winner_side].name}) wins "
            f"({str(result.get('reason', 'entered')).replace('_', ' ')})",
            side=winner_side,
            target=battle.area,
            outcome=f"{winner_key} wins",
            winner=winner_key,
            **fought,
        )
        for name in sides[winner_key]:
            company = state.companies.get(name)
            if company is not None and company.side == BANZAI_SIDE:
                company.banzai = True
        for name in sides[loser_key]:
            company = state.companies.get(name)
            if company is None:
                continue
            if company.strength == 0:
                del state.companies[name]
                _record(
                    log,
                    "battles",
                    "company_removed",
                    f"{name} has no stands left",
                    side=company.side,
                    company=name,
                    outcome="removed",
                    **fought,
                )
                continue
            origin = company.area
            target = _retreat(state, mapping, company)
            if target is None:
                del state.companies[name]
                _record(
                    log,
                    "battles",
                    "surrender",
                    f"{name} cannot withdraw from {origin} and surrenders",
                    side=company.side,
                    company=name,
                    outcome="surrendered",
                    **fought,
                )
            else:
                company.area = target
                _record(
                    log,
                    "battles",
                    "withdrawal",
                    f"{name} withdraws from {origin} to {target}",
                    side=company.side,
                    company=name,
                    target=target,
                    outcome="withdrew",
                    **{"from": origin},
                    **fought,
                )
        for name in sides[winner_key]:
            company = state.companies.get(name)
            if company is not None and company.strength == 0:
                del state.companies[name]
    # A loser falling back may land on an enemy supply company, which must give way.
    _supply_companies_caught(state, mapping, log)
    for area, before, after in update_control(state):
        _record(
            log,
            "control",
            "control",
            f"{state.sides[after].name} take control of {area}",
            side=after,
            target=area,
            outcome="control",
            previous=before,
        )
    state.turn = plan.number
    _end_check(state, log)
    return TurnOutcome(
        number=plan.number,
        state=state,
        log=log,
        battles=plan.battles,
        results={k: dict(v) for k, v in results.items()},
    )


def _battle_order(battle: PlannedBattle) -> tuple[str, int]:
    """A battle's place among its turn's: its area, then its number there (the key ends
    in ":<n>" when an area has several; pair_battles numbers them in this order)."""
    _, _, index = battle.key.partition(f":{battle.area}:")
    return battle.area, int(index) if index.isdigit() else 0


def _end_check(state: CampaignState, log: list[dict[str, Any]]) -> None:
    reasons = []
    for key, side in state.sides.items():
        holder = state.areas[side.base].controller
        if holder is not None and holder != key:
            reasons.append(f"{side.name}' base {side.base} is held by the enemy")
        if not any(c.side == key and c.fighting for c in state.companies.values()):
            reasons.append(f"{side.name} have no fighting companies left")
    if state.turn >= state.settings.turn_limit:
        reasons.append(f"the turn limit ({state.settings.turn_limit}) is reached")
    if not reasons:
        return
    objective = state.settings.objective
    winner = state.areas[objective].controller if objective in state.areas else None
    state.finished = True
    state.winner = winner
    state.end_reason = "; ".join(reasons)
    who = state.sides[winner].name if winner else "nobody"
    _record(
        log,
        "end",
        "campaign_end",
        f"the campaign ends: {state.end_reason}. "
        f"{who} {'hold' if winner else 'holds'} {objective} and "
        f"{'win' if winner else 'wins'}.",
        side=winner,
        target=objective,
        outcome="ended",
        winner=winner,
        reason=state.end_reason,
    )


def play_turn(
    state: CampaignState,
    orders: Mapping[str, Order] | None = None,
    resolve: Callable[[dict[str, Any], int], dict[str, Any]] | None = None,
    *,
    players: Collection[str] = (),
    seed: int | None = None,
) -> TurnOutcome:
    """A whole turn with every battle fought automatically."""
    plan = start_turn(state, orders, players=players, seed=seed)
    fight = resolve or (lambda spec, seed: resolve_battle(parse_battle(spec), seed))
    results = {b.key: fight(b.spec, b.seed) for b in plan.battles}
    return finish_turn(plan, results)
