"""Bounds on a BATTLE.json and on the command line: a value out of them is refused with the
field it is in, before any die is rolled (docs/rules.md, "Bounds")."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from rules.spec import (
    MAX_DEPTH,
    MAX_FORCE_STANDS,
    BattleSpecError,
    DocumentError,
    decode_json,
    document_problem,
    parse_battle,
    shown,
)
from tests.rules.conftest import battle_doc
from tests.rules.test_cli import run, write


def problems_of(doc: object) -> list[str]:
    with pytest.raises(BattleSpecError) as caught:
        parse_battle(doc)
    return caught.value.problems


def test_a_billion_stands_are_refused_at_once(tmp_path: Path) -> None:
    doc = battle_doc(attacker={"commander": 1, "rifle_squad": 10**9})
    started = time.monotonic()
    code, out, err = run("simulate", write(tmp_path, doc), "--seed", "1")
    assert time.monotonic() - started < 5  # refused, not fought (a generous ceiling)
    assert (code, out) == (2, "")
    assert f"  - attacker.stands.rifle_squad: must be from 0 to 1000, not {10**9}" in err


def test_a_force_of_more_than_the_most_stands_is_refused() -> None:
    doc = battle_doc(defender={"rifle_squad": 600, "hmg": 401})
    assert problems_of(doc) == [
        f"defender.stands: 1001 stands (with reinforcements) is more than a force may have "
        f"({MAX_FORCE_STANDS})"
    ]
    doc = battle_doc(defender={"rifle_squad": 600, "hmg": 400})
    assert parse_battle(doc).defender.total_stands == 1000


def test_reinforcements_count_towards_the_force() -> None:
    doc = battle_doc()
    doc["attacker"]["reinforcements"] = {"rifle_squad": 999}
    doc["options"]["fog_of_war_cup"] = True
    assert problems_of(doc) == [
        "attacker.stands: 1001 stands (with reinforcements) is more than a force may have (1000)"
    ]


@pytest.mark.parametrize(
    ("where", "value", "problem"),
    [
        ("zone", 10**30, f"area.zone: must be from 0 to 100, not {10**30}"),
        ("buffalos", 10**6, "support.buffalos: must be from 0 to 100, not 1000000"),
        ("name", "Ko\x00rona", "area.name: must not hold a NUL character"),
        ("name", "x" * 101, "area.name: must be at most 100 characters, not 101"),
    ],
)
def test_each_number_and_name_has_bounds(where: str, value: object, problem: str) -> None:
    doc = battle_doc()
    if where == "buffalos":
        doc["support"]["buffalos"] = value
    else:
        doc["area"][where] = value
    assert problems_of(doc) == [problem]


def test_a_string_of_ten_megabytes_is_refused_with_a_short_problem() -> None:
    doc = battle_doc()
    doc["attacker"]["name"] = "x" * 10_000_000
    [problem] = problems_of(doc)
    assert problem == "attacker.name: is longer than 20000 characters"


def test_a_problem_never_repeats_a_huge_value() -> None:
    doc = battle_doc()
    doc["attacker"]["quality"] = "v" * 15_000
    [problem] = problems_of(doc)
    assert problem.startswith("attacker.quality: must be one of raw, trained, veteran, not 'vvv")
    assert len(problem) < 200


def test_deep_nesting_is_refused_by_the_checker_and_the_decoder(tmp_path: Path) -> None:
    nested: object = 1
    for _ in range(MAX_DEPTH + 5):
        nested = [nested]
    doc = battle_doc()
    doc["options"]["combat_event_table"] = nested
    [problem] = problems_of(doc)
    assert problem.startswith("options.combat_event_table[0]") and "nested more than 16" in problem
    deep = write(tmp_path, "[" * 200_000 + "]" * 200_000)
    code, out, err = run("simulate", deep, "--seed", "1")
    assert (code, out) == (2, "")
    assert "nested more than 16 deep" in err


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"a": "\\u0000"}', "f: a: must not hold a NUL character"),
        ('{"a": "\\ud800"}', "f: a: must not hold a lone surrogate"),
        ("[NaN]", "f: [0]: must be a finite number, not nan"),
        ("1" * 5000, "f: not valid JSON: Exceeds the limit"),
        ("{", "f: not valid JSON at line 1, column 2"),
        (b"\xff", "f: not UTF-8 text"),
    ],
)
def test_the_decoder_names_each_fault(text: str | bytes, problem: str) -> None:
    with pytest.raises(DocumentError) as caught:
        decode_json(text, "f")
    assert str(caught.value).startswith(problem)


def test_a_document_longer_than_the_bound_is_not_decoded() -> None:
    with pytest.raises(DocumentError, match="longer than 2000000 characters"):
        decode_json(json.dumps(["x" * 1000] * 2100), "f")


def test_a_document_of_too_many_values_is_refused() -> None:
    assert document_problem([0] * 200_000, "battle") == "battle: has more than 200000 values"
    assert document_problem([0] * 199_999, "battle") is None


def test_shown_cuts_long_and_deep_values() -> None:
    assert len(shown("x" * 10**6)) < 70
    assert shown([[[[[1]]]]]) == "[[[...]]]"


@pytest.mark.parametrize("seed", ["-1", str(2**63)])
def test_a_seed_out_of_range_is_refused(tmp_path: Path, seed: str) -> None:
    code, out, err = run("simulate", write(tmp_path, battle_doc()), "--seed", seed)
    assert (code, out) == (2, "")
    assert err == f"error: --seed must be from 0 to {2**63 - 1}, not {seed}\n"
