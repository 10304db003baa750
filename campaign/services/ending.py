"""How a finished campaign ended, in a sentence from its end causes
(``Campaign.end_causes``), never from the engine's English: the players' pages
(``campaign.web.ending``), the emails and the game master's admin say it alike. A
finished campaign has no fog of war: nothing here is hidden from a side."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.models import Campaign
from rules.campaign.state import Settings


def _listed(clauses: list[str]) -> str:
    if len(clauses) < 2:
        return "".join(clauses)
    return f"{', '.join(clauses[:-1])} and {clauses[-1]}"


def _clause(cause: Mapping[str, Any], sides: Mapping[str, str]) -> str | None:
    kind = cause.get("kind")
    side = sides.get(str(cause.get("side")), "")
    if kind == "turn_limit":
        turns = cause.get("turns")
        return "its one turn was up" if turns == 1 else f"the {turns} turns were up"
    if kind == "base_lost":
        return f"the {side} lost their base, {cause.get('area')}"
    if kind == "no_fighting_companies":
        return f"the {side} had no fighting companies left"
    return None


def outcome(campaign: Campaign, settings: Settings, sides: Mapping[str, str]) -> str:
    """Who won a finished campaign and why, in a sentence: "The Japanese won: they held
    Korona when the 8 turns were up." ``sides``: each side's name by its key. "" while
    the campaign goes on."""
    if campaign.status != Campaign.Status.FINISHED:
        return ""
    winner = sides.get(campaign.winner or "")
    won = f"The {winner} won" if winner else "Nobody won"
    reason = why(campaign, settings, sides)
    if not reason:
        return f"{won}."
    if reason.startswith(WHY_AS_WRITTEN):
        return f"{won}. {reason}"
    return f"{won}: {reason[0].lower()}{reason[1:]}"


def ended(campaign: Campaign, settings: Settings, sides: Mapping[str, str]) -> str:
    """The end of a finished campaign as the end's email and the game master's result
    message say it: "Korona has ended after 8 turns. The Japanese won: they held Korona
    when the 8 turns were up." "" while it goes on."""
    if campaign.status != Campaign.Status.FINISHED:
        return ""
    turns = f"{campaign.turn} turn{'' if campaign.turn == 1 else 's'}"
    return f"{campaign.name} has ended after {turns}. {outcome(campaign, settings, sides)}"


WHY_AS_WRITTEN = "Why it ended: "


def why(campaign: Campaign, settings: Settings, sides: Mapping[str, str]) -> str:
    """Why a finished campaign was won (or not), a sentence from its end causes: "They
    held Korona when the 8 turns were up."

    A campaign that ended before its causes were kept (or a scenario written as
    finished) has none: the reason as it was written then ("Why it ended: ..."), or ""."""
    clauses = [c for c in (_clause(cause, sides) for cause in campaign.end_causes or []) if c]
    if not clauses:
        return f"{WHY_AS_WRITTEN}{campaign.end_reason}." if campaign.end_reason else ""
    when = _listed(clauses)
    if settings.objective is None:
        return f"The campaign ended when {when}, with no objective to hold."
    holder = "They" if sides.get(campaign.winner or "") else "No side"
    return f"{holder} held {settings.objective} when {when}."
