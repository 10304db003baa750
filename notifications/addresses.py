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

A player changes their own address on their account page (``change_email``). Refusing
an address there tells them, as the sign-up tells a link's holder, that some account has
it, never whose; so each page that can refuse one counts the different addresses it
refused (``note_refused``), and after ``ADDRESSES_REFUSED`` in an hour refuses every
address until the hour is out (``refused_too_often``): a few tries, not a list.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.db.models.functions import Lower, Trim
from django.urls import reverse

from rules.refusals import Problem, Refusal

logger = logging.getLogger(__name__)

ADDRESSES_REFUSED = 5
REFUSALS_KEPT = 60 * 60  # seconds: an hour from the first address refused

# The words of a refused address on the invitation's sign-up form. They do not say an
# account has it (see notifications.invitations on what the refusal tells, and to whom)
# and point its owner to the two ways in: a player signed in joins with one click there,
# and the reset mail names the account, for one who forgot its username too.
TAKEN_ON_SIGN_UP = (
    "This email address cannot be used for a new account. If it already has a Korona "
    "account, sign in with that account (above) and join with it; forgotten its password "
    "or username? Ask for a link by email (above)."
)


# The words of a refused address on the player's account page: as the sign-up's, they
# do not say whose it is, and say what to do if it is on another account of the player's.
TAKEN_ON_CHANGE = (
    "This email address cannot be used for your account: each account needs one of its "
    "own. If it is on another Korona account of yours, change that account's address "
    "first; otherwise give another."
)
TOO_MANY_ON_CHANGE = (
    "You have given too many email addresses that cannot be used, so for an hour this "
    "page takes none. Try again later, or ask the game master."
)


class AddressRefused(Refusal):
    """The address may not be the account's: another account has it."""


def refused_too_often(asker: str) -> bool:
    """Has the page ``asker`` names (an invitation's sign-up, a player's account page)
    refused ``ADDRESSES_REFUSED`` different addresses this hour?"""
    return int(cache.get(f"addresses-refused:{asker}", 0)) >= ADDRESSES_REFUSED


def note_refused(asker: str, email: str) -> None:
    """Count an address ``asker``'s page refused, once each (the form sent again with the
    same address, a password put right, is not trying another)."""
    key = f"addresses-refused:{asker}"
    digest = hashlib.sha256(email.strip().lower().encode()).hexdigest()
    if not cache.add(f"{key}:{digest}", True, REFUSALS_KEPT):
        return
    cache.add(key, 0, REFUSALS_KEPT)
    try:
        cache.incr(key)
    except ValueError:  # the count's hour ended between the two lines: a new hour
        cache.add(key, 1, REFUSALS_KEPT)


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


def change_email(*, user: Any, email: str) -> None:
    """``user``'s address becomes ``email``, trimmed, as the sign-up keeps it; the notices
    go there from now on, and the old address is told (``_tell_the_old_address``).
    Refused (``AddressRefused``) when another account has it, in any case, also one that
    took it at this very moment (the database's index)."""
    email = email.strip()
    refused = AddressRefused([Problem("email", TAKEN_ON_CHANGE)])
    if email_taken(email, user=user):
        raise refused
    before = user.email
    user.email = email
    try:
        with transaction.atomic():
            # save(), not update(): the signed-in user's cached copy is dropped (config.auth).
            user.save(update_fields=["email"])
    except IntegrityError:
        user.email = before
        raise refused from None
    if before.strip() and before.strip().lower() != email.lower():
        _tell_the_old_address(user, before.strip())


def _tell_the_old_address(user: Any, old: str) -> None:
    """One email to the address the account had: if someone else changed it (a password
    learnt, a computer left signed in), its player hears of it there, where a reset link
    can no longer reach them. A failed send is logged; the change stands."""
    sign_in = settings.KORONA_SITE_URL.rstrip("/") + reverse("login")
    body = (
        f"The email address of your Korona account {user.get_username()} is now "
        f"{user.email}: Korona's emails, and any link for a forgotten password, go there "
        "from now on.\n\n"
        "If you changed it, there is nothing to do. If you did not, someone else can sign "
        "in as you: tell your game master at once, who can give the account its address "
        f"back and a new password.\n\nKorona: {sign_in}\n"
    )
    message = EmailMessage(
        subject="Korona: your email address was changed",
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[old],
    )
    try:
        message.send(fail_silently=False)
    except Exception as error:  # noqa: BLE001 - any failure of the mail server is logged
        logger.warning("the old address of user %s was not told of its change: %s", user.pk, error)
