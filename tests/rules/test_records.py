"""Every record of every battle has the typed shape rules.records gives its kind, and a
battle's result is a BattleResult: fought under both rule sets, with and without the Old
Breed options, over several seeds (bench/battle_hash.py's battles)."""

from __future__ import annotations

import copy
import sys
import types
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest

from rules.records import EXTRA_FIELDS, RECORD_KINDS, BattleResult
from rules.rulesets import resolve_battle
from rules.spec import parse_battle

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from battle_hash import battle_docs  # noqa: E402

OPTIONS = {
    "korona": [{}, {"combat_events": True, "fog_of_war_cup": True}],
    "force_on_force": [
        {},
        {
            "combat_events": True,
            "fog_of_war_cup": True,
            "night": True,
            "defender_hidden": True,
            "dug_in": "improved",
            "advanced_first_aid": ["australian", "japanese"],
        },
    ],
}


def conforms(value: Any, shape: Any) -> bool:
    """Whether a JSON value is of a declared type (Any, unions, lists, dicts, scalars)."""
    if shape is Any:
        return True
    origin = get_origin(shape)
    if origin in (Union, types.UnionType):
        return any(conforms(value, arm) for arm in get_args(shape))
    if origin is list:
        (item,) = get_args(shape)
        return isinstance(value, list) and all(conforms(v, item) for v in value)
    if origin is dict:
        key, item = get_args(shape)
        return isinstance(value, dict) and all(
            conforms(k, key) and conforms(v, item) for k, v in value.items()
        )
    if shape is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, shape)


def problems(record: dict[str, Any], shape: type, extra: dict[str, Any]) -> list[str]:
    hints = {**get_type_hints(shape), **extra}
    required = set(shape.__required_keys__) | set(extra)  # type: ignore[attr-defined]
    found = [f"{key} is not a field of {record['kind']}" for key in record if key not in hints]
    found += [f"{key} is missing" for key in sorted(required - set(record))]
    found += [
        f"{key} is {value!r}, not {hints[key]}"
        for key, value in record.items()
        if key in hints and not conforms(value, hints[key])
    ]
    return found


def battles(ruleset: str) -> list[dict[str, Any]]:
    out = []
    for options in OPTIONS[ruleset]:
        for doc in battle_docs(ruleset):
            doc = copy.deepcopy(doc)
            doc.setdefault("options", {}).update(options)
            spec = parse_battle(doc)
            out += [dict(resolve_battle(spec, seed)) for seed in range(2)]
    return out


@pytest.mark.parametrize("ruleset", sorted(OPTIONS))
def test_every_record_and_result_has_its_typed_shape(ruleset: str) -> None:
    seen: set[str] = set()
    for result in battles(ruleset):
        assert problems(result, BattleResult, {}) == []
        for record in result["log"]:
            assert record["kind"] in RECORD_KINDS, record
            shape = RECORD_KINDS[record["kind"]]
            assert problems(record, shape, EXTRA_FIELDS.get(record["kind"], {})) == [], record
            seen.add(record["kind"])
    # The check saw the kinds each rule set writes (not a loop over nothing).
    shared = {"terrain", "deploy", "move", "fire", "end"}
    own = {
        "korona": {"assault", "rally", "command", "combat_event_check", "combat_event"},
        "force_on_force": {"initiative", "reaction", "tq_check", "spot", "fog_of_war"},
    }
    assert shared | own[ruleset] <= seen


def test_a_wrong_or_extra_field_is_caught() -> None:
    terrain = {"turn": 0, "phase": "setup", "kind": "terrain", "dice": [3, 4], "square": [1, 2]}
    record = {**terrain, "landform": "flat", "vegetation": "none", "going": "open"}
    assert problems(record, RECORD_KINDS["terrain"], {}) == []
    assert problems({**record, "dice": [True]}, RECORD_KINDS["terrain"], {}) != []
    assert problems({**record, "colour": "red"}, RECORD_KINDS["terrain"], {}) != []
    assert problems(terrain, RECORD_KINDS["terrain"], {}) != []  # three fields missing
