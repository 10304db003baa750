"""After the battles: control of the areas."""

from __future__ import annotations

from rules.campaign.phases.common import TurnInPlay, record
from rules.campaign.state import CampaignState


def update_control(state: CampaignState) -> list[tuple[str, str | None, str]]:
    """An area belongs to the side that last held it alone with a fighting company."""
    changes = []
    for area in state.areas.values():
        sides = {c.side for c in state.companies_in(area.name, fighting=True)}
        if len(sides) == 1:
            side = sides.pop()
            if area.controller != side:
                changes.append((area.name, area.controller, side))
                area.controller = side
    return changes


def control_phase(turn: TurnInPlay) -> None:
    state = turn.state
    for area, before, after in update_control(state):
        record(
            turn.log,
            "control",
            "control",
            f"{state.sides[after].name} take control of {area}",
            side=after,
            target=area,
            outcome="control",
            previous=before,
        )
