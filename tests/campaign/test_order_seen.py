"""``give_order`` and ``withdraw_order`` with ``seen``, what the page saw of the company's
order: another order now is refused (``OrderChangedMeanwhile``) and nothing changes; the
compare and the write are one, under the campaign lock, so two orders sent at the same
moment from pages that saw the same order do not both pass."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection

from campaign.models import Campaign, Company, Order
from campaign.services import turns as service
from campaign.services.scenarios import create_campaign
from campaign.services.turns import (
    OrderChangedMeanwhile,
    give_order,
    order_seen,
    withdraw_order,
)
from tests.campaign.conftest import korona_doc
from tests.campaign.test_services_scenarios import LOAD_QUERIES

pytestmark = pytest.mark.django_db


def a_company(campaign: Campaign) -> Company:
    return campaign.companies.get(name="A Company")


def orders_of(campaign: Campaign) -> list[tuple[str, str, str | None]]:
    rows = Order.objects.filter(campaign=campaign)
    return list(rows.values_list("company__name", "kind", "target__name"))


def test_what_a_page_saw_reads_the_order_and_its_sniper() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    company = a_company(campaign)
    oivi = campaign.areas.get(name="Oivi")
    assert order_seen(None) == "-"
    order = give_order(company=company, kind="advance", target=oivi)
    assert order_seen(order) == f"advance:{oivi.pk}.0"
    assert order_seen(give_order(company=company, kind="hold", sniper=True)) == "hold.1"


def test_an_order_from_a_page_that_saw_another_changes_nothing() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    company = a_company(campaign)
    oivi, isura = campaign.areas.get(name="Oivi"), campaign.areas.get(name="Isura")
    give_order(company=company, kind="advance", target=oivi, seen="-")
    with pytest.raises(OrderChangedMeanwhile) as refused:
        give_order(company=company, kind="withdraw", target=isura, seen="-")
    assert str(refused.value) == (
        "A Company's order was changed meanwhile (now: advance to Oivi). Nothing was "
        "changed: look again and choose."
    )
    with pytest.raises(OrderChangedMeanwhile):
        withdraw_order(company=company, seen="-")
    assert orders_of(campaign) == [("A Company", "advance", "Oivi")]
    # What the page saw, as it stands: taken.
    assert withdraw_order(company=company, seen=f"advance:{oivi.pk}.0")
    with pytest.raises(OrderChangedMeanwhile, match=r"\(now: no order given\)"):
        give_order(company=company, kind="hold", seen=f"advance:{oivi.pk}.0")
    give_order(company=company, kind="hold", sniper=True, seen="-")
    with pytest.raises(OrderChangedMeanwhile, match=r"\(now: hold in Korona; a sniper if it"):
        give_order(company=company, kind="hold", seen="hold.0")


def test_the_same_order_from_a_page_that_saw_another_is_taken_and_changes_nothing(
    django_user_model: Any,
) -> None:
    """A stale page (another tab, a teammate's order since) sending just the order the
    company has: nothing would change, so it is not refused, and nothing is written
    (its giver stays the first)."""
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    company = a_company(campaign)
    oivi = campaign.areas.get(name="Oivi")
    first, second = (django_user_model.objects.create(username=n) for n in ("first", "second"))
    given = give_order(company=company, kind="advance", target=oivi, sniper=True, user=first)
    again = give_order(
        company=company, kind="advance", target=oivi, sniper=True, user=second, seen="-"
    )
    assert again.pk == given.pk
    order = Order.objects.get()
    assert (order.kind, order.target, order.sniper, order.given_by) == (
        "advance",
        oivi,
        True,
        first,
    )
    # Its sniper is the order too: without it, it is another order, refused.
    with pytest.raises(OrderChangedMeanwhile, match=r"\(now: advance to Oivi; a sniper if it"):
        give_order(company=company, kind="advance", target=oivi, user=second, seen="-")
    assert Order.objects.get().sniper


def test_a_supply_companys_sniper_asked_for_again_is_the_same_order() -> None:
    """A supply company never defends with a sniper: its order asking for one is the
    order it has without one."""
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    supply = campaign.companies.filter(kind=Company.Kind.SUPPLY).first()
    assert supply is not None
    order = give_order(company=supply, kind="hold")
    assert give_order(company=supply, kind="hold", sniper=True, seen="-").pk == order.pk
    assert list(Order.objects.values_list("kind", "sniper")) == [("hold", False)]


def test_taking_back_an_order_already_taken_back_is_taken_and_changes_nothing() -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    company, other = a_company(campaign), campaign.companies.exclude(name="A Company").first()
    assert other is not None
    oivi = campaign.areas.get(name="Oivi")
    give_order(company=other, kind="hold")
    give_order(company=company, kind="advance", target=oivi)
    assert withdraw_order(company=company, seen=f"advance:{oivi.pk}.0")
    # The stale page saw the advance: it is gone already, as that page wants.
    assert withdraw_order(company=company, seen=f"advance:{oivi.pk}.0") is False
    assert orders_of(campaign) == [(other.name, "hold", None)]
    # Gone and given again (another order now): taking it back is refused.
    give_order(company=company, kind="hold")
    with pytest.raises(OrderChangedMeanwhile, match=r"\(now: hold in Korona\)"):
        withdraw_order(company=company, seen=f"advance:{oivi.pk}.0")
    assert len(orders_of(campaign)) == 2


# The queries of an order from a page: the test's savepoint and its release, the campaign
# locked, a turn waiting for its battles (orders closed), the company's order read once
# (the compare, and what the write updates), the snapshot for the rules' check
# (LOAD_QUERIES), and the write: an INSERT, an UPDATE, or none for the same order again.
GIVE_QUERIES = 2 + 1 + 1 + 1 + LOAD_QUERIES + 1


def test_an_order_from_a_page_reads_the_companys_order_once(
    django_assert_num_queries: Any,
) -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    company = Company.objects.get(pk=a_company(campaign).pk)
    oivi, isura = campaign.areas.get(name="Oivi"), campaign.areas.get(name="Isura")
    with django_assert_num_queries(GIVE_QUERIES):
        give_order(company=company, kind="advance", target=oivi, seen="-")
    with django_assert_num_queries(GIVE_QUERIES):
        give_order(company=company, kind="withdraw", target=isura, seen=f"advance:{oivi.pk}.0")
    with django_assert_num_queries(GIVE_QUERIES - 1):  # the same order again: no write
        give_order(company=company, kind="withdraw", target=isura, seen="-")
    # Taking back: locked, closed or not, the order read, and deleted (or already gone).
    with django_assert_num_queries(2 + 1 + 1 + 1 + 1):
        withdraw_order(company=company, seen=f"withdraw:{isura.pk}.0")
    with django_assert_num_queries(2 + 1 + 1 + 1 + 1):
        withdraw_order(company=company, seen=f"withdraw:{isura.pk}.0")
    assert not Order.objects.exists()


def give_in_threads(company: Company, orders: list[tuple[str, Any]]) -> list[BaseException]:
    """``give_order`` from one thread an order (kind, target), released at the same
    moment, each from a page that saw no order."""
    start = threading.Barrier(len(orders))
    errors: list[BaseException] = []

    def give(order: tuple[str, Any]) -> None:
        try:
            start.wait()
            give_order(company=company, kind=order[0], target=order[1], seen="-")
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=give, args=(order,)) for order in orders]
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
def test_two_orders_at_the_same_moment_from_pages_that_saw_none_do_not_both_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    company = a_company(campaign)
    real_load = service.load_snapshot

    def slow_load(**kwargs: Any) -> Any:
        time.sleep(0.3)  # hold the campaign lock while the other caller comes in
        return real_load(**kwargs)

    monkeypatch.setattr(service, "load_snapshot", slow_load)
    oivi, isura = campaign.areas.get(name="Oivi"), campaign.areas.get(name="Isura")
    errors = give_in_threads(company, [("advance", oivi), ("withdraw", isura)])
    monkeypatch.undo()
    # One passed, whichever came first; the other was refused, naming it.
    assert [type(e) for e in errors] == [OrderChangedMeanwhile]
    [(name, kind, target)] = orders_of(campaign)
    assert f"(now: {kind} to {target})" in str(errors[0])


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite has no row locks, and its test database is one "
    "in-memory connection that threads cannot share",
)
@pytest.mark.django_db(transaction=True)
def test_the_same_order_at_the_same_moment_from_two_pages_that_saw_none_is_one_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both are taken (the second finds the order it asks for, under the lock), and the
    company has the one order: no refusal, no second row."""
    campaign = create_campaign(data=korona_doc(), name="Korona", seed=1)
    company = a_company(campaign)
    real_load = service.load_snapshot

    def slow_load(**kwargs: Any) -> Any:
        time.sleep(0.3)  # hold the campaign lock while the other caller comes in
        return real_load(**kwargs)

    monkeypatch.setattr(service, "load_snapshot", slow_load)
    oivi = campaign.areas.get(name="Oivi")
    errors = give_in_threads(company, [("advance", oivi), ("advance", oivi)])
    monkeypatch.undo()
    assert errors == []
    assert orders_of(campaign) == [("A Company", "advance", "Oivi")]
