"""Every past turn on the map, as the reader's side saw it then, and the time-lapse of them.

A turn's map is the campaign as it stood when the turn began (``Turn.start_state``),
through the fog of war of that moment (``visibility.as_it_stood``), with the turn's moves
drawn as arrows and its battles as markers -- only the moves and battles of the records
the reader may read (``view.records``, as on the turn's page). The time-lapse is every
turn's map in order, then the map as it stands now, stepped through in the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString

from campaign.models import Turn
from campaign.services.visibility import CampaignView, as_it_stood
from campaign.web.common import campaign_view, login_required, page_context
from campaign.web.mapdraw import (
    AREA_RADIUS,
    NOBODY_COLOUR,
    SIDE_COLOURS,
    MapCompany,
    _num,
    draw_map,
)
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
    area: str
    words: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Frame:
    number: int | None  # the turn; None for the map as it stands now
    label: str
    svg: SafeString
    lines: list[str]


def moves_and_battles(records: list[dict[str, Any]]) -> tuple[list[Move], list[BattleMark]]:
    """The moves (one arrow per side and route) and battles (one mark per area) in the
    records the reader may read."""
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
            area = str(record["target"])
            keys[str(record.get("battle"))] = area
            battles.setdefault(area, BattleMark(area)).words.append(str(record.get("text", "")))
        elif kind == "battle_result" and str(record.get("battle")) in keys:
            battles[keys[str(record["battle"])]].words.append(str(record.get("text", "")))
    return list(moves.values()), list(battles.values())


def _arrow(view: CampaignView, move: Move) -> str:
    areas = view.state.areas
    if move.origin not in areas or move.target not in areas:
        return ""
    a, b = areas[move.origin], areas[move.target]
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    gap = AREA_RADIUS + 4
    colour = SIDE_COLOURS.get(move.side, NOBODY_COLOUR)
    title = f"{', '.join(move.companies)}: {move.origin} to {move.target}"
    return (
        f'<g class="move" data-move="{escape(move.origin)}|{escape(move.target)}">'
        f"<title>{escape(title)}</title>"
        f'<line x1="{_num(a.x + ux * gap)}" y1="{_num(a.y + uy * gap)}" '
        f'x2="{_num(b.x - ux * (gap + 6))}" y2="{_num(b.y - uy * (gap + 6))}" '
        f'stroke="{colour}" stroke-width="5" marker-end="url(#arrow-{escape(move.side)})"/></g>'
    )


def _battle_mark(view: CampaignView, mark: BattleMark) -> str:
    area = view.state.areas.get(mark.area)
    if area is None:
        return ""
    x, y = area.x + AREA_RADIUS * 0.8, area.y - AREA_RADIUS * 0.8
    return (
        f'<g class="battle-mark" data-battle-area="{escape(mark.area)}">'
        f"<title>{escape('; '.join(mark.words))}</title>"
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="13" fill="#1d2521" stroke="#f6f3ea" '
        f'stroke-width="2"/><text x="{_num(x)}" y="{_num(y + 5)}" text-anchor="middle" '
        f'style="font:700 14px system-ui,sans-serif;fill:#f6f3ea">⚔</text></g>'
    )


def _markers() -> str:
    return (
        "<defs>"
        + "".join(
            f'<marker id="arrow-{side}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" '
            f'markerHeight="4" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" '
            f'fill="{colour}"/></marker>'
            for side, colour in SIDE_COLOURS.items()
        )
        + "</defs>"
    )


def turn_frame(view: CampaignView, turn: Turn) -> Frame:
    """Turn ``turn``'s map as the view's reader saw it when the turn began, with the
    turn's moves and battles the reader may read."""
    then = as_it_stood(view, parse_scenario(turn.start_state))
    records = view.records(turn.log, number=turn.number)
    moves, battles = moves_and_battles(records)
    overlay = (
        '<g class="turn-overlay">'
        + _markers()
        + "".join(_arrow(then, move) for move in moves)
        + "".join(_battle_mark(then, mark) for mark in battles)
        + "</g>"
    )
    turn_url = reverse("turn", args=[view.campaign.pk, turn.number])

    seen_now = set(view.visible_company_ids)  # seen in full now

    def company_url(company: MapCompany) -> str:
        if company.view.full and company.company_id in seen_now:
            return reverse("company", args=[view.campaign.pk, company.company_id])
        # Gone since, out of sight now, or a glimpse then (a glimpse's handle is only of
        # its turn: it must not tie that glimpse to a company seen now): the turn's page.
        return turn_url

    svg = draw_map(
        then,
        company_url=company_url,
        title=f"Map of {view.campaign.name} at the start of turn {turn.number}",
        overlay=overlay,
    )
    lines = [f"{', '.join(m.companies)}: {m.origin} to {m.target}" for m in moves] + [
        word for mark in battles for word in mark.words
    ]
    return Frame(turn.number, f"Turn {turn.number}", svg, lines)


def now_frame(view: CampaignView) -> Frame:
    return Frame(
        None,
        f"After turn {view.campaign.turn} (now)",
        draw_map(view),
        [],
    )


def _turns(view: CampaignView) -> list[Turn]:
    return list(
        Turn.objects.filter(campaign=view.campaign, status__in=SHOWN, start_state__isnull=False)
        .defer("report", "report_text")
        .order_by("number")
    )


@login_required
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
            frame=turn_frame(view, turn),
            previous=number - 1 if number - 1 in numbers else None,
            following=number + 1 if number + 1 in numbers else None,
        ),
    )


@login_required
def timelapse(request: HttpRequest, campaign_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    frames = [turn_frame(view, turn) for turn in _turns(view)] + [now_frame(view)]
    return render(request, "campaign/timelapse.html", page_context(view, frames=frames))


urlpatterns = [
    path("campaigns/<int:campaign_id>/turns/<int:number>/map/", turn_map, name="turn-map"),
    path("campaigns/<int:campaign_id>/timelapse/", timelapse, name="timelapse"),
]
