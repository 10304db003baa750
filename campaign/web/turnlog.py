"""A campaign turn's log as the turn pages show it: phase by phase, every roll in words.

The rules write each record's ``text`` (rules/campaign/turn.py) with its dice, modifiers
and target, e.g. "B Company: supply roll 3 +1 (supply company) = 4 against distance 4 to
Port Murray: out of supply"; ``record_words`` keeps those words and adds what a player
also needs from the record's fields (how long a company has been out of supply). Which
records a viewer reads is decided before, by ``CampaignView.records``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rules import names
from rules.campaign.phases.events import fewer_buffalos_lost, outcome_retells_entry
from rules.campaign.state import Settings

if TYPE_CHECKING:
    from battles.services.reading import CorrectionMark

PHASE_TITLES = {
    "naval": "1. Naval events",
    "aerial": "2. Aerial events",
    "supply": "3. Supply",
    "initiative": "4. Initiative",
    "movement": "5. Orders and movement",
    "battles": "6. Battles",
    "control": "Control",
    "end": "The end of the campaign",
}


# The line of a battle that links to its report: where it is announced (one link a battle;
# its result, a few lines on, linked it a second time).
_LINKED = ("battle",)


def _signed(modifiers: Iterable[Mapping[str, Any]]) -> str:
    return "".join(f" {m['value']:+d} ({m['reason']})" for m in modifiers)


def fallback_words(record: Mapping[str, Any]) -> str:
    """Words built from the fields alone, for a record that carries no ``text``."""
    who = record.get("company") or record.get("side") or record.get("phase", "")
    dice = record.get("dice") or []
    words = f"{who}: {record.get('kind', '').replace('_', ' ')}"
    if dice:
        words += f" rolled {' '.join(str(d) for d in dice)}{_signed(record.get('modifiers', []))}"
    if record.get("target") is not None:
        words += f" against {record['target']}"
    if record.get("outcome"):
        words += f": {record['outcome']}"
    return words


@dataclass(frozen=True, slots=True)
class Reading:
    """What a page knows beside the records to put them in words: the sides' names
    (key to name) and why each battle the reader may read ended (battle key to its
    result's ``reason``, from the battle's row: the record of its result does not carry
    it)."""

    side_names: Mapping[str, str] = field(default_factory=dict)
    reasons: Mapping[str, str | None] = field(default_factory=dict)
    # Battle key to why its loser withdrew, in words (``names.withdrawal_words`` of its
    # result's ``withdrawal`` and ``fit_to_fight``), from the same rows as ``reasons``:
    # "", None or no key when it did not or the result does not say.
    withdrawals: Mapping[str, str | None] = field(default_factory=dict)
    # Battle key to its rule set's word for a piece ("stand", a Force on Force "unit"),
    # for the shares its reason speaks of; no key: a Korona "stand".
    pieces: Mapping[str, str] = field(default_factory=dict)
    # Battle key to its companies by role ("attacker", "defender"), from the battle's
    # own record ("battle at Oivi: ..."), which shows to the same readers as its result.
    forces: Mapping[str, Mapping[str, Sequence[str]]] = field(default_factory=dict)
    # Company name to its supply roll's verdict this turn ("in supply", "out of supply"),
    # from the turn's supply records: only fighting companies roll, so a company the
    # records were read for and that is not here is a supply company. None: no records
    # were read, nothing is known.
    supply: Mapping[str, str] | None = None
    # The campaign's event tables by phase ("naval", "aerial"), face to entry
    # (``event_tables``): an event's outcome that only retells its entry's text is left
    # out. Empty: every outcome is said.
    event_tables: Mapping[str, Mapping[int, Mapping[str, Any]]] = field(default_factory=dict)
    # Battle key to how many of its pieces its loser lost, of how many it brought ("5 of
    # 12": ``battles.web.lists.battle_shares``), from the same rows as ``reasons``: a
    # defeat by losses says it, as "a third" alone read alike for 4 of 12 and 5 of 12.
    shares: Mapping[str, str] = field(default_factory=dict)

    def with_records(self, records: Iterable[Mapping[str, Any]]) -> Reading:
        """This reading, with what the turn's ``records`` (those the reader may read)
        tell beside each record: the companies of each battle (a battle's record names
        its companies, both sides', and shows only to the two sides that fought it,
        rulings section 6) and each fighting company's supply verdict (a side reads its
        own companies' rolls and orders, never the enemy's: the verdict is known wherever
        the order it explains is)."""
        records = list(records)
        return replace(
            self,
            forces={**self.forces, **battle_forces(records)},
            supply={**(self.supply or {}), **supply_verdicts(records)},
        )


def event_tables(settings: Settings) -> dict[str, Mapping[int, Mapping[str, Any]]]:
    """The campaign's naval and aerial tables, for ``Reading.event_tables``."""
    return {"naval": settings.naval_table, "aerial": settings.aerial_table}


def played_tables(turn: Any, now: Settings) -> dict[str, Mapping[int, Mapping[str, Any]]]:
    """The naval and aerial tables ``turn`` rolled its events on, for
    ``Reading.event_tables``: its start state's, annotated on it
    (``campaign.models.PLAYED_EVENT_TABLES``) or else read from its ``start_state``. A
    face the GM edited since reads as it was: the words a turn's page, email or feed
    gives its event never change after the turn was played. A turn that kept no start
    state (or one whose settings lacked the table) reads the campaign's tables ``now``."""
    start = None
    if not hasattr(turn, "played_naval_table"):
        start = ((getattr(turn, "start_state", None) or {}).get("settings")) or {}
    tables = event_tables(now)
    for phase in tables:
        key = f"{phase}_table"
        faces = start.get(key) if start is not None else getattr(turn, f"played_{key}")
        if isinstance(faces, dict):
            tables[phase] = {
                int(face): entry
                for face, entry in faces.items()
                if str(face).isdigit() and isinstance(entry, dict)
            }
    return tables


def supply_verdicts(records: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each fighting company's supply verdict in the records ("in supply", "out of
    supply"), by its name."""
    return {
        str(record["company"]): str(record.get("outcome"))
        for record in records
        if record.get("kind") == "supply" and record.get("company")
    }


def battle_forces(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, list[str]]]:
    """Each battle's companies by role, from its "battle" record's fields."""
    return {
        str(record["battle"]): {
            "attacker": list(record.get("attackers") or ()),
            "defender": list(record.get("defenders") or ()),
        }
        for record in records
        if record.get("kind") == "battle" and record.get("battle")
    }


# Why a battle ended, after who won ({loser}: "the Japanese").
_WHY_THEY_LOST = {
    "withdrew": ": {loser} withdrew",
    "a_third_lost": ": {loser} lost a third or more of their {piece}s{share}",
    "turn_limit": ": at the turn limit, {loser} had lost the larger share of their {piece}s "
    "(on an equal share the defender wins)",
    "entered": " (the game master entered the result from the table)",
}


def _side_called(record: Mapping[str, Any], role: str, reading: Reading) -> str:
    key = str(record.get(f"{role}_side") or "")
    return reading.side_names.get(key) or names.side(key, none=f"the {role}")


def battle_words(record: Mapping[str, Any], reading: Reading | None = None) -> str:
    """A battle announced, from the record's fields, each force by name: "Battle at Oivi:
    1st Company, 2nd Company and 3rd Company attack A Company" (the rules' text joins
    every name with "and", strongest first; it stays in the record, which replays
    compare). With a ``reading`` (the turn pages, the GM's log) each force after its side,
    as the battle's result names them: "Battle at Oivi: the Japanese 1st Company attacks
    the Australians' A Company"; the line's coloured bar alone said whose attack it was."""
    attackers, defenders = record.get("attackers") or [], record.get("defenders") or []
    if not record.get("target") or not attackers or not defenders:
        return str(record.get("text") or "") or fallback_words(record)
    attack = "attack" if len(attackers) > 1 else "attacks"
    attacking = names.join(names.by_name(attackers))
    defending = names.join(names.by_name(defenders))
    if reading is not None:
        attacking = names.force_of_side(attacking, _people(record.get("attacker_side"), reading))
        defending = names.force_of_side(defending, _people(record.get("defender_side"), reading))
    return f"Battle at {record['target']}: {attacking} {attack} {defending}"


def _people(key: Any, reading: Reading) -> str:
    """A side by its name in the campaign, else its people: "Australians"."""
    return reading.side_names.get(str(key)) or names.people(names.side(str(key or "")))


# A battle's lines about one of its companies (its losses, its withdrawal or surrender,
# a company left with no stands): the rules' text begins with the company's name.
_BATTLE_COMPANY_LINES = ("losses", "withdrawal", "surrender", "company_removed")


def battle_company_words(record: Mapping[str, Any], words: str, reading: Reading) -> str:
    """A battle's line about a company, its side before its name as the battle's result
    names it: "the Japanese 1st Company loses 3 rifle squads ...", "the Australians' C
    Company (militia) withdraws from Oivi to Isura" (the line's coloured bar alone said
    whose company it was). Only on the lines of a battle, which show to the two sides that
    fought it, each of which knows both forces (rulings section 6)."""
    company, side = str(record.get("company") or ""), str(record.get("side") or "")
    if not record.get("battle") or not company or not side:
        return words
    if not words.startswith(f"{company} "):
        return words
    return names.force_of_side(company, _people(side, reading)) + words[len(company) :]


def battle_result_words(record: Mapping[str, Any], reading: Reading) -> str:
    """A battle's result from the record's fields, the battle's reason and, when the
    reading has them, its companies: "At Oivi the Japanese 2nd Company, defending, beat
    the Australians' A Company: the Australians lost a third or more of their stands (4 of
    12)." (two battles at
    one area read apart); without them "At Korona the Australians (defending)
    win: the Japanese withdrew." A withdrawal says why, from the result's ``withdrawal``
    ("... the Japanese withdrew from a hopeless position: ..."), and reads as before
    without it. The rules' own words ("the defender (Australians) wins (withdrew)") stay
    in the record, which replays compare."""
    winner = str(record.get("winner"))
    if winner not in ("attacker", "defender"):
        return str(record.get("text") or "") or fallback_words(record)
    loser = "defender" if winner == "attacker" else "attacker"
    role = "attacking" if winner == "attacker" else "defending"
    forces = reading.forces.get(str(record.get("battle")), {})
    won, lost = forces.get(winner), forces.get(loser)
    if won and lost:
        where = f"At {record['target']} " if record.get("target") else ""
        winners = names.join(names.by_name(won))
        losers = names.join(names.by_name(lost))
        head = (
            f"{where}{names.force_of_side(winners, _side_called(record, winner, reading), role)}"
            f" beat {names.force_of_side(losers, _side_called(record, loser, reading))}"
        )
    else:
        where = f"At {record['target']} the" if record.get("target") else "The"
        head = f"{where} {_side_called(record, winner, reading)} ({role}) win"
    loser_called = "the " + _side_called(record, loser, reading)
    return head + _why_lost(str(record.get("battle")), loser_called, reading) + "."


def _why_lost(battle: str, loser: str, reading: Reading) -> str:
    """Why the ``battle``'s loser (``loser``: "the Japanese") lost, after who won: ": the
    Japanese withdrew from a hopeless position: ...", ": the Japanese lost a third or
    more of their stands (5 of 12)", from its reason, withdrawal and share in the
    ``reading``; "" for a reason not known here."""
    reason = str(reading.reasons.get(battle) or "")
    why = _WHY_THEY_LOST.get(reason, "")
    withdrawal = reading.withdrawals.get(battle)
    if reason == "withdrew" and withdrawal:
        why += f" {withdrawal}"
    share = reading.shares.get(battle)
    return why.format(
        loser=loser, piece=reading.pieces.get(battle, "stand"), share=f" ({share})" if share else ""
    )


def attack_words(record: Mapping[str, Any], reading: Reading) -> str:
    """Who attacked whom in a battle, for the campaign's list of battles: each force by
    its companies and its side's name in the campaign, from the battle's own record
    (``reading.forces``), the side before its companies as everywhere in the turn log
    (``names.force_of_side``): "The Australians' B Company attacked the Japanese 1st
    Company and 3rd Company"; without that record, the sides alone: "The Australians attacked the
    Japanese"."""
    forces = reading.forces.get(str(record.get("battle")), {})
    attackers, defenders = forces.get("attacker"), forces.get("defender")
    attacking = _people(record.get("attacker_side"), reading)
    defending = _people(record.get("defender_side"), reading)
    if not attackers or not defenders:
        return f"The {attacking} attacked the {defending}"
    words = (
        f"{names.force_of_side(names.join(names.by_name(attackers)), attacking)} attacked "
        f"{names.force_of_side(names.join(names.by_name(defenders)), defending)}"
    )
    return words[:1].upper() + words[1:]  # "the Australians' C Company (militia) ..."


def won_words(record: Mapping[str, Any], reading: Reading) -> str:
    """How a fought battle ended, for the campaign's list of battles (whose line before
    says who attacked whom): the winner by its side's name in the campaign, and why, in
    the turn pages' words: "The Japanese won: the Australians withdrew from a hopeless
    position: ...". ``record`` has the battle's key, ``winner`` and sides."""
    winner = str(record.get("winner"))
    if winner not in ("attacker", "defender"):
        return "No winner was recorded."
    loser = "defender" if winner == "attacker" else "attacker"
    won = _people(record.get(f"{winner}_side"), reading)
    lost = "the " + _people(record.get(f"{loser}_side"), reading)
    return f"The {won} won{_why_lost(str(record.get('battle')), lost, reading)}."


def control_words(record: Mapping[str, Any], reading: Reading) -> str:
    """An area changing hands, worded as an area: "The Japanese take the area of Korona
    from the Australians." The campaign, an area and a rule set may all
    be called Korona; "Japanese take control of Korona", the rules' text (kept in the
    record), read as if the campaign were lost."""
    area, taker = record.get("target"), record.get("side")
    if not area or not taker:
        return str(record.get("text") or "") or fallback_words(record)
    called = reading.side_names.get(str(taker)) or names.side(str(taker))
    words = f"The {called} take the area of {area}"
    previous = record.get("previous")
    if previous and previous != taker:
        words += f" from the {reading.side_names.get(str(previous)) or names.side(str(previous))}"
    return words + "."


# Where a company's order came from (an order record's ``source``), as a player says it.
# An aggressive standing order's order played says what it made the company do
# (``aggressive_words``); this is for one refused.
_AGGRESSIVE = "standing order (aggressive)"
_ORDER_SOURCES = {
    "order": "as ordered",
    "no order; its side has a player": "no order given",
    "standing order (hold)": "no order given: its standing order is to hold",
    _AGGRESSIVE: "no order given: its standing order is aggressive",
    "standing order (sensible)": "no order given: the campaign AI chose",
}

_AGGRESSIVE_DOES = "no order given: its aggressive standing order"
# What the aggressive standing order (rules/campaign/phases/movement.py,
# ``standing_order``) made a company do, by its supply verdict this turn ("supply
# company": it rolls none) and the order played; a fighting company in supply advances
# toward the enemy's base, one out of supply withdraws toward its own, a supply company
# follows its side's foremost fighting company; any of them holds when it cannot.
_AGGRESSIVE_WORDS = {
    ("in supply", "advance"): "advances it toward the enemy's base",
    ("in supply", "hold"): "would advance it, but it is engaged by the enemy or has no "
    "area nearer the enemy's base to go to",
    ("out of supply", "withdraw"): "withdraws it, out of supply",
    ("out of supply", "hold"): "would withdraw it, out of supply, but it is engaged by the "
    "enemy or has no area nearer its base to go to",
    ("supply company", "advance"): "has it follow its side's foremost fighting company",
    ("supply company", "withdraw"): "has it follow its side's foremost fighting company",
    ("supply company", "hold"): "has it follow its side's foremost fighting company: it "
    "stays where it is",
}
# The same without the turn's supply records: only what it did.
_AGGRESSIVE_DID = {"advance": "advances it", "withdraw": "withdraws it", "hold": "holds it"}


def aggressive_words(record: Mapping[str, Any], reading: Reading) -> str:
    """Why a company on the aggressive standing order held or moved as it did: "no order
    given: its aggressive standing order withdraws it, out of supply" (it once read "its
    standing order advances it by itself" for a withdrawal too)."""
    order = str(record.get("order"))
    if reading.supply is None:
        does = _AGGRESSIVE_DID.get(order)
    else:
        verdict = reading.supply.get(str(record.get("company")), "supply company")
        does = _AGGRESSIVE_WORDS.get((verdict, order)) or _AGGRESSIVE_DID.get(order)
    return f"{_AGGRESSIVE_DOES} {does}" if does else _ORDER_SOURCES[_AGGRESSIVE]


def order_words(record: Mapping[str, Any], reading: Reading | None = None) -> str | None:
    """An order played (held or moved), from the record's fields: "A Company holds in
    Korona (no order given)" where the rules wrote "(no order; its side has a player)".
    None for a record it cannot word so (a refusal keeps the rules' words: its reason)."""
    why = _ORDER_SOURCES.get(str(record.get("source")))
    company, target = record.get("company"), record.get("target")
    if why is None or not company or not target:
        return None
    if record.get("source") == _AGGRESSIVE:
        why = aggressive_words(record, reading or Reading())
    if record.get("outcome") == "hold":
        return f"{company} holds in {target} ({why})"
    if record.get("outcome") == "moved" and record.get("from") and record.get("order"):
        return f"{company} {record['order']}s from {record['from']} to {target} ({why})"
    return None


def companies_key(records: Iterable[Mapping[str, Any]], reading: Reading) -> str:
    """Whose company is whose, for the GM's log (its lines name companies, not sides):
    "Companies: Australians: A Company, B Company; Japanese: 1st Company." From the
    records' own ``company`` and ``side`` fields, each side's in the order they appear."""
    sides: dict[str, list[str]] = {}
    for record in records:
        company, side = record.get("company"), record.get("side")
        if company and side and company not in sides.setdefault(str(side), []):
            sides[str(side)].append(str(company))
    if not sides:
        return "No company appears in this log."
    named = (f"{_people(side, reading)}: {', '.join(them)}" for side, them in sorted(sides.items()))
    return "Companies: " + "; ".join(named) + "."


def gm_record_words(record: Mapping[str, Any], reading: Reading | None = None) -> str:
    """A record as the GM's log gives it: the players' words, and for a refused order
    where it came from (an order the campaign AI planned at the start of the turn may be
    refused by what the turn's own rolls did after, such as a supply roll)."""
    words = record_words(record, reading)
    why = _ORDER_SOURCES.get(str(record.get("source")))
    if record.get("kind") == "order" and record.get("outcome") == "refused" and why:
        if record.get("source") == "order":
            why = "the player's order"  # "it holds (as ordered)" read as if to hold was
        elif record.get("source") == "standing order (sensible)":
            why += " it at the start of the turn, before the supply rolls"
        words += f" ({why})"
    return words


def record_words(record: Mapping[str, Any], reading: Reading | None = None) -> str:
    """One record in plain words, dice included, as a line a player reads: from a capital
    letter ("Naval events: rolled 6, needing 6: an event", where the rules' text, kept in
    the record, begins "naval events")."""
    return names.as_line(_record_words(record, reading))


def end_words(record: Mapping[str, Any], reading: Reading) -> str:
    """The campaign's end, from the record's fields: "the campaign ends: the turn limit
    (20) is reached. The Japanese hold Korona and win." (the rules' text reads "Japanese
    hold", the side's name without its article, and stays so: replays compare it)."""
    reason, place = record.get("reason"), record.get("target")
    if not reason or not place:
        return str(record.get("text") or "") or fallback_words(record)
    winner = str(record.get("winner") or "")
    held = (
        f"The {reading.side_names.get(winner) or names.side_adjective(winner)} hold {place} and win"
        if winner
        else f"Nobody holds {place}, so nobody wins"
    )
    return f"the campaign ends: {reason_words(str(reason), reading)}. {held}."


# The rules' words for why a campaign ends (``rules.campaign.phases.end``), one cause
# each, joined by "; ": kept so in the record, read here to be said as a page says it.
_BASE_LOST = re.compile(r"(?P<side>.+)' base (?P<base>.+) is held by the enemy")
_NO_FIGHTERS = re.compile(r"(?P<side>.+) have no fighting companies left")


def reason_words(reason: str, reading: Reading) -> str:
    """Why the campaign ends, from the record's ``reason`` with its sides named as the
    pages name them: "the Australians' base, Port Murray, is held by the Japanese" (the
    rules' "Australians' base Port Murray is held by the enemy" has no article, and says
    "the enemy" to every side: the campaign has ended, the fog with it). A cause not in
    the rules' words stays as written."""
    said = []
    for part in reason.split("; "):
        if found := _BASE_LOST.fullmatch(part):
            side = found["side"]
            known = list(reading.side_names.values())
            others = [name for name in known if name != side] if side in known else []
            holder = f"the {others[0]}" if len(others) == 1 else "the enemy"
            said.append(f"{names.owners(side)} base, {found['base']}, is held by {holder}")
        elif found := _NO_FIGHTERS.fullmatch(part):
            said.append(f"the {found['side']} have no fighting companies left")
        else:
            said.append(part)
    return "; ".join(said)


def _record_words(record: Mapping[str, Any], reading: Reading | None) -> str:
    if record.get("kind") == "battle_result":
        return battle_result_words(record, reading or Reading())
    if record.get("kind") == "battle":
        return battle_words(record, reading)
    if record.get("kind") == "control":
        return control_words(record, reading or Reading())
    if record.get("kind") == "campaign_end":
        return end_words(record, reading or Reading())
    if record.get("kind") == "order":
        return (
            order_words(record, reading) or str(record.get("text") or "") or fallback_words(record)
        )
    words = str(record.get("text") or "") or fallback_words(record)
    if record.get("kind") == "supply" and not record.get("modifiers"):
        # The rules write "supply roll 2 = 2" even with nothing to add: the sum only
        # when a modifier makes one.
        die = (record.get("dice") or [None])[0]
        words = words.replace(f"supply roll {die} = {die} against", f"supply roll {die} against", 1)
    if record.get("kind") == "losses" and sum((record.get("stands_lost") or {}).values()) == 1:
        # The rules write "(supply may replace them)" whatever the count: one stand is "it".
        words = words.replace("(supply may replace them)", "(supply may replace it)", 1)
    if record.get("kind") == "supply" and record.get("outcome") == "out of supply":
        running = int(record.get("turns_out_of_supply") or 0)
        if running >= 1:
            # Beside the verdict, before any "(strafed)" or loss after it: a second
            # bracket after the first read "out of supply (strafed) (1st turn ...)".
            # A first turn is no run: "for the 1st turn running" read oddly.
            verdict = ": out of supply"
            run = f"for the {names.ordinal(running)} turn running" if running > 1 else "this turn"
            words = (
                words.replace(verdict, f"{verdict} {run}", 1)
                if verdict in words
                else f"{words} (out of supply {run})"
            )
    if record.get("kind") == "event":
        words = event_words(record, words, (reading or Reading()).event_tables)
    if record.get("kind") == "initiative":
        words = _INITIATIVE_ROLL.sub(_initiative_roll_words, words)
    if record.get("kind") in _BATTLE_COMPANY_LINES and reading is not None:
        words = battle_company_words(record, words, reading)
    return words


def event_words(
    record: Mapping[str, Any],
    words: str,
    tables: Mapping[str, Mapping[int, Mapping[str, Any]]] | None = None,
) -> str:
    """A naval or aerial event: the table's text, then what came of it as a sentence of
    its own where the text ends one ("... one Japanese company is out of supply. A
    Japanese fighting company (strong) in Oivi is strafed ..."), where the rules wrote
    it in brackets after the full stop ("... out of supply. (a Japanese ...)")."""
    outcome = str(record.get("outcome") or "")
    bracketed = f" ({outcome})"
    if not outcome or not words.endswith(bracketed):
        return words
    table_text = words.removesuffix(bracketed)
    if not table_text.endswith((".", "!")):
        return words
    faces = (tables or {}).get(str(record.get("phase")), {})
    entry = faces.get(next(iter(record.get("dice") or [0])))
    if entry is not None and outcome_retells_entry(entry, outcome):
        return table_text  # "two Buffalos have been lost", not again "2 Buffalos lost"
    fewer = fewer_buffalos_lost(entry, outcome) if entry is not None else None
    if fewer is not None:
        return f"{table_text} {_all_that_were_left(fewer)}"
    return f"{table_text} {outcome[0].upper()}{outcome[1:]}."


# A side's initiative roll as the rules write it ("Australians 3 - 1 out of supply = 2"),
# kept so in the record, which replays compare.
_INITIATIVE_ROLL = re.compile(
    r"(?P<side>\w[^;:]*?) (?P<die>\d+) - (?P<less>\d+) out of supply = (?P<total>-?\d+)"
)


def _initiative_roll_words(found: re.Match[str]) -> str:
    """A side's initiative roll in words: "Australians rolled 3, less 1 for companies out
    of supply, making 2", or "Japanese rolled 4" with nothing to take off. A walk-through
    read the rules' "Australians 3 - 1 out of supply = 2" as a score of 3 to 1."""
    rolled = f"{found['side']} rolled {found['die']}"
    if found["less"] == "0":
        return rolled
    return f"{rolled}, less {found['less']} for companies out of supply, making {found['total']}"


def _all_that_were_left(lost: int) -> str:
    """The Buffalos an air battle took when fewer were left than its table's text says
    ("two Buffalos have been lost"), not a second count beside the text's: a walk-through
    read "two Buffalos have been lost. 1 Buffalo lost." as the log contradicting itself."""
    if lost == 0:
        return "No Buffalo was left to lose."
    if lost == 1:
        return "Only 1 Buffalo was left, and it is lost."
    return f"Only {lost} Buffalos were left, and all {lost} are lost."


def dice_of(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The dice of a record, each with what it was rolled for, to draw beside the words."""
    dice = list(record.get("dice") or [])
    if record.get("kind") == "initiative" and isinstance(record.get("rolls"), dict):
        return [{"face": face, "for": side} for side, face in record["rolls"].items()]
    return [{"face": face, "for": record.get("kind", "")} for face in dice]


@dataclass(slots=True)
class TurnLine:
    words: str
    dice: list[dict[str, Any]]
    side: str | None
    kind: str
    battle_key: str | None
    battle_id: int | None = None  # set when the viewer may read the battle's report
    # The GM's correction of the battle's result, on its last line (``turn_corrections``).
    corrected: CorrectionMark | None = None


@dataclass(slots=True)
class TurnPhase:
    key: str
    title: str
    lines: list[TurnLine] = field(default_factory=list)


def standoff_words(records: Iterable[Mapping[str, Any]], reading: Reading) -> dict[str, str]:
    """Per area whose battles each side won some of: why it does not change hands. Each
    battle's winners stay where they fought and its losers leave, so both sides are still
    there, and an area changes hands only when one side is left in it alone (rulings
    section 3, ``update_control``): the map shows the area held as before, the winners
    of one side standing in it. Only from the results the viewer reads (a battle in an
    area has the viewer's companies in it, or none of the viewer's reads it at all)."""
    wins: dict[str, dict[str, int]] = {}
    for record in records:
        winner = str(record.get("winner"))
        if record.get("kind") != "battle_result" or winner not in ("attacker", "defender"):
            continue
        if not record.get("target"):
            continue
        tally = wins.setdefault(str(record["target"]), {})
        side = str(record.get(f"{winner}_side") or "")
        tally[side] = tally.get(side, 0) + 1
    words = {}
    for area, tally in wins.items():
        if len(tally) < 2:
            continue  # one side won every battle there: its result says who holds it
        count = sum(tally.values())
        called = {side: reading.side_names.get(side) or names.side(side) for side in tally}
        if count == 2:
            first, second = sorted(tally)
            won = f"the {called[first]} won one battle there and the {called[second]} the other"
        else:
            won = (
                names.join(f"the {called[side]} won {n}" for side, n in sorted(tally.items()))
                + f" of its {count} battles"
            )
        words[area] = (
            f"{area} does not change hands: {won}, so both sides still have companies in "
            f"{area}. An area changes hands only when one side is left there alone."
        )
    return words


def turn_phases(
    records: Iterable[Mapping[str, Any]],
    battle_ids: Mapping[str, int] | None = None,
    reading: Reading | None = None,
) -> list[TurnPhase]:
    """The records grouped by phase, in the order they were rolled.

    ``battle_ids`` maps the keys of the battles the viewer may read to their ids, so a
    battle's lines link to its report; ``reading`` names the sides and the battles' ends."""
    records = list(records)
    reading = (reading or Reading()).with_records(records)
    phases: list[TurnPhase] = []
    for record in records:
        key = str(record.get("phase", ""))
        if not phases or phases[-1].key != key:
            phases.append(TurnPhase(key, PHASE_TITLES.get(key, key.capitalize())))
        battle = record.get("battle")
        kind = str(record.get("kind", ""))
        phases[-1].lines.append(
            TurnLine(
                words=record_words(record, reading),
                dice=dice_of(record),
                side=record.get("side"),
                kind=kind,
                battle_key=battle,
                battle_id=(battle_ids or {}).get(battle) if battle and kind in _LINKED else None,
            )
        )
    # After the battles' results: why an area whose battles were split stays held as it was
    # (a walk-through read the Australians' win at Oivi and found Oivi still Japanese).
    standoffs = standoff_words(records, reading)
    battles = next((phase for phase in reversed(phases) if phase.key == "battles"), None)
    if battles is not None:
        for words in standoffs.values():
            battles.lines.append(TurnLine(words, [], None, "standoff", None))
    return phases


# The kinds of record ``turn_summary`` reads: what it says (events, who moved first, the
# battles' results, control, the end) and the battles' own records (their companies). A
# list of turns reads only these out of the logs (``campaign.web.reports``).
SUMMARY_KINDS = ("event", "initiative", "battle", "battle_result", "control", "campaign_end")


def turn_summary(
    records: Iterable[Mapping[str, Any]],
    side_names: Mapping[str, str],
    reasons: Mapping[str, str | None] | None = None,
    withdrawals: Mapping[str, str | None] | None = None,
    pieces: Mapping[str, str] | None = None,
    *,
    tables: Mapping[str, Mapping[int, Mapping[str, Any]]] | None = None,
    shares: Mapping[str, str] | None = None,
) -> list[str]:
    """A few words on what the turn brought, from the records the viewer may read: the
    events that happened, who moved first, the battles' results (why each ended from
    ``reasons``, battle key to its result's reason, and why a loser withdrew from
    ``withdrawals``, the shares in each battle's ``pieces``, how many its loser lost in
    ``shares``), control and the end; an
    event's outcome that retells its entry in the campaign's ``tables`` is left out."""
    records = list(records)
    reading = Reading(
        side_names,
        reasons or {},
        withdrawals or {},
        pieces or {},
        event_tables=tables or {},
        shares=shares or {},
    ).with_records(records)
    standoffs = list(standoff_words(records, reading).values())
    summary = []
    for record in records:
        kind = record.get("kind")
        if kind == "event":
            summary.append(record_words(record, reading))
        elif kind == "initiative" and record.get("outcome") in side_names:
            summary.append(f"{side_names[record['outcome']]} moved first")
        elif kind == "battle_result":
            summary.append(battle_result_words(record, reading))
        elif kind in ("control", "campaign_end"):
            summary.extend(standoffs)  # after the battles, before the areas taken
            standoffs = []
            summary.append(record_words(record, reading))
    return summary + standoffs
