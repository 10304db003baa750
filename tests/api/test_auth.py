"""Signing in to the API (a token, or the session), django-axes on the token endpoint,
throttling, and the JSON 404 for any other address."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from campaign.models import Campaign
from tests.api.helpers import url
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_token_for_the_right_password_opens_the_api(played: Campaign, aussie: Any) -> None:
    client = APIClient()
    response = client.post("/api/token/", {"username": "aussie", "password": PASSWORD})
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get(url(played)).json()["side"] == "australian"


def test_the_same_token_is_given_every_time(aussie: Any) -> None:
    body = {"username": "aussie", "password": PASSWORD}
    first = APIClient().post("/api/token/", body, format="json").json()["token"]
    assert APIClient().post("/api/token/", body, format="json").json()["token"] == first


def test_wrong_password_gets_no_token(aussie: Any) -> None:
    response = APIClient().post("/api/token/", {"username": "aussie", "password": "nope"})
    assert response.status_code == 400
    assert "non_field_errors" in response.json()
    assert "token" not in response.json()


def test_failed_token_requests_are_counted_and_lock_the_account(aussie: Any) -> None:
    client = APIClient()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/api/token/", {"username": "aussie", "password": "wrong"})
    assert AccessAttempt.objects.get(username="aussie").failures_since_start == (
        settings.AXES_FAILURE_LIMIT
    )
    response = client.post("/api/token/", {"username": "aussie", "password": PASSWORD})
    assert response.status_code == 429
    assert "locked" in response.json()["detail"]


def test_bad_token_is_refused_with_401(played: Campaign) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert client.get("/api/campaigns/").status_code == 401


def test_session_of_the_pages_works_too(played: Campaign, japanese: Any, login: Any) -> None:
    assert login(japanese).get(url(played)).json()["side"] == "japanese"


def test_unknown_api_address_is_a_json_404(aussie: Any, login: Any) -> None:
    for address in ("/api/nothing/", "/api/campaigns/-1/", "/api/campaigns/x/companies/"):
        response = login(aussie).get(address)
        assert response.status_code == 404
        assert response.json() == {"detail": "Not found."}


def rates(anon: str | None, user: str | None) -> dict[str, Any]:
    return {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": anon, "user": user}}


def test_user_past_the_rate_gets_429(played: Campaign, aussie: Any, token_client: Any) -> None:
    client = token_client(aussie)
    with override_settings(REST_FRAMEWORK=rates("100/minute", "3/minute")):
        answers = [client.get(url(played, "areas/")).status_code for _ in range(4)]
        assert answers == [200, 200, 200, 429]
        refused = client.get("/api/campaigns/")
        assert refused.status_code == 429
        assert "Retry-After" in refused
        assert "throttled" in refused.json()["detail"]


def test_anonymous_past_the_rate_gets_429(aussie: Any) -> None:
    client = APIClient()
    with override_settings(REST_FRAMEWORK=rates("2/minute", "100/minute")):
        body = {"username": "aussie", "password": PASSWORD}
        answers = [client.post("/api/token/", body).status_code for _ in range(3)]
    assert answers == [200, 200, 429]
