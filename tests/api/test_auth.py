"""Signing in to the API (a token, or the session), django-axes on the token endpoint,
throttling, the API root (/api/) and the JSON 404 for any other address."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import override_settings
from rest_framework.authtoken.models import Token
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


@pytest.mark.parametrize(
    "body",
    [{"username": "a" * 151, "password": "x"}, {"username": "aussie", "password": "p" * 4097}],
)
def test_a_user_name_or_password_longer_than_any_is_a_400_naming_it(aussie: Any, body: Any) -> None:
    # A 5,000-character user name reached django-axes, whose record of the failure holds
    # 255: a 500 on PostgreSQL. It is refused before any password is checked.
    for form in ("json", "multipart"):
        response = APIClient().post("/api/token/", body, format=form)
        assert response.status_code == 400
        [field] = [name for name in body if len(body[name]) > 150]
        assert list(response.json()) == [field]
    assert not AccessAttempt.objects.exists()


@pytest.mark.parametrize("key", ["not-a-token", "a\x00b", "é" * 40, "a" * 41])
def test_bad_token_is_refused_with_401(played: Campaign, key: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/campaigns/").status_code == 401  # never a 500 (a NUL on PostgreSQL)


def test_a_token_is_checked_afresh_on_every_request_in_one_query(
    played: Campaign, aussie: Any, django_assert_num_queries: Any
) -> None:
    """config.tokens: the token and its user in one query, every time; a deactivated
    user or a revoked token is refused on the very next request, as DRF's own check does."""
    token = Token.objects.create(user=aussie)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/campaigns/").status_code == 200
    with django_assert_num_queries(2):  # the token with its user, the campaigns' digest
        response = client.get("/api/campaigns/")
    assert response.json()["results"][0]["side"] == "australian"
    type(aussie).objects.filter(pk=aussie.pk).update(is_active=False)  # no signal, no save
    refused = client.get("/api/campaigns/")
    assert (refused.status_code, refused.json()["detail"]) == (401, "User inactive or deleted.")
    type(aussie).objects.filter(pk=aussie.pk).update(is_active=True)
    assert client.get("/api/campaigns/").status_code == 200
    Token.objects.filter(pk=token.pk).delete()
    refused = client.get("/api/campaigns/")
    assert (refused.status_code, refused.json()["detail"]) == (401, "Invalid token.")


def test_session_of_the_pages_works_too(played: Campaign, japanese: Any, login: Any) -> None:
    assert login(japanese).get(url(played)).json()["side"] == "japanese"


def test_unknown_api_address_is_a_json_404(aussie: Any, login: Any) -> None:
    for address in ("/api/nothing/", "/api/campaigns/-1/", "/api/campaigns/x/companies/"):
        response = login(aussie).get(address)
        assert response.status_code == 404
        assert response.json() == {"detail": "Not found."}


def test_the_api_root_names_its_ways_in_and_each_of_them_answers(aussie: Any, login: Any) -> None:
    """/api/, the address the README gives, was the JSON 404 of an unknown address."""
    for client in (APIClient(), login(aussie)):
        response = client.get("/api/")
        assert response.status_code == 200
        ways = {k: v for k, v in response.json().items() if k != "detail"}
        assert set(ways) == {"docs", "schema", "token", "campaigns"}
        assert ways["campaigns"]["url"] == "/api/campaigns/"
    for way in ways.values():
        answer = login(aussie).get(way["url"])
        assert answer.status_code == (405 if way["url"] == "/api/token/" else 200), way
    refused = APIClient().post("/api/", {"x": 1})
    assert refused.status_code == 405
    assert refused["Allow"] == "GET, HEAD"
    assert "not allowed" in refused.json()["detail"]


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


# --- the client's address: KORONA_TRUSTED_PROXIES, for the throttles and django-axes -------


def test_a_changing_forwarded_for_never_dodges_the_anonymous_throttle(aussie: Any) -> None:
    client = APIClient()
    body = {"username": "aussie", "password": PASSWORD}
    with override_settings(REST_FRAMEWORK=rates("2/minute", "100/minute")):
        answers = [
            client.post("/api/token/", body, HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
            for n in range(3)
        ]
    assert answers == [200, 200, 429]


def test_behind_a_trusted_proxy_the_client_is_the_address_it_forwards(aussie: Any) -> None:
    client = APIClient()
    body = {"username": "aussie", "password": PASSWORD}
    with override_settings(
        REST_FRAMEWORK={**rates("2/minute", "100/minute"), "NUM_PROXIES": 1},
        KORONA_TRUSTED_PROXIES=1,
    ):

        def post(forwarded: str) -> int:
            return client.post("/api/token/", body, HTTP_X_FORWARDED_FOR=forwarded).status_code

        # Two clients behind the one proxy each have their own count...
        assert [post("10.0.0.1"), post("10.0.0.2"), post("10.0.0.1")] == [200, 200, 200]
        # ...and what a client writes itself, left of what the proxy adds, is not read.
        assert post("1.1.1.1, 10.0.0.1") == 429  # 10.0.0.1's third
        assert [post("2.2.2.2, 10.0.0.2"), post("3.3.3.3, 10.0.0.2")] == [200, 429]


def wrong_passwords(username: str, times: int, **where: str) -> None:
    client = APIClient()
    for _ in range(times):
        answer = client.post("/api/token/", {"username": username, "password": "wrong"}, **where)
        assert answer.status_code in (400, 429)


def token_status(username: str, **where: str) -> int:
    body = {"username": username, "password": PASSWORD}
    return APIClient().post("/api/token/", body, **where).status_code


def test_a_stranger_cannot_lock_the_gm_out_from_elsewhere(gm_user: Any, aussie: Any) -> None:
    stranger = {"REMOTE_ADDR": "203.0.113.6"}
    wrong_passwords("gm", settings.AXES_FAILURE_LIMIT, **stranger)
    assert token_status("gm", **stranger) == 429  # locked out: that user from that address
    assert token_status("aussie", **stranger) == 200  # another user from there is not
    assert token_status("gm", REMOTE_ADDR="198.51.100.2") == 200  # nor the GM at home


def test_without_a_trusted_proxy_forwarded_for_cannot_spread_the_guesses(gm_user: Any) -> None:
    for n in range(settings.AXES_FAILURE_LIMIT):
        wrong_passwords("gm", 1, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert token_status("gm", HTTP_X_FORWARDED_FOR="192.0.2.99") == 429
    assert {a.ip_address for a in AccessAttempt.objects.all()} == {"127.0.0.1"}


@override_settings(KORONA_TRUSTED_PROXIES=1)
def test_behind_a_trusted_proxy_axes_locks_out_the_forwarded_address(gm_user: Any) -> None:
    stranger = {"HTTP_X_FORWARDED_FOR": "203.0.113.6"}
    wrong_passwords("gm", settings.AXES_FAILURE_LIMIT, **stranger)
    assert token_status("gm", **stranger) == 429
    # Everyone comes from the proxy's address, yet the GM at home is not locked out.
    assert token_status("gm", HTTP_X_FORWARDED_FOR="198.51.100.2") == 200
    assert {a.ip_address for a in AccessAttempt.objects.all()} == {"203.0.113.6"}


@override_settings(KORONA_TRUSTED_PROXIES=1)
def test_a_forwarded_for_that_is_no_address_falls_back_to_the_peer(gm_user: Any) -> None:
    wrong_passwords("gm", 1, HTTP_X_FORWARDED_FOR="not an address")
    assert AccessAttempt.objects.get().ip_address == "127.0.0.1"


# --- revoking tokens ------------------------------------------------------------------------


def token_of(user: Any) -> str:
    return (
        APIClient()
        .post("/api/token/", {"username": user.username, "password": PASSWORD})
        .json()["token"]
    )


def opens_the_api(token: str) -> bool:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get("/api/campaigns/").status_code == 200


def test_a_new_password_revokes_the_token(aussie: Any) -> None:
    old = token_of(aussie)
    assert opens_the_api(old)
    aussie.set_password("a new and long password")
    aussie.save()
    assert not opens_the_api(old)
    assert not Token.objects.filter(user=aussie).exists()


def test_saving_a_user_without_a_new_password_keeps_the_token(aussie: Any) -> None:
    old = token_of(aussie)
    aussie.first_name = "Bert"
    aussie.save()
    aussie.refresh_from_db()
    aussie.save(update_fields=["last_login"])  # what every sign-in does
    assert opens_the_api(old)


def test_a_password_changed_in_the_admin_revokes_the_token(aussie: Any, gm_user: Any) -> None:
    gm_user.is_superuser = True
    gm_user.save()
    old = token_of(aussie)
    admin = APIClient()
    admin.force_login(gm_user)
    answer = admin.post(
        f"/admin/auth/user/{aussie.pk}/password/",
        {"password1": "another long password", "password2": "another long password"},
    )
    assert answer.status_code == 302, answer.content[:500]
    assert not opens_the_api(old)


def test_a_player_revokes_their_own_token(aussie: Any, japanese: Any) -> None:
    old, theirs = token_of(aussie), token_of(japanese)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    assert client.delete("/api/token/").status_code == 204
    assert not opens_the_api(old)
    assert opens_the_api(theirs)  # only one's own
    new = token_of(aussie)
    assert new != old and opens_the_api(new)


def test_revoking_by_the_session_and_signed_out(aussie: Any, login: Any) -> None:
    old = token_of(aussie)
    assert APIClient().delete("/api/token/").status_code == 401
    assert opens_the_api(old)
    assert login(aussie).delete("/api/token/").status_code == 204
    assert not opens_the_api(old)
