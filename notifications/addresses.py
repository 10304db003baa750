"""One account per email address.

A forgotten password is answered by email (``notifications.accounts``): Django's reset
form mails a link for every active account with the address given. Two accounts sharing
an address would let whoever reads that mailbox take the other account, a player of the
other side among them; so no form lets a user take an address another account uses
(compared trimmed and without regard to case, as the reset form finds them). Addresses
shared before that rule are reported to the game master by a system check, which
``manage.py migrate`` (and so every ``python3 dev.py run``) and ``manage.py check
--database default`` print, until the game master gives one of the accounts another
address; until then the reset form mails neither of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.core import checks
from django.db import connections
from django.db.models import Count, QuerySet
from django.db.models.functions import Lower, Trim

from rules import names

# The words of a refused address on the invitation's sign-up form: a player signed in
# may join with one click there, so the owner of the address is pointed to that.
TAKEN_ON_SIGN_UP = (
    "That email address is already used by another account: use your own, or sign in "
    "with that account (above) and join with it."
)


def _with_address(email: str, *, user: Any = None) -> QuerySet[Any]:
    """The accounts other than ``user`` whose address is ``email``, both read trimmed
    and in any case."""
    found = (
        get_user_model()
        .objects.annotate(address=Lower(Trim("email")))
        .filter(address=email.strip().lower())
    )
    if user is not None and user.pk is not None:
        found = found.exclude(pk=user.pk)
    return found


def email_taken(email: str, *, user: Any = None) -> bool:
    """Does an account other than ``user`` use ``email``?"""
    return bool(email.strip()) and _with_address(email, user=user).exists()


def taken_by(email: str, *, user: Any = None) -> list[str]:
    """The usernames of the other accounts that use ``email``, for the game master."""
    if not email.strip():
        return []
    return sorted(_with_address(email, user=user).values_list("username", flat=True))


def shared_addresses() -> dict[str, list[str]]:
    """Every address (lower case) that more than one account uses, with their usernames."""
    users = get_user_model().objects.annotate(address=Lower(Trim("email"))).exclude(address="")
    shared = (
        users.values("address").annotate(accounts=Count("pk")).filter(accounts__gt=1)
    ).values_list("address", flat=True)
    found: dict[str, list[str]] = {}
    for address, username in users.filter(address__in=list(shared)).values_list(
        "address", "username"
    ):
        found.setdefault(address, []).append(username)
    return {address: sorted(found[address]) for address in sorted(found)}


@checks.register(checks.Tags.database)
def check_shared_addresses(**kwargs: Any) -> list[checks.CheckMessage]:
    """A warning for each address several accounts share (run with the database only:
    ``migrate``, ``check --database default``). Before the first migrate there are no
    accounts to read (``migrate`` runs the checks before it makes the tables)."""
    users = get_user_model()._meta.db_table
    databases = kwargs.get("databases")
    # None: the checks without the database (runserver, makemigrations), as Django's own.
    if not databases or not all(
        users in connections[alias].introspection.table_names() for alias in databases
    ):
        return []
    return [
        checks.Warning(
            f"The accounts {names.join(usernames)} share the email address {address}, so "
            "a forgotten password cannot be reset by email for any of them.",
            hint=(
                "Give each its own address (in the admin: Users, the account, Email "
                "address, then Save)."
            ),
            id="notifications.W001",
        )
        for address, usernames in shared_addresses().items()
    ]


class OneAccountResetForm(PasswordResetForm):
    """Django's reset form, which mails nobody for an address several accounts share:
    a link for each would hand every one of them to whoever reads that mailbox."""

    def get_users(self, email: str) -> Iterable[Any]:
        if _with_address(email).count() > 1:
            return iter(())
        return super().get_users(email)
