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
