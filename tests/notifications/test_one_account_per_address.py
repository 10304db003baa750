"""One account per email address: a walk-through's second player signed up on an invite
page with the first player's address, and "Forgotten your password?" for it then mailed
a link for both accounts, the other side's among them (notifications.addresses). The
forms refuse it, and a unique index refuses it in the database (the migration
notifications 0006), which two sign-ups at the same moment both pass the forms' check
to reach."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from campaign.models import Campaign, Membership
from notifications.invitations import AccountForm, invite
from tests.notifications.test_invitations import NEW, path_of

pytestmark = pytest.mark.django_db

TAKEN = (
    "This email address cannot be used for a new account. If it already has a Korona "
    "account, sign in with that account (above) and join with it; forgotten its password "
    "or username? Ask for a link by email (above)."
)


@pytest.mark.parametrize("given", ["a@example.com", "  A@Example.COM "])
def test_sign_up_with_an_address_another_account_uses_is_refused_and_changes_nothing(
    campaign: Campaign, aussie: Any, given: str
) -> None:
    invitation = invite(campaign=campaign, side="japanese")
    members = Membership.objects.count()
    answer = Client().post(path_of(invitation), {**NEW, "email": given})
    assert answer.status_code == 400
    assert list(answer.context["form"].errors["email"]) == [TAKEN]
    page = answer.content.decode()
    assert "cannot be used for a new account" in page
    assert "aussie" not in page  # whose it is stays unsaid
    assert not get_user_model().objects.filter(username="newcomer").exists()
    assert Membership.objects.count() == members
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_the_game_master_cannot_give_an_account_an_address_another_uses(
    aussie: Any, japanese: Any, django_user_model: Any
) -> None:
    boss = django_user_model.objects.create_superuser("boss", "b@example.com", "pw")
    client = Client()
    client.force_login(boss)
    address = f"/admin/auth/user/{japanese.pk}/change/"
    form = client.get(address).context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name not in ("password", "groups", "user_permissions")
    }
    data["date_joined_0"], data["date_joined_1"] = japanese.date_joined.strftime(
        "%Y-%m-%d %H:%M:%S"
    ).split()
    data.pop("date_joined", None)
    data.pop("last_login", None)
    answer = client.post(address, {**data, "email": "A@EXAMPLE.com"})
    assert answer.status_code == 200
    assert list(answer.context["adminform"].form.errors["email"]) == [
        "That email address is already used by the account aussie: each account needs its "
        "own, or a forgotten password cannot be reset by email."
    ]
    japanese.refresh_from_db()
    assert japanese.email == "j@example.com"
    # Its own address, or a new one, saves.
    answer = client.post(address, {**data, "email": "kenji@example.com"})
    assert answer.status_code == 302, answer.context["adminform"].form.errors
    japanese.refresh_from_db()
    assert japanese.email == "kenji@example.com"


@pytest.mark.parametrize("given", ["a@example.com", "A@EXAMPLE.COM", " a@example.com "])
def test_the_database_refuses_a_second_account_with_an_address(aussie: Any, given: str) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create_user("second", given, "pw")
    assert not get_user_model().objects.filter(username="second").exists()


def test_the_database_lets_any_number_of_accounts_have_no_address(db: Any) -> None:
    for username, email in [("one", ""), ("two", ""), ("three", "  ")]:
        get_user_model().objects.create_user(username, email, "pw")
    assert get_user_model().objects.count() == 3


def _taken_meanwhile(monkeypatch: Any, **other: str) -> None:
    """The form's checks pass, then another sign-up makes ``other``'s account before this
    one saves: the two sign-ups at the same moment, one step after the other."""
    full_clean = AccountForm.full_clean

    def check_then_sign_up_elsewhere(form: AccountForm) -> None:
        full_clean(form)
        get_user_model().objects.create_user(password="pw", **other)

    monkeypatch.setattr(AccountForm, "full_clean", check_then_sign_up_elsewhere)


@pytest.mark.parametrize(
    ("other", "field", "words"),
    [
        ({"username": "quick", "email": " N@Example.com"}, "email", TAKEN),
        (
            {"username": "newcomer", "email": "quick@example.com"},
            "username",
            "A user with that username already exists.",
        ),
    ],
)
def test_two_sign_ups_at_once_the_second_is_refused_in_words_and_changes_nothing(
    campaign: Campaign, monkeypatch: Any, other: dict[str, str], field: str, words: str
) -> None:
    invitation = invite(campaign=campaign, side="japanese")
    members = Membership.objects.count()
    accounts = set(get_user_model().objects.values_list("username", flat=True))
    _taken_meanwhile(monkeypatch, **other)
    answer = Client().post(path_of(invitation), NEW)
    assert answer.status_code == 400
    form = answer.context["form"]
    assert list(form.errors) == [field]
    assert list(form.errors[field]) == [words]
    assert form.fields[field].widget.attrs.get("autofocus")
    assert words in answer.content.decode().replace("&#x27;", "'")
    # The other sign-up's account only.
    users = get_user_model().objects
    assert set(users.values_list("username", flat=True)) == {*accounts, other["username"]}
    assert users.get(username=other["username"]).check_password("pw")
    assert Membership.objects.count() == members
    invitation.refresh_from_db()
    assert invitation.used_at is None


@pytest.mark.django_db(transaction=True)
def test_the_migration_leaves_a_shared_address_with_the_account_signed_in_last(
    capsys: Any,
) -> None:
    """Accounts that shared an address before the index: the one signed in last keeps
    it (none signed in: the oldest), the others have none, and migrate says so."""
    call_command("migrate", "notifications", "0005", verbosity=0)
    try:
        users = get_user_model().objects
        now = timezone.now()
        ann = users.create_user("ann", "Team@example.com", "pw", last_login=now)
        bob = users.create_user("bob", "team@example.com", "pw", last_login=now)
        users.create_user("cat", "team@example.com", "pw")
        users.filter(pk=ann.pk).update(last_login=now.replace(year=now.year - 1))
        users.filter(pk=bob.pk).update(email=" team@EXAMPLE.com")  # as typed, long ago
        users.create_user("old", "pair@example.com", "pw")
        users.create_user("new", "PAIR@example.com", "pw")
        users.create_user("own", "own@example.com", "pw")
        capsys.readouterr()
        call_command("migrate", "notifications", verbosity=0)
    finally:
        call_command("migrate", "notifications", verbosity=0)
    emails = dict(users.values_list("username", "email"))
    assert emails == {
        "ann": "",
        "bob": " team@EXAMPLE.com",
        "cat": "",
        "old": "pair@example.com",
        "new": "",
        "own": "own@example.com",
    }
    assert capsys.readouterr().out.split("\n") == [
        "",
        "The accounts new and old shared the email address pair@example.com, which only "
        "one account may have now: old keeps it (the oldest; none has signed in); new has no "
        "address now, "
        "so gets no email until you give it one (in the admin: Users, the account, Email "
        "address, then Save).",
        "",
        "The accounts ann, bob and cat shared the email address team@example.com, which "
        "only one account may have now: bob keeps it (signed in last); ann and cat have "
        "no address now, so get no email until you give each one (in the admin: Users, "
        "the account, Email address, then Save).",
        "",
    ]
    with pytest.raises(IntegrityError), transaction.atomic():
        users.filter(username="cat").update(email="TEAM@example.com")
