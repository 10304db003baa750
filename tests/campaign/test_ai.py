"""The ``sensible`` standing order (rules.campaign.ai), each behaviour on a constructed
situation. Most tests fix the odds the AI reads (``attacker_win_share``) so that they test
its decisions, not the battle engine; one lets the engine decide a one-sided battle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.campaign import ai
from rules.campaign import visibility as fog
from rules.campaign.state import CampaignState, Order
from rules.campaign.turn import _Map, start_turn
from tests.campaign.builders import (
    fighting_company,
    korona_state,
    line_state,
    move,
    records,
    scripted_turn,
    supply_company,
    supply_dice,
    turn_dice,
)

LINE = ("Home", "Near", "Middle", "Far", "Enemy Home")


@pytest.fixture
def odds(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[dict[str, Any]], float]], None]:
    """Fix the attacker's win share the AI reads: ``odds(lambda spec: 0.9)``."""

    def fix(rule: Callable[[dict[str, Any]], float]) -> None:
        monkeypatch.setattr(ai, "attacker_win_share", lambda spec, runs=ai.ODDS_RUNS: rule(spec))

    return fix


def sensible(state: CampaignState, side: str | None = None) -> CampaignState:
    for company in state.companies.values():
        if side is None or company.side == side:
            company.standing_order = "sensible"
    return state


def line(*companies: Any, objective: str = "Middle", **settings: Any) -> CampaignState:
    state = line_state(LINE, companies, objective=objective, airdrop_base=None, **settings)
    for c in state.companies.values():
        c.in_supply = True
    return sensible(state, "australian")


def on_base_with_enemy_next_to_it() -> CampaignState:
    """A Company alone on its base (Home), 1st Company next to it, the objective Far."""
    return line(
        fighting_company("A Company", "australian", "Home"),
        fighting_company("1st Company", "japanese", "Near"),
        objective="Far",
    )


def attacker_strength(spec: dict[str, Any]) -> int:
    return sum(spec["attacker"]["stands"].values())


# --- attacking ------------------------------------------------------------------------------


def test_it_attacks_where_the_odds_favour_the_attack(odds: Any) -> None:
    odds(lambda spec: 0.8)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
    )
    assert ai.plan_side(state, "australian") == {
        "A Company": Order("A Company", "advance", "Middle")
    }


def test_it_does_not_attack_at_poor_odds(odds: Any) -> None:
    odds(lambda spec: 0.3)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        objective="Home",
    )
    assert "A Company" not in ai.plan_side(state, "australian")


def test_it_sends_more_companies_when_one_is_not_enough(odds: Any) -> None:
    # One company alone: 12 stands, 40%; two together: 24 stands, 70%.
    odds(lambda spec: 0.7 if attacker_strength(spec) > 12 else 0.4)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("B Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
    )
    plan = ai.plan_side(state, "australian")
    assert plan == {
        "A Company": Order("A Company", "advance", "Middle"),
        "B Company": Order("B Company", "advance", "Middle"),
    }


def test_it_sends_only_one_when_one_is_enough(odds: Any) -> None:
    # The enemy would attack the objective at poor odds: one company may leave it.
    odds(lambda spec: 0.8 if spec["attacker"]["side"] == "australian" else 0.2)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("B Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        objective="Near",  # the other stays to hold the objective
    )
    plan = ai.plan_side(state, "australian")
    assert (
        list(plan.values()).count(Order("A Company", "advance", "Middle"))
        + list(plan.values()).count(Order("B Company", "advance", "Middle"))
        == 1
    )


def test_two_against_two_counts_both_battles(odds: Any) -> None:
    # Two against two are two battles (strongest against strongest), and the area is
    # taken only if both are won: the weak company's battle counts too.
    def stronger_wins(spec: dict[str, Any]) -> float:
        defender = sum(spec["defender"]["stands"].values())
        return 0.9 if attacker_strength(spec) >= defender else 0.1

    odds(stronger_wins)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company(
            "B Company", "australian", "Near", stands={"commander": 1, "rifle_squad": 2}
        ),
        fighting_company("1st Company", "japanese", "Middle"),
        fighting_company("2nd Company", "japanese", "Middle"),
        objective="Home",
    )
    # A alone against both: 10%. Together: A's battle 90%, B's 10%: 9% for the area.
    assert ai.plan_side(state, "australian") == {}
    state.companies["B Company"].stands = dict(state.companies["A Company"].stands)
    # B as strong as A: 90% x 90% = 81%.
    assert set(ai.plan_side(state, "australian")) == {"A Company", "B Company"}


def test_a_group_is_judged_without_a_member_that_may_be_refused_for_supply(
    odds: Any,
) -> None:
    # A and B together: 70%. B alone: 10%. A was out of supply at the last roll, so its
    # advance may be refused and B would go in alone: no attack.
    odds(lambda spec: 0.7 if attacker_strength(spec) > 12 else 0.1)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("B Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        objective="Home",
    )
    state.companies["A Company"].in_supply = False
    assert ai.plan_side(state, "australian") == {}
    state.companies["A Company"].in_supply = True
    assert set(ai.plan_side(state, "australian")) == {"A Company", "B Company"}


def test_it_sorties_from_its_base_against_the_only_enemy_next_to_it(odds: Any) -> None:
    # Every enemy next to the base is in the area attacked: moving first, the attack
    # engages it; moving second, the company is attacked on its base and defends it.
    odds(lambda spec: 0.8 if spec["attacker"]["side"] == "australian" else 0.3)
    state = on_base_with_enemy_next_to_it()
    assert ai.plan_side(state, "australian") == {"A Company": Order("A Company", "advance", "Near")}


def test_no_sortie_while_another_enemy_could_walk_into_the_base(odds: Any) -> None:
    odds(lambda spec: 0.8 if spec["attacker"]["side"] == "australian" else 0.3)
    state = line_state(
        ("Home", "Near", "Side", "Enemy Home"),
        (
            fighting_company("A Company", "australian", "Home"),
            fighting_company("1st Company", "japanese", "Near"),
            fighting_company("2nd Company", "japanese", "Side"),
        ),
        links=[("Home", "Near"), ("Home", "Side"), ("Near", "Enemy Home"), ("Side", "Enemy Home")],
        objective="Enemy Home",
        airdrop_base=None,
    )
    for c in state.companies.values():
        c.in_supply = True
    sensible(state, "australian")
    assert "A Company" not in ai.plan_side(state, "australian")


def test_the_companies_on_the_objective_stay_while_the_enemy_could_take_it(odds: Any) -> None:
    # Anybody attacking wins 80%: one defender left on the objective would lose it.
    odds(lambda spec: 0.8)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("B Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        objective="Near",
    )
    assert ai.plan_side(state, "australian") == {}


def test_it_waits_for_better_odds_at_the_objective_less_as_time_runs_out(odds: Any) -> None:
    odds(lambda spec: 0.3)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        turn_limit=20,
    )
    state.areas["Middle"].controller = "japanese"
    state.turn = 0
    assert "A Company" not in ai.plan_side(state, "australian")  # 30% < 50% - a little
    state.turn = 12  # 8 turns left: 15% + 35% x 8/20 = 29%
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "advance", "Middle")


def test_it_attacks_on_the_way_to_the_objective_in_the_last_turns(odds: Any) -> None:
    odds(lambda spec: 0.1)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        fighting_company("2nd Company", "japanese", "Far"),
        objective="Far",
        turn_limit=20,
    )
    state.areas["Far"].controller = "japanese"
    state.turn = 5
    assert "A Company" not in ai.plan_side(state, "australian")
    state.turn = 20 - ai.LAST_CHANCE_TURNS - 1  # once in Middle, the last turns are left
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "advance", "Middle")


def test_it_presses_on_for_the_objective_the_enemy_holds_at_the_end(odds: Any) -> None:
    odds(lambda spec: 0.1)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        turn_limit=20,
    )
    state.areas["Middle"].controller = "japanese"
    state.turn = 5
    assert "A Company" not in ai.plan_side(state, "australian")  # time enough yet
    state.turn = 20 - ai.LAST_CHANCE_TURNS
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "advance", "Middle")


def test_pressing_on_at_the_end_it_sends_the_group_with_the_best_chance(odds: Any) -> None:
    # Any chance is taken in the last turns, but one company alone (10%) is a worse
    # chance than the two together (30%): both go.
    odds(lambda spec: 0.3 if attacker_strength(spec) > 12 else 0.1)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("B Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        turn_limit=20,
    )
    state.areas["Middle"].controller = "japanese"
    state.turn = 20 - ai.LAST_CHANCE_TURNS
    assert ai.plan_side(state, "australian") == {
        "A Company": Order("A Company", "advance", "Middle"),
        "B Company": Order("B Company", "advance", "Middle"),
    }


def test_the_engine_decides_a_one_sided_attack() -> None:
    # Three full companies against two stands: the real odds, from the real engine.
    state = line(
        fighting_company("A Company", "australian", "Near", "veteran"),
        fighting_company("B Company", "australian", "Near", "veteran"),
        fighting_company("C Company", "australian", "Near", "veteran"),
        fighting_company(
            "1st Company", "japanese", "Middle", "raw", stands={"commander": 1, "rifle_squad": 1}
        ),
    )
    plan = ai.plan_side(state, "australian")
    assert Order("A Company", "advance", "Middle") in plan.values()


def test_joining_a_battle_where_it_was_first_counts_its_odds_as_the_defenders(odds: Any) -> None:
    # A Company and the 1st Company both hold Middle (the Australians' area): B Company
    # going in joins the defence; the share that matters is the defender's.
    state = line(
        fighting_company("A Company", "australian", "Middle"),
        fighting_company("B Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        objective="Home",
    )
    state.areas["Middle"].controller = "australian"
    odds(lambda spec: 0.9 if spec["defender"]["side"] == "australian" else 0.0)
    assert "B Company" not in ai.plan_side(state, "australian")  # the attacker wins 90%
    odds(lambda spec: 0.2 if spec["defender"]["side"] == "australian" else 0.0)
    assert ai.plan_side(state, "australian")["B Company"] == Order("B Company", "advance", "Middle")


def reinforcements(state: CampaignState) -> dict[str, Order]:
    """What ``_reinforce_objective`` alone orders for the Australians."""
    import random

    from rules.campaign import planning

    plan = ai._Plan(
        state=state,
        view=planning.as_seen_by(state, "australian"),
        side="australian",
        mapping=_Map(state),
        rng=random.Random(0),
    )
    fighters = [c for c in state.companies.values() if c.side == "australian" and c.fighting]
    ai._reinforce_objective(plan, fighters)
    return plan.orders


def test_it_reinforces_the_objective_while_the_enemy_could_take_it(odds: Any) -> None:
    # The enemy beats one company (70%), not two (30%).
    odds(lambda spec: 0.7 if sum(spec["defender"]["stands"].values()) <= 12 else 0.3)
    state = line(
        fighting_company("A Company", "australian", "Middle"),
        fighting_company("B Company", "australian", "Near"),
        fighting_company("C Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Far"),
    )
    # B Company goes in; with two there the enemy's 30% is no threat: C stays free.
    assert reinforcements(state) == {"B Company": Order("B Company", "advance", "Middle")}
    odds(lambda spec: 0.2)  # A Company holds it well enough alone
    assert reinforcements(state) == {}
    odds(lambda spec: 0.9)  # nothing helps: nobody is sent in vain
    assert reinforcements(state) == {}


# --- holding and withdrawing ----------------------------------------------------------------


def test_it_withdraws_from_a_battle_it_would_lose_badly(odds: Any) -> None:
    odds(lambda spec: 0.9)  # any attack on it wins: it would lose
    state = line(
        fighting_company("A Company", "australian", "Middle"),
        fighting_company("1st Company", "japanese", "Far"),
        objective="Enemy Home",
    )
    # Attacking at 90% is tempting; it attacks (the enemy is in reach), even out of
    # supply last turn: planned before this turn's roll, refused for supply it holds.
    assert ai.plan_side(state, "australian")["A Company"].kind == "advance"
    state.companies["A Company"].in_supply = False
    assert ai.plan_side(state, "australian")["A Company"].kind == "advance"
    # Where its attack would fail, it withdraws out of the enemy's reach.
    odds(lambda spec: 0.9 if spec["attacker"]["side"] == "japanese" else 0.1)
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "withdraw", "Near")


def test_it_holds_a_battle_it_may_win(odds: Any) -> None:
    odds(lambda spec: 0.5)
    state = line(
        fighting_company("A Company", "australian", "Middle"),
        fighting_company("1st Company", "japanese", "Enemy Home"),
        objective="Enemy Home",
    )
    state.companies["A Company"].in_supply = False
    # Planned as if in supply this turn, it advances (refused for supply, it holds); it
    # does not withdraw.
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "advance", "Far")


def test_it_holds_the_objective_even_against_bad_odds(odds: Any) -> None:
    odds(lambda spec: 0.95)
    state = line(
        fighting_company("A Company", "australian", "Middle"),
        fighting_company("1st Company", "japanese", "Far"),
    )
    state.companies["A Company"].in_supply = False
    assert "A Company" not in ai.plan_side(state, "australian")


def test_it_holds_its_own_base(odds: Any) -> None:
    # The enemy next to it would win an attack either way: the base is kept.
    odds(lambda spec: 0.95 if spec["attacker"]["side"] == "japanese" else 0.05)
    state = on_base_with_enemy_next_to_it()
    state.companies["A Company"].in_supply = False
    assert "A Company" not in ai.plan_side(state, "australian")


def test_it_does_not_withdraw_from_a_battle_into_its_own_base(odds: Any) -> None:
    # Beaten on its base it would be destroyed, and the enemy can follow it there.
    odds(lambda spec: 0.9 if spec["attacker"]["side"] == "japanese" else 0.1)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Middle"),
        objective="Far",
    )
    assert "A Company" not in ai.plan_side(state, "australian")


def test_an_engaged_company_is_given_no_move(odds: Any) -> None:
    odds(lambda spec: 0.0)
    state = line(
        fighting_company("A Company", "australian", "Far"),
        fighting_company("1st Company", "japanese", "Far"),
    )
    assert ai.plan_side(state, "australian") == {}


def test_it_advances_toward_the_objective_when_nothing_stands_in_the_way(odds: Any) -> None:
    odds(lambda spec: 0.5)
    state = line(fighting_company("A Company", "australian", "Home"), objective="Far")
    state.companies["Supply"] = supply_company("Supply", "australian", "Home")
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "advance", "Near")


def test_it_does_not_walk_into_a_battle_it_would_lose_badly(odds: Any) -> None:
    # Its attacks would fail (20%), the enemy's on it would win (90%): Middle, next to
    # the enemy in Far, is no place to go.
    odds(lambda spec: 0.9 if spec["attacker"]["side"] == "japanese" else 0.2)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Far"),
        objective="Far",
        fog_of_war=False,  # it sees the enemy in Far from Near
    )
    assert "A Company" not in ai.plan_side(state, "australian")
    odds(lambda spec: 0.2)  # the enemy would lose there too: it goes
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "advance", "Middle")


def test_under_fog_of_war_it_plans_on_what_it_sees(odds: Any) -> None:
    odds(lambda spec: 0.9 if spec["attacker"]["side"] == "japanese" else 0.2)
    state = line(
        fighting_company("A Company", "australian", "Near"),
        fighting_company("1st Company", "japanese", "Far"),
        objective="Far",
    )
    # From Near it sees Home and Middle, not Far: nothing stops it.
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "advance", "Middle")


# --- supply ----------------------------------------------------------------------------------


def faces_in_supply(state: CampaignState, company: str) -> int:
    """How many of the six faces of its supply die put ``company`` in supply, by the
    supply phase itself."""
    count = 0
    for face in range(1, 7):
        plan = scripted_turn(state, supply_dice(state, {company: face}))
        (record,) = records(plan.log, "supply", company=company)
        count += record["outcome"] == "in supply"
    return count


@pytest.mark.parametrize(
    ("area", "depot"),
    [
        ("Isura", "Port Murray"),  # distance 4, no support
        ("Isura", "Ioro"),  # +1 from a supply company linked to it
        ("Kerna", "Port Murray"),  # the bastard track's -1
        ("Kerna", "Kerna"),  # both
        ("Oivi", "Oivi"),  # an airdrop: Korona counts as its base
        ("Oivi", "Korona"),  # no airdrop, +1
        ("Uberi Ridge", "Port Murray"),
    ],
)
def test_supply_chance_is_the_supply_phases_own_chance(area: str, depot: str) -> None:
    state = move(
        korona_state(),
        A_Company=area,
        **{"1st_Supply_Company": depot, "1st_Company": "Kilu", "2nd_Company": "Kilu"},
    )
    company = state.companies["A Company"]
    chance = ai.supply_chance(state, _Map(state), company, area, [depot])
    assert chance == pytest.approx(faces_in_supply(state, "A Company") / 6)


def test_a_company_about_to_lose_stands_to_supply_withdraws_toward_it(odds: Any) -> None:
    odds(lambda spec: 0.5)
    names = ("Home", "A", "B", "C", "D", "E", "Enemy Home")
    state = line_state(
        names, [fighting_company("A Company", "australian", "E")], objective="Enemy Home"
    )
    state.settings.airdrop_base = None
    sensible(state, "australian")
    company = state.companies["A Company"]
    # Five from home: in supply on 5+ only. Out last turn, a second turn out costs stands.
    company.in_supply, company.turns_out_of_supply = False, 1
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "withdraw", "D")
    company.turns_out_of_supply = 0  # a first turn out costs nothing yet
    assert "A Company" not in ai.plan_side(state, "australian")


def test_it_does_not_advance_where_it_would_fall_out_of_supply(odds: Any) -> None:
    odds(lambda spec: 0.5)
    names = ("Home", "A", "B", "C", "D", "E", "F", "Enemy Home")
    state = line_state(
        names, [fighting_company("A Company", "australian", "C")], objective="F", airdrop_base=None
    )
    sensible(state, "australian")
    state.companies["A Company"].in_supply = True
    # In D (4 from home) it is in supply on 4+ (50%); E (5 away) only on 5+ (33%).
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "advance", "D")
    move(state, A_Company="D")
    assert "A Company" not in ai.plan_side(state, "australian")


def test_the_supply_company_follows_the_fighting_companies(odds: Any) -> None:
    odds(lambda spec: 0.5)
    state = line(fighting_company("A Company", "australian", "Middle"), objective="Middle")
    state.companies["Supply"] = supply_company("Supply", "australian", "Home")
    sensible(state, "australian")
    assert ai.plan_side(state, "australian")["Supply"] == Order("Supply", "advance", "Near")


def test_the_supply_company_keeps_out_of_enemy_areas(odds: Any) -> None:
    odds(lambda spec: 0.5)
    state = line(
        fighting_company("A Company", "australian", "Far"),
        fighting_company("1st Company", "japanese", "Middle"),
        objective="Far",
        links=[("Home", "Near"), ("Near", "Middle"), ("Middle", "Far"), ("Far", "Enemy Home")],
    )
    state.companies["Supply"] = supply_company("Supply", "australian", "Near")
    sensible(state, "australian")
    assert "Supply" not in ai.plan_side(state, "australian")


def test_the_supply_company_goes_next_to_an_enemy_that_is_engaged(odds: Any) -> None:
    # 1st Company is in a battle with A Company in Middle: it cannot move this turn, so
    # Near is safe, and from there the supply company helps A Company's roll.
    odds(lambda spec: 0.5)
    state = line(
        fighting_company("A Company", "australian", "Middle"),
        fighting_company("1st Company", "japanese", "Middle"),
        objective="Middle",
    )
    state.companies["Supply"] = supply_company("Supply", "australian", "Home")
    sensible(state, "australian")
    assert ai.plan_side(state, "australian")["Supply"] == Order("Supply", "advance", "Near")


def test_the_southern_track_is_avoided_when_the_korona_track_is_as_short(odds: Any) -> None:
    odds(lambda spec: 0.5)
    names = ("Home", "Fork", "Rough", "Smooth", "Goal", "Enemy Home")
    links = [
        ("Home", "Fork"),
        ("Fork", "Rough"),
        ("Fork", "Smooth"),
        ("Rough", "Goal"),
        ("Smooth", "Goal"),
        ("Goal", "Enemy Home"),
    ]
    state = line_state(
        names,
        [fighting_company("A Company", "australian", "Fork")],
        links=links,
        tracks={"Rough": "southern track"},
        objective="Goal",
        airdrop_base=None,
    )
    sensible(state, "australian")
    state.companies["A Company"].in_supply = True
    assert ai.plan_side(state, "australian")["A Company"] == Order("A Company", "advance", "Smooth")


def test_supply_chance_counts_an_airdrop_with_the_supply_company_beside_it() -> None:
    # A Company in Oivi (zone 6): its own distance is 5; with the supply company beside it
    # in Oivi, Korona is its base (distance 1).
    state = move(
        korona_state(),
        A_Company="Oivi",
        **{"1st_Supply_Company": "Korona", "1st_Company": "Kilu", "2nd_Company": "Kilu"},
    )
    mapping = _Map(state)
    company = state.companies["A Company"]
    assert ai.supply_chance(state, mapping, company, "Oivi", ["Oivi"]) == 1.0
    assert ai.supply_chance(state, mapping, company, "Oivi", ["Korona"]) == pytest.approx(3 / 6)


# --- the turn, the seed, the players ----------------------------------------------------------


def test_a_sensible_side_plays_its_turn_without_touching_the_turns_dice(odds: Any) -> None:
    odds(lambda spec: 0.8)
    held = korona_state()
    played = sensible(korona_state())
    plain = scripted_turn(held, supply_dice(held))  # scripted_turn checks every die is thrown
    smart = scripted_turn(played, supply_dice(played))
    dice = [r["dice"] for r in plain.log if r["phase"] in ("naval", "aerial", "supply")]
    assert dice == [r["dice"] for r in smart.log if r["phase"] in ("naval", "aerial", "supply")]
    assert any(r.get("source") == "standing order (sensible)" for r in smart.log)


def test_the_plan_is_the_same_every_time_from_the_same_state() -> None:
    state = sensible(korona_state(seed=7))
    first = ai.plan_side(state, "japanese")
    ai._ODDS.clear()  # the cache changes nothing but the time
    assert ai.plan_side(state, "japanese") == first


def test_a_side_with_a_player_is_not_played_by_the_ai(odds: Any) -> None:
    odds(lambda spec: 0.9)
    state = sensible(korona_state())
    roller = turn_dice(supply_dice(state), initiative=(1, 6))
    plan = start_turn(state, {}, roller=roller, players=("japanese",))  # type: ignore[arg-type]
    japanese = [r for r in plan.log if r["kind"] == "order" and r["side"] == "japanese"]
    assert japanese and all(r["outcome"] == "hold" for r in japanese)
    assert {r["source"] for r in japanese} == {"no order; its side has a player"}


# --- fog of war: the AI plans only on what its side may know ---------------------------------


def _twins(positions: dict[str, str], turn: int) -> tuple[CampaignState, CampaignState]:
    """Two campaigns that differ only in what the Australians may not know (rulings
    section 6): a glimpsed enemy company's quality, stands within its band, supply,
    banzai and standing order; where the enemy companies out of sight are, how strong
    and how good; where the enemy supply company is (never glimpsed); who controls an
    area out of sight."""
    first, second = (move(sensible(korona_state(seed=3)), **positions) for _ in range(2))
    for state in (first, second):
        state.turn = turn
        for company in state.companies.values():
            company.in_supply = True
    watched = fog.watched_areas(first, "australian")
    seen = [c for c in second.companies.values() if c.side == "japanese" and c.area in watched]
    hidden = [
        c
        for c in second.companies.values()
        if c.side == "japanese" and c.fighting and c.area not in watched
    ]
    assert seen and hidden, "each twin pair has an enemy in sight and one out of sight"
    for company in seen:
        if company.fighting:
            company.quality = "raw" if company.quality != "raw" else "veteran"
            company.stands["rifle_squad"] -= 1  # 11 of 12: still strong
            company.in_supply, company.turns_out_of_supply = False, 3
            company.banzai = True
            company.standing_order = "hold"
    for company in hidden:
        company.area = next(a for a in ("Kerna", "Munara", "Kilu") if a not in watched)
        company.quality = "raw"
        company.stands = {unit: 1 if unit == "commander" else 0 for unit in company.stands}
    second.companies["Supply Company"].area = "Oivi"
    for area in second.areas.values():
        if area.name not in watched:
            area.controller = "australian" if area.controller == "japanese" else "japanese"
    assert fog.visible_companies(first, fog.Viewer("australian")) == fog.visible_companies(
        second, fog.Viewer("australian")
    )
    return first, second


@pytest.mark.parametrize(
    ("positions", "turn"),
    [
        ({}, 0),  # the start: the 1st and 2nd Company in sight in Oivi, the 3rd in Kilu
        ({"3rd_Company": "Munara"}, 17),  # the last turns, when it presses
        (  # the Australians far from the objective, which is out of their sight
            {
                "A_Company": "Uberi Ridge",
                "B_Company": "Ioro",
                "C_Company": "Ioro",
                "3rd_Company": "Isura",
            },
            18,
        ),
    ],
)
def test_its_orders_do_not_change_with_what_fog_of_war_hides(
    positions: dict[str, str], turn: int
) -> None:
    # The real engine's odds (no fixed odds): every path of the plan reads the view.
    first, second = _twins(positions, turn)
    plan = ai.plan_side(first, "australian")
    assert plan == ai.plan_side(second, "australian")
    assert plan, "a plan with no order would prove nothing"


def test_with_fog_of_war_off_it_reads_the_enemy_as_it_is(odds: Any) -> None:
    # The control of the twin test: the odds the AI reads are of the enemy as it is when
    # nothing is hidden (the 1st and 2nd Company are veterans), of the estimate (trained)
    # under fog of war.
    seen: set[str] = set()

    def record(spec: dict[str, Any]) -> float:
        seen.update(
            spec[k]["quality"] for k in ("attacker", "defender") if spec[k]["side"] == "japanese"
        )
        return 0.0

    odds(record)
    state = sensible(korona_state(seed=3, fog_of_war=False), "australian")
    ai.plan_side(state, "australian")
    assert seen == {"veteran"}
    seen.clear()
    state.settings.fog_of_war = True
    ai.plan_side(state, "australian")
    assert seen == {"trained"}


def test_who_holds_the_objective_out_of_sight_is_not_read() -> None:
    # The Australians far from Korona: its controller is hidden from them, so the AI
    # plans as if they did not hold it, whoever does.
    state = move(
        sensible(korona_state()),
        A_Company="Uberi Ridge",
        B_Company="Uberi Ridge",
        C_Company="Ioro",
    )
    for holder, seen_from in (("australian", "Isura"), ("japanese", "Isura")):
        state.areas["Korona"].controller = holder
        state.companies["C Company (militia)"].area = "Ioro"
        assert not _plan_of(state).holds_objective()
        state.companies["C Company (militia)"].area = seen_from  # now in sight
        assert _plan_of(state).holds_objective() == (holder == "australian")


def _plan_of(state: CampaignState) -> ai._Plan:
    import random

    from rules.campaign import planning

    return ai._Plan(
        state=state,
        view=planning.as_seen_by(state, "australian"),
        side="australian",
        mapping=_Map(state),
        rng=random.Random(0),
    )


# --- it knows what a player would ---------------------------------------------------------


def test_the_ai_plans_at_the_start_of_the_turn_not_after_the_enemys_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player gives orders before the turn: the AI of the side moving second must not
    plan on where the side moving first went, nor on this turn's supply rolls."""
    state = sensible(korona_state(seed=3))
    for company in state.companies.values():
        company.standing_order = "sensible" if company.side == "australian" else "aggressive"
    start = {name: (c.area, c.in_supply) for name, c in state.companies.items()}
    seen: list[dict[str, tuple[str, bool | None]]] = []
    plan_side = ai.plan_side

    def spy(planned: CampaignState, side: str) -> dict[str, Order]:
        seen.append({name: (c.area, c.in_supply) for name, c in planned.companies.items()})
        return plan_side(planned, side)

    monkeypatch.setattr(ai, "plan_side", spy)
    # The Japanese win the initiative and move first; every company rolls a 1 for supply.
    plan = scripted_turn(state, supply_dice(state, default=1), initiative=(1, 6))
    assert plan.initiative == "japanese"
    assert records(plan.log, "order", side="japanese", outcome="moved")
    assert seen == [start]
