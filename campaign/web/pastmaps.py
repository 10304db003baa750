"""Every past turn on the map, as the reader's side saw it then, and the time-lapse of them.

A turn's map is the campaign as it stood when the turn began (``Turn.start_state``),
through the fog of war of that moment (``visibility.as_it_stood``), with the turn's moves
drawn as arrows and its battles as markers -- only the moves and battles of the records
the reader may read (``view.records``, as on the turn's page). The time-lapse is every
turn's map in order, then the map as it stands now, stepped through in the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.safestring import SafeString
from django.views.decorators.http import require_safe

from battles.web.lists import (
    battle_pieces,
    battle_reasons,
    battle_shares,
    battle_withdrawals,
    readable_battles,
)
from campaign.models import Turn
from campaign.services.visibility import CampaignView, as_it_stood
from campaign.web import turnlog
from campaign.web.common import campaign_view, login_required, page_context
from campaign.web.mapdraw import (
    AREA_RADIUS,
    BATTLE_CHAR,
    MAP_TITLE,
    NOBODY_COLOUR,
    SIDE_COLOURS,
    TRACK_CLEARANCE,
    MapArea,
    MapBox,
    MapCompany,
    MapLayout,
    _num,
    common_box,
    draw_map,
    focus_across,
    id_suffix,
    labelled_boxes,
    lay_out,
    map_areas,
    map_box,
    map_links,
    side_tag,
    track_segments,
)
from campaign.web.maplayout import Box, Segment, around, first_clear
from campaign.web.maps import Legend, legend
from rules import names as naming
from rules.campaign.scenario import parse_scenario

# Turns whose start and records are kept: played, or waiting for their battles.
SHOWN = (Turn.Status.DONE, Turn.Status.BATTLES_PENDING)


@dataclass(slots=True)
class Move:
    side: str
    origin: str
    target: str
    companies: list[str] = field(default_factory=list)


@dataclass(slots=True)
class BattleMark:
    """The battles of a turn at one area that the reader may read: each one's lines (its
    announcement, then its result), battle by battle, and who attacked whom (side keys,
    each pair once)."""

    area: str
    battles: dict[str, list[str]] = field(default_factory=dict)
    sides: list[tuple[str, str]] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        return [line for lines in self.battles.values() for line in lines]


@dataclass(slots=True)
class Frame:
    number: int | None  # the turn; None for the map as it stands now
    label: str
    svg: SafeString
    lines: list[str]
    across: str = ""  # where the reader's troops stood across it (``focus_across``)
    # Under the fog, an enemy attacked the reader's side this turn (a battle it defended):
    # the map draws no arrow for the attack, and says why.
    unseen_attack: bool = False
    battles: int = 0  # the battle marks drawn


def moves_and_battles(
    records: list[dict[str, Any]], reading: turnlog.Reading | None = None
) -> tuple[list[Move], list[BattleMark]]:
    """The moves (one arrow per side and route) and battles (one mark per area) in the
    records the reader may read, each battle in the words of the turn's page (its forces
    named after their sides in the campaign's names, ``reading``)."""
    reading = (reading or turnlog.Reading()).with_records(records)
    moves: dict[tuple[str, str, str], Move] = {}
    battles: dict[str, BattleMark] = {}
    keys: dict[str, str] = {}
    for record in records:
        kind = record.get("kind")
        if kind == "order" and record.get("outcome") == "moved" and record.get("from"):
            key = (str(record.get("side")), str(record["from"]), str(record.get("target")))
            move = moves.setdefault(key, Move(*key))
            move.companies.append(str(record.get("company", "")))
        elif kind == "battle" and record.get("target"):
            area, battle = str(record["target"]), str(record.get("battle"))
            keys[battle] = area
            mark = battles.setdefault(area, BattleMark(area))
            mark.battles[battle] = [turnlog.record_words(record, reading)]
            pair = (str(record.get("attacker_side")), str(record.get("defender_side")))
            if pair not in mark.sides:
                mark.sides.append(pair)
        elif kind == "battle_result" and str(record.get("battle")) in keys:
            battle = str(record["battle"])
            battles[keys[battle]].battles[battle].append(turnlog.record_words(record, reading))
    return list(moves.values()), list(battles.values())


@dataclass(frozen=True, slots=True)
class Arrow:
    """A move as ``turn_overlay.svg`` draws it: from the edge of one area's circle to
    just short of the other's. Numbers written."""

    side: str
    origin: str
    target: str
    title: str
    colour: str
    x1: str
    y1: str
    x2: str
    y2: str


@dataclass(frozen=True, slots=True)
class LabelLine:
    """A line of a mark's sides written a pair a line: its words and where."""

    words: str
    x: str
    y: str


@dataclass(frozen=True, slots=True)
class BattleDrawing:
    """A battle mark as ``turn_overlay.svg`` draws it: the ⚔ at the area's top right, its
    title the battles in words, and beside it who attacked whom by the map's tags
    ("JPN→AUS"), which the legend names. Numbers written."""

    area: str
    title: str
    label: str
    x: str
    y: str
    text_y: str
    label_x: str
    label_y: str
    label_anchor: str = "start"  # "end": written leftwards from label_x, left of the ⚔
    # Written a pair a line (``LabelPlace.stacked``): each line; else the label on one.
    lines: list[LabelLine] = field(default_factory=list)


# Moves along one link (opposite ways, or two sides the same way) are drawn side by side,
# this far apart across the link: an arrow's head (turn_overlay.svg) reaches 10 to each
# side of its line, and the line beside it is 5 wide, so the head stays clear of it.
LANE_WIDTH = 14


def arrow(view: CampaignView, move: Move, *, lane: float = 0.0) -> Arrow | None:
    """``move``'s arrow, ``lane`` lanes (``LANE_WIDTH``) across its link from the line
    between the two areas, to the right of the link read from the first of its areas by
    name to the other: the same side for every arrow on the link, whichever way it goes."""
    areas = view.state.areas
    if move.origin not in areas or move.target not in areas:
        return None
    a, b = areas[move.origin], areas[move.target]
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    across = lane * LANE_WIDTH * (1 if move.origin < move.target else -1)
    nx, ny = -uy * across, ux * across
    gap = AREA_RADIUS + 4
    return Arrow(
        side=move.side,
        origin=move.origin,
        target=move.target,
        title=f"{naming.join(move.companies)}: {move.origin} to {move.target}",
        colour=SIDE_COLOURS.get(move.side, NOBODY_COLOUR),
        x1=_num(a.x + ux * gap + nx),
        y1=_num(a.y + uy * gap + ny),
        x2=_num(b.x - ux * (gap + 6) + nx),
        y2=_num(b.y - uy * (gap + 6) + ny),
    )


def lanes(moves: list[Move]) -> list[float]:
    """Each move's lane across its link (``arrow``): 0, the link's own line, for a move
    alone on its link; for several, lanes side by side around that line (one way's
    before the other's, then by side), so that each reads as its own arrow -- two
    opposite moves drew as one arrow with a head at each end. Only ``moves`` count: the
    moves the reader may read, so a move the fog hides moves no arrow aside."""
    links: dict[frozenset[str], list[int]] = {}
    for i, move in enumerate(moves):
        links.setdefault(frozenset((move.origin, move.target)), []).append(i)
    placed = [0.0] * len(moves)
    for shared in links.values():
        ordered = sorted(shared, key=lambda i: (moves[i].origin, moves[i].side))
        for k, i in enumerate(ordered):
            placed[i] = k - (len(ordered) - 1) / 2
    return placed


# A battle mark's sides ("JPN→AUS", 12px bold) are written beside its ⚔ (a circle of
# radius BATTLE_MARK_RADIUS), to its right; where that lies on a track line, another tag,
# an area's name, marks or circle, or another battle's, they go the
# least way up or down (BATTLE_LABEL_STEP at a time, up first, never off the ⚔'s side:
# Kerna's go below the track to Munara), else to its left. Battles both ways at one
# area ("JPN→AUS, AUS→JPN", 128 wide) that find no such place on one line are written a
# pair a line, one under the other, the same ways (at Oivi the one line ran into Kilu's
# circle).
BATTLE_MARK_RADIUS = 13
BATTLE_LABEL_GAP = 3
BATTLE_LABEL_STEP = 3
BATTLE_LABEL_REACH = 16  # the most they go up or down: still level with the ⚔
BATTLE_LINE = 14  # from one line's baseline to the next's, when written a pair a line


@dataclass(frozen=True, slots=True)
class LabelPlace:
    """Where a battle mark's sides go (``battle_label_place``): on the ⚔'s ``left`` or
    its right, ``dy`` below its middle, on one line or ``stacked`` a pair a line."""

    left: bool = False
    dy: float = 0.0
    stacked: bool = False


def label_lines(label: str, *, stacked: bool) -> list[str]:
    """The lines a mark's sides are written on: the whole on one, or a pair a line."""
    return label.split(", ") if stacked else [label]


def battle_label_box(x: float, y: float, label: str, place: LabelPlace) -> Box:
    """Where a mark's sides are written: beside the ⚔ at (``x``, ``y``) as ``place``
    says; each line 13 high, a single line's baseline 4 below the ⚔'s middle, stacked
    lines centred on it the same way."""
    lines = label_lines(label, stacked=place.stacked)
    width = max(len(line) for line in lines) * BATTLE_CHAR
    start = x - BATTLE_MARK_RADIUS - BATTLE_LABEL_GAP - width if place.left else x + 16
    baselines = label_baselines(y, label, place)
    return Box(start, baselines[0] - 10, start + width, baselines[-1] + 3)


def label_baselines(y: float, label: str, place: LabelPlace) -> list[float]:
    """The baseline of each line of a mark's sides beside the ⚔ at height ``y``."""
    if not place.stacked:
        return [y + place.dy + 4]
    lines = label_lines(label, stacked=True)
    first = y + place.dy + 4 - BATTLE_LINE * (len(lines) - 1) / 2
    return [first + BATTLE_LINE * i for i in range(len(lines))]


def label_candidates(label: str) -> list[LabelPlace]:
    """Where a mark's sides may go, the first choice first: on one line, to the right of
    the ⚔ then its left, the least way up or down first; then a pair a line, the same."""
    reach = int(BATTLE_LABEL_REACH // BATTLE_LABEL_STEP)
    downs = [0.0] + [BATTLE_LABEL_STEP * n * way for n in range(1, reach + 1) for way in (-1, 1)]
    stacks = (False, True) if ", " in label else (False,)
    return [
        LabelPlace(left, dy, stacked)
        for stacked in stacks
        for left in (False, True)
        for dy in downs
    ]


def battle_label_place(
    x: float,
    y: float,
    label: str,
    taken: list[Box],
    segments: list[Segment],
) -> LabelPlace:
    """Beside the ⚔ at (``x``, ``y``), where ``label`` lies on no track line and none of
    ``taken``; else the right, level, on one line. From the map and the marks the reader may read,
    nothing else."""
    tried = [(place, battle_label_box(x, y, label, place)) for place in label_candidates(label)]
    region = around(box for _, box in tried)
    clear = first_clear(tried, region, segments, taken, clearance=TRACK_CLEARANCE)
    return clear or LabelPlace()


def battle_drawing(
    view: CampaignView,
    mark: BattleMark,
    taken: list[Box],
    segments: list[Segment],
) -> BattleDrawing | None:
    """A battle's mark at its area's top right, its sides beside it clear of ``taken``
    (which gains them) and the track ``segments`` (``battle_label_place``)."""
    area = view.state.areas.get(mark.area)
    if area is None:
        return None
    x, y = area.x + AREA_RADIUS * 0.8, area.y - AREA_RADIUS * 0.8
    title = " ".join(line if line.endswith(".") else f"{line}." for line in mark.words)
    label = ", ".join(f"{side_tag(a)}→{side_tag(d)}" for a, d in mark.sides)
    place = battle_label_place(x, y, label, taken, segments)
    box = battle_label_box(x, y, label, place)
    taken.append(box)
    label_x = _num(box.right if place.left else box.left)
    baselines = label_baselines(y, label, place)
    return BattleDrawing(
        mark.area,
        title,
        label,
        _num(x),
        _num(y),
        _num(y + 5),
        label_x,
        _num(baselines[0]),
        "end" if place.left else "start",
        [
            LabelLine(words, label_x, _num(baseline))
            for words, baseline in zip(label_lines(label, stacked=True), baselines, strict=True)
        ]
        if place.stacked
        else [],
    )


def overlay(
    view: CampaignView,
    moves: list[Move],
    battles: list[BattleMark],
    *,
    areas: list[MapArea] | None = None,
    layout: MapLayout | None = None,
    suffix: str = "",
) -> SafeString:
    """The turn's moves and battles over ``view``'s map (``turn_overlay.svg``), each
    battle's sides placed clear of what the map draws (its ``areas`` as ``layout`` lays
    them out) and of the other battles' marks and sides."""
    areas = map_areas(view) if areas is None else areas
    links = map_links(view)
    layout = lay_out(areas, links) if layout is None else layout
    arrows = [
        drawn
        for move, lane in zip(moves, lanes(moves), strict=True)
        if (drawn := arrow(view, move, lane=lane)) is not None
    ]
    taken = labelled_boxes(areas, layout.tags, layout.names) + [
        Box(
            x - BATTLE_MARK_RADIUS,
            y - BATTLE_MARK_RADIUS,
            x + BATTLE_MARK_RADIUS,
            y + BATTLE_MARK_RADIUS,
        )
        for mark in battles
        if (area := view.state.areas.get(mark.area)) is not None
        for x, y in [(area.x + AREA_RADIUS * 0.8, area.y - AREA_RADIUS * 0.8)]
    ]
    segments = track_segments(links)
    marks = [
        mark_at
        for mark in battles
        if (mark_at := battle_drawing(view, mark, taken, segments)) is not None
    ]
    context = {
        "markers": list(SIDE_COLOURS.items()),
        "suffix": suffix,
        "arrows": arrows,
        "marks": marks,
    }
    return render_to_string("campaign/svg/turn_overlay.svg", context)


def reading_of(view: CampaignView, **filters: Any) -> turnlog.Reading:
    """The sides' names and why each readable battle (of ``filters``) ended: one query."""
    names = {key: side.name for key, side in view.state.sides.items()}
    rows = readable_battles(view, **filters)
    return turnlog.Reading(
        names,
        battle_reasons(rows),
        battle_withdrawals(rows),
        battle_pieces(rows),
        shares=battle_shares(rows),
    )


def as_it_began(view: CampaignView, turn: Turn) -> CampaignView:
    """The campaign as the view's reader saw it when ``turn`` began."""
    return as_it_stood(view, parse_scenario(turn.start_state))


def turn_frame(
    view: CampaignView,
    turn: Turn,
    reading: turnlog.Reading,
    *,
    then: CampaignView | None = None,
    areas: list[MapArea] | None = None,
    box: MapBox | None = None,
) -> Frame:
    """Turn ``turn``'s map as the view's reader saw it when the turn began (``then``,
    its ``areas``), with the turn's moves and battles the reader may read; drawn in
    ``box`` (the time-lapse's, the same for each frame), else in its own."""
    then = as_it_began(view, turn) if then is None else then
    records = view.records(turn.log, number=turn.number)
    moves, battles = moves_and_battles(records, reading)
    turn_url = reverse("turn", args=[view.campaign.pk, turn.number])

    seen_now = set(view.visible_company_ids)  # seen in full now

    def company_url(company: MapCompany) -> str:
        if company.view.full and company.company_id in seen_now:
            return reverse("company", args=[view.campaign.pk, company.company_id])
        # Gone since, out of sight now, or a glimpse then (a glimpse's handle is only of
        # its turn: it must not tie that glimpse to a company seen now): the turn's page.
        return turn_url

    areas = map_areas(then) if areas is None else areas
    layout = lay_out(areas, map_links(then))
    title_id = f"{MAP_TITLE}-{turn.number}"
    svg = draw_map(
        then,
        areas,
        company_url=company_url,
        title=f"Map of {view.campaign.name} at the start of turn {turn.number}",
        overlay=overlay(
            then, moves, battles, areas=areas, layout=layout, suffix=id_suffix(title_id)
        ),
        title_id=title_id,
        box=box,
        layout=layout,
    )
    lines = [f"{naming.join(m.companies)}: {m.origin} to {m.target}" for m in moves] + [
        word for mark in battles for word in mark.words
    ]
    # A battle's record shows only to the two sides that fought it (rulings section 6):
    # what the reader's side defended it knows.
    unseen_attack = not view.sees_everything and any(
        r.get("kind") == "battle" and r.get("defender_side") == view.side for r in records
    )
    return Frame(
        turn.number,
        f"Turn {turn.number}",
        svg,
        lines,
        focus_across(then, areas),
        unseen_attack=unseen_attack,
        battles=len(battles),
    )


def now_frame(
    view: CampaignView, areas: list[MapArea] | None = None, *, box: MapBox | None = None
) -> Frame:
    areas = map_areas(view) if areas is None else areas
    return Frame(
        None,
        f"After turn {view.campaign.turn} (now)",
        draw_map(view, areas, title_id="map-title-now", box=box),
        [],
        focus_across(view, areas),
    )


def _turns(view: CampaignView) -> list[Turn]:
    return list(
        Turn.objects.filter(campaign=view.campaign, status__in=SHOWN, start_state__isnull=False)
        .defer("report", "report_text")
        .order_by("number")
    )


def past_legend(view: CampaignView, frames: list[Frame]) -> Legend:
    """The live map's legend for maps of past turns: under the fog, areas out of sight
    then are hatched, whether or not any is now; and, where ``frames`` mark a battle, the
    marks, "JPN→AUS" beside one read by the tags' sides (a player reads only battles its
    side fought; a spectator none, so its maps have no mark to explain)."""
    if not any(frame.battles for frame in frames):
        return replace(legend(view), last_seen=not view.sees_everything)
    what = "a battle of the turn" if view.sees_everything else "a battle your side fought"
    sides = list(view.state.sides.values())
    if len(sides) >= 2:
        attacker, defender = sides[1], sides[0]
        what += (
            f"; beside it, who attacked whom by the sides' tags ({side_tag(attacker.key)}→"
            f"{side_tag(defender.key)}: the {attacker.name} attacked the {defender.name})"
        )
    return replace(
        legend(view),
        last_seen=not view.sees_everything,
        battles=f"{what}; each battle in words below the map",
    )


@login_required
@require_safe
def turn_map(request: HttpRequest, campaign_id: int, number: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    turn = (
        Turn.objects.filter(
            campaign=view.campaign, number=number, status__in=SHOWN, start_state__isnull=False
        )
        .defer("report", "report_text")
        .first()
    )
    if turn is None:
        raise Http404("no map of that turn")
    frame = turn_frame(view, turn, reading_of(view, turn=turn))
    numbers = set(
        Turn.objects.filter(
            campaign=view.campaign, status__in=SHOWN, start_state__isnull=False
        ).values_list("number", flat=True)
    )
    return render(
        request,
        "campaign/turn_map.html",
        page_context(
            view,
            turn=turn,
            frame=frame,
            legend=past_legend(view, [frame]),
            previous=number - 1 if number - 1 in numbers else None,
            following=number + 1 if number + 1 in numbers else None,
        ),
    )


def timelapse_frames(view: CampaignView, reading: turnlog.Reading) -> list[Frame]:
    """Every played turn's frame, then the map as it stands now, all drawn in one box:
    the least that holds each map's own (``common_box``), so stepping through them moves
    nothing on the page (each drawn in its own, they varied in height, and the page
    jumped). Each box is of a map as the reader saw it: nothing hidden sizes it."""
    turns = _turns(view)
    thens = [as_it_began(view, turn) for turn in turns]
    areas = [map_areas(then) for then in thens]
    now_areas = map_areas(view)
    box = common_box(
        [map_box(then, rows) for then, rows in zip(thens, areas, strict=True)]
        + [map_box(view, now_areas)]
    )
    frames = [
        turn_frame(view, turn, reading, then=then, areas=rows, box=box)
        for turn, then, rows in zip(turns, thens, areas, strict=True)
    ]
    return [*frames, now_frame(view, now_areas, box=box)]


@login_required
@require_safe
def timelapse(request: HttpRequest, campaign_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    frames = timelapse_frames(view, reading_of(view))
    return render(
        request,
        "campaign/timelapse.html",
        # The legend of a past turn's map: its tags, hatching and chips read the same.
        page_context(view, frames=frames, legend=past_legend(view, frames)),
    )


urlpatterns = [
    path("campaigns/<int:campaign_id>/turns/<int:number>/map/", turn_map, name="turn-map"),
    path("campaigns/<int:campaign_id>/timelapse/", timelapse, name="timelapse"),
]
