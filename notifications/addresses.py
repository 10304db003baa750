"""One account per email address.

A forgotten password is answered by email (``notifications.accounts``): Django's reset
form mails a link for every active account with the address given. Two accounts sharing
an address would let whoever reads that mailbox take the other account, a player of the
other side among them; so no form lets a user take an address another account uses
(compared trimmed and without regard to case, as the reset form finds them), and the
database refuses it too: a unique index on the address, trimmed and in lower case
(migration ``0006_one_account_per_address``, which also settled the addresses accounts
shared before), which stops two sign-ups with one address at the same moment. The forms
check first, to say why.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.db.models.functions import Lower, Trim

# The words of a refused address on the invitation's sign-up form. They do not say an
# account has it (see notifications.invitations on what the refusal tells, and to whom)
# and point its owner to the two ways in: a player signed in joins with one click there,
# and the reset mail names the account, for one who forgot its username too.
TAKEN_ON_SIGN_UP = (
    "This email address cannot be used for a new account. If it already has a Korona "
    "account, sign in with that account (above) and join with it; forgotten its password "
    "or username? Ask for a link by email (above)."
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
