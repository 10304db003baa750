"""Phases 4 and 5: initiative, orders (``check_order``), standing orders and movement."""

from __future__ import annotations

from typing import Any

import pytest

from rules.campaign.state import CampaignState, Order
from rules.campaign.turn import OrderError, TurnPlan, check_order
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


def moves(plan: TurnPlan) -> list[tuple[str, str, str]]:
    """(company, outcome, target) of every movement record, in the order they happened."""
    return [
        (r["company"], r["outcome"], r["target"])
        for r in plan.log
        if r["phase"] == "movement" and r["kind"] == "order"
    ]


def where(plan: TurnPlan, name: str) -> str:
    return plan.state.companies[name].area


# --- initiative -----------------------------------------------------------------------


def test_initiative_is_a_d6_minus_one_per_own_fighting_company_out_of_supply() -> None:
    state = korona_state()
    out = {"A Company": 1, "B Company": 1, "C Company (militia)": 1}

    plan = scripted_turn(state, supply_dice(state, out), initiative=[6, 4])

    (record,) = records(plan.log, "initiative")
    assert record["dice"] == [6, 4]
    assert record["totals"] == {"australian": 3, "japanese": 4}
    assert record["modifiers"] == [{"reason": "australian: companies out of supply", "value": -3}]
    assert plan.initiative == "japanese"


def test_initiative_without_companies_out_of_supply_is_the_bare_die() -> None:
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state), initiative=[3, 2])

    (record,) = records(plan.log, "initiative")
    assert (record["totals"], record["modifiers"]) == ({"australian": 3, "japanese": 2}, [])
    assert plan.initiative == "australian"


def test_an_initiative_tie_is_rolled_again_and_both_rounds_are_logged() -> None:
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state), initiative=[3, 3, 4, 4, 2, 5])

    rounds = records(plan.log, "initiative")
    assert [r["dice"] for r in rounds] == [[3, 3], [4, 4], [2, 5]]
    assert [r["outcome"] for r in rounds] == ["tie", "tie", "japanese"]
    assert plan.initiative == "japanese"


def test_a_tie_after_the_supply_penalty_is_rolled_again() -> None:
    state = korona_state()

    # A Company is out: 5 - 1 = 4 against 4, a tie; then 1 - 1 = 0 against 2.
    plan = scripted_turn(state, supply_dice(state, {"A Company": 1}), initiative=[5, 4, 1, 2])

    rounds = records(plan.log, "initiative")
    assert [r["totals"] for r in rounds] == [
        {"australian": 4, "japanese": 4},
        {"australian": 0, "japanese": 2},
    ]
    assert plan.initiative == "japanese"


@pytest.mark.parametrize(("dice", "first"), [((6, 1), "australian"), ((1, 6), "japanese")])
def test_the_initiative_winner_moves_all_its_companies_first(
    dice: tuple[int, int], first: str
) -> None:
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state), initiative=dice)

    sides = [r["side"] for r in plan.log if r["phase"] == "movement"]
    assert sides == sorted(sides, key=lambda side: side != first)
    assert sides[0] == first


# --- check_order ----------------------------------------------------------------------


def supplied_korona() -> CampaignState:
    """The reference scenario with every fighting company in supply."""
    state = korona_state()
    for company in state.companies.values():
        if company.fighting:
            company.in_supply = True
    return state


def test_a_company_out_of_supply_this_turn_may_not_advance() -> None:
    state = supplied_korona()

    with pytest.raises(
        OrderError, match=r"C Company \(militia\) is out of supply and may not advance"
    ):
        check_order(state, Order("C Company (militia)", "advance", "Korona"), in_supply=False)


def test_before_the_supply_roll_an_advance_is_not_refused_for_the_last_roll() -> None:
    # Orders are given before the turn rolls supply; the turn checks its own roll.
    state = supplied_korona()
    state.companies["C Company (militia)"].in_supply = False

    check_order(state, Order("C Company (militia)", "advance", "Korona"))


def test_the_supply_of_this_turn_can_be_given_to_check_order() -> None:
    state = supplied_korona()

    with pytest.raises(OrderError, match="out of supply"):
        check_order(state, Order("C Company (militia)", "advance", "Korona"), in_supply=False)
    state.companies["C Company (militia)"].in_supply = False
    check_order(state, Order("C Company (militia)", "advance", "Korona"), in_supply=True)


def test_a_company_out_of_supply_may_withdraw() -> None:
    state = supplied_korona()
    state.companies["C Company (militia)"].in_supply = False

    check_order(state, Order("C Company (militia)", "withdraw", "Ioro"))


@pytest.mark.parametrize(
    "order",
    [Order("A Company", "withdraw", "Isura"), Order("A Company", "advance", "Oivi")],
)
def test_a_company_engaged_by_an_enemy_fighting_company_may_not_move(order: Order) -> None:
    state = move(supplied_korona(), **{"1st_Company": "Korona"})

    with pytest.raises(OrderError, match="A Company is engaged by the enemy in Korona"):
        check_order(state, order)


def test_an_advance_refused_for_both_reasons_names_both() -> None:
    """Out of supply (the turn's roll) and engaged: the player read "out of supply" in the
    supply phase, so the refusal names it beside the engagement, not the engagement alone."""
    state = move(supplied_korona(), **{"1st_Company": "Korona"})

    with pytest.raises(
        OrderError,
        match=r"^A Company is out of supply, and is engaged by the enemy in Korona: it may "
        r"not move$",
    ):
        check_order(state, Order("A Company", "advance", "Oivi"), in_supply=False)
    with pytest.raises(  # a withdrawal needs no supply: engaged alone
        OrderError, match=r"^A Company is engaged by the enemy in Korona and may not move$"
    ):
        check_order(state, Order("A Company", "withdraw", "Isura"), in_supply=False)


def test_an_enemy_supply_company_does_not_engage() -> None:
    state = move(supplied_korona(), Supply_Company="Korona")

    check_order(state, Order("A Company", "withdraw", "Isura"))


def test_the_target_must_be_linked() -> None:
    state = supplied_korona()

    with pytest.raises(OrderError, match="Kilu is not linked to Korona"):
        check_order(state, Order("A Company", "advance", "Kilu"))


def test_a_side_may_not_order_the_other_sides_companies() -> None:
    state = supplied_korona()

    with pytest.raises(OrderError, match="A Company belongs to the other side"):
        check_order(state, Order("A Company", "advance", "Oivi"), side="japanese")
    check_order(state, Order("A Company", "advance", "Oivi"), side="australian")
    check_order(state, Order("A Company", "advance", "Oivi"))  # the GM orders anyone


def test_an_advance_must_not_go_farther_from_the_enemy_base() -> None:
    state = supplied_korona()

    with pytest.raises(OrderError, match="Isura is farther from the enemy base"):
        check_order(state, Order("A Company", "advance", "Isura"))


def test_a_withdrawal_must_go_closer_to_the_own_base() -> None:
    state = supplied_korona()

    with pytest.raises(OrderError, match="Oivi is not closer to A Company's base"):
        check_order(state, Order("A Company", "withdraw", "Oivi"))
    check_order(state, Order("A Company", "withdraw", "Isura"))


def sideways_state() -> CampaignState:
    """Two areas, North and South, one link from each base and linked to each other."""
    names = ["Port Murray", "North", "South", "Kilu"]
    links = [
        ("Port Murray", "North"),
        ("Port Murray", "South"),
        ("North", "South"),
        ("North", "Kilu"),
        ("South", "Kilu"),
    ]
    company = fighting_company("A Company", "australian", "North", in_supply=True)
    return line_state(names, [company], links=links)


def test_a_sideways_move_is_an_advance_no_farther_from_the_enemy_base() -> None:
    check_order(sideways_state(), Order("A Company", "advance", "South"))


def test_a_sideways_move_is_not_a_withdrawal() -> None:
    with pytest.raises(OrderError, match="not a withdrawal"):
        check_order(sideways_state(), Order("A Company", "withdraw", "South"))


@pytest.mark.parametrize("name", ["A Company", "1st Supply Company", "1st Company"])
def test_hold_is_always_legal(name: str) -> None:
    # A Company is engaged and out of supply; the supply company has never rolled.
    state = move(korona_state(), **{"1st_Company": "Korona"})
    state.companies["A Company"].in_supply = False

    check_order(state, Order(name, "hold"))


def test_a_supply_company_may_advance_without_rolling_for_supply() -> None:
    check_order(korona_state(), Order("1st Supply Company", "advance", "Uberi Ridge"))


@pytest.mark.parametrize(
    ("order", "reason"),
    [
        (Order("D Company", "hold"), "there is no company 'D Company'"),
        (Order("A Company", "charge", "Oivi"), "'charge' is not an order"),
        (Order("A Company", "advance"), "an advance order must name the area"),
        (Order("A Company", "withdraw", "Sydney"), "there is no area 'Sydney'"),
        (Order("A Company", "hold", "Oivi"), "a hold order names no area"),
    ],
)
def test_a_malformed_order_is_refused_with_a_reason(order: Order, reason: str) -> None:
    with pytest.raises(OrderError, match=reason):
        check_order(supplied_korona(), order)


# --- orders carried out ---------------------------------------------------------------


def test_an_illegal_order_is_refused_in_the_log_and_the_company_holds() -> None:
    state = korona_state()
    orders = {"C Company (militia)": Order("C Company (militia)", "advance", "Korona")}

    plan = scripted_turn(state, supply_dice(state, {"C Company (militia)": 1}), orders)

    (record,) = records(plan.log, "order", company="C Company (militia)")
    assert record["outcome"] == "refused"
    assert "out of supply" in record["reason"]
    assert "refused" in record["text"]
    assert where(plan, "C Company (militia)") == "Isura"


def test_a_legal_order_moves_the_company() -> None:
    state = korona_state()
    orders = {"C Company (militia)": Order("C Company (militia)", "advance", "Korona")}

    plan = scripted_turn(state, supply_dice(state), orders)

    (record,) = records(plan.log, "order", company="C Company (militia)")
    assert (record["outcome"], record["from"], record["target"]) == ("moved", "Isura", "Korona")
    assert record["source"] == "order"
    assert where(plan, "C Company (militia)") == "Korona"


def test_companies_without_orders_follow_their_standing_order_hold_by_default() -> None:
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state))

    held = records(plan.log, "order")
    assert len(held) == len(state.companies)
    assert all(r["outcome"] == "hold" for r in held)
    assert all(r["source"] == "standing order (hold)" for r in held)
    assert {n: c.area for n, c in plan.state.companies.items()} == {
        n: c.area for n, c in state.companies.items()
    }


def test_an_aggressive_company_in_supply_advances_toward_the_enemy_base() -> None:
    state = korona_state()
    state.companies["C Company (militia)"].standing_order = "aggressive"

    plan = scripted_turn(state, supply_dice(state))

    assert where(plan, "C Company (militia)") == "Korona"
    (record,) = records(plan.log, "order", company="C Company (militia)")
    assert (record["order"], record["source"]) == ("advance", "standing order (aggressive)")


def test_an_aggressive_company_out_of_supply_withdraws_toward_its_base() -> None:
    state = korona_state()
    state.companies["C Company (militia)"].standing_order = "aggressive"

    plan = scripted_turn(state, supply_dice(state, {"C Company (militia)": 2}))

    assert where(plan, "C Company (militia)") == "Ioro"


def test_an_aggressive_company_engaged_by_the_enemy_holds() -> None:
    state = move(korona_state(), **{"1st_Company": "Korona"})
    state.companies["A Company"].standing_order = "aggressive"

    plan = scripted_turn(state, supply_dice(state))

    assert where(plan, "A Company") == "Korona"
    (record,) = records(plan.log, "order", company="A Company")
    assert record["outcome"] == "hold"


def test_an_aggressive_supply_company_follows_its_front_one_area_behind() -> None:
    state = korona_state()
    state.companies["1st Supply Company"].standing_order = "aggressive"

    plan = scripted_turn(state, supply_dice(state))

    assert where(plan, "1st Supply Company") == "Uberi Ridge"


def test_an_explicit_order_overrides_the_standing_order() -> None:
    state = korona_state()
    state.companies["C Company (militia)"].standing_order = "aggressive"

    plan = scripted_turn(
        state, supply_dice(state), {"C Company (militia)": Order("C Company (militia)", "hold")}
    )

    assert where(plan, "C Company (militia)") == "Isura"


def test_an_order_filed_under_another_company_never_moves_a_company_off_the_links() -> None:
    # The order names A Company (Korona -> Oivi is a legal advance) but is filed under
    # C Company, in Isura, which Oivi is not linked to.
    state = korona_state()
    orders = {"C Company (militia)": Order("A Company", "advance", "Oivi")}

    plan = scripted_turn(state, supply_dice(state), orders)

    assert where(plan, "C Company (militia)") in ("Isura", *state.neighbours("Isura"))


# --- engaged by an enemy that entered this turn ---------------------------------------

ENTER_AND_LEAVE = {
    "1st Company": Order("1st Company", "advance", "Korona"),
    "A Company": Order("A Company", "withdraw", "Isura"),
}


def test_a_company_may_not_leave_an_area_the_enemy_entered_first_this_turn() -> None:
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state), ENTER_AND_LEAVE, initiative=[1, 6])

    assert moves(plan)[0] == ("1st Company", "moved", "Korona")
    (refused,) = records(plan.log, "order", company="A Company")
    assert refused["outcome"] == "refused"
    assert "engaged" in refused["reason"]
    assert where(plan, "A Company") == "Korona"


def test_a_company_moving_first_leaves_before_the_enemy_arrives() -> None:
    state = korona_state()

    plan = scripted_turn(state, supply_dice(state), ENTER_AND_LEAVE, initiative=[6, 1])

    assert where(plan, "A Company") == "Isura"
    assert where(plan, "1st Company") == "Korona"
    (battle,) = plan.battles
    assert (battle.attackers, battle.defenders) == (["1st Company"], ["B Company"])


def test_companies_of_the_second_side_may_still_move_when_not_engaged() -> None:
    state = korona_state()
    orders = {
        "1st Company": Order("1st Company", "advance", "Korona"),
        "C Company (militia)": Order("C Company (militia)", "withdraw", "Ioro"),
    }

    plan = scripted_turn(state, supply_dice(state), orders, initiative=[1, 6])

    assert where(plan, "C Company (militia)") == "Ioro"


def test_a_supply_company_entered_by_the_enemy_may_not_move_away_on_its_own_order() -> None:
    # It is caught instead, and withdraws toward its base after movement.
    names = ["Port Murray", "Road", "Camp", "Kilu"]
    state = line_state(
        names,
        [
            fighting_company("A Company", "australian", "Port Murray"),
            supply_company("1st Supply Company", "australian", "Camp"),
            fighting_company("1st Company", "japanese", "Kilu"),
        ],
    )
    orders = {
        "1st Company": Order("1st Company", "advance", "Camp"),
        "1st Supply Company": Order("1st Supply Company", "advance", "Kilu"),
    }

    plan = scripted_turn(state, supply_dice(state), orders, initiative=[1, 6])

    (refused,) = records(plan.log, "order", company="1st Supply Company")
    assert refused["outcome"] == "refused"
    (caught,) = records(plan.log, "supply_company_withdraws")
    assert (caught["from"], caught["target"]) == ("Camp", "Road")
    assert where(plan, "1st Supply Company") == "Road"


# A fork: from Fork, North and South are both two areas from the Japanese base; Ridge is a
# spur off South, out of the sight of a company in Fork (which watches Base, North, South).
FORK_AREAS = ["Base", "Fork", "North", "South", "Ridge", "Pass", "Far"]
FORK_LINKS = [
    ("Base", "Fork"),
    ("Fork", "North"),
    ("Fork", "South"),
    ("North", "Pass"),
    ("South", "Pass"),
    ("South", "Ridge"),
    ("Pass", "Far"),
]


def fork_state(enemy_area: str, **settings: Any) -> CampaignState:
    scout = fighting_company("A Company", "australian", "Fork", standing_order="aggressive")
    enemy = fighting_company("1st Company", "japanese", enemy_area)
    return line_state(FORK_AREAS, [scout, enemy], links=FORK_LINKS, **settings)


@pytest.mark.parametrize("enemy_area", ["Ridge", "Far"])
def test_an_aggressive_company_breaks_a_tie_on_no_enemy_it_cannot_see(enemy_area: str) -> None:
    # Twin campaigns that differ only in where an enemy out of sight stands: the
    # Australian company's standing order takes the same road in both (by name: North),
    # or its player would learn from its move where the enemy is.
    state = fork_state(enemy_area)

    plan = scripted_turn(state, supply_dice(state))

    assert where(plan, "A Company") == "North"


def test_without_the_fog_of_war_an_aggressive_company_heads_for_the_enemy() -> None:
    state = fork_state("Ridge", fog_of_war=False)

    plan = scripted_turn(state, supply_dice(state))

    assert where(plan, "A Company") == "South"


def test_an_aggressive_company_heads_for_an_enemy_it_sees() -> None:
    # The enemy in South itself is watched from Fork: the tie goes its way.
    state = fork_state("South")

    plan = scripted_turn(state, supply_dice(state))

    assert where(plan, "A Company") == "South"
