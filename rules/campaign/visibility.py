"""Fog of war: what one side may see of a campaign. The one place that decides it.

The pages and the API both show a campaign through ``visible_companies``,
``last_seen_control`` and ``visible_log``, so a rule is enforced once. With fog of war
on (the default setting), until the campaign ends, a side knows (rulings section 6):
- its own companies, orders, rolls and battles in full;
- enemy fighting companies in areas its own companies occupy or are linked to ("in
  sight"), each as a strength band (weak, average, strong), without name, stands,
  quality, supply or orders: a glimpse (``CompanyView.glimpse``) has no name, and its
  handle (``glimpse_handles``) is its place among the reader's glimpses now, which
  tells nothing the glimpses themselves do not;
- who controls each area in sight, and its own base; for any other area only the
  controller it last saw there, marked as last seen (the scenario's map counts as seen
  at the start);
- the naval and aerial rolls and their public effects; a strafing names the strafed
  company's area and band only when it was in sight, and says nothing of an area out
  of sight, not even that it is empty;
- its own initiative roll and modifiers, and which side moves first; never the
  enemy's modifiers or total (a tie, which would tell the enemy's total, is not shown);
- a control record only for an area it saw both before and after the turn;
- whether each side has marked its orders ready (public);
- no seed of a battle not yet fought, nor of a turn not yet played.
The game master (``side=None``) sees everything, and so does everyone once the campaign
has ended or with fog of war off.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.campaign.phases.common import distances_from
from rules.campaign.seeds import INITIATIVE, split_stream
from rules.campaign.state import CampaignState, Company

# Held stands as a share of establishment: below half is weak, from 85% strong.
WEAK_BELOW = 0.5
STRONG_FROM = 0.85
BANDS = ("weak", "average", "strong")


def strength_band(company: Company) -> str:
    return band_of(company.strength, sum(company.establishment.values()))


def band_of(held: int, establishment: int) -> str:
    """The strength band of ``held`` stands against an ``establishment``."""
    share = held / (establishment or 1)
    if share < WEAK_BELOW:
        return "weak"
    return "strong" if share >= STRONG_FROM else "average"


@dataclass(frozen=True, slots=True)
class CompanyView:
    """A company as one viewer may see it. ``full`` False is a glimpse of an enemy in
    sight: no name (``""``), only its side, kind, area, band and its ``glimpse`` handle."""

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
    glimpse: str | None = None  # a glimpse's handle ("3-2"); None when seen in full

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
    return sight_of({c.area for c in state.companies.values() if c.side == side}, state.links)


def sight_of(occupied: Iterable[str], links: Iterable[tuple[str, str]]) -> set[str]:
    """The areas in sight of companies in ``occupied``: those areas and their links."""
    occupied = set(occupied)
    watched = set(occupied)
    for a, b in links:
        if a in occupied:
            watched.add(b)
        if b in occupied:
            watched.add(a)
    return watched


@dataclass(frozen=True, slots=True)
class Boundary:
    """The campaign between two turns (``turn`` turns played), as far as the fog needs
    it: each area's controller, and each company's side, area and strength band."""

    turn: int
    controllers: Mapping[str, str | None]
    companies: Mapping[str, tuple[str, str, str, str]]  # name -> side, kind, area, band
    links: Sequence[tuple[str, str]] = field(default_factory=tuple)

    def sight(self, side: str) -> set[str]:
        return sight_of((c[2] for c in self.companies.values() if c[0] == side), self.links)


def boundary_of_dump(doc: Mapping[str, Any], links: Sequence[tuple[str, str]]) -> Boundary:
    """The boundary of a campaign written out as a scenario document (a turn's
    ``start_state``): read leniently, for the fog only."""
    companies = {}
    for row in doc.get("companies") or []:
        stands = row.get("stands") or {}
        establishment = row.get("establishment") or stands
        companies[str(row.get("name"))] = (
            str(row.get("side")),
            str(row.get("kind")),
            str(row.get("area")),
            band_of(sum(stands.values()), sum(establishment.values())),
        )
    return Boundary(
        turn=int(doc.get("turn") or 0),
        controllers={str(a.get("name")): a.get("controller") for a in doc.get("areas") or []},
        companies=companies,
        links=tuple(links),
    )


def boundary_of(state: CampaignState, turn: int | None = None) -> Boundary:
    return Boundary(
        turn=state.turn if turn is None else turn,
        controllers={name: area.controller for name, area in state.areas.items()},
        companies={
            c.name: (c.side, c.kind, c.area, strength_band(c)) for c in state.companies.values()
        },
        links=tuple(state.links),
    )


@dataclass(frozen=True, slots=True)
class SeenControl:
    """Who holds an area as a side knows it: ``last_seen`` is None while it is in sight,
    else the number of turns played when it was last seen (0: the start)."""

    controller: str | None
    last_seen: int | None


def control_sight(state: CampaignState, side: str) -> set[str]:
    """The areas whose controller ``side`` knows now: those in its sight, and its base."""
    base = state.sides[side].base if side in state.sides else None
    return watched_areas(state, side) | ({base} if base else set())


def last_seen_control(
    boundaries: Sequence[Boundary], side: str, *, base: str | None = None
) -> dict[str, SeenControl]:
    """Each area's controller as ``side`` last saw it, over the boundaries in turn order
    (the last one is the campaign now). The first is the scenario's public map.

    The side's ``base`` counts as in sight, with or without a company of the side there:
    its ship, aircraft and supply are there, and the enemy cannot take it unseen (a base
    held by the enemy ends the campaign, and the fog with it)."""
    seen: dict[str, SeenControl] = {}
    for index, boundary in enumerate(boundaries):
        sight = boundary.sight(side) | ({base} if base else set())
        for name, controller in boundary.controllers.items():
            if index == 0 or name in sight:
                seen[name] = SeenControl(controller, boundary.turn)
    if boundaries:
        now = boundaries[-1].sight(side) | ({base} if base else set())
        seen = {
            name: SeenControl(known.controller, None if name in now else known.last_seen)
            for name, known in seen.items()
        }
    return seen


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


def _glimpse(company: Company, handle: str) -> CompanyView:
    # No name: section 6 gives a glimpse none ("C Company (militia)" would even tell its
    # quality), and nothing else that tells one enemy company from another.
    return CompanyView(
        name="",
        side=company.side,
        kind=company.kind,
        area=company.area,
        full=False,
        strength_band=strength_band(company),
        glimpse=handle,
    )


def glimpse_handles(state: CampaignState, viewer: Viewer) -> dict[str, str]:
    """The enemy companies the viewer glimpses, by name, each with its handle: for the
    server, which must tell a glimpse from a company out of sight; never shown.

    A handle is ``"<turns played>-<n>"``: the n-th of the reader's glimpses, ordered by
    what the reader sees of them (side, area name, kind, band from weak), so two twins
    that differ only in which company stands where give the same handles. The real name
    only breaks ties between glimpses that look the same, where either order shows the
    same. A handle says nothing a reader of the map does not see: it is not stable from
    turn to turn (the turn is part of it, and glimpses are numbered afresh), and each
    side numbers its own glimpses, so the two sides' handles tie nothing together; within
    a turn it stays while the glimpses do (a GM's change of a
    company's stands may change a band, and with it the numbering)."""
    if sees_everything(state, viewer):
        return {}
    side = viewer.side or ""
    watched = watched_areas(state, side)
    glimpsed = sorted(
        (
            c
            for c in state.companies.values()
            # Section 6 glimpses enemy fighting companies; a supply company is not seen.
            if c.side != side and c.fighting and c.area in watched
        ),
        key=lambda c: (c.side, c.area, c.kind, BANDS.index(strength_band(c)), c.name),
    )
    return {c.name: f"{state.turn}-{n}" for n, c in enumerate(glimpsed, start=1)}


def visible_companies(state: CampaignState, viewer: Viewer) -> list[CompanyView]:
    """The companies the viewer may see, in a stable order: by side, those seen in full
    by name, then the glimpses in the order of their handles (never by name)."""
    everything = sees_everything(state, viewer)
    handles = glimpse_handles(state, viewer)
    full = [
        _full(c)
        for c in sorted(state.companies.values(), key=lambda c: (c.side, c.name))
        if everything or c.side == viewer.side
    ]
    glimpses = [_glimpse(state.companies[name], handle) for name, handle in handles.items()]
    return sorted(full + glimpses, key=lambda view: view.side)  # stable: keeps each order


def visible_company_names(state: CampaignState, viewer: Viewer) -> set[str]:
    """The companies the viewer sees, in full or glimpsed, by name (for the server)."""
    return {view.name for view in visible_companies(state, viewer) if view.full} | set(
        glimpse_handles(state, viewer)
    )


def visible_log(
    records: list[dict[str, Any]],
    state: CampaignState,
    viewer: Viewer,
    *,
    before: Boundary | None = None,
    after: Boundary | None = None,
) -> list[dict[str, Any]]:
    """A turn's records as the viewer may read them.

    ``before`` is the campaign as the turn began, ``after`` as it ended (or now, while it
    is played); without them no area counts as in sight. A record of a battle (it names
    the battle's key) shows to the two sides that fought it. The naval and aerial records
    show, a strafing only as section 6 allows; the initiative only with the viewer's own
    roll and modifiers; a control record only for an area in the viewer's sight both
    before and after the turn (else it would tell what happened out of sight, even to an
    area the viewer takes back); the end of the campaign to all. Any other record shows
    only to the side it is about: the enemy's supply rolls, orders and moves are left out.
    """
    if sees_everything(state, viewer):
        return list(records)
    side = viewer.side or ""
    reader = _Reader(
        state,
        side,
        before,
        before.sight(side) if before is not None else set(),
        after.sight(side) if after is not None else set(),
    )
    shown = []
    for record in records:
        seen = _record_as_seen(record, reader)
        if seen is not None:
            shown.append(seen)
    return shown


@dataclass(frozen=True, slots=True)
class _Reader:
    """A side reading a turn's log (``visible_log``): the campaign now and as the turn
    began, and the areas in its sight before and after the turn."""

    state: CampaignState
    side: str
    before: Boundary | None
    seen_before: set[str]
    seen_after: set[str]


def _record_as_seen(record: dict[str, Any], reader: _Reader) -> dict[str, Any] | None:
    """One record as the reader may read it, or None when it may not."""
    phase = record.get("phase")
    side = reader.side
    if record.get("battle") is not None:
        fought = side in (record.get("attacker_side"), record.get("defender_side"))
        return record if fought else None
    if phase == "initiative":
        return _own_initiative(record, reader.state, side)
    if phase == "control":
        area = record.get("target")
        return record if area in reader.seen_before and area in reader.seen_after else None
    if phase in ("naval", "aerial"):
        return _public_event(record, reader)
    if phase == "end" or record.get("side") == side:
        return record
    return None


def _own_initiative(
    record: dict[str, Any], state: CampaignState, side: str
) -> dict[str, Any] | None:
    """The initiative record with only the viewer's roll and modifiers, and who moves
    first; a tie (it would give the enemy's total) is left out."""
    winner = record.get("outcome")
    die = (record.get("rolls") or {}).get(side)
    if winner not in state.sides or die is None or side not in state.sides:
        return None
    mods = [m for m in record.get("modifiers") or [] if str(m.get("reason", "")).startswith(side)]
    penalty = -sum(int(m.get("value", 0)) for m in mods)
    total = die - penalty
    hidden = ("rolls", "totals", "dice", "dice_streams", "modifiers")
    shown = {k: v for k, v in record.items() if k not in hidden}
    # The stream of the viewer's own die only (its seed is shown once the campaign ends).
    own = (INITIATIVE, side)
    streams = [name for name in record.get("dice_streams") or [] if split_stream(name) == own]
    shown.update(
        dice=[die],
        dice_streams=streams[:1],
        modifiers=mods,
        rolls={side: die},
        totals={side: total},
        text=f"initiative: {state.sides[side].name} {die} - {penalty} out of supply = "
        f"{total}: {state.sides[winner].name} move first",
    )
    return shown


def _public_event(record: dict[str, Any], reader: _Reader) -> dict[str, Any]:
    """A naval or aerial record; the strafing of an enemy company as section 6 allows:
    its area and band when it was in sight as the turn began, and so was every area of
    its track at most as near the strafing side's base (``_nearest_in_sight``); else
    nothing about it."""
    if record.get("effect") != "strafe_company" or record.get("side") == reader.side:
        return record
    target = record.get("company")
    before = reader.before
    glimpse = before.companies.get(target) if before is not None and target else None
    enemy = reader.state.sides.get(record.get("side") or "")
    enemy_name = enemy.name if enemy else "enemy"
    if glimpse is not None and _nearest_in_sight(reader, str(record.get("side")), glimpse[2]):
        outcome = (
            f"a {enemy_name} fighting company ({glimpse[3]}) in {glimpse[2]} is strafed "
            "and out of supply this turn"
        )
    else:
        outcome = "its effect is out of sight"
    text = str(record.get("text", "")).removesuffix(f" ({record.get('outcome')})")
    shown = {k: v for k, v in record.items() if k != "company"}
    shown.update(outcome=outcome, text=f"{text} ({outcome})")
    return shown


def _nearest_in_sight(reader: _Reader, side: str, area: str) -> bool:
    """Did the reader see, as the turn began, ``area`` and every other area of its track
    at most as near the enemy of ``side``'s base? The strafing hits the company of
    ``side`` on the track nearest that base (by name on a tie): naming the one in
    ``area`` tells that none stood nearer, which says something of an area out of sight
    unless every such area was in sight (section 6: "not even that it is empty")."""
    state = reader.state
    if area not in reader.seen_before or area not in state.areas or side not in state.sides:
        return False
    to_base = distances_from(state, state.sides[state.enemy_of(side)].base)
    track = state.areas[area].track
    limit = to_base.get(area, 10**6)
    return all(
        name in reader.seen_before
        for name, other in state.areas.items()
        if other.track == track and to_base.get(name, 10**6) <= limit
    )


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
