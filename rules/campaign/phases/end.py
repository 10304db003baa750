"""The end of the turn: its number is played, and the campaign may end (a base held by
the enemy, a side with no fighting company, the turn limit); the side holding the
objective wins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.campaign.phases.common import TurnInPlay, record
from rules.campaign.state import CampaignState

EndKind = Literal["base_lost", "no_fighting_companies", "turn_limit"]


@dataclass(frozen=True, slots=True)
class EndCause:
    """One reason a campaign ends, as fields the pages word (never its English)."""

    kind: EndKind
    side: str | None = None  # the side that lost its base, or its last fighting company
    area: str | None = None  # the base it lost
    turns: int | None = None  # the turn limit reached


def end_causes(state: CampaignState) -> list[EndCause]:
    """Why the campaign ends after the turn ``state`` stands at, if it does: each side's
    base held by the enemy and each side with no fighting company (in the sides' order),
    then the turn limit reached. None: it goes on."""
    causes = []
    for key, side in state.sides.items():
        holder = state.areas[side.base].controller
        if holder is not None and holder != key:
            causes.append(EndCause("base_lost", side=key, area=side.base))
        if not any(c.side == key and c.fighting for c in state.companies.values()):
            causes.append(EndCause("no_fighting_companies", side=key))
    if state.turn >= state.settings.turn_limit:
        causes.append(EndCause("turn_limit", turns=state.settings.turn_limit))
    return causes


def _end_reasons(state: CampaignState) -> list[str]:
    reasons = []
    for cause in end_causes(state):
        if cause.kind == "turn_limit":
            reasons.append(f"the turn limit ({cause.turns}) is reached")
            continue
        side = state.sides[str(cause.side)]
        if cause.kind == "base_lost":
            reasons.append(f"{side.name}' base {side.base} is held by the enemy")
        else:
            reasons.append(f"{side.name} have no fighting companies left")
    return reasons


def end_reason_of(state: CampaignState) -> str:
    """Why the campaign ends after the turn ``state`` stands at, in the engine's words
    (``CampaignState.end_reason``, "the turn limit (8) is reached"); "" if it goes on."""
    return "; ".join(_end_reasons(state))


def end_phase(turn: TurnInPlay) -> None:
    state = turn.state
    state.turn = turn.number
    reason = end_reason_of(state)
    if not reason:
        return
    objective = state.settings.objective
    winner = state.areas[objective].controller if objective in state.areas else None
    state.finished = True
    state.winner = winner
    state.end_reason = reason
    who = state.sides[winner].name if winner else "nobody"
    record(
        turn.log,
        "end",
        "campaign_end",
        f"the campaign ends: {state.end_reason}. "
        f"{who} {'hold' if winner else 'holds'} {objective} and "
        f"{'win' if winner else 'wins'}.",
        side=winner,
        target=objective,
        outcome="ended",
        winner=winner,
        reason=state.end_reason,
    )
