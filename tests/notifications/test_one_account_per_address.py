"""One account per email address: a walk-through's second player signed up on an invite
page with the first player's address, and "Forgotten your password?" for it then mailed
a link for both accounts, the other side's among them (notifications.addresses)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import checks, mail
from django.core.management import call_command
from django.test import Client

from campaign.models import Campaign, Membership
from notifications.addresses import check_shared_addresses
from notifications.invitations import invite
from tests.notifications.test_invitations import NEW, path_of

pytestmark = pytest.mark.django_db

TAKEN = (
    "That email address is already used by another account: use your own, or sign in "
    "with that account (above) and join with it."
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
    assert "already used by another account" in page
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


def test_a_shared_address_gets_no_reset_link_and_the_game_master_is_warned(
    aussie: Any, japanese: Any, outsider: Any
) -> None:
    """Accounts that shared an address before the rule: neither gets a link, and the
    system check (printed by migrate, so by every dev.py run) names them."""
    get_user_model().objects.filter(pk=japanese.pk).update(email="A@example.com ")
    answer = Client().post("/accounts/password/reset/", {"email": "a@example.com"})
    assert answer.status_code == 302
    assert mail.outbox == []
    Client().post("/accounts/password/reset/", {"email": "o@example.com"})
    assert [message.to for message in mail.outbox] == [["o@example.com"]]
    warnings = [
        found
        for found in checks.run_checks(databases=["default"])
        if found.id == "notifications.W001"
    ]
    assert [str(warning.msg) for warning in warnings] == [
        "The accounts aussie and japanese share the email address a@example.com, so a "
        "forgotten password cannot be reset by email for any of them."
    ]
    get_user_model().objects.filter(pk=japanese.pk).update(email="j@example.com")
    assert not [
        found
        for found in checks.run_checks(databases=["default"])
        if found.id == "notifications.W001"
    ]


def test_manage_py_check_with_the_database_prints_the_warning(
    aussie: Any, japanese: Any, capsys: Any
) -> None:
    get_user_model().objects.filter(pk=japanese.pk).update(email="a@example.com")
    call_command("check", "--database", "default")
    printed = capsys.readouterr()
    assert "share the email address a@example.com" in printed.out + printed.err


def test_the_check_reads_no_database_unless_asked(aussie: Any, japanese: Any) -> None:
    """As Django's own database checks: runserver and makemigrations run the checks
    without a database (before the first migrate it has no tables to read)."""
    get_user_model().objects.filter(pk=japanese.pk).update(email="a@example.com")
    assert check_shared_addresses(databases=None) == []
    assert len(check_shared_addresses(databases=["default"])) == 1
