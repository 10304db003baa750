"""What a campaign tells its battles: each stand's company with several companies on a
side (rulings section 4: "each stand answers to its own company's commander"; issue 13,
item 2), the table's size and the going of its landforms (settings; items 6 and 8)."""

from __future__ import annotations

import pytest

from rules.campaign import turn as rules
from rules.campaign.scenario import ScenarioError, parse_scenario
from rules.korona.engine import resolve
from rules.spec import parse_battle
from tests.campaign.test_turn_order import SEED, three_on_two


def test_a_battle_of_two_companies_carries_each_companys_stands() -> None:
    state = parse_scenario(three_on_two())
    state.seed = SEED
    plan = rules.start_turn(state)
    battle = next(b for b in plan.battles if b.key == "1:Korona:1")
    side = "attacker" if battle.attacker_side == "japanese" else "defender"
    names = battle.attackers if side == "attacker" else battle.defenders
    assert len(names) == 2
    force = battle.spec[side]
    companies = {c["name"]: c["stands"] for c in force["companies"]}
    assert set(companies) == set(names)
    for name in names:
        held = plan.state.companies[name].stands
        assert companies[name] == {unit: n for unit, n in held.items() if n}
    # The battle knows each stand's company, and gives each company its commander.
    spec = parse_battle(battle.spec)
    result = resolve(spec, battle.seed)
    by_company: dict[str, list[str]] = {}
    for s in result["stands"]:
        if s["force"] == side:
            by_company.setdefault(s["company"], []).append(s["type"])
    assert set(by_company) == set(names)
    assert all(types.count("commander") == 1 for types in by_company.values())


def test_a_battle_of_one_company_a_side_names_none() -> None:
    state = parse_scenario(three_on_two())
    state.seed = SEED
    plan = rules.start_turn(state)
    single = next(b for b in plan.battles if b.key == "1:Korona:2")
    assert "companies" not in single.spec["attacker"]
    assert "companies" not in single.spec["defender"]


def test_the_table_size_and_going_settings_reach_every_battle() -> None:
    doc = three_on_two()
    doc["settings"] = {
        "table_width_ft": 4,
        "table_depth_ft": 2,
        "landform_going": {"mud_rocks_swamp": "bad", "flat": "good"},
    }
    state = parse_scenario(doc)
    state.seed = SEED
    plan = rules.start_turn(state)
    assert plan.battles
    for battle in plan.battles:
        # "flat": good is the rulings' own: only the change is carried.
        assert battle.spec["table"] == {
            "width_ft": 4,
            "depth_ft": 2,
            "landform_going": {"mud_rocks_swamp": "bad"},
        }
        result = resolve(parse_battle(battle.spec), battle.seed)
        assert len(result["terrain"]) == 2 and len(result["terrain"][0]) == 4


def test_by_default_the_table_is_three_feet_square_with_the_rulings_going() -> None:
    state = parse_scenario(three_on_two())
    state.seed = SEED
    for battle in rules.start_turn(state).battles:
        assert battle.spec["table"] == {"width_ft": 3, "depth_ft": 3}


@pytest.mark.parametrize(
    ("given", "problem"),
    [
        ({"table_width_ft": 13}, "settings.table_width_ft: must be from 1 to 12"),
        ({"table_depth_ft": 0}, "settings.table_depth_ft: must be from 1 to 12"),
        ({"landform_going": {"lava": "bad"}}, "settings.landform_going.lava: is not a landform"),
        ({"landform_going": {"flat": "slow"}}, "settings.landform_going.flat: must be one of"),
    ],
)
def test_bad_table_settings_are_refused(given: dict, problem: str) -> None:
    doc = three_on_two()
    doc["settings"] = given
    with pytest.raises(ScenarioError, match=problem):
        parse_scenario(doc)


def test_a_force_on_force_battle_is_sent_no_companies() -> None:
    # Force on Force does not read them (Ruleset.reads_companies): its battles, and the
    # campaign AI's odds of them, stay as they were before Korona read them.
    state = parse_scenario(three_on_two())
    state.seed = SEED
    state.settings.ruleset = "force_on_force"
    plan = rules.start_turn(state)
    battle = next(b for b in plan.battles if b.key == "1:Korona:1")
    assert len(battle.attackers) + len(battle.defenders) == 3
    assert "companies" not in battle.spec["attacker"]
    assert "companies" not in battle.spec["defender"]
