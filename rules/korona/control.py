"""Area of Control (Old Breed South Pacific 16.1), used for placing units.

A place is in a side's Area of Control when it is closer to that side's Rout Edge (its
own table edge: y = 0 for the defender, the far edge for the attacker) than at least
two of its units (or than its sole remaining unit), and fewer than two enemy units are
closer to that same edge than it is. Units in contact still count. Distances to an edge
are straight across the table, in inches (the text's hexes read as 3").
"""

from __future__ import annotations

from rules.korona.state import ATTACKER, BattleState, Force


def edge_distance(state: BattleState, force: Force, y: float) -> float:
    """How far ``y`` is from ``force``'s own (rout) edge."""
    return state.field.depth_in - y if force.key == ATTACKER else y


def in_area_of_control(state: BattleState, force: Force, x: float, y: float) -> bool:
    here = edge_distance(state, force, y)
    friends = [edge_distance(state, force, s.y) for s in force.stands if s.alive]
    if not friends:
        return False
    behind_friends = sum(1 for d in friends if here < d)
    if behind_friends < min(2, len(friends)):
        return False
    enemies_nearer = sum(
        1 for s in force.enemy.stands if s.alive and edge_distance(state, force, s.y) < here
    )
    return enemies_nearer < 2
