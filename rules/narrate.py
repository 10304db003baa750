"""Plain words for the records of a battle log, for players and the command line."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from rules import names

# A stand's force by its id's letter, as a log with no sides named says it.
ROLES: Mapping[str, str] = {"a": "attacker", "d": "defender"}


def stand_sides(spec: Mapping[str, Any]) -> dict[str, str]:
    """The word a BATTLE.json's stands are named by, by their id's letter: each force's
    side as its adjective ({"a": "Japanese", "d": "Australian"}); the role ("attacker")
    for a force whose side the spec does not say."""
    sides = dict(ROLES)
    for letter, key in (("a", "attacker"), ("d", "defender")):
        force = spec.get(key)
        side = force.get("side") if isinstance(force, Mapping) else None
        if isinstance(side, str) and side:
            sides[letter] = names.side_adjective(side)
    return sides


def stand_name(stand_id: str, sides: Mapping[str, str] | None = None) -> str:
    """A stand in words: 'a.rifle_squad.3' -> 'Japanese rifle squad 3' with the battle's
    ``sides`` (``stand_sides``), 'attacker rifle squad 3' without."""
    force, _, rest = stand_id.partition(".")
    unit, _, number = rest.rpartition(".")
    side = (sides or ROLES).get(force, ROLES.get(force, force))
    return f"{side} {names.unit(unit)} {number}".strip()


# A force's id letter by its role, as the engines key forces ("attacker move").
_LETTERS: Mapping[str, str] = {role: letter for letter, role in ROLES.items()}


def _side_named(role: str, sides: Mapping[str, str] | None) -> str | None:
    """The side's adjective ("Japanese") for a role ("attacker"), or None when the
    battle's ``sides`` do not name it (the command line, a spec without sides)."""
    letter = _LETTERS.get(role)
    side = (sides or {}).get(letter or "")
    return side if letter and side and side != ROLES[letter] else None


def phase_name(phase: str, sides: Mapping[str, str] | None = None) -> str:
    """A phase as the pages name it: the engines' "attacker fire" is "Japanese fire" with
    the battle's ``sides`` (``stand_sides``); without them, and any phase of no side
    ("rally", "initiative"), as the engine wrote it."""
    role, _, rest = phase.partition(" ")
    side = _side_named(role, sides)
    return f"{side} {rest}" if side and rest else phase


def heading(r: Mapping[str, Any], sides: Mapping[str, str] | None = None) -> str:
    """A record's turn and phase, as its line opens: "T2 Japanese fire: ", "deployment: "."""
    phase = phase_name(str(r["phase"]), sides)
    return f"T{r['turn']} {phase}: " if r["turn"] else f"{phase}: "


def _dice(dice: list[int]) -> str:
    return " ".join(str(d) for d in dice) if dice else "no dice"


def _mods(mods: list[dict[str, Any]]) -> str:
    return ", ".join(f"{m['reason']} {m['value']:+d}" for m in mods) or "no modifiers"


def _fire(r: dict[str, Any], stand: Namer) -> str:
    who = stand(r["firer"]) if r["kind"] == "fire" else r["firer"]
    text = f"{who} fires at {stand(r['target'])}"
    if r["kind"] == "support":
        text += f" (called by {stand(r['called_by'])})"
    if "armour" in r:
        a = r["armour"]
        text += f": to hit {a['to_hit']} (4+ needed)"
        if a["penetration"]:
            total = sum(a["penetration"]) + a["attack"]
            text += (
                f", 2d6 {_dice(a['penetration'])} + {a['attack']} = {total} "
                f"against defence {a['defence']}"
            )
        return text + f": {'destroyed' if r['effect'] == 'killed' else 'no effect'}"
    if "defence_die" in r:  # Force on Force: firepower against defence, matched
        text += (
            f" ({r['action']}): {len(r['attack'])}d{r['attack_die']} {_dice(r['attack'])} "
            f"against {len(r['defence'])}d{r['defence_die']} {_dice(r['defence'])}"
            f" = {r['hits']} hit{'s' if r['hits'] != 1 else ''}"
        )
        if "morale" in r:
            m = r["morale"]
            text += f"; morale ({m['reason']}) d{m['die']} {_dice(m['faces'])}"
        return text + f": {r['effect']}"
    text += f": {_dice(r['dice'])}"
    if r["obscured"]:
        text += " (obscured, one die fewer)"
    text += f" = {r['hits']} hit{'s' if r['hits'] != 1 else ''}"
    if r["effect"] != "none":
        text += f": {r['effect']}"
    if r.get("impact_fuse"):
        text += " (impact fuse: knee mortars only pin in woods)"
    for caught in r.get("blast", ()):
        text += f"; blast: {stand(caught['stand'])} {caught['effect']}"
    return text


def _overwatch(r: dict[str, Any], stand: Namer) -> str:
    units = ", ".join(stand(u) for u in r["units"]) or "none"
    return f"{names.side_adjective(r['side'])} units on Overwatch: {units}"


# The words of the Force on Force records, by kind.
_FORCE_ON_FORCE: dict[str, Callable[[dict[str, Any], Namer], str]] = {
    "first_aid": lambda r, stand: (
        f"{stand(r['stand'])} first aid {_dice(r['dice'])}: {', '.join(r['results'])}"
    ),
    "initiative": lambda r, stand: f"initiative {_dice(r['dice'])}: {stand.force(r['winner'])}",
    "reaction": lambda r, stand: (
        f"{r['purpose']} test {stand(r['initiative_unit'])} v "
        f"{stand(r['reacting_unit'])}: {_dice(r['dice'])}, {stand(r['winner'])} first"
    ),
    "fog_of_war": lambda r, stand: (
        f"fog of war for {stand(r['stand'])}, d6 {_dice(r['dice'])}: {r['outcome']}"
    ),
    "overwatch": _overwatch,
    "split": lambda r, stand: (
        f"{stand(r['stand'])} splits off {stand(r['element'])} ({r['figures']} figures)"
    ),
    "merge": lambda r, stand: (
        f"{stand(r['joined'])} merges into {stand(r['stand'])} ({r['figures']} figures)"
    ),
    "tq_check": lambda r, stand: (
        f"{stand(r['stand'])} tests to {r['purpose']}: d{r['die']} {_dice(r['dice'])}"
        f" {'passed' if r['passed'] else 'failed'}"
    ),
    **dict.fromkeys(
        ("spot", "locate"),
        lambda r, stand: (
            f"{stand(r['spotter'])} looks for {stand(r['hidden_unit'])}: {_dice(r['dice'])}"
            f" {'spotted' if r['spotted'] else 'not spotted'}"
        ),
    ),
}


_STAND_ID = re.compile(r"\b[ad]\.[a-z_]+\.\d+\b")


def describe_record(r: dict[str, Any], sides: Mapping[str, str] | None = None) -> str:
    """One line of plain words for one log record, its stands named by their ``sides``
    (``stand_sides``: "Japanese rifle squad 3"; without, by their role: "attacker rifle
    squad 3"); a stand's id in free text (an assault's target, a reason) reads as the
    stand too."""
    return heading(r, sides) + record_words(r, sides)


def record_words(r: dict[str, Any], sides: Mapping[str, str] | None = None) -> str:
    """``describe_record``'s words without the heading it opens with (which names no
    stand: the turn and the phase), for a page that groups the lines under it."""
    namer = Namer(sides)
    return _STAND_ID.sub(lambda found: namer(found[0]), _words(r, namer))


class Namer:
    """Names a stand ("a.rifle_squad.3" -> "Japanese rifle squad 3") and a force by the
    battle's ``sides`` (``stand_sides``), or by their roles without them (the command
    line)."""

    def __init__(self, sides: Mapping[str, str] | None) -> None:
        self.sides = sides

    def __call__(self, stand_id: str) -> str:
        return stand_name(stand_id, self.sides)

    def side(self, role: str) -> str:
        """A force's side as its adjective, "Japanese"; its role without sides."""
        return _side_named(role, self.sides) or role

    def force(self, role: str) -> str:
        """A force by its side, "the Australians"; by its role, "defender", without sides."""
        side = _side_named(role, self.sides)
        return f"the {names.people(side)}" if side else role

    def wins(self, role: str) -> str:
        """'the Japanese win'; 'attacker wins' without sides."""
        side = _side_named(role, self.sides)
        return f"the {names.people(side)} win" if side else f"{role} wins"


def _words(r: dict[str, Any], stand: Namer) -> str:
    kind: str = r["kind"]
    words = _KINDS.get(kind)
    return kind if words is None else words(r, stand)


def _terrain(r: dict[str, Any], stand: Namer) -> str:
    col, row = r["square"]
    dice = r["dice"]
    text = f"square {col},{row}: 2d6 {dice[0]}+{dice[1]} = {names.landform(r['landform'])}"
    if len(dice) > 2:
        text += f", d6 {dice[2]} = {names.vegetation(r['vegetation'])}"
    return text + f"; {r['going']} going"


def _deploy(r: dict[str, Any], stand: Namer) -> str:
    hidden = f", {len(r['hidden'])} hidden" if r["hidden"] else ""
    return f"{len(r['positions'])} stands deployed{hidden}"


def _cup_draw(r: dict[str, Any], stand: Namer) -> str:
    roll = f"d{r['cup_size']} {_dice(r['dice'])}" if r["dice"] else "the last one, no die"
    return f"{stand(r['stand'])} is drawn from the cup of {r['cup_size']} ({r['when']}): {roll}"


def _assault(r: dict[str, Any], stand: Namer) -> str:
    who = ", ".join(stand(s) for s in r["attackers"])
    on = ", ".join(stand(s) for s in r["defenders"])
    text = f"{who} assault {on}"
    if r["rolls"]:
        parts = [f"{stand.side(key)} {_mods(mods)}" for key, mods in r["modifiers"].items()]
        rolls = "; ".join(f"{x['attacker']} v {x['defender']}" for x in r["rolls"])
        text += f": rolls {rolls} ({'; '.join(parts)}); totals " + ", ".join(
            f"{stand.side(k)} {v}" for k, v in r["totals"].items()
        )
    # The record's outcome, "attacker wins", from its fields: "the Japanese win".
    text += f": {stand.wins(r['winner'])}" + ("" if r["rolls"] else ": no one left to fight")
    if r["removed"]:
        text += "; removed " + ", ".join(stand(s) for s in r["removed"])
    return text


def _rally(r: dict[str, Any], stand: Namer) -> str:
    return (
        f"{stand(r['stand'])} ({r['status_before']}) rolls {_dice(r['dice'])} "
        f"({_mods(r['modifiers'])}) needing {r['target']}+: {r['outcome']}"
    )


def _outcome(r: dict[str, Any], stand: Namer) -> str:
    return str(r["outcome"])


# The words of each kind of record (without the turn and phase), by kind.
_KINDS: dict[str, Callable[[dict[str, Any], Namer], str]] = {
    "terrain": _terrain,
    "deploy": _deploy,
    "move": lambda r, stand: (
        f"{stand(r['stand'])} moves from {tuple(r['from'])} to {tuple(r['to'])} "
        f"({r['purpose']}, {r['going']} going)"
    ),
    "limber": lambda r, stand: f"{stand(r['stand'])} {r['outcome']}",
    "command": lambda r, stand: (
        f"{stand(r['stand'])}, {r['reason']}, rolls {_dice(r['dice'])} "
        f"needing {r['target']}+: {r['outcome']}"
    ),
    **dict.fromkeys(("fire", "support", "combat_event_fire"), _fire),
    "combat_event_check": lambda r, stand: (
        f"{stand(r['stand'])} fired a 1 first: d10 {_dice(r['dice'])}: {r['outcome']}"
    ),
    "combat_event": lambda r, stand: (
        f"{r['table']}, d6 {_dice(r['dice'])}: {r['text']} ({r['outcome']})"
    ),
    "cup_draw": _cup_draw,
    "cup_place": lambda r, stand: f"{stand(r['stand'])} is placed at {tuple(r['to'])}: {r['case']}",
    "caught": lambda r, stand: f"{stand(r['stand'])} {r['outcome']}: {r['reason']}",
    "assault": _assault,
    "rally": _rally,
    "withdraw": _outcome,
    "sniper": _outcome,
    **_FORCE_ON_FORCE,
    "end": lambda r, stand: f"{stand.wins(r['winner'])} ({str(r['reason']).replace('_', ' ')})",
}
