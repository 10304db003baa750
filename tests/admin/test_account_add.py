"""Users → Add in the game master's words: how a player normally joins (an invitation,
with which they make their own account), and the form's boxes said plainly, not Django's
"After you've created a user..." and "Password-based authentication: Enabled/Disabled"."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ADD = "/admin/auth/user/add/"
DJANGO_WORDS = (
    "After you’ve created a user",
    "Password-based authentication",
    "Your password can",
    "Enter the same password as before",
    "This field is required.",
    "Add user",
)


def words_of(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_users_add_says_a_player_joins_by_invitation_in_plain_words(gm: Client) -> None:
    page = gm.get(ADD).content.decode()
    text = words_of(page)
    assert "<title>Add an account |" in page and "<h1>Add an account</h1>" in page
    assert "A player normally joins by an invitation: add an invitation" in text
    assert '<a href="/admin/notifications/invitation/add/">add an invitation</a>' in page
    for label in ("Username:", "Email address:", "Password:", "Password again:"):
        assert label in text, label
    assert "The name they sign in with" in text
    assert not [words for words in DJANGO_WORDS if words in text]

    empty = words_of(gm.post(ADD, {"_save": "Save"}).content.decode())
    for said in ("Give the username.", "Give the password.", "Give the password again."):
        assert said in empty
    assert not [words for words in DJANGO_WORDS if words in empty]


def test_users_add_makes_an_account_that_signs_in_with_its_password(
    gm: Client, django_user_model: Any
) -> None:
    answer = gm.post(
        ADD,
        {
            "username": "jim",
            "email": "jim@example.com",
            "password1": "a long jungle password",
            "password2": "a long jungle password",
            "_save": "Save",
        },
    )
    assert answer.status_code == 302
    jim = django_user_model.objects.get(username="jim")
    assert jim.email == "jim@example.com" and jim.check_password("a long jungle password")
    assert not jim.is_staff
    taken = gm.post(
        ADD,
        {
            "username": "jim2",
            "email": "JIM@example.com",
            "password1": "another long password",
            "password2": "another long password",
            "_save": "Save",
        },
    )
    assert taken.status_code == 200
    assert "already used by the account jim" in html.unescape(taken.content.decode())
    assert not django_user_model.objects.filter(username="jim2").exists()
