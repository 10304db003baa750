"""Off-table support: one fire mission per side per fire phase, by zone and side.

Australians: heavy artillery in zones 1-2; in zones 6-7 air support, strafing by the
Buffalos (a die per plane, at most 3) or the Hurricane-bomber's 5-dice bombing instead.
Japanese: heavy artillery in zones 6-7. The mission is called by an unmoved,
unsuppressed FO (Australians) or commander (Japanese) who can see the target.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.korona.fire import fire
from rules.korona.state import SUPPRESSED, BattleState, Force, Stand
from rules.units import OFF_TABLE_ARTILLERY, UNIT_TYPES, UnitType

MAX_STRAFING_DICE = 3
# Zones where each side's off-table support reaches (rulings section 4).
SUPPORT_ZONES: dict[str, dict[str, tuple[int, ...]]] = {
    "australian": {"artillery": (1, 2), "air": (6, 7)},
    "japanese": {"artillery": (6, 7), "air": ()},
}


@dataclass(frozen=True, slots=True)
class Mission:
    kind: str  # artillery, strafing, bombing
    weapon: UnitType
    caller: Stand


def caller_of(force: Force) -> Stand | None:
    """The stand that may call a mission now: unmoved, unsuppressed, alive."""
    wanted = "forward_observer" if force.side == "australian" else "commander"
    for stand in force.stands:
        if (
            stand.unit.name == wanted
            and stand.alive
            and not stand.moved
            and stand.status != SUPPRESSED
        ):
            return stand
    return None


def available_mission(state: BattleState, force: Force) -> Mission | None:
    """What support this side could call this fire phase, ignoring targets."""
    caller = caller_of(force)
    if caller is None:
        return None
    zones = SUPPORT_ZONES[force.side]
    zone = state.spec.area.zone
    if zone in zones["artillery"]:
        return Mission("artillery", OFF_TABLE_ARTILLERY, caller)
    if zone in zones["air"]:
        support = state.spec.support
        if support.hurricane:
            return Mission("bombing", UNIT_TYPES["air_bombing"], caller)
        if support.buffalos > 0:
            dice = min(support.buffalos, MAX_STRAFING_DICE)
            return Mission("strafing", replace(UNIT_TYPES["air_strafing"], fire_dice=dice), caller)
    return None


def call_mission(
    state: BattleState, mission: Mission, target: Stand, obscured: bool
) -> dict[str, Any]:
    """Fire the mission at ``target``; the caller's own fire action is spent on it."""
    caller = mission.caller
    return fire(
        state,
        side=caller.force.side,
        firer=f"off-table {mission.kind}",
        firer_type=mission.weapon.name,
        weapon=mission.weapon,
        target=target,
        obscured=obscured,
        kind="support",
        extra={"mission": mission.kind, "called_by": caller.id},
    )
