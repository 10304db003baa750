"""Prepared reads (campaign.services.prepared): the rows (or the model instances) the ORM
would give, one query a read, the SQL compiled once."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Area, Campaign, Company, CompanyStands, Order, Turn
from campaign.services import prepared
from campaign.services.prepared import PreparedObjects, PreparedRead
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db


def _areas(campaign_id: int) -> Any:
    # JSON (features) and booleans (plains): columns the ORM converts on SQLite.
    return (
        Area.objects.filter(campaign_id=campaign_id)
        .order_by("id")
        .values_list("name", "features", "plains", "controller", "id")
    )


def test_a_prepared_read_gives_the_rows_the_queryset_gives_for_each_campaign() -> None:
    first = create_campaign(data=korona_doc(), name="First", seed=1)
    second = create_campaign(data=korona_doc(), name="Second", seed=2)
    Area.objects.filter(campaign=second, name="Korona").update(features=["village", "ridge"])
    read = PreparedRead(_areas)
    for campaign in (first, second, first):
        assert read.rows(campaign.pk) == list(_areas(campaign.pk))
    assert ("Korona", ["village", "ridge"]) in [row[:2] for row in read.rows(second.pk)]


def test_a_prepared_read_of_two_arguments_puts_each_in_its_place() -> None:
    campaign = create_campaign(data=korona_doc(), name="Orders", seed=1)
    company = Company.objects.get(campaign=campaign, name="A Company")
    Order.objects.create(campaign=campaign, company=company, turn_number=1, kind="hold")

    def build(campaign_id: int, number: int) -> Any:
        return Order.objects.filter(campaign_id=campaign_id, turn_number=number).values_list(
            "company__name", "kind", "sniper"
        )

    read = PreparedRead(build)
    assert (
        read.rows(campaign.pk, 1) == [("A Company", "hold", False)] == list(build(campaign.pk, 1))
    )
    assert read.rows(campaign.pk, 2) == []


def test_a_prepared_read_is_one_query_and_is_compiled_once(
    monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    campaign = create_campaign(data=korona_doc(), name="Once", seed=1)
    compiled: list[int] = []
    real = prepared._compile

    def counting(queryset: Any, arity: int) -> Any:
        compiled.append(arity)
        return real(queryset, arity)

    monkeypatch.setattr(prepared, "_compile", counting)
    read = PreparedRead(
        lambda campaign_id: CompanyStands.objects.filter(
            company__campaign_id=campaign_id
        ).values_list("unit_type", "held")
    )
    for _ in range(3):
        with django_assert_num_queries(1):
            assert len(read.rows(campaign.pk)) == 26
    assert compiled == [1]


def test_a_read_whose_argument_is_not_a_parameter_is_refused() -> None:
    read = PreparedRead(lambda campaign_id: Area.objects.values_list("name"))
    with pytest.raises(ValueError, match="each argument of a prepared read is one parameter"):
        read.rows(1)


# --- model instances (PreparedObjects) ----------------------------------------------------------


def _turns(turn_id: int) -> Any:
    # A related row (select_related) and deferred columns, as the notices read a turn.
    return (
        Turn.objects.filter(pk=turn_id)
        .select_related("campaign")
        .defer("start_state", "report", "report_text", "orders")[:1]
    )


def test_prepared_objects_are_the_instances_the_queryset_gives() -> None:
    first = create_campaign(data=korona_doc(), name="First", seed=1)
    second = create_campaign(data=korona_doc(), name="Second", seed=2)
    turns = [advance_turn(campaign_id=c.pk).turn for c in (first, second)]
    read = PreparedObjects(_turns)
    for turn in (*turns, turns[0]):
        (made,) = read.objects(turn.pk)
        (expected,) = list(_turns(turn.pk))
        assert type(made) is type(expected) and made.pk == expected.pk
        assert made.get_deferred_fields() == expected.get_deferred_fields() != set()
        fields = [f.attname for f in Turn._meta.concrete_fields]
        kept = [name for name in fields if name not in expected.get_deferred_fields()]
        assert [getattr(made, n) for n in kept] == [getattr(expected, n) for n in kept]
        assert made._state.db == expected._state.db and not made._state.adding
        # The campaign came with the row: no query to read it.
        assert Turn.campaign.is_cached(made)
        columns = [f.attname for f in Campaign._meta.concrete_fields]
        assert [getattr(made.campaign, n) for n in columns] == [
            getattr(expected.campaign, n) for n in columns
        ]
    assert read.objects(10**9) == []


def test_prepared_objects_are_one_query_and_compiled_once(
    monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    campaign = create_campaign(data=korona_doc(), name="Once", seed=1)
    compiled: list[int] = []
    real = prepared._compile

    def counting(queryset: Any, arity: int) -> Any:
        compiled.append(arity)
        return real(queryset, arity)

    monkeypatch.setattr(prepared, "_compile", counting)
    read = PreparedObjects(
        lambda campaign_id: (
            Company.objects.filter(campaign_id=campaign_id).select_related("area").order_by("id")
        )
    )
    for _ in range(3):
        with django_assert_num_queries(1):
            companies = read.objects(campaign.pk)
        assert [c.name for c in companies] == [
            c.name for c in Company.objects.filter(campaign=campaign).order_by("id")
        ]
        with django_assert_num_queries(0):
            assert {c.area.name for c in companies} >= {"Korona"}
    assert compiled == [1]


def test_a_read_of_objects_is_a_plain_queryset_of_a_model() -> None:
    values = PreparedObjects(
        lambda campaign_id: Area.objects.filter(campaign_id=campaign_id).values()
    )
    with pytest.raises(ValueError, match="a plain queryset of a model"):
        values.objects(1)
    with pytest.raises(TypeError, match="gives objects"):
        PreparedObjects(lambda campaign_id: Area.objects.filter(campaign_id=campaign_id)).rows(1)
