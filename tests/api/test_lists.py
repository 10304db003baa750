"""What the read endpoints give, with their filters, ordering and pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from battles.models import Battle
from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn, set_standing_order
from tests.api.helpers import area_id, company_id, url
from tests.web.conftest import join, meeting_doc

pytestmark = pytest.mark.django_db


def test_campaign_list_gives_turn_status_deadline_winner_and_side(
    played: Campaign, campaign: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    rows = login(aussie).get("/api/campaigns/").json()["results"]
    assert [(r["name"], r["turn"], r["status"], r["side"]) for r in rows] == [
        ("Korona", 0, "active", "australian"),
        ("Korona played", 2, "active", "australian"),
    ]
    assert {"next_deadline", "winner", "coming_turn"} <= set(rows[0])
    gm_rows = login(gm_user).get("/api/campaigns/?ordering=-turn").json()["results"]
    assert [(r["name"], r["side"], r["game_master"]) for r in gm_rows] == [
        ("Korona played", None, True),
        ("Korona", None, True),
    ]


def test_campaign_list_filters_on_status(
    played: Campaign, campaign: Campaign, aussie: Any, login: Any
) -> None:
    Campaign.objects.filter(pk=played.pk).update(
        status="finished", winner="japanese", end_reason="Korona held"
    )
    rows = login(aussie).get("/api/campaigns/?status=finished").json()["results"]
    assert [(r["name"], r["winner"]) for r in rows] == [("Korona played", "japanese")]
    assert login(aussie).get("/api/campaigns/?status=nonsense").status_code == 400


def test_campaign_detail_gives_sides_ships_and_air(
    played: Campaign, aussie: Any, login: Any
) -> None:
    body = login(aussie).get(url(played)).json()
    assert [side["key"] for side in body["sides"]] == ["australian", "japanese"]
    assert {ship["name"] for ship in body["ships"]} == {"HMAS Pitcairn", "IJN Uesugi"}
    assert {air["side"] for air in body["air_groups"]} >= {"australian"}


def test_areas_give_controller_and_neighbours(played: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    korona = client.get(url(played, f"areas/{area_id(played, 'Korona')}/")).json()
    assert [n["name"] for n in korona["neighbours"]] == ["Isura", "Oivi"]
    assert korona["features"] == ["airstrip"]
    rows = client.get(url(played, "areas/?zone=3&ordering=-name")).json()["results"]
    assert [r["name"] for r in rows] == ["Ioro", "Erida"]
    assert client.get(url(played, "areas/999999/")).status_code == 404


def test_companies_filter_and_order_on_what_everyone_sees(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    rows = client.get(url(played, "companies/?kind=fighting&ordering=-name")).json()["results"]
    # The glimpse (the 2nd Company) has no name: last in -name, by its handle.
    assert [r["name"] or r["glimpse"] for r in rows] == [
        "C Company (militia)",
        "B Company",
        "A Company",
        "2-1",
    ]
    own = client.get(url(played, f"companies/{company_id(played, 'C Company (militia)')}/"))
    assert own.json()["full"] is True
    assert own.json()["quality"] == "raw"
    assert own.json()["may_order"] is True
    assert client.get(url(played, "companies/?side=nobody")).status_code == 400


def test_companies_are_paged(big_campaign: Campaign, gm_user: Any, login: Any) -> None:
    client = login(gm_user)
    first = client.get(url(big_campaign, "companies/")).json()
    assert first["count"] == 80
    assert len(first["results"]) == 50
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 30
    assert client.get(url(big_campaign, "companies/?page=9")).status_code == 404


def test_turns_list_and_one_turns_rolls(played: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    rows = client.get(url(played, "turns/")).json()["results"]
    assert [(r["number"], r["status"]) for r in rows] == [(1, "done"), (2, "done")]
    turn = client.get(url(played, "turns/1/")).json()
    assert turn["records"][0]["phase"] == "naval"
    assert all("text" in record for record in turn["records"])
    assert client.get(url(played, "turns/3/")).status_code == 404


def test_battles_give_result_and_log(played: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    rows = client.get(url(played, "battles/?turn=1")).json()["results"]
    assert [r["key"] for r in rows] == ["1:Korona:1", "1:Korona:2"]
    battle = client.get(url(played, f"battles/{rows[0]['id']}/")).json()
    assert battle["winner"] == battle["result"]["winner"]
    assert battle["log"][0]["phase"] == "terrain"


@pytest.fixture
def tabletop(db: Any, aussie: Any, japanese: Any) -> Campaign:
    doc = meeting_doc()
    doc.setdefault("settings", {})["battle_mode"] = "tabletop"
    campaign = create_campaign(data=doc, name="Korona at the table", seed=7)
    advance_turn(campaign_id=campaign.pk)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    return campaign


def test_pending_tabletop_battle_has_no_log_yet(
    tabletop: Campaign, aussie: Any, login: Any
) -> None:
    battle = Battle.objects.filter(campaign=tabletop).first()
    assert battle is not None and battle.status == "pending"
    body = login(aussie).get(url(tabletop, f"battles/{battle.pk}/")).json()
    assert (body["status"], body["result"], body["log"], body["winner"]) == (
        "pending",
        None,
        None,
        None,
    )
    pending = login(aussie).get(url(tabletop, "battles/?status=pending")).json()
    assert pending["count"] == Battle.objects.filter(campaign=tabletop).count()


def test_a_pending_battle_has_no_winner_in_the_list_or_the_detail(
    tabletop: Campaign, aussie: Any, login: Any
) -> None:
    """A pending row that carried a result (set by hand: the services write the two
    together) gave the result's winner in the list, null in the detail. The database now
    refuses such a row (``battle_result_only_once_fought``), so its generated ``winner``
    is null for every pending battle: neither the list nor the detail gives one."""
    battle = Battle.objects.filter(campaign=tabletop).order_by("id").first()
    assert battle is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        Battle.objects.filter(pk=battle.pk).update(result={"winner": "attacker"})
    client = login(aussie)
    listed = client.get(url(tabletop, "battles/")).json()["results"]
    detail = client.get(url(tabletop, f"battles/{battle.pk}/")).json()
    row = next(row for row in listed if row["id"] == battle.pk)
    assert (row["status"], row["winner"]) == ("pending", None)
    assert (detail["status"], detail["winner"], detail["result"]) == ("pending", None, None)
    assert {key: detail[key] for key in row} == row


def test_orders_wait_while_a_turn_waits_for_the_table(
    tabletop: Campaign, aussie: Any, login: Any
) -> None:
    body = {"company": company_id(tabletop, "C Company (militia)"), "kind": "hold"}
    response = login(aussie).post(url(tabletop, "orders/"), body, "application/json")
    assert response.status_code == 400
    assert "tabletop" in response.json()["detail"]


def test_docs_page_is_served_without_a_cdn(client: Any) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    assert "cdn" not in page.lower()


def test_docs_page_has_a_way_back_to_korona(client: Any, aussie: Any, login: Any) -> None:
    """The walk-through: the page the Account page links to had no way back."""
    page = login(aussie).get("/api/docs/").content.decode()
    assert '<a class="brand" href="/campaigns/">Korona</a>' in page
    assert '<a href="/campaigns/">Back to your campaigns</a>' in page
    assert '<a href="/accounts/">Account</a>' in page
    assert page.index("korona-back") < page.index('id="swagger-ui"')
    # Swagger UI still starts from its own script, never an inline one (the CSP).
    assert '<script src="/api/docs/?script=">' in page and "<script>" not in page
    anonymous = client.get("/api/docs/").content.decode()
    assert '<a href="/accounts/login/">Sign in</a>' in anonymous


def test_a_finished_campaign_gives_its_end_causes_and_why_in_the_pages_words(
    played: Campaign, campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The end's causes as fields, and the sentence the pages say them in
    (``campaign.web.ending.why``); ``end_reason`` (the engine's words) kept as it was."""
    causes = [{"kind": "base_lost", "side": "australian", "area": "Port Murray", "turns": None}]
    Campaign.objects.filter(pk=played.pk).update(
        status="finished", winner="japanese", end_reason="Korona held", end_causes=causes
    )
    client = login(aussie)
    why = "They held Korona when the Australians lost their base, Port Murray."
    rows = {r["name"]: r for r in client.get("/api/campaigns/").json()["results"]}
    detail = client.get(url(played)).json()
    for body in (rows["Korona played"], detail):
        assert body["end_causes"] == causes
        assert body["why"] == why
        assert body["end_reason"] == "Korona held"
    # A campaign going on: no causes, no sentence.
    assert (rows["Korona"]["end_causes"], rows["Korona"]["why"]) == ([], "")
    assert client.get(url(campaign)).json()["end_causes"] == []


def test_a_campaign_that_ended_before_its_causes_were_kept_gives_the_reason_as_written(
    played: Campaign, aussie: Any, login: Any
) -> None:
    Campaign.objects.filter(pk=played.pk).update(
        status="finished", winner="japanese", end_reason="Korona held"
    )
    body = login(aussie).get(url(played)).json()
    assert (body["end_causes"], body["why"]) == ([], "Why it ended: Korona held.")


def test_a_companys_with_no_order_says_what_it_does_as_the_orders_page_does(
    gm_user: Any, aussie: Any, japanese: Any, login: Any
) -> None:
    """A walk-through read "standing_order": "sensible" for the Australians' own
    companies, where their orders page says "hold (the default while you play this
    side)": a sensible company holds while a player plays its side, and is the campaign
    AI's while none does. ``with_no_order`` says which it is now, beside the setting; the
    GM's kept list follows a player joining the other side."""
    campaign = create_campaign(data=meeting_doc(), name="Korona solo", seed=1)
    for company in campaign.companies.all():  # every company's default
        set_standing_order(company=company, standing_order="sensible")
    join(aussie, campaign, "australian")
    player, gm = login(aussie), login(gm_user)

    def said(client: Any) -> dict[str, tuple[str, str]]:
        rows = client.get(url(campaign, "companies/?full=true")).json()["results"]
        return {row["name"]: (row["standing_order"], row["with_no_order"]) for row in rows}

    own = said(player)
    assert own["A Company"] == ("sensible", "hold")
    assert {company[1] for company in own.values()} == {"hold"}
    page = player.get(f"/campaigns/{campaign.pk}/orders/").content.decode()
    assert "hold (the default while you play this side)" in page
    one = player.get(url(campaign, f"companies/{company_id(campaign, 'A Company')}/"))
    assert one.json()["with_no_order"] == "hold"
    every = said(gm)
    assert every["A Company"] == ("sensible", "hold")
    assert every["1st Company"] == ("sensible", "campaign_ai")
    join(japanese, campaign, "japanese")
    assert said(gm)["1st Company"] == ("sensible", "hold")
    assert said(login(japanese))["1st Company"] == ("sensible", "hold")


def test_a_paused_campaign_has_no_next_deadline_even_after_a_turn_played_by_hand(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """Every page says "none while paused" (no turn is played on its schedule; resuming
    counts the next deadline from then). The API gave the deadline the row kept from
    before the pause, and after the GM played a turn by hand one counted from it, though
    neither would come; resumed, it gives the one counted from then."""
    from datetime import timedelta

    from django.utils import timezone

    from campaign.services.campaigns import set_paused
    from campaign.services.schedule import set_schedule

    set_schedule(campaign=campaign, kind="every_hours", every_hours=24)
    client = login(aussie)

    def deadline() -> Any:
        (row,) = client.get("/api/campaigns/").json()["results"]
        detail = client.get(url(campaign)).json()
        assert detail["next_deadline"] == row["next_deadline"]
        return row["next_deadline"]

    assert deadline() is not None
    set_paused(campaign=campaign, paused=True, reason="holidays")
    assert deadline() is None
    advance_turn(campaign_id=campaign.pk)  # the GM's "Advance turn now"
    assert Campaign.objects.get(pk=campaign.pk).status == Campaign.Status.PAUSED
    assert deadline() is None
    set_paused(campaign=campaign, paused=False)
    resumed = Campaign.objects.get(pk=campaign.pk).next_deadline
    assert resumed is not None and resumed > timezone.now() + timedelta(hours=23)
    assert deadline() is not None


@pytest.mark.parametrize("ordering", ["next_deadline", "-next_deadline"])
def test_campaigns_ordered_by_next_deadline_as_shown_put_the_paused_ones_after(
    db: Any, aussie: Any, login: Any, ordering: str
) -> None:
    """A paused campaign shows no deadline (``null``): ordered by it, it goes with the
    campaigns that show none, after those with one, either way; it went by the deadline
    its row kept, which never comes (here between the two others')."""
    from datetime import UTC, datetime

    from campaign.services.campaigns import set_paused
    from campaign.services.schedule import set_schedule

    now = datetime(2026, 12, 7, 12, tzinfo=UTC)
    hours = {"Soon": 1, "Later": 48, "Paused": 2, "Unscheduled": None}
    for name, every in hours.items():
        campaign = create_campaign(data=meeting_doc(), name=name, seed=1)
        join(aussie, campaign, "australian")
        if every is not None:
            set_schedule(campaign=campaign, kind="every_hours", every_hours=every, now=now)
        if name == "Paused":
            Campaign.objects.filter(pk=campaign.pk).update(
                next_deadline=datetime(2026, 12, 7, 20, tzinfo=UTC)  # kept, never comes
            )
            set_paused(campaign=campaign, paused=True, reason="holidays")
    answer = login(aussie).get("/api/campaigns/", {"ordering": ordering}).json()["results"]
    listed = [(row["name"], row["next_deadline"] is None) for row in answer]
    running = [("Soon", False), ("Later", False)]
    if ordering.startswith("-"):
        running.reverse()
    # Those showing none, in the order of their ids (the list's tie-break).
    assert listed == [*running, ("Paused", True), ("Unscheduled", True)]
