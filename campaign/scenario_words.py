"""A scenario file's faults in the GM's words, for the admin's Create and Balance pages.

``rules.campaign.scenario`` names each fault by its place in the document
(``companies[1] (B Company).stands: must be an object, not int``): exact, and what the
command line and the API give. The GM, who edits a file that Export scenario made, reads
it here as what is wrong, where (the company or area by name) and what to do:
"B Company: its stands must be listed by kind, e.g. rifle squads: 6 ...". A fault this
module has no words for keeps the checker's, after its place in words.
"""

from __future__ import annotations

import re

from rules import names
from rules.refusals import Problem
from rules.spec import DocumentError, NotJson

NOT_A_SCENARIO = (
    'This file is not a scenario: Korona reads the files that "Export scenario" makes, in JSON.'
)

# A place in a list of the document: "companies[1] (B Company).stands.rifle_squad".
_PLACE = re.compile(
    r"^(?P<list>companies|areas|sides|ships|air|links)\[(?P<index>\d+)\]"
    r"(?: \((?P<name>.*)\))?(?:\.(?P<field>[^.\[]+)(?P<rest>[.\[].*)?)?$"
)
# What each list's entries are, said of one whose name the file does not give.
_ENTRY = {
    "companies": "company",
    "areas": "area",
    "sides": "side",
    "ships": "ship",
    "air": "air group",
    "links": "link",
}
# The scenario's own fields and whole lists, as the GM reads them.
_TOP = {
    "scenario": "The file",
    "name": "The scenario's name",
    "seed": "The scenario's seed",
    "turn": "The scenario's turn",
    "finished": "The scenario's finished",
    "winner": "The scenario's winner",
    "end_reason": "The scenario's end reason",
    "sides": "The sides",
    "areas": "The map's areas",
    "links": "The map's links",
    "companies": "The companies",
    "ships": "The ships",
    "air": "The air groups",
}
# An entry's fields that read better otherwise than with their underscores as spaces.
_FIELDS = {
    "banzai": "Banzai!",
    "buffalos": "Buffalos",
    "x": "place across the map (x)",
    "y": "place down the map (y)",
    "key": "side (australian or japanese)",
}
_HELD = ("stands", "establishment")  # an entry's stands by kind
_TYPE_WORDS = {
    "int": "a number",
    "float": "a number",
    "str": "text",
    "list": "a list",
    "bool": "true or false",
}


def file_words(error: DocumentError) -> str:
    """Why an uploaded file could not be read at all, in words: not JSON (with where the
    reading stopped), or too big or too deep."""
    if isinstance(error, NotJson):
        if error.line is None:
            return f"{NOT_A_SCENARIO} This one is not even text."
        return (
            f"{NOT_A_SCENARIO} This one stops making sense at line {error.line}, "
            f"character {error.column} ({error.reason}): a character missing or too many "
            "there or just before, such as a comma, a quote or a bracket."
        )
    detail = str(error).removeprefix("the file: ")
    if _PLACE.match(detail.partition(": ")[0]):  # a name too long, a NUL in it: its place
        return problem_words(detail)
    return f"This file cannot be read as a scenario: {detail}."


def problem_words(problem: str) -> str:
    """One of a scenario's faults in words: the place by name, then what is wrong."""
    if isinstance(problem, Problem):
        path, message = problem.path, problem.message
    else:
        path, _, message = problem.partition(": ")
    if path == "scenario" or (not path and message.startswith("scenario: ")):
        return f"{NOT_A_SCENARIO} This one is {_kind_of(message)}."
    found = _PLACE.match(path)
    if found is None:
        if path in _TOP and message == "is missing":
            return f'The file has no "{path}": add it (a file that Export scenario makes has one).'
        if path in _TOP:
            return f"{_TOP[path]} {_said(message)}"
        if message.startswith("is not a field of"):
            return f'The file has "{path}", which a scenario does not have: remove it.'
        return f"In the scenario file: {problem}"
    place = _place(found)
    field = found["field"]
    if field is None:
        return f"{place}: {_said(message)}"
    return f"{place}: {_field_words(field, found['rest'], message)}"


def _place(found: re.Match[str]) -> str:
    """An entry of a list by its name (a side by its adjective), else by its number."""
    kind, name = found["list"], found["name"]
    if name is None:
        return f"The {names.ordinal(int(found['index']) + 1)} {_ENTRY[kind]} in the file"
    if kind == "sides":
        return f"The {names.side(name)} side"
    return name if kind == "companies" else f"{_ENTRY[kind].capitalize()} {name}"


def _field_words(field: str, rest: str | None, message: str) -> str:
    """What is wrong with one field of an entry (``rest``: a stand's kind, a feature's
    number)."""
    if message.startswith("is not a field of"):
        what = message.removeprefix("is not a field of ")
        return f'it has "{field}", which {what} does not have: remove it.'
    if message.startswith("duplicate "):
        said = _said(message)
        return said[0].upper() + said[1:]
    said = _FIELDS.get(field, field.replace("_", " "))
    if field in _HELD:
        if message.startswith("must be an object"):
            return (
                f"its {field} must be listed by kind, e.g. rifle squads: 6 "
                f'(in the file, "{field}": {{"rifle_squad": 6}}).'
            )
        if message.startswith("unknown unit type "):
            known = message.partition("(known: ")[2].rstrip(")")
            unit = message.removeprefix("unknown unit type ").partition(" (")[0]
            return f"its {field} list {unit}, which is no kind of stand: use one of {known}."
        if rest and rest.startswith("."):
            said = f"{field} of {names.unit(rest[1:], 2)}"
    return f"its {said} {_predicate(message)}"


def _predicate(message: str) -> str:
    """A checker's message said of a field: "is missing: add it.", "must be ..."."""
    if message == "is missing":
        return "is missing: add it."
    choices = re.match(r"^must be one of (?P<choices>.+), not None$", message)
    if choices:
        return f"is missing: give one of {choices['choices']}."
    if message.startswith("unknown area "):
        area = message.removeprefix("unknown area ")
        return f"is {area}, which is no area of the map: give an area's name as the file spells it."
    if message.startswith(("must ", "is ", "has ")):
        return _said(message)
    return f"is wrong: {_said(message)}"


def _said(message: str) -> str:
    """A checker's message made a sentence, its duplicate's place named as the GM reads it."""
    duplicate = re.match(r"^duplicate (?P<what>[a-z ]+) (?P<name>.+) \(first at .*\)$", message)
    if duplicate:
        return f"the name {duplicate['name']} is used twice: give each {duplicate['what']} its own."
    if message.startswith("unknown area "):
        area = message.removeprefix("unknown area ")
        return f"{area} is no area of the map: give an area's name as the file spells it."
    shape = re.match(r"^must be (?P<shape>an object|a list), not (?P<kind>\w+)$", message)
    if shape:
        written = "in braces { }" if shape["shape"] == "an object" else "as a list in brackets [ ]"
        return f"must be written {written}, not as {_TYPE_WORDS.get(shape['kind'], 'it is')}."
    return message if message.endswith(".") else f"{message}."


def _kind_of(message: str) -> str:
    """What the file holds instead of a scenario: "must be an object, not list" -> a list."""
    kind = message.rpartition("not ")[2]
    return _TYPE_WORDS.get(kind, "something else")
