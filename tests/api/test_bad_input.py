"""No input reaches a 500: every address in the URL conf (the API and the players' pages),
with every method, hostile ids and query strings, as each kind of user; and the API's
bodies, deep, huge or holding NUL bytes, each refused with a 400 that names the fault and
writes nothing.

The addresses are read from the URL conf, so a new one is covered without editing this."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from battles.models import Battle
from campaign.models import Campaign, Order, SideReady
from tests.api.helpers import area_id, company_id, url

pytestmark = pytest.mark.django_db

PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")


def routes() -> Iterator[tuple[str, str]]:
    """(route, name) of every path of the players' pages and the API (the admin is
    Django's own); routes with a regex (the API's catch-all) are given as a sample."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, str]]:
        for pattern in patterns:
            route = str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if route.startswith("admin/"):
                    continue
                yield from walk(pattern.url_patterns, prefix + route)
            elif isinstance(pattern, URLPattern):
                if route.startswith("^"):
                    route = "no/such/thing/"
                yield prefix + route, pattern.name or ""

    return walk(get_resolver().url_patterns, "/")


ROUTES = sorted(set(routes()))


def real_ids(campaign: Campaign) -> dict[str, int]:
    """An existing row for each id a route takes, so the requests reach real rows."""
    battle = Battle.objects.filter(turn__campaign=campaign).order_by("pk").first()
    return {
        "campaign_pk": campaign.pk,
        "campaign_id": campaign.pk,
        "area_id": area_id(campaign, "Korona"),
        "company_id": company_id(campaign, "A Company"),
        "battle_id": battle.pk if battle else 1,
        "number": 1,
    }


def filled(route: str, ids: dict[str, int], default: int, *, pk: int) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group("name")
        if name == "pk":
            return str(pk)
        return str(ids.get(name, default)) if match.group("converter") in (None, "int") else "x"

    return PARAMETER.sub(one, route)


def addresses(campaign: Campaign, *, bogus: bool = True) -> list[str]:
    """Every route with real ids, and (``bogus``) with ids that no column holds or that
    are not there: 0, 2**63 (one past a BigAutoField) and 10**30."""
    ids = real_ids(campaign)
    order = Order.objects.filter(company__campaign=campaign).order_by("pk").first()
    found = []
    for route, name in ROUTES:
        pk = {
            "area-detail": ids["area_id"],
            "company-detail": ids["company_id"],
            "battle-detail": ids["battle_id"],
            "order-detail": order.pk if order else 1,
        }.get(name, 1)
        found.append(filled(route, ids, 1, pk=pk))
        if bogus and "<" in route:
            for huge in (0, 2**63, 10**30):
                found.append(filled(route, {}, huge, pk=huge))
    return sorted(set(found))


@pytest.fixture
def with_an_order(played: Campaign, aussie: Any, token_client: Any) -> Campaign:
    answer = token_client(aussie).post(
        url(played, "orders/"),
        {"company": company_id(played, "A Company"), "kind": "hold"},
        format="json",
    )
    assert answer.status_code in (200, 201), answer.content
    return played


ROLES = ["aussie", "gm_user", "outsider", None]
HOSTILE_QUERIES = [
    "?format=api",
    "?format=json",
    "?page=" + str(10**30),
    "?page=-1&ordering=-no_such_field",
    "?zone=" + str(10**30) + "&turn=" + str(10**30) + "&number=-1",
    "?name=%00&side=%00&track=" + "x" * 5000,
    "?seen=%00&side=japanese",
    "?in_supply=maybe&kind=" + "k" * 300,
]


def client_for(role: str | None, request: pytest.FixtureRequest) -> Client:
    client = Client()
    if role is not None:
        client.force_login(request.getfixturevalue(role))
    return client


@pytest.mark.parametrize("role", ROLES)
def test_every_address_answers_options_and_head_without_a_server_error(
    with_an_order: Campaign, request: pytest.FixtureRequest, role: str | None
) -> None:
    client = client_for(role, request)
    for address in addresses(with_an_order):
        for method in ("options", "head"):
            answer = getattr(client, method)(address)
            assert answer.status_code < 500, (method, address, answer.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_every_address_answers_hostile_queries_without_a_server_error(
    with_an_order: Campaign, request: pytest.FixtureRequest, role: str | None
) -> None:
    client = client_for(role, request)
    for address in addresses(with_an_order, bogus=False):
        for query in HOSTILE_QUERIES:
            answer = client.get(address + query)
            assert answer.status_code < 500, (address + query, answer.status_code)


def test_the_browsable_api_of_the_adjustments_is_a_page(
    played: Campaign, aussie: Any, login: Any
) -> None:
    answer = login(aussie).get(url(played, "adjustments/") + "?format=api")
    assert answer.status_code == 200
    assert b"Adjustment List" in answer.content


def test_options_on_an_order_describes_it(
    with_an_order: Campaign, aussie: Any, token_client: Any
) -> None:
    order = Order.objects.get(company__campaign=with_an_order)
    answer = token_client(aussie).options(url(with_an_order, f"orders/{order.pk}/"))
    assert answer.status_code == 200
    assert {"kind", "target"} <= set(answer.json()["actions"]["PUT"])
    missing = token_client(aussie).options(url(with_an_order, "orders/999999/"))
    assert missing.status_code == 200
    assert "actions" not in missing.json()


@pytest.mark.parametrize("role", ROLES)
def test_every_address_answers_posts_of_garbage_without_a_server_error(
    with_an_order: Campaign, request: pytest.FixtureRequest, role: str | None
) -> None:
    client = client_for(role, request)
    bodies: list[tuple[str, str]] = [
        ("[" * 5_000 + "]" * 5_000, "application/json"),
        ('{"company": "\\u0000", "kind": "\\ud800"}', "application/json"),
        ('{"company": 1e999, "target": NaN}', "application/json"),
        (
            "order=" + "%00" * 100 + "&action=give&company=" + str(10**30),
            "application/x-www-form-urlencoded",
        ),
    ]
    for address in addresses(with_an_order):
        for method in ("post", "put", "patch", "delete"):
            for body, content_type in bodies:
                answer = getattr(client, method)(address, body, content_type=content_type)
                assert answer.status_code < 500, (method, address, answer.status_code)


# --- the API's bodies: 400 naming the fault, nothing written --------------------------------


def orders_and_readiness() -> tuple[list[Any], list[Any]]:
    return (
        list(Order.objects.values_list("pk", "kind", "target_id", "turn_number")),
        list(SideReady.objects.values_list("pk", "side")),
    )


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ("[" * 100_000 + "]" * 100_000, "the body is larger than 65536 bytes"),
        ("[" * 20_000 + "]" * 20_000, "the body: nested more than 16 deep"),
        ('{"kind": "hold", "company": ' + "[" * 20 + "]" * 20 + "}", "nested more than 16 deep"),
        ('{"kind": "hold\\u0000"}', "the body: kind: must not hold a NUL character"),
        ('{"kind": "hold", "company": NaN}', "the body: company: must be a finite number"),
    ],
)
def test_a_bad_order_body_is_a_400_naming_the_fault(
    with_an_order: Campaign, aussie: Any, token_client: Any, body: str, detail: str
) -> None:
    before = orders_and_readiness()
    order = Order.objects.get(company__campaign=with_an_order)
    client = token_client(aussie)
    for method, address in [
        ("post", url(with_an_order, "orders/")),
        ("put", url(with_an_order, f"orders/{order.pk}/")),
        ("patch", url(with_an_order, f"orders/{order.pk}/")),
        ("post", url(with_an_order, "ready/")),
        ("post", "/api/token/"),
    ]:
        answer = getattr(client, method)(address, body, content_type="application/json")
        assert answer.status_code == 400, (method, address, answer.content[:200])
        assert detail in answer.json()["detail"]
    assert orders_and_readiness() == before


@pytest.mark.parametrize("field", ["company", "target"])
@pytest.mark.parametrize("value", [10**30, 2**63, 0, -1])
def test_an_id_no_column_holds_is_a_400_naming_the_field(
    with_an_order: Campaign, aussie: Any, token_client: Any, field: str, value: int
) -> None:
    before = orders_and_readiness()
    body = {"company": company_id(with_an_order, "A Company"), "kind": "advance", field: value}
    answer = token_client(aussie).post(url(with_an_order, "orders/"), body, format="json")
    assert answer.status_code == 400
    assert list(answer.json()) == [field]
    assert orders_and_readiness() == before
