"""Scenario files: a campaign's snapshot as JSON, read and written.

``parse_scenario`` checks a whole decoded document and raises ``ScenarioError`` listing
every problem with its place (``links[3]: unknown area 'Kokoda'``), so a GM fixing a
file sees all of them at once; otherwise it returns the ``CampaignState``.
``dump_scenario`` is its inverse: ``parse_scenario(dump_scenario(s)) == s`` for every
snapshot that ``parse_scenario`` can return. The format is described in docs/rules.md
("Scenarios") and shipped as ``fixtures/scenarios/korona.json``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from rules.battlefield import AREA_VEGETATION
from rules.campaign.state import (
    BATTLE_MODES,
    COMPANY_KINDS,
    FEATURES,
    SIDE_KEYS,
    STANDING_ORDERS,
    UNENTERED_TABLETOP,
    AirGroup,
    Area,
    CampaignState,
    Company,
    Settings,
    Ship,
    Side,
)
from rules.ending import MAX_TURN_LIMIT
from rules.korona import events as combat_events
from rules.refusals import Code, Refusal
from rules.rulesets import RULESETS
from rules.spec import (
    MAX_COMPANIES,
    MAX_FORCE_STANDS,
    MAX_LONG_NAME,
    MAX_NAME,
    MAX_PLANES,
    MAX_SEED,
    MAX_STANDS,
    MAX_TABLE_FT,
    MAX_TEXT,
    MAX_ZONE,
    Checker,
    DocumentError,
    check_landform_going,
    key_label,
    list_problem,
    read_json_file,
    shown,
    text_problem,
    unknown_unit,
)
from rules.units import STAND_TYPES, UNIT_TYPES, Quality

# An event's effect -> the fields it needs besides ``effect`` (any entry may add ``text``).
# The meaning of each effect is in the comment above state.DEFAULT_NAVAL_TABLE.
EVENT_EFFECTS: dict[str, tuple[str, ...]] = {
    "ship_returns": ("side",),
    "no_supply_support": ("side",),
    "ship_departs": ("side",),
    "planes_lost": ("side", "count"),
    "planes_recalled": ("side",),
    "bomber_arrives": ("side",),
    "strafe_company": ("side", "track"),
    "side_out_of_supply": ("side",),
    "none": (),
}
DIE_FACES = (1, 2, 3, 4, 5, 6)
MAP_SIZE = 1000.0  # map coordinates run from 0 to this, across and down
# Bounds of a scenario besides those of rules.spec (docs/rules.md, "Scenarios").
MAX_TURNS = 1000  # a campaign's turn limit, so its turn and any count of turns
MAX_AREAS = 500
MAX_LINKS = 2000
MAX_SHIPS = 100
MAX_TRACKS = 100  # names in settings.rough_tracks
MAX_ESTABLISHMENT = 100  # settings.establishment: stands of a fighting company
MAX_MODIFIER = 6  # a modifier to a d6 roll

SCENARIO_FIELDS = (
    "name",
    "seed",
    "turn",
    "settings",
    "sides",
    "areas",
    "links",
    "companies",
    "ships",
    "air",
    "finished",
    "winner",
    "end_reason",
)
SIDE_FIELDS = ("key", "name", "base")
AREA_FIELDS = ("name", "zone", "track", "vegetation", "plains", "features", "x", "y", "controller")
COMPANY_FIELDS = (
    "name",
    "side",
    "kind",
    "quality",
    "area",
    "stands",
    "establishment",
    "turns_out_of_supply",
    "banzai",
    "standing_order",
    "in_supply",
)
SHIP_FIELDS = ("name", "side", "port", "present")
AIR_FIELDS = ("side", "base", "buffalos", "bombers")
SETTING_NAMES = tuple(f.name for f in fields(Settings))

# Settings by the kind of value they hold.
_INTEGER_SETTINGS: dict[str, tuple[int, int]] = {  # name -> (minimum, maximum)
    "turn_limit": (1, MAX_TURNS),
    "naval_trigger": (1, 6),
    "aerial_trigger": (1, 6),
    "supply_company_bonus": (0, MAX_MODIFIER),
    "rough_track_penalty": (0, MAX_MODIFIER),
    "out_of_supply_turns_before_losses": (1, MAX_TURNS),
    "airdrop_zone": (0, MAX_ZONE),
    "max_bombers": (0, MAX_PLANES),
    "establishment": (1, MAX_ESTABLISHMENT),
    "tactical_turn_limit": (1, MAX_TURN_LIMIT),  # what a battle's turn_limit may be
    "table_width_ft": (1, MAX_TABLE_FT),  # the battle table, as BATTLE.json's table
    "table_depth_ft": (1, MAX_TABLE_FT),
}
INTEGER_SETTINGS = _INTEGER_SETTINGS  # the bounds, for a form that asks for them
_BOOLEAN_SETTINGS = (
    "ship_absence_blocks_supply",
    "fog_of_war",
    "combat_events",
    "fog_of_war_cup",
    "supply_replaces_battle_losses",
)
_AREA_SETTINGS = ("airdrop_base", "objective")  # an area name, or null for none
_TABLE_SETTINGS = ("naval_table", "aerial_table")
_COMBAT_TABLE_SETTINGS = ("combat_event_table", "japanese_event_table")  # Old Breed 17.0


class ScenarioError(Refusal):
    """A scenario that cannot be played; ``problems`` names each fault and its place."""

    prefix = "invalid scenario: "


class _ScenarioChecker(Checker):
    """The battle checker's habits, plus the shapes a scenario has and a battle has not."""

    names_missing_integer = True

    def sequence(self, value: Any, where: str, *, limit: int) -> list[Any]:
        if value is None:
            self.fail(where, "is missing", Code.MISSING)
            return []
        problem = list_problem(value, where, limit=limit)
        if problem is not None:
            self.add(problem)
            return []
        return list(value)

    def name(self, value: Any, where: str, *, limit: int = MAX_NAME) -> str | None:
        """A name something else refers to: exact, so no spaces around it; at most
        ``limit`` characters and no control characters."""
        if value is None:
            self.fail(where, "is missing", Code.MISSING)
            return None
        given = shown(value)
        if not isinstance(value, str) or not value.strip():
            self.fail(where, f"must be a non-empty string, not {given}", Code.NOT_TEXT, given=given)
            return None
        if (problem := text_problem(value, limit)) is not None:
            self.add(problem.moved(where))
            return None
        if value != value.strip():
            self.fail(
                where,
                f"must not begin or end with spaces: {given}",
                Code.SPACES_AROUND,
                given=given,
            )
            return None
        return value

    def optional_name(self, value: Any, where: str, *, limit: int = MAX_NAME) -> str | None:
        return None if value is None else self.name(value, where, limit=limit)

    def number(self, value: Any, where: str, *, maximum: float, default: float) -> float:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            given = shown(value)
            self.fail(where, f"must be a number, not {given}", Code.NOT_A_NUMBER, given=given)
            return default
        if isinstance(value, float) and not math.isfinite(value):
            self.fail(
                where, f"must be a finite number, not {value!r}", Code.NOT_FINITE, given=repr(value)
            )
            return default
        if not 0 <= value <= maximum:
            self.fail(
                where,
                f"must be from 0 to {maximum:g}, not {value}",
                Code.OUT_OF_RANGE,
                minimum=0,
                maximum=f"{maximum:g}",
                given=str(value),
            )
            return default
        return float(value)

    def optional_boolean(self, value: Any, where: str) -> bool | None:
        if value is None or isinstance(value, bool):
            return value
        given = shown(value)
        self.fail(
            where,
            f"must be true, false or null, not {given}",
            Code.NOT_TRUE_OR_FALSE,
            given=given,
            null_allowed=True,
        )
        return None

    def unknown_keys(
        self, raw: Mapping[Any, Any], known: Sequence[str], where: str, entry: str, what: str
    ) -> None:
        """Each key of ``raw`` not ``known``: ``entry`` is what ``raw`` is (a company),
        ``what`` the same in the message's words ("a company")."""
        for key in sorted(set(raw) - set(known), key=str):
            label = key_label(key)
            self.fail(
                f"{where}.{label}" if where else label,
                f"is not a field of {what}",
                Code.UNKNOWN_FIELD,
                field=label,
                entry=entry,
            )


# --- settings ---------------------------------------------------------------------------


_FACE_NAMES = frozenset(str(face) for face in DIE_FACES)


def _face(key: Any) -> int | None:
    if isinstance(key, int) and not isinstance(key, bool) and key in DIE_FACES:
        return key
    if isinstance(key, str) and key in _FACE_NAMES:
        return int(key)
    return None


def _event(check: _ScenarioChecker, value: Any, where: str) -> dict[str, Any]:
    raw = check.mapping(value, where)
    effect = raw.get("effect")
    if not isinstance(effect, str) or effect not in EVENT_EFFECTS:
        if effect is None:
            check.fail(f"{where}.effect", "is missing", Code.MISSING)
        else:
            check.fail(
                f"{where}.effect",
                f"unknown effect {shown(effect)} (known: {', '.join(EVENT_EFFECTS)})",
                Code.UNKNOWN_EFFECT,
                given=shown(effect),
                known=tuple(EVENT_EFFECTS),
            )
        return {"effect": "none"}
    needs = EVENT_EFFECTS[effect]
    entry: dict[str, Any] = {"effect": effect}
    if "side" in needs:
        entry["side"] = check.choice(raw.get("side"), f"{where}.side", SIDE_KEYS)
    if "count" in needs:
        entry["count"] = check.integer(
            raw.get("count"), f"{where}.count", minimum=1, maximum=MAX_PLANES
        )
    if "track" in needs:
        entry["track"] = check.name(raw.get("track"), f"{where}.track")
    if "text" in raw:
        if not isinstance(raw["text"], str):
            given = shown(raw["text"])
            check.fail(
                f"{where}.text", f"must be a string, not {given}", Code.NOT_TEXT, given=given
            )
        elif (problem := text_problem(raw["text"].replace("\n", " "), MAX_TEXT)) is not None:
            check.add(problem.moved(f"{where}.text"))
        else:
            entry["text"] = raw["text"]
    check.unknown_keys(raw, ("effect", "text", *needs), where, "event", f"a {effect} event")
    return entry


def _event_table(check: _ScenarioChecker, value: Any, where: str) -> dict[int, dict[str, Any]]:
    if not isinstance(value, Mapping):
        given = shown(value)
        check.fail(
            where,
            f"must be an object with an entry for each face 1-6, not {given}",
            Code.NOT_AN_EVENT_TABLE,
            given=given,
        )
        return {}
    table: dict[int, dict[str, Any]] = {}
    for key, entry in value.items():
        face = _face(key)
        spot = f"{where}.{key_label(key)}"
        if face is None:
            check.fail(spot, "is not a face of a d6 (1 to 6)", Code.NOT_A_FACE, given=shown(key))
        elif face in table:
            check.fail(spot, f"face {face} is given twice", Code.FACE_TWICE, face=face)
        else:
            table[face] = _event(check, entry, spot)
    missing = [str(face) for face in DIE_FACES if face not in table]
    if missing:
        check.fail(
            where,
            f"no entry for face {', '.join(missing)}: every face 1-6 needs one",
            Code.FACES_MISSING,
            faces=tuple(missing),
        )
    return {face: table[face] for face in DIE_FACES if face in table}


# A setting's check reads its value (``item``, at ``spot``; ``where`` is the settings'
# place) and returns it, or _INVALID after noting the problem (the setting keeps its
# default).
_INVALID = object()
SettingCheck = Callable[[_ScenarioChecker, Any, str, str], Any]


def _integer_setting(low: int, high: int) -> SettingCheck:
    def read(check: _ScenarioChecker, item: Any, spot: str, _: str) -> Any:
        if item is None:
            check.fail(
                spot, "must be a whole number, not null", Code.NOT_A_WHOLE_NUMBER, given="null"
            )
            return _INVALID
        return check.integer(item, spot, minimum=low, maximum=high)

    return read


def _boolean_setting(check: _ScenarioChecker, item: Any, spot: str, _: str) -> Any:
    if isinstance(item, bool):
        return item
    check.not_boolean(item, spot)
    return _INVALID


def _area_setting(check: _ScenarioChecker, item: Any, spot: str, _: str) -> Any:
    return check.optional_name(item, spot)


def _table_setting(check: _ScenarioChecker, item: Any, spot: str, _: str) -> Any:
    return _event_table(check, item, spot)


def _combat_table_setting(check: _ScenarioChecker, item: Any, spot: str, _: str) -> Any:
    problems = combat_events.check_table(item, spot)
    for problem in problems:
        check.add(problem.moved(spot, problem.message.removeprefix(f"{spot} ").removeprefix(spot)))
    if problems:
        return _INVALID
    return {int(face): {str(k): v for k, v in entry.items()} for face, entry in item.items()}


def _rough_tracks(check: _ScenarioChecker, item: Any, spot: str, _: str) -> Any:
    items = check.sequence(item, spot, limit=MAX_TRACKS)
    tracks = [check.name(track, f"{spot}[{i}]") for i, track in enumerate(items)]
    return tuple(t for t in tracks if t is not None)


def _choice_setting(choices: tuple[str, ...]) -> SettingCheck:
    def read(check: _ScenarioChecker, item: Any, spot: str, _: str) -> Any:
        return check.choice(item, spot, choices)

    return read


def _airdrop_side(check: _ScenarioChecker, item: Any, spot: str, _: str) -> Any:
    return None if item is None else check.choice(item, spot, SIDE_KEYS)


def _landform_going(check: _ScenarioChecker, item: Any, _: str, where: str) -> Any:
    return check_landform_going(check, item if item is not None else {}, where)


# Every setting's check, by the kind of value it holds.
_SETTING_CHECKS: dict[str, SettingCheck] = {
    **{key: _integer_setting(low, high) for key, (low, high) in _INTEGER_SETTINGS.items()},
    **{key: _boolean_setting for key in _BOOLEAN_SETTINGS},
    **{key: _area_setting for key in _AREA_SETTINGS},
    **{key: _table_setting for key in _TABLE_SETTINGS},
    **{key: _combat_table_setting for key in _COMBAT_TABLE_SETTINGS},
    "rough_tracks": _rough_tracks,
    "battle_mode": _choice_setting(BATTLE_MODES),
    "unentered_tabletop": _choice_setting(UNENTERED_TABLETOP),
    "ruleset": _choice_setting(tuple(RULESETS)),
    "airdrop_side": _airdrop_side,
    "landform_going": _landform_going,
}


def _settings(check: _ScenarioChecker, value: Any, where: str) -> Settings:
    """Absent settings take the defaults; a present one must hold the right kind of value."""
    if value is None:
        return Settings()
    raw = check.mapping(value, where)
    for key in sorted(set(raw) - set(SETTING_NAMES), key=str):
        label = key_label(key)
        check.fail(f"{where}.{label}", "is not a setting", Code.UNKNOWN_SETTING, setting=label)
    given: dict[str, Any] = {}
    for key in SETTING_NAMES:
        if key not in raw:
            continue
        read = _SETTING_CHECKS.get(key)
        if read is None:  # pragma: no cover - a new Settings field needs a check above
            raise AssertionError(f"setting {key!r} has no check")
        item = read(check, raw[key], f"{where}.{key}", where)
        if item is not _INVALID:
            given[key] = item
    return Settings(**given)


def settings_from_json(data: Any) -> Settings:
    """Read the settings object of a scenario on its own (no map to check names against)."""
    check = _ScenarioChecker()
    settings = _settings(check, data, "settings")
    if check.problems:
        raise ScenarioError(check.problems)
    return settings


def settings_to_json(settings: Settings) -> dict[str, Any]:
    """Every setting, JSON-ready: tuples as lists, event-table faces as strings."""
    out: dict[str, Any] = {}
    for key in SETTING_NAMES:
        value = getattr(settings, key)
        if key in (*_TABLE_SETTINGS, *_COMBAT_TABLE_SETTINGS):
            value = {str(face): dict(entry) for face, entry in value.items()}
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, dict):
            value = dict(value)
        out[key] = value
    return out


# --- the document -----------------------------------------------------------------------


def _stand_counts(check: _ScenarioChecker, value: Any, where: str) -> dict[str, int]:
    raw = check.mapping(value, where)
    counts: dict[str, int] = {}
    for unit, count in raw.items():
        spot = f"{where}.{key_label(unit)}"
        if not isinstance(unit, str) or unit not in UNIT_TYPES:
            unknown_unit(check, unit, spot)
        elif UNIT_TYPES[unit].off_table:
            check.fail(
                spot,
                "air support is not a stand: give planes under air",
                Code.PLANES_NOT_STANDS,
                unit=unit,
                under="air",
            )
        else:
            counts[unit] = check.integer(count, spot, minimum=0, maximum=MAX_STANDS)
    return counts


def _labelled(where: str, name: str | None) -> str:
    return f"{where} ({name})" if name is not None else where


def _record(
    check: _ScenarioChecker, seen: dict[str, str], name: str | None, where: str, entry: str
) -> bool:
    """Note a name; a second use of it is a problem. True when the name is new. ``entry``
    is what the name names (company, area, ship, side_name, air_group: a side's)."""
    if name is None:
        return False
    if name in seen:
        what = entry.replace("_", " ")
        message = f"duplicate {what} {name!r} (first at {seen[name]})"
        if entry == "air_group":
            check.fail(where, message, Code.DUPLICATE_AIR_GROUP, side=name)
        else:
            check.fail(where, message, Code.DUPLICATE, entry=entry, name=name)
        return False
    seen[name] = where
    return True


def _sides(check: _ScenarioChecker, value: Any) -> tuple[dict[str, Side], dict[str, str]]:
    """The sides, and where each one's base was given (checked once the areas are known)."""
    sides: dict[str, Side] = {}
    bases: dict[str, str] = {}
    names: dict[str, str] = {}
    for i, item in enumerate(check.sequence(value, "sides", limit=len(SIDE_KEYS))):
        where = f"sides[{i}]"
        raw = check.mapping(item, where)
        key = raw.get("key")
        if key is not None and key in SIDE_KEYS:
            where = _labelled(where, key)
        elif key is None:
            check.fail(f"{where}.key", "is missing", Code.MISSING)
        else:
            check.choice(key, f"{where}.key", SIDE_KEYS)
        name = check.name(raw.get("name"), f"{where}.name")
        _record(check, names, name, f"{where}.name", "side_name")
        base = check.name(raw.get("base"), f"{where}.base")
        check.unknown_keys(raw, SIDE_FIELDS, where, "side", "a side")
        if key not in SIDE_KEYS:
            continue
        if key in sides:
            check.fail(f"{where}.key", f"duplicate side {key!r}", Code.DUPLICATE_SIDE, side=key)
            continue
        sides[key] = Side(key=key, name=name or "", base=base or "")
        if base is not None:
            bases[key] = f"{where}.base"
    missing = [key for key in SIDE_KEYS if key not in sides]
    if missing and isinstance(value, Sequence):
        check.fail(
            "sides",
            f"a campaign needs both sides: no {' or '.join(missing)}",
            Code.SIDES_MISSING,
            sides=tuple(missing),
        )
    return sides, bases


def _side_ref(check: _ScenarioChecker, value: Any, where: str) -> str:
    # Both sides must be declared, so a side key names a declared side or that is
    # reported once under "sides", not at every company of the missing side.
    return check.choice(value, where, SIDE_KEYS)


def _area_ref(
    check: _ScenarioChecker, value: Any, where: str, areas: Mapping[str, Area]
) -> str | None:
    name = check.name(value, where)
    if name is not None and name not in areas:
        check.fail(where, f"unknown area {shown(name)}", Code.UNKNOWN_AREA, area=name)
        return None
    return name


def _areas(check: _ScenarioChecker, value: Any) -> dict[str, Area]:
    areas: dict[str, Area] = {}
    seen: dict[str, str] = {}
    items = check.sequence(value, "areas", limit=MAX_AREAS)
    if value is not None and not items and isinstance(value, list):
        check.fail("areas", "a map needs at least one area", Code.NO_AREAS)
    for i, item in enumerate(items):
        where = f"areas[{i}]"
        raw = check.mapping(item, where)
        name = check.name(raw.get("name"), f"{where}.name")
        where = _labelled(where, name)
        zone = check.integer(raw.get("zone"), f"{where}.zone", minimum=0, maximum=MAX_ZONE)
        track = check.name(raw.get("track"), f"{where}.track")
        vegetation = check.choice(raw.get("vegetation"), f"{where}.vegetation", AREA_VEGETATION)
        plains = check.boolean(raw.get("plains"), f"{where}.plains", default=False)
        features: list[str] = []
        raw_features = raw.get("features")
        for j, feature in enumerate(
            []
            if raw_features is None
            else check.sequence(raw_features, f"{where}.features", limit=len(FEATURES))
        ):
            spot = f"{where}.features[{j}]"
            if feature not in FEATURES:
                check.choice(feature, spot, FEATURES)
            elif feature in features:
                check.fail(
                    spot, f"{feature!r} is given twice", Code.GIVEN_TWICE, given=shown(feature)
                )
            else:
                features.append(feature)
        x = check.number(raw.get("x"), f"{where}.x", maximum=MAP_SIZE, default=0.0)
        y = check.number(raw.get("y"), f"{where}.y", maximum=MAP_SIZE, default=0.0)
        controller = raw.get("controller")
        if controller is not None:
            controller = _side_ref(check, controller, f"{where}.controller")
        check.unknown_keys(raw, AREA_FIELDS, where, "area", "an area")
        if _record(check, seen, name, f"{where}.name", "area") and name:
            areas[name] = Area(
                name=name,
                zone=zone,
                track=track or "",
                vegetation=vegetation,
                plains=plains,
                features=tuple(features),
                x=x,
                y=y,
                controller=controller,
            )
    return areas


def _links(check: _ScenarioChecker, value: Any, areas: Mapping[str, Area]) -> list[tuple[str, str]]:
    links: list[tuple[str, str]] = []
    seen: dict[frozenset[str], int] = {}
    for i, item in enumerate(check.sequence(value, "links", limit=MAX_LINKS)):
        where = f"links[{i}]"
        if (
            isinstance(item, str | bytes | Mapping)
            or not isinstance(item, Sequence)
            or len(item) != 2
            or not all(isinstance(end, str) for end in item)
        ):
            given = shown(item)
            check.fail(
                where, f"must be a pair of area names, not {given}", Code.NOT_A_LINK, given=given
            )
            continue
        a, b = item
        unknown = [end for end in dict.fromkeys((a, b)) if end not in areas]
        for end in unknown:
            check.fail(where, f"unknown area {shown(end)}", Code.UNKNOWN_AREA, area=end)
        if a == b:
            check.fail(where, f"links {shown(a)} to itself", Code.LINK_TO_ITSELF, area=a)
            continue
        pair = frozenset((a, b))
        if pair in seen:
            check.fail(
                where,
                f"duplicates links[{seen[pair]}] ({a} - {b})",
                Code.DUPLICATE_LINK,
                first=seen[pair],
                a=a,
                b=b,
            )
            continue
        seen[pair] = i
        if not unknown:
            links.append((a, b))
    return links


def _cut_off(areas: Mapping[str, Area], links: list[tuple[str, str]]) -> list[str]:
    """The areas that cannot be reached from the first one, in document order."""
    if not areas:
        return []
    neighbours: dict[str, set[str]] = {name: set() for name in areas}
    for a, b in links:
        neighbours[a].add(b)
        neighbours[b].add(a)
    start = next(iter(areas))
    reached, frontier = {start}, [start]
    while frontier:
        for other in neighbours[frontier.pop()]:
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    return [name for name in areas if name not in reached]


def _quality(check: _ScenarioChecker, raw: Mapping[str, Any], where: str, kind: Any) -> str | None:
    """A fighting company's quality; a supply company has none."""
    qualities = tuple(str(q) for q in Quality)
    if kind == "fighting" and raw.get("quality") is None:
        check.fail(
            f"{where}.quality",
            f"a fighting company needs a quality ({', '.join(qualities)})",
            Code.QUALITY_MISSING,
            choices=qualities,
        )
    elif kind == "fighting":
        return check.choice(raw.get("quality"), f"{where}.quality", qualities)
    elif raw.get("quality") is not None:
        check.fail(
            f"{where}.quality",
            "a supply company never fights and has no quality",
            Code.SUPPLY_QUALITY,
        )
    return None


def _holdings(
    check: _ScenarioChecker, raw: Mapping[str, Any], where: str, kind: Any, settings: Settings
) -> tuple[dict[str, int], dict[str, int]]:
    """The stands a company holds and its establishment (by default what it holds):
    never more held than established, at least one stand, and a fighting company within
    the settings' establishment."""
    held = _stand_counts(check, raw.get("stands"), f"{where}.stands")
    if raw.get("establishment") is None:
        full = dict(held)
    else:
        full = _stand_counts(check, raw.get("establishment"), f"{where}.establishment")
    for unit, count in held.items():
        if count > full.get(unit, 0):
            check.fail(
                f"{where}.stands.{unit}",
                f"held {count} is above establishment {full.get(unit, 0)}",
                Code.ABOVE_ESTABLISHMENT,
                unit=unit,
                held=count,
                establishment=full.get(unit, 0),
            )
    if isinstance(raw.get("stands"), Mapping) and not sum(held.values()):
        check.fail(f"{where}.stands", "a company needs at least one stand", Code.NO_STANDS)
    if kind == "fighting" and sum(full.values()) > settings.establishment:
        check.fail(
            f"{where}.establishment",
            f"{sum(full.values())} stands is above a fighting company's establishment "
            f"of {settings.establishment} (settings.establishment)",
            Code.ABOVE_SETTINGS_ESTABLISHMENT,
            stands=sum(full.values()),
            establishment=settings.establishment,
        )
    return held, full


def _company_condition(
    check: _ScenarioChecker, raw: Mapping[str, Any], where: str
) -> dict[str, Any]:
    """A company's supply, Banzai! and standing order, as Company's fields."""
    return {
        "turns_out_of_supply": check.integer(
            raw.get("turns_out_of_supply"),
            f"{where}.turns_out_of_supply",
            minimum=0,
            maximum=MAX_TURNS,
            default=0,
        ),
        "banzai": check.boolean(raw.get("banzai"), f"{where}.banzai", default=False),
        "standing_order": check.choice(
            raw.get("standing_order"),
            f"{where}.standing_order",
            STANDING_ORDERS,
            default="sensible",
        ),
        "in_supply": check.optional_boolean(raw.get("in_supply"), f"{where}.in_supply"),
    }


def _company(
    check: _ScenarioChecker,
    item: Any,
    where: str,
    areas: Mapping[str, Area],
    settings: Settings,
) -> tuple[str | None, Company]:
    """One company of the list, and its name (None when it has no usable one)."""
    raw = check.mapping(item, where)
    name = check.name(raw.get("name"), f"{where}.name")
    where = _labelled(where, name)
    side = _side_ref(check, raw.get("side"), f"{where}.side")
    kind = check.choice(raw.get("kind"), f"{where}.kind", COMPANY_KINDS)
    quality = _quality(check, raw, where, kind)
    area = _area_ref(check, raw.get("area"), f"{where}.area", areas)
    held, full = _holdings(check, raw, where, kind, settings)
    units = [unit for unit in STAND_TYPES if unit in held or unit in full]
    condition = _company_condition(check, raw, where)
    check.unknown_keys(raw, COMPANY_FIELDS, where, "company", "a company")
    company = Company(
        name=name or "",
        side=side,
        kind=kind,
        area=area or "",
        stands={unit: held.get(unit, 0) for unit in units},
        establishment={unit: full.get(unit, 0) for unit in units},
        quality=quality,
        **condition,
    )
    return name, company


def _check_side_bounds(check: _ScenarioChecker, companies: Mapping[str, Company]) -> None:
    """Every battle force is made of one side's companies: bounding a side bounds a force."""
    for key in SIDE_KEYS:
        own = [c for c in companies.values() if c.side == key]
        stands = sum(sum(c.stands.values()) for c in own)
        if len(own) > MAX_COMPANIES:
            check.fail(
                "companies",
                f"{key} has {len(own)} companies, more than {MAX_COMPANIES}",
                Code.TOO_MANY_COMPANIES,
                side=key,
                count=len(own),
                limit=MAX_COMPANIES,
            )
        if stands > MAX_FORCE_STANDS:
            check.fail(
                "companies",
                f"{key} has {stands} stands, more than a battle force may hold "
                f"({MAX_FORCE_STANDS})",
                Code.TOO_MANY_STANDS,
                side=key,
                count=stands,
                limit=MAX_FORCE_STANDS,
            )


def _companies(
    check: _ScenarioChecker, value: Any, areas: Mapping[str, Area], settings: Settings
) -> dict[str, Company]:
    companies: dict[str, Company] = {}
    seen: dict[str, str] = {}
    for i, item in enumerate(check.sequence(value, "companies", limit=2 * MAX_COMPANIES)):
        name, company = _company(check, item, f"companies[{i}]", areas, settings)
        where = _labelled(f"companies[{i}]", name)
        if _record(check, seen, name, f"{where}.name", "company") and name:
            companies[name] = company
    _check_side_bounds(check, companies)
    return companies


def _ships(check: _ScenarioChecker, value: Any, areas: Mapping[str, Area]) -> list[Ship]:
    ships: list[Ship] = []
    seen: dict[str, str] = {}
    for i, item in enumerate(check.sequence(value, "ships", limit=MAX_SHIPS)):
        where = f"ships[{i}]"
        raw = check.mapping(item, where)
        name = check.name(raw.get("name"), f"{where}.name")
        where = _labelled(where, name)
        side = _side_ref(check, raw.get("side"), f"{where}.side")
        port = _area_ref(check, raw.get("port"), f"{where}.port", areas)
        if port is not None and "port" not in areas[port].features:
            check.fail(f"{where}.port", f"{port} has no port (features)", Code.NO_PORT, area=port)
        present = check.boolean(raw.get("present"), f"{where}.present", default=True)
        check.unknown_keys(raw, SHIP_FIELDS, where, "ship", "a ship")
        if _record(check, seen, name, f"{where}.name", "ship") and name:
            ships.append(Ship(name=name, side=side, port=port or "", present=present))
    return ships


def _air(
    check: _ScenarioChecker, value: Any, areas: Mapping[str, Area], settings: Settings
) -> list[AirGroup]:
    groups: list[AirGroup] = []
    seen: dict[str, str] = {}
    for i, item in enumerate(check.sequence(value, "air", limit=len(SIDE_KEYS))):
        where = f"air[{i}]"
        raw = check.mapping(item, where)
        side = _side_ref(check, raw.get("side"), f"{where}.side")
        base = _area_ref(check, raw.get("base"), f"{where}.base", areas)
        if base is not None and not {"airfield", "airstrip"} & set(areas[base].features):
            check.fail(
                f"{where}.base",
                f"{base} has no airfield or airstrip (features)",
                Code.NO_AIRFIELD,
                area=base,
            )
        buffalos = check.integer(
            raw.get("buffalos"), f"{where}.buffalos", minimum=0, maximum=MAX_PLANES, default=0
        )
        bombers = check.integer(
            raw.get("bombers"),
            f"{where}.bombers",
            minimum=0,
            maximum=settings.max_bombers,
            default=0,
        )
        check.unknown_keys(raw, AIR_FIELDS, where, "air_group", "an air group")
        new = raw.get("side") == side and _record(check, seen, side, f"{where}.side", "air_group")
        if new:
            groups.append(AirGroup(side=side, base=base or "", buffalos=buffalos, bombers=bombers))
    return groups


def _check_names_in_settings(
    check: _ScenarioChecker, raw: Any, settings: Settings, areas: Mapping[str, Area]
) -> None:
    """Settings that name places on the map must name ones that exist, defaults included:
    the defaults name Korona's places, and another map has to say what it uses instead."""
    if not areas:
        return
    given = raw if isinstance(raw, Mapping) else {}

    def fail(key: str, where: str, message: str, code: Code, **fields: Any) -> None:
        default = "" if key in given else f" (the default; give settings.{key} for this map)"
        check.fail(
            where, message + default, code, default_of=None if key in given else key, **fields
        )

    tracks = {area.track for area in areas.values()}
    for key in _AREA_SETTINGS:
        value = getattr(settings, key)
        if value is not None and value not in areas:
            fail(
                key,
                f"settings.{key}",
                f"unknown area {shown(value)}",
                Code.UNKNOWN_AREA,
                area=value,
            )
    for i, track in enumerate(settings.rough_tracks):
        if track not in tracks:
            fail(
                "rough_tracks",
                f"settings.rough_tracks[{i}]",
                f"no area is on track {shown(track)}",
                Code.UNKNOWN_TRACK,
                track=track,
            )
    for key in _TABLE_SETTINGS:
        for face, entry in getattr(settings, key).items():
            track = entry.get("track")
            if track is not None and track not in tracks:
                fail(
                    key,
                    f"settings.{key}.{face}.track",
                    f"no area is on track {shown(track)}",
                    Code.UNKNOWN_TRACK,
                    track=track,
                )


def _ending(check: _ScenarioChecker, doc: Mapping[str, Any]) -> tuple[bool, str | None, str | None]:
    """Whether the campaign is finished, and its winner and end reason (only if it is)."""
    finished = check.boolean(doc.get("finished"), "finished", default=False)
    winner = doc.get("winner")
    if winner is not None:
        winner = _side_ref(check, winner, "winner")
        if not finished:
            check.fail(
                "winner",
                "a campaign that is not finished has no winner",
                Code.ONLY_WHEN_FINISHED,
                field="winner",
            )
    end_reason = check.optional_name(doc.get("end_reason"), "end_reason", limit=MAX_LONG_NAME)
    if end_reason is not None and not finished:
        check.fail(
            "end_reason",
            "a campaign that is not finished has no end reason",
            Code.ONLY_WHEN_FINISHED,
            field="end_reason",
        )
    return finished, winner, end_reason


def parse_scenario(data: Any) -> CampaignState:
    """Validate a decoded scenario document and build the campaign's snapshot."""
    check = _ScenarioChecker()
    if not check.document(data, "scenario"):
        raise ScenarioError(check.problems)
    doc = check.mapping(data, "scenario")
    name = check.name(doc.get("name"), "name", limit=MAX_LONG_NAME)
    seed = check.integer(doc.get("seed"), "seed", minimum=0, maximum=MAX_SEED, default=0)
    turn = check.integer(doc.get("turn"), "turn", minimum=0, maximum=MAX_TURNS, default=0)
    settings = _settings(check, doc.get("settings"), "settings")
    sides, bases = _sides(check, doc.get("sides"))
    areas = _areas(check, doc.get("areas"))
    for key, where in bases.items():
        if sides[key].base not in areas:
            base = sides[key].base
            check.fail(where, f"unknown area {base!r}", Code.UNKNOWN_AREA, area=base)
    _check_names_in_settings(check, doc.get("settings"), settings, areas)
    links = _links(check, doc.get("links"), areas)
    cut_off = _cut_off(areas, links)
    if cut_off:
        check.fail(
            "links",
            f"the map is not connected: {', '.join(cut_off)} cannot be reached from "
            f"{next(iter(areas))}",
            Code.NOT_CONNECTED,
            cut_off=tuple(cut_off),
            start=next(iter(areas)),
        )
    companies = _companies(check, doc.get("companies"), areas, settings)
    ships = _ships(check, doc.get("ships", []), areas)
    air = _air(check, doc.get("air", []), areas, settings)
    finished, winner, end_reason = _ending(check, doc)
    check.unknown_keys(doc, SCENARIO_FIELDS, "", "scenario", "a scenario")
    if check.problems:
        raise ScenarioError(check.problems)
    assert name is not None  # a missing name is a problem, raised above
    return CampaignState(
        name=name,
        seed=seed,
        settings=settings,
        sides=sides,
        areas=areas,
        links=links,
        companies=companies,
        ships=ships,
        air=air,
        turn=turn,
        finished=finished,
        winner=winner,
        end_reason=end_reason,
    )


def dump_scenario(state: CampaignState) -> dict[str, Any]:
    """The scenario document of a snapshot, JSON-ready, every field written out."""
    return {
        "name": state.name,
        "seed": state.seed,
        "turn": state.turn,
        "settings": settings_to_json(state.settings),
        "sides": [{"key": s.key, "name": s.name, "base": s.base} for s in state.sides.values()],
        "areas": [
            {
                "name": a.name,
                "zone": a.zone,
                "track": a.track,
                "vegetation": a.vegetation,
                "plains": a.plains,
                "features": list(a.features),
                "x": a.x,
                "y": a.y,
                "controller": a.controller,
            }
            for a in state.areas.values()
        ],
        "links": [[a, b] for a, b in state.links],
        "companies": [
            {
                "name": c.name,
                "side": c.side,
                "kind": c.kind,
                "quality": c.quality,
                "area": c.area,
                "stands": dict(c.stands),
                "establishment": dict(c.establishment),
                "turns_out_of_supply": c.turns_out_of_supply,
                "banzai": c.banzai,
                "standing_order": c.standing_order,
                "in_supply": c.in_supply,
            }
            for c in state.companies.values()
        ],
        "ships": [
            {"name": s.name, "side": s.side, "port": s.port, "present": s.present}
            for s in state.ships
        ],
        "air": [
            {"side": g.side, "base": g.base, "buffalos": g.buffalos, "bombers": g.bombers}
            for g in state.air
        ],
        "finished": state.finished,
        "winner": state.winner,
        "end_reason": state.end_reason,
    }


def read_scenario(path: str | Path) -> Any:
    """Read a scenario file's JSON, not yet checked; a bad file is a ``ScenarioError``."""
    try:
        return read_json_file(path)
    except DocumentError as exc:
        raise ScenarioError(exc.problems) from exc


def campaign_name_problem(name: Any) -> str | None:
    """Why ``name`` cannot name a campaign, or None (the admin's and the command's)."""
    if not isinstance(name, str) or not name.strip():
        return "a campaign needs a name"
    problem = text_problem(name.strip(), MAX_LONG_NAME)
    return None if problem is None else f"the campaign's name {problem.message}"


def load_scenario(path: str | Path) -> CampaignState:
    """Read and validate a scenario file."""
    return parse_scenario(read_scenario(path))
