"""The planning service: legal orders and their reasons, planned battles, and odds that are
reproducible and never leak what fog of war hides."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Campaign, CompanyStands, Membership, Order
from campaign.services import odds, planning
from campaign.services.scenarios import create_campaign
from campaign.services.turns import OrdersOutOfDate, give_order
from campaign.services.visibility import CampaignView, open_campaign
from rules.campaign.planning import (
    as_seen_by,
    estimated_stands,
    foreseen_battle,
    legal_moves,
    planned_battle,
)
from rules.campaign.scenario import load_scenario
from rules.campaign.state import CampaignState
from rules.campaign.state import Order as RulesOrder
from rules.campaign.turn import OrderError, check_order
from rules.campaign.visibility import strength_band
from rules.dice import derive_seed
from rules.odds import battle_odds
from rules.spec import parse_battle
from tests.campaign.builders import korona_state, scripted_turn, supply_dice
from tests.campaign.conftest import KORONA, korona_doc

RUNS = 20  # battles per estimate in these tests; the page's 1,000 take seconds


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


@pytest.fixture
def players(django_user_model: Any) -> dict[str, Any]:
    return {
        "gm": django_user_model.objects.create_user("gm", is_staff=True),
        "australian": django_user_model.objects.create_user("aussie"),
        "japanese": django_user_model.objects.create_user("nippon"),
    }


def _korona(players: dict[str, Any], doc: dict[str, Any] | None = None) -> Campaign:
    campaign = create_campaign(data=doc or korona_doc(), name="Korona", seed=1)
    for side in ("australian", "japanese"):
        Membership.objects.create(user=players[side], campaign=campaign, side=side)
    return campaign


@pytest.fixture
def korona(db: Any, players: dict[str, Any]) -> Campaign:
    return _korona(players)


def _attack(view: CampaignView, company: str) -> planning.PlannedAttack:
    plan = planning.plan_side(view=view, side=view.side or "australian")
    row = plan.company(view.ids.companies[company])
    assert row is not None and row.attack is not None
    return dataclasses.replace(row.attack, runs=RUNS, chunk=7)


def _all_odds(attack: planning.PlannedAttack) -> planning.OddsProgress:
    progress = planning.odds_progress(attack=attack)
    while not progress.finished:
        progress = planning.odds_progress(attack=attack)
    return progress


# --- legal orders -------------------------------------------------------------------------


def _states() -> list[CampaignState]:
    """The reference scenario as it starts, and as it stands mid-fight: engaged companies,
    one out of supply, one on its base."""
    start = load_scenario(KORONA)
    fighting = start.copy()
    fighting.companies["1st Company"].area = "Korona"
    fighting.companies["C Company (militia)"].in_supply = False
    fighting.companies["3rd Company"].in_supply = False
    fighting.companies["B Company"].area = "Oivi"
    return [start, fighting]


@pytest.mark.parametrize("state", _states(), ids=["start", "mid-fight"])
def test_legal_orders_and_reasons_are_check_orders_for_every_company(
    state: CampaignState,
) -> None:
    for name, company in state.companies.items():
        moves = legal_moves(state, name, side=company.side)
        for area in state.areas:
            for kind in ("advance", "withdraw"):
                try:
                    check_order(state, RulesOrder(name, kind, area), side=company.side)
                    allowed = True
                except OrderError:
                    allowed = False
                assert moves.allows(kind, area) is allowed, (name, kind, area)
        refused = {r.area: r.reasons for r in moves.refused}
        for area in state.neighbours(company.area):
            reasons = []
            for kind in ("advance", "withdraw"):
                try:
                    check_order(state, RulesOrder(name, kind, area), side=company.side)
                except OrderError as error:
                    reasons.append(str(error))
            if len(reasons) == 2:
                assert refused[area] == tuple(dict.fromkeys(reasons)), (name, area)
            else:
                assert area not in refused
        assert set(refused) <= set(state.neighbours(company.area))


def test_refusals_name_the_rules_reasons() -> None:
    state = _states()[1]
    engaged = legal_moves(state, "A Company", side="australian")
    assert engaged.advances == engaged.withdrawals == ()
    assert {r.reasons for r in engaged.refused} == {
        ("A Company is engaged by the enemy in Korona and may not move",)
    }
    moves = legal_moves(state, "C Company (militia)", side=None)
    assert "Korona" not in moves.withdrawals
    assert "Korona" not in {r.area for r in moves.refused}


def test_a_company_out_of_supply_at_the_last_roll_is_offered_its_advances() -> None:
    # The turn rolls supply before anything moves, and checks the advance against that
    # roll: last turn's does not bar it (as it does not bar the campaign AI's).
    state = _states()[1]
    militia = state.companies["C Company (militia)"]
    assert militia.fighting and militia.in_supply is False
    assert "Korona" in legal_moves(state, militia.name, side=None).advances


def test_the_enemys_companies_are_refused_by_the_rules() -> None:
    state = _states()[0]
    moves = legal_moves(state, "1st Company", side="australian")
    assert moves.advances == moves.withdrawals == ()
    assert all(r.reasons == ("1st Company belongs to the other side",) for r in moves.refused)


# --- the enemy as a side sees it ----------------------------------------------------------


@pytest.mark.parametrize("band", ["weak", "average", "strong"])
def test_estimated_stands_stay_in_their_band(band: str) -> None:
    assert sum(estimated_stands({"commander": 1, "rifle_squad": 1}, band).values()) >= 1
    for total in range(3, 40):
        establishment = {"commander": 1, "rifle_squad": total - 1}
        stands = estimated_stands(establishment, band)
        company = load_scenario(KORONA).companies["1st Company"]
        company.stands, company.establishment = stands, establishment
        assert strength_band(company) == band, total
        assert sum(stands.values()) >= 1
        assert stands["commander"] == 1  # rifle squads go first


def test_hidden_enemy_companies_are_left_out_and_glimpsed_ones_estimated() -> None:
    state = load_scenario(KORONA)
    seen = as_seen_by(state, "australian")
    assert "3rd Company" not in seen.companies  # at Kilu, out of sight
    assert "Supply Company" not in seen.companies
    first = seen.companies["1st Company"]
    assert first.quality == "trained"  # really veteran
    assert first.stands == {"commander": 1, "rifle_squad": 8, "small_mortar": 1, "hmg": 1}
    assert seen.companies["A Company"] == state.companies["A Company"]
    assert as_seen_by(state, None).companies == state.companies  # the GM


def test_the_battles_a_side_foresees_do_not_depend_on_the_campaign_seed() -> None:
    """The seed of the turns not yet played is hidden (section 6). A sketch's battles are
    seeded from the state's seed, and an AI defender's sniper is chosen by rolling the
    table from it: in an area of light woods the foreseen battle, and so its odds, told
    something of the seed. The side's view has no seed."""
    orders = {"A Company": RulesOrder("A Company", "advance", "Oivi")}
    specs = set()
    snipers = set()
    for seed in range(1, 41):
        state = load_scenario(KORONA)
        state.areas["Oivi"].vegetation = "light"  # woods in some deployments, not all
        state.seed = seed
        seen = as_seen_by(state, "australian")
        assert seen.seed == 0
        battle = planned_battle(seen, company="A Company", orders=orders)
        assert battle is not None
        specs.add(repr((battle.seed, battle.spec)))
        gm = planned_battle(as_seen_by(state, None), company="A Company", orders=orders)
        assert gm is not None
        snipers.add(gm.spec["defender"].get("sniper"))
    assert snipers == {True, False}  # the GM's sketch does follow the seed
    assert len(specs) == 1


@pytest.mark.parametrize("choice", [True, False, None])
def test_a_foreseen_defence_takes_the_sides_own_sniper_choice(choice: bool | None) -> None:
    """Defending Korona against the 1st Company that stands there with it, A Company's
    force swaps a rifle squad for a sniper exactly when its order says so (no order:
    none, as the turn takes it for a side with a player), whatever the table."""
    state = load_scenario(KORONA)
    state.companies["1st Company"].area = "Korona"
    state.companies["B Company"].area = "Isura"
    orders = {} if choice is None else {"A Company": RulesOrder("A Company", "hold", None, choice)}
    for seed in range(1, 11):
        state.seed = seed
        battle = foreseen_battle(
            as_seen_by(state, "australian"), company="A Company", orders=orders
        )
        assert battle is not None and battle.defenders == ["A Company"]
        assert battle.spec["defender"].get("sniper", False) is bool(choice)


# --- planned battles ----------------------------------------------------------------------


def test_an_advance_on_seen_enemies_is_a_battle_paired_as_the_turn_pairs() -> None:
    seen = as_seen_by(load_scenario(KORONA), "australian")
    orders = {
        "A Company": RulesOrder("A Company", "advance", "Oivi"),
        "B Company": RulesOrder("B Company", "advance", "Oivi"),
    }
    a = planned_battle(seen, company="A Company", orders=orders)
    b = planned_battle(seen, company="B Company", orders=orders)
    assert a is not None and b is not None
    assert (a.attacker_side, a.defender_side) == ("australian", "japanese")
    assert (a.attackers, a.defenders) == (["A Company"], ["1st Company"])
    assert (b.attackers, b.defenders) == (["B Company"], ["2nd Company"])
    assert a.spec["defender"]["quality"] == "trained"
    parse_battle(a.spec)


@pytest.mark.parametrize(
    "ordered", [("A Company",), ("A Company", "B Company")], ids=["alone", "together"]
)
def test_the_planned_battles_are_the_battles_the_turn_fights(ordered: tuple[str, ...]) -> None:
    """The orders page's Oivi: A Company alone against the 1st and 2nd Company is one
    battle (the extra defender joins it), A and B Company together are two; the turn,
    every company in supply, pairs them the same."""
    state = korona_state()
    orders = {name: RulesOrder(name, "advance", "Oivi") for name in ordered}
    seen = as_seen_by(state, "australian")
    planned = {
        battle.key: battle.attackers
        for name in ordered
        if (battle := planned_battle(seen, company=name, orders=orders)) is not None
    }

    turn = scripted_turn(state, supply_dice(state), orders)

    assert planned == {battle.key: battle.attackers for battle in turn.battles}
    assert len(planned) == len(ordered)
    if len(ordered) == 1:
        assert sorted(turn.battles[0].defenders) == ["1st Company", "2nd Company"]


def test_orders_that_lead_to_no_battle_have_none() -> None:
    seen = as_seen_by(load_scenario(KORONA), "australian")
    for order in (
        RulesOrder("A Company", "hold"),
        RulesOrder("A Company", "withdraw", "Isura"),  # no enemy there
    ):
        assert planned_battle(seen, company="A Company", orders={"A Company": order}) is None
    supply = RulesOrder("1st Supply Company", "advance", "Uberi Ridge")
    assert (
        planned_battle(seen, company="1st Supply Company", orders={supply.company: supply}) is None
    )


# --- the service: odds, reproducible and fog-safe ------------------------------------------


def test_odds_in_chunks_are_battle_odds_with_the_same_seeds(
    korona: Campaign, players: dict[str, Any]
) -> None:
    give_order(
        company=korona.companies.get(name="A Company"),
        kind="advance",
        target=korona.areas.get(name="Oivi"),
        side="australian",
    )
    attack = _attack(open_campaign(user=players["australian"], campaign=korona), "A Company")
    assert planning.odds_progress(attack=attack, start=False).done == 0  # nothing asked yet
    # The chunks come in in any order (workers, a pool): the last one in, last.
    job = attack.job
    for index in reversed(range(job.chunks)):
        assert odds.fight_chunk(job, index)
        if index:
            progress = planning.odds_progress(attack=attack, start=False)
            assert (progress.done, progress.finished) == (RUNS - index * 7, False)
    progress = planning.odds_progress(attack=attack, start=False)
    assert progress.done == RUNS and progress.finished
    whole = battle_odds(parse_battle(attack.battle.spec), runs=RUNS, seed=attack.seed)
    for key in ("attacker_win", "defender_win", "mean_losses", "mean_turns"):
        assert progress.odds[key] == whole[key]
    cache.clear()
    assert _all_odds(attack).odds == progress.odds  # the same seeds, the same odds


def test_hidden_enemy_strength_and_quality_do_not_change_the_odds(
    korona: Campaign, players: dict[str, Any]
) -> None:
    give_order(
        company=korona.companies.get(name="A Company"),
        kind="advance",
        target=korona.areas.get(name="Oivi"),
        side="australian",
    )
    aussie = players["australian"]
    before = _attack(open_campaign(user=aussie, campaign=korona), "A Company")
    odds_before = _all_odds(before).odds

    # Still strong (11 of 12), and now raw: neither is the Australians' to see.
    first = korona.companies.get(name="1st Company")
    CompanyStands.objects.filter(company=first, unit_type="rifle_squad").update(held=8)
    type(first).objects.filter(pk=first.pk).update(quality="raw")
    cache.clear()
    after = _attack(open_campaign(user=aussie, campaign=korona), "A Company")
    assert after.battle.spec == before.battle.spec
    assert after.job.key == before.job.key
    assert _all_odds(after).odds == odds_before

    # What the side does see, the band, does change the estimate (this test can fail).
    # 6 of 12: average now.
    CompanyStands.objects.filter(company=first, unit_type="rifle_squad").update(held=3)
    average = _attack(open_campaign(user=aussie, campaign=korona), "A Company")
    assert average.battle.defenders == ["2nd Company", "1st Company"]  # both hold Oivi
    stands = [sum(a.battle.spec["defender"]["stands"].values()) for a in (before, average)]
    assert stands == [11 + 11, 11 + 8]


def test_the_gm_plans_against_the_real_enemy(korona: Campaign, players: dict[str, Any]) -> None:
    give_order(
        company=korona.companies.get(name="A Company"),
        kind="advance",
        target=korona.areas.get(name="Oivi"),
        side="australian",
    )
    view = open_campaign(user=players["gm"], campaign=korona)
    attack = _attack(view, "A Company")
    assert attack.estimated is False
    assert attack.battle.spec["defender"]["quality"] == "veteran"
    player = _attack(open_campaign(user=players["australian"], campaign=korona), "A Company")
    assert player.estimated is True
    assert player.job.key != attack.job.key


def test_the_odds_seed_is_not_the_battles_seed(korona: Campaign, players: dict[str, Any]) -> None:
    give_order(
        company=korona.companies.get(name="A Company"),
        kind="advance",
        target=korona.areas.get(name="Oivi"),
        side="australian",
    )
    attack = _attack(open_campaign(user=players["gm"], campaign=korona), "A Company")
    assert attack.battle.key == "1:Oivi"
    # The battle the turn fights has this seed: the odds' runs must not replay it.
    real = derive_seed(korona.seed, "battle", attack.battle.key)
    assert real not in {
        attack.seed,
        *(derive_seed(attack.seed, "odds", i) for i in range(planning.ODDS_RUNS)),
    }


def test_one_battle_has_one_estimate_whichever_company_asks(
    db: Any, players: dict[str, Any]
) -> None:
    """The 1st and 2nd Company both into Korona, where A Company stands alone: one battle,
    so one seed and one cached estimate for both cards and the area's section (the seed
    was the company's: two cards of one battle read 80% and 83%)."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["name"] == "B Company":
            company["area"] = "Isura"
    korona = _korona(players, doc)
    for name in ("1st Company", "2nd Company"):
        give_order(
            company=korona.companies.get(name=name),
            kind="advance",
            target=korona.areas.get(name="Korona"),
            side="japanese",
        )
    view = open_campaign(user=players["japanese"], campaign=korona)
    first, second = (_attack(view, name) for name in ("1st Company", "2nd Company"))
    assert first.battle.key == second.battle.key == "1:Korona"
    assert first.seed == second.seed == derive_seed(korona.pk, "planning", "1:Korona")
    assert first.job == second.job  # one cache key: fought once, read by both
    (area,) = planning.planned_areas(planning.plan_side(view=view, side="japanese"))
    (shown,) = area.attacks
    assert (
        shown.job.key
        == planning.plan_side(view=view, side="japanese")
        .company(view.ids.companies["2nd Company"])
        .attack.job.key
    )  # type: ignore[union-attr]
    assert _all_odds(first).odds == _all_odds(second).odds


# --- sides, closed orders, ready ----------------------------------------------------------


def test_a_player_plans_only_for_their_own_side(korona: Campaign, players: dict[str, Any]) -> None:
    view = open_campaign(user=players["australian"], campaign=korona)
    assert planning.planning_side(view=view, asked=None) == "australian"
    with pytest.raises(planning.SideRefused) as refused:
        planning.planning_side(view=view, asked="japanese")
    assert refused.value.forbidden
    gm = open_campaign(user=players["gm"], campaign=korona)
    assert planning.planning_side(view=gm, asked="japanese") == "japanese"
    with pytest.raises(planning.SideRefused) as unknown:
        planning.planning_side(view=gm, asked="americans")
    assert not unknown.value.forbidden


def test_a_player_may_not_take_back_the_enemys_order(
    korona: Campaign, players: dict[str, Any]
) -> None:
    first = korona.companies.get(name="1st Company")
    give_order(company=first, kind="advance", target=korona.areas.get(name="Korona"))
    view = open_campaign(user=players["australian"], campaign=korona)
    with pytest.raises(OrderError, match="belongs to the other side"):
        planning.take_back_order(view=view, company_id=first.pk)
    assert Order.objects.filter(company=first).exists()


def test_ready_marks_the_players_side_and_orders_stay_open(
    korona: Campaign, players: dict[str, Any]
) -> None:
    view = open_campaign(user=players["australian"], campaign=korona)
    assert planning.mark_ready(view=view) is False  # the Japanese are not ready yet
    plan = planning.plan_side(view=view, side="australian")
    assert plan.ready_sides == ["australian"] and plan.ready and not plan.may_mark_ready
    planning.order_company(
        view=view, company_id=view.ids.companies["A Company"], choice="hold", user=None
    )
    with pytest.raises(planning.ReadyRefused):
        planning.mark_ready(view=open_campaign(user=players["gm"], campaign=korona))


def test_choices_that_are_no_order_are_refused_in_plain_words(
    korona: Campaign, players: dict[str, Any]
) -> None:
    view = open_campaign(user=players["australian"], campaign=korona)
    for choice in ("", "attack:1", "advance:", "advance:99999", "hold:3", "advance:x"):
        with pytest.raises(OrderError) as refused:
            planning.parse_choice(view=view, choice=choice, area="Kokoda")
        # The form's raw value means nothing to a player: never shown back.
        assert str(refused.value) == (
            "that is not an order this company can be given: choose hold, or an area "
            "linked to Kokoda"
        )


def test_a_bad_order_value_from_a_page_of_a_played_turn_says_the_page_is_out_of_date(
    korona: Campaign, players: dict[str, Any]
) -> None:
    view = open_campaign(user=players["australian"], campaign=korona)
    a = view.ids.companies["A Company"]
    with pytest.raises(OrdersOutOfDate):
        planning.order_company(
            view=view, company_id=a, choice="advance:99999", user=None, page_turn=korona.turn
        )
    with pytest.raises(OrderError, match="not an order this company can be given"):
        planning.order_company(
            view=view, company_id=a, choice="advance:99999", user=None, page_turn=korona.turn + 1
        )
