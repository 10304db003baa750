"""Orders through the API: given, replaced, changed and withdrawn by the turn service, with
its refusals as 400s; another side's companies are refused before the service is asked."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, Order
from tests.api.helpers import area_id, company_id, url

pytestmark = pytest.mark.django_db
JSON = "application/json"


def give(client: Any, played: Campaign, company: str, kind: str, target: str | None) -> Any:
    body: dict[str, Any] = {"company": company_id(played, company), "kind": kind}
    if target is not None:
        body["target"] = area_id(played, target)
    return client.post(url(played, "orders/"), body, JSON)


def test_player_gives_their_company_an_order_for_the_coming_turn(
    played: Campaign, aussie: Any, login: Any
) -> None:
    response = give(login(aussie), played, "C Company (militia)", "withdraw", "Ioro")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["kind"] == "withdraw"
    assert body["target"]["name"] == "Ioro"
    assert body["turn_number"] == played.turn + 1
    assert body["given_by"] == "aussie"
    order = Order.objects.get()
    assert (order.company.name, order.kind, order.target.name) == (
        "C Company (militia)",
        "withdraw",
        "Ioro",
    )


def test_a_second_order_replaces_the_first(played: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    give(client, played, "C Company (militia)", "withdraw", "Ioro")
    response = give(client, played, "C Company (militia)", "hold", None)
    assert response.status_code == 200
    assert list(Order.objects.values_list("kind", "target")) == [("hold", None)]


def test_order_for_a_glimpsed_enemy_is_unknown_by_its_id_and_changes_nothing(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """A glimpse has no id (section 6: "without name"): its company's real id is as
    unknown as one out of sight, or the answer would tell which company the glimpse is."""
    response = give(login(aussie), played, "2nd Company", "hold", None)
    assert response.status_code == 400
    assert list(response.json()) == ["company"]
    assert "2nd Company" not in response.content.decode()
    assert not Order.objects.exists()


def test_order_for_an_enemy_seen_in_full_is_forbidden(
    played: Campaign, aussie: Any, login: Any
) -> None:
    campaign = Campaign.objects.get(pk=played.pk)
    settings = dict(campaign.settings or {})
    campaign.settings = {**settings, "fog_of_war": False}
    campaign.save(update_fields=["settings"])
    response = give(login(aussie), played, "2nd Company", "hold", None)
    assert response.status_code == 403
    assert "2nd Company belongs to the other side" in response.json()["detail"]
    assert not Order.objects.exists()


def test_order_for_a_hidden_enemy_is_as_unknown_as_a_company_that_does_not_exist(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    hidden = give(client, played, "3rd Company", "hold", None)
    missing = client.post(url(played, "orders/"), {"company": 999999, "kind": "hold"}, JSON)
    assert hidden.status_code == missing.status_code == 400
    assert list(hidden.json()) == list(missing.json()) == ["company"]
    assert "3rd Company" not in hidden.content.decode()
    assert not Order.objects.exists()


def test_order_the_rules_forbid_is_refused_with_the_reason(
    played: Campaign, aussie: Any, login: Any
) -> None:
    response = give(login(aussie), played, "C Company (militia)", "advance", "Kilu")
    assert response.status_code == 400
    # The one mapping of a refusal (campaign.api.errors): the reason and its problems.
    assert response.json() == {
        "detail": "Kilu is not linked to Isura",
        "problems": [{"path": "", "message": "Kilu is not linked to Isura", "code": "message"}],
    }
    assert not Order.objects.exists()


def test_order_to_an_area_of_another_map_is_refused(
    played: Campaign, aussie: Any, login: Any
) -> None:
    body = {"company": company_id(played, "A Company"), "kind": "advance", "target": 999999}
    response = login(aussie).post(url(played, "orders/"), body, JSON)
    assert response.status_code == 400
    assert "target" in response.json()
    assert not Order.objects.exists()


def test_unreadable_order_is_refused_field_by_field(
    played: Campaign, aussie: Any, login: Any
) -> None:
    response = login(aussie).post(url(played, "orders/"), {"kind": "charge"}, JSON)
    assert response.status_code == 400
    assert set(response.json()) == {"company", "kind"}


def test_patch_changes_the_target_and_hold_drops_it(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    order_id = give(client, played, "C Company (militia)", "withdraw", "Ioro").json()["id"]
    response = client.patch(url(played, f"orders/{order_id}/"), {"kind": "hold"}, JSON)
    assert response.status_code == 200
    assert response.json()["target"] is None
    assert Order.objects.get().kind == "hold"


def test_put_refused_by_the_rules_keeps_the_order(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    order_id = give(client, played, "C Company (militia)", "withdraw", "Ioro").json()["id"]
    body = {"kind": "advance", "target": area_id(played, "Port Murray")}
    response = client.put(url(played, f"orders/{order_id}/"), body, JSON)
    assert response.status_code == 400
    assert "Port Murray" in response.json()["detail"]
    order = Order.objects.get()
    assert (order.kind, order.target.name) == ("withdraw", "Ioro")


def test_delete_withdraws_the_order(played: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    order_id = give(client, played, "C Company (militia)", "withdraw", "Ioro").json()["id"]
    assert client.delete(url(played, f"orders/{order_id}/")).status_code == 204
    assert not Order.objects.exists()
    assert client.get(url(played, f"orders/{order_id}/")).status_code == 404


def test_gm_orders_any_company_and_sees_every_sides_orders(
    played: Campaign, gm_user: Any, aussie: Any, login: Any
) -> None:
    gm = login(gm_user)
    assert give(gm, played, "1st Company", "withdraw", "Kilu").status_code == 201
    assert give(login(aussie), played, "C Company (militia)", "hold", None).status_code == 201
    rows = gm.get(url(played, "orders/")).json()["results"]
    assert sorted(row["company"]["name"] for row in rows) == ["1st Company", "C Company (militia)"]
    only_japanese = gm.get(url(played, "orders/?side=japanese")).json()["results"]
    assert [row["company"]["name"] for row in only_japanese] == ["1st Company"]


def test_no_orders_once_the_campaign_has_ended(played: Campaign, aussie: Any, login: Any) -> None:
    Campaign.objects.filter(pk=played.pk).update(
        status="finished", winner="australian", end_reason="test"
    )
    response = give(login(aussie), played, "C Company (militia)", "hold", None)
    assert response.status_code == 400
    assert "ended" in response.json()["detail"]
    assert not Order.objects.exists()


# --- If-Match: what the client saw of the company's order ------------------------------------


def test_if_match_refuses_an_order_when_the_company_has_another_now(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """The orders page's ``seen``, as a precondition: ``If-Match: "-"`` (no order seen),
    or the order's kind, target and sniper ("withdraw:12.0"). Another order now: 412 and
    nothing changes; the message names the order now."""
    client = login(aussie)
    ioro = area_id(played, "Ioro")
    body = {"company": company_id(played, "C Company (militia)"), "kind": "withdraw"}
    first = client.post(url(played, "orders/"), {**body, "target": ioro}, JSON, HTTP_IF_MATCH='"-"')
    assert first.status_code == 201
    again = client.post(
        url(played, "orders/"),
        {**body, "kind": "hold"},
        JSON,
        HTTP_IF_MATCH='"-"',
    )
    assert again.status_code == 412
    assert again.json()["detail"] == (
        "C Company (militia)'s order was changed meanwhile (now: withdraw to Ioro). Nothing "
        "was changed: look again and choose."
    )
    order_url = url(played, f"orders/{first.json()['id']}/")
    assert (
        client.patch(order_url, {"kind": "hold"}, JSON, HTTP_IF_MATCH='"hold.0"').status_code == 412
    )
    assert client.delete(order_url, HTTP_IF_MATCH="hold.0").status_code == 412
    order = Order.objects.get()
    assert (order.kind, order.target.name) == ("withdraw", "Ioro")
    # As it stands: taken, each time with what the last answer showed.
    seen = f'"withdraw:{ioro}.0"'
    assert client.patch(order_url, {"kind": "hold"}, JSON, HTTP_IF_MATCH=seen).status_code == 200
    assert (
        client.put(order_url, {"kind": "hold"}, JSON, HTTP_IF_MATCH='"hold.0"').status_code == 200
    )
    assert client.delete(order_url, HTTP_IF_MATCH='"hold.0"').status_code == 204
    assert not Order.objects.exists()
    # "*" (any order) and no header at all: as before.
    assert (
        client.post(
            url(played, "orders/"), {**body, "kind": "hold"}, JSON, HTTP_IF_MATCH="*"
        ).status_code
        == 201
    )
