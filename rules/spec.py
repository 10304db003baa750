"""BATTLE.json: the description of one battle, shared by every rule set.

``parse_battle`` checks the whole document and raises ``BattleSpecError`` listing every
problem with where it is, so a GM fixing a file sees all of them at once.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rules.battlefield import AREA_VEGETATION, RULINGS_LANDFORM_GOING, Going, Landform
from rules.battlespec import (
    SIDES,
    AreaSpec,
    BattleSpec,
    CompanySpec,
    ForceSpec,
    SupportSpec,
)
from rules.refusals import Code, Problem, Refusal
from rules.rulesets import RULESETS
from rules.units import STAND_TYPES, UNIT_TYPES, Quality

__all__ = ["SIDES", "AreaSpec", "BattleSpec", "CompanySpec", "ForceSpec", "SupportSpec"]

MAX_TABLE_FT = 12

# --- Bounds. Every value a checker reads has them, so no input can reach the database or
# the engine out of range; docs/rules.md ("Bounds") lists them. The scenario checker
# (rules.campaign.scenario) shares them; the API's request bodies are read through
# ``decode_json`` and ``document_problem`` too.
MAX_DOCUMENT_CHARS = 2_000_000  # a scenario or battle file, or a request body, as text
MAX_DEPTH = 16  # objects and lists inside one another (a scenario needs 5)
MAX_VALUES = 200_000  # values in one document, all together
MAX_STRING = 20_000  # characters of any one string (the checkers bound each field tighter)
MAX_NAME = 100  # a name: an area, company, side, ship, track (the database's columns)
MAX_LONG_NAME = 200  # a campaign's name and its end reason
MAX_TEXT = 500  # free text, such as an event's words
MAX_COMPANIES = 100  # companies of one side, so of one battle force
MAX_FORCE_NAME = MAX_COMPANIES * (MAX_NAME + len(" and "))  # "A Company and B Company"
MAX_FORCE_STANDS = 1000  # stands of one force, on the table and joining from the cup
MAX_STANDS = MAX_FORCE_STANDS  # stands of one unit type anywhere
MAX_PLANES = 100  # Buffalos (and Hurricane-bombers) of one side
MAX_ZONE = 100
MAX_SEED = 2**63 - 1  # what the database's BigIntegerField holds


def list_problem(value: Any, where: str, *, limit: int, entries: str = "") -> Problem | None:
    """Why ``value`` at ``where`` is not a list of at most ``limit`` entries, or None:
    the battle's and the scenario's checkers say it the same way. ``entries`` names what
    the list holds ("companies"): "must be a list of companies, not str", "more than
    100 companies"; without it "must be a list, not str", "must have at most 2000
    entries, not 2001". Text and objects are no lists, though Python iterates them."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        kind = type(value).__name__
        listed = f"a list of {entries}" if entries else "a list"
        return Problem(where, f"must be {listed}, not {kind}", Code.NOT_A_LIST, {"kind": kind})
    if len(value) > limit:
        said = (
            f"more than {limit} {entries}"
            if entries
            else f"must have at most {limit} entries, not {len(value)}"
        )
        fields = {"limit": limit, "count": len(value)}
        return Problem(where, said, Code.TOO_MANY_ENTRIES, fields)
    return None


def shown(value: Any) -> str:
    """``repr(value)`` cut short, for a message: never the whole of a huge or deep value."""
    return _SHORT.repr(value)


def key_label(key: Any) -> str:
    """A key as a problem's place names it: a string as it is (cut short), else its repr
    (so the empty string reads ``''``, and the problem still has a place)."""
    return key[:MAX_NAME] if isinstance(key, str) and key else shown(key)


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 2
_SHORT.maxstring = 60
_SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxdict = _SHORT.maxtuple = 6


_BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")


def _bad_character(text: str) -> str | None:
    """A NUL or a lone surrogate (``nul``, ``lone_surrogate``): no text or JSON column of
    PostgreSQL holds them."""
    found = _BAD_CHARACTER.search(text)
    if found is None:
        return None
    return "nul" if found.group() == "\x00" else "lone_surrogate"


_BAD_CHARACTER_WORDS = {"nul": "a NUL character", "lone_surrogate": "a lone surrogate"}


def document_problem(data: Any, what: str) -> Problem | None:
    """Why a decoded document is too big or too deep to check, or None if it is not.

    Walks the document without recursion: at most ``MAX_DEPTH`` levels, ``MAX_VALUES``
    values, strings (keys too) of at most ``MAX_STRING`` characters and none holding a NUL
    or a lone surrogate, finite numbers only. The problem has its place as its path, as the
    checkers' do (``areas[2].name``); one about the whole document has none, its message
    naming it (``what``: "scenario: has more than ... values")."""
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    count = 0

    def problem(spot: str, message: str, code: Code, **fields: Any) -> Problem:
        return (
            Problem(spot, message, code, fields)
            if spot
            else Problem("", f"{what}: {message}", code, fields)
        )

    while stack:
        value, spot, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            return problem(
                "", f"has more than {MAX_VALUES} values", Code.TOO_MANY_VALUES, limit=MAX_VALUES
            )
        if isinstance(value, str):
            if len(value) > MAX_STRING:
                return problem(
                    spot,
                    f"is longer than {MAX_STRING} characters",
                    Code.TOO_LONG_STRING,
                    limit=MAX_STRING,
                )
            if (bad := _bad_character(value)) is not None:
                return problem(
                    spot,
                    f"must not hold {_BAD_CHARACTER_WORDS[bad]}",
                    Code.BAD_CHARACTER,
                    character=bad,
                )
        elif isinstance(value, float) and not math.isfinite(value):
            return problem(
                spot, f"must be a finite number, not {value!r}", Code.NOT_FINITE, given=repr(value)
            )
        elif isinstance(value, Mapping | list | tuple):
            if depth >= MAX_DEPTH:
                return problem(
                    spot, f"is nested more than {MAX_DEPTH} deep", Code.TOO_DEEP, limit=MAX_DEPTH
                )
            if isinstance(value, Mapping):
                for key, item in value.items():
                    label = key_label(key)
                    child = f"{spot}.{label}" if spot else label
                    stack.append((key, f"{child} (the key)", depth + 1))
                    stack.append((item, child, depth + 1))
            else:
                for i, item in enumerate(value):
                    stack.append((item, f"{spot}[{i}]", depth + 1))
    return None


MAX_PROBLEM = 1000  # characters of one problem in a checker's list


def text_problem(value: str, limit: int) -> Problem | None:
    """Why a name or a text cannot be stored and shown, or None: too long, or holding a
    control character (a NUL, a line break in a name, ...). The problem has no place: the
    caller says where (``Problem.moved``)."""
    if len(value) > limit:
        return Problem(
            "",
            f"must be at most {limit} characters, not {len(value)}",
            Code.TOO_LONG,
            {"limit": limit, "length": len(value)},
        )
    if value.isascii() and value.isprintable():
        return None  # ASCII's only unprintable characters are its control characters (Cc)
    bad = next((char for char in value if unicodedata.category(char) in ("Cc", "Cs")), None)
    if bad is not None:
        return Problem(
            "",
            f"must not hold the control character {bad!r}",
            Code.CONTROL_CHARACTER,
            {"character": repr(bad), "codepoint": ord(bad)},
        )
    return None


class DocumentError(Refusal):
    """JSON text that cannot be read, or a document too big or too deep to check:
    ``problem`` is the fault, its path a place in the document (``areas[2].name``) or none;
    the refusal's one problem says it of ``where`` (``the file: areas[2].name: ...``)."""

    def __init__(self, where: str, problem: Problem) -> None:
        self.where, self.problem = where, problem
        super().__init__([Problem("", f"{where}: {problem}", problem.code, problem.fields)])

    def __reduce__(self) -> tuple[Any, ...]:  # pickles with its problem, as raised
        return (DocumentError, (self.where, self.problem))


class NotJson(DocumentError):
    """Text that is not JSON at all (or not UTF-8 text): the file is not a document of
    ours. ``line`` and ``column`` (1-based) place the first fault, None when the bytes are
    not text; ``reason`` is the JSON reader's own word for it."""

    def __init__(
        self, where: str, reason: str, line: int | None = None, column: int | None = None
    ) -> None:
        self.reason, self.line, self.column = reason, line, column
        said = (
            reason if line is None else f"not valid JSON at line {line}, column {column}: {reason}"
        )
        fields = {"reason": reason, "line": line, "column": column}
        code = Code.NOT_UTF8 if line is None else Code.NOT_JSON
        super().__init__(where, Problem("", said, code, fields))

    def __reduce__(self) -> tuple[Any, ...]:  # pickles with its position, as raised
        return (NotJson, (self.where, self.reason, self.line, self.column))


def _too_big(where: str) -> DocumentError:
    message = f"longer than {MAX_DOCUMENT_CHARS} characters"
    return DocumentError(where, Problem("", message, Code.TOO_BIG, {"limit": MAX_DOCUMENT_CHARS}))


def decode_json(text: str | bytes, where: str) -> Any:
    """JSON text decoded, within the bounds above; a ``DocumentError`` names the fault."""
    if len(text) > MAX_DOCUMENT_CHARS:
        raise _too_big(where)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise NotJson(where, "not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotJson(where, exc.msg, exc.lineno, exc.colno) from None
    except RecursionError:
        deep = Problem(
            "", f"nested more than {MAX_DEPTH} deep", Code.TOO_DEEP, {"limit": MAX_DEPTH}
        )
        raise DocumentError(where, deep) from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        said = Problem("", f"not valid JSON: {exc}", Code.NOT_JSON, {"reason": str(exc)})
        raise DocumentError(where, said) from None
    problem = document_problem(data, "the document")
    if problem is not None:
        raise DocumentError(where, problem)
    return data


class BattleSpecError(Refusal):
    """A BATTLE.json that cannot be fought; ``problems`` names each fault and its place."""

    prefix = "invalid battle: "


class Checker:
    """Collects problems instead of stopping at the first (shared with the scenario
    checks in ``rules.campaign.scenario``)."""

    # A whole number left out with no default: said to be missing (the scenario's words)
    # rather than to be no whole number (the battle's).
    names_missing_integer = False

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, where: str, message: str, code: Code, **fields: Any) -> None:
        """Note a problem at ``where``: the message for the command line and the API, the
        code and fields for words of a page's own."""
        self.add(Problem(where, message, code, fields))

    def add(self, problem: Problem) -> None:
        if len(problem) > MAX_PROBLEM:  # the line cut to MAX_PROBLEM, the message with it
            where, message = problem.path, problem.message
            room = MAX_PROBLEM - 3 - (len(where) + 2 if where else 0)
            problem = (
                problem.moved(where, message[: max(room, 0)] + "...")
                if room >= 0
                else problem.moved("", problem[: MAX_PROBLEM - 3] + "...")
            )
        self.problems.append(problem)

    def document(self, data: Any, what: str) -> bool:
        """Whether ``data`` is small and shallow enough to check (``document_problem``)."""
        problem = document_problem(data, what)
        if problem is not None:
            self.problems.append(problem)
        return problem is None

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if value is None:
            self.fail(where, "is missing", Code.MISSING)
            return {}
        if not isinstance(value, Mapping):
            kind = type(value).__name__
            self.fail(where, f"must be an object, not {kind}", Code.NOT_AN_OBJECT, kind=kind)
            return {}
        return value

    def integer(
        self,
        value: Any,
        where: str,
        *,
        minimum: int,
        maximum: int,
        default: int | None = None,
    ) -> int:
        if value is None and default is not None:
            return default
        if value is None and self.names_missing_integer:
            self.fail(where, "is missing", Code.MISSING)
            return minimum
        given = shown(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(
                where, f"must be a whole number, not {given}", Code.NOT_A_WHOLE_NUMBER, given=given
            )
            return minimum
        if not minimum <= value <= maximum:
            self.fail(
                where,
                f"must be from {minimum} to {maximum}, not {given}",
                Code.OUT_OF_RANGE,
                minimum=minimum,
                maximum=maximum,
                given=given,
            )
            return minimum
        return value

    def boolean(self, value: Any, where: str, *, default: bool) -> bool:
        if value is None:
            return default
        if not isinstance(value, bool):
            self.not_boolean(value, where)
            return default
        return value

    def not_boolean(self, value: Any, where: str) -> None:
        given = shown(value)
        self.fail(
            where,
            f"must be true or false, not {given}",
            Code.NOT_TRUE_OR_FALSE,
            given=given,
            null_allowed=False,
        )

    def text(self, value: Any, where: str, *, limit: int = MAX_NAME) -> str:
        """A non-empty string of at most ``limit`` characters, none of them a control
        character; spaces around it are dropped."""
        if value is None:
            self.fail(where, "is missing", Code.MISSING)
            return "?"
        if not isinstance(value, str) or not value.strip():
            self.fail(where, "must be a non-empty string", Code.NOT_TEXT, given=shown(value))
            return "?"
        if (problem := text_problem(value, limit)) is not None:
            self.add(problem.moved(where))
            return "?"
        return value.strip()

    def choice(
        self, value: Any, where: str, choices: tuple[str, ...], default: str | None = None
    ) -> str:
        if value is None and default is not None:
            return default
        if not isinstance(value, str) or value not in choices:
            given = shown(value)
            message = f"must be one of {', '.join(choices)}, not {given}"
            if value is None:
                self.fail(where, message, Code.MISSING_CHOICE, choices=choices)
            else:
                self.fail(where, message, Code.NOT_A_CHOICE, choices=choices, given=given)
            return choices[0]
        return value


def _force(check: Checker, data: Any, where: str) -> ForceSpec:
    raw = check.mapping(data, where)
    side = check.choice(raw.get("side"), f"{where}.side", SIDES)
    name = check.text(raw.get("name"), f"{where}.name", limit=MAX_FORCE_NAME)
    quality = Quality(check.choice(raw.get("quality"), f"{where}.quality", tuple(Quality)))
    stands = _stand_counts(check, raw.get("stands"), f"{where}.stands")
    reinforcements = (
        _stand_counts(check, raw["reinforcements"], f"{where}.reinforcements")
        if raw.get("reinforcements") is not None
        else {}
    )
    if raw.get("stands") is not None and not stands:
        check.fail(f"{where}.stands", "a force needs at least one stand", Code.NO_STANDS)
    total = sum(stands.values()) + sum(reinforcements.values())
    if total > MAX_FORCE_STANDS:
        check.fail(
            f"{where}.stands",
            f"{total} stands (with reinforcements) is more than a force may have "
            f"({MAX_FORCE_STANDS})",
            Code.TOO_MANY_STANDS,
            count=total,
            limit=MAX_FORCE_STANDS,
        )
    sniper = check.boolean(raw.get("sniper"), f"{where}.sniper", default=False)
    if sniper and not stands.get("rifle_squad"):
        check.fail(
            f"{where}.sniper",
            "a sniper replaces a rifle squad, and there is none",
            Code.SNIPER_WITHOUT_SQUAD,
        )
    companies = _companies(
        check, raw.get("companies"), f"{where}.companies", stands, reinforcements
    )
    unknown = set(raw) - {
        "side",
        "name",
        "quality",
        "stands",
        "sniper",
        "reinforcements",
        "companies",
    }
    for key in sorted(unknown):
        check.fail(
            f"{where}.{key}",
            "is not a field of a force",
            Code.UNKNOWN_FIELD,
            field=key,
            entry="force",
        )
    return ForceSpec(
        side=side,
        name=name,
        quality=quality,
        stands=stands,
        sniper=sniper,
        reinforcements=reinforcements,
        companies=companies,
    )


def _companies(
    check: Checker,
    data: Any,
    where: str,
    stands: dict[str, int],
    reinforcements: dict[str, int],
) -> tuple[CompanySpec, ...]:
    """A force's optional ``companies`` list: each a name and its stands, together exactly
    the force's stands and reinforcements."""
    if data is None:
        return ()
    problem = list_problem(data, where, limit=MAX_COMPANIES, entries="companies")
    if problem is not None:
        check.add(problem)
        return ()
    companies: list[CompanySpec] = []
    for index, item in enumerate(data):
        companies.append(_company(check, item, f"{where}[{index}]", companies))
    _check_companies_hold_the_force(check, companies, where, stands, reinforcements)
    return tuple(companies)


def _company(check: Checker, item: Any, spot: str, before: list[CompanySpec]) -> CompanySpec:
    """One company of a force's list (``before``: those listed before it)."""
    raw = check.mapping(item, spot)
    name = check.text(raw.get("name"), f"{spot}.name")
    counts = _stand_counts(check, raw.get("stands"), f"{spot}.stands")
    for key in sorted(set(raw) - {"name", "stands"}, key=str):
        label = key_label(key)
        check.fail(
            f"{spot}.{label}",
            "is not a field of a company",
            Code.UNKNOWN_FIELD,
            field=label,
            entry="company",
        )
    if name in {c.name for c in before}:
        check.fail(
            f"{spot}.name",
            f"two companies are named {shown(name)}",
            Code.DUPLICATE,
            entry="company",
            name=name,
        )
    return CompanySpec(name=name, stands=counts)


def _check_companies_hold_the_force(
    check: Checker,
    companies: list[CompanySpec],
    where: str,
    stands: dict[str, int],
    reinforcements: dict[str, int],
) -> None:
    together: dict[str, int] = {}
    for company in companies:
        for unit, count in company.stands.items():
            together[unit] = together.get(unit, 0) + count
    expected = dict(stands)
    for unit, count in reinforcements.items():
        expected[unit] = expected.get(unit, 0) + count
    if companies and together != expected:
        check.fail(
            where,
            f"the companies' stands {shown(together)} are not the force's stands and "
            f"reinforcements {shown(expected)}",
            Code.COMPANIES_NOT_FORCE,
            companies=together,
            force=expected,
        )


def _stand_counts(check: Checker, data: Any, where: str) -> dict[str, int]:
    """A map of unit type to count, in STAND_TYPES order, zero counts dropped."""
    raw = check.mapping(data, where)
    counts: dict[str, int] = {}
    for unit, count in raw.items():
        spot = f"{where}.{key_label(unit)}"
        if unit not in UNIT_TYPES:
            unknown_unit(check, unit, spot)
            continue
        if UNIT_TYPES[unit].off_table:
            check.fail(
                spot,
                "air support is not a stand: give it under support",
                Code.PLANES_NOT_STANDS,
                unit=unit,
                under="support",
            )
        elif unit == "carrier":
            check.fail(
                spot,
                "supply carriers never fight: leave them out of a battle",
                Code.CARRIER_IN_BATTLE,
            )
        counts[unit] = check.integer(count, spot, minimum=0, maximum=MAX_STANDS)
    return {unit: counts[unit] for unit in STAND_TYPES if counts.get(unit)}


def unknown_unit(check: Checker, unit: Any, where: str) -> None:
    """A stand's kind that is none (a battle's and a scenario's)."""
    given = shown(unit)
    check.fail(
        where,
        f"unknown unit type {given} (known: {', '.join(STAND_TYPES)})",
        Code.UNKNOWN_UNIT,
        given=given,
        known=STAND_TYPES,
    )


def _area(check: Checker, value: Any) -> AreaSpec:
    area_raw = check.mapping(value, "area")
    return AreaSpec(
        name=check.text(area_raw.get("name"), "area.name"),
        zone=check.integer(area_raw.get("zone"), "area.zone", minimum=0, maximum=MAX_ZONE),
        vegetation=check.choice(area_raw.get("vegetation"), "area.vegetation", AREA_VEGETATION),
        plains=check.boolean(area_raw.get("plains"), "area.plains", default=False),
    )


def _support(check: Checker, value: Any) -> SupportSpec:
    support_raw = check.mapping(value, "support")
    return SupportSpec(
        buffalos=check.integer(
            support_raw.get("buffalos"),
            "support.buffalos",
            minimum=0,
            maximum=MAX_PLANES,
            default=0,
        ),
        hurricane=check.boolean(support_raw.get("hurricane"), "support.hurricane", default=False),
    )


def _ruleset_and_options(check: Checker, value: Any) -> tuple[str, dict[str, Any]]:
    """The battle's rule set (Korona unless named) and its other options, checked by it."""
    options = dict(check.mapping(value, "options"))
    ruleset = options.pop("ruleset", "korona")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        check.fail(
            "options.ruleset",
            f"unknown rule set {ruleset!r} (known: {', '.join(RULESETS)})",
            Code.UNKNOWN_RULESET,
            given=shown(ruleset),
            known=tuple(RULESETS),
        )
    else:
        for problem in RULESETS[ruleset].check_options(options):
            check.fail("options", problem, Code.REFUSED_OPTION, ruleset=ruleset)
    return ruleset, options


def parse_battle(data: Any) -> BattleSpec:
    """Validate a decoded BATTLE.json document and build the spec."""
    check = Checker()
    if not check.document(data, "battle"):
        raise BattleSpecError(check.problems)
    doc = check.mapping(data, "battle")
    area = _area(check, doc.get("area"))
    table = check.mapping(doc.get("table", {}), "table")
    width = check.integer(
        table.get("width_ft"), "table.width_ft", minimum=1, maximum=MAX_TABLE_FT, default=3
    )
    depth = check.integer(
        table.get("depth_ft"), "table.depth_ft", minimum=1, maximum=MAX_TABLE_FT, default=3
    )
    landform_going = check_landform_going(check, table.get("landform_going"), "table")
    attacker = _force(check, doc.get("attacker"), "attacker")
    defender = _force(check, doc.get("defender"), "defender")
    if attacker.sniper:
        check.fail(
            "attacker.sniper",
            "only the defender may swap a squad for a sniper",
            Code.ATTACKER_SNIPER,
        )
    sides = [
        force.get("side")
        for force in (doc.get("attacker"), doc.get("defender"))
        if isinstance(force, Mapping)
    ]
    if len(sides) == 2 and sides[0] in SIDES and sides[0] == sides[1]:
        check.fail(
            "defender.side",
            f"both forces are {attacker.side}; a battle needs both sides",
            Code.SAME_SIDES,
            side=attacker.side,
        )
    support = _support(check, doc.get("support", {}))
    ruleset, options = _ruleset_and_options(check, doc.get("options", {}))
    for key in sorted(set(doc) - {"area", "table", "attacker", "defender", "support", "options"}):
        label = key_label(key)
        check.fail(
            label, "is not a field of a battle", Code.UNKNOWN_FIELD, field=label, entry="battle"
        )
    if check.problems:
        raise BattleSpecError(check.problems)
    return BattleSpec(
        area=area,
        width_ft=width,
        depth_ft=depth,
        attacker=attacker,
        defender=defender,
        support=support,
        ruleset=ruleset,
        options=options,
        landform_going=landform_going,
    )


def check_landform_going(check: Checker, value: Any, where: str) -> dict[str, str]:
    """A ``landform_going`` map (landform -> good/rough/bad), checked into ``check``; only
    the entries that differ from the rulings are kept. Shared with the campaign setting."""
    if value is None:
        return {}
    raw = check.mapping(value, f"{where}.landform_going")
    kept: dict[str, str] = {}
    landforms = tuple(str(landform) for landform in Landform)
    goings = tuple(str(going) for going in Going)
    for key, going in raw.items():
        spot = f"{where}.landform_going.{key_label(key)}"
        if key not in landforms:
            check.fail(
                spot,
                f"is not a landform (known: {', '.join(landforms)})",
                Code.UNKNOWN_LANDFORM,
                given=shown(key),
                known=landforms,
            )
            continue
        going = check.choice(going, spot, goings)
        if going != RULINGS_LANDFORM_GOING[Landform(key)]:
            kept[key] = going
    return {key: kept[key] for key in landforms if key in kept}


def read_json_file(path: str | Path) -> Any:
    """A JSON file decoded by ``decode_json``; a ``DocumentError`` names the fault."""
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_DOCUMENT_CHARS * 4 + 1)  # UTF-8 has up to 4 bytes a character
    except OSError as exc:
        said = f"cannot read the file ({exc.strerror})"
        unreadable = Problem("", said, Code.UNREADABLE, {"reason": exc.strerror})
        raise DocumentError(str(path), unreadable) from exc
    if len(raw) > MAX_DOCUMENT_CHARS * 4:
        raise _too_big(str(path))
    return decode_json(raw, str(path))


def load_battle(path: str | Path) -> BattleSpec:
    """Read and validate a BATTLE.json file."""
    try:
        data = read_json_file(path)
    except DocumentError as exc:
        raise BattleSpecError(exc.problems) from exc
    return parse_battle(data)
