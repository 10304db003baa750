"""One account per username in any letter case: "BOB" signs in the account "bob" (as on
most sites), the database refuses a second "Bob" (migration notifications 0009), and
django-axes counts every spelling's wrong passwords against the one account."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.test import Client

from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def sign_in(client: Client, username: str, password: str) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password})


@pytest.mark.parametrize("typed", ["aussie", "AUSSIE", "Aussie"])
def test_a_username_signs_in_typed_in_any_letter_case(aussie: Any, typed: str) -> None:
    client = Client()
    response = sign_in(client, typed, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(aussie.pk)


def test_a_username_in_another_case_with_a_wrong_password_is_refused(aussie: Any) -> None:
    client = Client()
    response = sign_in(client, "AUSSIE", "not it")
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_api_token_is_given_for_a_username_in_another_case(aussie: Any) -> None:
    answer = Client().post("/api/token/", {"username": "AuSsIe", "password": PASSWORD})
    assert answer.status_code == 200, answer.content
    assert answer.json()["token"]


def test_changing_the_case_buys_no_more_wrong_passwords(aussie: Any, settings: Any) -> None:
    client = Client()
    spellings = ["aussie", "Aussie", "AUSSIE", "aUSSIE", "AuSsIe", "aussiE"]
    for typed in spellings[: settings.AXES_FAILURE_LIMIT]:
        sign_in(client, typed, "guess")
    response = sign_in(client, "aussie", PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    # One lockout, under the account's own username, which the game master lifts.
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["aussie"]
    call_command("axes_reset_username", "aussie", verbosity=0)
    assert sign_in(client, "AUSSIE", PASSWORD).status_code == 302


@pytest.mark.parametrize("username", ["Aussie", "AUSSIE", "aussie"])
def test_the_database_refuses_a_second_account_with_a_username_in_any_case(
    aussie: Any, username: str
) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create_user(username, password="pw")
    assert get_user_model().objects.filter(username__iexact="aussie").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_leaves_usernames_differing_only_in_case_and_guards_new_ones(
    capsys: Any,
) -> None:
    """Accounts made before the index as "Bob" and "bob" both keep their usernames and
    sign in typed exactly (typed otherwise it could be either: refused); migrate names
    them; no third spelling can be added, and other accounts are guarded as ever."""
    call_command("migrate", "notifications", "0008", verbosity=0)
    try:
        users = get_user_model().objects
        for username in ["Bob", "bob", "BOB", "Ann", "ann", "cat"]:
            users.create_user(username, password=PASSWORD)
        capsys.readouterr()
        call_command("migrate", "notifications", verbosity=0)
    finally:
        call_command("migrate", "notifications", verbosity=0)
    assert capsys.readouterr().out.split("\n") == [
        "",
        "The accounts Ann and ann have usernames that differ only in letter case. Each "
        "keeps its username and signs in with it typed exactly as it is (typed in another "
        "case it could be either, so it is refused); no new account can take it, in any "
        "case. To tell them apart, rename all but one (in the admin: Users, the account, "
        "Username, then Save) and tell their players their new usernames.",
        "",
        "The accounts BOB, Bob and bob have usernames that differ only in letter case. Each "
        "keeps its username and signs in with it typed exactly as it is (typed in another "
        "case it could be either, so it is refused); no new account can take it, in any "
        "case. To tell them apart, rename all but one (in the admin: Users, the account, "
        "Username, then Save) and tell their players their new usernames.",
        "",
    ]
    assert sorted(users.values_list("username", flat=True)) == sorted(
        ["Bob", "bob", "BOB", "Ann", "ann", "cat"]
    )
    for username in ["Bob", "bob", "BOB"]:
        client = Client()
        assert sign_in(client, username, PASSWORD).status_code == 302
        assert client.session["_auth_user_id"] == str(users.get(username=username).pk)
    client = Client()
    assert sign_in(client, "boB", PASSWORD).status_code == 200
    assert "_auth_user_id" not in client.session
    for username in ["boB", "ANN", "Cat"]:
        with pytest.raises(IntegrityError), transaction.atomic():
            users.create_user(username, password="pw")
    users.create_user("dan", password="pw")
