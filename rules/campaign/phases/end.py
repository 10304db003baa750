"""The end of the turn: its number is played, and the campaign may end (a base held by
the enemy, a side with no fighting company, the turn limit); the side holding the
objective wins."""

from __future__ import annotations

from rules.campaign.phases.common import TurnInPlay, record
from rules.campaign.state import CampaignState


def _end_reasons(state: CampaignState) -> list[str]:
    reasons = []
    for key, side in state.sides.items():
        holder = state.areas[side.base].controller
        if holder is not None and holder != key:
            reasons.append(f"{side.name}' base {side.base} is held by the enemy")
        if not any(c.side == key and c.fighting for c in state.companies.values()):
            reasons.append(f"{side.name} have no fighting companies left")
    if state.turn >= state.settings.turn_limit:
        reasons.append(f"the turn limit ({state.settings.turn_limit}) is reached")
    return reasons


def end_phase(turn: TurnInPlay) -> None:
    state = turn.state
    state.turn = turn.number
    reasons = _end_reasons(state)
    if not reasons:
        return
    objective = state.settings.objective
    winner = state.areas[objective].controller if objective in state.areas else None
    state.finished = True
    state.winner = winner
    state.end_reason = "; ".join(reasons)
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
