"""The battles as the campaign's pages list them: a turn's battles (the turn list and a
turn's page) and an area's (the area page). Only those the reader may read, through
``CampaignView.battles``."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from battles.models import Battle
from campaign.services.visibility import CampaignView
from rules import names, rulesets

# ``result__winner``, ``result__reason``, ``result__withdrawal`` and
# ``result__fit_to_fight`` are keys of the result (who won, why the battle ended, why its
# loser withdrew if it did, and the strengths then if it was hopeless), not the result.
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
    "result__winner",
    "result__reason",
    "result__withdrawal",
    "result__fit_to_fight",
    "ruleset",
)


def readable_battles(view: CampaignView, **filters: Any) -> list[dict[str, Any]]:
    """The battles the viewer may read, as small rows (no spec, result or log: only who
    won and why it ended, ``result__winner``, ``result__reason`` and
    ``result__withdrawal``), in the order the turns fought them, each
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


def battle_reasons(rows: list[dict[str, Any]]) -> dict[str, str | None]:
    """Why each battle of ``readable_battles`` ended, by its key (the turn pages' words
    for a battle's result)."""
    return {row["key"]: row["result__reason"] for row in rows}


def battle_pieces(rows: list[dict[str, Any]]) -> dict[str, str]:
    """Each battle of ``readable_battles``'s rule set's word for a piece, by its key: the
    shares its reason speaks of ("a third of their units" in Force on Force)."""
    return {row["key"]: rulesets.piece(row["ruleset"]) for row in rows}


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
    battle: Battle
    turn: int
    attacker: str
    defender: str
    outcome: str
    attackers: str = ""  # the attacking companies by name: "1st Company"
    defenders: str = ""  # "C Company (militia) and B Company"
    number: int | None = None  # the battle's number in its area and turn, when several


def _companies(battle: Battle, role: str, named: Collection[str] | None) -> str:
    """The companies of a force, by name, from the battle's spec; "" for a side not in
    ``named`` (None: every side). The area page names only the reader's own: it lists
    the enemy companies there now as glimpses, without names, and a name beside them
    would say which glimpse had fought which battle."""
    side = battle.attacker_side if role == "attacker" else battle.defender_side
    if named is not None and side not in named:
        return ""
    force = (battle.spec or {}).get(role) or {}
    listed = [str(c.get("name", "")) for c in force.get("companies") or []]
    return names.join(names.by_name(listed)) if listed else str(force.get("name", ""))


def battle_line(
    battle: Battle, side_names: dict[str, str], *, named: Collection[str] | None = None
) -> BattleLine:
    """One battle in an area's list: who attacked whom, with the companies of the sides
    in ``named`` (None: every side's), and how it went; its number when the area saw
    several that turn ("Turn 4, battle 2": two lines of the same turn read the same
    otherwise, a walk-through found)."""
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
    parts = battle.key.split(":")
    return BattleLine(
        battle,
        battle.turn.number,
        attacker,
        defender,
        outcome,
        attackers=_companies(battle, "attacker", named),
        defenders=_companies(battle, "defender", named),
        number=int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None,
    )
