"""Fog of war: what one side may see of a campaign. The one place that decides it.

The pages and the API both show a campaign through ``visible_state`` and
``visible_log``, so a rule is enforced once. With fog of war on (the default setting):
- a side sees its own companies in full;
- it sees an enemy company only in an area its own companies occupy or are linked to,
  and then only its side, area, kind and a strength band (weak, average, strong);
- it sees nothing of enemy orders, nor the rolls about enemy companies it cannot see.
The map itself (areas, links, control), the ships and aircraft, and the naval, aerial,
initiative and control records are public. The game master (``side=None``) sees
everything, and so does everyone once the campaign has ended or with fog of war off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.campaign.state import CampaignState, Company

# Held stands as a share of establishment: below half is weak, from 85% strong.
WEAK_BELOW = 0.5
STRONG_FROM = 0.85
PUBLIC_PHASES = ("naval", "aerial", "initiative", "control", "end")


def strength_band(company: Company) -> str:
    establishment = sum(company.establishment.values()) or 1
    share = company.strength / establishment
    if share < WEAK_BELOW:
        return "weak"
    return "strong" if share >= STRONG_FROM else "average"


@dataclass(frozen=True, slots=True)
class CompanyView:
    """A company as one viewer may see it; ``full`` False leaves only the band."""

    name: str
    side: str
    kind: str
    area: str
    full: bool
    strength_band: str
    stands: dict[str, int] | None = None
    establishment: dict[str, int] | None = None
    quality: str | None = None
    in_supply: bool | None = None
    turns_out_of_supply: int | None = None
    standing_order: str | None = None

    @property
    def strength(self) -> int | None:
        return None if self.stands is None else sum(self.stands.values())


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a side, or the game master (``side`` None)."""

    side: str | None

    @property
    def game_master(self) -> bool:
        return self.side is None


def sees_everything(state: CampaignState, viewer: Viewer) -> bool:
    return viewer.game_master or state.finished or not state.settings.fog_of_war


def watched_areas(state: CampaignState, side: str) -> set[str]:
    """The areas a side's companies occupy, and those linked to them."""
    occupied = {c.area for c in state.companies.values() if c.side == side}
    watched = set(occupied)
    for a, b in state.links:
        if a in occupied:
            watched.add(b)
        if b in occupied:
            watched.add(a)
    return watched


def _full(company: Company) -> CompanyView:
    return CompanyView(
        name=company.name,
        side=company.side,
        kind=company.kind,
        area=company.area,
        full=True,
        strength_band=strength_band(company),
        stands=dict(company.stands),
        establishment=dict(company.establishment),
        quality=company.quality,
        in_supply=company.in_supply,
        turns_out_of_supply=company.turns_out_of_supply,
        standing_order=company.standing_order,
    )


def _glimpse(company: Company) -> CompanyView:
    return CompanyView(
        name=company.name,
        side=company.side,
        kind=company.kind,
        area=company.area,
        full=False,
        strength_band=strength_band(company),
    )


def visible_companies(state: CampaignState, viewer: Viewer) -> list[CompanyView]:
    """The companies the viewer may see, in a stable order (side, then name)."""
    everything = sees_everything(state, viewer)
    watched = set() if everything else watched_areas(state, viewer.side or "")
    shown = []
    for company in sorted(state.companies.values(), key=lambda c: (c.side, c.name)):
        if everything or company.side == viewer.side:
            shown.append(_full(company))
        elif company.area in watched:
            shown.append(_glimpse(company))
    return shown


def visible_company_names(state: CampaignState, viewer: Viewer) -> set[str]:
    return {view.name for view in visible_companies(state, viewer)}


def visible_log(
    records: list[dict[str, Any]], state: CampaignState, viewer: Viewer
) -> list[dict[str, Any]]:
    """A turn's records as the viewer may read them.

    Public phases stay whole. A record of a battle (it names the battle's key) shows to
    the two sides that fought it. Any other record shows only to the side it is about:
    the enemy's supply rolls, orders and moves are left out.
    """
    if sees_everything(state, viewer):
        return list(records)
    side = viewer.side
    shown = []
    for record in records:
        if record.get("phase") in PUBLIC_PHASES:
            shown.append(record)
        elif record.get("battle") is not None:
            if side in (record.get("attacker_side"), record.get("defender_side")):
                shown.append(record)
        elif record.get("side") == side:
            shown.append(record)
    return shown


def battle_visible(
    attacker_side: str, defender_side: str, state: CampaignState, viewer: Viewer
) -> bool:
    """A battle's report (both forces, the log) shows only to the two sides that fought,
    and to everyone once the campaign has ended."""
    return sees_everything(state, viewer) or viewer.side in (attacker_side, defender_side)


def visible_orders(orders: list[Any], viewer: Viewer, *, side_of: Any) -> list[Any]:
    """Orders the viewer may see: its own side's only; the GM sees all.

    ``side_of(order)`` gives an order's side. Enemy orders are never shown, not even once
    the campaign has ended (they were for turns already played and say nothing now)."""
    if viewer.game_master:
        return list(orders)
    return [order for order in orders if side_of(order) == viewer.side]
