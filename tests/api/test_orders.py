"""Orders through the API: given, replaced, changed and withdrawn by the turn service, with
its refusals as 400s; another side's companies are refused before the service is asked."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, Company, Order, order_id
from campaign.services.turns import give_order
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
    # In words, naming the id the client sent (the API's own word for an area).
    assert response.json() == {"target": ["there is no area 999999 in this campaign"]}
    assert not Order.objects.exists()


def test_order_to_no_area_for_a_played_turn_says_the_turn_first(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """As the orders page does: that the order is for a turn since played says more than
    that its area is unknown."""
    body = {
        "company": company_id(played, "A Company"),
        "kind": "advance",
        "target": 999999,
        "turn_number": played.turn,
    }
    response = login(aussie).post(url(played, "orders/"), body, JSON)
    assert response.status_code == 409
    assert f"This order is for turn {played.turn}, but" in response.json()["detail"]
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


def test_every_answer_showing_an_order_carries_the_etag_if_match_takes(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """A client echoes each answer's ETag as the next write's If-Match: the order's
    token, quoted; "-" once it is withdrawn."""
    client = login(aussie)
    ioro = area_id(played, "Ioro")
    body = {"company": company_id(played, "C Company (militia)"), "kind": "withdraw"}
    given = client.post(url(played, "orders/"), {**body, "target": ioro}, JSON, HTTP_IF_MATCH='"-"')
    assert (given.status_code, given["ETag"]) == (201, f'"withdraw:{ioro}.0"')
    order_url = url(played, f"orders/{given.json()['id']}/")
    read = client.get(order_url)
    assert read["ETag"] == given["ETag"]
    changed = client.patch(order_url, {"kind": "hold"}, JSON, HTTP_IF_MATCH=read["ETag"])
    assert (changed.status_code, changed["ETag"]) == (200, '"hold.0"')
    put = client.put(
        order_url, {"kind": "hold", "sniper": True}, JSON, HTTP_IF_MATCH=changed["ETag"]
    )
    assert (put.status_code, put["ETag"]) == (200, '"hold.1"')
    replaced = client.post(url(played, "orders/"), {**body, "kind": "hold"}, JSON)
    assert (replaced.status_code, replaced["ETag"]) == (200, '"hold.0"')
    withdrawn = client.delete(order_url, HTTP_IF_MATCH=replaced["ETag"])
    assert (withdrawn.status_code, withdrawn["ETag"]) == (204, '"-"')
    again = client.post(url(played, "orders/"), {**body, "kind": "hold"}, JSON, HTTP_IF_MATCH='"-"')
    assert (again.status_code, again["ETag"]) == (201, '"hold.0"')


def test_the_same_order_sent_with_an_if_match_out_of_date_is_taken_and_changes_nothing(
    played: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    """Nothing would change (RFC 9110 13.1.1: the change is already in effect): the
    answer is the order's, as for any order given, and its giver stays who gave it."""
    client = login(aussie)
    ioro = area_id(played, "Ioro")
    body = {
        "company": company_id(played, "C Company (militia)"),
        "kind": "withdraw",
        "target": ioro,
    }
    first = login(gm_user).post(url(played, "orders/"), body, JSON)
    assert first.status_code == 201
    again = client.post(url(played, "orders/"), body, JSON, HTTP_IF_MATCH='"-"')
    assert (again.status_code, again["ETag"]) == (200, f'"withdraw:{ioro}.0"')
    assert again.json() == first.json()
    order_url = url(played, f"orders/{first.json()['id']}/")
    patched = client.patch(order_url, {"kind": "withdraw"}, JSON, HTTP_IF_MATCH='"hold.1"')
    assert (patched.status_code, patched.json()) == (200, first.json())
    # Another order than the one there now is still refused.
    assert (
        client.patch(order_url, {"kind": "hold"}, JSON, HTTP_IF_MATCH='"hold.1"').status_code == 412
    )
    order = Order.objects.get()
    assert (order.kind, order.target.name, order.given_by) == ("withdraw", "Ioro", gm_user)


def test_withdrawing_with_if_match_an_order_already_withdrawn_is_taken(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    ioro = area_id(played, "Ioro")
    body = {
        "company": company_id(played, "C Company (militia)"),
        "kind": "withdraw",
        "target": ioro,
    }
    order_url = url(
        played, f"orders/{client.post(url(played, 'orders/'), body, JSON).json()['id']}/"
    )
    assert client.delete(order_url).status_code == 204
    # Withdrawn elsewhere meanwhile: a client that saw it withdraws it again, as it wants.
    answer = client.delete(order_url, HTTP_IF_MATCH=f'"withdraw:{ioro}.0"')
    assert (answer.status_code, answer["ETag"]) == (204, '"-"')
    assert not Order.objects.exists()
    # Without If-Match it is simply not there.
    assert client.delete(order_url).status_code == 404
    # Given again as another order: taking that back is refused.
    client.post(url(played, "orders/"), {**body, "kind": "hold", "target": None}, JSON)
    assert client.delete(order_url, HTTP_IF_MATCH=f'"withdraw:{ioro}.0"').status_code == 412
    assert list(Order.objects.values_list("kind", flat=True)) == ["hold"]


def test_withdrawing_with_if_match_an_order_id_not_ones_own_is_not_found(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """An enemy company's order id (with an order or without), or another turn's, is not
    found, as without If-Match: the answer tells nothing of the enemy's orders."""
    client = login(aussie)
    enemy = Company.objects.get(campaign=played, name="3rd Company")
    give_order(company=enemy, kind="hold")
    own = company_id(played, "C Company (militia)")
    for pk in (
        order_id(enemy.pk, played.turn + 1),
        order_id(company_id(played, "1st Company"), played.turn + 1),
        order_id(own, played.turn),
        order_id(own, played.turn + 2),
    ):
        assert client.delete(url(played, f"orders/{pk}/"), HTTP_IF_MATCH='"-"').status_code == 404
    assert list(Order.objects.values_list("company__name", flat=True)) == ["3rd Company"]
