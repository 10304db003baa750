"""A scenario file's faults in the GM's words, for the admin's Create and Balance pages.

``rules.campaign.scenario`` names each fault by its place in the document
(``companies[1] (B Company).stands: must be an object, not int``): exact, and what the
command line and the API give. Each fault is also a ``Problem`` with a ``code`` and the
``fields`` it is about; the GM, who edits a file that Export scenario made, reads it here
from those, never from the checker's English, as what is wrong, where (the company or
area by name) and what to do: "B Company: its stands must be listed by kind, e.g. rifle
squads: 6 ...". The place is read from the problem's path, the checker's notation for
it. A code this module has no words for keeps the checker's message, after its place in
words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from campaign.settings_doc import DOCS
from rules import names
from rules.refusals import Code, Problem
from rules.spec import DocumentError

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
    "settings": "The settings",
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
# A JSON value's kind (its Python type's name, the checker's ``kind``), in words.
_KINDS = {
    "int": "a number",
    "float": "a number",
    "str": "text",
    "list": "a list",
    "dict": "an object in braces { }",
    "bool": "true or false",
    "NoneType": "null",
}
# What an unknown field was found in (the checker's ``entry``), with its article.
_IN = {
    "scenario": "a scenario",
    "side": "a side",
    "area": "an area",
    "company": "a company",
    "ship": "a ship",
    "air_group": "an air group",
    "event": "an event of its effect",
    "force": "a force",
    "battle": "a battle",
}


@dataclass(frozen=True)
class Subject:
    """What a problem is about, in words: ``place`` the entry ("B Company", "The 2nd link
    in the file"; None for the file's own fields), ``noun`` what is wrong with it ("its
    stands of rifle squads", "The scenario's seed"; None for the entry as a whole),
    ``field`` the field as the file spells it, ``top`` a field of the file itself."""

    place: str | None = None
    noun: str | None = None
    field: str | None = None
    top: bool = False

    def at(self, said: str) -> str:
        """``said`` of the place: "B Company: its ..."."""
        return f"{self.place}: {said}" if self.place else said

    def be(self, predicate: str) -> str:
        """The noun, then ``predicate`` ("must be ..."), at the place."""
        return self.at(f"{self.noun} {predicate}" if self.noun else predicate)


Words = Callable[[Subject, Mapping[str, Any]], str]


def file_words(error: DocumentError) -> str:
    """Why an uploaded file could not be read at all, in words: not JSON (with where the
    reading stopped), or too big or too deep."""
    return problem_words(error.problem)


def problem_words(problem: str) -> str:
    """One of a scenario's faults in words: the place by name, then what is wrong (a line
    of words that is no ``Problem`` as the checker's, in the file)."""
    problem = Problem.of(problem)
    subject = _subject(problem.path)
    words = WORDS.get(problem.code)
    if words is None:
        return _checkers(problem, subject)
    return words(subject, problem.fields)


def field_words(problem: str, *, place: str | None, noun: str) -> str:
    """A problem on the form's own field for its place (the settings page puts each on
    its box), in the GM's words from its code, said of what the page calls the field:
    ``place`` its row ("face 6"; None for a setting's own box), ``noun`` the field
    ("what the players read", "this setting"), never the file's path. A problem with
    only a message keeps it (at the row's place): the service's own words for the GM."""
    problem = Problem.of(problem)
    field = re.split(r"[.\[\]]+", problem.path.rstrip("]"))[-1]
    subject = Subject(place=place, noun=noun, field=field)
    words = WORDS.get(problem.code)
    if words is None:
        return subject.at(problem.message)
    return words(subject, problem.fields)


def _checkers(problem: Problem, subject: Subject) -> str:
    """A fault this module has no words for: the checker's message, after its place."""
    message = problem.message if problem.message.endswith(".") else f"{problem.message}."
    if subject.place is None and subject.noun is None:
        return f"In the scenario file: {message}"
    return subject.be(message)


def _subject(path: str) -> Subject:
    """The place and the noun of a problem's path (a place this module has no words for
    as the file spells it)."""
    if path in ("", "scenario"):
        return Subject()
    if path in _TOP:
        return Subject(noun=_TOP[path], field=path, top=True)
    if path.startswith("settings."):
        return _setting(path.removeprefix("settings."))
    found = _PLACE.match(path)
    if found is None:
        return Subject(place=f"In the scenario file, at {path}")
    place, field, rest = _place(found), found["field"], found["rest"]
    if field is None:
        return Subject(place=place)
    said = _FIELDS.get(field, field.replace("_", " "))
    if field in _HELD and rest and rest.startswith("."):
        said = f"{field} of {names.unit(rest[1:], 2)}"
    return Subject(place=place, noun=f"its {said}", field=field)


def _place(found: re.Match[str]) -> str:
    """An entry of a list by its name (a side by its adjective), else by its number."""
    kind, name = found["list"], found["name"]
    if name is None:
        return f"The {names.ordinal(int(found['index']) + 1)} {_ENTRY[kind]} in the file"
    if kind == "sides":
        return f"The {names.side(name)} side"
    return name if kind == "companies" else f"{_ENTRY[kind].capitalize()} {name}"


def _setting(path: str) -> Subject:
    """A setting by its label ("Naval event table"), then a face or a field of it."""
    key, *rest = re.split(r"[.\[\]]+", path.rstrip("]"))
    label = DOCS[key].label if key in DOCS else f'"{key}"'
    parts = [
        part if not part.isdigit() else f"face {part}" if key in _TABLES else _nth(int(part))
        for part in rest
    ]
    within = f" ({', '.join(p.replace('_', ' ') for p in parts)})" if parts else ""
    return Subject(place=f"The setting {label}{within}", field=key)


def _nth(index: int) -> str:
    return f"the {names.ordinal(index + 1)}"


def _faces(faces: Any) -> str:
    """ "face 3", "faces 2 and 5"."""
    return f"face{'s' if len(faces) > 1 else ''} {names.join(str(face) for face in faces)}"


_TABLES = ("naval_table", "aerial_table", "combat_event_table", "japanese_event_table")


def _kind(fields: Mapping[str, Any]) -> str:
    return _KINDS.get(str(fields.get("kind")), "something else")


# The control characters a GM can type or paste, by name; any other is invisible.
_CONTROLS = {9: "a tab", 10: "a line break", 13: "a carriage return (part of a Windows line break)"}


def _control(fields: Mapping[str, Any]) -> str:
    """The control character a text holds, in words: 'a line break', or 'an invisible
    control character (number 7)' for one with no name a GM would know."""
    codepoint = fields.get("codepoint")
    if codepoint is None:  # a problem from before the rules gave its number
        return f"the control character {fields['character']}"
    return _CONTROLS.get(codepoint, f"an invisible control character (number {codepoint})")


def _one_of(values: Any) -> str:
    return ", ".join(str(value) for value in values)


# --- the words of each code --------------------------------------------------------------


def _missing(s: Subject, f: Mapping[str, Any]) -> str:
    if s.top:
        return f'The file has no "{s.field}": add it (a file that Export scenario makes has one).'
    if s.noun is None:
        return s.at("is empty (null): write it out, or remove it.")
    return s.be("is missing: add it.")


def _not_an_object(s: Subject, f: Mapping[str, Any]) -> str:
    if s.place is None and s.noun is None:  # the whole file
        return f"{NOT_A_SCENARIO} This one is {_kind(f)}."
    if s.field in _HELD and not s.top:
        return s.at(
            f"its {s.field} must be listed by kind, e.g. rifle squads: 6 "
            f'(in the file, "{s.field}": {{"rifle_squad": 6}}).'
        )
    return s.be(f"must be written in braces {{ }}, not as {_kind(f)}.")


def _no_area(s: Subject, f: Mapping[str, Any]) -> str:
    """An area the map lacks, said of a field ("its area is 'Oivii', which is ...") or of
    an entry as a whole ("'Oivii' is ...")."""
    area = repr(f["area"])
    said = f"is {area}, which is no area of the map" if s.noun else f"{area} is no area of the map"
    return s.be(f"{said}: give an area's name as the file spells it.{_default(f)}")


def _no_track(s: Subject, f: Mapping[str, Any]) -> str:
    track = repr(f["track"])
    said = f"is {track}, which is" if s.noun else f"{track} is"
    return s.be(f"{said} the track of no area: give a track of the map.{_default(f)}")


def _default(f: Mapping[str, Any]) -> str:
    """A setting left out names Korona's places: another map must give its own."""
    if not f.get("default_of"):
        return ""
    label = DOCS[f["default_of"]].label if f["default_of"] in DOCS else f["default_of"]
    return (
        " The file leaves the setting out, and its default is for the Korona map: give the "
        f"setting {label} for this map."
    )


def _unknown_field(s: Subject, f: Mapping[str, Any]) -> str:
    field = f["field"]
    if f.get("entry") == "scenario":
        return f'The file has "{field}", which a scenario does not have: remove it.'
    what = _IN.get(str(f.get("entry")), "it")
    return s.at(f'it has "{field}", which {what} does not have: remove it.')


def _duplicate(s: Subject, f: Mapping[str, Any]) -> str:
    entry = str(f["entry"]).replace("_", " ")
    return s.at(f"The name {f['name']!r} is used twice: give each {entry} its own.")


def _unknown_unit(s: Subject, f: Mapping[str, Any]) -> str:
    held = s.field if s.field in _HELD else "stands"
    return s.at(
        f"its {held} list {f['given']}, which is no kind of stand: use one of "
        f"{_one_of(f['known'])}."
    )


def _planes(s: Subject, f: Mapping[str, Any]) -> str:
    where = 'in the file\'s "air" list' if f.get("under") == "air" else 'under "support"'
    return s.at(f"its stands list air support, which is planes, not a stand: give planes {where}.")


def _sides_missing(s: Subject, f: Mapping[str, Any]) -> str:
    missing = " or ".join(names.side(side) for side in f["sides"])
    return f"A campaign needs both sides: the file has no {missing} side."


def _duplicate_link(s: Subject, f: Mapping[str, Any]) -> str:
    first = names.ordinal(int(f["first"]) + 1)
    return s.at(f"it links {f['a']} and {f['b']}, as the {first} link does already: remove one.")


def _not_connected(s: Subject, f: Mapping[str, Any]) -> str:
    return (
        f"The map is not connected: no links lead from {f['start']} to "
        f"{names.join(f['cut_off'])}. Link them to the rest."
    )


def _too_many_stands(s: Subject, f: Mapping[str, Any]) -> str:
    if f.get("side"):
        return (
            f"The {names.side(f['side'])} side has {f['count']} stands, more than a battle "
            f"force may hold ({f['limit']})."
        )
    return s.at(f"it has {f['count']} stands, more than a force may have ({f['limit']}).")


def _only_when_finished(s: Subject, f: Mapping[str, Any]) -> str:
    what = "a winner" if f["field"] == "winner" else "an end reason"
    return (
        f"The file gives {what}, but the campaign is not finished: remove it, or make "
        '"finished" true.'
    )


def _json(s: Subject, f: Mapping[str, Any]) -> str:
    if f.get("line") is None:
        return f"{NOT_A_SCENARIO} This one cannot be read as JSON: {f['reason']}."
    return (
        f"{NOT_A_SCENARIO} This one stops making sense at line {f['line']}, "
        f"character {f['column']} ({f['reason']}): a character missing or too many "
        "there or just before, such as a comma, a quote or a bracket."
    )


_BAD_CHARACTERS = {
    "nul": "a NUL character (code 0)",
    "lone_surrogate": "a broken character (half of a pair)",
}


def _table(**words: Words) -> dict[Code, Words]:
    return {Code(code): said for code, said in words.items()}


# Every code's words but those of ``MESSAGE_ONLY``.
WORDS: dict[Code, Words] = _table(
    missing=_missing,
    missing_choice=lambda s, f: s.be(f"is missing: give one of {_one_of(f['choices'])}."),
    not_an_object=_not_an_object,
    not_a_list=lambda s, f: s.be(f"must be written as a list in brackets [ ], not as {_kind(f)}."),
    not_text=lambda s, f: s.be(f"must be text, not {f.get('given', 'nothing')}."),
    not_a_whole_number=lambda s, f: s.be(f"must be a whole number, not {f['given']}."),
    not_a_number=lambda s, f: s.be(f"must be a number, not {f['given']}."),
    not_finite=lambda s, f: s.be(f"must be an ordinary number, not {f['given']}."),
    out_of_range=lambda s, f: s.be(
        f"must be from {f['minimum']} to {f['maximum']}, not {f['given']}."
    ),
    not_true_or_false=lambda s, f: s.be(
        f"must be true{', false or null' if f.get('null_allowed') else ' or false'}, "
        f"not {f['given']}."
    ),
    not_a_choice=lambda s, f: s.be(f"must be one of {_one_of(f['choices'])}, not {f['given']}."),
    too_long=lambda s, f: s.be(
        f"must be at most {f['limit']} characters, not {f['length']}: shorten it."
    ),
    control_character=lambda s, f: s.be(f"must not hold {_control(f)}: remove it."),
    spaces_around=lambda s, f: s.be(
        f"must not begin or end with spaces: {f['given']}. Remove them."
    ),
    too_many_entries=lambda s, f: s.be(
        f"must have at most {f['limit']} entries, not {f['count']}."
    ),
    unknown_field=_unknown_field,
    given_twice=lambda s, f: s.be(f"list {f['given']} twice: give it once."),
    not_json=_json,
    not_utf8=lambda s, f: f"{NOT_A_SCENARIO} This one is not even text.",
    too_big=lambda s, f: (
        f"This file is too big to be a scenario: one has at most {f['limit']:,} characters."
    ),
    too_many_values=lambda s, f: (
        f"This file is too big to be a scenario: it holds more than {f['limit']:,} values."
    ),
    too_deep=lambda s, f: (
        f"This file is nested too deep to be a scenario: more than {f['limit']} brackets "
        "and braces inside one another."
    ),
    too_long_string=lambda s, f: s.be(
        f"is longer than {f['limit']:,} characters, more than any text of a scenario."
    ),
    bad_character=lambda s, f: s.be(
        f"holds {_BAD_CHARACTERS.get(f['character'], 'a character')}, which Korona cannot "
        "store: remove it."
    ),
    unreadable=lambda s, f: f"The file cannot be read ({f['reason']}).",
    duplicate=_duplicate,
    duplicate_side=lambda s, f: s.at(
        f"the file gives the {names.side(f['side'])} side twice: give each side once."
    ),
    duplicate_air_group=lambda s, f: s.at(
        f"the {names.side(f['side'])} side has an air group already: give each side one."
    ),
    sides_missing=_sides_missing,
    unknown_area=_no_area,
    unknown_track=_no_track,
    no_areas=lambda s, f: "A map needs at least one area: the file's list of areas is empty.",
    not_a_link=lambda s, f: s.at(
        f'must be a pair of area names, e.g. ["Korona", "Oivi"], not {f["given"]}.'
    ),
    link_to_itself=lambda s, f: s.at(f"it links {f['area']} to itself: a link joins two areas."),
    duplicate_link=_duplicate_link,
    not_connected=_not_connected,
    no_port=lambda s, f: s.be(
        f"is {f['area']}, which has no port: give an area with a port among its features."
    ),
    no_airfield=lambda s, f: s.be(
        f"is {f['area']}, which has no airfield or airstrip: give an area with one among "
        "its features."
    ),
    quality_missing=lambda s, f: s.at(
        f"its quality is missing: a fighting company needs one of {_one_of(f['choices'])}."
    ),
    supply_quality=lambda s, f: s.at(
        "it is a supply company, which never fights and has no quality: remove its quality."
    ),
    unknown_unit=_unknown_unit,
    planes_not_stands=_planes,
    no_stands=lambda s, f: s.at("it needs at least one stand: list its stands by kind."),
    above_establishment=lambda s, f: s.at(
        f"it holds {names.count(f['held'], f['unit'])}, more than its establishment of "
        f"{f['establishment']}: raise its establishment or lower its stands."
    ),
    above_settings_establishment=lambda s, f: s.at(
        f"its establishment is {f['stands']} stands, more than a fighting company's "
        f"({f['establishment']}, the setting {DOCS['establishment'].label}): lower it."
    ),
    too_many_companies=lambda s, f: (
        f"The {names.side(f['side'])} side has {f['count']} companies, more than {f['limit']}."
    ),
    too_many_stands=_too_many_stands,
    only_when_finished=_only_when_finished,
    unknown_setting=lambda s, f: (
        f'The settings have "{f["setting"]}", which is no setting: remove it.'
    ),
    unknown_effect=lambda s, f: s.be(
        f"is {f['given']}, which is no effect: use one of {_one_of(f['known'])}."
    ),
    no_effect=lambda s, f: s.at(
        f"face {f['face']} must name an effect: one of {_one_of(f['known'])}."
    ),
    not_an_event_table=lambda s, f: s.at(
        f"must give an event for each face 1 to 6, in braces {{ }}, not {f['given']}."
    ),
    not_a_face=lambda s, f: s.at(f"{f['given']} is no face of a die: the faces are 1 to 6."),
    face_twice=lambda s, f: s.at(f"face {f['face']} is given twice: give it once."),
    faces_missing=lambda s, f: s.at(
        f"it has no event for {_faces(f['faces'])}: every face 1 to 6 needs one."
    ),
    not_the_six_faces=lambda s, f: s.at(
        "it must have exactly the faces 1 to 6"
        + (
            f": {_faces(f['missing'])} {'are' if len(f['missing']) > 1 else 'is'} missing."
            if f["missing"]
            else "."
        )
    ),
    carrier_in_battle=lambda s, f: s.at("supply carriers never fight: leave them out."),
    sniper_without_squad=lambda s, f: s.at("a sniper replaces a rifle squad, and it has none."),
    attacker_sniper=lambda s, f: s.at("only the defender may swap a squad for a sniper."),
    same_sides=lambda s, f: s.at(
        f"both forces are {names.side(f['side'])}: a battle needs both sides."
    ),
    companies_not_force=lambda s, f: s.at(
        f"its companies hold {names.stands(f['companies'])}, not the force's stands and "
        f"reinforcements ({names.stands(f['force'])})."
    ),
    unknown_ruleset=lambda s, f: s.be(
        f"is {f['given']}, which is no rule set: use one of {_one_of(f['known'])}."
    ),
    unknown_landform=lambda s, f: s.at(
        f"{f['given']} is no landform: use one of {_one_of(f['known'])}."
    ),
)
# Codes whose message is all there is to say: a refusal's plain line, a rule set's own
# check of a battle option.
MESSAGE_ONLY = frozenset({Code.MESSAGE, Code.REFUSED_OPTION})
