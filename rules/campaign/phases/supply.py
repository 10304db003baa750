"""Phase 3: supply. Each fighting company rolls a d6 against its distance to its base
(or to the airdrop base); in supply it regains half the die in lost stands, out of
supply for long enough it loses as many."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from rules.campaign.phases.common import Events, TurnInPlay, _Map, describe, record
from rules.campaign.state import CampaignState, Company, Settings

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


def _depots(state: CampaignState, side: str) -> set[str]:
    """The areas of the side's supply companies."""
    return {c.area for c in state.companies.values() if c.side == side and not c.fighting}


def _distance_at(
    state: CampaignState, mapping: _Map, side: str, area: str, depots: Collection[str]
) -> tuple[int, str]:
    """Zones from ``area`` to the side's base, or to the airdrop base when an airdrop
    supplies it (a supply company of the side in the area, a plane of the side left)."""
    distance, base = mapping.home(side, area), state.sides[side].base
    settings = state.settings
    planes = sum(g.planes for g in state.air if g.side == side)
    if (
        side == settings.airdrop_side
        and settings.airdrop_base in state.areas
        and state.areas[area].zone == settings.airdrop_zone
        and planes > 0
        and area in depots
    ):
        airdrop = mapping.distance(area, settings.airdrop_base)
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


def _modifiers(
    state: CampaignState, side: str, area: str, depots: Collection[str], *, supported: bool
) -> list[dict[str, Any]]:
    """A supply company of its side in or next to its area helps (unless an event says
    not this turn: ``supported`` False); a rough track hinders."""
    settings = state.settings
    modifiers = []
    if supported and set(depots) & {area, *state.neighbours(area)}:
        modifiers.append({"reason": "supply company", "value": settings.supply_company_bonus})
    if state.areas[area].track in settings.rough_tracks:
        modifiers.append({"reason": "a bastard of a track", "value": -settings.rough_track_penalty})
    return modifiers


def supply_verdict(*, by_roll: bool, banzai: bool, forced: Collection[str]) -> tuple[bool, bool]:
    """Whether a fighting company is in supply, and whether by its Banzai! alone: by its
    roll, else by a Banzai! win (a Japanese company that won a battle last turn); never
    when something puts it out whatever its roll (``forced``: an event, a ship away)."""
    if forced:
        return False, False
    if by_roll:
        return True, False
    return banzai, banzai


def ship_away_blocks(state: CampaignState, side: str) -> bool:
    """A ship of the side is away and the campaign's setting ("a ship away blocks
    supply") puts the side's companies out of supply while it is."""
    return state.settings.ship_absence_blocks_supply and any(
        not ship.present for ship in state.ships if ship.side == side
    )


SHIP_AWAY = "its side's ship is away"


@dataclass(frozen=True, slots=True)
class SupplyNeed:
    """What a fighting company's coming supply roll must reach, as things stand before
    the turn's events: the die at least ``need`` (at most 1: whatever it rolls; above
    6: never), the distance to ``base`` less the ``modifiers``; and what the supply
    phase reads besides the die (``supply_verdict``): the company's Banzai! win, and
    what puts it out of supply whatever its roll (``forced``: its side's ship away)."""

    distance: int
    base: str
    modifiers: tuple[tuple[str, int], ...]  # (reason, value), as the roll's record has them
    banzai: bool = False
    forced: tuple[str, ...] = ()

    @property
    def need(self) -> int:
        return self.distance - sum(value for _, value in self.modifiers)

    @property
    def certain(self) -> bool:
        """In supply whatever the die (the worst, 1, does it; or its Banzai!)."""
        return supply_verdict(by_roll=self.need <= 1, banzai=self.banzai, forced=self.forced)[0]

    @property
    def hopeless(self) -> bool:
        """Out of supply whatever the die (not even a 6 does it, nor a Banzai!)."""
        return not supply_verdict(by_roll=self.need <= 6, banzai=self.banzai, forced=self.forced)[0]

    @property
    def by_banzai(self) -> bool:
        """Certain by its Banzai! alone: a failed roll would still leave it in supply."""
        return supply_verdict(by_roll=False, banzai=self.banzai, forced=self.forced)[1]


def supply_need(
    state: CampaignState,
    *,
    side: str,
    area: str,
    depots: Collection[str],
    banzai: bool = False,
) -> SupplyNeed:
    """The supply roll a fighting company of ``side`` in ``area`` makes next, with its
    side's supply companies in ``depots``, as the supply phase rolls it: the same
    distance and modifiers, its Banzai! win (``banzai``) and its side's ship away read
    as the phase reads them, the events left out (they are rolled first)."""
    distance, base = _distance_at(state, _Map(state), side, area, depots)
    modifiers = _modifiers(state, side, area, depots, supported=True)
    return SupplyNeed(
        distance,
        base,
        tuple((m["reason"], m["value"]) for m in modifiers),
        banzai=banzai,
        forced=(SHIP_AWAY,) if ship_away_blocks(state, side) else (),
    )


def _forced_out(company: Company, events: Events) -> list[str]:
    """Why the events put the company out of supply whatever its roll."""
    reasons = []
    if company.side in events.no_supply:
        reasons.append("no company of its side is in supply this turn")
    if company.name in events.strafed:
        reasons.append("strafed")
    return reasons


@dataclass(slots=True)
class _Roll:
    """A company's supply roll and what came of it."""

    die: int
    modifiers: list[dict[str, Any]]
    total: int
    distance: int
    base: str
    reasons: list[str]
    in_supply: bool
    banzai: bool


def _roll(turn: TurnInPlay, company: Company) -> tuple[_Roll, str]:
    """Roll the company's supply; a Banzai! win puts it in supply on a failed roll."""
    depots = _depots(turn.state, company.side)
    distance, base = _distance_at(turn.state, turn.mapping, company.side, company.area, depots)
    roller, stream = turn.turn_dice.stream(company.side, f"supply:{company.name}")
    die = roller.d6()
    supported = company.side not in turn.events.no_support
    modifiers = _modifiers(turn.state, company.side, company.area, depots, supported=supported)
    total = die + sum(m["value"] for m in modifiers)
    by_roll = total >= distance
    reasons = _forced_out(company, turn.events)
    in_supply, banzai = supply_verdict(by_roll=by_roll, banzai=company.banzai, forced=reasons)
    roll = _Roll(die, modifiers, total, distance, base, reasons, in_supply, banzai)
    return roll, stream


def _stands_change(company: Company, roll: _Roll, settings: Settings) -> tuple[dict[str, int], str]:
    """Stands regained in supply, or lost after long enough out of it; and in words."""
    if roll.in_supply:
        change = _refill(company, roll.die // 2)
        return change, f"regains {describe(change)}" if change else ""
    if company.turns_out_of_supply >= settings.out_of_supply_turns_before_losses:
        change = _strip(company, roll.die // 2, LOSS_ORDER)
        return change, f"loses {describe(change)}" if change else ""
    return {}, ""


def _text(company: Company, roll: _Roll, verdict: str, effect: str) -> str:
    mods = "".join(f" {m['value']:+d} ({m['reason']})" for m in roll.modifiers)
    why = " (Banzai!)" if roll.banzai else f" ({'; '.join(roll.reasons)})" if roll.reasons else ""
    return (
        f"{company.name}: supply roll {roll.die}{mods} = {roll.total} against distance "
        f"{roll.distance} to {roll.base}: {verdict}{why}" + (f"; {effect}" if effect else "")
    )


def _supply_company(turn: TurnInPlay, company: Company) -> None:
    roll, stream = _roll(turn, company)
    company.banzai = False
    company.in_supply = roll.in_supply
    company.turns_out_of_supply = 0 if roll.in_supply else company.turns_out_of_supply + 1
    change, effect = _stands_change(company, roll, turn.state.settings)
    verdict = "in supply" if roll.in_supply else "out of supply"
    record(
        turn.log,
        "supply",
        "supply",
        _text(company, roll, verdict, effect),
        side=company.side,
        company=company.name,
        dice=[roll.die],
        dice_streams=[stream],
        modifiers=roll.modifiers,
        target=roll.distance,
        outcome=verdict,
        total=roll.total,
        base=roll.base,
        forced=roll.reasons,
        banzai=roll.banzai,
        turns_out_of_supply=company.turns_out_of_supply,
        stands_gained=change if roll.in_supply else {},
        stands_lost={} if roll.in_supply else change,
    )
    if company.strength == 0:
        del turn.state.companies[company.name]
        record(
            turn.log,
            "supply",
            "company_removed",
            f"{company.name} has no stands left and is removed",
            side=company.side,
            company=company.name,
            outcome="removed",
        )


def supply_phase(turn: TurnInPlay) -> None:
    """Phase 3: every fighting company's supply roll, by side and name."""
    state = turn.state
    for side in {ship.side for ship in state.ships}:
        # Checked after the events: a ship brought back this turn no longer blocks.
        if ship_away_blocks(state, side):
            turn.events.no_supply.add(side)
    for company in sorted(state.companies.values(), key=lambda c: (c.side, c.name)):
        if company.fighting:
            _supply_company(turn, company)
