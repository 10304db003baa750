"""A scenario's faults as the admin words them for the GM (campaign.scenario_words)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from campaign.scenario_words import MESSAGE_ONLY, WORDS, problem_words
from rules.campaign.scenario import ScenarioError, parse_scenario
from rules.refusals import Code, Problem
from tests.campaign.conftest import korona_doc

RULES = Path(__file__).resolve().parents[2] / "rules"


def words_of(doc: dict) -> list[str]:  # type: ignore[type-arg]
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    return [problem_words(p) for p in caught.value.problems]


def test_a_duplicate_an_unknown_field_and_an_unknown_stand_are_named_by_company() -> None:
    doc = korona_doc()
    first, second = doc["companies"][0], doc["companies"][1]
    second["name"] = first["name"]
    first["Quality"] = "veteran"
    first["stands"] = {"tank": 1}
    said = words_of(doc)
    name = first["name"]
    assert f'{name}: it has "Quality", which a company does not have: remove it.' in said
    assert f"{name}: The name {name!r} is used twice: give each company its own." in said
    assert any(
        s.startswith(f"{name}: its stands list 'tank', which is no kind of stand") for s in said
    )
    assert not any("companies[" in s for s in said)


def test_every_code_the_rules_report_has_words() -> None:
    """Each kind of fault is worded from its code: none is left to the checker's English
    but those whose message is all there is (a refusal's plain line, a rule set's own
    check of a battle option). And each code is one the rules do report."""
    assert set(Code) == set(WORDS) | MESSAGE_ONLY
    source = "\n".join(path.read_text(encoding="utf-8") for path in RULES.rglob("*.py"))
    assert [code for code in Code if f"Code.{code.name}" not in source] == []


BROKEN: dict[str, Callable[[dict[str, Any]], object]] = {
    "an unknown area": lambda d: d["companies"][0].update(area="Atlantis"),
    "stands as a number": lambda d: d["companies"][0].update(stands=6),
    "no kind of stand": lambda d: d["companies"][0].update(stands={"tank": 1}),
    "a link to no area": lambda d: d["links"].append(["Korona", "Kokoda"]),
    "a duplicate": lambda d: d["areas"][1].update(name=d["areas"][0]["name"]),
    "a side twice": lambda d: d["sides"].append(dict(d["sides"][0])),
    "an unknown field": lambda d: d.update(Hello=1),
    "a missing field": lambda d: d.pop("name"),
    "above establishment": lambda d: d["companies"][0].update(
        stands={"rifle_squad": 9}, establishment={"rifle_squad": 3}
    ),
    "a bad quality": lambda d: d["companies"][0].update(quality="elite"),
    "a winner too soon": lambda d: d.update(winner="japanese"),
    "bad settings": lambda d: d.update(
        settings={"objective": "Atlantis", "naval_table": {"7": {}}, "colour": 1}
    ),
    "a NUL": lambda d: d["companies"][0].update(name="A\x00B"),
}


@pytest.mark.parametrize("change", BROKEN.values(), ids=BROKEN.keys())
def test_the_gms_words_do_not_change_with_the_checkers_english(
    change: Callable[[dict[str, Any]], object],
) -> None:
    """The checker's message reworded (as the command line's may be): the GM reads the
    same words, since they come from the problem's code and fields."""
    doc = korona_doc()
    change(doc)
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    for problem in caught.value.problems:
        reworded = Problem(problem.path, "something else entirely", problem.code, problem.fields)
        assert problem_words(reworded) == problem_words(problem), problem


def test_an_unknown_area_is_said_alike_of_a_field_and_of_a_link() -> None:
    doc = korona_doc()
    doc["companies"][0]["area"] = "Atlantis"
    doc["links"].append([doc["areas"][0]["name"], "Atlantis"])
    said = words_of(doc)
    name = doc["companies"][0]["name"]
    fix = "which is no area of the map: give an area's name as the file spells it."
    assert f"{name}: its area is 'Atlantis', {fix}" in said
    assert "The 11th link in the file: 'Atlantis' is no area of the map: give" in " ".join(said)


@pytest.mark.parametrize(
    ("character", "said"),
    [
        ("\n", "must not hold a line break: remove it."),
        ("\t", "must not hold a tab: remove it."),
        ("\x07", "must not hold an invisible control character (number 7): remove it."),
    ],
)
def test_a_control_character_is_named_as_a_gm_knows_it(character: str, said: str) -> None:
    """Not "the control character '\\x07' (a tab or a line break, say)": the one it is."""
    doc = korona_doc()
    doc["companies"][0]["name"] = f"A{character}Company"
    assert any(s.endswith(said) for s in words_of(doc)), words_of(doc)
