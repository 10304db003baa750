"""Korona's one naming helper: every word a player reads about units, sides and counts.

Plain Python (the turn rules, the narration and the pages all call it). No raw identifier
reaches a player: ``rifle_squad`` is "rifle squad", ``hmg`` is "HMG", ``at_gun`` is
"AT gun"; counts agree ("1 rifle squad", "3 rifle squads"); the article follows the
sound ("an Australian company", "a Japanese company", "an HMG"); a side's key gives its
adjective ("Australian") whatever plural name the scenario gave it ("Australians").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from rules.units import STAND_TYPES

# Unit types (rules.units.STAND_TYPES) as players say them: (one, several).
UNIT_NAMES: dict[str, tuple[str, str]] = {
    "commander": ("commander", "commanders"),
    "forward_observer": ("forward observer", "forward observers"),
    "sniper": ("sniper", "snipers"),
    "rifle_squad": ("rifle squad", "rifle squads"),
    "hmg": ("HMG", "HMGs"),
    "small_mortar": ("small mortar", "small mortars"),
    "medium_mortar": ("medium mortar", "medium mortars"),
    "at_gun": ("AT gun", "AT guns"),
    "heavy_artillery": ("heavy artillery piece", "heavy artillery pieces"),
    "wheeled_vehicle": ("wheeled vehicle", "wheeled vehicles"),
    "tracked_vehicle": ("tracked vehicle", "tracked vehicles"),
    "light_tank": ("light tank", "light tanks"),
    "medium_tank": ("medium tank", "medium tanks"),
    "heavy_tank": ("heavy tank", "heavy tanks"),
    "carrier": ("carrier", "carriers"),
}

# Side keys (rules.campaign.state.SIDE_KEYS) as adjectives and as a people.
SIDE_ADJECTIVES = {"australian": "Australian", "japanese": "Japanese"}

# Initial letters and initialisms read with a vowel sound: "an HMG", "an 8th Company".
_VOWEL_SOUND_INITIALISMS = ("HMG", "FO", "MG", "LMG", "RAAF", "SNLF", "AT", "8", "11", "18")


def unit(key: str, count: int = 1) -> str:
    """A unit type in words, singular for 1 (and -1), plural otherwise."""
    one, several = UNIT_NAMES.get(key, (key.replace("_", " "), key.replace("_", " ") + "s"))
    return one if abs(count) == 1 else several


def count(n: int, key: str) -> str:
    """'1 rifle squad', '3 rifle squads', '0 HMGs'."""
    return f"{n} {unit(key, n)}"


_UNIT_RANKS = {key: rank for rank, key in enumerate(STAND_TYPES)}


def unit_rank(key: str) -> tuple[int, str]:
    """A unit type's place in the units' own order, the order the rules define them in
    (``rules.units``): the commander, the forward observer, the sniper, the rifle squads,
    then the support weapons, the vehicles and the carriers; a type the rules do not
    know after them all, by name. A sort key: a company's stands read back from
    PostgreSQL's jsonb come in jsonb's order (shortest key first), not the file's."""
    return (_UNIT_RANKS.get(key, len(_UNIT_RANKS)), key)


def in_unit_order(counts: Mapping[str, int]) -> dict[str, int]:
    """The counts in the units' own order (``unit_rank``), whatever the mapping's: for a
    list a reader reads ('1 commander, 9 rifle squads and 1 HMG')."""
    return {key: counts[key] for key in sorted(counts, key=unit_rank)}


def stands(counts: Mapping[str, int], *, zero: str = "nothing") -> str:
    """Stand counts in words, in the mapping's order: '3 rifle squads and 1 HMG' (a turn
    lists what a company regains in the order supply gives it back; a list of stands
    read back from the database goes through ``in_unit_order`` first)."""
    parts = [count(n, key) for key, n in counts.items() if n]
    return join(parts) if parts else zero


def join(parts: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [p for p in parts if p]
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def by_name(companies: Iterable[str]) -> list[str]:
    """Company names in the order a reader looks for them: by name, a number by its
    value ("2nd Company" before "10th Company", both before "A Company"). A force's own
    order (its strongest company first, which leads it) read as no order at all: "1st
    Company, 3rd Company and 2nd Company"."""
    return sorted(companies, key=_name_key)


def _name_key(name: str) -> tuple[tuple[int, int, str], ...]:
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
        for part in re.split(r"(\d+)", name)
        if part
    )


def as_line(words: str) -> str:
    """Words that stand as a line of their own, read as a sentence: from a capital letter
    ("an enemy company (Japanese): stands adjusted" -> "An enemy company ..."), the rest
    as written (a name inside keeps its own letters)."""
    return words[:1].upper() + words[1:]


def owners(side_name: str) -> str:
    """A side's name before what it owns: "the Australians'", "the Japanese"."""
    return f"the {side_name}'" if side_name.endswith("s") else f"the {side_name}"


def force_of_side(force: str, side_name: str, role: str | None = None) -> str:
    """A force ("1st Company and 2nd Company") named with its side before it, and its role
    after it when given: "the Japanese 1st Company", "the Australians' A Company,
    defending,", "the Australians' C Company (militia)". One form for every force, as the
    battle report's outcome and the admin's lists name them: a side in brackets after the
    name ("B Company (Australians)") read beside "the Australians' C Company (militia)"
    (whose name has brackets of its own) as two ways of saying one thing."""
    return f"{owners(side_name)} {force}" + (f", {role}," if role else "")


def aircraft(buffalos: int, bombers: int) -> str:
    """A side's planes, leaving out a kind it has none of: '3 Buffalos', '2 Buffalos and
    1 Hurricane-bomber', 'no aircraft' ("0 Hurricane-bombers" read as a count to watch)."""
    parts = [
        f"{buffalos} Buffalo{'s' if buffalos != 1 else ''}" if buffalos else "",
        f"{bombers} Hurricane-bomber{'s' if bombers != 1 else ''}" if bombers else "",
    ]
    return join(parts) or "no aircraft"


def article(phrase: str) -> str:
    """The phrase with 'a' or 'an' before it: 'an Australian company', 'an HMG',
    'a Japanese company', 'a unit'."""
    first = phrase.split(" ", 1)[0]
    if first.startswith(_VOWEL_SOUND_INITIALISMS) and (first.isupper() or first[0].isdigit()):
        return f"an {phrase}"
    letter = first[:1].lower()
    vowel = letter in "aeio" or (letter == "u" and not first.lower().startswith("uni"))
    return f"{'an' if vowel else 'a'} {phrase}"


def side_adjective(key: str) -> str:
    """'australian' -> 'Australian', whatever the scenario calls the side."""
    return SIDE_ADJECTIVES.get(key, key.replace("_", " ").capitalize())


def people(adjective: str) -> str:
    """A side's people from its adjective: 'Australian' -> 'Australians', 'Japanese' as
    it is."""
    return adjective if adjective.endswith(("ese", "s", "sh", "ch")) else f"{adjective}s"


def side_companies(key: str, n: int | None = None) -> str:
    """'Australian companies', '1 Australian company', '2 Japanese companies'."""
    noun = "company" if n == 1 else "companies"
    return f"{side_adjective(key)} {noun}" if n is None else f"{n} {side_adjective(key)} {noun}"


def several(names: str) -> bool:
    """Does a force's name ("2nd Company and 3rd Company") name more than one company?"""
    return " and " in names or ", " in names


def verb(subject: str, singular: str, plural: str) -> str:
    """The verb agreeing with a force's name: '2nd Company attacks', 'A and B attack'."""
    return plural if several(subject) else singular


# --- campaign and battle settings as the GM and the players read them ------------------

RULESET_NAMES = {"korona": "Korona (WWII in the Pacific)", "force_on_force": "Force on Force"}
BATTLE_MODE_NAMES = {
    "auto": "fought by the rules at once",
    "tabletop": "fought on the table (the game master enters each result)",
}
UNENTERED_TABLETOP_NAMES = {
    "wait": "waits for the game master's result",
    "auto": "is fought by the rules",
}
# Why a battle ended (a result's ``reason``).
BATTLE_END_NAMES = {
    "a_third_lost": "the loser lost a third of its stands",
    "turn_limit": "the turn limit: the smaller share lost wins",
    "withdrew": "the loser withdrew",
    "entered": "entered by the game master from the table",
}


# Why a side withdrew of its own accord (a result's ``withdrawal``,
# rules.ending.WITHDRAWALS), after "the Japanese withdrew". Worded from the battle's own
# facts, which its report shows in full to the same two sides (rulings section 6).
WITHDRAWAL_NAMES = {
    "hopeless": "from a hopeless position: they faced more than three times their "
    "fighting strength, or had none left fit to fight",
    "beaten_by_the_clock": "beaten by the clock: attacking, they could not reach the enemy "
    "to assault in the turns left, and would have lost at the turn limit",
}


def withdrawal_words(
    withdrawal: str | None, fit_to_fight: Any = None, *, piece: str = "stand"
) -> str:
    """Why a side withdrew, after "the Japanese withdrew" ("" for no cause the pages
    know). A hopeless position says which of its two reasons applied when the result
    has the strengths then (``fit_to_fight``: the loser's and the winner's), counted in
    the rule set's ``piece`` (``rules.rulesets.piece``: a Korona "stand", a Force on
    Force "unit"): "from a hopeless position: they had 9 stands fit to fight against 35,
    more than three times as many";
    "... they had no stand left fit to fight". Without them, both reasons, as before."""
    words = WITHDRAWAL_NAMES.get(str(withdrawal or ""), "")
    if withdrawal != "hopeless" or not _two_counts(fit_to_fight):
        return words
    ours, theirs = fit_to_fight
    if ours == 0:
        return f"from a hopeless position: they had no {piece} left fit to fight"
    pieces = piece if ours == 1 else f"{piece}s"
    return (
        f"from a hopeless position: they had {ours} {pieces} fit to fight against {theirs}, "
        "more than three times as many"
    )


def _two_counts(value: Any) -> bool:
    return (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value)
    )


def words(key: str | None, names: Mapping[str, str] | None = None, *, none: str = "none") -> str:
    """A stored key in words: from ``names`` if it is there, else with its underscores
    read as spaces ('force_on_force' is never shown as it is)."""
    if key is None or key == "":
        return none
    if names and key in names:
        return names[key]
    return str(key).replace("_", " ")


def ruleset(key: str) -> str:
    """'force_on_force' -> 'Force on Force'."""
    return words(key, RULESET_NAMES)


def battle_mode(key: str) -> str:
    """'tabletop' -> 'fought on the table (the game master enters each result)'."""
    return words(key, BATTLE_MODE_NAMES)


def battle_end(reason: str | None) -> str:
    """A battle result's reason: 'a_third_lost' -> 'the loser lost a third of its stands'."""
    return words(reason, BATTLE_END_NAMES, none="not fought yet")


# An area's vegetation (the scenario's word) as the battle's ground reads it.
# A battlefield square's landform and vegetation (rules.battlefield's keys), as the
# battle pages' key and the set-up's terrain rolls both name them.
LANDFORM_NAMES = {
    "flat": "flat",
    "hill": "hill",
    "low_ridge": "low ridge",
    "high_ridge": "high ridge",
    "steep_low_ridge": "steep low ridge",
    "steep_high_ridge": "steep high ridge",
    "mud_rocks_swamp": "mud/rocks/swamp",
    "river_creek": "river/creek",
}
VEGETATION_NAMES = {"none": "no woods", "light_woods": "light woods", "heavy_woods": "heavy woods"}


def landform(key: str) -> str:
    """'river_creek' -> 'river/creek'."""
    return words(key, LANDFORM_NAMES)


def vegetation(key: str) -> str:
    """'none' -> 'no woods'."""
    return words(key, VEGETATION_NAMES)


AREA_VEGETATION_NAMES = {"light": "light woods"}


def area_vegetation(key: str | None) -> str:
    """An area's vegetation: 'light' -> 'light woods'; 'jungle' and 'clearing' as they are."""
    return words(key, AREA_VEGETATION_NAMES, none="none")


def side(key: str | None, *, none: str = "nobody") -> str:
    """A side's key as its adjective, or ``none``: 'japanese' -> 'Japanese'."""
    return none if not key else side_adjective(key)


def ordinal(n: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th', 22 -> '22nd'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
