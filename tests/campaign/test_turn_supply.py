"""Phase 3: company supply, its losses and regains, the airdrop and Banzai (rulings
section 3, "A Bastard of a track", "Airdrop supply", "Banzai!"), on scripted dice."""

from __future__ import annotations

import pytest

from rules.campaign.state import AirGroup, CampaignState
from rules.campaign.turn import TurnPlan, finish_turn, supply_need
from tests.campaign.builders import (
    KORONA_FIGHTING,
    fighting_company,
    korona_state,
    line_state,
    move,
    records,
    scripted_turn,
    supply_company,
    supply_dice,
    supply_record,
)

FULL_AUSTRALIAN = {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "forward_observer": 1}


def stands(plan: TurnPlan, name: str) -> dict[str, int]:
    return plan.state.companies[name].stands


# --- the roll against the distance ------------------------------------------------------


@pytest.mark.parametrize(("roll", "verdict"), [(3, "out of supply"), (4, "in supply")])
def test_supply_distance_is_the_fewest_links_to_the_base_not_the_zone(
    roll: int, verdict: str
) -> None:
    # Korona is zone 5 but 4 links from Port Murray.
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state, {"A Company": roll}))

    record = supply_record(plan, "A Company")
    assert (record["target"], record["base"]) == (4, "Port Murray")
    assert (record["dice"], record["total"], record["outcome"]) == ([roll], roll, verdict)
    assert plan.state.companies["A Company"].in_supply is (verdict == "in supply")


def test_a_company_in_its_own_base_is_zero_zones_away() -> None:
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state, {"3rd Company": 1}), naval=[6, 5])

    record = supply_record(plan, "3rd Company")
    assert (record["target"], record["total"], record["outcome"]) == (0, 1, "in supply")


def test_distance_counts_links_along_the_other_track_when_shorter() -> None:
    # Munara: 4 links from Port Murray by Erida and Kerna, 2 from Kilu by Oivi.
    state = move(korona_state(), C_Company="Munara", **{"1st_Company": "Munara"})

    plan = scripted_turn(state, supply_dice(state))

    assert supply_record(plan, "C Company (militia)")["target"] == 4
    assert supply_record(plan, "1st Company")["target"] == 2


@pytest.mark.parametrize(
    ("supply_area", "side", "supported"),
    [
        ("Korona", "australian", True),  # same area
        ("Isura", "australian", True),  # linked area
        ("Ioro", "australian", False),  # two links away
        ("Oivi", "japanese", False),  # linked, but the enemy's
    ],
)
def test_a_friendly_supply_company_in_the_same_or_a_linked_area_adds_one(
    supply_area: str, side: str, supported: bool
) -> None:
    state = korona_state()
    name = "1st Supply Company" if side == "australian" else "Supply Company"
    state.companies[name].area = supply_area

    plan = scripted_turn(state, supply_dice(state, {"A Company": 3}))

    record = supply_record(plan, "A Company")
    expected = [{"reason": "supply company", "value": 1}] if supported else []
    assert record["modifiers"] == expected
    assert record["total"] == 3 + supported
    assert plan.state.companies["A Company"].in_supply is supported  # needs 4


@pytest.mark.parametrize(("area", "distance"), [("Erida", 2), ("Kerna", 3), ("Munara", 4)])
def test_a_company_on_the_southern_track_has_minus_one(area: str, distance: int) -> None:
    state = move(korona_state(), C_Company=area)

    short = scripted_turn(state, supply_dice(state, {"C Company (militia)": distance}))
    enough = scripted_turn(state, supply_dice(state, {"C Company (militia)": distance + 1}))

    record = supply_record(short, "C Company (militia)")
    assert record["modifiers"] == [{"reason": "a bastard of a track", "value": -1}]
    assert (record["target"], record["total"]) == (distance, distance - 1)
    assert record["outcome"] == "out of supply"
    assert supply_record(enough, "C Company (militia)")["outcome"] == "in supply"


def test_the_southern_track_penalty_applies_to_the_japanese_too() -> None:
    state = move(korona_state(), **{"1st_Company": "Munara"})

    plan = scripted_turn(state, supply_dice(state, {"1st Company": 2}))

    record = supply_record(plan, "1st Company")
    assert (record["target"], record["total"], record["outcome"]) == (2, 1, "out of supply")


@pytest.mark.parametrize("supported", [False, True])
@pytest.mark.parametrize("distance", range(8))
def test_the_chance_of_supply_is_the_closed_form_over_all_six_faces(
    distance: int, supported: bool
) -> None:
    names = [f"Area {n}" for n in range(9)]
    here = names[distance]
    companies = [fighting_company("A Company", "australian", here)]
    if supported:
        companies.append(supply_company("1st Supply Company", "australian", here))
    state = line_state(names, companies)

    faces_in_supply = sum(
        scripted_turn(state, [face]).state.companies["A Company"].in_supply for face in range(1, 7)
    )

    assert faces_in_supply == max(0, min(6, 7 - distance + supported))


def test_every_fighting_company_rolls_even_when_forced_out_and_supply_companies_never_roll() -> (
    None
):
    state = korona_state()

    plan = scripted_turn(state, [1, 2, 3, 4, 5, 6], naval=[6, 3], aerial=[6, 6])

    rolled = records(plan.log, "supply")
    assert [r["company"] for r in rolled] == list(KORONA_FIGHTING)
    assert [r["dice"] for r in rolled] == [[1], [2], [3], [4], [5], [6]]
    assert all(r["outcome"] == "out of supply" for r in rolled)
    for name in ("1st Supply Company", "Supply Company"):
        assert plan.state.companies[name].in_supply is None


# --- losses and regains ---------------------------------------------------------------


def test_the_first_turn_out_of_supply_loses_no_stands() -> None:
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state), naval=[6, 3])

    company = plan.state.companies["A Company"]
    assert company.stands == FULL_AUSTRALIAN
    assert company.turns_out_of_supply == 1
    assert supply_record(plan, "A Company")["stands_lost"] == {}


@pytest.mark.parametrize(("roll", "lost"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_a_second_turn_running_out_of_supply_loses_half_the_roll_rifle_squads_first(
    roll: int, lost: int
) -> None:
    state = korona_state()
    state.companies["A Company"].turns_out_of_supply = 1

    # Forced out by HMAS Pitcairn's departure: the roll still sizes the losses.
    plan = scripted_turn(state, supply_dice(state, {"A Company": roll}), naval=[6, 3])

    assert stands(plan, "A Company") == {**FULL_AUSTRALIAN, "rifle_squad": 9 - lost}
    assert plan.state.companies["A Company"].turns_out_of_supply == 2
    assert supply_record(plan, "A Company")["stands_lost"] == (
        {"rifle_squad": lost} if lost else {}
    )


def test_out_of_supply_two_turns_running_costs_stands_on_the_second() -> None:
    state = korona_state()
    first = scripted_turn(state, supply_dice(state, {"A Company": 3}))
    assert stands(first, "A Company") == FULL_AUSTRALIAN
    state = finish_turn(first, {}).state

    second = scripted_turn(state, supply_dice(state, {"A Company": 3}))
    third_state = finish_turn(second, {}).state
    third = scripted_turn(third_state, supply_dice(third_state, {"A Company": 2}))

    assert stands(second, "A Company")["rifle_squad"] == 8
    assert stands(third, "A Company")["rifle_squad"] == 7  # it goes on until back in supply
    assert third.state.companies["A Company"].turns_out_of_supply == 3


def test_supply_losses_take_the_commander_last() -> None:
    state = korona_state()
    company = state.companies["A Company"]
    company.stands["rifle_squad"] = 1
    company.turns_out_of_supply = 1

    plan = scripted_turn(state, supply_dice(state), naval=[6, 3])

    assert stands(plan, "A Company") == {
        "commander": 1,
        "rifle_squad": 0,
        "small_mortar": 0,
        "forward_observer": 0,
    }


def test_a_company_with_no_stands_left_is_removed() -> None:
    state = korona_state()
    state.companies["A Company"] = fighting_company(
        "A Company", "australian", "Korona", stands={"rifle_squad": 1}, turns_out_of_supply=1
    )

    plan = scripted_turn(state, supply_dice(state, {"A Company": 2}), naval=[6, 3])

    assert "A Company" not in plan.state.companies
    (removed,) = records(plan.log, "company_removed")
    assert (removed["company"], removed["phase"]) == ("A Company", "supply")
    # Only the two Australian companies still standing count against the initiative.
    (initiative,) = records(plan.log, "initiative")
    assert initiative["totals"]["australian"] == 6 - 2


def test_in_supply_regains_half_the_roll_commander_first_then_support_then_rifle_squads() -> None:
    state = korona_state()
    state.companies["A Company"].stands.update(commander=0, small_mortar=0, rifle_squad=6)

    plan = scripted_turn(state, supply_dice(state, {"A Company": 6}))

    assert stands(plan, "A Company") == {
        "commander": 1,
        "rifle_squad": 7,
        "small_mortar": 1,
        "forward_observer": 1,
    }
    assert supply_record(plan, "A Company")["stands_gained"] == {
        "commander": 1,
        "small_mortar": 1,
        "rifle_squad": 1,
    }


def test_support_weapons_come_back_before_rifle_squads() -> None:
    state = korona_state()
    state.companies["1st Company"].stands.update(hmg=0, small_mortar=0, rifle_squad=5)

    plan = scripted_turn(state, supply_dice(state, {"1st Company": 5}))

    assert stands(plan, "1st Company") == {
        "commander": 1,
        "rifle_squad": 5,
        "small_mortar": 1,
        "hmg": 1,
    }


def test_regains_never_go_above_establishment() -> None:
    state = korona_state()
    state.companies["A Company"].stands["rifle_squad"] = 8

    plan = scripted_turn(state, supply_dice(state, {"A Company": 6}))

    assert stands(plan, "A Company") == FULL_AUSTRALIAN
    assert plan.state.companies["A Company"].strength == 12


def test_regains_are_sized_by_the_die_not_the_modified_total() -> None:
    state = move(korona_state(), **{"1st_Supply_Company": "Korona"})
    state.companies["A Company"].stands["rifle_squad"] = 5

    plan = scripted_turn(state, supply_dice(state, {"A Company": 3}))  # 3 + 1 = 4: in supply

    assert stands(plan, "A Company")["rifle_squad"] == 6


def test_back_in_supply_resets_the_count_of_turns_out() -> None:
    state = korona_state()
    state.companies["A Company"].turns_out_of_supply = 3

    plan = scripted_turn(state, supply_dice(state))

    assert plan.state.companies["A Company"].turns_out_of_supply == 0


# --- airdrop --------------------------------------------------------------------------


def airdrop_state(
    *, supply_area: str = "Oivi", buffalos: int = 3, bombers: int = 0
) -> CampaignState:
    """A Company alone in Oivi (zone 6, 5 links from Port Murray, 1 from Korona)."""
    state = move(
        korona_state(),
        A_Company="Oivi",
        **{"1st_Company": "Kilu", "2nd_Company": "Kilu", "1st_Supply_Company": supply_area},
    )
    state.air[0].buffalos, state.air[0].bombers = buffalos, bombers
    return state


@pytest.mark.parametrize(("buffalos", "bombers"), [(3, 0), (1, 0), (0, 1)])
def test_airdrop_a_company_in_zone_6_counts_korona_as_its_base(buffalos: int, bombers: int) -> None:
    state = airdrop_state(buffalos=buffalos, bombers=bombers)

    plan = scripted_turn(state, supply_dice(state, {"A Company": 1}))

    record = supply_record(plan, "A Company")
    assert (record["base"], record["target"], record["outcome"]) == ("Korona", 1, "in supply")


def test_no_airdrop_without_a_supply_company_in_the_area() -> None:
    # Korona is linked to Oivi: the supply company still adds one, but drops nothing.
    state = airdrop_state(supply_area="Korona")

    plan = scripted_turn(state, supply_dice(state, {"A Company": 3}))

    record = supply_record(plan, "A Company")
    assert (record["base"], record["target"], record["total"]) == ("Port Murray", 5, 4)
    assert record["outcome"] == "out of supply"


def test_no_airdrop_when_the_raaf_has_no_planes() -> None:
    state = airdrop_state(buffalos=0, bombers=0)

    plan = scripted_turn(state, supply_dice(state, {"A Company": 3}))

    record = supply_record(plan, "A Company")
    assert (record["base"], record["target"], record["outcome"]) == (
        "Port Murray",
        5,
        "out of supply",
    )


def test_no_airdrop_outside_zone_6() -> None:
    # Isura is zone 4, one link from Korona but three from Port Murray.
    state = move(korona_state(), **{"1st_Supply_Company": "Isura"})

    plan = scripted_turn(state, supply_dice(state, {"C Company (militia)": 1}))

    record = supply_record(plan, "C Company (militia)")
    assert (record["base"], record["target"], record["outcome"]) == (
        "Port Murray",
        3,
        "out of supply",
    )


def test_airdrop_after_aerial_3_needs_the_hurricane() -> None:
    state = airdrop_state()

    plan = scripted_turn(state, supply_dice(state, {"A Company": 3}), aerial=[6, 3])

    assert supply_record(plan, "A Company")["base"] == "Port Murray"


def test_only_australians_get_the_airdrop() -> None:
    # "Australians in zone 6 may count Korona ... as their home base": a Japanese company
    # in a zone-6 area far from Kilu gets no airdrop, even with planes of its own.
    names = ["Port Murray", "Isura", "Korona", "Oivi", "Far", "Farther", "Kilu"]
    state = line_state(
        names,
        [
            fighting_company("1st Company", "japanese", "Oivi"),
            supply_company("Supply Company", "japanese", "Oivi"),
            fighting_company("A Company", "australian", "Port Murray"),
        ],
        air=[AirGroup("japanese", "Kilu", buffalos=2)],
    )
    state.areas["Oivi"].zone = 6

    plan = scripted_turn(state, supply_dice(state, {"1st Company": 1}))

    record = supply_record(plan, "1st Company")
    assert (record["base"], record["target"], record["outcome"]) == ("Kilu", 3, "out of supply")


# --- Banzai ---------------------------------------------------------------------------


def banzai_state() -> CampaignState:
    """1st Company has won a battle and stands in Isura, 3 links from Kilu."""
    state = move(korona_state(), C_Company="Ioro", **{"1st_Company": "Isura"})
    state.companies["1st Company"].banzai = True
    return state


def test_banzai_a_japanese_company_that_won_is_in_supply_whatever_its_roll() -> None:
    state = banzai_state()

    plan = scripted_turn(state, supply_dice(state, {"1st Company": 2}))

    record = supply_record(plan, "1st Company")
    assert (record["total"], record["target"]) == (2, 3)
    assert (record["outcome"], record["banzai"]) == ("in supply", True)
    assert plan.state.companies["1st Company"].turns_out_of_supply == 0


def test_banzai_lasts_only_the_following_turn() -> None:
    state = banzai_state()
    first = scripted_turn(state, supply_dice(state, {"1st Company": 2}))
    assert first.state.companies["1st Company"].banzai is False
    state = finish_turn(first, {}).state

    second = scripted_turn(state, supply_dice(state, {"1st Company": 2}))

    record = supply_record(second, "1st Company")
    assert (record["outcome"], record["banzai"]) == ("out of supply", False)


def test_banzai_is_spent_even_when_the_roll_succeeds() -> None:
    state = banzai_state()

    plan = scripted_turn(state, supply_dice(state, {"1st Company": 6}))

    assert supply_record(plan, "1st Company")["banzai"] is False
    assert plan.state.companies["1st Company"].banzai is False


def test_banzai_does_not_overrule_an_event_that_puts_every_japanese_company_out() -> None:
    # Our ruling (docs/campaign.md): Banzai ignores a failed roll, not HQ being down.
    state = banzai_state()

    plan = scripted_turn(state, supply_dice(state, {"1st Company": 2}), aerial=[6, 6])

    assert supply_record(plan, "1st Company")["outcome"] == "out of supply"


# --- the coming roll, as the pages give it ---------------------------------------------


@pytest.mark.parametrize(
    "placing",
    [
        {},
        {"1st_Supply_Company": "Isura"},  # linked to Korona: +1 for A and B Company
        {"1st_Supply_Company": "Uberi Ridge", "C_Company": "Erida"},  # linked, rough track
        {"A_Company": "Oivi", "1st_Company": "Kilu", "2nd_Company": "Kilu",
         "1st_Supply_Company": "Oivi"},  # the airdrop
        {"Supply_Company": "Oivi", "3rd_Company": "Munara"},
    ],
)  # fmt: skip
def test_supply_need_is_the_distance_and_modifiers_the_phase_rolls_with(
    placing: dict[str, str],
) -> None:
    """The pages' "as things stand" roll (``supply_need``) is the phase's own: the same
    distance, base and modifiers for every fighting company, events aside."""
    state = move(korona_state(), **placing)
    needs = {
        c.name: supply_need(
            state,
            side=c.side,
            area=c.area,
            depots=[
                d.area for d in state.companies.values() if d.side == c.side and not d.fighting
            ],
        )
        for c in state.companies.values()
        if c.fighting
    }

    plan = scripted_turn(state, supply_dice(state, default=3))

    for name, need in needs.items():
        record = supply_record(plan, name)
        modifiers = tuple((m["reason"], m["value"]) for m in record["modifiers"])
        assert (record["target"], record["base"], modifiers) == (
            need.distance,
            need.base,
            need.modifiers,
        ), name
        assert record["outcome"] == ("in supply" if need.need <= 3 else "out of supply"), name
