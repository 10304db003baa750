"""Bounds of a scenario (docs/rules.md, "Scenarios"): every name, number and list has them,
so what ``parse_scenario`` accepts fits the database's columns on SQLite and PostgreSQL
alike; a breach names its field."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.campaign.scenario import (
    ScenarioError,
    campaign_name_problem,
    dump_scenario,
    parse_scenario,
    read_scenario,
)
from rules.campaign.state import CampaignState
from tests.campaign.conftest import korona_doc, with_more_companies


def problems_of(doc: Any) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    return caught.value.problems


def area(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(a for a in doc["areas"] if a["name"] == name)


def test_a_zone_of_ten_to_the_thirty_is_refused() -> None:
    doc = korona_doc()
    area(doc, "Korona")["zone"] = 10**30
    assert problems_of(doc) == [f"areas[4] (Korona).zone: must be from 0 to 100, not {10**30}"]


def test_a_turn_limit_of_ten_to_the_thirty_is_refused() -> None:
    doc = korona_doc()
    doc["settings"] = {"turn_limit": 10**30}
    assert problems_of(doc) == [f"settings.turn_limit: must be from 1 to 1000, not {10**30}"]


def test_a_tactical_turn_limit_is_what_a_battle_may_have() -> None:
    doc = korona_doc()
    doc["settings"] = {"tactical_turn_limit": 101}
    assert problems_of(doc) == ["settings.tactical_turn_limit: must be from 1 to 100, not 101"]


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("x" * 101, "must be at most 100 characters, not 101"),
        ("x" * 300, "must be at most 100 characters, not 300"),
        ("Ko\x00koda", "must not hold a NUL character"),
        ("Ko\nkoda", "must not hold the control character '\\n'"),
        ("x" * 10_000_000, "is longer than 20000 characters"),
    ],
)
def test_a_company_name_is_bounded(name: str, problem: str) -> None:
    doc = korona_doc()
    doc["companies"][0]["name"] = name
    [found] = problems_of(doc)
    assert found.endswith(problem)
    assert found.startswith("companies[0]")
    assert len(found) < 200


def test_an_area_name_of_three_hundred_characters_is_refused_once() -> None:
    doc = korona_doc()
    old = doc["areas"][0]["name"]
    doc["areas"][0]["name"] = "K" * 300
    problems = problems_of(doc)
    assert "areas[0].name: must be at most 100 characters, not 300" in problems
    assert all(len(problem) < 300 for problem in problems), problems
    assert any(old in problem for problem in problems)  # the places that named it


def test_one_hundred_characters_is_a_name() -> None:
    doc = korona_doc()
    doc["companies"][0]["name"] = "x" * 100
    assert "x" * 100 in parse_scenario(doc).companies


def test_the_campaign_name_and_end_reason_take_two_hundred() -> None:
    doc = korona_doc()
    doc["name"] = "n" * 201
    assert problems_of(doc) == ["name: must be at most 200 characters, not 201"]
    doc["name"] = "n" * 200
    assert parse_scenario(doc).name == "n" * 200
    assert campaign_name_problem("n" * 201) == (
        "the campaign's name must be at most 200 characters, not 201"
    )
    assert campaign_name_problem("Ko\x00rona") is not None
    assert campaign_name_problem("  ") == "a campaign needs a name"
    assert campaign_name_problem("Korona 1") is None


def test_an_event_text_is_bounded() -> None:
    doc = korona_doc()
    doc["settings"] = {"naval_table": {str(face): {"effect": "none"} for face in range(1, 7)}}
    doc["settings"]["naval_table"]["3"]["text"] = "t" * 501
    assert problems_of(doc) == [
        "settings.naval_table.3.text: must be at most 500 characters, not 501"
    ]


def test_lists_are_bounded() -> None:
    doc = korona_doc()
    doc["links"] = doc["links"] * 1000
    problems = problems_of(doc)
    assert f"links: must have at most 2000 entries, not {len(doc['links'])}" in problems


def test_a_side_of_more_stands_than_a_battle_force_may_hold_is_refused() -> None:
    doc = with_more_companies(korona_doc(), times=25)  # 100 companies a side
    problems = problems_of(doc)
    assert "companies: australian has 1050 stands, more than a battle force may hold (1000)" in (
        problems
    )
    assert with_more_companies(korona_doc(), times=10)  # 420 a side: a scenario
    parse_scenario(with_more_companies(korona_doc(), times=10))


def test_deep_nesting_is_refused_before_any_check(tmp_path: Path) -> None:
    nested: Any = {}
    for _ in range(100):
        nested = {"a": nested}
    doc = korona_doc()
    doc["settings"] = nested
    [problem] = problems_of(doc)
    assert problem.startswith("settings.a.a") and problem.endswith("is nested more than 16 deep")
    deep = tmp_path / "deep.json"
    deep.write_text('{"name": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        read_scenario(deep)
    assert caught.value.problems == [f"{deep}: nested more than 16 deep"]


def test_a_huge_file_is_not_read_whole(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"name": "x" * 9_000_000}), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        read_scenario(big)
    assert caught.value.problems == [f"{big}: longer than 2000000 characters"]


# --- the property: what the checker accepts fits every column ----------------------------

SMALLINT = 32767  # PositiveSmallIntegerField on PostgreSQL
INTEGER = 2**31 - 1


def fits_the_database(state: CampaignState) -> None:
    def name(text: str | None, limit: int = 100) -> None:
        if text is not None:
            assert len(text) <= limit and "\x00" not in text, text[:50]

    name(state.name, 200)
    name(state.end_reason, 200)
    assert 0 <= state.turn <= INTEGER
    assert 1 <= state.settings.turn_limit <= 1000
    for side in state.sides.values():
        name(side.name)
        name(side.base)
    for area in state.areas.values():
        name(area.name)
        name(area.track)
        assert 0 <= area.zone <= SMALLINT
    for company in state.companies.values():
        name(company.name)
        assert 0 <= company.turns_out_of_supply <= SMALLINT
        for count in (*company.stands.values(), *company.establishment.values()):
            assert 0 <= count <= SMALLINT
    for ship in state.ships:
        name(ship.name)
    for group in state.air:
        assert 0 <= group.buffalos <= SMALLINT and 0 <= group.bombers <= SMALLINT


NASTY = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.text(min_size=0, max_size=5),
    st.sampled_from(["x" * 101, "x" * 300, "a\x00b", "\n", " x", "Kokoda", 10**30, -1, 2**31]),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(), max_size=3),
)


def places(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += places(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            found += places(value, (*path, i))
    return found


KORONA_PLACES = [p for p in places(korona_doc()) if p]


@given(changes=st.lists(st.tuples(st.sampled_from(KORONA_PLACES), NASTY), min_size=1, max_size=4))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_whatever_the_checker_accepts_fits_the_database(
    changes: list[tuple[tuple[Any, ...], Any]],
) -> None:
    doc = copy.deepcopy(korona_doc())
    for path, value in changes:
        holder = doc
        try:
            for step in path[:-1]:
                holder = holder[step]
            holder[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change replaced what this one reached into
    try:
        state = parse_scenario(doc)
    except ScenarioError as error:
        assert error.problems
        assert all(len(problem) <= 1000 for problem in error.problems)
        return
    fits_the_database(state)
    assert parse_scenario(dump_scenario(state)) == state
