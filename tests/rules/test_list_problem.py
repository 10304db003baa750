"""One check of a list's shape for both checkers (rules.spec.list_problem): not a list,
or too many entries, with the same words and codes the battle and scenario checks gave."""

from __future__ import annotations

import pytest

from rules.campaign.scenario import ScenarioError, parse_scenario
from rules.refusals import Code
from rules.spec import MAX_COMPANIES, BattleSpecError, list_problem, parse_battle
from tests.rules.conftest import battle_doc


def test_a_list_within_its_limit_has_no_problem() -> None:
    assert list_problem([1, 2], "links", limit=2) is None
    assert list_problem((1, 2), "links", limit=2) is None


@pytest.mark.parametrize("value", ["two", b"two", {"a": 1}, 3])
def test_anything_but_a_list_is_not_a_list(value: object) -> None:
    problem = list_problem(value, "links", limit=5)
    kind = type(value).__name__
    assert problem == f"links: must be a list, not {kind}"
    assert (problem.code, problem.fields) == (Code.NOT_A_LIST, {"kind": kind})


def test_a_list_of_named_entries_names_them() -> None:
    problem = list_problem("two", "attacker.companies", limit=5, entries="companies")
    assert problem == "attacker.companies: must be a list of companies, not str"
    too_many = list_problem([0] * 6, "attacker.companies", limit=5, entries="companies")
    assert too_many == "attacker.companies: more than 5 companies"
    assert (too_many.code, too_many.fields) == (Code.TOO_MANY_ENTRIES, {"limit": 5, "count": 6})


def test_too_many_entries_says_the_limit_and_the_count() -> None:
    problem = list_problem([0] * 3, "links", limit=2)
    assert problem == "links: must have at most 2 entries, not 3"
    assert (problem.code, problem.fields) == (Code.TOO_MANY_ENTRIES, {"limit": 2, "count": 3})


def test_the_battle_checker_says_its_companies_list_problems_as_before() -> None:
    doc = battle_doc()
    doc["attacker"]["companies"] = [{"name": f"C{i}"} for i in range(MAX_COMPANIES + 1)]
    with pytest.raises(BattleSpecError) as refused:
        parse_battle(doc)
    problems = [p for p in refused.value.problems if p.path == "attacker.companies"]
    assert problems == [f"attacker.companies: more than {MAX_COMPANIES} companies"]
    assert problems[0].code == Code.TOO_MANY_ENTRIES


def test_the_scenario_checker_says_its_list_problems_as_before() -> None:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario({"name": "x", "sides": "two", "links": [[]] * 2001})
    said = {str(p): p.code for p in refused.value.problems}
    assert said["sides: must be a list, not str"] == Code.NOT_A_LIST
    assert said["links: must have at most 2000 entries, not 2001"] == Code.TOO_MANY_ENTRIES
