"""The players' reports: the turn history, a turn's every roll and the campaign's
battles (a battle's report and sheet are the battles' own pages, ``battles.web.pages``).

Every page reads the campaign through a ``CampaignView`` (fog of war in one place): a
turn shows only the records ``view.records`` allows, a list of battles only those
``view.battles`` gives (``readable_battles``), and a battle only when
``battles.services.reading.battle_open`` says so (404 otherwise, as for a stranger).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_safe

from battles.models import Battle
from battles.services.reading import CorrectionMark, result_corrections, turn_corrections
from battles.web.lists import (
    battle_pieces,
    battle_reasons,
    battle_records,
    battle_shares,
    battle_withdrawals,
    readable_battles,
)
from campaign.models import PLAYED_EVENT_TABLES, Turn
from campaign.services import commitments
from campaign.services.visibility import CampaignView, PublicAdjustment
from campaign.web import turnlog
from campaign.web.common import campaign_view, login_required, page_context
from rules import names as rule_names

# The big JSON columns a list does not need.
_TURN_HEAVY = ("start_state", "report", "report_text")


def _side_names(view: CampaignView) -> dict[str, str]:
    return {key: side.name for key, side in view.state.sides.items()}


@login_required
@require_safe
def turn_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    turns = list(
        Turn.objects.filter(campaign=view.campaign)
        .defer(*_TURN_HEAVY, "log")
        .annotate(**PLAYED_EVENT_TABLES)
        .order_by("-number")
    )
    summed = summary_records(view.campaign.pk)
    battles: dict[int, list[dict[str, Any]]] = defaultdict(list)
    readable = readable_battles(view)
    for row in readable:
        battles[row["turn_id"]].append(row)
    reasons, withdrawals = battle_reasons(readable), battle_withdrawals(readable)
    pieces, shares = battle_pieces(readable), battle_shares(readable)
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
    for turn in turns:
        records = view.records(summed.get(turn.pk, []), number=turn.number)
        tables = turnlog.played_tables(turn, view.state.settings)
        of_turn = battles.get(turn.pk, [])
        rows.append(
            {
                "turn": turn,
                "summary": turnlog.turn_summary(
                    records, names, reasons, withdrawals, pieces, tables=tables, shares=shares
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


def summary_records(campaign_id: int) -> dict[int, list[dict[str, Any]]]:
    """The records each turn of the campaign is summed up from (``turnlog.SUMMARY_KINDS``),
    by the turn's id, in its log's order. One query, which reads out of each turn's log
    only those records: a turn's whole log (its every roll, supply check and move, some
    20 KB a turn of Korona) is many times what they hold, and the list shows every turn
    (the Battles page reads its battle records so: ``battle_records``). The fog of war
    judges each record on its own (``view.records``), so the records left out change
    nothing of what a reader reads."""
    table = Turn._meta.db_table
    kinds = ", ".join(["%s"] * len(turnlog.SUMMARY_KINDS))
    if connection.vendor == "postgresql":
        records = (
            "JOIN LATERAL jsonb_array_elements(t.log) WITH ORDINALITY AS r(value, n)"
            f" ON r.value ->> 'kind' IN ({kinds})"
        )
        order = "r.n"
    else:
        records = f"JOIN json_each(t.log) AS r ON json_extract(r.value, '$.kind') IN ({kinds})"
        order = "r.key"
    sql = (
        f"SELECT t.id, r.value FROM {table} t {records}"
        f" WHERE t.campaign_id = %s ORDER BY t.id, {order}"
    )
    found: dict[int, list[dict[str, Any]]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [*turnlog.SUMMARY_KINDS, campaign_id])
        for turn_id, value in cursor.fetchall():
            record = json.loads(value) if isinstance(value, str | bytes) else value
            if isinstance(record, dict):
                found.setdefault(turn_id, []).append(record)
    return found


@login_required
@require_safe
def turn_detail(request: HttpRequest, campaign_id: int, number: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    # This turn and the next in one query: "Turn N+1" is linked only once it has a page.
    rows = {
        row.number: row
        for row in Turn.objects.filter(campaign=view.campaign, number__in=(number, number + 1))
        .defer(*_TURN_HEAVY)
        .annotate(**PLAYED_EVENT_TABLES)
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
        event_tables=turnlog.played_tables(turn, view.state.settings),
        shares=battle_shares(battles),
    )
    phases = turnlog.turn_phases(records, {b["key"]: b["id"] for b in battles}, reading)
    corrections = turn_corrections(view, battles).get(number, [])
    _mark_corrected(phases, corrections)
    unread = [mark for mark in corrections if mark.battle_id is None]
    return render(
        request,
        "campaign/turn.html",
        page_context(
            view,
            turn=turn,
            phases=phases,
            battles=battles,
            corrected={mark.battle_id for mark in corrections if mark.battle_id},
            # A correction is made before the next turn is played (or while this one
            # waits): its line is on this page, the next turn's, or the turns page.
            unread_corrections=unread,
            **_adjustments_of(view, number),
            previous=number - 1 if number > 1 else None,
            following=number + 1 if number + 1 in rows else None,
            **_dice_context(view, turn),
        ),
    )


def _mark_corrected(phases: list[turnlog.TurnPhase], marks: list[CorrectionMark]) -> None:
    """Each corrected battle's mark on the line of its result, after the losses it
    gave (its last line, should it have none)."""
    by_key = {mark.battle_key: mark for mark in marks if mark.battle_key}
    for phase in phases:
        last = {line.battle_key: i for i, line in enumerate(phase.lines) if line.battle_key}
        for i, line in enumerate(phase.lines):
            if line.battle_key and line.kind == "battle_result":
                last[line.battle_key] = i
        for key, index in last.items():
            if key in by_key:
                phase.lines[index] = replace(phase.lines[index], corrected=by_key[key])


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


# --- the campaign's battles ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListedBattle:
    """A battle in the campaign's list: where, who attacked whom, how it ended."""

    id: int
    label: str  # its area, and its number when the area saw several: "Oivi (battle 2)"
    attack: str  # "B Company (Australians) attacked 1st Company (Japanese)"
    won: str  # "The Japanese won: ..."; "" while it waits to be fought
    waiting: str  # while it waits: "table" (the GM enters its result) or "rules"; else ""
    deadline: datetime | None  # the GM's deadline for a tabletop result
    corrected: datetime | None = None  # when the GM corrected its result from the table


@dataclass(frozen=True, slots=True)
class TurnBattles:
    number: int
    battles: list[ListedBattle]


@login_required
@require_safe
def battle_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every battle the reader may read (``readable_battles``, the gate of every list of
    battles), newest turn first and, within a turn, in the order the turn fought them
    (its turn page's), each linked to its report. Who fought comes from the battle's own
    record in its turn's log, read through ``view.records`` as on the turn pages, and
    nothing else of the logs (``battle_records``)."""
    view = campaign_view(request, campaign_id)
    rows = readable_battles(view)
    numbers, records = battle_records(
        view, (row["turn_id"] for row in rows), {row["key"] for row in rows}
    )
    names = _side_names(view)
    reading = turnlog.Reading(
        names,
        battle_reasons(rows),
        battle_withdrawals(rows),
        battle_pieces(rows),
        shares=battle_shares(rows),
    ).with_records(records)
    # Only a result entered from the table is ever corrected: no query for the others.
    entered = [row["id"] for row in rows if row["status"] == Battle.Status.ENTERED]
    corrected = result_corrections(view.campaign.pk, entered) if entered else {}
    by_turn: dict[int, list[ListedBattle]] = defaultdict(list)
    for row in rows:
        listed = _listed_battle(row, reading)
        if row["id"] in corrected:
            listed = replace(listed, corrected=corrected[row["id"]].created_at)
        by_turn[numbers[row["turn_id"]]].append(listed)
    return render(
        request,
        "campaign/battles.html",
        page_context(
            view,
            turns=[TurnBattles(n, by_turn[n]) for n in sorted(by_turn, reverse=True)],
            tally=_tally(rows, names),
        ),
    )


def _listed_battle(row: dict[str, Any], reading: turnlog.Reading) -> ListedBattle:
    record = {
        "battle": row["key"],
        "winner": row["winner"],
        "attacker_side": row["attacker_side"],
        "defender_side": row["defender_side"],
    }
    pending = row["status"] == Battle.Status.PENDING
    return ListedBattle(
        id=row["id"],
        label=row["label"],
        attack=turnlog.attack_words(record, reading),
        won="" if pending else turnlog.won_words(record, reading),
        waiting=("table" if row["mode"] == "tabletop" else "rules") if pending else "",
        deadline=row["deadline"],
    )


def _tally(rows: list[dict[str, Any]], side_names: dict[str, str]) -> str:
    """The battles listed, in a sentence: "5 battles: the Australians won 2 and the
    Japanese won 2; 1 is still to be fought." Every side the campaign has, in its order,
    "none" for a side that won none; with none decided yet, "2 battles, all still to be
    fought"."""
    if not rows:
        return ""
    won: dict[str, int] = dict.fromkeys(side_names, 0)
    waiting = 0
    for row in rows:
        if row["status"] == Battle.Status.PENDING:
            waiting += 1
            continue
        side = row.get(f"{row['winner']}_side")
        if side in won:
            won[side] += 1
    count = f"{len(rows)} battle{'s' if len(rows) != 1 else ''}"
    if waiting == len(rows):
        return f"{count}, {'all ' if waiting > 1 else ''}still to be fought."
    words = f"{count}: " + rule_names.join(
        f"the {side_names[side]} won {n or 'none'}" for side, n in won.items()
    )
    if waiting:
        words += f"; {waiting} {'is' if waiting == 1 else 'are'} still to be fought"
    return words + "."


urlpatterns = [
    path("campaigns/<int:campaign_id>/battles/", battle_list, name="battles"),
    path("campaigns/<int:campaign_id>/turns/", turn_list, name="turns"),
    path("campaigns/<int:campaign_id>/turns/<int:number>/", turn_detail, name="turn"),
]
