"""Phase 6 and the end of a turn: battles and their pairing, supply companies caught by the
enemy, battle results fed back (``finish_turn``), control and the end of the campaign."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from rules.campaign.phases.end import EndCause, end_causes
from rules.campaign.seeds import battle_seed
from rules.campaign.state import CampaignState, Order
from rules.campaign.turn import (
    TurnError,
    TurnPlan,
    check_result,
    deployment_has_woods,
    finish_turn,
    play_turn,
    start_turn,
)
from rules.dice import derive_seed
from rules.spec import parse_battle
from tests.campaign.builders import (
    fighting_company,
    korona_state,
    line_state,
    move,
    records,
    scripted_turn,
    supply_company,
    supply_dice,
)


def advance(*moves: tuple[str, str]) -> dict[str, Order]:
    return {name: Order(name, "advance", target) for name, target in moves}


def japanese_attack_korona(
    state: CampaignState | None = None,
    *attackers: str,
    initiative: Sequence[int] = (1, 6),
) -> TurnPlan:
    """Play a turn in which the named Japanese companies (1st Company by default) advance
    from Oivi into Korona."""
    state = state or korona_state()
    orders = advance(*((name, "Korona") for name in attackers or ("1st Company",)))
    return scripted_turn(state, supply_dice(state), orders, initiative=initiative)


def one_on_one() -> TurnPlan:
    """The 1st Company attacks A Company alone in Korona (B Company has gone to Ioro)."""
    return japanese_attack_korona(move(korona_state(), B_Company="Ioro"))


def weaken(state: CampaignState, name: str, rifle_squads: int) -> None:
    """Leave the company ``rifle_squads`` rifle squads, the rest killed for good (so supply
    does not bring them back)."""
    company = state.companies[name]
    company.stands["rifle_squad"] = company.establishment["rifle_squad"] = rifle_squads


def result(
    winner: str | None,
    attacker: dict[str, int] | None = None,
    defender: dict[str, int] | None = None,
) -> dict[str, Any]:
    return {"winner": winner, "losses": {"attacker": attacker or {}, "defender": defender or {}}}


# --- which areas have battles, and who defends ----------------------------------------


def test_every_area_with_fighting_companies_of_both_sides_has_a_battle() -> None:
    state = move(korona_state(), C_Company="Munara")
    orders = advance(("1st Company", "Korona"), ("2nd Company", "Munara"))

    plan = scripted_turn(state, supply_dice(state), orders)

    assert [(b.key, b.area) for b in plan.battles] == [
        ("1:Korona", "Korona"),
        ("1:Munara", "Munara"),
    ]
    assert [r["battle"] for r in records(plan.log, "battle")] == ["1:Korona", "1:Munara"]


def test_no_battle_without_both_sides_fighting_companies_in_an_area() -> None:
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state), advance(("C Company (militia)", "Korona")))

    assert plan.battles == []


@pytest.mark.parametrize("initiative", [(6, 1), (1, 6)])
def test_the_side_that_was_there_first_defends(initiative: tuple[int, int]) -> None:
    plan = japanese_attack_korona(korona_state(), initiative=initiative)

    (battle,) = plan.battles
    assert (battle.defender_side, battle.attacker_side) == ("australian", "japanese")
    assert battle.spec["defender"]["side"] == "australian"


@pytest.mark.parametrize(("initiative", "defender"), [((6, 1), "australian"), ((1, 6), "japanese")])
def test_when_both_enter_an_empty_area_the_side_that_moved_first_defends(
    initiative: tuple[int, int], defender: str
) -> None:
    state = line_state(
        ["Port Murray", "Middle", "Kilu"],
        [
            fighting_company("A Company", "australian", "Port Murray"),
            fighting_company("1st Company", "japanese", "Kilu"),
        ],
    )
    orders = advance(("A Company", "Middle"), ("1st Company", "Middle"))

    plan = scripted_turn(state, supply_dice(state), orders, initiative=initiative)

    (battle,) = plan.battles
    assert battle.area == "Middle"
    assert battle.defender_side == defender


def test_a_side_holding_an_area_since_before_the_enemy_came_defends_it_the_next_turn() -> None:
    # Turn 1: A and B Company attack Oivi; one battle each way leaves A Company and the
    # 2nd Company both in Oivi, still Japanese. The Japanese were there first: they defend
    # the battle fought there on turn 2 too.
    state = korona_state()
    orders = advance(("A Company", "Oivi"), ("B Company", "Oivi"))
    first = scripted_turn(state, supply_dice(state), orders)
    assert [(b.key, b.attackers, b.defenders) for b in first.battles] == [
        ("1:Oivi:1", ["A Company"], ["1st Company"]),
        ("1:Oivi:2", ["B Company"], ["2nd Company"]),
    ]
    results = {"1:Oivi:1": result("attacker"), "1:Oivi:2": result("defender")}
    state = finish_turn(first, results).state
    assert {c.name for c in state.companies_in("Oivi", fighting=True)} == {
        "A Company",
        "2nd Company",
    }
    assert state.areas["Oivi"].controller == "japanese"

    second = scripted_turn(state, supply_dice(state))

    (battle,) = second.battles
    assert (battle.area, battle.defender_side) == ("Oivi", "japanese")


# --- pairing --------------------------------------------------------------------------


def test_companies_pair_strongest_to_strongest_and_extras_join_their_largest_battle() -> None:
    state = move(korona_state(), **{"3rd_Company": "Oivi"})
    weaken(state, "1st Company", 7)  # 10 stands
    weaken(state, "3rd Company", 3)  # 6 stands
    weaken(state, "B Company", 6)  # 9 stands

    plan = japanese_attack_korona(state, "1st Company", "2nd Company", "3rd Company")

    assert [(b.key, b.attackers, b.defenders) for b in plan.battles] == [
        ("1:Korona:1", ["2nd Company", "3rd Company"], ["A Company"]),
        ("1:Korona:2", ["1st Company"], ["B Company"]),
    ]
    first = plan.battles[0].spec["attacker"]
    assert first["stands"] == {"commander": 2, "rifle_squad": 12, "small_mortar": 2, "hmg": 2}
    assert first["quality"] == "veteran"  # the strongest company's
    assert first["name"] == "2nd Company and 3rd Company"


def test_extra_defenders_join_the_one_battle() -> None:
    state = move(korona_state(), C_Company="Korona")

    plan = japanese_attack_korona(state)

    (battle,) = plan.battles
    assert battle.attackers == ["1st Company"]
    assert sorted(battle.defenders) == ["A Company", "B Company", "C Company (militia)"]
    assert battle.spec["defender"]["stands"]["rifle_squad"] == 27


# --- the battle spec ------------------------------------------------------------------


def test_the_battle_spec_is_a_valid_battle_json_with_the_raaf_as_support() -> None:
    state = korona_state()
    state.air[0].buffalos, state.air[0].bombers = 2, 1

    plan = japanese_attack_korona(state, "1st Company", "2nd Company")

    battle = plan.battles[0]
    spec = parse_battle(battle.spec)
    assert (spec.area.name, spec.area.zone, spec.area.vegetation, spec.area.plains) == (
        "Korona",
        5,
        "light",
        True,
    )
    assert (spec.support.buffalos, spec.support.hurricane) == (2, True)
    assert spec.attacker.side == "japanese"
    assert spec.attacker.stands == {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "hmg": 1}
    assert spec.defender.side == "australian"
    # Nobody plays the Australians: the AI's choice, a sniper when its third has woods.
    assert spec.defender.sniper is deployment_has_woods(battle.spec, battle.seed)
    assert battle.spec["options"] == {"ruleset": "korona", "turn_limit": 12}
    # Its seed is a stream of the turn seed's public branch (shown after the turn).
    assert battle.seed == battle_seed(derive_seed(state.seed, "turn", 1), battle.key)


def test_a_campaign_with_combat_events_fights_its_battles_with_them() -> None:
    state = korona_state(combat_events=True)
    state.settings.combat_event_table[5] = {"effect": "rally_own", "text": "The GM's own"}
    plan = japanese_attack_korona(state, "1st Company", "2nd Company")
    spec = parse_battle(plan.battles[0].spec)
    assert spec.options["combat_events"] is True
    # The campaign's own tables, as the GM edited them, go with every battle.
    assert spec.options["combat_event_table"]["5"] == {
        "effect": "rally_own",
        "text": "The GM's own",
    }
    assert spec.options["japanese_event_table"]["1"]["effect"] == "sniper_appears"


def test_with_the_cup_a_sides_extra_companies_join_as_reinforcements() -> None:
    """1st Company alone attacks A and B Companies: one pairs off, the other joins from
    the cup."""
    state = korona_state(fog_of_war_cup=True)
    [battle] = japanese_attack_korona(state, "1st Company").battles
    spec = parse_battle(battle.spec)
    lead, extra = battle.defenders
    assert spec.defender.stands == {
        unit: n for unit, n in state.companies[lead].stands.items() if n
    }
    assert spec.defender.reinforcements == {
        unit: n for unit, n in state.companies[extra].stands.items() if n
    }
    assert spec.attacker.reinforcements == {}
    assert spec.options["fog_of_war_cup"] is True


def test_without_the_cup_extra_companies_fight_from_the_start() -> None:
    [battle] = japanese_attack_korona(korona_state(), "1st Company").battles
    spec = parse_battle(battle.spec)
    assert spec.defender.reinforcements == {}
    assert spec.defender.stands["rifle_squad"] == 18


def test_the_battle_spec_never_holds_carriers() -> None:
    state = move(korona_state(), Supply_Company="Oivi")

    plan = japanese_attack_korona(state, "1st Company", "2nd Company")

    for battle in plan.battles:
        for force in ("attacker", "defender"):
            assert "carrier" not in battle.spec[force]["stands"]


def test_the_raaf_supports_an_australian_attack_too() -> None:
    state = move(korona_state(), **{"2nd_Company": "Kilu"})

    plan = scripted_turn(state, supply_dice(state), advance(("A Company", "Oivi")))

    (battle,) = plan.battles
    assert battle.attacker_side == "australian"
    assert battle.spec["support"] == {"buffalos": 3, "hurricane": False}


# --- supply companies caught by the enemy ---------------------------------------------


def test_a_supply_company_entered_by_an_enemy_fighting_company_withdraws_toward_its_base() -> None:
    state = move(korona_state(), **{"1st_Supply_Company": "Korona"})

    plan = japanese_attack_korona(state)

    assert plan.state.companies["1st Supply Company"].area == "Isura"
    (caught,) = records(plan.log, "supply_company_withdraws")
    assert (caught["from"], caught["target"]) == ("Korona", "Isura")
    (battle,) = plan.battles
    assert "1st Supply Company" not in battle.defenders


def test_a_supply_company_caught_in_its_own_base_is_destroyed() -> None:
    state = line_state(
        ["Port Murray", "Road", "Kilu"],
        [
            supply_company("1st Supply Company", "australian", "Port Murray"),
            fighting_company("1st Company", "japanese", "Road"),
        ],
    )

    plan = scripted_turn(
        state, supply_dice(state), advance(("1st Company", "Port Murray")), initiative=[1, 6]
    )

    assert "1st Supply Company" not in plan.state.companies
    (destroyed,) = records(plan.log, "supply_company_destroyed")
    assert destroyed["company"] == "1st Supply Company"
    assert plan.battles == []


def test_a_supply_company_with_the_enemy_on_its_way_back_is_destroyed() -> None:
    state = move(
        korona_state(),
        B_Company="Ioro",
        C_Company="Ioro",
        **{"1st_Supply_Company": "Korona", "3rd_Company": "Isura"},
    )

    plan = japanese_attack_korona(state)

    assert "1st Supply Company" not in plan.state.companies
    assert records(plan.log, "supply_company_destroyed")


def test_a_supply_company_is_not_caught_by_an_enemy_supply_company() -> None:
    state = move(korona_state(), Supply_Company="Oivi", **{"1st_Supply_Company": "Munara"})

    plan = scripted_turn(state, supply_dice(state), advance(("Supply Company", "Munara")))

    assert plan.state.companies["1st Supply Company"].area == "Munara"
    assert plan.state.companies["Supply Company"].area == "Munara"
    assert not records(plan.log, "supply_company_withdraws")
    assert plan.battles == []


def test_a_supply_company_that_walks_into_the_enemy_is_caught_and_goes_back() -> None:
    state = move(korona_state(), Supply_Company="Oivi")

    plan = scripted_turn(state, supply_dice(state), advance(("Supply Company", "Korona")))

    assert plan.state.companies["Supply Company"].area == "Oivi"
    assert records(plan.log, "supply_company_withdraws", company="Supply Company")


# --- battle results -------------------------------------------------------------------


def test_supply_replaces_stands_killed_in_battle_by_default() -> None:
    # Rulings section 3: "replace any stands that it has lost so far" means every lost
    # stand, those killed in battle included.
    plan = one_on_one()

    outcome = finish_turn(
        plan, {"1:Korona": result("defender", {"rifle_squad": 2}, {"rifle_squad": 3})}
    )

    a_company = outcome.state.companies["A Company"]
    assert (a_company.stands["rifle_squad"], a_company.establishment["rifle_squad"]) == (6, 9)
    first = outcome.state.companies["1st Company"]
    assert (first.stands["rifle_squad"], first.establishment["rifle_squad"]) == (7, 9)
    lost = {r["company"]: r["stands_lost"] for r in records(outcome.log, "losses")}
    assert lost == {"1st Company": {"rifle_squad": 2}, "A Company": {"rifle_squad": 3}}
    assert "A Company loses 3 rifle squads (supply may replace them)" in [
        r["text"] for r in records(outcome.log, "losses")
    ]
    # In supply on a 6 next turn, A Company regains three (half the roll) of the three.
    later = scripted_turn(outcome.state, supply_dice(outcome.state))
    assert later.state.companies["A Company"].strength == 12


def test_with_the_setting_off_killed_stands_are_lost_for_good() -> None:
    state = move(korona_state(supply_replaces_battle_losses=False), B_Company="Ioro")
    plan = japanese_attack_korona(state)

    outcome = finish_turn(
        plan, {"1:Korona": result("defender", {"rifle_squad": 2}, {"rifle_squad": 3})}
    )

    a_company = outcome.state.companies["A Company"]
    assert (a_company.stands["rifle_squad"], a_company.establishment["rifle_squad"]) == (6, 6)
    first = outcome.state.companies["1st Company"]
    assert (first.stands["rifle_squad"], first.establishment["rifle_squad"]) == (7, 7)
    assert "A Company loses 3 rifle squads for good" in [
        r["text"] for r in records(outcome.log, "losses")
    ]
    # In supply on a 6 next turn, A Company has nothing left to regain.
    later = scripted_turn(outcome.state, supply_dice(outcome.state))
    assert later.state.companies["A Company"].strength == 9


def test_battle_losses_come_from_the_company_holding_most_of_that_type() -> None:
    state = korona_state()
    weaken(state, "B Company", 3)
    plan = japanese_attack_korona(state)

    outcome = finish_turn(plan, {"1:Korona": result("defender", defender={"rifle_squad": 4})})

    assert outcome.state.companies["A Company"].stands["rifle_squad"] == 5
    assert outcome.state.companies["B Company"].stands["rifle_squad"] == 3


@pytest.mark.parametrize(
    ("winner", "loser", "retreat"),
    [("defender", "1st Company", "Oivi"), ("attacker", "A Company", "Isura")],
)
def test_the_loser_withdraws_one_area_toward_its_base(
    winner: str, loser: str, retreat: str
) -> None:
    plan = one_on_one()

    outcome = finish_turn(plan, {"1:Korona": result(winner)})

    assert outcome.state.companies[loser].area == retreat
    (withdrawal,) = records(outcome.log, "withdrawal")
    assert (withdrawal["company"], withdrawal["from"], withdrawal["target"]) == (
        loser,
        "Korona",
        retreat,
    )


def test_a_loser_with_the_enemy_on_its_way_back_surrenders() -> None:
    # Isura, the only area closer to Port Murray, holds the Japanese 3rd Company.
    state = move(korona_state(), C_Company="Ioro", **{"3rd_Company": "Isura"})

    plan = japanese_attack_korona(state)
    outcome = finish_turn(plan, {"1:Korona": result("attacker")})

    assert "A Company" not in outcome.state.companies
    assert "B Company" not in outcome.state.companies
    assert {r["company"] for r in records(outcome.log, "surrender")} == {"A Company", "B Company"}


def test_a_loser_in_its_own_base_surrenders() -> None:
    state = line_state(
        ["Port Murray", "Road", "Kilu"],
        [
            fighting_company("A Company", "australian", "Port Murray"),
            fighting_company("1st Company", "japanese", "Road"),
        ],
    )
    plan = scripted_turn(
        state, supply_dice(state), advance(("1st Company", "Port Murray")), initiative=[1, 6]
    )

    outcome = finish_turn(plan, {"1:Port Murray": result("attacker")})

    assert "A Company" not in outcome.state.companies
    assert records(outcome.log, "surrender")


def test_a_loser_with_no_stands_left_is_removed() -> None:
    plan = one_on_one()
    everything = {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "hmg": 1}

    outcome = finish_turn(plan, {"1:Korona": result("defender", everything)})

    assert "1st Company" not in outcome.state.companies
    (removed,) = records(outcome.log, "company_removed")
    assert removed["company"] == "1st Company"


def test_a_loser_withdrawing_onto_an_enemy_supply_company_sends_it_back() -> None:
    # Supply companies never fight: entered by an enemy fighting company, even one falling
    # back from a battle, they withdraw toward their base (here Korona, now Japanese).
    state = move(korona_state(), B_Company="Ioro", C_Company="Ioro", Supply_Company="Isura")
    plan = japanese_attack_korona(state)

    outcome = finish_turn(plan, {"1:Korona": result("attacker")})

    assert outcome.state.companies["A Company"].area == "Isura"
    assert outcome.state.companies["Supply Company"].area == "Korona"


def test_the_winner_controls_the_area() -> None:
    plan = one_on_one()

    outcome = finish_turn(plan, {"1:Korona": result("attacker")})

    assert outcome.state.areas["Korona"].controller == "japanese"
    (control,) = records(outcome.log, "control")
    assert (control["target"], control["side"], control["previous"]) == (
        "Korona",
        "japanese",
        "australian",
    )


def test_a_defender_that_wins_keeps_the_area() -> None:
    outcome = finish_turn(one_on_one(), {"1:Korona": result("defender")})

    assert outcome.state.areas["Korona"].controller == "australian"
    assert outcome.state.areas["Oivi"].controller == "japanese"
    assert records(outcome.log, "control") == []


def test_an_area_still_held_by_both_sides_keeps_its_controller() -> None:
    plan = japanese_attack_korona(korona_state(), "1st Company", "2nd Company")
    assert [b.key for b in plan.battles] == ["1:Korona:1", "1:Korona:2"]

    outcome = finish_turn(
        plan, {"1:Korona:1": result("defender"), "1:Korona:2": result("attacker")}
    )

    here = {c.side for c in outcome.state.companies_in("Korona", fighting=True)}
    assert here == {"australian", "japanese"}
    assert outcome.state.areas["Korona"].controller == "australian"


def test_control_goes_to_the_side_that_last_held_an_area_alone() -> None:
    state = korona_state()
    first = scripted_turn(state, supply_dice(state), advance(("2nd Company", "Munara")))
    state = finish_turn(first, {}).state
    assert state.areas["Munara"].controller == "japanese"

    orders = {"2nd Company": Order("2nd Company", "withdraw", "Oivi")}
    second = finish_turn(scripted_turn(state, supply_dice(state), orders), {})

    assert second.state.companies["2nd Company"].area == "Oivi"
    assert second.state.areas["Munara"].controller == "japanese"  # left empty, still theirs


def test_a_japanese_company_that_wins_a_battle_gets_banzai() -> None:
    outcome = finish_turn(one_on_one(), {"1:Korona": result("attacker")})

    assert outcome.state.companies["1st Company"].banzai is True
    assert outcome.state.companies["A Company"].banzai is False


def test_an_australian_company_that_wins_gets_no_banzai() -> None:
    outcome = finish_turn(one_on_one(), {"1:Korona": result("defender")})

    assert outcome.state.companies["A Company"].banzai is False
    assert outcome.state.companies["1st Company"].banzai is False


def test_banzai_after_a_won_battle_saves_the_next_supply_roll() -> None:
    outcome = finish_turn(one_on_one(), {"1:Korona": result("attacker")})
    state = outcome.state

    plan = scripted_turn(state, supply_dice(state, {"1st Company": 1}))

    (record,) = records(plan.log, "supply", company="1st Company")
    assert (record["target"], record["outcome"], record["banzai"]) == (2, "in supply", True)


# --- checking results -----------------------------------------------------------------


@pytest.mark.parametrize("winner", [None, "draw", "japanese", "Attacker"])
def test_check_result_refuses_a_bad_winner(winner: str | None) -> None:
    (battle,) = one_on_one().battles

    with pytest.raises(ValueError, match="winner"):
        check_result(battle, result(winner))


@pytest.mark.parametrize(
    "losses",
    [
        {"attacker": {"rifle_squad": 10}},  # 9 were there
        {"defender": {"hmg": 1}},  # the Australians brought none
        {"defender": {"rifle_squad": -1}},
        {"defender": {"rifle_squad": 1.5}},
    ],
)
def test_check_result_refuses_losses_beyond_what_was_present(losses: dict[str, Any]) -> None:
    (battle,) = one_on_one().battles

    with pytest.raises(ValueError, match="loss|lost"):
        check_result(battle, {"winner": "attacker", "losses": losses})


def test_check_result_accepts_every_stand_lost() -> None:
    (battle,) = one_on_one().battles

    check_result(
        battle, {"winner": "attacker", "losses": {"defender": battle.spec["defender"]["stands"]}}
    )


def test_finish_turn_refuses_a_bad_result() -> None:
    with pytest.raises(ValueError):
        finish_turn(one_on_one(), {"1:Korona": result("defender", {"rifle_squad": 12})})


def test_a_missing_battle_result_raises_turn_error() -> None:
    with pytest.raises(TurnError, match="1:Korona"):
        finish_turn(one_on_one(), {})


def test_finish_turn_leaves_the_plan_untouched() -> None:
    plan = one_on_one()
    before = plan.state.copy()

    finish_turn(plan, {"1:Korona": result("attacker", defender={"rifle_squad": 3})})

    assert plan.state == before


# --- the end of the campaign ----------------------------------------------------------


def test_the_campaign_ends_when_a_base_is_held_by_the_enemy() -> None:
    # The 3rd Company walks into Port Murray; the Australians still hold Korona and win.
    state = move(korona_state(), **{"3rd_Company": "Uberi Ridge"})
    plan = scripted_turn(
        state, supply_dice(state), advance(("3rd Company", "Port Murray")), initiative=[1, 6]
    )
    assert records(plan.log, "supply_company_destroyed")

    outcome = finish_turn(plan, {})

    assert outcome.state.areas["Port Murray"].controller == "japanese"
    assert outcome.state.finished is True
    assert "Port Murray" in outcome.state.end_reason
    assert outcome.state.winner == "australian"
    assert end_causes(outcome.state) == [
        EndCause("base_lost", side="australian", area="Port Murray")
    ]
    (end,) = records(outcome.log, "campaign_end")
    assert end["winner"] == "australian"


def test_the_campaign_ends_when_a_side_has_no_fighting_companies() -> None:
    state = korona_state()
    for name in ("1st Company", "2nd Company", "3rd Company"):
        del state.companies[name]

    outcome = finish_turn(scripted_turn(state, supply_dice(state)), {})

    assert outcome.state.finished is True
    assert "Japanese have no fighting companies" in outcome.state.end_reason
    assert outcome.state.winner == "australian"
    assert end_causes(outcome.state) == [EndCause("no_fighting_companies", side="japanese")]


def test_a_side_losing_its_last_company_in_battle_ends_the_campaign() -> None:
    state = korona_state()
    for name in ("2nd Company", "3rd Company"):
        del state.companies[name]
    plan = japanese_attack_korona(state)
    everything = {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "hmg": 1}

    outcome = finish_turn(plan, {"1:Korona": result("defender", everything)})

    assert outcome.state.finished is True
    assert outcome.state.winner == "australian"


@pytest.mark.parametrize("holder", ["australian", "japanese"])
def test_at_the_turn_limit_the_side_controlling_korona_wins(holder: str) -> None:
    state = move(korona_state(), A_Company="Isura", B_Company="Isura")  # Korona left empty
    state.turn = 19
    state.areas["Korona"].controller = holder

    outcome = finish_turn(scripted_turn(state, supply_dice(state)), {})

    assert (outcome.number, outcome.state.turn) == (20, 20)
    assert outcome.state.finished is True
    assert "turn limit" in outcome.state.end_reason
    assert outcome.state.winner == holder
    assert end_causes(outcome.state) == [EndCause("turn_limit", turns=20)]


def test_the_turn_limit_is_a_setting() -> None:
    state = korona_state(turn_limit=3)
    state.turn = 2

    outcome = finish_turn(scripted_turn(state, supply_dice(state)), {})

    assert outcome.state.finished is True


def test_the_campaign_goes_on_before_the_turn_limit() -> None:
    state = korona_state()
    state.turn = 18

    outcome = finish_turn(scripted_turn(state, supply_dice(state)), {})

    assert (outcome.state.finished, outcome.state.winner, outcome.state.end_reason) == (
        False,
        None,
        None,
    )
    assert records(outcome.log, "campaign_end") == []
    assert end_causes(outcome.state) == []


def test_nobody_wins_when_nobody_controls_korona() -> None:
    state = korona_state()
    state.turn = 19
    state.areas["Korona"].controller = None
    move(state, A_Company="Isura", B_Company="Isura")

    outcome = finish_turn(scripted_turn(state, supply_dice(state)), {})

    assert (outcome.state.finished, outcome.state.winner) == (True, None)


def test_advancing_a_finished_campaign_raises_turn_error() -> None:
    state = korona_state()
    state.finished, state.winner = True, "australian"

    with pytest.raises(TurnError, match="has ended"):
        start_turn(state)
    with pytest.raises(TurnError):
        play_turn(state)
