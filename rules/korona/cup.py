"""Reinforcements and the Fog of War cup (Old Breed South Pacific 16.2).

A force's reinforcements wait in a cup. Each tactical turn a side may draw one at random
(a die over the units left in the cup) and place it at once, one hex read as 3":
- during the enemy's move, when an enemy stand has just moved (its move is paused): in
  cover 3"-6" from that stand, within the side's Area of Control, closer to the side's
  own edge than the mover, not where the mover came from and not within 3" of any other
  enemy stand; placed unused and concealed, it may at once fire at the mover
  (opportunity fire);
- during the side's own move: in cover, within its Area of Control, within 9" of a
  friendly stand and at least 9" from every enemy stand, or else entering at its own
  table edge; the placement is its move for the turn.
Without the cup option (``fog_of_war_cup``), a drawn reinforcement enters at its own
edge in the side's move. The draw and the places are the kernel's, shared with Force on
Force (``rules.kernel.oldbreed``).
"""

from __future__ import annotations

from rules.kernel import oldbreed
from rules.korona.fire import fire, in_range
from rules.korona.state import BattleState, Force, Stand


def own_move(state: BattleState, force: Force) -> None:
    """At the start of the side's move: draw and place one reinforcement, if any wait."""
    in_cover = bool(state.options.get("fog_of_war_cup"))
    stand = oldbreed.draw_own(state, force, "own move", in_cover=in_cover)
    if stand is not None:
        stand.moved = True  # placing it was its move


def enemy_moved(state: BattleState, mover: Stand, origin: tuple[int, int]) -> None:
    """An enemy stand has just moved: the other side may draw and place in ambush."""
    if not state.options.get("fog_of_war_cup"):
        return
    stand = oldbreed.draw_in_ambush(state, mover, origin)
    if stand is None:
        return  # no place to ambush from that sees the mover: keep the draw for later
    visible, obscured = state.sees(stand, mover)
    weapon = stand.unit
    if (
        visible
        and weapon.fire_dice > 0
        and in_range(weapon, stand.distance(mover))
        and (not weapon.limbers or not stand.limbered)
    ):
        stand.hidden = False
        fire(
            state,
            side=stand.force.side,
            firer=stand.id,
            firer_type=weapon.name,
            weapon=weapon,
            target=mover,
            obscured=obscured,
            extra={"opportunity_fire": True},
        )
    stand.fired = True  # used: marked for opportunity fire whether or not it could shoot
