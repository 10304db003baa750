"""Area of Control (Old Breed South Pacific 16.1) for the Korona engine's stands; the rule
itself is in ``rules.oldbreed``.

A place is in a side's Area of Control when it is closer to that side's Rout Edge (its
own table edge: y = 0 for the defender, the far edge for the attacker) than at least
two of its units (or than its sole remaining unit), and fewer than two enemy units are
closer to that same edge than it is. Units in contact still count. Distances to an edge
are straight across the table, in inches (the text's hexes read as 3").
"""

from __future__ import annotations

from collections.abc import Callable

from rules import oldbreed
from rules.kernel.oldbreed import area_of_control
from rules.korona.state import ATTACKER, BattleState, Force

__all__ = ["area_of_control", "edge_distance", "in_area_of_control"]


def edge_distance(state: BattleState, force: Force, y: float) -> float:
    """How far ``y`` is from ``force``'s own (rout) edge."""
    return oldbreed.edge_distance(state.field, force.key == ATTACKER, y)


def in_area_of_control(state: BattleState, force: Force, x: float, y: float) -> bool:
    test: Callable[[float, float], bool] = area_of_control(state, force)
    return test(x, y)
