"""One refusal hierarchy: input the rules (or a service over them) will not take.

Every refusal is a :class:`Refusal` (a ``ValueError``, as each was before), carrying its
problems: each a :class:`Problem`, the place in the input it is about (a dotted path such
as ``attacker.stands.rifle_squad``, or ``""`` for the input as a whole) and the message.
A problem reads as its line of words (``"path: message"``), so code that joined or printed
the problems as strings reads them as before. A checker's problem also has a ``code``
(:class:`Code`, what kind of fault it is) and ``fields`` (what the fault is about: the
area named, the limit passed), so a page words it from those and never from the message,
which is the checker's English for the command line and the API.

The ways in map a refusal once each: the API to a 400 with the problems
(``campaign.api.errors``), the pages and the admin through ``config.refusals``'s
middleware (a 400 page with the problems; in the admin, an error message on the page the
GM came from). A refusal changes nothing: each is raised before anything is written, or
inside the transaction it rolls back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any


class Code(StrEnum):
    """What kind of fault a checker's problem is: stable, whatever its message says.
    The comment after each names its ``fields``; ``given`` is always the value as the
    file wrote it, shown short (``rules.spec.shown``), and ``known`` the values allowed."""

    MESSAGE = "message"  # a refusal's line of words and nothing more
    # The shape of a value.
    MISSING = "missing"
    MISSING_CHOICE = "missing_choice"  # choices
    NOT_AN_OBJECT = "not_an_object"  # kind (the JSON value's kind: list, int, str, ...)
    NOT_A_LIST = "not_a_list"  # kind
    NOT_TEXT = "not_text"  # given (absent when the text is empty)
    NOT_A_WHOLE_NUMBER = "not_a_whole_number"  # given
    NOT_A_NUMBER = "not_a_number"  # given
    NOT_FINITE = "not_finite"  # given
    OUT_OF_RANGE = "out_of_range"  # minimum, maximum, given
    NOT_TRUE_OR_FALSE = "not_true_or_false"  # given, null_allowed
    NOT_A_CHOICE = "not_a_choice"  # choices, given
    TOO_LONG = "too_long"  # limit, length
    CONTROL_CHARACTER = "control_character"  # character (its repr), codepoint
    SPACES_AROUND = "spaces_around"  # given
    TOO_MANY_ENTRIES = "too_many_entries"  # limit, count
    UNKNOWN_FIELD = "unknown_field"  # field, entry (scenario, side, area, company, ...)
    GIVEN_TWICE = "given_twice"  # given
    # The document as a whole (rules.spec.document_problem, decode_json).
    NOT_JSON = "not_json"  # reason (the JSON reader's), line and column where it stopped
    NOT_UTF8 = "not_utf8"  # the bytes are not text
    TOO_BIG = "too_big"  # limit (characters of the whole document)
    TOO_MANY_VALUES = "too_many_values"  # limit
    TOO_DEEP = "too_deep"  # limit
    TOO_LONG_STRING = "too_long_string"  # limit
    BAD_CHARACTER = "bad_character"  # character: "nul" or "lone_surrogate"
    UNREADABLE = "unreadable"  # reason (the system's)
    # A scenario's names, map and forces (rules.campaign.scenario).
    DUPLICATE = "duplicate"  # entry (area, company, ship, side_name), name
    DUPLICATE_SIDE = "duplicate_side"  # side
    DUPLICATE_AIR_GROUP = "duplicate_air_group"  # side
    SIDES_MISSING = "sides_missing"  # sides
    UNKNOWN_AREA = "unknown_area"  # area; default_of (a setting's key) when a default
    UNKNOWN_TRACK = "unknown_track"  # track; default_of as UNKNOWN_AREA
    NO_AREAS = "no_areas"
    NOT_A_LINK = "not_a_link"  # given
    LINK_TO_ITSELF = "link_to_itself"  # area
    DUPLICATE_LINK = "duplicate_link"  # first (the other link's index), a, b
    NOT_CONNECTED = "not_connected"  # cut_off (area names), start
    NO_PORT = "no_port"  # area
    NO_AIRFIELD = "no_airfield"  # area
    QUALITY_MISSING = "quality_missing"  # choices
    SUPPLY_QUALITY = "supply_quality"
    UNKNOWN_UNIT = "unknown_unit"  # given, known
    PLANES_NOT_STANDS = "planes_not_stands"  # unit, under (where planes go: air, support)
    NO_STANDS = "no_stands"
    ABOVE_ESTABLISHMENT = "above_establishment"  # unit, held, establishment
    ABOVE_SETTINGS_ESTABLISHMENT = "above_settings_establishment"  # stands, establishment
    TOO_MANY_COMPANIES = "too_many_companies"  # side, count, limit
    TOO_MANY_STANDS = "too_many_stands"  # count, limit; side (a scenario's)
    ONLY_WHEN_FINISHED = "only_when_finished"  # field (winner, end_reason)
    # Settings and event tables.
    UNKNOWN_SETTING = "unknown_setting"  # setting
    UNKNOWN_EFFECT = "unknown_effect"  # given, known
    NO_EFFECT = "no_effect"  # face, known (an Old Breed table's entry)
    NOT_AN_EVENT_TABLE = "not_an_event_table"  # given
    NOT_A_FACE = "not_a_face"  # given
    FACE_TWICE = "face_twice"  # face
    FACES_MISSING = "faces_missing"  # faces
    NOT_THE_SIX_FACES = "not_the_six_faces"  # missing (faces)
    # A battle (rules.spec).
    CARRIER_IN_BATTLE = "carrier_in_battle"
    SNIPER_WITHOUT_SQUAD = "sniper_without_squad"
    ATTACKER_SNIPER = "attacker_sniper"
    SAME_SIDES = "same_sides"  # side
    COMPANIES_NOT_FORCE = "companies_not_force"  # companies, force (stands by kind)
    UNKNOWN_RULESET = "unknown_ruleset"  # given, known
    REFUSED_OPTION = "refused_option"  # ruleset (the rule set's own message says why)
    UNKNOWN_LANDFORM = "unknown_landform"  # given, known


class Problem(str):
    """One fault and its place: reads as ``"path: message"`` (``message`` alone when the
    problem is about the whole input), with ``path`` and ``message`` apart, and what kind
    of fault it is (``code``) with what it is about (``fields``, by the code's comment)."""

    path: str
    message: str
    code: Code
    fields: Mapping[str, Any]

    def __new__(
        cls,
        path: str,
        message: str,
        code: Code = Code.MESSAGE,
        fields: Mapping[str, Any] | None = None,
    ) -> Problem:
        problem = super().__new__(cls, f"{path}: {message}" if path else message)
        problem.path = path
        problem.message = message
        problem.code = code
        problem.fields = dict(fields or {})
        return problem

    def moved(self, path: str, message: str | None = None) -> Problem:
        """The same fault said at another place (or with other words)."""
        return Problem(path, self.message if message is None else message, self.code, self.fields)

    @classmethod
    def of(cls, value: object) -> Problem:
        """A problem as given, or a line of words (``"path: message"`` or a message)."""
        if isinstance(value, Problem):
            return value
        return cls("", str(value))

    def as_json(self) -> dict[str, str]:
        """``{"path", "message", "code"}``: the code (a :class:`Code`'s value) for a
        program to tell the kinds of fault apart without reading the message."""
        return {"path": self.path, "message": self.message, "code": self.code.value}

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (Celery results) as a Problem
        return (Problem, (self.path, self.message, self.code, dict(self.fields)))


class Refusal(ValueError):
    """Input refused, with each fault's place and message in ``problems``.

    ``Refusal("message")`` is one problem about the whole input; ``Refusal(problems)``
    (problems or strings) several, the message their lines joined. A subclass may set
    ``prefix`` ("invalid battle: ") for the message only."""

    prefix = ""

    def __init__(self, problems: str | Iterable[object] = ()) -> None:
        if isinstance(problems, str):
            problems = [problems]
        self.problems: list[Problem] = [Problem.of(p) for p in problems]
        super().__init__(self.prefix + "; ".join(self.problems))

    def as_json(self) -> dict[str, Any]:
        """``{"detail": message, "problems": [{"path", "message", "code"}, ...]}``."""
        return {"detail": str(self), "problems": [p.as_json() for p in self.problems]}
