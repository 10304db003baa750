"""A scenario's faults as the admin words them for the GM (campaign.scenario_words)."""

from __future__ import annotations

import pytest

from campaign.scenario_words import problem_words
from rules.campaign.scenario import ScenarioError, parse_scenario
from tests.campaign.conftest import korona_doc


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
