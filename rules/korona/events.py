"""Combat Events (Old Breed South Pacific, 17.0), an option of either rule set.

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

from rules.korona.ai import value_of
from rules.korona.control import in_area_of_control
from rules.korona.fire import KILLED, effect_of_hits, fire
from rules.korona.state import OK, STATUS_NAMES, SUPPRESSED, BattleState, Force, Stand
from rules.units import UNIT_TYPES

# Squads and weapon teams: the stands whose fire can set off an event.
TRIGGERS = frozenset(
    {"rifle_squad", "hmg", "small_mortar", "medium_mortar", "at_gun", "heavy_artillery"}
)
EFFECTS = (
    "nothing",
    "pin_own_squad",
    "suppress_own_weapon",
    "rally_own",
    "return_lost_squad",
    "sniper_appears",
    "sniper_shot",
)

DEFAULT_COMBAT_EVENT_TABLE: dict[int, dict[str, str]] = {
    1: {
        "effect": "suppress_own_weapon",
        "text": "Ammunition runs low: one of your weapon teams is suppressed.",
    },
    2: {
        "effect": "pin_own_squad",
        "text": "A weapon jams at the worst moment: one of your squads is pinned.",
    },
    3: {
        "effect": "rally_own",
        "text": "Steady under fire: one of your pinned or suppressed stands rallies.",
    },
    4: {
        "effect": "return_lost_squad",
        "text": "Walking wounded: one of your lost squads rejoins near its commander "
        "(it still counts as lost).",
    },
    5: {"effect": "nothing", "text": "A lull in the firing."},
    6: {"effect": "nothing", "text": "Rain sweeps the position; nothing comes of it."},
}
DEFAULT_JAPANESE_EVENT_TABLE: dict[int, dict[str, str]] = {
    1: {
        "effect": "sniper_appears",
        "text": "A sniper tied into a tree reveals nothing yet: a hidden sniper appears.",
    },
    2: {"effect": "sniper_appears", "text": "A second sniper has crept forward unseen."},
    3: {"effect": "sniper_shot", "text": "A shot from the canopy: a sniper fires and vanishes."},
    4: {"effect": "rally_own", "text": "Jungle fighters: one Japanese stand rallies."},
    5: {
        "effect": "return_lost_squad",
        "text": "Stragglers rejoin: a lost Japanese squad returns (it still counts as lost).",
    },
    6: {"effect": "nothing", "text": "The jungle falls quiet."},
}

_PLACEMENT_RANGE_IN = 12  # an appearing sniper sets up within 12" of an enemy
_SNIPER_KEEP_AWAY_IN = 3  # and no nearer than 3" to any


def check_table(table: Any, name: str) -> list[str]:
    """Problems with an event table: it must give an entry for every face 1-6."""
    if not isinstance(table, dict):
        return [f"{name} must map the faces 1-6 to events"]
    problems = []
    faces = {str(face) for face in table}
    missing = sorted({str(face) for face in range(1, 7)} - faces)
    if missing or faces - {str(face) for face in range(1, 7)}:
        problems.append(f"{name} must have exactly the faces 1-6 (missing {missing or 'none'})")
    for face, entry in table.items():
        if not isinstance(entry, dict) or entry.get("effect") not in EFFECTS:
            problems.append(f"{name}[{face}] must name an effect: one of {', '.join(EFFECTS)}")
    return problems


def _table(state: BattleState, key: str, default: dict[int, dict[str, str]]) -> dict[int, Any]:
    given = state.options.get(key)
    return default if given is None else {int(face): entry for face, entry in given.items()}


def after_fire(state: BattleState, firer: Stand, record: dict[str, Any]) -> None:
    """Roll for a Combat Event after a squad's or weapon team's fire showed a 1 first."""
    dice = record["dice"]
    if not state.options.get("combat_events") or firer.unit.name not in TRIGGERS:
        return
    if not dice or dice[0] != 1:
        return
    die = state.roller.die(10)
    japanese = next((f for f in state.forces if f.side == "japanese"), None)
    if die == 1:
        roller, table, name = firer.force, "combat_event_table", "Combat Event Table"
    elif die == 2:
        roller, table, name = firer.force.enemy, "combat_event_table", "Combat Event Table"
    elif die == 3 and japanese is not None:
        roller, table, name = japanese, "japanese_event_table", "Japanese Event Table"
    else:
        state.record(
            "combat_event_check",
            side=firer.force.side,
            stand=firer.id,
            dice=[die],
            outcome="no event",
        )
        return
    state.record(
        "combat_event_check",
        side=firer.force.side,
        stand=firer.id,
        dice=[die],
        outcome=f"{roller.spec.name} rolls on the {name}",
    )
    default = (
        DEFAULT_COMBAT_EVENT_TABLE
        if table == "combat_event_table"
        else DEFAULT_JAPANESE_EVENT_TABLE
    )
    face = state.roller.d6()
    entry = _table(state, table, default)[face]
    outcome = _apply(state, roller, entry["effect"])
    state.record(
        "combat_event",
        side=roller.side,
        table=name,
        dice=[face],
        effect=entry["effect"],
        text=entry.get("text", ""),
        outcome=outcome,
    )


def _apply(state: BattleState, force: Force, effect: str) -> str:
    if effect == "pin_own_squad":
        return _worsen(force, [s for s in force.alive() if s.unit.name == "rifle_squad"], 1)
    if effect == "suppress_own_weapon":
        return _worsen(force, [s for s in force.alive() if s.unit.crew_served], 2)
    if effect == "rally_own":
        shaken = [s for s in force.alive() if s.status != OK]
        if not shaken:
            return "no stand to rally"
        best = max(shaken, key=lambda s: (s.status, _worth(s), s.id))
        before = best.status
        best.status = OK
        return f"{best.id} rallies from {STATUS_NAMES[before]}"
    if effect == "return_lost_squad":
        return _return_lost(state, force)
    if effect == "sniper_appears":
        return _sniper_appears(state, force)
    if effect == "sniper_shot":
        return _sniper_shot(state, force)
    return "no effect"


def _worth(stand: Stand) -> float:
    return value_of(stand)  # the AI's own weights: a side chooses as it plays


def _worsen(force: Force, candidates: list[Stand], hits: int) -> str:
    """The side must choose a stand if it can; it chooses the least harm: a stand the
    effect does not change first, then the least valuable, never a kill if avoidable."""
    if not candidates:
        return "no stand the event can strike"

    def harm(stand: Stand) -> tuple[int, float, str]:
        after = effect_of_hits(stand.status, hits)
        change = 2 if after == KILLED else (1 if after != stand.status else 0)
        return change, _worth(stand), stand.id

    chosen = min(candidates, key=harm)
    before = chosen.status
    after = effect_of_hits(before, hits)
    if after == KILLED:
        chosen.alive = False
        return f"{chosen.id} is killed (already {STATUS_NAMES[before]})"
    chosen.status = after
    return f"{chosen.id} is {STATUS_NAMES[after]}"


def _return_lost(state: BattleState, force: Force) -> str:
    lost = [s for s in force.stands if not s.alive and s.unit.name == "rifle_squad" and not s.extra]
    if not lost:
        return "no lost squad to bring back"
    stand = min(lost, key=lambda s: s.id)
    anchor = force.commander if force.commander and force.commander.alive else None
    living = force.alive()
    if anchor is None and not living:
        return "no one left to rejoin"
    ax, ay = (anchor.x, anchor.y) if anchor else (living[0].x, living[0].y)
    # Behind the anchor, toward the side's own edge, stepping back until the place is in
    # the side's Area of Control (16.1); at its own edge it always may rejoin.
    step = 2 if force.key == "attacker" else -2
    y = ay
    while True:
        y = min(max(y + step, 0), state.field.depth_in)
        if in_area_of_control(state, force, ax, y) or y in (0, state.field.depth_in):
            break
    stand.x, stand.y = ax, y
    stand.alive = True
    stand.status = OK
    stand.returned = True  # it still counts as lost for the end of the battle
    return f"{stand.id} rejoins at {stand.x},{stand.y}"


def _sniper_appears(state: BattleState, force: Force) -> str:
    """A hidden sniper, not on the roster: its loss is no loss, as it brought nothing."""
    enemies = [e for e in force.enemy.stands if e.alive]
    best = None
    for x in range(0, state.field.width_in + 1, 2):
        for y in range(0, state.field.depth_in + 1, 2):
            if not state.field.square_at(x, y).wooded:
                continue
            near = min((e.distance_to(x, y) for e in enemies), default=None)
            if near is None or not _SNIPER_KEEP_AWAY_IN <= near <= _PLACEMENT_RANGE_IN:
                continue
            if not in_area_of_control(state, force, x, y):
                continue  # placed units go within their side's Area of Control
            key = (near, y, x)
            if best is None or key < best:
                best = key
    if best is None:
        return "no woods within reach of the enemy: the sniper does not appear"
    _, y, x = best
    number = 1 + sum(1 for s in force.stands if s.unit.sniper)
    stand = Stand(f"{force.key[0]}.sniper.{number}", force, UNIT_TYPES["sniper"], "sniper")
    stand.x, stand.y = x, y
    stand.hidden = True
    stand.extra = True
    force.stands.append(stand)
    return f"{stand.id} appears, hidden, at {x},{y}"


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
