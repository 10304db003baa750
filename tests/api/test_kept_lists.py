"""The API lists kept for their reader until the campaign's stamp changes (areas,
companies, turns, adjustments; ``CampaignScoped.respond_kept``), and those kept under the
digest of their rows too (campaigns, orders, battles, commitments;
``CampaignScoped.respond_digested``): a kept list is never stale, never another reader's,
and never answers a reader who lost access."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Battle
from campaign.api.serializers import campaign_data
from campaign.models import Campaign, Membership, SeedCommitment
from campaign.services.adjustments import adjust_stands, set_control
from campaign.services.turns import advance_turn, give_order
from campaign.services.visibility import (
    CAMPAIGN_LIST_SETTINGS,
    campaign_stamp,
    campaigns_digest,
)
from tests.api.helpers import area_id, company_id, url

pytestmark = pytest.mark.django_db


def test_a_played_turn_is_in_every_kept_list_at_once(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    before = {rest: client.get(url(campaign, rest)).json() for rest in ("turns/", "companies/")}
    assert before["turns/"]["count"] == 0
    advance_turn(campaign_id=campaign.pk)
    assert client.get(url(campaign, "turns/")).json()["count"] == 1
    assert client.get(url(campaign, "companies/")).json() != before["companies/"]


def test_a_gm_change_is_in_the_kept_lists_at_once(
    campaign: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    client = login(aussie)
    oivi = campaign.areas.get(name="Oivi")

    def controller() -> Any:
        areas = client.get(url(campaign, "areas/?page_size=100")).json()["results"]
        return next(a["controller"] for a in areas if a["name"] == "Oivi")

    assert controller() == "japanese"
    assert client.get(url(campaign, "adjustments/")).json()["count"] == 0
    set_control(area=oivi, side="australian", reason="a test", user=gm_user)
    assert controller() == "australian"
    assert client.get(url(campaign, "adjustments/")).json()["count"] == 1
    a_company = campaign.companies.get(name="A Company")
    adjust_stands(company=a_company, unit_type="rifle_squad", held=3, reason="a test", user=gm_user)
    rows = client.get(url(campaign, "companies/?page_size=100")).json()["results"]
    mine = next(row for row in rows if row["name"] == "A Company")
    assert mine["stands"]["rifle_squad"] == 3


def test_a_kept_list_is_its_readers_only(
    campaign: Campaign, aussie: Any, japanese: Any, gm_user: Any, login: Any
) -> None:
    path = url(campaign, "companies/?page_size=100")
    names = {
        who: {row["name"] for row in login(user).get(path).json()["results"]}
        for who, user in (("aussie", aussie), ("japanese", japanese), ("gm", gm_user))
    }
    assert "A Company" in names["aussie"] and "A Company" not in names["japanese"]
    assert "1st Company" in names["japanese"] and "1st Company" not in names["aussie"]
    assert {"A Company", "1st Company"} <= names["gm"]
    # Asked again, in the other order: each still gets their own.
    assert {r["name"] for r in login(japanese).get(path).json()["results"]} == names["japanese"]
    assert {r["name"] for r in login(aussie).get(path).json()["results"]} == names["aussie"]


def test_a_reader_who_lost_access_is_not_answered_from_the_cache(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    assert client.get(url(campaign, "areas/")).status_code == 200
    Membership.objects.filter(user=aussie, campaign=campaign).delete()
    assert client.get(url(campaign, "areas/")).status_code == 404


def test_lists_read_afresh_see_a_change_the_stamp_does_not(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The orders list reads its rows each time; only the opened campaign is kept."""
    client = login(aussie)
    assert client.get(url(campaign, "orders/")).json()["count"] == 0
    give_order(
        company=campaign.companies.get(name="A Company"),
        kind="hold",
        target=None,
        side="australian",
    )
    assert client.get(url(campaign, "orders/")).json()["count"] == 1


def test_the_kept_campaign_is_one_sides_only(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    battles = {
        side: login(user).get(url(played, "battles/?page_size=100")).json()
        for side, user in (("australian", aussie), ("japanese", japanese))
    }
    for side, answer in battles.items():
        assert answer["count"] > 0, "the played campaign has battles of both sides"
        for battle in answer["results"]:
            assert side in (battle["attacker_side"], battle["defender_side"]), battle
    mine = login(aussie).get(url(played, "battles/?page_size=100")).json()
    assert mine == battles["australian"]


def test_a_writers_order_is_in_their_next_answer_at_once(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """Given, changed, withdrawn and given again: each answer of the list follows the last
    write, also where the rows go back to what an earlier answer was kept under."""
    client = login(aussie)
    orders = url(played, "orders/")

    def listed() -> list[tuple[str, str | None]]:
        rows = client.get(orders).json()["results"]
        return [(row["kind"], (row["target"] or {}).get("name")) for row in rows]

    assert listed() == []
    body = {"company": company_id(played, "C Company (militia)"), "kind": "hold"}
    given = client.post(orders, body, "application/json").json()
    assert listed() == [("hold", None)]
    change = {"kind": "withdraw", "target": area_id(played, "Ioro")}
    client.patch(url(played, f"orders/{given['id']}/"), change, "application/json")
    assert listed() == [("withdraw", "Ioro")]
    client.delete(url(played, f"orders/{given['id']}/"))
    assert listed() == []
    client.post(orders, body, "application/json")
    assert listed() == [("hold", None)]


def test_the_enemys_orders_are_not_in_a_sides_digest(played: Campaign, aussie: Any) -> None:
    """An enemy's order leaves the side's kept list (and its digest) as it was: the key of
    the side's answer holds only what the side may see."""
    before = campaign_stamp(user=aussie, campaign_id=played.pk, rows="orders")
    give_order(company=played.companies.get(name="1st Company"), kind="hold", side="japanese")
    assert campaign_stamp(user=aussie, campaign_id=played.pk, rows="orders") == before
    give_order(company=played.companies.get(name="A Company"), kind="hold", side="australian")
    assert campaign_stamp(user=aussie, campaign_id=played.pk, rows="orders") != before


def test_any_write_to_a_battle_or_a_commitment_is_in_the_next_answer(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """The digest reads the rows, so even a write that bypasses the services (a plain
    update, as a data migration or the shell would make) is answered at once."""
    client = login(aussie)
    battles = url(played, "battles/?page_size=100")
    first = client.get(battles).json()["results"][0]
    Battle.objects.filter(pk=first["id"]).update(result={"winner": "draw"})
    again = client.get(battles).json()["results"][0]
    assert (first["winner"] != "draw", again["winner"]) == (True, "draw")
    commitments = url(played, "commitments/")
    assert client.get(commitments).json()["results"][-1]["seed_changes"] == 0
    SeedCommitment.objects.filter(campaign=played, number=played.turn + 1).update(changes=2)
    assert client.get(commitments).json()["results"][-1]["seed_changes"] == 2


def test_the_campaign_list_follows_any_change_at_once(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    assert [row["name"] for row in client.get("/api/campaigns/").json()["results"]] == [
        "Korona played"
    ]
    Campaign.objects.filter(pk=played.pk).update(name="Korona renamed")  # updated_at unchanged
    assert [row["name"] for row in client.get("/api/campaigns/").json()["results"]] == [
        "Korona renamed"
    ]
    Membership.objects.filter(user=aussie, campaign=played).update(side="japanese")
    assert client.get("/api/campaigns/").json()["results"][0]["side"] == "japanese"
    Membership.objects.filter(user=aussie, campaign=played).delete()
    assert client.get("/api/campaigns/").json()["count"] == 0


def test_a_spectator_without_the_fog_sees_a_battle_change_at_once(
    played: Campaign, login: Any, django_user_model: Any
) -> None:
    """Without the fog of war a spectator reads every battle, none of them its side's:
    the battles' digest holds them all."""
    Campaign.objects.filter(pk=played.pk).update(settings={**played.settings, "fog_of_war": False})
    watcher = django_user_model.objects.create_user("watcher", password="x")
    Membership.objects.create(user=watcher, campaign=played, side="spectator")
    client = login(watcher)
    battles = url(played, "battles/?page_size=100")
    first = client.get(battles).json()["results"]
    assert first, "the spectator reads the played campaign's battles"
    Battle.objects.filter(pk=first[0]["id"]).update(result={"winner": "draw"})
    assert client.get(battles).json()["results"][0]["winner"] == "draw"


def test_a_renamed_giver_or_target_is_in_the_orders_list_at_once(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """The names an order shows (its company's, its target's, its giver's) are in the
    digest too: a rename (the admin, a plain update) is answered at once."""
    client = login(aussie)
    body = {"company": company_id(played, "C Company (militia)"), "kind": "withdraw"}
    client.post(
        url(played, "orders/"), {**body, "target": area_id(played, "Ioro")}, "application/json"
    )
    first = client.get(url(played, "orders/")).json()["results"][0]
    assert (first["given_by"], first["target"]["name"]) == ("aussie", "Ioro")
    type(aussie).objects.filter(pk=aussie.pk).update(username="digger")
    played.areas.filter(name="Ioro").update(name="Ioro Creek")
    row = client.get(url(played, "orders/")).json()["results"][0]
    assert (row["given_by"], row["target"]["name"]) == ("digger", "Ioro Creek")


def test_the_campaign_list_follows_why_a_campaign_ended_at_once(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """``end_causes`` and ``why`` are in the kept campaign list's digest: filled in by
    ``backfill_end_causes`` (a write that moves nothing else the list shows), or worded
    with a side renamed, the next answer says so."""
    from campaign.models import Side

    Campaign.objects.filter(pk=played.pk).update(
        status="finished", winner="japanese", end_reason="Korona held"
    )
    client = login(aussie)

    def why() -> str:
        return client.get("/api/campaigns/").json()["results"][0]["why"]

    assert why() == "Why it ended: Korona held."
    causes = [{"kind": "no_fighting_companies", "side": "australian", "area": None, "turns": None}]
    Campaign.objects.filter(pk=played.pk).update(end_causes=causes)
    assert why() == "They held Korona when the Australians had no fighting companies left."
    Side.objects.filter(campaign=played, key="australian").update(name="Diggers")
    assert why() == "They held Korona when the Diggers had no fighting companies left."


def test_the_campaign_list_follows_each_setting_it_shows_at_once(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """Its digest reads the settings the list shows, each out of the JSON: a plain update
    of any of them is in the next answer."""
    client = login(aussie)

    def shown() -> dict[str, Any]:
        row = client.get("/api/campaigns/").json()["results"][0]
        return {key: row[key] for key in ("fog_of_war", "turn_limit", "battle_mode", "ruleset")}

    first = shown()
    changes = {
        "fog_of_war": not first["fog_of_war"],
        "turn_limit": first["turn_limit"] + 5,
        "battle_mode": "tabletop" if first["battle_mode"] != "tabletop" else "auto",
        "ruleset": "force_on_force" if first["ruleset"] != "force_on_force" else "korona",
    }
    for key, value in changes.items():
        settings = Campaign.objects.get(pk=played.pk).settings
        Campaign.objects.filter(pk=played.pk).update(settings={**settings, key: value})
        assert shown()[key] == value, key


def test_the_campaign_digest_reads_no_setting_the_list_does_not_show(
    played: Campaign, aussie: Any
) -> None:
    """The event tables (some 3.5 KB a campaign, more as the GM edits them) are not in
    it: the database no longer writes out every campaign's settings whole on every
    request, and an edit of a setting the list does not show keeps its answer."""
    before = campaigns_digest(aussie)
    settings = dict(played.settings)
    table = dict(settings["combat_event_table"])
    face = next(iter(table))
    table[face] = {**table[face], "text": "Xyzzy: the rain comes down " * 20}
    Campaign.objects.filter(pk=played.pk).update(settings={**settings, "combat_event_table": table})
    after = campaigns_digest(aussie)
    assert "Xyzzy" not in after and "rain" not in before
    assert after == before
    assert len(after) < 1000


def test_the_campaign_list_shows_only_the_settings_its_digest_reads(
    played: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every setting the list reads (its own fields, and the objective in why a finished
    campaign ended) is one its digest reads, or a change to it would be answered stale."""
    read: set[str] = set()

    class Reading:
        def __init__(self, settings: Any) -> None:
            self._settings = settings

        def __getattr__(self, name: str) -> Any:
            read.add(name)
            return getattr(self._settings, name)

    real = Campaign.get_settings
    monkeypatch.setattr(Campaign, "get_settings", lambda self: Reading(real(self)))
    Campaign.objects.filter(pk=played.pk).update(
        status="finished",
        winner="japanese",
        end_causes=[{"kind": "turn_limit", "side": None, "area": None, "turns": 2}],
    )
    campaign = Campaign.objects.get(pk=played.pk)
    data = campaign_data(
        campaign, side="australian", game_master=False, names={"japanese": "Japanese"}
    )
    assert "held" in data["why"]
    assert read and read <= set(CAMPAIGN_LIST_SETTINGS)
