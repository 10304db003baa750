"""The turn service: advancing turns, tabletop results, orders and whole campaigns, on the
database (SQLite, and PostgreSQL when DATABASE_URL names one)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.db import connection

from battles.models import Battle
from battles.services.results import ResultRefused, enter_battle_result
from campaign.models import Area, Campaign, Company, CompanyStands, Order, Turn
from campaign.services import turns as service
from campaign.services.scenarios import create_campaign
from campaign.services.snapshot import load_snapshot
from campaign.services.turns import (
    TurnRefused,
    advance_turn,
    give_order,
    run_campaign,
    set_standing_order,
    withdraw_order,
)
from rules.campaign import turn as rules
from rules.campaign.seeds import battle_seed
from rules.campaign.state import CampaignState
from rules.campaign.state import Order as RulesOrder
from rules.dice import derive_seed
from tests.campaign.builders import counting_tables
from tests.campaign.conftest import korona_doc, with_more_companies

pytestmark = pytest.mark.django_db

LOG_FIELDS = {"phase", "kind", "side", "company", "dice", "modifiers", "target", "outcome", "text"}

# One advance_turn without battles, whatever the number of companies:
#   SAVEPOINT (the service's atomic, nested in the test's transaction),
#   SELECT ... FOR UPDATE of the campaign row,
#   SELECT of a turn waiting for its battles,
#   7 for load_snapshot (sides, areas, links, stand counts, companies, ships, air groups;
#   with the rows' ids, so nothing is read again to write the map or the battles' rows),
#   SELECT of the orders for the turn,
#   SELECT of the sides with a player (the rest are the AI's),
#   SELECT of the turn's seed commitment,
#   INSERT of the Turn row,
#   6 for save_snapshot of the finished turn, over the rows as loaded (one UPDATE each of
#   companies, stand rows, areas, ships, air groups and the campaign row; the map after
#   movement is not written when the turn ends in the same transaction: nobody sees it),
#   UPDATE of the Turn row (log, report, status),
#   UPDATE of its commitment (revealed) and INSERT of the next turn's,
#   RELEASE SAVEPOINT.
ADVANCE_TURN_QUERIES = 1 + 1 + 1 + 7 + 1 + 1 + 1 + 1 + 6 + 1 + 2 + 1
# With auto battles, each fought before its row is written: one INSERT of the battles
# (with their results), one of their attackers and one of their defenders.
BATTLE_QUERIES = 3


# --- helpers ------------------------------------------------------------------------------


def new_campaign(
    name: str = "Korona 1",
    seed: int = 1,
    *,
    doc: dict[str, Any] | None = None,
    aggressive: bool = False,
    **settings: Any,
) -> Campaign:
    """A campaign from the Korona scenario (or ``doc``), its settings changed as given."""
    campaign = create_campaign(data=doc if doc is not None else korona_doc(), name=name, seed=seed)
    if settings:
        campaign.set_settings(replace(campaign.get_settings(), **settings))
        campaign.save(update_fields=["settings"])
    if aggressive:
        for company in campaign.companies.all():
            set_standing_order(company=company, standing_order="aggressive")
    return campaign


def meeting_doc() -> dict[str, Any]:
    """Korona with both Japanese companies of Oivi already in Korona: two battles there on
    turn 1 whatever the dice (everybody holds, and engaged companies may not move).

    The Australians hold Korona, so they defend; paired strongest to strongest (ties by
    name): 1st Company attacks A Company (1:Korona:1), 2nd Company B Company (1:Korona:2)."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["name"] in ("1st Company", "2nd Company"):
            company["area"] = "Korona"
    return doc


def company(campaign: Campaign, name: str) -> Company:
    return Company.objects.get(campaign=campaign, name=name)


def area(campaign: Campaign, name: str) -> Area:
    return Area.objects.get(campaign=campaign, name=name)


def reload(campaign: Campaign) -> Campaign:
    return Campaign.objects.get(pk=campaign.pk)


def state_of(campaign: Campaign) -> CampaignState:
    """The campaign's snapshot as the database has it now (the row read afresh: the
    snapshot takes the turn number and status from the row object)."""
    return load_snapshot(campaign=reload(campaign))


def snapshot(campaign: Campaign) -> CampaignState:
    """The campaign's snapshot under a neutral name, to compare two campaigns."""
    return replace(state_of(campaign), name="")


def turn_logs(campaign: Campaign) -> list[list[dict[str, Any]]]:
    return [turn.log for turn in Turn.objects.filter(campaign=campaign).order_by("number")]


def stands(campaign: Campaign, name: str) -> dict[str, tuple[int, int]]:
    """unit type -> (held, establishment) of one company, from the database."""
    return {
        unit: (held, full)
        for unit, held, full in CompanyStands.objects.filter(
            company__campaign=campaign, company__name=name
        ).values_list("unit_type", "held", "establishment")
    }


def database_state(campaign: Campaign) -> dict[str, Any]:
    """Everything a turn writes, read straight from the tables."""
    campaign = reload(campaign)
    return {
        "campaign": (campaign.turn, campaign.status, campaign.winner, campaign.end_reason),
        "turns": list(Turn.objects.filter(campaign=campaign).values_list("number", "status")),
        "battles": Battle.objects.filter(campaign=campaign).count(),
        "companies": sorted(
            Company.objects.filter(campaign=campaign).values_list(
                "name",
                "area__name",
                "in_supply",
                "turns_out_of_supply",
                "banzai",
                "standing_order",
            )
        ),
        "stands": sorted(
            CompanyStands.objects.filter(company__campaign=campaign).values_list(
                "company__name", "unit_type", "held", "establishment"
            )
        ),
        "control": sorted(Area.objects.filter(campaign=campaign).values_list("name", "controller")),
    }


# --- advancing a turn -----------------------------------------------------------------------


def test_advance_turn_plays_turn_one_and_records_it() -> None:
    campaign = new_campaign()
    report = advance_turn(campaign_id=campaign.pk)

    turn = Turn.objects.get(campaign=campaign)
    assert (turn.number, turn.status) == (1, Turn.Status.DONE)
    assert report.turn == turn
    assert report.done
    assert turn.seed == derive_seed(1, "turn", 1)
    assert turn.finished_at is not None
    assert turn.log, "a turn rolls at least the events, supply and initiative"
    for record in turn.log:
        assert set(record) >= LOG_FIELDS, record
    assert turn.report_text == "\n".join(record["text"] for record in turn.log)
    assert turn.report["turn"] == 1
    assert reload(campaign).turn == 1


def _first_seed_that_fights(state: CampaignState, orders: dict[str, RulesOrder]) -> int:
    """The first campaign seed whose turn 1 fights a battle (the dice decide who walks)."""
    for seed in range(1, 100):
        if rules.play_turn(replace(state, seed=seed), orders).battles:
            return seed
    raise AssertionError("no seed fights on turn 1")


def test_advance_turn_stores_what_the_turn_rules_compute() -> None:
    orders = {"C Company (militia)": RulesOrder("C Company (militia)", "withdraw", "Ioro")}
    seed = _first_seed_that_fights(state_of(new_campaign("Probe", aggressive=True)), orders)
    campaign = new_campaign(seed=seed, aggressive=True)
    give_order(
        company=company(campaign, "C Company (militia)"),
        kind="withdraw",
        target=area(campaign, "Ioro"),
    )
    before = state_of(campaign)
    expected = rules.play_turn(before, orders)
    assert expected.battles, f"the scenario should fight on turn 1 with seed {seed}"

    advance_turn(campaign_id=campaign.pk)

    after = state_of(campaign)
    assert after == expected.state
    assert {name: (c.area, c.stands) for name, c in after.companies.items()} == {
        name: (c.area, c.stands) for name, c in expected.state.companies.items()
    }


def test_the_stored_turn_log_is_the_one_the_turn_rules_write() -> None:
    """The same seed gives the same log whatever the database. PostgreSQL's jsonb reorders
    the keys of a stored battle result; the losses must not be fed back in that order."""
    campaign = new_campaign(doc=meeting_doc())
    expected = rules.play_turn(state_of(campaign))

    advance_turn(campaign_id=campaign.pk)

    log = Turn.objects.get(campaign=campaign).log
    assert [r["text"] for r in log] == [r["text"] for r in expected.log]
    assert log == expected.log


def test_a_turn_replays_exactly_from_the_campaign_seed() -> None:
    first = new_campaign("Korona 1", seed=5, aggressive=True)
    second = new_campaign("Korona 2", seed=5, aggressive=True)
    for campaign in (first, second):
        run_campaign(campaign_id=campaign.pk, turns=4)

    assert reload(first).turn == reload(second).turn == 4
    assert turn_logs(first) == turn_logs(second)
    assert snapshot(first) == snapshot(second)
    assert list(Battle.objects.filter(campaign=first).values_list("key", "seed", "result")) == (
        list(Battle.objects.filter(campaign=second).values_list("key", "seed", "result"))
    )


def test_another_seed_plays_other_turns() -> None:
    first = new_campaign("Korona 1", seed=5, aggressive=True)
    second = new_campaign("Korona 2", seed=6, aggressive=True)
    for campaign in (first, second):
        run_campaign(campaign_id=campaign.pk, turns=4)

    assert turn_logs(first) != turn_logs(second)
    assert snapshot(first) != snapshot(second)


def test_a_finished_campaign_plays_no_more_turns() -> None:
    doc = korona_doc()
    doc.update(turn=20, finished=True, winner="japanese", end_reason="the turn limit is reached")
    campaign = new_campaign(doc=doc)

    with pytest.raises(TurnRefused, match="^Korona 1 has ended: no more turns are played$"):
        advance_turn(campaign_id=campaign.pk)
    assert Turn.objects.count() == 0
    assert reload(campaign).turn == 20


def test_the_turn_limit_ends_the_campaign_and_then_no_turn_is_played() -> None:
    campaign = new_campaign(turn_limit=1)
    advance_turn(campaign_id=campaign.pk)
    campaign = reload(campaign)
    assert (campaign.status, campaign.winner) == (Campaign.Status.FINISHED, "australian")
    assert "turn limit (1)" in campaign.end_reason

    with pytest.raises(TurnRefused, match="has ended"):
        advance_turn(campaign_id=campaign.pk)
    assert Turn.objects.filter(campaign=campaign).count() == 1


# --- battles fought by the rules engine -----------------------------------------------------


def test_auto_battles_are_stored_with_spec_seed_forces_result_and_log() -> None:
    campaign = new_campaign(doc=meeting_doc())
    plan = rules.start_turn(state_of(campaign))

    report = advance_turn(campaign_id=campaign.pk)

    battles = list(Battle.objects.filter(campaign=campaign).order_by("key"))
    assert [b.key for b in battles] == ["1:Korona:1", "1:Korona:2"]
    assert [b.pk for b in report.battles] == sorted(b.pk for b in battles)
    turn = Turn.objects.get(campaign=campaign)
    for battle, planned in zip(battles, plan.battles, strict=True):
        assert battle.turn == turn
        assert battle.area.name == "Korona"
        assert battle.mode == "auto"
        assert battle.status == Battle.Status.FOUGHT
        assert battle.spec == planned.spec
        assert battle.seed == planned.seed == battle_seed(derive_seed(1, "turn", 1), battle.key)
        assert (battle.attacker_side, battle.defender_side) == ("japanese", "australian")
        assert battle.result["winner"] in ("attacker", "defender")
        assert "log" not in battle.result
        assert battle.log, "the tactical engine logs every roll"
    first, second = battles
    # Companies that surrender or are destroyed leave the battle's lists with their rows.
    survivors = set(Company.objects.filter(campaign=campaign).values_list("name", flat=True))
    assert {c.name for c in first.attackers.all()} == {"1st Company"} & survivors
    assert {c.name for c in first.defenders.all()} == {"A Company"} & survivors
    assert {c.name for c in second.attackers.all()} == {"2nd Company"} & survivors
    assert {c.name for c in second.defenders.all()} == {"B Company"} & survivors


def test_auto_battle_losses_come_off_stands_not_establishment() -> None:
    campaign = new_campaign(doc=meeting_doc())
    before = state_of(campaign)
    expected = rules.play_turn(before)

    advance_turn(campaign_id=campaign.pk)

    after = state_of(campaign)
    assert after == expected.state
    lost_any = False
    for battle in Battle.objects.filter(campaign=campaign):
        pairs = [("attacker", battle.spec["attacker"]), ("defender", battle.spec["defender"])]
        for key, force in pairs:
            name = force["name"]  # one company a side in these battles
            for unit, count in battle.result["losses"][key].items():
                if not count:
                    continue
                lost_any = True
                # Full strength on turn 1, and supply neither strips nor refills it yet;
                # the losses stay on the establishment for supply to replace (the
                # setting supply_replaces_battle_losses, on by default).
                full = before.companies[name].establishment[unit]
                if name in after.companies:
                    assert after.companies[name].establishment[unit] == full
                    assert after.companies[name].stands[unit] == full - count
    assert lost_any, "two battles of twelve stands a side should kill something"
    report = Turn.objects.get(campaign=campaign).report
    assert {b["key"] for b in report["battles"]} == {"1:Korona:1", "1:Korona:2"}


# --- battles fought at the table ----------------------------------------------------------


def tabletop_campaign() -> Campaign:
    return new_campaign(doc=meeting_doc(), battle_mode="tabletop")


def test_a_tabletop_battle_leaves_the_turn_waiting() -> None:
    campaign = tabletop_campaign()
    report = advance_turn(campaign_id=campaign.pk)

    assert not report.done
    turn = Turn.objects.get(campaign=campaign)
    assert (turn.number, turn.status) == (1, Turn.Status.BATTLES_PENDING)
    assert reload(campaign).turn == 0
    battles = Battle.objects.filter(campaign=campaign)
    assert battles.count() == 2
    assert {(b.mode, b.status, b.result) for b in battles} == {
        ("tabletop", Battle.Status.PENDING, None)
    }


def test_no_turn_is_played_while_one_waits_for_its_battles() -> None:
    campaign = tabletop_campaign()
    advance_turn(campaign_id=campaign.pk)
    waiting = database_state(campaign)

    with pytest.raises(TurnRefused, match="^turn 1 of Korona 1 is still waiting"):
        advance_turn(campaign_id=campaign.pk)
    assert database_state(campaign) == waiting


RESULTS = {
    "1:Korona:1": {
        "winner": "defender",
        "losses": {"attacker": {"rifle_squad": 3}, "defender": {"rifle_squad": 1}},
    },
    "1:Korona:2": {
        "winner": "attacker",
        "losses": {"attacker": {}, "defender": {"rifle_squad": 2, "forward_observer": 1}},
    },
}


def test_the_last_tabletop_result_completes_the_turn() -> None:
    campaign = tabletop_campaign()
    plan = rules.start_turn(state_of(campaign))
    advance_turn(campaign_id=campaign.pk)
    battles = {b.key: b for b in Battle.objects.filter(campaign=campaign)}

    first = enter_battle_result(battle_id=battles["1:Korona:1"].pk, **RESULTS["1:Korona:1"])
    assert not first.done
    assert Turn.objects.get(campaign=campaign).status == Turn.Status.BATTLES_PENDING
    assert reload(campaign).turn == 0

    last = enter_battle_result(battle_id=battles["1:Korona:2"].pk, **RESULTS["1:Korona:2"])
    assert last.done
    turn = Turn.objects.get(campaign=campaign)
    assert turn.status == Turn.Status.DONE
    assert reload(campaign).turn == 1
    assert set(Battle.objects.filter(campaign=campaign).values_list("status", flat=True)) == {
        Battle.Status.ENTERED
    }

    # Killed stands leave the companies, still on their establishment for supply to
    # replace; the losers fall back toward their bases.
    assert stands(campaign, "1st Company")["rifle_squad"] == (6, 9)
    assert stands(campaign, "A Company")["rifle_squad"] == (8, 9)
    assert stands(campaign, "B Company")["rifle_squad"] == (7, 9)
    assert stands(campaign, "B Company")["forward_observer"] == (0, 1)
    assert stands(campaign, "2nd Company")["rifle_squad"] == (9, 9)
    assert company(campaign, "1st Company").area.name == "Oivi"
    assert company(campaign, "B Company").area.name == "Isura"

    entered = {b.key: b.result for b in Battle.objects.filter(campaign=campaign)}
    expected = rules.finish_turn(plan, entered)
    assert state_of(campaign) == expected.state
    assert [r["text"] for r in turn.log] == [r["text"] for r in expected.log]


@pytest.mark.parametrize(
    ("winner", "losses", "reason"),
    [
        (
            "defender",
            {"attacker": {"rifle_squad": 10}},
            "the attacker lost 10 rifle squads but had only 9",
        ),
        ("defender", {"defender": {"hmg": 1}}, "the defender lost 1 HMG but had none"),
        ("attacker", {"defender": {"rifle_squad": -1}}, "must be a whole number >= 0"),
        # Not rounded down to a whole stand, and refused as a result, not a crash in int().
        ("attacker", {"defender": {"rifle_squad": 1.5}}, "must be a whole number >= 0"),
        ("attacker", {"defender": {"rifle_squad": "two"}}, "must be a whole number >= 0"),
        ("australian", {}, "the winner must be attacker or defender"),
        ("", {}, "the winner must be attacker or defender"),
    ],
    ids=["too_many", "type_not_present", "negative", "fraction", "not_a_number", "side", "none"],
)
def test_a_result_that_does_not_fit_the_battle_is_refused_and_changes_nothing(
    winner: str, losses: dict[str, dict[str, Any]], reason: str
) -> None:
    campaign = tabletop_campaign()
    advance_turn(campaign_id=campaign.pk)
    battle = Battle.objects.get(campaign=campaign, key="1:Korona:1")
    waiting = database_state(campaign)

    with pytest.raises(ResultRefused, match=reason):
        enter_battle_result(battle_id=battle.pk, winner=winner, losses=losses)

    battle.refresh_from_db()
    assert (battle.status, battle.result) == (Battle.Status.PENDING, None)
    assert database_state(campaign) == waiting


def test_a_battle_takes_one_result_only() -> None:
    campaign = tabletop_campaign()
    advance_turn(campaign_id=campaign.pk)
    battle = Battle.objects.get(campaign=campaign, key="1:Korona:1")
    enter_battle_result(battle_id=battle.pk, **RESULTS["1:Korona:1"])
    entered = database_state(campaign)
    result = Battle.objects.get(pk=battle.pk).result

    with pytest.raises(ResultRefused, match="already has its result"):
        enter_battle_result(battle_id=battle.pk, winner="attacker", losses={})

    assert Battle.objects.get(pk=battle.pk).result == result
    assert database_state(campaign) == entered


def test_an_order_given_while_a_turn_waits_for_its_battles_is_not_lost() -> None:
    """The waiting turn has moved its companies already; an order accepted now can only be
    meant for the turn after it, so that turn must carry it out (refusing it is fine too)."""
    campaign = tabletop_campaign()
    advance_turn(campaign_id=campaign.pk)
    militia = company(campaign, "C Company (militia)")  # in Isura, away from the battles
    try:
        order = give_order(company=militia, kind="withdraw", target=area(campaign, "Ioro"))
    except rules.OrderError:
        return
    for battle in Battle.objects.filter(campaign=campaign):
        enter_battle_result(battle_id=battle.pk, winner="defender", losses={})
    advance_turn(campaign_id=campaign.pk)  # turn 2: nobody else moves, nobody is engaged

    carried_out = company(campaign, "C Company (militia)").area.name == "Ioro"
    assert carried_out, (
        f"the order was filed for turn {order.turn_number}, the turn already waiting, "
        "and turn 2 ignored it"
    )


# --- whole or nothing -------------------------------------------------------------------------


def failing_after(real: Callable[..., Any]) -> Callable[..., Any]:
    """``real``, which then raises: the turn has written part of its outcome."""

    def call(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise RuntimeError("the database went away")

    return call


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("target", "name"),
    [(service, "save_snapshot"), (rules, "finish_turn")],
    ids=["save_snapshot", "finish_turn"],
)
def test_a_turn_that_fails_midway_leaves_nothing_behind(
    target: Any, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    campaign = new_campaign(doc=meeting_doc())  # battles, so Battle rows are written first
    before = database_state(campaign)
    monkeypatch.setattr(target, name, failing_after(getattr(target, name)))

    with pytest.raises(RuntimeError, match="went away"):
        advance_turn(campaign_id=campaign.pk)

    assert database_state(campaign) == before
    assert Turn.objects.count() == Battle.objects.count() == 0
    assert reload(campaign).turn == 0


# --- orders -------------------------------------------------------------------------------------


def test_give_order_stores_one_order_per_company_for_the_coming_turn() -> None:
    campaign = new_campaign()
    militia = company(campaign, "C Company (militia)")

    order = give_order(company=militia, kind="withdraw", target=area(campaign, "Ioro"))
    assert (order.turn_number, order.kind, order.target.name) == (1, "withdraw", "Ioro")
    assert order.campaign == campaign

    again = give_order(company=militia, kind="advance", target=area(campaign, "Korona"))
    assert Order.objects.filter(company=militia).count() == 1
    stored = Order.objects.get(company=militia)
    assert stored.pk == again.pk
    assert (stored.turn_number, stored.kind, stored.target.name) == (1, "advance", "Korona")

    held = give_order(company=militia, kind="hold")
    assert (held.kind, held.target) == ("hold", None)
    assert Order.objects.filter(company=militia).count() == 1


def test_orders_after_a_turn_are_for_the_turn_after_it() -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    order = give_order(
        company=company(campaign, "C Company (militia)"),
        kind="withdraw",
        target=area(campaign, "Ioro"),
    )
    assert order.turn_number == 2


def test_an_order_to_an_area_not_linked_is_refused() -> None:
    campaign = new_campaign()
    with pytest.raises(rules.OrderError, match="^Kilu is not linked to Korona$"):
        give_order(
            company=company(campaign, "A Company"), kind="advance", target=area(campaign, "Kilu")
        )
    assert Order.objects.count() == 0


def test_a_player_may_not_order_the_other_sides_companies() -> None:
    campaign = new_campaign()
    korona = area(campaign, "Korona")
    with pytest.raises(rules.OrderError, match="^1st Company belongs to the other side$"):
        give_order(
            company=company(campaign, "1st Company"),
            kind="advance",
            target=korona,
            side="australian",
        )
    assert Order.objects.count() == 0
    # Its own side, and the GM (no side), may.
    give_order(company=company(campaign, "1st Company"), kind="hold", side="japanese")
    give_order(company=company(campaign, "2nd Company"), kind="advance", target=korona)
    assert Order.objects.count() == 2


def test_a_company_out_of_supply_at_the_last_roll_may_be_ordered_to_advance() -> None:
    # The turn rolls supply first and carries the advance out only if that roll puts the
    # company in supply (else it holds): the order is the player's to give.
    campaign = new_campaign()
    Company.objects.filter(campaign=campaign, name="A Company").update(in_supply=False)
    give_order(
        company=company(campaign, "A Company"), kind="advance", target=area(campaign, "Oivi")
    )
    assert Order.objects.get().kind == "advance"


def test_a_company_engaged_by_the_enemy_may_not_move() -> None:
    campaign = new_campaign()
    Company.objects.filter(campaign=campaign, name="1st Company").update(
        area=area(campaign, "Isura")
    )
    with pytest.raises(
        rules.OrderError, match=r"^C Company \(militia\) is engaged by the enemy in Isura"
    ):
        give_order(
            company=company(campaign, "C Company (militia)"),
            kind="withdraw",
            target=area(campaign, "Ioro"),
        )
    assert Order.objects.count() == 0


def test_an_order_to_an_area_of_another_campaign_is_refused() -> None:
    campaign = new_campaign("Korona 1")
    other = new_campaign("Korona 2")
    with pytest.raises(rules.OrderError):
        give_order(
            company=company(campaign, "C Company (militia)"),
            kind="withdraw",
            target=area(other, "Ioro"),  # same name, another campaign's row
        )
    assert Order.objects.count() == 0


def test_an_order_is_refused_once_the_campaign_has_ended() -> None:
    doc = korona_doc()
    doc.update(turn=20, finished=True, winner="japanese", end_reason="the turn limit is reached")
    campaign = new_campaign(doc=doc)
    with pytest.raises(rules.OrderError, match="the campaign has ended"):
        give_order(company=company(campaign, "A Company"), kind="hold")


def test_withdraw_order_takes_the_order_back() -> None:
    campaign = new_campaign()
    militia = company(campaign, "C Company (militia)")
    give_order(company=militia, kind="withdraw", target=area(campaign, "Ioro"))

    assert withdraw_order(company=militia) is True
    assert Order.objects.count() == 0
    assert withdraw_order(company=militia) is False

    advance_turn(campaign_id=campaign.pk)
    assert company(campaign, "C Company (militia)").area.name == "Isura"  # it held


def test_set_standing_order_stores_it_and_refuses_an_unknown_one() -> None:
    campaign = new_campaign()
    militia = company(campaign, "C Company (militia)")

    set_standing_order(company=militia, standing_order="aggressive")
    assert company(campaign, "C Company (militia)").standing_order == "aggressive"

    with pytest.raises(rules.OrderError, match="'reckless' is not a standing order"):
        set_standing_order(company=militia, standing_order="reckless")
    assert company(campaign, "C Company (militia)").standing_order == "aggressive"


def test_the_next_turn_carries_out_the_orders_given() -> None:
    campaign = new_campaign()
    give_order(
        company=company(campaign, "C Company (militia)"),
        kind="withdraw",
        target=area(campaign, "Ioro"),
    )
    give_order(
        company=company(campaign, "1st Supply Company"),
        kind="advance",
        target=area(campaign, "Uberi Ridge"),
    )

    advance_turn(campaign_id=campaign.pk)

    assert company(campaign, "C Company (militia)").area.name == "Ioro"
    assert company(campaign, "1st Supply Company").area.name == "Uberi Ridge"
    moves = [
        r["text"]
        for r in Turn.objects.get(campaign=campaign).log
        if r["kind"] == "order" and r["outcome"] == "moved"
    ]
    assert sorted(moves) == [
        "1st Supply Company advances from Port Murray to Uberi Ridge (order)",
        "C Company (militia) withdraws from Isura to Ioro (order)",
    ]


def test_an_aggressive_standing_order_moves_a_company_without_orders() -> None:
    campaign = new_campaign()
    set_standing_order(company=company(campaign, "3rd Company"), standing_order="aggressive")
    advance_turn(campaign_id=campaign.pk)
    in_supply = company(campaign, "3rd Company").in_supply
    assert company(campaign, "3rd Company").area.name == ("Oivi" if in_supply else "Kilu")


# --- query counts -----------------------------------------------------------------------------


@pytest.mark.parametrize("times", [1, 10])
def test_advance_turn_takes_the_same_queries_however_many_companies(
    times: int, django_assert_num_queries: Any
) -> None:
    # Everybody holds where the scenario puts them: no battles on turn 1.
    campaign = new_campaign(doc=with_more_companies(korona_doc(), times=times))
    with django_assert_num_queries(ADVANCE_TURN_QUERIES):
        report = advance_turn(campaign_id=campaign.pk)
    assert report.done
    assert report.battles == []
    assert Company.objects.filter(campaign=campaign).count() == 8 * times


@pytest.mark.parametrize("times", [1, 10])
def test_a_turn_with_battles_takes_the_same_queries_however_many_companies(
    times: int, django_assert_num_queries: Any
) -> None:
    doc = with_more_companies(korona_doc(), times=times)
    for row in doc["companies"]:  # the Japanese rifle companies meet the Australians
        if row["side"] == "japanese" and row["kind"] == "fighting":
            row["area"] = "Korona"
    campaign = new_campaign(doc=doc)
    with django_assert_num_queries(ADVANCE_TURN_QUERIES + BATTLE_QUERIES):
        report = advance_turn(campaign_id=campaign.pk)
    assert report.done
    assert len(report.battles) >= times
    assert all(battle.status == "fought" and battle.result for battle in report.battles)


# --- two callers at once ---------------------------------------------------------------------


def advance_in_threads(campaign_id: int, callers: int) -> list[BaseException]:
    """Call advance_turn from ``callers`` threads released at the same moment."""
    start = threading.Barrier(callers)
    errors: list[BaseException] = []

    def play() -> None:
        try:
            start.wait()
            advance_turn(campaign_id=campaign_id)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=play) for _ in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a caller never finished"
    return errors


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite has no row locks, and its test database is one "
    "in-memory connection that threads cannot share",
)
@pytest.mark.django_db(transaction=True)
def test_two_callers_at_once_play_two_turns_one_after_the_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    campaign = new_campaign("Korona 1", seed=3, aggressive=True)
    reference = new_campaign("Korona 2", seed=3, aggressive=True)
    real_load = service.load_snapshot

    def slow_load(**kwargs: Any) -> CampaignState:
        time.sleep(0.2)  # hold the campaign lock long enough for the other caller to wait
        return real_load(**kwargs)

    monkeypatch.setattr(service, "load_snapshot", slow_load)
    errors = advance_in_threads(campaign.pk, callers=2)
    monkeypatch.undo()

    assert errors == []
    numbers = list(
        Turn.objects.filter(campaign=campaign).order_by("number").values_list("number", "status")
    )
    assert numbers == [(1, Turn.Status.DONE), (2, Turn.Status.DONE)]
    assert reload(campaign).turn == 2

    advance_turn(campaign_id=reference.pk)
    advance_turn(campaign_id=reference.pk)
    assert turn_logs(campaign) == turn_logs(reference)
    assert snapshot(campaign) == snapshot(reference)


# --- a whole campaign ---------------------------------------------------------------------------


def check_invariants(campaign_id: int, establishment: dict[tuple[str, str], int]) -> None:
    """What must hold after every turn, read from the tables."""
    campaign = Campaign.objects.get(pk=campaign_id)
    turns = list(Turn.objects.filter(campaign=campaign).values_list("number", "status"))
    assert turns == [(n, Turn.Status.DONE) for n in range(1, campaign.turn + 1)]
    assert not Battle.objects.filter(campaign=campaign, status=Battle.Status.PENDING).exists()

    areas = set(Area.objects.filter(campaign=campaign).values_list("name", flat=True))
    held: dict[str, int] = {}
    for name, unit, count, full in CompanyStands.objects.filter(
        company__campaign=campaign
    ).values_list("company__name", "unit_type", "held", "establishment"):
        assert 0 <= count <= full <= establishment[name, unit], (name, unit, count, full)
        held[name] = held.get(name, 0) + count
    occupants: dict[str, set[str]] = {}
    for name, side, kind, where in Company.objects.filter(campaign=campaign).values_list(
        "name", "side", "kind", "area__name"
    ):
        assert where in areas
        assert held.get(name, 0) > 0, f"{name} has no stands left but is still on the map"
        if kind == Company.Kind.FIGHTING:
            occupants.setdefault(where, set()).add(side)
    for name, controller in Area.objects.filter(campaign=campaign).values_list(
        "name", "controller"
    ):
        sides = occupants.get(name, set())
        if len(sides) == 1:
            assert controller in sides, f"{name} is held alone by {sides} but is {controller}'s"


def test_a_whole_campaign_on_aggressive_orders_plays_to_its_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    campaign = new_campaign(seed=7, aggressive=True)
    establishment = {
        (name, unit): full
        for name, unit, full in CompanyStands.objects.filter(
            company__campaign=campaign
        ).values_list("company__name", "unit_type", "establishment")
    }
    real_advance = service.advance_turn
    played: list[int] = []

    def advance_and_check(*, campaign_id: int) -> service.TurnReport:
        report = real_advance(campaign_id=campaign_id)
        played.append(report.turn.number)
        check_invariants(campaign_id, establishment)
        return report

    monkeypatch.setattr(service, "advance_turn", advance_and_check)
    reports = run_campaign(campaign_id=campaign.pk, turns=100)

    campaign = reload(campaign)
    assert played == list(range(1, campaign.turn + 1))
    assert [r.turn.number for r in reports] == played
    assert campaign.turn <= campaign.get_settings().turn_limit
    assert campaign.status == Campaign.Status.FINISHED
    assert campaign.end_reason
    korona = area(campaign, "Korona")
    assert campaign.winner is not None
    assert campaign.winner == korona.controller
    last = Turn.objects.get(campaign=campaign, number=campaign.turn)
    assert last.report["finished"] is True
    assert last.report["winner"] == campaign.winner
    assert Battle.objects.filter(campaign=campaign).exists()

    with pytest.raises(TurnRefused, match="has ended"):
        run_campaign(campaign_id=campaign.pk, turns=1)


def test_run_campaign_stops_at_a_turn_waiting_for_its_battles() -> None:
    campaign = tabletop_campaign()
    reports = run_campaign(campaign_id=campaign.pk, turns=5)
    assert [(r.turn.number, r.done) for r in reports] == [(1, False)]
    assert reload(campaign).turn == 0


def test_a_turn_keeps_the_campaign_as_it_stood_when_the_turn_began() -> None:
    """What a GM's roll-back to the start of a turn restores."""
    from rules.campaign.scenario import parse_scenario

    campaign = new_campaign()
    before = load_snapshot(campaign=campaign)
    advance_turn(campaign_id=campaign.pk)
    after_one = load_snapshot(campaign=Campaign.objects.get(pk=campaign.pk))
    advance_turn(campaign_id=campaign.pk)
    first, second = Turn.objects.filter(campaign=campaign).order_by("number")
    assert parse_scenario(first.start_state) == before
    assert parse_scenario(second.start_state) == after_one


def test_a_result_against_the_end_condition_is_refused_with_the_reason() -> None:
    """The attacker lost every stand it had and is entered as the winner: the rules end a
    battle when a side has lost a third of its stands, with that side's defeat."""
    campaign = tabletop_campaign()
    advance_turn(campaign_id=campaign.pk)
    battle = Battle.objects.get(campaign=campaign, key="1:Korona:1")
    waiting = database_state(campaign)
    everything = dict(battle.spec["attacker"]["stands"])
    brought = sum(everything.values())

    with pytest.raises(ResultRefused) as refused:
        enter_battle_result(battle_id=battle.pk, winner="attacker", losses={"attacker": everything})

    assert str(refused.value).startswith(
        f"the attacker cannot have won: it lost {brought} of the {brought} stands it brought"
    )
    assert str(refused.value).endswith("the winner is the defender")
    battle.refresh_from_db()
    assert (battle.status, battle.result) == (Battle.Status.PENDING, None)
    assert database_state(campaign) == waiting
    # The same losses with the defender as the winner fit.
    enter_battle_result(battle_id=battle.pk, winner="defender", losses={"attacker": everything})
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.ENTERED


def test_a_turns_auto_battles_are_fought_on_the_tables_the_ai_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Nobody plays the Australians: the AI's sniper choice rolls each battle's table, and
    # the battle is fought on that table, not on the same one rolled again (issue 17).
    rolled = counting_tables(monkeypatch)
    campaign = new_campaign(doc=meeting_doc())
    advance_turn(campaign_id=campaign.pk)
    battles = list(Battle.objects.filter(campaign=campaign))
    assert len(battles) == 2
    assert [rolled[b.seed] for b in battles] == [1, 1]
