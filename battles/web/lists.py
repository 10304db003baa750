"""The battles as the campaign's pages list them: a turn's battles (the turn list and a
turn's page) and an area's (the area page). Only those the reader may read, through
``CampaignView.battles``."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection

from battles.models import Battle
from battles.web import battleview
from campaign.models import Turn
from campaign.services.visibility import CampaignView
from rules import names, rulesets

# ``winner`` is the column the database keeps from the result's winner (``Battle.winner``);
# ``result__reason``, ``result__withdrawal`` and ``result__fit_to_fight`` are keys of the
# result (why the battle ended, why its loser withdrew if it did, and the strengths then
# if it was hopeless), ``result__losses`` and ``result__stands_present`` each force's
# counts by type (the report's table of the forces), not the result, whose every stand
# and die no list shows.
_BATTLE_LIST_FIELDS = (
    "id",
    "key",
    "turn_id",
    "attacker_side",
    "defender_side",
    "status",
    "mode",
    "area__name",
    "deadline",
    "winner",
    "result__reason",
    "result__withdrawal",
    "result__fit_to_fight",
    "result__losses",
    "result__stands_present",
    "ruleset",
)


def readable_battles(view: CampaignView, **filters: Any) -> list[dict[str, Any]]:
    """The battles the viewer may read, as small rows (no spec, result or log: only who
    won and why it ended, ``winner``, ``result__reason`` and ``result__withdrawal``), in
    the order the turns fought them, each
    with a label: its area, and its number when one area saw several ("Korona (battle
    2)"; "Korona, 1, Korona, 2" read as four things in a list); and ``result_in``, true
    of a battle whose result is in while another of its turn's (among these) still waits:
    "Korona (battle 1), Korona (battle 2) — waiting for the game master" read as if both
    waited."""
    rows = list(
        view.battles().filter(**filters).order_by("turn_id", "id").values(*_BATTLE_LIST_FIELDS)
    )
    waiting_turns = {row["turn_id"] for row in rows if row["status"] == Battle.Status.PENDING}
    for row in rows:
        parts = row["key"].split(":")
        row["label"] = row["area__name"] + (f" (battle {parts[2]})" if len(parts) > 2 else "")
        row["result_in"] = (
            row["status"] != Battle.Status.PENDING and row["turn_id"] in waiting_turns
        )
    return rows


def battle_records(
    view: CampaignView, turn_ids: Iterable[int], keys: Collection[str]
) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """The turns ``turn_ids``' numbers, by id, and their "battle" records (who fought
    each battle, the battles' own announcement in the turn's log) of the battles
    ``keys``, as the viewer may read them (``view.records``). One query, which reads out
    of each turn's log only its battle records: a turn's whole log (its every roll and
    supply check, some 20 KB a turn of Korona) is a hundred times what they hold, and a
    campaign played for months lists every turn it had battles in."""
    turn_ids = sorted(set(turn_ids))
    if not turn_ids:
        return {}, []
    table = Turn._meta.db_table
    if connection.vendor == "postgresql":
        records = (
            "LEFT JOIN LATERAL jsonb_array_elements(t.log) WITH ORDINALITY AS r(value, n)"
            " ON r.value ->> 'kind' = 'battle'"
        )
        order = "r.n"
    else:
        records = "LEFT JOIN json_each(t.log) AS r ON json_extract(r.value, '$.kind') = 'battle'"
        order = "r.key"
    sql = (
        f"SELECT t.id, t.number, r.value FROM {table} t {records}"
        f" WHERE t.campaign_id = %s AND t.id IN ({', '.join(['%s'] * len(turn_ids))})"
        f" ORDER BY t.number, {order}"
    )
    numbers: dict[int, int] = {}
    announced: dict[int, list[dict[str, Any]]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [view.campaign.pk, *turn_ids])
        for turn_id, number, value in cursor.fetchall():
            numbers[turn_id] = number
            found = announced.setdefault(turn_id, [])
            record = json.loads(value) if isinstance(value, str | bytes) else value
            if isinstance(record, dict) and record.get("battle") in keys:
                found.append(record)
    shown: list[dict[str, Any]] = []
    for turn_id, number in numbers.items():
        shown += view.records(announced[turn_id], number=number)
    return numbers, shown


def battle_reasons(rows: list[dict[str, Any]]) -> dict[str, str | None]:
    """Why each battle of ``readable_battles`` ended, by its key (the turn pages' words
    for a battle's result)."""
    return {row["key"]: row["result__reason"] for row in rows}


def battle_pieces(rows: list[dict[str, Any]]) -> dict[str, str]:
    """Each battle of ``readable_battles``'s rule set's word for a piece, by its key: the
    shares its reason speaks of ("a third of their units" in Force on Force)."""
    return {row["key"]: rulesets.piece(row["ruleset"]) for row in rows}


def battle_shares(rows: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """How many of its pieces each readable battle's loser lost, of how many it brought,
    by its key: "5 of 12" (the result's ``losses`` and ``stands_present``, reinforcements
    included, as the rules count them). A side reads its own battles in full, both
    forces' losses (rulings section 6: the report's table of the forces and the turn's
    lines of each company's losses show them to the same readers). No key for a battle
    not fought or whose result lacks the counts."""
    shares = {}
    for row in rows:
        loser = {"attacker": "defender", "defender": "attacker"}.get(row.get("winner") or "")
        result = {
            "losses": row.get("result__losses"),
            "stands_present": row.get("result__stands_present"),
        }
        if loser is not None and (count := battleview.loss_count(result, loser)):
            shares[row["key"]] = count
    return shares


def battle_withdrawals(rows: list[dict[str, Any]]) -> dict[str, str | None]:
    """Why the loser of each battle of ``readable_battles`` withdrew, by its key, in
    words (``names.withdrawal_words``): "" when it did not, when the result predates the
    field, or when the game master entered it from the table (a tabletop result says
    only who won)."""
    return {
        row["key"]: names.withdrawal_words(
            row["result__withdrawal"],
            row["result__fit_to_fight"],
            piece=rulesets.piece(row["ruleset"]),
        )
        for row in rows
    }


@dataclass(frozen=True, slots=True)
class BattleLine:
    battle_id: int
    turn: int
    attacker: str
    defender: str
    outcome: str
    attackers: str = ""  # the attacking companies by name: "1st Company"
    defenders: str = ""  # "C Company (militia) and B Company"
    number: int | None = None  # the battle's number in its area and turn, when several


# What an area's battle lines show, and no more: the winner from its column, and of the
# spec only each force's companies and name (``spec__attacker__companies`` and the like
# are keys of the spec, not the spec). A battle's result and log (some 50 KB a battle
# fought by the rules) are not read.
_BATTLE_LINE_FIELDS = (
    "id",
    "key",
    "turn__number",
    "attacker_side",
    "defender_side",
    "status",
    "mode",
    "winner",
    "spec__attacker__companies",
    "spec__attacker__name",
    "spec__defender__companies",
    "spec__defender__name",
)


def area_battle_lines(
    view: CampaignView,
    area_id: int,
    side_names: dict[str, str],
    *,
    named: Collection[str] | None = None,
) -> list[BattleLine]:
    """The battles the viewer may read that were fought in an area, oldest first, as its
    page lists them (``battle_line``). One query."""
    rows = (
        view.battles()
        .filter(area_id=area_id)
        .order_by("turn__number", "id")
        .values(*_BATTLE_LINE_FIELDS)
    )
    return [battle_line(row, side_names, named=named) for row in rows]


def _companies(row: dict[str, Any], role: str, named: Collection[str] | None) -> str:
    """The companies of a force, by name, from the battle's spec; "" for a side not in
    ``named`` (None: every side). The area page names only the reader's own: it lists
    the enemy companies there now as glimpses, without names, and a name beside them
    would say which glimpse had fought which battle."""
    side = row["attacker_side"] if role == "attacker" else row["defender_side"]
    if named is not None and side not in named:
        return ""
    companies = row[f"spec__{role}__companies"]
    listed = [str(c.get("name", "")) for c in companies or []]
    return names.join(names.by_name(listed)) if listed else str(row[f"spec__{role}__name"] or "")


def battle_line(
    row: dict[str, Any], side_names: dict[str, str], *, named: Collection[str] | None = None
) -> BattleLine:
    """One battle in an area's list (a row of ``_BATTLE_LINE_FIELDS``): who attacked
    whom, with the companies of the sides in ``named`` (None: every side's), and how it
    went; its number when the area saw several that turn ("Turn 4, battle 2": two lines
    of the same turn read the same otherwise, a walk-through found). A pending battle
    has no winner, whatever its row holds."""
    attacker = side_names.get(row["attacker_side"], row["attacker_side"])
    defender = side_names.get(row["defender_side"], row["defender_side"])
    pending = row["status"] == Battle.Status.PENDING
    winner = None if pending else row["winner"]
    if winner == "attacker":
        outcome = f"{attacker} won"
    elif winner == "defender":
        outcome = f"{defender} held"
    elif pending:
        outcome = "to be fought" if row["mode"] == "auto" else "waiting for the table"
    else:
        outcome = "drawn"
    parts = row["key"].split(":")
    return BattleLine(
        row["id"],
        row["turn__number"],
        attacker,
        defender,
        outcome,
        attackers=_companies(row, "attacker", named),
        defenders=_companies(row, "defender", named),
        number=int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None,
    )
