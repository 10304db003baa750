"""Campaigns from scenarios and back, snapshots in and out of the database."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from campaign.models import (
    AirGroup,
    Area,
    Campaign,
    Company,
    CompanyStands,
    Link,
    Order,
    Ship,
    Side,
    Turn,
)
from campaign.services.scenarios import CampaignExists, create_campaign, export_campaign
from campaign.services.snapshot import load_snapshot, save_snapshot
from rules.campaign.scenario import ScenarioError, dump_scenario, parse_scenario
from rules.campaign.state import Settings
from tests.campaign.conftest import korona_doc, with_more_companies

pytestmark = pytest.mark.django_db

TABLES = (Campaign, Side, Area, Link, Company, CompanyStands, Ship, AirGroup)

# load_snapshot: sides, areas, links, stand counts, companies, ships, air groups.
LOAD_QUERIES = 7
# save_snapshot, when no company is removed or added and no unit type is new: 5 reads
# (areas, companies, stand rows, ships, air groups), then one UPDATE each for companies,
# stand rows, areas, ships, air groups and the campaign row.
SAVE_QUERIES = 11
# ... and when companies are removed, 7 more whatever their number: the collector reads
# the companies and their stand rows (read, not fast-deleted: the stand rows keep a
# history, so they have delete signals, quiet during a turn), then deletes the stand
# rows, orders, places among the attackers and the defenders of battles, and the
# company rows.
SAVE_QUERIES_WITH_REMOVALS = SAVE_QUERIES + 7


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in TABLES}


def test_a_campaign_is_created_from_the_korona_scenario() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1", seed=7)
    assert (campaign.name, campaign.seed, campaign.turn, campaign.status) == (
        "Korona 1",
        7,
        0,
        Campaign.Status.ACTIVE,
    )
    assert campaign.get_settings() == Settings()
    assert row_counts() == {
        "Campaign": 1,
        "Side": 2,
        "Area": 10,
        "Link": 10,
        "Company": 8,
        "CompanyStands": 3 * 4 + 3 * 4 + 2,
        "Ship": 2,
        "AirGroup": 1,
    }
    sides = {s.key: (s.name, s.base.name) for s in campaign.sides.select_related("base")}
    assert sides == {"australian": ("Australians", "Port Murray"), "japanese": ("Japanese", "Kilu")}
    korona = campaign.areas.get(name="Korona")
    assert (korona.zone, korona.vegetation, korona.plains, korona.features) == (
        5,
        "light",
        True,
        ["airstrip"],
    )
    a_company = campaign.companies.get(name="A Company")
    assert (a_company.area, a_company.quality, a_company.kind) == (korona, "trained", "fighting")
    assert {s.unit_type: (s.held, s.establishment) for s in a_company.stand_counts.all()} == {
        "commander": (1, 1),
        "forward_observer": (1, 1),
        "rifle_squad": (9, 9),
        "small_mortar": (1, 1),
    }
    supply = campaign.companies.get(name="Supply Company")
    assert (supply.quality, supply.area.name) == (None, "Kilu")
    assert [(s.name, s.port.name, s.present) for s in campaign.ships.order_by("id")] == [
        ("HMAS Pitcairn", "Port Murray", True),
        ("IJN Uesugi", "Kilu", True),
    ]
    [air] = campaign.air_groups.all()
    assert (air.side, air.base.name, air.buffalos, air.bombers) == (
        "australian",
        "Port Murray",
        3,
        0,
    )
    assert set(campaign.areas.filter(controller="japanese").values_list("name", flat=True)) == {
        "Oivi",
        "Kilu",
    }


def test_the_snapshot_of_a_new_campaign_is_the_scenario() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1", seed=7)
    expected = replace(parse_scenario(korona_doc()), name="Korona 1", seed=7)
    assert load_snapshot(campaign=campaign) == expected


def test_the_seed_is_the_given_one_else_the_scenarios_else_drawn() -> None:
    doc = korona_doc()
    doc["seed"] = 99
    assert create_campaign(data=doc, name="given", seed=5).seed == 5
    assert create_campaign(data=doc, name="scenario's").seed == 99
    doc["seed"] = 0
    assert create_campaign(data=doc, name="zero").seed == 0
    drawn = {create_campaign(data=korona_doc(), name=f"drawn {i}").seed for i in range(3)}
    assert len(drawn) == 3 and all(0 <= seed < 2**63 for seed in drawn)
    # Drawn over every bit the database holds, not a narrower range one could search.
    assert any(seed >= 2**48 for seed in drawn)


def test_a_bad_scenario_creates_nothing_and_lists_every_problem() -> None:
    create_campaign(data=korona_doc(), name="Korona 1")
    before = row_counts()
    doc = korona_doc()
    doc["links"].append(["Korona", "Kokoda"])
    doc["companies"][1]["stands"]["rifle_squad"] = -3
    doc["sides"][1]["base"] = "Rabaul"
    with pytest.raises(ScenarioError) as caught:
        create_campaign(data=doc, name="Korona 2")
    assert caught.value.problems == [
        "sides[1] (japanese).base: unknown area 'Rabaul'",
        "links[10]: unknown area 'Kokoda'",
        "companies[1] (B Company).stands.rifle_squad: must be from 0 to 1000, not -3",
    ]
    assert row_counts() == before


def test_a_taken_name_is_refused_and_creates_nothing() -> None:
    create_campaign(data=korona_doc(), name="Korona 1")
    before = row_counts()
    with pytest.raises(CampaignExists, match="a campaign named 'Korona 1' exists already"):
        create_campaign(data=korona_doc(), name="Korona 1")
    assert row_counts() == before


@pytest.mark.parametrize(("name", "seed"), [("  ", None), ("ok", -1), ("ok", 2**63)])
def test_a_blank_name_or_a_bad_seed_is_refused(name: str, seed: int | None) -> None:
    with pytest.raises(ValueError):
        create_campaign(data=korona_doc(), name=name, seed=seed)
    assert Campaign.objects.count() == 0


def test_export_then_import_gives_the_same_snapshot() -> None:
    first = create_campaign(data=korona_doc(), name="Korona 1")
    state = load_snapshot(campaign=first)
    state.turn = 4
    state.companies["A Company"].stands["rifle_squad"] = 6
    state.companies["A Company"].area = "Isura"
    state.companies["1st Company"].in_supply = False
    state.areas["Korona"].controller = "japanese"
    state.ships[1].present = False
    del state.companies["C Company (militia)"]
    with transaction.atomic():
        save_snapshot(campaign=first, state=state)
    exported = export_campaign(campaign=first)
    assert (exported["name"], exported["seed"]) == ("Korona 1", first.seed)
    second = create_campaign(data=exported, name="Korona 2")
    assert second.seed == first.seed
    assert load_snapshot(campaign=second) == replace(state, name="Korona 2")


def test_a_finished_campaign_round_trips_its_outcome() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    state = load_snapshot(campaign=campaign)
    state.finished, state.winner, state.end_reason = True, "japanese", "base_taken"
    state.settings = replace(state.settings, turn_limit=9)
    with transaction.atomic():
        save_snapshot(campaign=campaign, state=state)
    campaign.refresh_from_db()
    assert (campaign.status, campaign.winner, campaign.end_reason) == (
        "finished",
        "japanese",
        "base_taken",
    )
    assert campaign.get_settings().turn_limit == 9
    assert load_snapshot(campaign=campaign) == state
    # Not ended by the rules' reasons (nothing ends it in this state): no causes to word.
    assert campaign.end_causes == []


def test_a_finished_campaign_keeps_why_it_ended_and_a_roll_back_forgets_it() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    state = load_snapshot(campaign=campaign)
    state.turn, state.finished, state.winner = 20, True, "australian"
    with transaction.atomic():
        save_snapshot(campaign=campaign, state=state)
    campaign.refresh_from_db()
    assert campaign.end_causes == [{"kind": "turn_limit", "side": None, "area": None, "turns": 20}]
    # A scenario written as finished keeps them from its state too.
    again = create_campaign(data=dump_scenario(state), name="Korona 2")
    assert again.end_causes == campaign.end_causes
    state.turn, state.finished, state.winner = 19, False, None
    with transaction.atomic():
        save_snapshot(campaign=campaign, state=state)
    campaign.refresh_from_db()
    assert campaign.end_causes == []


def test_campaign_settings_are_stored_as_their_fields() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    campaign.set_settings(replace(Settings(), fog_of_war=False))
    campaign.save()
    campaign.refresh_from_db()
    assert campaign.settings["fog_of_war"] is False
    assert campaign.get_settings() == replace(Settings(), fog_of_war=False)


# --- query counts -----------------------------------------------------------------------


@pytest.mark.parametrize("times", [1, 10])
def test_load_snapshot_takes_the_same_queries_however_many_companies(
    times: int, django_assert_num_queries: Any
) -> None:
    campaign = create_campaign(data=with_more_companies(korona_doc(), times=times), name="big")
    with django_assert_num_queries(LOAD_QUERIES):
        state = load_snapshot(campaign=campaign)
    assert len(state.companies) == 8 * times


@pytest.mark.parametrize("times", [1, 10])
def test_save_snapshot_takes_the_same_queries_however_many_companies(
    times: int, django_assert_num_queries: Any
) -> None:
    campaign = create_campaign(data=with_more_companies(korona_doc(), times=times), name="big")
    state = load_snapshot(campaign=campaign)
    for company in state.companies.values():  # every company changes
        company.turns_out_of_supply += 1
        company.in_supply = False
        company.area = "Ioro"
        key = next(iter(company.stands))
        company.stands[key] -= 1
    state.areas["Korona"].controller = "japanese"
    state.air[0].buffalos = 1
    state.turn = 1
    with transaction.atomic(), django_assert_num_queries(SAVE_QUERIES):
        save_snapshot(campaign=campaign, state=state)
    assert load_snapshot(campaign=campaign) == state


@pytest.mark.parametrize("removed", [1, 10])
def test_removing_companies_takes_the_same_queries_however_many(
    removed: int, django_assert_num_queries: Any
) -> None:
    campaign = create_campaign(data=with_more_companies(korona_doc(), times=10), name="big")
    state = load_snapshot(campaign=campaign)
    for name in list(state.companies)[:removed]:
        del state.companies[name]
    with transaction.atomic(), django_assert_num_queries(SAVE_QUERIES_WITH_REMOVALS):
        save_snapshot(campaign=campaign, state=state)
    assert Company.objects.count() == 80 - removed
    assert load_snapshot(campaign=campaign) == state


def test_save_snapshot_adds_new_unit_types_and_new_companies() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    state = load_snapshot(campaign=campaign)
    a_company = state.companies["A Company"]
    a_company.stands["sniper"] = 1
    a_company.establishment["sniper"] = 1
    reinforcement = replace(state.companies["B Company"], name="D Company", area="Port Murray")
    reinforcement.stands = dict(reinforcement.stands)
    state.companies["D Company"] = reinforcement
    with transaction.atomic():
        save_snapshot(campaign=campaign, state=state)
    assert load_snapshot(campaign=campaign) == state
    assert CompanyStands.objects.filter(unit_type="sniper").count() == 1


def test_save_snapshot_drops_unit_types_a_company_no_longer_has() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    state = load_snapshot(campaign=campaign)
    for counts in (state.companies["A Company"].stands, state.companies["A Company"].establishment):
        del counts["forward_observer"]
    with transaction.atomic():
        save_snapshot(campaign=campaign, state=state)
    assert load_snapshot(campaign=campaign) == state


def test_save_snapshot_refuses_places_the_campaign_lacks() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    state = load_snapshot(campaign=campaign)
    state.companies["A Company"].area = "Kokoda"
    with transaction.atomic(), pytest.raises(ValueError, match="Kokoda"):
        save_snapshot(campaign=campaign, state=state)
    assert load_snapshot(campaign=campaign).companies["A Company"].area == "Korona"


@pytest.mark.django_db(transaction=True)
def test_save_snapshot_must_run_inside_a_transaction() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    with pytest.raises(transaction.TransactionManagementError):
        save_snapshot(campaign=campaign, state=load_snapshot(campaign=campaign))


# --- constraints ------------------------------------------------------------------------


def test_a_turn_number_is_played_once_per_campaign() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    Turn.objects.create(campaign=campaign, number=1, seed=1)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Turn.objects.create(campaign=campaign, number=1, seed=2)
    other = create_campaign(data=korona_doc(), name="Korona 2")
    Turn.objects.create(campaign=other, number=1, seed=3)  # another campaign's turn 1


def test_a_company_has_one_order_per_turn() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    company = campaign.companies.get(name="C Company (militia)")
    Order.objects.create(campaign=campaign, company=company, turn_number=1, kind="hold")
    with transaction.atomic(), pytest.raises(IntegrityError):
        Order.objects.create(
            campaign=campaign,
            company=company,
            turn_number=1,
            kind="advance",
            target=campaign.areas.get(name="Korona"),
        )
    Order.objects.create(campaign=campaign, company=company, turn_number=2, kind="hold")


def test_stands_held_stay_within_establishment() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    row = CompanyStands.objects.filter(company__campaign=campaign).first()
    assert row is not None
    row.held = row.establishment + 1
    with transaction.atomic(), pytest.raises(IntegrityError):
        row.save()


def test_a_link_may_not_join_an_area_to_itself() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    korona = campaign.areas.get(name="Korona")
    with transaction.atomic(), pytest.raises(IntegrityError):
        Link.objects.create(campaign=campaign, a=korona, b=korona)


def test_an_order_to_move_names_its_target() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    company = campaign.companies.get(name="A Company")
    with transaction.atomic(), pytest.raises(IntegrityError):
        Order.objects.create(campaign=campaign, company=company, turn_number=1, kind="advance")


def test_deleting_a_campaign_deletes_everything_in_it() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona 1")
    Turn.objects.create(campaign=campaign, number=1, seed=1)
    campaign.delete()
    assert set(row_counts().values()) == {0}
    assert Turn.objects.count() == 0
