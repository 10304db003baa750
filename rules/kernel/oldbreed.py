"""The Old Breed options (Old Breed South Pacific 16.1, 16.2 and 17.0) applied to any rule
set's pieces: Area of Control of a force as it stands, the Fog of War cup's draw and
placing, and the Combat Event roll after a fire. The rules themselves (the tables, the
d10, the places) are in ``rules.oldbreed``; what an event's effect does to a piece is the
rule set's own, given here as a table of effects."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules import oldbreed
from rules.kernel.state import ATTACKER, BattleState, Force

State = BattleState[Any]
# What a Combat Event's effect does to the force that rolled it; says what came of it.
Effect = Callable[[Any, Any], "str | oldbreed.EventOutcome"]


def area_of_control(state: State, force: Force[Any]) -> Callable[[float, float], bool]:
    """16.1 for ``force`` as its pieces in play and the enemy's stand now."""
    return oldbreed.area_of_control(
        state.field, force.key == ATTACKER, force.positions(), force.enemy.positions()
    )


# --- Combat Events (17.0) ---------------------------------------------------------------


def after_fire(
    state: State, firer: Any, first_die: int | None, effects: Mapping[str, Effect]
) -> None:
    """Roll for a Combat Event after a squad's or weapon team's fire showed a natural 1 on
    its first die; ``effects`` (by name) make an entry happen to the side that rolled it."""
    force = firer.force
    if not state.options.get("combat_events") or force.type_of(firer) not in oldbreed.TRIGGERS:
        return
    if first_die != 1:
        return

    def apply(rolling: Any, effect: str) -> str | oldbreed.EventOutcome:
        handler = effects.get(effect)
        return "no effect" if handler is None else handler(state, rolling)

    oldbreed.combat_event(
        dice=state.roller,
        record=state.record,
        options=state.options,
        firer=firer.id,
        firer_force=force,
        other_force=force.enemy,
        japanese=state.japanese(),
        apply=apply,
    )


def sniper_appears(
    state: State, force: Force[Any], make: Callable[[str, tuple[int, int]], Any]
) -> str | oldbreed.EventOutcome:
    """A hidden sniper, not on the roster: its loss is no loss, as it brought nothing.
    ``make`` makes the rule set's sniper of an id at a place; it is set here, hidden."""
    place = oldbreed.sniper_place(
        state.field, force.enemy.positions(), area_of_control(state, force)
    )
    if place is None:
        return "no woods within reach of the enemy: the sniper does not appear"
    number = 1 + sum(1 for p in force.on_table() if force.type_of(p) == "sniper")
    piece = make(f"{force.key[0]}.sniper.{number}", place)
    piece.hidden = True
    piece.extra = True
    force.on_table().append(piece)
    words = f"{piece.id} appears, hidden, at {piece.x},{piece.y}"
    return oldbreed.EventOutcome(words, piece.id, "ok", to=place, hidden=True)


def rejoin(
    state: State, force: Force[Any], piece: Any, anchor: tuple[int, int]
) -> oldbreed.EventOutcome:
    """A lost squad rejoins behind ``anchor``, in its side's Area of Control (the rule set
    makes it whole again)."""
    aoc = area_of_control(state, force)
    piece.x, piece.y = oldbreed.rejoin_place(state.field, force.key == ATTACKER, anchor, aoc)
    piece.returned = True  # it still counts as lost for the end of the battle
    words = f"{piece.id} rejoins at {piece.x},{piece.y}"
    return oldbreed.EventOutcome(words, piece.id, "ok", to=(piece.x, piece.y))


def effect_table(namespace: Mapping[str, Any]) -> dict[str, Effect]:
    """A rule set's event effects by name, from its module's ``namespace``: each effect of
    ``rules.oldbreed.EFFECTS`` but "nothing" is the function named for it after an
    underscore (``_rally_own``)."""
    missing = [e for e in oldbreed.EFFECTS if e != "nothing" and f"_{e}" not in namespace]
    if missing:
        raise LookupError(f"no function for the event effects {', '.join(missing)}")
    return {e: namespace[f"_{e}"] for e in oldbreed.EFFECTS if e != "nothing"}


# --- the Fog of War cup (16.2) ----------------------------------------------------------


def may_draw(state: State, force: Force[Any]) -> bool:
    return bool(force.cup) and force.key not in state.cup_drawn


def _draw(state: State, force: Force[Any], when: str) -> Any:
    piece = oldbreed.draw(state.roller, state.record, force.cup, side=force.side,
                          name=lambda p: (p.id, force.type_of(p)), when=when)  # fmt: skip
    state.cup_drawn.add(force.key)
    return piece


def _place(state: State, force: Force[Any], piece: Any, at: tuple[int, int], case: str) -> None:
    piece.x, piece.y = at
    force.on_table().append(piece)
    oldbreed.record_place(state.record, side=force.side, unit_id=piece.id,
                          unit_type=force.type_of(piece), x=at[0], y=at[1], case=case)  # fmt: skip


def draw_own(state: State, force: Force[Any], when: str, *, in_cover: bool) -> Any | None:
    """At the start of the side's own phase: draw and place one piece, if any wait (None
    if not). ``in_cover``: placed in cover within the side's Area of Control where there
    is such a place; else, or without it, it enters at its own table edge."""
    if not may_draw(state, force):
        return None
    place = None
    if in_cover:
        place = oldbreed.own_phase_place(
            state.field,
            force.positions(),
            force.enemy.positions(),
            area_of_control(state, force),
        )
    piece = _draw(state, force, when)
    if place is not None:
        _place(state, force, piece, place, "in cover within its Area of Control")
    else:
        edge = oldbreed.edge_entry(state.field, force.key == ATTACKER, force.positions())
        _place(state, force, piece, edge, "enters at its own table edge")
    return piece


def draw_in_ambush(state: State, mover: Any, origin: tuple[int, int]) -> Any | None:
    """An enemy piece has just moved from ``origin``: the other side may draw and place one
    in ambush (the mover's move paused), concealed. None: no draw, or no place to ambush
    from that sees the mover (the draw is kept)."""
    force = mover.force.enemy
    if not may_draw(state, force):
        return None
    others = mover.force
    place = oldbreed.ambush_place(
        state.field,
        force.key == ATTACKER,
        (mover.x, mover.y),
        origin,
        [(p.x, p.y) for p in others.on_table() if others.in_play(p) and p is not mover],
        force.positions(),
        area_of_control(state, force),
    )
    if place is None:
        return None
    piece = _draw(state, force, "enemy move")
    _place(state, force, piece, place, f"in ambush, {mover.id}'s move paused")
    piece.hidden = True  # concealed until it fires
    return piece
