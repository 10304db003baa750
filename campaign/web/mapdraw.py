"""The campaign map and a company's stands chart, drawn as SVG on the server.

Everything drawn comes from a ``CampaignView`` (``campaign.services.visibility``), so the
browser receives only what the viewer may see: a glimpsed enemy company is drawn with
its side, kind and strength band and nothing else (not even its name, which can carry
its quality, as "C Company (militia)" does). The SVG needs no script.

``map_areas`` gathers, per area, what the map shows; ``draw_map`` draws it, and the page
lists the same ``MapArea`` rows below the map, so the picture and the list agree.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString

from campaign.services.visibility import CampaignView
from campaign.web.maplayout import (
    Box,
    Segment,
    around,
    first_clear,
    on_a_line,
    reads_as_under,
    sideways,
    spread,
)
from rules import names as naming
from rules.campaign.state import AirGroup, Area, CampaignState, Ship
from rules.campaign.visibility import CompanyView
from rules.units import UNIT_TYPES

# Side colours: the strong one draws companies and the area border, the tint fills areas.
SIDE_COLOURS = {"australian": "#2f6d3a", "japanese": "#a8322d"}
SIDE_TINTS = {"australian": "#b9d8bd", "japanese": "#eebcb7"}
NOBODY_COLOUR = "#8a8577"
NOBODY_TINT = "#e4e0d6"
# Who holds an area, also in words: a tag at the foot of its circle ("AUS"), for a
# reader who cannot tell the tints apart. Control known only from when the reader last
# saw it is dashed and asked ("AUS?"), as its hatching says in colour.
SIDE_TAGS = {"australian": "AUS", "japanese": "JPN"}
# After the holder on the tag of an area where the viewer sees both sides' fighting
# companies ("AUS, contested"): the holder is the side that last held it alone.
CONTESTED_MARK = ", contested"
NOBODY_TAG = "none"
LAST_SEEN_MARK = "?"
NOBODY_INK = "#5d6660"  # the words of a tag of nobody's (the grey border is too light)
# Tracks get a colour and a dash pattern each, in this order (the longest track first).
TRACK_COLOURS = ("#6b4a2b", "#2b5f8a", "#7a4f9a", "#b07a12", "#3f7f6f")
TRACK_DASHES = ("", "14 8", "3 7", "20 6 4 6")
QUALITIES = ("veteran", "trained", "raw")  # as the legend lists them
FEATURE_GLYPHS = {"port": "⚓", "airfield": "✈", "airstrip": "✈", "hq": "★"}
FEATURE_WORDS = {"port": "port", "airfield": "airfield", "airstrip": "airstrip", "hq": "HQ"}

AREA_RADIUS = 24
CHIP_WIDTH = 136
CHIP_HEIGHT = 36  # two lines: the name and supply, then the stands and quality
CHIP_GAP = 3
# Chips of two areas stand at least this far apart (each chip's border takes 1 of it):
# a map on a phone is drawn at some three quarters of its size, where 4 (Isura's and
# Korona's chips, their areas 140 apart) read as touching (``spread_columns``).
CHIP_SPACING = 12
CHIPS_SHOWN = 3  # per area on the map; the rest are counted in a "+N more" chip (so at
# most four chips hang under an area, clear of the names of the areas below it)
SHORT_NAME = 9  # characters of a company's name on its chip (beside its supply mark)
LONG_NAME = 12  # ... when nothing is written beside it (a supply company's)
# A name longer than that is written smaller (``chip-name small``, 13px for 14px), so
# that more of it fits: "1st Supply Coy" whole, where it read "1st Supply…".
SMALL_SHORT_NAME = 11
SMALL_LONG_NAME = 15
# A fighting company's supply as its chip marks it; the map's legend explains each.
SUPPLY_MARKS = {True: "✓", False: "✗", None: "?"}
SUPPLY_MARK_WORDS = {"✓": "in supply", "✗": "out of supply", "?": "supply not rolled yet"}
NOTE_LINE = 24  # the area's name sits this far above its circle, its features below it
NOTE_CHAR = 8  # a rough width of one character of a note, to keep notes inside the map
NAME_CHAR = 11  # ... of an area's name
TAG_HEIGHT = 18  # the holder's tag, centred on the foot of the circle
TAG_CHAR = 9  # a rough width of one of its characters (13px bold)
TAG_PAD = 6
# A tag that a track line leaving its area downwards runs through (Uberi Ridge's, Oivi's)
# slides sideways along the foot of its circle, the least that clears the line (and any
# other tag, name or circle): in steps of TAG_STEP, never so far that it leaves the
# circle's foot (TAG_HOLD of it stays under the circle), so that it reads as its area's.
# Where no slide clears it (a long "JPN, contested" at Oivi), it goes above the circle,
# under the area's name, where no features or base are marked (``tag_candidates``).
TAG_STEP = 2
TAG_HOLD = AREA_RADIUS / 2
# An area's name, written centred above its circle, that a track line runs through
# (Erida's, the track from Uberi Ridge) slides the least way across off it, NAME_STEP at
# a time, its middle never further than NAME_REACH from the circle's (still over it).
NAME_STEP = 2
NAME_REACH = AREA_RADIUS
BATTLE_CHAR = 8  # a rough width of a character of a battle mark's sides ("JPN→AUS", 12px bold)
CHIP_TOP = AREA_RADIUS + TAG_HEIGHT // 2 + 5  # the first chip's top, below the tag
# A column of chips that a track line runs through moves sideways off it, when the map
# has room: never out from under its area (it still spans the area's middle, and reads
# as its area's, not as the one beside it: ``maplayout.reads_as_under``), into another's
# chips, names or notes, or out of the map.
# Where no such move does it (a track leaving its area downwards, another area's chips
# or the area beside it too near), the column goes above its area instead, over its name
# and notes, centred on it, if no track line runs there and nothing else is drawn there.
TRACK_CLEARANCE = 6  # a track line is 6 wide: 3 either side, and 3 of air
CHIP_REACH = CHIP_WIDTH / 2 - 4
CHIP_STEP = 4
# The foot of the deepest column of chips (CHIPS_SHOWN and a "+N more"), below its area.
COLUMN_DEPTH = CHIP_TOP + (CHIPS_SHOWN + 1) * (CHIP_HEIGHT + CHIP_GAP)


@dataclass(frozen=True, slots=True)
class TrackStyle:
    track: str
    colour: str
    dash: str  # an SVG stroke-dasharray; "" draws a solid line
    css_class: str


@dataclass(frozen=True, slots=True)
class MapCompany:
    """A company as the map shows it: the view, its page's id (None for a glimpse: its
    page is reached by its handle, ``view.glimpse``) and the viewer's own side."""

    view: CompanyView
    company_id: int | None
    own: bool  # of the viewer's side (the GM: every company)

    @property
    def held(self) -> int | None:
        return self.view.strength

    @property
    def establishment(self) -> int | None:
        full = self.view.establishment
        return None if full is None else sum(full.values())

    @property
    def supply_word(self) -> str:
        return supply_word(self.view)


@dataclass(slots=True)
class MapArea:
    """One area and everything the viewer may see in it."""

    area: Area
    area_id: int
    style: TrackStyle
    controller_name: str = "nobody"  # "the Australians", "the Japanese (last seen ...)"
    # Out of the reader's sight: the turn its control was last seen (0: at the start).
    last_seen: int | None = None
    base_of: list[str] = field(default_factory=list)  # names of the sides whose base it is
    companies: list[MapCompany] = field(default_factory=list)
    ships: list[Ship] = field(default_factory=list)
    air: list[AirGroup] = field(default_factory=list)
    # Fighting companies of both sides among those the viewer sees here: worked out once
    # for every area by ``map_areas``, read by the tag, the title, the list and the legend.
    contested: bool = False

    @property
    def name(self) -> str:
        return self.area.name

    @property
    def feature_words(self) -> list[str]:
        return [FEATURE_WORDS.get(f, f) for f in self.area.features]


@dataclass(frozen=True, slots=True)
class MapLink:
    a: Area
    b: Area
    style: TrackStyle


def supply_word(company: CompanyView) -> str:
    """The company's supply state in words; "" when the viewer may not know it."""
    if not company.full:
        return ""
    if company.kind == "supply":
        return "carries supply"
    if company.in_supply is None:
        return "not rolled yet"
    if company.in_supply:
        return "in supply"
    turns = company.turns_out_of_supply or 0
    # "(1 turn running)" counted a first turn as a run: only a second one is.
    return f"out of supply ({turns} turns running)" if turns > 1 else "out of supply this turn"


def unit_label(unit: str) -> str:
    unit_type = UNIT_TYPES.get(unit)
    return unit_type.label if unit_type else unit.replace("_", " ")


def short_name(name: str, limit: int = SHORT_NAME) -> str:
    """A company's name on its chip: "A Coy", "1st Supp…" (``limit`` characters)."""
    short = re.sub(r"\s*\(.*?\)", "", name).replace("Company", "Coy").strip()
    return short if len(short) <= limit else short[: limit - 1].rstrip() + "…"


def chip_name(name: str, *, beside_a_mark: bool) -> tuple[str, bool]:
    """A company's name on its chip, and whether it is written small: whole in the
    chip's type when it fits, else whole or cut in the smaller type."""
    limit, small_limit = (
        (SHORT_NAME, SMALL_SHORT_NAME) if beside_a_mark else (LONG_NAME, SMALL_LONG_NAME)
    )
    if len(short_name(name, 10**6)) <= limit:
        return short_name(name, limit), False
    return short_name(name, small_limit), True


def track_styles(state: CampaignState) -> dict[str, TrackStyle]:
    """A style per track: the track with most areas first (ties by name)."""
    sizes = Counter(area.track for area in state.areas.values())
    ordered = sorted(sizes, key=lambda track: (-sizes[track], track))
    styles = {}
    for i, track in enumerate(ordered):
        # Colour and dash both change from one track to the next (for colour-blind eyes).
        colour, dash = TRACK_COLOURS[i % len(TRACK_COLOURS)], TRACK_DASHES[i % len(TRACK_DASHES)]
        styles[track] = TrackStyle(track, colour, dash, f"track-{i}")
    return styles


def link_track(state: CampaignState, a: str, b: str) -> str:
    """The track a link belongs to: its areas' track, or, for a link that joins two tracks,
    the smaller one (the branch leaving the main track: Uberi Ridge-Erida is on the
    southern track), ties by name."""
    first, second = state.areas[a].track, state.areas[b].track
    if first == second:
        return first
    sizes = Counter(area.track for area in state.areas.values())
    return min((first, second), key=lambda track: (sizes[track], track))


def contested_areas(companies: Iterable[CompanyView]) -> set[str]:
    """The areas where the viewer sees fighting companies of two sides: for a player,
    where its own stand with enemy companies it glimpses (rulings section 6: an enemy in
    its companies' area is in sight; an enemy supply company is never seen)."""
    sides: dict[str, set[str]] = {}
    for company in companies:
        if company.kind == "fighting":
            sides.setdefault(company.area, set()).add(company.side)
    return {area for area, present in sides.items() if len(present) > 1}


def control_words(view: CampaignView, name: str, side_names: dict[str, str]) -> str:
    """Who holds the area, in words: out of the reader's sight, who held it when last
    seen, and when ("the Japanese (last seen after turn 2)")."""
    controller = view.state.areas[name].controller
    words = f"the {side_names.get(controller, controller)}" if controller else "nobody"
    seen = view.last_seen(name)
    if seen is None:
        return words
    if view.spectating:
        # A spectator, who sees no area held until the end: "last seen" read as though
        # they had seen it (the walk of 7 December 2026). The GM never gets here: nothing
        # is out of their sight (``last_seen`` is None).
        return f"{words} (at the start)"
    return f"{words} (last seen {'at the start' if seen == 0 else f'after turn {seen}'})"


def map_areas(view: CampaignView) -> list[MapArea]:
    """Every area with the companies, ships and aircraft the viewer may see there, in the
    order of the map's zones (then names)."""
    rows = _area_rows(view)
    _place_companies(view, rows)
    _place_ships_and_air(view.state, rows)
    return list(rows.values())


def _area_rows(view: CampaignView) -> dict[str, MapArea]:
    """Each area's row, by name, in the map's order, with who holds it (as the reader
    sees it) and whose base it is."""
    state = view.state
    styles = track_styles(state)
    side_names = {side.key: side.name for side in state.sides.values()}
    rows = {
        name: MapArea(
            area=area,
            area_id=view.ids.areas[name],
            style=styles[area.track],
            controller_name=control_words(view, name, side_names),
            last_seen=view.last_seen(name),
        )
        for name, area in sorted(state.areas.items(), key=lambda kv: (kv[1].zone, kv[0]))
    }
    for side in state.sides.values():
        if side.base in rows:
            rows[side.base].base_of.append(side.name)
    return rows


def _place_companies(view: CampaignView, rows: dict[str, MapArea]) -> None:
    """The companies the view sees, each in its area's row (the reader's own side's
    first), and the areas where it sees both sides' fighting companies marked contested."""
    # The view's own order within a side (by name; glimpses by handle, never by name).
    own_first = sorted(view.companies, key=lambda c: (c.side != view.side, c.side))
    for company in own_first:
        company_id = view.company_id(company.name) if company.full else None
        if company.area not in rows or (company.full and company_id is None):
            continue
        own = view.game_master or company.side == view.side
        rows[company.area].companies.append(MapCompany(company, company_id, own))
    drawn = (company.view for row in rows.values() for company in row.companies)
    for name in contested_areas(drawn):
        rows[name].contested = True


def _place_ships_and_air(state: CampaignState, rows: dict[str, MapArea]) -> None:
    """Each ship in its port's row, each air group at its base's (both public)."""
    for ship in state.ships:
        if ship.port in rows:
            rows[ship.port].ships.append(ship)
    for group in state.air:
        if group.base in rows:
            rows[group.base].air.append(group)


def map_links(view: CampaignView) -> list[MapLink]:
    state = view.state
    styles = track_styles(state)
    return [
        MapLink(state.areas[a], state.areas[b], styles[link_track(state, a, b)])
        for a, b in state.links
        if a in state.areas and b in state.areas
    ]


def air_words(group: AirGroup) -> str:
    return naming.aircraft(group.buffalos, group.bombers)


def ship_words(ship: Ship) -> str:
    return f"{ship.name} {'in port' if ship.present else 'away'}"


def notes(row: MapArea) -> list[str]:
    """The lines written above an area: its ships, then its aircraft."""
    return [ship_words(ship) for ship in row.ships] + [f"✈ {air_words(group)}" for group in row.air]


@dataclass(frozen=True, slots=True)
class ChipText:
    """What a chip writes, line by line: its first line (a company's name) with a mark
    at its right end (a fighting company's supply), its second line (stands held of the
    full establishment, then quality). A glimpse has its kind and strength band only."""

    name: str
    mark: str
    figures: str
    small: bool = False  # the name in the smaller type, to fit whole


def chip_text(company: MapCompany) -> ChipText:
    view = company.view
    if not view.full:
        kind = "supply company" if view.kind == "supply" else "company"
        return ChipText(kind, "", f"strength: {view.strength_band}")
    figures = f"{company.held}/{company.establishment}"
    if view.kind != "fighting":
        name, small = chip_name(view.name, beside_a_mark=False)
        return ChipText(name, "", f"{figures} stands", small)
    quality = view.quality or "quality unknown"
    mark = SUPPLY_MARKS[view.in_supply]
    name, small = chip_name(view.name, beside_a_mark=True)
    return ChipText(name, mark, f"{figures}, {quality}", small)


def chip_title(company: MapCompany) -> str:
    view = company.view
    if not view.full:
        side = view.side.capitalize()
        return f"{side} {view.kind} company, {view.strength_band}"
    parts = [f"{view.name}: {company.held}/{company.establishment} stands"]
    if view.quality:
        parts.append(view.quality)
    parts.append(supply_word(view))
    return ", ".join(parts)


# --- drawing ---------------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def focus_across(view: CampaignView, areas: list[MapArea]) -> str:
    """Where the reader's own troops stand across the map, as a share of its width
    ("0.62"), for the map's frame to open there on a narrow screen (``map.js``,
    ``timelapse.js``): the middle of the areas its fighting companies hold (none: of
    any of its companies; none at all: its base). "" for the GM, or a side with none of
    these on the map. The reader's own companies and base are no secret to it."""
    side = view.state.sides.get(view.side or "")
    if side is None:
        return ""
    own = [c for c in view.companies if c.side == side.key and c.full]
    held = {c.area for c in own if c.kind == "fighting"} or {c.area for c in own} or {side.base}
    xs = [row.area.x for row in areas if row.name in held]
    if not xs:
        return ""
    x, _, width, _ = _bounds(areas)
    return f"{min(max((sum(xs) / len(xs) - x) / width, 0.0), 1.0):.3f}"


def _bounds(areas: list[MapArea]) -> tuple[float, float, float, float]:
    """The viewBox (x, y, width, height) around the areas and what is drawn at them."""
    if not areas:
        return 0.0, 0.0, 1000.0, 600.0

    def half_width(row: MapArea) -> float:
        widest = max([len(note) * NOTE_CHAR for note in notes(row)] + [len(row.name) * NAME_CHAR])
        return max(CHIP_WIDTH, widest) / 2 + 12

    left = min(row.area.x - half_width(row) for row in areas)
    right = max(row.area.x + half_width(row) for row in areas)
    top = (
        min(row.area.y - AREA_RADIUS - NOTE_LINE - 20 - 20 * len(notes(row)) for row in areas) - 12
    )
    bottom = max(
        row.area.y
        + max(
            AREA_RADIUS + TAG_HEIGHT / 2,
            CHIP_TOP + min(len(row.companies), CHIPS_SHOWN + 1) * (CHIP_HEIGHT + CHIP_GAP),
        )
        for row in areas
    )
    return left, top, right - left, bottom + 12 - top


MAP_TEMPLATE = "campaign/svg/map.svg"
MAP_TITLE = "map-title"  # the id of a page's one map's title (``draw_map``)


def id_suffix(title_id: str) -> str:
    """What the ids a map defines (its hatching, its arrows' heads) end with, from its
    title's: "" for a page's one map, "-3" for "map-title-3". A page with several maps
    (the time-lapse) shows one at a time, the others hidden; a browser reads the first
    definition of an id, and one in a hidden map paints nothing, so no two maps on a
    page may share one."""
    return "" if title_id == MAP_TITLE else "-" + title_id.removeprefix(MAP_TITLE + "-")


@dataclass(frozen=True, slots=True)
class ChipDrawing:
    """A company's chip as ``map.svg#chip`` draws it: ``href`` None is not a link (the
    legend's); a glimpse is hatched (``fill``) and dashed. Numbers written."""

    href: str | None
    css: str
    side: str
    title: str
    fill: str
    colour: str
    glimpse: bool
    x: str
    y: str
    text_x: str
    mark_x: str
    name_y: str
    figures_y: str
    name: str
    mark: str
    figures: str
    name_css: str = "chip-name"  # "chip-name small": in the smaller type
    width: int = CHIP_WIDTH
    height: int = CHIP_HEIGHT


@dataclass(frozen=True, slots=True)
class MoreChip:
    """The "+N more" chip under an area with more companies than are drawn."""

    count: int
    x: str
    y: str
    text_x: str
    text_y: str
    width: int = CHIP_WIDTH
    height: int = CHIP_HEIGHT


@dataclass(frozen=True, slots=True)
class ShipNote:
    css: str
    y: str
    name: str
    present: str  # "true" or "false"
    words: str


@dataclass(frozen=True, slots=True)
class AirNote:
    y: str
    side: str
    words: str


@dataclass(frozen=True, slots=True)
class HolderTag:
    """Who holds an area, in words, on a tag at the foot of its circle: "AUS", "JPN",
    "none"; "AUS?" (dashed) for control as the reader last saw it. The same facts as
    the area's tint and its title, nothing more."""

    words: str
    colour: str  # of its border and its words
    dashed: bool
    x: str
    y: str
    width: int
    text_y: str
    text_x: str
    height: int = TAG_HEIGHT


@dataclass(frozen=True, slots=True)
class AreaDrawing:
    """An area as ``map.svg#map`` draws it: its circle, zone, name and features (a link to
    its page), the notes above it (ships, then aircraft), its chips below it."""

    href: str
    title: str
    css: str
    x: str
    y: str
    radius: int
    tint: str
    name: str
    controller: str
    tag: HolderTag
    zone: int
    zone_y: str
    name_x: str
    name_y: str
    mark: str
    mark_y: str
    ships: list[ShipNote]
    air: list[AirNote]
    chips: list[ChipDrawing]
    more: MoreChip | None


@dataclass(frozen=True, slots=True)
class LinkDrawing:
    css: str
    x1: str
    y1: str
    x2: str
    y2: str
    a: str
    b: str


def chip_drawing(
    company: MapCompany, x: float, y: float, url: str | None, *, pattern: str = "glimpse"
) -> ChipDrawing:
    """A company's chip centred on ``x`` from ``y`` down, a link to ``url`` (None: not a
    link, as in the legend); a glimpse is hatched with the ``pattern`` of its side.

    Each part is its own text in its own place (the name and the supply mark at either
    end of the first line, the figures on the second), so none runs into another; the
    chip's title says all of it in words."""
    view = company.view
    text = chip_text(company)
    glimpse = not view.full
    colour = SIDE_COLOURS.get(view.side, NOBODY_COLOUR)
    x0 = x - CHIP_WIDTH / 2
    return ChipDrawing(
        href=url,
        css="chip glimpse" if glimpse else "chip",
        side=view.side,
        title=chip_title(company),
        fill=f"url(#{pattern}-{view.side})" if glimpse else colour,
        colour=colour,
        glimpse=glimpse,
        x=_num(x0),
        y=_num(y),
        text_x=_num(x0 + 7),
        mark_x=_num(x0 + CHIP_WIDTH - 7),
        name_y=_num(y + 15),
        figures_y=_num(y + 31),
        name=text.name,
        mark=text.mark,
        figures=text.figures,
        name_css="chip-name small" if text.small else "chip-name",
    )


def hatches() -> list[tuple[str, str]]:
    """The sides whose glimpses are hatched, with their colours (``map.svg#hatches``)."""
    return list(SIDE_COLOURS.items())


SAMPLE_STANDS = ({"rifle_squad": 10}, {"rifle_squad": 12})  # the legend's made-up figures
# The legend's made-up name, as each side names its companies (the Japanese by number):
# none of the reference scenario's, so the sample's made-up figures are never read as a
# real company's (a walk-through read "A Coy 10/12" beside the real A Coy's 12/12).
SAMPLE_NAMES = {"japanese": "9th Company"}
SAMPLE_NAME = "X Company"


def sample_chip(side: str, *, glimpse: bool) -> SafeString:
    """A chip for the map's legend in ``side``'s colours, with made-up figures (no
    company's): a company of the reader's own side, or an enemy in sight."""
    held, full = SAMPLE_STANDS
    sample = CompanyView(
        name=SAMPLE_NAMES.get(side, SAMPLE_NAME),
        side=side,
        kind="fighting",
        area="",
        full=not glimpse,
        strength_band="strong",
        stands=None if glimpse else held,
        establishment=None if glimpse else full,
        quality=None if glimpse else "trained",
        in_supply=None if glimpse else True,
    )
    chip = chip_drawing(
        MapCompany(sample, 0, not glimpse), CHIP_WIDTH / 2 + 1, 1, None, pattern="sample"
    )
    context = {
        "chip": chip,
        "width": CHIP_WIDTH + 2,
        "height": CHIP_HEIGHT + 2,
        "pattern": "sample",
        "hatches": hatches(),
    }
    return render_to_string(f"{MAP_TEMPLATE}#sample", context)


def company_page(campaign_id: int, company: MapCompany) -> str:
    """A company's page: by its id, or a glimpse's by its handle."""
    if company.view.glimpse is not None:
        return reverse("glimpse", args=[campaign_id, company.view.glimpse])
    return reverse("company", args=[campaign_id, company.company_id])


def link_drawing(link: MapLink) -> LinkDrawing:
    a, b = link.a, link.b
    return LinkDrawing(
        link.style.css_class, _num(a.x), _num(a.y), _num(b.x), _num(b.y), a.name, b.name
    )


def _area_fill(row: MapArea, pattern: str = "glimpse") -> str:
    """An area's fill: its controller's tint; hatched in the controller's colour (its map's
    ``pattern``) when that is only who held it when the reader last saw it (it may have
    changed hands since)."""
    controller = row.area.controller or ""
    if row.last_seen is not None and controller in SIDE_COLOURS:
        return f"url(#{pattern}-{controller})"
    return SIDE_TINTS.get(controller, NOBODY_TINT)


def side_tag(side: str) -> str:
    """A side's name on an area's tag: "AUS", "JPN"."""
    return SIDE_TAGS.get(side) or side[:3].upper()


def tag_words(row: MapArea) -> str:
    controller = row.area.controller or ""
    words = side_tag(controller) if controller else NOBODY_TAG
    words += LAST_SEEN_MARK if row.last_seen is not None else ""
    return words + (CONTESTED_MARK if row.contested else "")


def tag_width(words: str) -> int:
    return 2 * TAG_PAD + TAG_CHAR * len(words)


@dataclass(frozen=True, slots=True)
class TagPlace:
    """Where an area's holder tag goes: ``slide`` across from its circle's middle, on
    the foot of the circle, or ``above`` it, between the circle and its name."""

    slide: float = 0.0
    above: bool = False


FOOT = TagPlace()


def holder_tag(row: MapArea, place: TagPlace = FOOT) -> HolderTag:
    """The tag of who holds the area, from what its tint is drawn from (``_area_fill``):
    the controller as the reader sees it, and whether that is as last seen; where
    ``tag_places`` put it."""
    area = row.area
    words = tag_words(row)
    box = tag_box(row, place)
    return HolderTag(
        words=words,
        colour=SIDE_COLOURS.get(area.controller or "", NOBODY_INK),
        dashed=row.last_seen is not None,
        x=_num(box.left),
        y=_num(box.top),
        width=tag_width(words),
        text_y=_num(box.top + 13),
        text_x=_num(area.x + place.slide),
    )


def tag_box(row: MapArea, place: TagPlace = FOOT) -> Box:
    """Where an area's holder tag is drawn (``place``): centred on the foot of its
    circle, or above it, right under its name."""
    half, middle = tag_width(tag_words(row)) / 2, row.area.x + place.slide
    if place.above:
        top = row.area.y - AREA_RADIUS - TAG_HEIGHT - 1
    else:
        top = row.area.y + AREA_RADIUS - TAG_HEIGHT / 2
    return Box(middle - half, top, middle + half, top + TAG_HEIGHT)


def circle_box(area: Area) -> Box:
    return Box(
        area.x - AREA_RADIUS, area.y - AREA_RADIUS, area.x + AREA_RADIUS, area.y + AREA_RADIUS
    )


def name_box(row: MapArea, slide: float = 0.0) -> Box:
    """Roughly where an area's name is written, above its circle, ``slide`` across from
    its middle (``name_places``)."""
    name_y = row.area.y - AREA_RADIUS - NOTE_LINE
    half, middle = len(row.name) * NAME_CHAR / 2, row.area.x + slide
    return Box(middle - half, name_y - 16, middle + half, name_y + 5)


def note_boxes(row: MapArea) -> list[Box]:
    """Roughly where the notes above an area are written (``note_drawings``)."""
    area, boxes = row.area, []
    line = area.y - AREA_RADIUS - NOTE_LINE - 24
    for note in notes(row):
        width = len(note) * NOTE_CHAR / 2
        boxes.append(Box(area.x - width, line - 14, area.x + width, line + 4))
        line -= 20
    return boxes


def name_places(
    areas: list[MapArea], segments: list[Segment], columns: dict[str, list[Box]]
) -> dict[str, float]:
    """How far across each area's name goes, for the names that do not stay centred
    over their circle: the least slide (``NAME_STEP`` at a time, rightwards first at a
    tie, its middle still over the circle) that puts it off every track line
    (``TRACK_CLEARANCE``) and every other area's circle, marks, notes, tag (at the foot)
    and chips (``columns``, unmoved) and every other name (as placed before it, in the
    areas' order). A name no slide clears stays centred. From the map and what the
    reader sees on it, as the tags are placed (``tag_places``)."""
    reach = NAME_STEP * int(NAME_REACH // NAME_STEP)
    slides = [0.0] + [
        NAME_STEP * n * way for n in range(1, int(reach // NAME_STEP) + 1) for way in (1, -1)
    ]
    placed = {row.name: name_box(row) for row in areas}
    fixed = {
        row.name: [circle_box(row.area), tag_box(row), *note_boxes(row)]
        + ([marks_box(row.area)] if marked(row) else [])
        + columns.get(row.name, [])
        for row in areas
    }
    places: dict[str, float] = {}
    for row in areas:
        others = [
            box
            for other in areas
            if other.name != row.name
            for box in (*fixed[other.name], placed[other.name])
        ]
        tried = ((slide, name_box(row, slide)) for slide in slides)
        region = around([name_box(row, -reach), name_box(row, reach)])
        slide = first_clear(tried, region, segments, others, clearance=TRACK_CLEARANCE)
        if slide:
            places[row.name] = slide
            placed[row.name] = name_box(row, slide)
    return places


def marks_box(area: Area) -> Box:
    """Where an area's features and base are marked, between its name and its circle."""
    return Box(area.x - 30, area.y - AREA_RADIUS - 20, area.x + 30, area.y - AREA_RADIUS)


def marked(row: MapArea) -> bool:
    """Has the area features or a base marked between its name and its circle?"""
    return bool(row.area.features or row.base_of)


def tag_slide(row: MapArea) -> float:
    """The farthest a tag slides either way (``tag_candidates``)."""
    return TAG_STEP * int((tag_width(tag_words(row)) / 2 + TAG_HOLD) // TAG_STEP)


def tag_region(row: MapArea) -> Box:
    """The box around every place ``row``'s tag may go (``tag_candidates``)."""
    ends = [TagPlace(-tag_slide(row)), TagPlace(tag_slide(row))]
    if not marked(row):
        ends += [TagPlace(end.slide, above=True) for end in ends]
    return around(tag_box(row, end) for end in ends)


def tag_candidates(row: MapArea) -> Iterator[TagPlace]:
    """Where ``row``'s tag may go, the first choice first: slid across the foot of its
    circle, the least first, rightwards first at a tie, never so far that it leaves the
    circle (``TAG_STEP``, ``TAG_HOLD``); then the same above the circle, under its name,
    where no features or base are marked there."""
    reach = tag_width(tag_words(row)) / 2 + TAG_HOLD
    slides = [0.0] + [
        TAG_STEP * n * way for n in range(1, int(reach // TAG_STEP) + 1) for way in (1, -1)
    ]
    yield from (TagPlace(slide) for slide in slides)
    if not marked(row):
        yield from (TagPlace(slide, above=True) for slide in slides)


def tag_places(
    areas: list[MapArea],
    segments: list[Segment],
    columns: dict[str, list[Box]],
    names: dict[str, float] | None = None,
) -> dict[str, TagPlace]:
    """Where each area's tag goes (``tag_candidates``), for the areas whose tag does not
    stay centred on the foot of its circle: the first place off every track line
    (``TRACK_CLEARANCE``), every other area's circle, name, marks and chips
    (``columns``, as they hang unmoved) and every other tag (as placed before it, in the
    areas' order). A tag that no place clears stays at the foot. What places a tag is
    the map and what the reader sees on it (the tags' words, the chips)."""
    names = names or {}
    placed = {row.name: tag_box(row) for row in areas}
    fixed = {
        row.name: [circle_box(row.area), name_box(row, names.get(row.name, 0.0))]
        + ([marks_box(row.area)] if marked(row) else [])
        + columns.get(row.name, [])
        for row in areas
    }
    places: dict[str, TagPlace] = {}
    for row in areas:
        others = (
            [name_box(row, names.get(row.name, 0.0))]
            + ([marks_box(row.area)] if marked(row) else [])
            + [
                box
                for other in areas
                if other.name != row.name
                for box in (*fixed[other.name], placed[other.name])
            ]
        )
        tried = ((place, tag_box(row, place)) for place in tag_candidates(row))
        place = (
            first_clear(tried, tag_region(row), segments, others, clearance=TRACK_CLEARANCE) or FOOT
        )
        if place != FOOT:
            places[row.name] = place
            placed[row.name] = tag_box(row, place)
    return places


def labelled_boxes(
    areas: list[MapArea], places: dict[str, TagPlace], names: dict[str, float] | None = None
) -> list[Box]:
    """What a label drawn over the map keeps clear of (a battle's sides, ``pastmaps``):
    every area's circle, name, marks and tag, as placed (``tag_places``)."""
    return [
        box
        for row in areas
        for box in (
            circle_box(row.area),
            name_box(row, (names or {}).get(row.name, 0.0)),
            tag_box(row, places.get(row.name, FOOT)),
        )
    ] + [marks_box(row.area) for row in areas if marked(row)]


def area_boxes(row: MapArea, *, tag: TagPlace = FOOT, name: float = 0.0) -> list[Box]:
    """Roughly where an area's own drawing is: its circle and tag (where ``tag_places``
    put it), its features, its name, the notes above it (``area_drawing``)."""
    area = row.area
    if tag != FOOT:
        foot = Box(
            area.x - AREA_RADIUS, area.y - AREA_RADIUS, area.x + AREA_RADIUS, area.y + CHIP_TOP - 5
        )
        boxes = [foot, tag_box(row, tag)]
    else:
        half = max(AREA_RADIUS, tag_width(tag_words(row)) / 2)
        boxes = [Box(area.x - half, area.y - AREA_RADIUS, area.x + half, area.y + CHIP_TOP - 5)]
    boxes.append(name_box(row, name))
    boxes.append(marks_box(area))
    return boxes + note_boxes(row)


def chip_boxes(row: MapArea, *, raised: bool = False) -> list[Box]:
    """Where an area's chips are drawn, unmoved: one under another below its circle, or
    (``raised``) above its name and notes (``raised_by``)."""
    left, top = row.area.x - CHIP_WIDTH / 2, row.area.y + CHIP_TOP
    if raised:
        top += raised_by(row)
    return [
        Box(left, y, left + CHIP_WIDTH, y + CHIP_HEIGHT)
        for i in range(min(len(row.companies), CHIPS_SHOWN + 1))
        for y in [top + i * (CHIP_HEIGHT + CHIP_GAP)]
    ]


def raised_by(row: MapArea) -> float:
    """How far up a column of ``row``'s chips goes from below its area to above it: its
    foot a chip's gap above the topmost of the area's name and notes (``area_boxes``)."""
    count = min(len(row.companies), CHIPS_SHOWN + 1)
    lines = len(notes(row))
    above = AREA_RADIUS + NOTE_LINE + (24 + 20 * (lines - 1) + 14 if lines else 16)
    depth = count * (CHIP_HEIGHT + CHIP_GAP) - CHIP_GAP
    return -(CHIP_TOP + above + 2 * CHIP_GAP + depth)


def beside(areas: list[MapArea], row: MapArea, column: list[Box]) -> list[float]:
    """Where across the map the other areas are that a chip level with ``column`` could
    hang under (their centre above its foot, their deepest column reaching its top): the
    areas a reader could take its chips for."""
    top, foot = min(box.top for box in column), max(box.bottom for box in column)
    return [
        other.area.x
        for other in areas
        if other.name != row.name and top - COLUMN_DEPTH < other.area.y < foot
    ]


def chip_shifts(
    areas: list[MapArea],
    links: list[MapLink],
    *,
    within: tuple[float, float] | None = None,
    tags: dict[str, TagPlace] | None = None,
    names: dict[str, float] | None = None,
) -> dict[str, tuple[float, float]]:
    """How far each area's column of chips moves (across, down) off the track lines that
    run through it: sideways (``maplayout.sideways``) only where the map has room and
    the column still reads as its area's (not as an area's beside it); else up, above
    the area (``raised_by``), where no line runs, nothing else is drawn and it reads as
    no area's above it. In the order of the areas, each column clear of the others as
    they stand by then; ``within``, the map's left and right (else the areas'
    ``_bounds``); ``tags``, where each area's tag went (``tag_places``). Then columns
    of areas side by side that stand too near each other move apart
    (``spread_columns``). What a column shows is the same wherever it hangs."""
    segments = track_segments(links)
    tags = tags or {}
    names = names or {}
    drawn = [
        box
        for row in areas
        for box in area_boxes(row, tag=tags.get(row.name, FOOT), name=names.get(row.name, 0.0))
    ]
    columns = {row.name: chip_boxes(row) for row in areas}
    if within is None:
        x, _, width, _ = _bounds(areas)
        within = (x, x + width)
    shifts: dict[str, tuple[float, float]] = {}
    for row in areas:
        column = columns[row.name]
        if not on_a_line(column, segments, clearance=TRACK_CLEARANCE):
            continue  # no chips, or off every line already: nothing to move it clear of
        others = drawn + [b for name, boxes in columns.items() if name != row.name for b in boxes]
        dx = sideways(
            column,
            segments,
            others,
            clearance=TRACK_CLEARANCE,
            gap=CHIP_GAP,
            reach=CHIP_REACH,
            step=CHIP_STEP,
            within=within,
            under=row.area.x,
            beside=beside(areas, row, column),
        )
        if dx:
            shifts[row.name] = (dx, 0.0)
            columns[row.name] = [box.moved(dx) for box in columns[row.name]]
            continue
        raised = chip_boxes(row, raised=True)
        across = raised_across(areas, row, raised, segments, others, within)
        if across is not None:
            shifts[row.name] = (across, raised_by(row))
            columns[row.name] = [box.moved(across) for box in raised]
    spread_columns(areas, columns, shifts, segments, drawn, within)
    return shifts


def too_near(column: list[Box], other: list[Box]) -> bool:
    """Are two areas' columns of chips nearer than ``CHIP_SPACING`` anywhere?"""
    return any(box.grown(CHIP_SPACING).overlaps(o) for box in column for o in other)


def level(column: list[Box], other: list[Box]) -> bool:
    """Do two columns share some height on the map (side by side, not one above the
    other)?"""
    whole, beside_it = around(column), around(other)
    return whole.top < beside_it.bottom and beside_it.top < whole.bottom


def side_by_side(areas: list[MapArea], columns: dict[str, list[Box]]) -> list[list[MapArea]]:
    """The rows of areas whose columns stand too near one another side by side (a chain
    of pairs ``too_near`` and ``level``), each left to right, in the areas' order."""
    rows: list[list[MapArea]] = []
    for row in areas:
        if not columns[row.name]:
            continue
        joined = [
            other
            for other in rows
            if any(
                level(columns[row.name], columns[o.name])
                and too_near(columns[row.name], columns[o.name])
                for o in other
            )
        ]
        merged = [row] + [o for other in joined for o in other]
        rows = [other for other in rows if other not in joined] + [merged]
    return [
        sorted(found, key=lambda r: (around(columns[r.name]).left, areas.index(r)))
        for found in rows
        if len(found) > 1
    ]


def spread_columns(
    areas: list[MapArea],
    columns: dict[str, list[Box]],
    shifts: dict[str, tuple[float, float]],
    segments: list[Segment],
    drawn: list[Box],
    within: tuple[float, float],
) -> None:
    """Columns of chips of areas side by side that stand nearer than ``CHIP_SPACING``
    (Isura's and Korona's, 140 apart, stood 4 apart: a reader could not tell whose was
    whose) move apart the least that parts them (``maplayout.spread``), each row of
    them at once, where every column of the row still reads as its area's, stays off
    every track line it was off, clear of what else is drawn and inside ``within``.
    Else the row stays as it stood. ``columns`` and ``shifts`` are moved in place."""
    for row in side_by_side(areas, columns):
        middles = [(around(columns[r.name]).left + CHIP_WIDTH / 2) for r in row]
        # A unit spare: the moves are rounded to whole units.
        apart = spread(middles, CHIP_WIDTH + CHIP_SPACING + 1)
        moves = {
            r.name: float(round(new - old)) for r, old, new in zip(row, middles, apart, strict=True)
        }
        moved = {name: [box.moved(dx) for box in columns[name]] for name, dx in moves.items()}
        rest = [box for name, boxes in columns.items() if name not in moved for box in boxes]
        if all(
            still_fits(areas, r, columns[r.name], moved[r.name], segments, drawn, rest, within)
            for r in row
        ):
            for r in row:
                across, down = shifts.get(r.name, (0.0, 0.0))
                if moves[r.name]:
                    shifts[r.name] = (across + moves[r.name], down)
                columns[r.name] = moved[r.name]


def still_fits(
    areas: list[MapArea],
    row: MapArea,
    column: list[Box],
    moved: list[Box],
    segments: list[Segment],
    drawn: list[Box],
    rest: list[Box],
    within: tuple[float, float],
) -> bool:
    """Does ``row``'s column, ``moved`` across from where it stood (``column``), still
    read as its area's, inside ``within``, on no track line it was off, clear of what
    else is drawn (``drawn``) and of other areas' chips (``rest``)?"""
    whole = around(moved)
    return (
        within[0] <= whole.left
        and whole.right <= within[1]
        and (
            on_a_line(column, segments, clearance=TRACK_CLEARANCE)
            or not on_a_line(moved, segments, clearance=TRACK_CLEARANCE)
        )
        and all(reads_as_under(box, row.area.x, beside(areas, row, moved)) for box in moved)
        and not any(box.grown(CHIP_GAP).overlaps(other) for box in moved for other in drawn)
        and not too_near(moved, rest)
    )


def raised_across(
    areas: list[MapArea],
    row: MapArea,
    raised: list[Box],
    segments: list[Segment],
    others: list[Box],
    within: tuple[float, float],
) -> float | None:
    """How far across ``row``'s column goes when raised above its area: 0, centred on
    it, if it fits there (``fits_above``); else the least move sideways that fits
    (``CHIP_STEP`` at a time, up to ``CHIP_REACH``, rightwards first, inside
    ``within``: at Uberi Ridge the notes of Port Murray's ship reach under its left
    edge); None if none does."""
    moves = [0.0] + [
        CHIP_STEP * n * way for n in range(1, int(CHIP_REACH // CHIP_STEP) + 1) for way in (1, -1)
    ]
    for dx in moves:
        moved = [box.moved(dx) for box in raised]
        if min(b.left for b in moved) < within[0] or max(b.right for b in moved) > within[1]:
            continue
        if fits_above(areas, row, moved, segments, others):
            return dx
    return None


def track_segments(links: list[MapLink]) -> list[Segment]:
    return [Segment(link.a.x, link.a.y, link.b.x, link.b.y) for link in links]


def fits_above(
    areas: list[MapArea],
    row: MapArea,
    raised: list[Box],
    segments: list[Segment],
    others: list[Box],
) -> bool:
    """Can ``row``'s column go ``raised`` above its area (``chip_shifts``): on no track
    line, reading as no area's above it, clear of what else is drawn (``others``)?"""
    return (
        not on_a_line(raised, segments, clearance=TRACK_CLEARANCE)
        and all(reads_as_under(box, row.area.x, beside(areas, row, raised)) for box in raised)
        and not any(b.grown(CHIP_GAP).overlaps(other) for b in raised for other in others)
    )


def raised_top(areas: list[MapArea], shifts: dict[str, tuple[float, float]]) -> float | None:
    """The top of the highest column raised above its area (``chip_shifts``), if any: the
    map may have to grow upwards to hold it."""
    tops = [
        min(box.top for box in chip_boxes(row, raised=True))
        for row in areas
        if shifts.get(row.name, (0.0, 0.0))[1]
    ]
    return min(tops) if tops else None


def note_drawings(row: MapArea) -> tuple[list[ShipNote], list[AirNote]]:
    """The notes above an area, a line each, upwards from above its name: its ships,
    then its aircraft (``notes``)."""
    line = row.area.y - AREA_RADIUS - NOTE_LINE - 24
    ships = []
    for ship in row.ships:
        css = "note" if ship.present else "note away"
        ships.append(
            ShipNote(css, _num(line), ship.name, str(ship.present).lower(), ship_words(ship))
        )
        line -= 20
    air = []
    for group in row.air:
        air.append(AirNote(_num(line), group.side, air_words(group)))
        line -= 20
    return ships, air


def area_drawing(
    row: MapArea,
    url: str,
    company_url: Callable[[MapCompany], str],
    *,
    shift: tuple[float, float] = (0.0, 0.0),
    tag: TagPlace = FOOT,
    name_slide: float = 0.0,
    pattern: str = "glimpse",
) -> AreaDrawing:
    """An area, its notes and its chips (the first ``CHIPS_SHOWN``, and "+N more" for
    more than one more), ``shift`` (across, down) of where they hang below it, its tag
    where ``tag_places`` put it."""
    area = row.area
    features = " ".join(dict.fromkeys(FEATURE_GLYPHS.get(f, "") for f in area.features)).strip()
    ships, air = note_drawings(row)
    top, middle, shown, more = area.y + CHIP_TOP + shift[1], area.x + shift[0], row.companies, None
    if len(shown) > CHIPS_SHOWN + 1:
        shown = shown[:CHIPS_SHOWN]
        y = top + len(shown) * (CHIP_HEIGHT + CHIP_GAP)
        more = MoreChip(
            len(row.companies) - CHIPS_SHOWN,
            _num(middle - CHIP_WIDTH / 2),
            _num(y),
            _num(middle),
            _num(y + 23),
        )
    chips = [
        chip_drawing(
            company,
            middle,
            top + i * (CHIP_HEIGHT + CHIP_GAP),
            company_url(company),
            pattern=pattern,
        )
        for i, company in enumerate(shown)
    ]
    return AreaDrawing(
        href=url,
        title=f"{area.name}: zone {area.zone}, {area.track}, held by {row.controller_name}"
        + (", contested by both sides' companies" if row.contested else ""),
        css=row.style.css_class,
        x=_num(area.x),
        y=_num(area.y),
        radius=AREA_RADIUS,
        tint=_area_fill(row, pattern),
        name=area.name,
        controller=area.controller or "",
        tag=holder_tag(row, tag),
        zone=area.zone,
        zone_y=_num(area.y + 6),
        name_x=_num(area.x + name_slide),
        name_y=_num(area.y - AREA_RADIUS - NOTE_LINE),
        mark=(features + (" ⌂" if row.base_of else "")).strip(),
        mark_y=_num(area.y - AREA_RADIUS - 5),
        ships=ships,
        air=air,
        chips=chips,
        more=more,
    )


MapBox = tuple[float, float, float, float]  # a viewBox: x, y, width, height


@dataclass(frozen=True, slots=True)
class MapLayout:
    """Where things go on a map (``lay_out``): its own viewBox, how far each area's tag
    goes (``tag_places``) and how far its chips move
    (``chip_shifts``)."""

    box: MapBox
    tags: dict[str, TagPlace]
    shifts: dict[str, tuple[float, float]]
    names: dict[str, float] = field(default_factory=dict)  # how far across (``name_places``)


def lay_out(areas: list[MapArea], links: list[MapLink]) -> MapLayout:
    """The tags placed first (the chips make way for them), then the chips, in the box
    around the areas (``_bounds``), grown to hold chips raised above it and tags slid
    out of it."""
    x, y, width, height = _bounds(areas)
    segments = track_segments(links)
    columns = {row.name: chip_boxes(row) for row in areas}
    names = name_places(areas, segments, columns)
    tags = tag_places(areas, segments, columns, names)
    shifts = chip_shifts(areas, links, within=(x, x + width), tags=tags, names=names)
    raised = raised_top(areas, shifts)
    if raised is not None and raised - 12 < y:  # reaching above what the map showed
        y, height = raised - 12, height + y - (raised - 12)
    moved = [tag_box(row, tags[row.name]) for row in areas if row.name in tags]
    moved += [name_box(row, names[row.name]) for row in areas if row.name in names]
    left = min([x] + [tag.left - 12 for tag in moved])
    right = max([x + width] + [tag.right + 12 for tag in moved])
    return MapLayout((left, y, right - left, height), tags, shifts, names)


def map_box(view: CampaignView, areas: list[MapArea]) -> MapBox:
    """The viewBox ``draw_map`` draws ``view``'s map of ``areas`` in, from what the
    view's reader sees on it."""
    return lay_out(areas, map_links(view)).box


def common_box(boxes: Iterable[MapBox]) -> MapBox:
    """The least viewBox that holds each of ``boxes``: several maps drawn in it are
    drawn alike (the same scale, every area in the same place, the same height)."""
    boxes = list(boxes)
    left = min(x for x, _, _, _ in boxes)
    top = min(y for _, y, _, _ in boxes)
    right = max(x + width for x, _, width, _ in boxes)
    bottom = max(y + height for _, y, _, height in boxes)
    return left, top, right - left, bottom - top


def draw_map(
    view: CampaignView,
    areas: list[MapArea] | None = None,
    *,
    company_url: Callable[[MapCompany], str] | None = None,
    title: str | None = None,
    overlay: SafeString | str = "",
    title_id: str = MAP_TITLE,
    box: MapBox | None = None,
    layout: MapLayout | None = None,
) -> SafeString:
    """The map as an inline SVG element (``templates/campaign/svg/map.svg``): links in
    their track's style, areas filled by their controller, tagged with its name in words
    and ringed in their track's style, each area's companies as chips below it (moved
    sideways off a track line where there is room: ``chip_shifts``), ships and aircraft
    above it. Areas and companies link to their pages.

    A past turn's map (``campaign.web.pastmaps``) gives its own ``title``, its links for
    companies (one gone since has no page) and an ``overlay`` drawn over the areas,
    under the chips (its moves and battles: a rendered template, escaped there; plain
    text would be escaped here). A page with several maps (the time-lapse) gives each its
    own ``title_id``: the id its title has, which names the map to a screen reader,
    its ``layout`` when its overlay was placed by it (``lay_out`` of the same areas), and
    all of them one ``box``, the viewBox (x, y, width, height) that holds every one of
    their own (``map_box``, ``common_box``): the maps then step in place."""
    campaign_id = view.campaign.pk
    areas = map_areas(view) if areas is None else areas
    links = map_links(view)
    layout = lay_out(areas, links) if layout is None else layout
    x, y, width, height = layout.box if box is None else box

    if company_url is None:

        def company_url(company: MapCompany) -> str:
            return company_page(campaign_id, company)

    if title is None:
        title = f"Map of {view.campaign.name} after turn {view.campaign.turn}"
    pattern = "glimpse" + id_suffix(title_id)
    context = {
        "box": f"{_num(x)} {_num(y)} {_num(width)} {_num(height)}",
        "title": title,
        "title_id": title_id,
        "styles": list(track_styles(view.state).values()),
        "pattern": pattern,
        "hatches": hatches(),
        "links": [link_drawing(link) for link in links],
        "areas": [
            area_drawing(
                row,
                reverse("area", args=[campaign_id, row.area_id]),
                company_url,
                shift=layout.shifts.get(row.name, (0.0, 0.0)),
                tag=layout.tags.get(row.name, FOOT),
                name_slide=layout.names.get(row.name, 0.0),
                pattern=pattern,
            )
            for row in areas
        ],
        "overlay": overlay,
    }
    return render_to_string(f"{MAP_TEMPLATE}#map", context)


# --- a company's stands, turn by turn ------------------------------------------------------

UNIT_COLOURS = {
    "commander": "#1d2521",
    "forward_observer": "#20507a",
    "rifle_squad": "#6b8f3a",
    "small_mortar": "#b07a12",
    "hmg": "#7a4f9a",
    "carrier": "#8a6a4a",
}
OTHER_UNIT_COLOURS = ("#3f7f6f", "#a8322d", "#5d6660", "#c05a8a")


@dataclass(frozen=True, slots=True)
class StandsPoint:
    """A company's stands after ``turns_played`` turns (0: at the start)."""

    turns_played: int
    stands: dict[str, int]
    establishment: dict[str, int]

    @property
    def label(self) -> str:
        return "start" if self.turns_played == 0 else f"turn {self.turns_played}"

    @property
    def held(self) -> int:
        return sum(self.stands.values())

    @property
    def full(self) -> int:
        return sum(self.establishment.values())


def unit_order(points: list[StandsPoint]) -> list[str]:
    units = {unit for point in points for unit in (*point.stands, *point.establishment)}
    return sorted(units, key=naming.unit_rank)


def unit_colours(units: list[str]) -> dict[str, str]:
    others = iter(OTHER_UNIT_COLOURS * (len(units) // len(OTHER_UNIT_COLOURS) + 1))
    return {unit: UNIT_COLOURS.get(unit) or next(others) for unit in units}


@dataclass(frozen=True, slots=True)
class ChartTick:
    value: int
    y: str
    text_y: str
    x1: int
    x2: int
    text_x: int


@dataclass(frozen=True, slots=True)
class BarPart:
    unit: str
    label: str
    held: int
    colour: str
    y: str
    height: str


@dataclass(frozen=True, slots=True)
class ChartBar:
    point: StandsPoint
    parts: list[BarPart]
    width: int
    x: str
    tick_x1: str
    tick_x2: str
    full_y: str
    middle: str
    label_y: int
    figures_y: int


def draw_stands_chart(points: list[StandsPoint]) -> SafeString:
    """Stacked bars, one per turn, of the stands held by unit type, with a dashed tick
    at the establishment of the time (killed stands come off it for good)
    (``templates/campaign/svg/stands_chart.svg``)."""
    if not points:
        return SafeString("")
    units = unit_order(points)
    colours = unit_colours(units)
    top = max(max(p.full, p.held) for p in points) or 1
    bar, gap, left, plot_h, base = 34, 18, 44, 200, 230
    width = left + len(points) * (bar + gap) + 10
    scale = plot_h / top
    step = max(1, round(top / 4))
    ticks = [
        ChartTick(
            tick,
            _num(base - tick * scale),
            _num(base - tick * scale + 4),
            left - 4,
            width - 6,
            left - 8,
        )
        for tick in range(0, top + 1, step)
    ]
    bars = []
    for i, point in enumerate(points):
        x = left + gap / 2 + i * (bar + gap)
        y = float(base)
        parts = []
        for unit in units:
            held = point.stands.get(unit, 0)
            if not held:
                continue
            h = held * scale
            y -= h
            parts.append(BarPart(unit, unit_label(unit), held, colours[unit], _num(y), _num(h)))
        bars.append(
            ChartBar(
                point=point,
                parts=parts,
                width=bar,
                x=_num(x),
                tick_x1=_num(x - 4),
                tick_x2=_num(x + bar + 4),
                full_y=_num(base - point.full * scale),
                middle=_num(x + bar / 2),
                label_y=base + 18,
                figures_y=base + 34,
            )
        )
    context = {"width": width, "ticks": ticks, "bars": bars}
    return render_to_string("campaign/svg/stands_chart.svg", context)
