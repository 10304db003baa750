"""An order write through the API reads the coming turn's order, then writes under the
campaign lock: a turn played in between (a scheduler worker) is refused with 409 in the
API's words, and nothing changes, not the order of the turn now coming, which the
client never read."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIRequestFactory

from campaign.api import views
from campaign.api.errors import exception_handler
from campaign.models import Campaign, Company, Order
from campaign.services.turns import OrdersOutOfDate, advance_turn, give_order
from tests.api.helpers import area_id, company_id, url

pytestmark = pytest.mark.django_db
JSON = "application/json"
COMPANY = "C Company (militia)"


def orders(campaign: Campaign) -> list[tuple[int, str, str | None]]:
    rows = Order.objects.filter(campaign=campaign, company__name=COMPANY)
    return sorted(rows.values_list("turn_number", "kind", "target__name"))


def play_a_turn_first(
    monkeypatch: pytest.MonkeyPatch, service: str, play: Callable[[], None]
) -> None:
    """The view's call of the service (``give_order``, ``withdraw_order``) comes after
    ``play``: as if a worker played the turn between the view's read and the write."""
    real = getattr(views, service)

    def late(**kwargs: Any) -> Any:
        play()
        return real(**kwargs)

    monkeypatch.setattr(views, service, late)


def played_with_a_new_order(campaign: Campaign) -> Callable[[], None]:
    """Play the coming turn, and give the company an order for the next one (as a
    teammate on the orders page would): what a write that landed there would change."""

    def play() -> None:
        advance_turn(campaign_id=campaign.pk)
        company = Company.objects.get(campaign=campaign, name=COMPANY)
        give_order(company=company, kind="hold", side="australian")

    return play


def give_withdraw_to_ioro(client: Any, campaign: Campaign) -> str:
    """Order the company to withdraw to Ioro for the coming turn: the order's address."""
    ioro = area_id(campaign, "Ioro")
    given = {"company": company_id(campaign, COMPANY), "kind": "withdraw", "target": ioro}
    answer = client.post(url(campaign, "orders/"), given, JSON)
    assert answer.status_code == 201, answer.content
    return url(campaign, f"orders/{answer.json()['id']}/")


WRITES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("post", "give_order", {"kind": "hold", "target": None}),
    ("put", "give_order", {"kind": "hold", "sniper": True}),
    ("patch", "give_order", {"kind": "hold"}),
    ("delete", "withdraw_order", None),
]


@pytest.mark.parametrize(("method", "service", "body"), WRITES)
@pytest.mark.parametrize("if_match", [None, '"withdraw:{ioro}.0"'])
def test_a_turn_played_between_the_read_and_the_write_is_refused_and_changes_nothing(
    played: Campaign,
    aussie: Any,
    login: Any,
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    service: str,
    body: dict[str, Any] | None,
    if_match: str | None,
) -> None:
    client = login(aussie)
    ioro = area_id(played, "Ioro")
    given = {"company": company_id(played, COMPANY), "kind": "withdraw", "target": ioro}
    answer = client.post(url(played, "orders/"), given, JSON)
    assert answer.status_code == 201, answer.content
    coming = played.turn + 1
    play_a_turn_first(monkeypatch, service, played_with_a_new_order(played))
    extra = {} if if_match is None else {"HTTP_IF_MATCH": if_match.format(ioro=ioro)}
    if method == "post":
        sent = client.post(url(played, "orders/"), {**given, **(body or {})}, JSON, **extra)
    else:
        order_url = url(played, f"orders/{answer.json()['id']}/")
        sent = getattr(client, method)(order_url, body, JSON, **extra)
    assert sent.status_code == 409, sent.content
    detail = sent.json()["detail"]
    assert detail == (
        f"this request read the orders of turn {coming}, and turn {coming} has been played "
        f"since: orders now go to turn {coming + 1}. Nothing was changed: look again and "
        "choose."
    )
    assert sent.json()["problems"] == [{"path": "", "message": detail, "code": "message"}]
    assert "page" not in detail
    # The order of the turn played stays as it was played; the next turn's, as given.
    assert orders(played) == [(coming, "withdraw", "Ioro"), (coming + 1, "hold", None)]


def test_a_write_with_no_turn_played_meanwhile_is_taken(
    played: Campaign, aussie: Any, login: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check refuses only a turn that moved: the same write, with nothing played
    between its read and its write, is made on the turn it read."""
    client = login(aussie)
    order_url = give_withdraw_to_ioro(client, played)
    play_a_turn_first(monkeypatch, "give_order", lambda: None)
    assert client.patch(order_url, {"kind": "hold"}, JSON).status_code == 200
    assert orders(played) == [(played.turn + 1, "hold", None)]


def test_a_campaign_rolled_back_between_the_read_and_the_write_says_so() -> None:
    """The API's words for a coming turn that went back (the game master's rollback)."""
    request = APIRequestFactory().delete("/")
    answer = exception_handler(OrdersOutOfDate(page_turn=4, next_turn=3), {"request": request})
    assert answer is not None
    assert answer.status_code == 409
    assert answer.data["detail"] == (
        "this request read the orders of turn 4, but the coming turn is turn 3 (the game "
        "master rolled the campaign back): orders now go to turn 3. Nothing was changed: "
        "look again and choose."
    )


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite has no row locks, and its test database is one "
    "in-memory connection that threads cannot share",
)
@pytest.mark.django_db(transaction=True)
def test_a_turn_played_by_another_connection_between_the_read_and_the_write_is_refused(
    played: Campaign, aussie: Any, login: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request reads in its thread and waits; a worker's connection plays the turn
    and commits; the request's write, under the campaign lock, finds the turn moved."""
    client = login(aussie)
    order_url = give_withdraw_to_ioro(client, played)
    read, turn_played = threading.Event(), threading.Event()

    def wait_for_the_turn() -> None:
        read.set()
        assert turn_played.wait(timeout=60), "the turn was never played"

    play_a_turn_first(monkeypatch, "give_order", wait_for_the_turn)
    answers: list[Any] = []
    errors: list[BaseException] = []

    def patch() -> None:
        try:
            answers.append(client.patch(order_url, {"kind": "hold"}, JSON))
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connection.close()  # this thread's own connection

    def worker() -> None:
        try:
            assert read.wait(timeout=60), "the request never read"
            advance_turn(campaign_id=played.pk)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            turn_played.set()
            connection.close()

    threads = [threading.Thread(target=patch), threading.Thread(target=worker)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a caller never finished"
    assert errors == []
    [answer] = answers
    assert answer.status_code == 409, answer.content
    coming = played.turn + 1
    assert f"orders now go to turn {coming + 1}" in answer.json()["detail"]
    assert orders(played) == [(coming, "withdraw", "Ioro")]


def test_a_ready_sent_as_a_turn_is_played_is_refused_and_marks_no_later_turn(
    played: Campaign, aussie: Any, login: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """POST ready/ reads the coming turn, then marks under the lock: a turn played in
    between is refused with 409, as an order is, and the turn now coming is not marked
    ready for a client that never read it."""
    from campaign.models import SideReady

    client = login(aussie)
    coming = played.turn + 1
    play_a_turn_first(monkeypatch, "mark_side_ready", played_with_a_new_order(played))
    sent = client.post(url(played, "ready/"), {}, JSON)
    assert sent.status_code == 409, sent.content
    assert sent.json()["detail"].startswith(f"this request read the orders of turn {coming}")
    assert not SideReady.objects.filter(campaign=played).exists()


# --- an order that names its turn -------------------------------------------------------------


@pytest.mark.parametrize("field", ["turn_number", "turn"])
def test_an_order_naming_a_turn_already_played_is_refused_and_changes_nothing(
    played: Campaign, aussie: Any, login: Any, field: str
) -> None:
    """The walk-through posted ``"turn": 3`` when turn 11 was coming, and the order was
    taken for turn 11 without a word; the orders page refuses a form drawn for a turn
    since played. So does the API now, with 409, and nothing changes."""
    client = login(aussie)
    order_url = give_withdraw_to_ioro(client, played)
    coming = played.turn + 1
    before = orders(played)
    given = {"company": company_id(played, COMPANY), "kind": "hold", field: coming - 1}
    sent = client.post(url(played, "orders/"), given, JSON)
    assert sent.status_code == 409, sent.content
    detail = sent.json()["detail"]
    assert detail == (
        f"turn_number: This order is for turn {coming - 1}, but turn {coming - 1} has been "
        f"played: orders now go to turn {coming}. Nothing was changed: send it for turn "
        f"{coming} if you still want it."
    )
    assert sent.json()["problems"][0]["path"] == "turn_number"
    for method in ("put", "patch"):
        changed = getattr(client, method)(order_url, {"kind": "hold", field: coming + 1}, JSON)
        assert changed.status_code == 409, changed.content
        assert f"turn {coming + 1} is not open for orders yet" in changed.json()["detail"]
    assert orders(played) == before == [(coming, "withdraw", "Ioro")]


def test_an_order_with_a_bad_kind_for_a_turn_played_hears_of_the_turn_first(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """The API answered "\"charge\" is not a valid choice." (400) to an order of a turn
    since played, where the orders page and an unknown target say first that the turn
    has been played (409): fixing the kind would only have met the 409 next."""
    client = login(aussie)
    order_url = give_withdraw_to_ioro(client, played)
    coming = played.turn + 1
    before = orders(played)
    given = {"company": company_id(played, COMPANY), "kind": "charge", "turn_number": coming - 1}
    sent = client.post(url(played, "orders/"), given, JSON)
    assert sent.status_code == 409, sent.content
    assert f"This order is for turn {coming - 1}, but" in sent.json()["detail"]
    for method in ("put", "patch"):
        changed = getattr(client, method)(order_url, {"kind": "charge", "turn": coming - 1}, JSON)
        assert changed.status_code == 409, changed.content
        assert f"turn {coming - 1} has been played" in changed.json()["detail"]
    # A bad kind for the coming turn is still a bad request.
    given["turn_number"] = coming
    sent = client.post(url(played, "orders/"), given, JSON)
    assert sent.status_code == 400, sent.content
    assert "not a valid choice" in str(sent.json())
    assert orders(played) == before


def test_an_order_naming_the_coming_turn_is_taken(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    order_url = give_withdraw_to_ioro(client, played)
    coming = played.turn + 1
    both = {"kind": "hold", "turn": coming, "turn_number": coming}
    assert client.patch(order_url, both, JSON).status_code == 200
    assert orders(played) == [(coming, "hold", None)]


def test_an_order_naming_two_turns_is_a_bad_request(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    coming = played.turn + 1
    given = {"company": company_id(played, COMPANY), "kind": "hold"}
    sent = client.post(url(played, "orders/"), {**given, "turn": coming, "turn_number": 1}, JSON)
    assert sent.status_code == 400, sent.content
    assert sent.json() == {"turn": [f"turn {coming} and turn_number 1 differ: give one turn"]}
    assert orders(played) == []
