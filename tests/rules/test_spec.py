"""BATTLE.json: the fixture parses, and every fault is reported with its place, all at once."""

from __future__ import annotations

import copy
import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.spec import BattleSpecError, NotJson, decode_json, load_battle, parse_battle
from rules.units import Quality
from tests.rules.conftest import FIXTURE, battle_doc


def fixture_doc() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def problems_of(doc: Any) -> list[str]:
    with pytest.raises(BattleSpecError) as caught:
        parse_battle(doc)
    return caught.value.problems


def test_the_korona_turn_one_fixture_parses() -> None:
    spec = load_battle(FIXTURE)
    assert (spec.area.name, spec.area.zone, spec.area.vegetation, spec.area.plains) == (
        "Korona",
        5,
        "light",
        True,
    )
    assert (spec.width_ft, spec.depth_ft) == (3, 3)
    assert (spec.attacker.side, spec.attacker.name, spec.attacker.quality) == (
        "japanese",
        "1st Company",
        Quality.VETERAN,
    )
    assert spec.attacker.stands == {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "hmg": 1}
    assert (spec.defender.side, spec.defender.quality, spec.defender.sniper) == (
        "australian",
        Quality.TRAINED,
        False,
    )
    assert spec.defender.stands == {
        "commander": 1,
        "forward_observer": 1,
        "rifle_squad": 9,
        "small_mortar": 1,
    }
    assert spec.attacker.total_stands == spec.defender.total_stands == 12
    assert (spec.support.buffalos, spec.support.hurricane) == (3, False)
    assert (spec.ruleset, spec.options) == ("korona", {})


def test_a_spec_survives_a_round_trip_through_json() -> None:
    spec = load_battle(FIXTURE)
    assert parse_battle(json.loads(json.dumps(spec.to_json()))) == spec


def test_defaults_for_table_support_options_and_sniper() -> None:
    doc = fixture_doc()
    for key in ("table", "support", "options"):
        del doc[key]
    del doc["defender"]["sniper"]
    del doc["area"]["plains"]
    spec = parse_battle(doc)
    assert (spec.width_ft, spec.depth_ft, spec.area.plains) == (3, 3, False)
    assert (spec.support.buffalos, spec.support.hurricane) == (0, False)
    assert (spec.ruleset, spec.options, spec.defender.sniper) == ("korona", {}, False)


def test_zero_counts_are_dropped() -> None:
    spec = parse_battle(battle_doc(attacker={"rifle_squad": 3, "hmg": 0}))
    assert spec.attacker.stands == {"rifle_squad": 3}


def test_korona_options_are_kept() -> None:
    spec = parse_battle(battle_doc(options={"turn_limit": 4, "impact_fuse": False}))
    assert spec.options == {"turn_limit": 4, "impact_fuse": False}


# --- one fault at a time ----------------------------------------------------------------


def test_unknown_unit_type_is_named_with_its_place() -> None:
    doc = battle_doc(attacker={"rifle_squad": 2, "tiger_tank": 1})
    [problem] = problems_of(doc)
    assert problem.startswith("attacker.stands.tiger_tank: unknown unit type 'tiger_tank'")
    assert "rifle_squad" in problem  # it lists the known types


def test_supply_carriers_are_refused_in_a_battle() -> None:
    doc = battle_doc(defender={"rifle_squad": 2, "carrier": 6})
    assert problems_of(doc) == [
        "defender.stands.carrier: supply carriers never fight: leave them out of a battle"
    ]


def test_negative_count_is_named_with_its_place() -> None:
    doc = battle_doc(defender={"rifle_squad": 2, "hmg": -1})
    assert problems_of(doc) == ["defender.stands.hmg: must be from 0 to 1000, not -1"]


@pytest.mark.parametrize("count", [1.5, "2", True, None])
def test_count_must_be_a_whole_number(count: Any) -> None:
    doc = battle_doc(defender={"rifle_squad": 2, "hmg": count})
    assert problems_of(doc) == [f"defender.stands.hmg: must be a whole number, not {count!r}"]


def test_missing_defender_is_reported() -> None:
    doc = battle_doc()
    del doc["defender"]
    assert "defender: is missing" in problems_of(doc)


def test_bad_quality_is_named_with_its_place() -> None:
    doc = battle_doc(attacker_quality="elite")
    assert problems_of(doc) == [
        "attacker.quality: must be one of raw, trained, veteran, not 'elite'"
    ]


def test_both_forces_on_one_side_is_refused() -> None:
    doc = battle_doc(attacker_side="japanese", defender_side="japanese")
    assert problems_of(doc) == [
        "defender.side: both forces are japanese; a battle needs both sides"
    ]


def test_bad_sides_are_not_also_reported_as_both_on_one_side() -> None:
    # Neither force is Australian, so "both forces are australian" would be false.
    doc = battle_doc(attacker_side="martian", defender_side="klingon")
    assert problems_of(doc) == [
        "attacker.side: must be one of australian, japanese, not 'martian'",
        "defender.side: must be one of australian, japanese, not 'klingon'",
    ]


def test_sniper_on_the_attacker_is_refused() -> None:
    doc = battle_doc()
    doc["attacker"]["sniper"] = True
    assert problems_of(doc) == ["attacker.sniper: only the defender may swap a squad for a sniper"]


def test_sniper_needs_a_rifle_squad_to_replace() -> None:
    doc = battle_doc(defender={"hmg": 1}, sniper=True)
    assert problems_of(doc) == [
        "defender.sniper: a sniper replaces a rifle squad, and there is none"
    ]


def test_air_support_is_not_a_stand() -> None:
    doc = battle_doc(attacker={"rifle_squad": 1, "air_strafing": 1})
    assert problems_of(doc) == [
        "attacker.stands.air_strafing: air support is not a stand: give it under support"
    ]


def test_a_force_with_no_stands_is_refused() -> None:
    doc = battle_doc(attacker={"rifle_squad": 0})
    assert problems_of(doc) == ["attacker.stands: a force needs at least one stand"]


def test_unknown_option_is_refused() -> None:
    doc = battle_doc(options={"fog_of_war": True})
    assert problems_of(doc) == ["options: 'fog_of_war' is not an option of the korona rule set"]


@pytest.mark.parametrize(
    ("option", "value", "problem"),
    [
        ("turn_limit", 0, "turn_limit must be a whole number from 1 to 100, not 0"),
        ("turn_limit", 101, "turn_limit must be a whole number from 1 to 100, not 101"),
        ("turn_limit", True, "turn_limit must be a whole number from 1 to 100, not True"),
        ("impact_fuse", "yes", "impact_fuse must be true or false, not 'yes'"),
    ],
)
def test_bad_option_values_are_refused(option: str, value: Any, problem: str) -> None:
    assert problems_of(battle_doc(options={option: value})) == [f"options: {problem}"]


def test_unknown_ruleset_is_refused() -> None:
    doc = battle_doc()
    doc["options"]["ruleset"] = "chain_of_command"
    assert problems_of(doc) == [
        "options.ruleset: unknown rule set 'chain_of_command' (known: korona, force_on_force)"
    ]


@pytest.mark.parametrize("ruleset", [["korona"], {"name": "korona"}])
def test_a_ruleset_that_is_not_a_name_is_reported_not_raised(ruleset: Any) -> None:
    doc = battle_doc()
    doc["options"]["ruleset"] = ruleset
    [problem] = problems_of(doc)
    assert problem.startswith("options.ruleset:")


def test_table_larger_than_twelve_feet_is_refused() -> None:
    doc = battle_doc()
    doc["table"] = {"width_ft": 13, "depth_ft": 0}
    assert problems_of(doc) == [
        "table.width_ft: must be from 1 to 12, not 13",
        "table.depth_ft: must be from 1 to 12, not 0",
    ]


def test_unknown_fields_are_named() -> None:
    doc = battle_doc()
    doc["weather"] = "rain"
    doc["attacker"]["morale"] = 3
    assert problems_of(doc) == [
        "attacker.morale: is not a field of a force",
        "weather: is not a field of a battle",
    ]


def test_an_empty_key_is_named_with_its_place() -> None:
    doc = battle_doc()
    doc[""] = 1
    assert problems_of(doc) == ["'': is not a field of a battle"]


def test_a_document_that_is_not_an_object_is_refused() -> None:
    assert problems_of([1, 2])[0] == "battle: must be an object, not list"


def test_several_problems_are_reported_at_once() -> None:
    doc = battle_doc(attacker={"rifle_squad": -2, "tiger_tank": 1}, defender_quality="elite")
    doc["area"]["zone"] = "five"
    doc["options"]["turn_limit"] = 0
    problems = problems_of(doc)
    places = [problem.split(":")[0] for problem in problems]
    for place in (
        "area.zone",
        "attacker.stands.rifle_squad",
        "attacker.stands.tiger_tank",
        "defender.quality",
        "options",
    ):
        assert place in places, (place, problems)


def test_the_error_message_lists_every_problem() -> None:
    error = BattleSpecError(["a: one", "b: two"])
    assert isinstance(error, ValueError)
    assert str(error) == "invalid battle: a: one; b: two"


# --- files ------------------------------------------------------------------------------


def test_bad_json_names_the_file_and_the_place(tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    path.write_text('{"area": {\n  "name": "Korona",,\n}', encoding="utf-8")
    with pytest.raises(BattleSpecError) as caught:
        load_battle(path)
    [problem] = caught.value.problems
    assert problem.startswith(f"{path}: not valid JSON at line 2, column ")


def test_text_that_is_not_json_keeps_where_the_reading_stopped() -> None:
    """The admin words the position for the GM: it is kept apart, as well as in the text."""
    with pytest.raises(NotJson) as caught:
        decode_json('{"a": 1,\n  , }', "the file")
    stopped = caught.value
    assert (stopped.line, stopped.column) == (2, 3)
    assert stopped.reason == "Expecting property name enclosed in double quotes"
    assert str(stopped) == f"the file: not valid JSON at line 2, column 3: {stopped.reason}"
    again = pickle.loads(pickle.dumps(stopped))  # a Celery result keeps it whole
    assert (str(again), again.line, again.column) == (str(stopped), 2, 3)
    with pytest.raises(NotJson) as caught:
        decode_json(b"\xff\xfe", "the file")
    assert caught.value.line is None


def test_a_missing_file_is_a_battle_spec_error(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(BattleSpecError) as caught:
        load_battle(path)
    assert caught.value.problems[0].startswith(f"{path}: cannot read the file")


def test_load_battle_validates_the_document(tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(battle_doc(attacker_quality="elite")), encoding="utf-8")
    with pytest.raises(BattleSpecError) as caught:
        load_battle(path)
    assert caught.value.problems == [
        "attacker.quality: must be one of raw, trained, veteran, not 'elite'"
    ]


# --- any input at all -------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(doc=JSON)
def test_random_json_is_parsed_or_refused_with_a_battle_spec_error(doc: Any) -> None:
    try:
        parse_battle(doc)
    except BattleSpecError as error:
        assert error.problems


_PLACES = [
    ("area",),
    ("area", "zone"),
    ("area", "vegetation"),
    ("area", "plains"),
    ("table",),
    ("table", "width_ft"),
    ("attacker",),
    ("attacker", "side"),
    ("attacker", "quality"),
    ("attacker", "stands"),
    ("attacker", "stands", "rifle_squad"),
    ("defender", "sniper"),
    ("defender", "stands", "commander"),
    ("support",),
    ("support", "buffalos"),
    ("support", "hurricane"),
    ("options",),
    ("options", "ruleset"),
    ("options", "turn_limit"),
    ("options", "impact_fuse"),
]


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)  # load is no failure
@given(changes=st.lists(st.tuples(st.sampled_from(_PLACES), JSON), min_size=1, max_size=3))
@example(changes=[(("options", "ruleset"), [])])  # once raised TypeError: unhashable list
def test_any_value_anywhere_in_a_good_battle_is_parsed_or_refused_cleanly(
    changes: list[tuple[tuple[str, ...], Any]],
) -> None:
    doc = fixture_doc()
    for path, value in changes:
        node = doc
        for key in path[:-1]:
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        node[path[-1]] = copy.deepcopy(value)
    try:
        parse_battle(doc)
    except BattleSpecError as error:
        assert error.problems


# --- several companies in one force (rulings section 4; issue 13, item 2) -----------------


def _two_companies(**changes: Any) -> dict[str, Any]:
    doc = battle_doc(attacker={"commander": 2, "rifle_squad": 5})
    doc["attacker"]["companies"] = [
        {"name": "1st Company", "stands": {"commander": 1, "rifle_squad": 3}},
        {"name": "2nd Company", "stands": {"commander": 1, "rifle_squad": 2}},
    ]
    doc["attacker"].update(changes)
    return doc


def test_a_force_may_name_its_companies_and_their_stands() -> None:
    spec = parse_battle(_two_companies())
    assert [c.name for c in spec.attacker.companies] == ["1st Company", "2nd Company"]
    assert spec.attacker.companies[1].stands == {"commander": 1, "rifle_squad": 2}
    assert parse_battle(spec.to_json()) == spec
    assert parse_battle(battle_doc()).attacker.companies == ()


def test_the_companies_must_add_up_to_the_force() -> None:
    doc = _two_companies(stands={"commander": 2, "rifle_squad": 6})
    with pytest.raises(BattleSpecError, match="attacker.companies: the companies' stands"):
        parse_battle(doc)


@pytest.mark.parametrize(
    ("companies", "problem"),
    [
        ("two", "attacker.companies: must be a list"),
        ([{"name": "X", "stands": {"rifle_squad": 5}, "colour": "red"}], "colour: is not a field"),
        ([{"stands": {"commander": 2, "rifle_squad": 5}}], "companies[0].name: is missing"),
        (
            [
                {"name": "X", "stands": {"commander": 1, "rifle_squad": 3}},
                {"name": "X", "stands": {"commander": 1, "rifle_squad": 2}},
            ],
            "two companies are named",
        ),
    ],
)
def test_bad_companies_are_refused_with_the_reason(companies: Any, problem: str) -> None:
    with pytest.raises(BattleSpecError, match=re.escape(problem)):
        parse_battle(_two_companies(companies=companies))


# --- the going of each landform (rulings section 4; issue 13, item 6) ---------------------
# "heavy woods, steep ridges, swamp = bad; light woods, mud/rocks, river/creek, hills =
# rough; the rest good": the 2d6 "mud/rocks/swamp" square is the rulings' mud/rocks.


def test_the_rulings_going_of_each_landform() -> None:
    from rules.battlefield import RULINGS_LANDFORM_GOING, Going, Landform

    assert RULINGS_LANDFORM_GOING == {
        Landform.STEEP_HIGH_RIDGE: Going.BAD,
        Landform.STEEP_LOW_RIDGE: Going.BAD,
        Landform.MUD: Going.ROUGH,
        Landform.HIGH_RIDGE: Going.GOOD,
        Landform.LOW_RIDGE: Going.GOOD,
        Landform.RIVER: Going.ROUGH,
        Landform.FLAT: Going.GOOD,
        Landform.HILL: Going.ROUGH,
    }


def _mud_goings(doc: dict[str, Any]) -> set[str]:
    from rules.korona.engine import resolve

    spec = parse_battle(doc)
    goings = set()
    for seed in range(12):
        for row in resolve(spec, seed)["terrain"]:
            goings.update(sq["going"] for sq in row if sq["landform"] == "mud_rocks_swamp")
    return goings


def test_a_korona_battle_makes_mud_rocks_rough_by_default_and_as_the_battle_says() -> None:
    doc = battle_doc(vegetation="clearing")
    assert _mud_goings(doc) == {"rough"}
    doc["table"]["landform_going"] = {"mud_rocks_swamp": "bad"}
    assert parse_battle(doc).landform_going == {"mud_rocks_swamp": "bad"}
    assert _mud_goings(doc) == {"bad"}


@pytest.mark.parametrize(
    ("going", "problem"),
    [
        ({"lava": "bad"}, "table.landform_going.lava: is not a landform"),
        ({"flat": "slow"}, "table.landform_going.flat: must be one of good, rough, bad"),
        ("bad", "table.landform_going: must be an object"),
    ],
)
def test_a_bad_landform_going_is_refused(going: Any, problem: str) -> None:
    doc = battle_doc()
    doc["table"]["landform_going"] = going
    with pytest.raises(BattleSpecError, match=re.escape(problem)):
        parse_battle(doc)
