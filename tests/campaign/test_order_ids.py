"""An order's id is its company's and its turn's (``campaign.models.order_id``), never
the next number of a sequence both sides share: a side's own orders must not count,
by their ids, the orders the enemy gave in between (rulings section 6)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from campaign.models import ORDER_TURN_SPAN, Order, order_id
from campaign.services.turns import give_order
from rules.campaign.scenario import MAX_TURNS
from tests.admin.conftest import new_campaign

pytestmark = pytest.mark.django_db


def test_an_order_id_is_its_company_and_turn() -> None:
    campaign = new_campaign()
    a = campaign.companies.get(name="A Company")
    order = give_order(company=a, kind="hold", side="australian")
    assert order.pk == a.pk * ORDER_TURN_SPAN + 1 == order_id(a.pk, 1)
    # Changed, it keeps its id; taken back and given again, it has the same one.
    again = give_order(company=a, kind="hold", side="australian")
    assert again.pk == order.pk


def test_the_enemys_orders_do_not_shift_a_sides_order_ids() -> None:
    ids = []
    for enemy_orders in (0, 3):
        campaign = new_campaign(f"twin {enemy_orders}")
        for company in campaign.companies.filter(side="japanese")[:enemy_orders]:
            give_order(company=company, kind="hold", side="japanese")
        a = campaign.companies.get(name="A Company")
        order = give_order(company=a, kind="hold", side="australian")
        ids.append(order.pk - a.pk * ORDER_TURN_SPAN)
    assert ids == [1, 1]


def test_every_turn_of_a_campaign_fits_an_order_id() -> None:
    assert MAX_TURNS + 1 < ORDER_TURN_SPAN
    with pytest.raises(ValueError, match="out of an order's range"):
        order_id(1, ORDER_TURN_SPAN)


def test_the_migration_renumbers_orders_kept_with_sequence_ids() -> None:
    campaign = new_campaign()
    companies = list(campaign.companies.order_by("pk")[:3])
    # As before: ids 1, 2, 3 from the shared sequence (and one already in the new range).
    Order.objects.bulk_create(
        [
            Order(id=n + 1, campaign=campaign, company=c, turn_number=1, kind="hold")
            for n, c in enumerate(companies[:2])
        ]
        + [
            Order(
                id=order_id(companies[0].pk, 2),
                campaign=campaign,
                company=companies[2],
                turn_number=2,
                kind="hold",
            )
        ]
    )
    migration = importlib.import_module("campaign.migrations.0009_order_ids")
    migration.renumber(apps, None)
    assert sorted(Order.objects.values_list("id", "company_id", "turn_number")) == sorted(
        (order_id(c, t), c, t)
        for c, t in ((companies[0].pk, 1), (companies[1].pk, 1), (companies[2].pk, 2))
    )
