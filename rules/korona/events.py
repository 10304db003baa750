"""Combat Events (Old Breed South Pacific, 17.0) on Korona stands; the tables, the d10
and the places are shared with Force on Force in ``rules.oldbreed``.

When a squad's or weapon team's fire action shows a natural 1 on its first die, a d10 is
rolled after the fire is resolved: 1, the firer's side rolls on the Combat Event Table;
2, the other side does; 3, the Japanese roll on the Japanese Event Table (only with
Japanese units present); 4-10, nothing. The tables are data (a GM edits them; these are
our own entries). The side that rolls makes any choice an event offers, and must make
one if it can, even to its own harm. A unit brought back by an event still counts as
lost for the end of the battle.
"""

from __future__ import annotations

from typing import Any

from rules.kernel import oldbreed as kernel
from rules.korona.ai import value_of
from rules.korona.fire import KILLED, effect_of_hits, fire
from rules.korona.state import OK, STATUS_NAMES, SUPPRESSED, BattleState, Force, Stand
from rules.oldbreed import (
    DEFAULT_COMBAT_EVENT_TABLE,
    DEFAULT_JAPANESE_EVENT_TABLE,
    EFFECTS,
    TRIGGERS,
    EventOutcome,
    check_table,
    least_harm,
)
from rules.units import UNIT_TYPES

__all__ = [
    "DEFAULT_COMBAT_EVENT_TABLE",
    "DEFAULT_JAPANESE_EVENT_TABLE",
    "EFFECTS",
    "TRIGGERS",
    "after_fire",
    "check_table",
]


def after_fire(state: BattleState, firer: Stand, record: dict[str, Any]) -> None:
    """Roll for a Combat Event after a squad's or weapon team's fire showed a 1 first."""
    dice = record["dice"]
    kernel.after_fire(state, firer, dice[0] if dice else None, _EFFECTS)


def _pin_own_squad(state: BattleState, force: Force) -> str | EventOutcome:
    return _worsen(force, [s for s in force.alive() if s.unit.name == "rifle_squad"], 1)


def _suppress_own_weapon(state: BattleState, force: Force) -> str | EventOutcome:
    return _worsen(force, [s for s in force.alive() if s.unit.crew_served], 2)


def _rally_own(state: BattleState, force: Force) -> str | EventOutcome:
    shaken = [s for s in force.alive() if s.status != OK]
    if not shaken:
        return "no stand to rally"
    best = max(shaken, key=lambda s: (s.status, _worth(s), s.id))
    before = best.status
    best.status = OK
    return EventOutcome(f"{best.id} rallies from {STATUS_NAMES[before]}", best.id, "ok")


def _worth(stand: Stand) -> float:
    return value_of(stand)  # the AI's own weights: a side chooses as it plays


def _worsen(force: Force, candidates: list[Stand], hits: int) -> str | EventOutcome:
    """The side must choose a stand if it can; it chooses the least harm: a stand the
    effect does not change first, then the least valuable, never a kill if avoidable."""
    if not candidates:
        return "no stand the event can strike"

    def harm(stand: Stand) -> tuple[int, float, str]:
        after = effect_of_hits(stand.status, hits)
        change = 2 if after == KILLED else (1 if after != stand.status else 0)
        return change, _worth(stand), stand.id

    chosen = least_harm(candidates, harm)
    assert chosen is not None
    before = chosen.status
    after = effect_of_hits(before, hits)
    if after == KILLED:
        chosen.alive = False
        words = f"{chosen.id} is killed (already {STATUS_NAMES[before]})"
        return EventOutcome(words, chosen.id, "killed")
    chosen.status = after
    return EventOutcome(f"{chosen.id} is {STATUS_NAMES[after]}", chosen.id, STATUS_NAMES[after])


def _return_lost_squad(state: BattleState, force: Force) -> str | EventOutcome:
    lost = [s for s in force.stands if not s.alive and s.unit.name == "rifle_squad" and not s.extra]
    if not lost:
        return "no lost squad to bring back"
    stand = min(lost, key=lambda s: s.id)
    # It rejoins its own company's commander (rulings section 4), else the force's.
    anchor = force.commander_of(stand) or (
        force.commander if force.commander and force.commander.alive else None
    )
    living = force.alive()
    if anchor is None and not living:
        return "no one left to rejoin"
    anchor_at = (anchor.x, anchor.y) if anchor else (living[0].x, living[0].y)
    outcome = kernel.rejoin(state, force, stand, anchor_at)
    stand.alive = True
    stand.status = OK
    return outcome


def _sniper_appears(state: BattleState, force: Force) -> str | EventOutcome:
    def sniper(stand_id: str, at: tuple[int, int]) -> Stand:
        stand = Stand(stand_id, force, "sniper", "sniper")
        stand.x, stand.y = at
        return stand

    return kernel.sniper_appears(state, force, sniper)


def _sniper_shot(state: BattleState, force: Force) -> str:
    """One sniper shot at the most valuable enemy stand in the open, from nowhere."""
    targets = [e for e in force.enemy.stands if e.alive and not e.hidden and not e.unit.armoured]
    if not targets:
        return "no target for the sniper"
    target = max(targets, key=lambda s: (_worth(s), s.status == SUPPRESSED, s.id))
    record = fire(
        state,
        side=force.side,
        firer="event sniper",
        firer_type="sniper",
        weapon=UNIT_TYPES["sniper"],
        target=target,
        obscured=False,
        kind="combat_event_fire",
    )
    return f"a sniper fires at {target.id}: {record['effect']}"


_EFFECTS = kernel.effect_table(globals())  # _pin_own_squad and the rest, above
