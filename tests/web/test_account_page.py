"""The player's account page: whether they have an API token, a button that revokes it,
and a password change that revokes it too."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def opens_the_api(token: Token) -> bool:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client.get("/api/campaigns/").status_code == 200


def test_the_account_page_needs_a_signed_in_player() -> None:
    answer = Client().get("/accounts/")
    assert answer.status_code == 302 and answer.url.startswith("/accounts/login/")
    assert Client().post("/accounts/token/revoke/").status_code == 302
    assert not Token.objects.exists()


def test_the_account_page_shows_the_token_and_the_button_revokes_it(
    aussie: Any, japanese: Any, login: Any
) -> None:
    mine, theirs = Token.objects.create(user=aussie), Token.objects.create(user=japanese)
    client = login(aussie)
    page = client.get("/accounts/").content.decode()
    assert "You have an API token" in page and "Revoke my API token" in page
    assert mine.key not in page  # the page never shows the secret itself
    assert client.get("/accounts/token/revoke/").status_code == 405  # a link cannot revoke
    answer = client.post("/accounts/token/revoke/", follow=True)
    assert "Your API token is revoked" in answer.content.decode()
    assert "You have no API token" in answer.content.decode()
    assert not opens_the_api(mine)
    assert opens_the_api(theirs)


def test_every_page_links_to_the_account(aussie: Any, login: Any) -> None:
    assert 'href="/accounts/"' in login(aussie).get("/campaigns/").content.decode()


def test_a_password_changed_on_the_account_page_revokes_the_token(aussie: Any, login: Any) -> None:
    token = Token.objects.create(user=aussie)
    client = login(aussie)
    answer = client.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "quite another long password",
            "new_password2": "quite another long password",
        },
        follow=True,
    )
    assert "Your password is changed" in answer.content.decode()
    assert client.get("/accounts/").status_code == 200  # still signed in here
    assert not opens_the_api(token)
    aussie.refresh_from_db()
    assert aussie.check_password("quite another long password")


def test_a_wrong_old_password_changes_nothing(aussie: Any, login: Any) -> None:
    token = Token.objects.create(user=aussie)
    answer = login(aussie).post(
        "/accounts/password/",
        {"old_password": "wrong", "new_password1": "x y z w v u", "new_password2": "x y z w v u"},
    )
    assert answer.status_code == 200
    assert "error" in answer.content.decode()
    assert opens_the_api(token)


def test_the_password_page_names_the_player_without_a_dangling_dot(aussie: Any, login: Any) -> None:
    """Django's own view is in that page's context as ``view``: the header read
    "aussie · " as if a side should follow."""
    html = login(aussie).get(reverse("password-change")).content.decode()
    assert "<span>aussie</span>" in html
