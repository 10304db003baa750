"""What a battle sheet says of the rules in force and of the off-table support, in words,
from a BATTLE.json: the rule-set-specific parts each rule set supplies (``rules.rulesets``:
its own option lines, the die its Combat Events read, its support missions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.korona.support import MAX_STRAFING_DICE, SUPPORT_ZONES
from rules.units import OFF_TABLE_ARTILLERY, UNIT_TYPES


def korona_rules(merged: dict[str, Any]) -> list[tuple[str, str]]:
    """The Korona options of its own (taken out of ``merged``): the impact fuse."""
    fuse = merged.pop("impact_fuse", True)
    return [
        (
            "Impact fuse",
            # By the force tables' name for them, the scenario's "knee mortars" beside it
            # (the sheet listed "Small mortar" and spoke of "knee mortars", the walk-through).
            "on: the Japanese small mortars (knee mortars) can only pin troops in jungle or woods"
            if fuse
            else "off: the Japanese small mortars (knee mortars) fire as any other small mortar",
        )
    ]


def no_rules_of_its_own(merged: dict[str, Any]) -> list[tuple[str, str]]:
    return []


def old_breed_rules(merged: dict[str, Any], first_die: str) -> list[tuple[str, str]]:
    """The Old Breed options (either rule set), taken out of ``merged``."""
    rules: list[tuple[str, str]] = []
    events = merged.pop("combat_events", False)
    tables = {
        "Combat Event Table": merged.pop("combat_event_table", None),
        "Japanese Event Table": merged.pop("japanese_event_table", None),
    }
    if events:
        text = (
            f"on: a squad's or weapon team's fire showing a 1 on {first_die} rolls d10: "
            "1 the firer's side rolls on the Combat Event Table, 2 the other side does, "
            "3 the Japanese Event Table, 4-10 nothing"
        )
        rules.append(("Combat Events (Old Breed)", text))
        for name, table in tables.items():
            if table:
                # The shipped entries are sentences: their full stops go, or the list
                # reads "suppressed.; 2: ...".
                entries = "; ".join(
                    f"{face}: {(entry.get('text') or entry.get('effect')).rstrip('.')}"
                    for face, entry in sorted(table.items(), key=lambda kv: int(kv[0]))
                )
                rules.append((name, entries))
    else:
        rules.append(("Combat Events (Old Breed)", "off"))
    cup = merged.pop("fog_of_war_cup", False)
    rules.append(
        (
            "Fog of War cup (Old Breed)",
            "on: reinforcements go into a cup; each turn a side may draw one at random "
            'and place it as 16.2 says (1 hex = 3")'
            if cup
            else "off",
        )
    )
    return rules


def korona_support(spec: Mapping[str, Any], side: str) -> tuple[list[str], bool]:
    """The missions ``side`` may call in this battle's zone (rules/korona/support.py), and
    whether any can be called."""
    zone = int(spec["area"]["zone"])
    support = spec.get("support") or {}
    zones = SUPPORT_ZONES.get(side, {"artillery": (), "air": ()})
    missions: list[str] = []
    if zone in zones["artillery"]:
        missions.append(f"heavy artillery ({OFF_TABLE_ARTILLERY.fire_dice} dice)")
    if zone in zones["air"]:
        buffalos = int(support.get("buffalos", 0))
        if support.get("hurricane"):
            dice = UNIT_TYPES["air_bombing"].fire_dice
            missions.append(f"the Hurricane-bomber's bombing ({dice} dice)")
        elif buffalos > 0:
            dice = min(buffalos, MAX_STRAFING_DICE)
            missions.append(
                f"strafing by {buffalos} Buffalo{'s' if buffalos != 1 else ''} "
                f"({dice} {'die' if dice == 1 else 'dice'})"
            )
    available = bool(missions)
    if not missions:
        reach = [
            f"{kind} in zones {'-'.join(str(z) for z in zs)}" for kind, zs in zones.items() if zs
        ]
        none_left = (
            " (air support reaches here, but no planes are left)" if (zone in zones["air"]) else ""
        )
        missions.append(
            f"none in zone {zone}{none_left}" + (f"; {', '.join(reach)}" if reach else "")
        )
    return missions, available


def force_on_force_support(spec: Mapping[str, Any], side: str) -> tuple[list[str], bool]:
    return ["none: the Force on Force rules here use no off-table support"], False
