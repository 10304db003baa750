"""The OpenAPI schema: valid without a warning, served with its docs page, and true of
the API: schemathesis sends generated requests to every operation, as a player and as the
GM, and checks each answer against the schema (no server error, only documented status
codes and content types, bodies that fit); each generated address is asked OPTIONS too.
(tests/api/test_bad_input.py sends every method to every address of the URL conf.)"""

from __future__ import annotations

import time
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
import schemathesis
from django.conf import settings
from django.core import signals
from django.core.management import call_command
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client, override_settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi.checks import positive_data_acceptance

from campaign.models import Campaign

pytestmark = pytest.mark.django_db

# Generated requests per operation and role; 25 operations, two roles.
EXAMPLES = 50


def test_schema_is_valid_without_warnings() -> None:
    out = StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    assert "/api/campaigns/{campaign_pk}/orders/" in out.getvalue()


def test_schema_is_served(client: Any) -> None:
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/token/" in paths
    assert "delete" in paths["/api/campaigns/{campaign_pk}/orders/{id}/"]


@pytest.fixture
def wsgi_in_the_test_transaction() -> Iterator[Any]:
    """The WSGI app, without the per-request connection closing that would end the test's
    transaction (Django's test client does the same)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.mark.parametrize("role", ["aussie", "gm_user"])
def test_every_operation_answers_as_its_schema_says(
    played: Campaign,
    wsgi_in_the_test_transaction: Any,
    request: pytest.FixtureRequest,
    role: str,
) -> None:
    user = request.getfixturevalue(role)
    token = Token.objects.create(user=user).key
    no_throttle = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None},
    }
    with override_settings(REST_FRAMEWORK=no_throttle, AXES_ENABLED=False):
        schema = schemathesis.openapi.from_wsgi(
            "/api/schema/?format=json", wsgi_in_the_test_transaction
        )
        started = time.monotonic()
        operations = 0
        for result in schema.get_all_operations():
            operation = result.ok()
            strategy = operation.as_strategy()
            if "{campaign_pk}" in operation.path:
                # Half the requests go to the played campaign, so they reach its rows.
                strategy = st.one_of(
                    strategy, operation.as_strategy(path_parameters={"campaign_pk": played.pk})
                )
            _check(strategy, user, token)
            operations += 1
        elapsed = time.monotonic() - started
    assert operations == 25  # every operation of the schema, none skipped
    print(f"schemathesis as {role}: {operations} operations x {EXAMPLES} in {elapsed:.1f} s")


def _check(strategy: Any, user: Any, token: str) -> None:
    @given(case=strategy)
    @hypothesis_settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        # Every other check runs. "Positive data acceptance" wants every schema-valid request
        # answered 2xx, but the rules refuse schema-valid orders by design (an area not
        # linked, a company out of sight: 400 with the reason).
        headers = {"Authorization": f"Token {token}"}
        case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
        # DELETE /api/token/ revokes the token: give it back, so every request is signed in.
        Token.objects.get_or_create(key=token, defaults={"user": user})
        options = Client().options(case.formatted_path, HTTP_AUTHORIZATION=headers["Authorization"])
        # Django's test client connects close_old_connections back after its request; the
        # next WSGI call would then close the test transaction's connection (PostgreSQL).
        signals.request_started.disconnect(close_old_connections)
        signals.request_finished.disconnect(close_old_connections)
        assert options.status_code < 500, (case.formatted_path, options.status_code)

    run()


def test_the_schema_says_what_each_standing_order_does(client: Any) -> None:
    """The walk-through read "sensible" in the API and "hold" on the pages: the field's
    description says that "sensible", the default, holds on a side a player plays."""
    schema = client.get("/api/schema/?format=json").json()
    field = schema["components"]["schemas"]["Company"]["properties"]["standing_order"]
    said = " ".join(field["description"].split())
    assert '"sensible", every company\'s default: it holds while a player plays its side' in said
    assert "campaign AI chooses its order while none does" in said
