"""The campaign's story, told when it has ended: who won and why, control of each area
over time, each side's strength over time, the battles won and lost, the losses, and the
turning points. Charts are SVG drawn on the server from templates, like the map.

Nothing is hidden once a campaign has ended (rulings, section 6), so the page reads the
whole record; while a campaign is played it shows a player only that the story is told at
the end (the GM may read it at any time).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path
from django.utils.safestring import SafeString
from django.views.decorators.http import require_safe

from battles.models import Battle
from campaign.models import Campaign, Turn
from campaign.services.visibility import CampaignView
from campaign.web import ending
from campaign.web.common import campaign_view, login_required, page_context
from campaign.web.mapdraw import (
    NOBODY_COLOUR,
    NOBODY_INK,
    NOBODY_TAG,
    NOBODY_TINT,
    SIDE_COLOURS,
    SIDE_TINTS,
    _num,
    side_tag,
)
from rules.campaign.scenario import parse_scenario


@dataclass(frozen=True, slots=True)
class Point:
    """The campaign after ``turns_played`` turns (0: at the start)."""

    turns_played: int
    control: dict[str, str | None]  # area -> side
    strength: dict[str, int]  # side -> fighting stands held (a supply company's: not)

    @property
    def label(self) -> str:
        return "start" if self.turns_played == 0 else str(self.turns_played)


@dataclass(slots=True)
class SideTally:
    key: str
    name: str
    won: int = 0
    lost: int = 0
    stands_lost: int = 0
    stands_taken: int = 0  # the enemy's stands lost in this side's battles
    # Whose stands those were, in words ("the Japanese"): "Enemy stands taken" read as
    # well as the stands the enemy took from this side as those this side took.
    taken_from: str = ""
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class TurningPoint:
    turn: int
    words: str


@dataclass(slots=True)
class Story:
    winner: str  # a side's name, or "nobody"
    why: str
    points: list[Point]
    areas: list[str]
    sides: dict[str, str]  # key -> name
    tallies: list[SideTally]
    turning_points: list[TurningPoint] = field(default_factory=list)


def _strength(state: Any) -> dict[str, int]:
    """Each side's fighting stands: a supply company's carriers never fight."""
    totals = dict.fromkeys(state.sides, 0)
    for company in state.companies.values():
        if company.fighting:
            totals[company.side] = totals.get(company.side, 0) + company.strength
    return totals


def _supply_companies(turns: list[Turn]) -> set[str]:
    """The names of the campaign's supply companies, from its turns' start states (a
    turn's report lists its companies without their kind; a company's kind never
    changes, and none joins during a turn)."""
    return {
        str(company.get("name"))
        for turn in turns
        for company in (turn.start_state or {}).get("companies", [])
        if company.get("kind") == "supply"
    }


def points_of(turns: list[Turn]) -> list[Point]:
    """The start (turn 1's start state), then the campaign after each turn played, each
    side's strength counted in fighting stands."""
    points: list[Point] = []
    supply = _supply_companies(turns)
    first = next((t for t in turns if t.start_state), None)
    if first is not None:
        state = parse_scenario(first.start_state)
        points.append(
            Point(
                first.number - 1,
                {name: area.controller for name, area in state.areas.items()},
                _strength(state),
            )
        )
    for turn in turns:
        report = turn.report
        if turn.status != Turn.Status.DONE or not report:
            continue
        strength: dict[str, int] = defaultdict(int)
        for side in points[0].strength if points else ():
            strength[side] = 0
        for name, company in report.get("companies", {}).items():
            if name not in supply:
                strength[company["side"]] += int(company.get("stands") or 0)
        points.append(Point(turn.number, dict(report.get("control", {})), dict(strength)))
    return points


def _lost(result: dict[str, Any] | None, key: str) -> int:
    return sum(int(n) for n in ((result or {}).get("losses") or {}).get(key, {}).values())


def tell(campaign: Campaign, view: CampaignView) -> Story:
    state = view.state
    sides = {key: side.name for key, side in state.sides.items()}
    turns = list(Turn.objects.filter(campaign=campaign).order_by("number"))
    points = points_of(turns)
    areas = [name for name, _ in sorted(state.areas.items(), key=lambda kv: (kv[1].zone, kv[0]))]
    tallies = {
        key: SideTally(
            key,
            name,
            # Read by every side: the others by their names, not "the enemy".
            taken_from=" and the ".join(other for k, other in sides.items() if k != key),
        )
        for key, name in sides.items()
    }
    if points:
        for key, tally in tallies.items():
            tally.start = points[0].strength.get(key, 0)
            tally.end = points[-1].strength.get(key, 0)
    battles = list(
        Battle.objects.filter(campaign=campaign)
        .exclude(status=Battle.Status.PENDING)
        .select_related("area", "turn")
        .order_by("turn__number", "id")
    )
    for battle in battles:
        result = battle.result or {}
        winner = result.get("winner")
        for role, side in (("attacker", battle.attacker_side), ("defender", battle.defender_side)):
            found = tallies.get(side)
            if found is None:
                continue
            tally = found
            other = "defender" if role == "attacker" else "attacker"
            if winner == role:
                tally.won += 1
            elif winner == other:
                tally.lost += 1
            tally.stands_lost += _lost(result, role)
            tally.stands_taken += _lost(result, other)
    winner = sides.get(campaign.winner or "", "nobody")
    why = ending.why(campaign, state.settings, sides)
    story = Story(winner, why, points, areas, sides, list(tallies.values()))
    story.turning_points = turning_points(story, state, battles)
    return story


def turning_points(story: Story, state: Any, battles: list[Battle]) -> list[TurningPoint]:
    """The moments the campaign turned on, in order: the objective or a side's base
    changing hands, the side ahead in fighting stands changing, and the bloodiest battle."""
    found: list[TurningPoint] = []
    names = story.sides
    bases = {side.base: key for key, side in state.sides.items()}
    objective = state.settings.objective
    leader = _ahead(story.points[0].strength) if story.points else None
    for before, after in zip(story.points, story.points[1:], strict=False):
        for area in story.areas:
            was, now = before.control.get(area), after.control.get(area)
            if was == now or now is None:
                continue
            if area == objective:
                found.append(
                    TurningPoint(
                        after.turns_played, f"the {names.get(now, now)} took {area}, the objective"
                    )
                )
            elif area in bases and bases[area] != now:
                owner = names.get(bases[area], bases[area])
                found.append(
                    TurningPoint(
                        after.turns_played,
                        f"the {names.get(now, now)} took {area}, the {owner}' base",
                    )
                )
        ahead_now = _ahead(after.strength)
        if ahead_now is not None and ahead_now != leader:
            # A new side ahead in stands: a tie between does not make the same side's
            # lead new again, so "for the first time" is said once.
            # Read by every side: the others by their names, not "the enemy".
            others = " and the ".join(
                names.get(key, key) for key in after.strength if key != ahead_now
            )
            # No leader yet: the sides were level at the start and at every turn since
            # ("had more fighting stands for the first time" read as if the campaign
            # had begun with them behind).
            words = (
                f"pulled ahead of the {others} in fighting stands, level until then"
                if leader is None
                else f"overtook the {names.get(leader, leader)} in fighting stands"
            )
            found.append(
                TurningPoint(after.turns_played, f"the {names.get(ahead_now, ahead_now)} {words}")
            )
            leader = ahead_now
    bloodiest = max(
        battles,
        key=lambda b: (_lost(b.result, "attacker") + _lost(b.result, "defender"), -b.pk),
        default=None,
    )
    if bloodiest is not None:
        lost = _lost(bloodiest.result, "attacker") + _lost(bloodiest.result, "defender")
        if lost:
            role = (bloodiest.result or {}).get("winner")
            side = bloodiest.attacker_side if role == "attacker" else bloodiest.defender_side
            won = (
                f"the {names.get(side, side)} won it"
                if role in ("attacker", "defender")
                else "nobody won it"
            )
            found.append(
                TurningPoint(
                    bloodiest.turn.number,
                    f"the bloodiest battle, at {bloodiest.area.name}: {lost} stands lost; {won}",
                )
            )
    found.sort(key=lambda point: point.turn)
    return found


def _ahead(strength: dict[str, int]) -> str | None:
    ranked = sorted(strength.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


# --- the charts ---------------------------------------------------------------------------


def _x_labels(points: list[Point]) -> set[int]:
    """Which columns carry a label: all when few, else every few and the last."""
    every = max(1, (len(points) + 9) // 10)
    return {i for i in range(len(points)) if i % every == 0 or i == len(points) - 1}


@dataclass(frozen=True, slots=True)
class Holder:
    """Who held an area, as the control chart and its legend draw it: the cell's colour,
    and the map's tag in it ("AUS", "JPN", "none") for a reader who cannot tell the
    colours apart."""

    name: str  # "the Australians", "nobody"
    colour: str  # the cell's
    tag: str
    ink: str  # the tag's words, readable on the colour


def holder(story: Story, side: str) -> Holder:
    if side in story.sides:
        colour = SIDE_COLOURS.get(side, NOBODY_COLOUR)
        return Holder(f"the {story.sides[side]}", colour, side_tag(side), "#fff")
    return Holder("nobody", NOBODY_TINT, NOBODY_TAG, NOBODY_INK)


def holders(story: Story) -> list[Holder]:
    """The control chart's legend: each side, then nobody."""
    return [holder(story, key) for key in story.sides] + [holder(story, "")]


@dataclass(frozen=True, slots=True)
class ControlCell:
    x: int
    turn: int
    label: str  # the turn in words: "start", "3"
    side: str  # the holder's key, "" for nobody
    held_by: Holder
    tag_x: str


@dataclass(frozen=True, slots=True)
class ControlRow:
    area: str
    y: int
    label_y: str
    cells: list[ControlCell]
    tag_y: str


def control_words(story: Story, area: str) -> str:
    """Who held ``area``, turn by turn, in words: "the Japanese at the start, the
    Australians after turn 3"; "... from the start to the end" when it never changed
    hands."""
    changes: list[tuple[Point, Holder]] = []
    for point in story.points:
        held_by = holder(story, point.control.get(area) or "")
        if not changes or changes[-1][1] != held_by:
            changes.append((point, held_by))
    if len(changes) == 1:
        point, held_by = changes[0]
        since = "the start" if point.turns_played == 0 else f"turn {point.turns_played}"
        return f"{held_by.name} ({held_by.tag}) from {since} to the end"
    return ", ".join(
        f"{held_by.name} ({held_by.tag}) "
        + ("at the start" if point.turns_played == 0 else f"after turn {point.turns_played}")
        for point, held_by in changes
    )


def control_chart(story: Story) -> SafeString:
    """A grid: a row per area, a column per turn, each cell in its holder's colour with
    its tag in words (``templates/campaign/svg/control_chart.svg``)."""
    points = story.points
    if not points:
        return SafeString("")
    # A cell holds its tag whole: "none", the widest, is about 31 wide at 11 in the
    # chart's units, the words 15.
    label_w, cell_w, cell_h, top = 130, 34, 24, 30
    labelled = _x_labels(points)
    columns = [
        (_num(label_w + i * cell_w + cell_w / 2), point.turns_played)
        for i, point in enumerate(points)
        if i in labelled
    ]
    rows = []
    for row, area in enumerate(story.areas):
        y = top + row * cell_h
        cells = [
            ControlCell(
                label_w + i * cell_w,
                point.turns_played,
                point.label,
                point.control.get(area) or "",
                holder(story, point.control.get(area) or ""),
                _num(label_w + i * cell_w + (cell_w - 2) / 2),
            )
            for i, point in enumerate(points)
        ]
        rows.append(
            ControlRow(
                area,
                y,
                _num(y + cell_h * 0.7),
                cells,
                _num(y + cell_h * 0.65),
            )
        )
    width = label_w + len(points) * cell_w + 8
    context = {
        "width": width,
        "max_width": _widest(width),
        "height": top + len(story.areas) * cell_h + 8,
        "columns": columns,
        "columns_y": top - 10,
        "labels_x": label_w - 8,
        "rows": rows,
        "cell_width": cell_w - 2,
        "cell_height": cell_h - 2,
    }
    return render_to_string("campaign/svg/control_chart.svg", context)


@dataclass(frozen=True, slots=True)
class StrengthDot:
    x: str
    y: str
    turn: int
    label: str  # the turn in words
    held: int


def _widest(width: int) -> int:
    """How wide a chart drawn ``width`` wide may grow on a wide screen: its words (15 in
    its own units) at about the page's size. Filling the 46rem column, a short campaign's
    grid drew its area names at 40 pixels and the strength chart its numbers at 25."""
    return round(width * 1.1)


@dataclass(frozen=True, slots=True)
class StrengthLine:
    key: str
    name: str
    colour: str
    points: str  # the polyline's "x,y x,y ..."
    dots: list[StrengthDot]


def strength_chart(story: Story) -> SafeString:
    """A line per side: the stands it held after each turn
    (``templates/campaign/svg/strength_chart.svg``)."""
    points = story.points
    if not points:
        return SafeString("")
    left, right, top, plot_h = 48, 16, 16, 200
    plot_w = 380  # narrow, so the words stay readable when a phone scales it down
    step = plot_w / max(1, len(points) - 1) if len(points) > 1 else 0
    width = left + plot_w + right
    peak = max((n for p in points for n in p.strength.values()), default=0) or 1
    scale = plot_h / peak
    base = top + plot_h
    tick = max(1, round(peak / 4))
    ticks = [
        (value, _num(base - value * scale), _num(base - value * scale + 5))
        for value in range(0, peak + 1, tick)
    ]
    labels = [(_num(left + i * step), points[i].label) for i in _x_labels(points)]
    lines = []
    for key, name in story.sides.items():
        coords = [
            (left + i * step, base - p.strength.get(key, 0) * scale) for i, p in enumerate(points)
        ]
        dots = [
            StrengthDot(_num(x), _num(y), p.turns_played, p.label, p.strength.get(key, 0))
            for (x, y), p in zip(coords, points, strict=True)
        ]
        line = " ".join(f"{_num(x)},{_num(y)}" for x, y in coords)
        lines.append(StrengthLine(key, name, SIDE_COLOURS.get(key, NOBODY_COLOUR), line, dots))
    context = {
        "width": width,
        "max_width": _widest(width),
        "height": top + plot_h + 40,
        "ticks": ticks,
        "tick_x1": left - 4,
        "tick_x2": width - right,
        "tick_text_x": left - 8,
        "labels": labels,
        "labels_y": base + 24,
        "lines": lines,
    }
    return render_to_string("campaign/svg/strength_chart.svg", context)


def legend(story: Story) -> list[tuple[str, str, str]]:
    return [
        (name, SIDE_COLOURS.get(key, NOBODY_COLOUR), SIDE_TINTS.get(key, NOBODY_TINT))
        for key, name in story.sides.items()
    ]


@login_required
@require_safe
def story_page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    campaign = view.campaign
    if campaign.status != Campaign.Status.FINISHED and not view.game_master:
        return render(request, "campaign/story.html", page_context(view, story=None))
    story = tell(campaign, view)
    return render(
        request,
        "campaign/story.html",
        page_context(
            view,
            story=story,
            control_svg=control_chart(story),
            strength_svg=strength_chart(story),
            legend=legend(story),
            holders=holders(story),
            # The chart in words: a screen reader reads nothing inside a chart.
            control_words=[(area, control_words(story, area)) for area in story.areas],
        ),
    )


urlpatterns = [
    path("campaigns/<int:campaign_id>/story/", story_page, name="story"),
]
