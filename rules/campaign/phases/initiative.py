"""Phase 4: initiative. Each side rolls a d6, less one for each of its fighting
companies out of supply; the highest moves first, a tie is rolled again."""

from __future__ import annotations

from rules.campaign.phases.common import TurnInPlay, record
from rules.campaign.seeds import INITIATIVE
from rules.campaign.state import CampaignState

MAX_INITIATIVE_ROUNDS = 100


def _penalties(state: CampaignState, sides: list[str]) -> dict[str, int]:
    """Each side's fighting companies out of supply."""
    return {
        side: sum(
            1
            for c in state.companies.values()
            if c.side == side and c.fighting and c.in_supply is False
        )
        for side in sides
    }


def _round(
    turn: TurnInPlay,
    sides: list[str],
    dice: dict[str, int],
    streams: dict[str, str],
    penalties: dict[str, int],
) -> str | None:
    """Record one round of initiative dice; returns its winner, None on a tie."""
    state = turn.state
    totals = {side: dice[side] - penalties[side] for side in sides}
    best = max(totals.values())
    leaders = [side for side in sides if totals[side] == best]
    winner = leaders[0] if len(leaders) == 1 else None
    text = "; ".join(
        f"{state.sides[s].name} {dice[s]} - {penalties[s]} out of supply = {totals[s]}"
        for s in sides
    )
    record(
        turn.log,
        "initiative",
        "initiative",
        f"initiative: {text}: "
        + (f"{state.sides[winner].name} move first" if winner else "a tie, rolled again"),
        dice=[dice[s] for s in sides],
        dice_streams=[streams[s] for s in sides],
        modifiers=[
            {"reason": f"{s}: companies out of supply", "value": -penalties[s]}
            for s in sides
            if penalties[s]
        ],
        rolls={s: dice[s] for s in sides},
        totals=totals,
        outcome=winner or "tie",
    )
    return winner


def initiative_phase(turn: TurnInPlay) -> None:
    """Phase 4: who moves first this turn (``turn.first``)."""
    sides = sorted(turn.state.sides)
    # Not a side's own branch: with its seed a side would recompute a tied round's die.
    streams = {side: turn.turn_dice.stream(INITIATIVE, side) for side in sides}
    penalties = _penalties(turn.state, sides)
    names = {side: streams[side][1] for side in sides}
    for _ in range(MAX_INITIATIVE_ROUNDS):
        dice = {side: streams[side][0].d6() for side in sides}
        winner = _round(turn, sides, dice, names, penalties)
        if winner:
            turn.first = winner
            return
    turn.first = sides[0]
