"""Every way the API could leak what the fog of war hides, one test each.

In ``played`` the Australian player sees their four companies in full, the 2nd Company
(Japanese, veteran, in Korona beside Isura) as a glimpse, and nothing of the 1st and 3rd
Companies or the Japanese Supply Company."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, Order
from campaign.services.snapshot import load_snapshot
from tests.api.helpers import area_id, company_id, url

GLIMPSE_KEYS = {
    "id",
    "name",
    "glimpse",
    "side",
    "kind",
    "area",
    "full",
    "strength_band",
    "may_order",
}
HIDDEN = ("1st Company", "3rd Company", "Supply Company")

pytestmark = pytest.mark.django_db


def names(response: Any) -> list[str]:
    return [row["name"] for row in response.json()["results"]]


def test_hidden_company_id_is_not_found(played: Campaign, aussie: Any, login: Any) -> None:
    for name in HIDDEN:
        response = login(aussie).get(url(played, f"companies/{company_id(played, name)}/"))
        assert response.status_code == 404, name
        assert name not in response.content.decode()


def test_hidden_companies_are_neither_listed_nor_counted(
    played: Campaign, aussie: Any, login: Any
) -> None:
    response = login(aussie).get(url(played, "companies/"))
    assert response.json()["count"] == 5
    assert not set(HIDDEN) & set(names(response))


def test_glimpsed_company_is_not_found_by_its_id(played: Campaign, aussie: Any, login: Any) -> None:
    """Its id would tell which company the glimpse is (ids follow the scenario's order)
    and follow it from turn to turn: like a company out of sight, it is not found."""
    response = login(aussie).get(url(played, f"companies/{company_id(played, '2nd Company')}/"))
    assert response.status_code == 404
    assert "2nd Company" not in response.content.decode()


def test_glimpsed_company_detail_by_its_handle_gives_no_name_stands_quality_or_supply(
    played: Campaign, aussie: Any, login: Any
) -> None:
    response = login(aussie).get(url(played, "glimpses/2-1/"))
    assert response.status_code == 200
    body = response.json()
    assert set(body) == GLIMPSE_KEYS
    assert body["full"] is False and body["glimpse"] == "2-1"
    assert body["id"] is None and body["name"] is None
    # The band of the 2nd Company's stands after turn 1 (the rulings' thresholds, here).
    second = load_snapshot(campaign=played).companies["2nd Company"]
    share = sum(second.stands.values()) / sum(second.establishment.values())
    band = "weak" if share < 0.5 else "strong" if share >= 0.85 else "average"
    assert body["area"]["name"] == "Korona" and body["strength_band"] == band
    for word in ("2nd Company", "veteran", "stands", "in_supply", "rifle_squad"):
        assert word not in response.content.decode()
    # A handle of another turn, or no handle at all, is not found.
    for stale in ("1-1", "2-2", "x"):
        assert login(aussie).get(url(played, f"glimpses/{stale}/")).status_code == 404


def test_glimpsed_company_in_the_list_is_a_glimpse_too(
    played: Campaign, aussie: Any, login: Any
) -> None:
    rows = login(aussie).get(url(played, "companies/")).json()["results"]
    (glimpse,) = [row for row in rows if not row["full"]]
    assert set(glimpse) == GLIMPSE_KEYS
    assert glimpse["id"] is None and glimpse["name"] is None and glimpse["glimpse"] == "2-1"
    assert glimpse["may_order"] is False
    assert "2nd Company" not in login(aussie).get(url(played, "companies/")).content.decode()


def test_a_glimpse_is_found_by_no_name_nor_ordered_by_one(
    played: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    client = login(aussie)
    for query in ("name=2nd Company", "name_contains=2nd", "name_contains=Company"):
        rows = client.get(url(played, f"companies/?{query}")).json()["results"]
        assert all(row["full"] for row in rows), query
    assert login(gm_user).get(url(played, "companies/?name=2nd Company")).json()["count"] == 1
    for ordering in ("name", "-name", "id", "-id"):
        rows = client.get(url(played, f"companies/?ordering={ordering}")).json()["results"]
        full = [row[ordering.lstrip("-")] for row in rows if row["full"]]
        assert full == sorted(full, reverse=ordering.startswith("-")), ordering
        # The glimpse first (last with "-"): never placed by its name or id.
        assert rows[-1 if ordering.startswith("-") else 0]["full"] is False, ordering


def test_filter_on_quality_never_matches_a_glimpsed_enemy(
    played: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    # The 2nd Company is veteran: the GM finds it, the Australian player does not.
    assert "2nd Company" in names(login(gm_user).get(url(played, "companies/?quality=veteran")))
    response = login(aussie).get(url(played, "companies/?quality=veteran"))
    assert response.json()["count"] == 0


def test_filter_on_supply_and_standing_order_keeps_only_companies_seen_in_full(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    for query in ("in_supply=true", "in_supply=false", "standing_order=hold"):
        rows = client.get(url(played, f"companies/?{query}")).json()["results"]
        assert rows, query
        assert all(row["full"] and row["side"] == "australian" for row in rows), query


def test_filter_on_a_hidden_company_name_finds_nothing(
    played: Campaign, aussie: Any, login: Any
) -> None:
    response = login(aussie).get(url(played, "companies/?name=1st Company"))
    assert response.json() == {"count": 0, "next": None, "previous": None, "results": []}
    response = login(aussie).get(url(played, "companies/?side=japanese"))
    assert [row["glimpse"] for row in response.json()["results"]] == ["2-1"]


def test_filter_on_the_area_of_hidden_companies_finds_nothing(
    played: Campaign, aussie: Any, login: Any
) -> None:
    kilu = area_id(played, "Kilu")  # the 3rd Company and the Supply Company are there
    assert login(aussie).get(url(played, f"companies/?area={kilu}")).json()["count"] == 0


@pytest.mark.parametrize("field", ["quality", "stands", "strength", "in_supply", "-strength"])
def test_ordering_on_hidden_fields_is_not_offered(
    played: Campaign, aussie: Any, login: Any, field: str
) -> None:
    client = login(aussie)
    default = names(client.get(url(played, "companies/")))
    assert names(client.get(url(played, f"companies/?ordering={field}"))) == default


def test_enemy_orders_are_not_listed(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    order = _japanese_order(played, japanese, login)
    assert order.pk not in [row["id"] for row in _orders(login(aussie), played)]
    assert [row["id"] for row in _orders(login(japanese), played)] == [order.pk]


def test_enemy_order_by_id_is_not_found(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    order = _japanese_order(played, japanese, login)
    response = login(aussie).get(url(played, f"orders/{order.pk}/"))
    assert response.status_code == 404
    assert "1st Company" not in response.content.decode()


def test_enemy_order_cannot_be_changed(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    order = _japanese_order(played, japanese, login)
    client = login(aussie)
    body = {"kind": "hold"}
    assert (
        client.put(url(played, f"orders/{order.pk}/"), body, "application/json").status_code == 404
    )
    assert (
        client.patch(url(played, f"orders/{order.pk}/"), body, "application/json").status_code
        == 404
    )
    order.refresh_from_db()
    assert order.kind == "withdraw"


def test_enemy_order_cannot_be_withdrawn(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    order = _japanese_order(played, japanese, login)
    assert login(aussie).delete(url(played, f"orders/{order.pk}/")).status_code == 404
    assert Order.objects.filter(pk=order.pk).exists()


def test_enemy_supply_rolls_are_left_out_of_a_turn(
    played: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    def supply_sides(user: Any) -> set[str]:
        records = login(user).get(url(played, "turns/1/")).json()["records"]
        return {r["side"] for r in records if r["phase"] == "supply"}

    assert supply_sides(gm_user) == {"australian", "japanese"}
    assert supply_sides(aussie) == {"australian"}


def test_a_turn_never_gives_its_start_state_or_report(
    played: Campaign, aussie: Any, login: Any
) -> None:
    body = login(aussie).get(url(played, "turns/2/")).json()
    assert not {"start_state", "report", "report_text", "failure_reason"} & set(body)
    assert "3rd Company" not in str(body)


@pytest.mark.parametrize(
    "rest",
    [
        "",
        "areas/",
        "areas/1/",
        "companies/",
        "companies/1/",
        "turns/",
        "turns/1/",
        "battles/",
        "battles/1/",
        "orders/",
        "orders/1/",
        "ready/",
    ],
)
def test_a_strangers_campaign_is_not_found(
    played: Campaign, outsider: Any, login: Any, rest: str
) -> None:
    response = login(outsider).get(url(played, rest))
    assert response.status_code == 404
    assert played.name not in response.content.decode()


def test_a_stranger_can_neither_order_nor_mark_ready(
    played: Campaign, outsider: Any, login: Any
) -> None:
    client = login(outsider)
    body = {"company": company_id(played, "A Company"), "kind": "hold"}
    assert client.post(url(played, "orders/"), body, "application/json").status_code == 404
    assert client.post(url(played, "ready/"), {}, "application/json").status_code == 404
    assert not Order.objects.exists()


def test_a_strangers_campaign_is_not_in_the_list(
    played: Campaign, campaign: Campaign, outsider: Any, login: Any
) -> None:
    assert login(outsider).get("/api/campaigns/").json()["count"] == 0


@pytest.mark.parametrize(
    "rest", ["", "areas/", "companies/", "companies/1/", "turns/", "battles/", "orders/", "ready/"]
)
def test_anonymous_is_refused(played: Campaign, client: Any, rest: str) -> None:
    response = client.get(url(played, rest))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert client.get("/api/campaigns/").status_code == 401


def _japanese_order(played: Campaign, japanese: Any, login: Any) -> Order:
    body = {
        "company": company_id(played, "1st Company"),
        "kind": "withdraw",
        "target": area_id(played, "Kilu"),
    }
    response = login(japanese).post(url(played, "orders/"), body, "application/json")
    assert response.status_code == 201, response.content
    return Order.objects.get(pk=response.json()["id"])


def _orders(client: Any, played: Campaign) -> list[dict[str, Any]]:
    return client.get(url(played, "orders/")).json()["results"]
