"""Phases 1 and 2: the naval and aerial events. A d6 against the phase's trigger; on an
event, a second d6 picks the table's entry, whose effect one handler applies."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from rules import names as naming
from rules.campaign.phases.common import Events, TurnInPlay, _Map, record
from rules.campaign.seeds import PUBLIC
from rules.campaign.state import AirGroup, CampaignState

NO_IMPACT = "no impact in game terms"

# An effect's handler changes the map and says what happened, in plain words.
EffectHandler = Callable[[CampaignState, _Map, dict[str, Any], Events], str]


def _ship_returns(state: CampaignState, _: _Map, event: dict[str, Any], __: Events) -> str:
    back = [s for s in state.ships if s.side == event["side"] and not s.present]
    for ship in back:
        ship.present = True
    return f"{', '.join(s.name for s in back)} returns" if back else NO_IMPACT


def _ship_departs(state: CampaignState, _: _Map, event: dict[str, Any], events: Events) -> str:
    side = event["side"]
    gone = [s for s in state.ships if s.side == side and s.present]
    for ship in gone:
        ship.present = False
    events.no_supply.add(side)
    names = ", ".join(s.name for s in gone) or "the ship"
    return f"{names} departs: no {naming.side_adjective(side)} company is in supply this turn"


def _no_supply_support(_: CampaignState, __: _Map, event: dict[str, Any], events: Events) -> str:
    side = event["side"]
    events.no_support.add(side)
    return f"{naming.side_companies(side)} get no supply-company support this turn"


def _side_out_of_supply(_: CampaignState, __: _Map, event: dict[str, Any], events: Events) -> str:
    side = event["side"]
    events.no_supply.add(side)
    return f"no {naming.side_adjective(side)} company is in supply this turn"


def _air_of(state: CampaignState, event: dict[str, Any]) -> list[AirGroup]:
    return [g for g in state.air if g.side == event["side"]]


def _buffalos_lost(lost: int) -> str:
    # Read back by ``fewer_buffalos_lost``: the turn's records keep these words, and a
    # record carries no count of its own (one would change every record of a replay).
    return f"{lost} Buffalo{'s' if lost != 1 else ''} lost"


# ``_buffalos_lost``'s words, the count in them: what turns played long ago recorded too.
_BUFFALOS_LOST = re.compile(r"(?P<lost>\d+) Buffalos? lost")


def buffalos_lost_in(outcome: str) -> int | None:
    """The Buffalos an outcome of ``planes_lost`` says were lost ("2 Buffalos lost": 2);
    None for words ``_buffalos_lost`` never writes ("1 Buffalos lost", any other
    outcome)."""
    found = _BUFFALOS_LOST.fullmatch(outcome)
    if found is None:
        return None
    lost = int(found["lost"])
    return lost if _buffalos_lost(lost) == outcome else None


def fewer_buffalos_lost(entry: Mapping[str, Any], outcome: str) -> int | None:
    """The Buffalos an event lost when fewer were left than its table entry's count:
    every one the side had ("2 Buffalos lost" on "An air battle: two Buffalos have been
    lost." with 2 left of 3 asked). None for any other entry or outcome, the entry's
    count lost too: nothing more to say than the entry's text."""
    if entry.get("effect") != "planes_lost":
        return None
    lost = buffalos_lost_in(outcome)
    return lost if lost is not None and lost < int(entry.get("count", 1)) else None


def _planes_lost(state: CampaignState, _: _Map, event: dict[str, Any], __: Events) -> str:
    lost = 0
    for group in _air_of(state, event):
        taken = min(group.buffalos, event.get("count", 1) - lost)
        group.buffalos -= taken
        lost += taken
    return _buffalos_lost(lost)


def outcome_retells_entry(entry: Mapping[str, Any], outcome: str) -> bool:
    """Whether an event's outcome only says again what its table entry's text says, so
    that words for a reader may give the text alone ("An air battle: two Buffalos have
    been lost. 2 Buffalos lost."): the Buffalos lost are the entry's count. Fewer, as
    fewer were there, and the outcome says what the text does not.

    Any other outcome retells the entry when its words, read as words (case and stops
    aside), are in the text: "An attack on the Japanese HQ: no Japanese company is in
    supply." with "no Japanese company is in supply this turn" (an event's effect lasts
    the turn it is rolled, so "this turn" says nothing more). "HMAS Pitcairn departs:
    no Australian company is in supply this turn" after "the ship has had to depart"
    names the ship and the supply lost, and stays."""
    if entry.get("effect") == "planes_lost":
        return outcome == _buffalos_lost(int(entry.get("count", 1)))
    told = _as_words(outcome)
    if told.endswith(" this turn "):
        told = told.removesuffix("this turn ")
    return told.strip() != "" and told in _as_words(str(entry.get("text") or ""))


_WORD = re.compile(r"[^\W_]+")


def _as_words(text: str) -> str:
    """``text``'s words, lower case, one space between and around: " no japanese ... "."""
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def _planes_recalled(state: CampaignState, _: _Map, event: dict[str, Any], __: Events) -> str:
    for group in _air_of(state, event):
        group.buffalos = 0
    return "the Buffalos leave for good"


def _bomber_arrives(state: CampaignState, _: _Map, event: dict[str, Any], __: Events) -> str:
    air = _air_of(state, event)
    for group in air[:1]:
        if group.bombers < state.settings.max_bombers:
            group.bombers += 1
            return "a Hurricane-bomber arrives"
    return "no effect: the Hurricane-bomber is already here" if air else "no effect"


def _strafe_company(
    state: CampaignState, mapping: _Map, event: dict[str, Any], events: Events
) -> str:
    side = event["side"]
    enemy = state.enemy_of(side)
    candidates = [
        c
        for c in state.companies.values()
        if c.side == side and c.fighting and state.areas[c.area].track == event.get("track")
    ]
    if not candidates:
        return (
            f"no {naming.side_adjective(side)} fighting company on the "
            f"{event.get('track')}: no effect"
        )
    target = min(candidates, key=lambda c: (mapping.home(enemy, c.area), c.name))
    events.strafed.add(target.name)
    events.last_strafed = target.name
    return f"{target.name} is strafed and out of supply this turn"


EFFECTS: Mapping[str, EffectHandler] = {
    "ship_returns": _ship_returns,
    "ship_departs": _ship_departs,
    "no_supply_support": _no_supply_support,
    "side_out_of_supply": _side_out_of_supply,
    "planes_lost": _planes_lost,
    "planes_recalled": _planes_recalled,
    "bomber_arrives": _bomber_arrives,
    "strafe_company": _strafe_company,
}


def apply_event(state: CampaignState, mapping: _Map, event: dict[str, Any], events: Events) -> str:
    """Apply an event table's entry; an effect with no handler has no impact."""
    handler = EFFECTS.get(event["effect"])
    return NO_IMPACT if handler is None else handler(state, mapping, event, events)


def _events_phase(
    turn: TurnInPlay, phase: str, trigger: int, table: Mapping[int, dict[str, Any]]
) -> None:
    roller, stream = turn.turn_dice.stream(PUBLIC, phase)
    check = roller.d6()
    checked = {"dice": [check], "dice_streams": [stream], "target": trigger}
    if check < trigger:
        record(
            turn.log,
            phase,
            "event_check",
            f"{phase} events: rolled {check}, needing {trigger}: nothing happens",
            **checked,
            outcome="no event",
        )
        return
    face = roller.d6()
    event = table[face]
    turn.events.last_strafed = None
    outcome = apply_event(turn.state, turn.mapping, event, turn.events)
    record(
        turn.log,
        phase,
        "event_check",
        f"{phase} events: rolled {check}, needing {trigger}: an event",
        **checked,
        outcome="event",
    )
    record(
        turn.log,
        phase,
        "event",
        f"{phase} event {face}: {event.get('text', event['effect'])} ({outcome})",
        side=event.get("side"),
        # The strafed company, by name (the fog of war shows it to the enemy only in sight).
        company=turn.events.last_strafed,
        dice=[face],
        dice_streams=[stream],
        outcome=outcome,
        effect=event["effect"],
    )


def naval_phase(turn: TurnInPlay) -> None:
    """Phase 1: the naval events."""
    settings = turn.state.settings
    _events_phase(turn, "naval", settings.naval_trigger, settings.naval_table)


def aerial_phase(turn: TurnInPlay) -> None:
    """Phase 2: the aerial events."""
    settings = turn.state.settings
    _events_phase(turn, "aerial", settings.aerial_trigger, settings.aerial_table)
