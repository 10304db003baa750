"""How a finished campaign ended, in a sentence from its end causes
(``Campaign.end_causes``), never from the engine's English: the players' pages
(``campaign.web.ending``), the emails and the game master's admin say it alike. A
finished campaign has no fog of war: nothing here is hidden from a side."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.models import Campaign
from rules.campaign.state import Settings

# A part of the sentence, and whether what follows it needs a comma first: a part that
# ends in a place set off by a comma ("lost their base, Port Murray") is closed by one,
# and a part with its own "and" is set off from the next, so each reads as one.
_Part = tuple[str, bool]


def _listed(parts: list[_Part]) -> _Part:
    """The parts as one: "A and B", "A, B and C"; "A, and B" when A needs its comma."""
    if len(parts) < 2:
        return parts[0] if parts else ("", False)
    *first, (before, needs_comma), (last, last_needs) = parts
    head = "".join(f"{text}, " for text, _ in first) + before
    return f"{head}{',' if needs_comma else ''} and {last}", last_needs


def _predicate(cause: Mapping[str, Any]) -> _Part | None:
    """What a cause says of its side, after the side's name."""
    kind = cause.get("kind")
    if kind == "base_lost":
        return f"lost their base, {cause.get('area')}", True
    if kind == "no_fighting_companies":
        return "had no fighting companies left", False
    return None


def _clauses(causes: list[Mapping[str, Any]], sides: Mapping[str, str]) -> list[_Part]:
    """One clause a side, naming it once for all its causes ("the Australians lost their
    base, Port Murray, and had no fighting companies left"), in the causes' order; then
    the turn limit's."""
    said: dict[str | None, list[_Part]] = {}  # by the side's key; None: the turn limit
    for cause in causes:
        if cause.get("kind") == "turn_limit":
            turns = cause.get("turns")
            up = "its one turn was up" if turns == 1 else f"the {turns} turns were up"
            said.setdefault(None, []).append((up, False))
        elif (predicate := _predicate(cause)) is not None:
            said.setdefault(str(cause.get("side")), []).append(predicate)
    clauses = []
    for key, parts in said.items():
        text, needs_comma = _listed(parts)
        if key is not None:
            text, needs_comma = f"the {sides.get(key, '')} {text}", needs_comma or len(parts) > 1
        clauses.append((text, needs_comma))
    return clauses


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
    clauses = _clauses(list(campaign.end_causes or []), sides)
    if not clauses:
        return f"{WHY_AS_WRITTEN}{campaign.end_reason}." if campaign.end_reason else ""
    when, _ = _listed(clauses)
    if settings.objective is None:
        return f"The campaign ended when {when}, with no objective to hold."
    holder = "They" if sides.get(campaign.winner or "") else "No side"
    return f"{holder} held {settings.objective} when {when}."
