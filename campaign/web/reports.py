"""The players' reports: the turn history and a turn's every roll (a battle's report and
sheet are the battles' own pages, ``battles.web.pages``).

Every page reads the campaign through a ``CampaignView`` (fog of war in one place): a
turn shows only the records ``view.records`` allows, and a battle only when
``battles.services.reading.battle_open`` says so (404 otherwise, as for a stranger).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from battles.models import Battle
from battles.web.lists import (
    battle_pieces,
    battle_reasons,
    battle_withdrawals,
    readable_battles,
)
from campaign.models import Turn
from campaign.services import commitments
from campaign.services.visibility import CampaignView, PublicAdjustment
from campaign.web import turnlog
from campaign.web.common import campaign_view, login_required, page_context

# The big JSON columns a list does not need.
_TURN_HEAVY = ("start_state", "report", "report_text")


def _side_names(view: CampaignView) -> dict[str, str]:
    return {key: side.name for key, side in view.state.sides.items()}


@login_required
def turn_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    turns = list(
        Turn.objects.filter(campaign=view.campaign).defer(*_TURN_HEAVY).order_by("-number")
    )
    battles: dict[int, list[dict[str, Any]]] = defaultdict(list)
    readable = readable_battles(view)
    for row in readable:
        battles[row["turn_id"]].append(row)
    reasons, withdrawals = battle_reasons(readable), battle_withdrawals(readable)
    pieces = battle_pieces(readable)
    names = _side_names(view)
    # Before each turn, and during it (made once its dice were rolled: not in it).
    adjusted: dict[int, list[PublicAdjustment]] = defaultdict(list)
    during: dict[int, list[PublicAdjustment]] = defaultdict(list)
    for adjustment in view.adjustments():
        if adjustment.during_turn is not None:
            during[adjustment.during_turn].append(adjustment)
        else:
            adjusted[adjustment.before_turn].append(adjustment)
    rows = []
    tables = turnlog.event_tables(view.state.settings)
    for turn in turns:
        records = view.records(turn.log, number=turn.number)
        of_turn = battles.get(turn.pk, [])
        rows.append(
            {
                "turn": turn,
                "summary": turnlog.turn_summary(
                    records, names, reasons, withdrawals, pieces, tables=tables
                ),
                "battles": of_turn,
                "waiting": sum(b["status"] == Battle.Status.PENDING for b in of_turn),
                "adjustments": adjusted.get(turn.number, []),
                "during": during.get(turn.number, []),
            }
        )
    # The GM's changes since the last turn played, before the coming one (once that turn
    # has a row, its changes are listed with it).
    started = bool(turns) and turns[0].number > view.campaign.turn
    coming = [] if started else adjusted.get(view.campaign.turn + 1, [])
    return render(
        request, "campaign/turns.html", page_context(view, rows=rows, coming_adjustments=coming)
    )


@login_required
def turn_detail(request: HttpRequest, campaign_id: int, number: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    # This turn and the next in one query: "Turn N+1" is linked only once it has a page.
    rows = {
        row.number: row
        for row in Turn.objects.filter(
            campaign=view.campaign, number__in=(number, number + 1)
        ).defer(*_TURN_HEAVY)
    }
    turn = rows.get(number)
    if turn is None:
        raise Http404("no such turn")
    battles = readable_battles(view, turn=turn)
    records = view.records(turn.log, number=turn.number)
    reading = turnlog.Reading(
        _side_names(view),
        battle_reasons(battles),
        battle_withdrawals(battles),
        battle_pieces(battles),
        event_tables=turnlog.event_tables(view.state.settings),
    )
    phases = turnlog.turn_phases(records, {b["key"]: b["id"] for b in battles}, reading)
    return render(
        request,
        "campaign/turn.html",
        page_context(
            view,
            turn=turn,
            phases=phases,
            battles=battles,
            **_adjustments_of(view, number),
            previous=number - 1 if number > 1 else None,
            following=number + 1 if number + 1 in rows else None,
            **_dice_context(view, turn),
        ),
    )


def _adjustments_of(view: CampaignView, number: int) -> dict[str, list[PublicAdjustment]]:
    """The GM's changes before turn ``number`` (in the state it began from), and those
    made during it, once its dice were rolled (they count from the next turn)."""
    shown = view.adjustments()
    return {
        "adjustments": [a for a in shown if a.before_turn == number and a.during_turn is None],
        "during": [a for a in shown if a.during_turn == number],
    }


def _dice_context(view: CampaignView, turn: Turn) -> dict[str, Any]:
    """The turn's commitment, and the check of its dice once it is played (the same check
    ``python -m rules verify`` makes of the TURN.json the page links to)."""
    row = commitments.commitment_row(view, turn.number)
    if row is None:
        return {"commitment": None, "verdict": None}
    seen = commitments.visible_commitment(view, row)
    return {
        "commitment": seen,
        "verdict": commitments.verify_played_turn(view, turn, row) if seen.played else None,
    }


urlpatterns = [
    path("campaigns/<int:campaign_id>/turns/", turn_list, name="turns"),
    path("campaigns/<int:campaign_id>/turns/<int:number>/", turn_detail, name="turn"),
]
