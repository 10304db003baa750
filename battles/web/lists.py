"""The battles as the campaign's pages list them: a turn's battles (the turn list and a
turn's page) and an area's (the area page). Only those the reader may read, through
``CampaignView.battles``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battles.models import Battle
from campaign.services.visibility import CampaignView

# ``result__reason`` and ``result__withdrawal`` are keys of the result (why the battle
# ended, and why its loser withdrew if it did), not the result.
_BATTLE_LIST_FIELDS = (
    "id",
    "key",
    "turn_id",
    "status",
    "mode",
    "area__name",
    "deadline",
    "result__reason",
    "result__withdrawal",
)


def readable_battles(view: CampaignView, **filters: Any) -> list[dict[str, Any]]:
    """The battles the viewer may read, as small rows (no spec, result or log: only why
    it ended, ``result__reason`` and ``result__withdrawal``), each
    with a label: its area, and its number when one area saw several ("Korona (battle
    2)"; "Korona, 1, Korona, 2" read as four things in a list)."""
    rows = list(
        view.battles().filter(**filters).order_by("turn_id", "id").values(*_BATTLE_LIST_FIELDS)
    )
    for row in rows:
        parts = row["key"].split(":")
        row["label"] = row["area__name"] + (f" (battle {parts[2]})" if len(parts) > 2 else "")
    return rows


def battle_reasons(rows: list[dict[str, Any]]) -> dict[str, str | None]:
    """Why each battle of ``readable_battles`` ended, by its key (the turn pages' words
    for a battle's result)."""
    return {row["key"]: row["result__reason"] for row in rows}


def battle_withdrawals(rows: list[dict[str, Any]]) -> dict[str, str | None]:
    """Why the loser of each battle of ``readable_battles`` withdrew, by its key: None
    when it did not, when the result predates the field, or when the game master entered
    it from the table (a tabletop result says only who won)."""
    return {row["key"]: row["result__withdrawal"] for row in rows}


@dataclass(frozen=True, slots=True)
class BattleLine:
    battle: Battle
    turn: int
    attacker: str
    defender: str
    outcome: str


def battle_line(battle: Battle, side_names: dict[str, str]) -> BattleLine:
    """One battle in an area's list: who attacked whom, and how it went."""
    attacker = side_names.get(battle.attacker_side, battle.attacker_side)
    defender = side_names.get(battle.defender_side, battle.defender_side)
    winner = (battle.result or {}).get("winner") if battle.status != "pending" else None
    if winner == "attacker":
        outcome = f"{attacker} won"
    elif winner == "defender":
        outcome = f"{defender} held"
    elif battle.status == Battle.Status.PENDING:
        outcome = "to be fought" if battle.mode == "auto" else "waiting for the table"
    else:
        outcome = "drawn"
    return BattleLine(battle, battle.turn.number, attacker, defender, outcome)
