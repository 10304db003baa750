"""1.4 Unit cohesion, splitting and merging; 1.5 leaders.

Ruling: a unit is one stand, so its figures are always within cohesion of each other;
what remains of 1.4 is splitting a unit into elements and merging them again. The AI
never splits (a unit of 4 figures gains little by it); the functions serve hand-laid
battles and a GM.
"""

from __future__ import annotations

from rules.forceonforce import tables as t
from rules.forceonforce.fire import shift_die
from rules.forceonforce.state import BattleState, Unit
from rules.refusals import Refusal


class CohesionError(Refusal):
    pass


def split(state: BattleState, unit: Unit, figures: int) -> Unit:
    """Split ``figures`` healthy figures off ``unit`` at the start of its activation into a
    new element beside it. "Only one element of a unit may move and fire on the activation
    that the unit is split": the new element counts as activated."""
    if unit.activated:
        raise CohesionError("a unit splits at the start of its activation")
    if not 1 <= figures < unit.healthy:
        raise CohesionError(f"cannot split {figures} of {unit.healthy} healthy figures off")
    roster = unit.element_of or unit.id
    number = sum(1 for u in unit.force.units if u.element_of == roster) + 1
    element = Unit(f"{roster}.e{number}", unit.force, unit.stand_type, unit.report_type)
    element.element_of = roster
    element.healthy = figures
    element.leader = False  # the leader stays with the unit (1.5)
    unit.healthy -= figures
    element.x, element.y = unit.x, unit.y
    element.in_cover = unit.in_cover
    element.activated = True
    element.morale_shift = unit.morale_shift
    unit.force.units.append(element)
    unit.force.has_elements = True
    state.record("split", side=unit.force.side, stand=unit.id, element=element.id, dice=[],
                 figures=figures)  # fmt: skip
    return element


def merge(state: BattleState, keeper: Unit, joiner: Unit) -> None:
    """Merge ``joiner`` into ``keeper`` at the beginning of a turn: within cohesion
    distance (ruling: 2"), the same kind of troops. Both units of one force share Troop
    Quality and Morale here; a Shaken part's lower Morale goes with the majority of
    figures, the lower on an even split (1.4)."""
    if keeper.force is not joiner.force or keeper is joiner:
        raise CohesionError("only two units of one force merge")
    if not (keeper.fighting and joiner.fighting):
        raise CohesionError("both units must be on the table with healthy figures")
    if keeper.distance(joiner) > t.MERGE_DISTANCE_IN:
        raise CohesionError("units merge only within cohesion distance")
    if keeper.healthy > joiner.healthy:
        shift = keeper.morale_shift
    elif joiner.healthy > keeper.healthy:
        shift = joiner.morale_shift
    else:
        shift = min(keeper.morale_shift, joiner.morale_shift)
    keeper.morale_shift = shift
    keeper.healthy += joiner.healthy
    keeper.wounded_light += joiner.wounded_light
    keeper.pending += joiner.pending
    keeper.leader = keeper.leader or joiner.leader
    joiner.healthy = joiner.pending = 0
    joiner.merged_into = keeper.id
    state.record("merge", side=keeper.force.side, stand=keeper.id, joined=joiner.id, dice=[],
                 figures=keeper.healthy)  # fmt: skip


def leader_for(state: BattleState, unit: Unit) -> Unit | None:
    """1.5: the commander whose morale ``unit`` uses: in reach and in sight."""
    for other in unit.force.units:
        if (
            other.profile.leader
            and other is not unit
            and other.fighting
            and other.distance(unit) <= t.LEADER_REACH_IN
            and state.sees(other, unit)
        ):
            return other
    return None


def morale_die_for(state: BattleState, unit: Unit) -> int | None:
    """The Morale die ``unit`` checks with: its own, or its leader's (one shift better)."""
    own = unit.morale_die
    if own is None or unit.profile.leader:
        return shift_die(own, t.LEADER_MORALE_SHIFT) if own and unit.profile.leader else own
    leader = leader_for(state, unit)
    if leader is None or leader.morale_die is None:
        return own
    return max(own, shift_die(leader.morale_die, t.LEADER_MORALE_SHIFT) or own)
