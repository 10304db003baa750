"""The signed-in user of a request, read from the cache.

Django loads the user of every signed-in request from the database. Answers that need
only one query besides (the map's 304 to a browser that holds it, its live poll) then
spend about half their time on that one query, so the user is kept in the cache for a
minute. (Measured for issue 16: with the user read from the database on every request,
the map's 304 ran at 36% of a plain ``JsonResponse``'s rate instead of 66%: median CPU
time per request in process.) Saving or deleting a user drops it at once (the
signals below: a password change, a deactivation, a new permission); a change made
without ``save`` (a queryset ``update``) takes effect within the minute.

A username signs in typed in any letter case: "BOB" signs in the account "bob", as most
sites do (the database keeps one account per username in any case: migration
notifications 0009); django-axes counts the wrong passwords of every spelling against the
one account (``lockout_username``), so changing the case buys no more guesses.

A new password also revokes the user's API tokens (``revoke_tokens``), whichever way it
is set: the admin, ``manage.py changepassword``, ``set_password`` and ``save``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save, pre_save

USER_SECONDS = 60


def _key(user_id: Any) -> str:
    return f"auth-user:{user_id}"


def account_username(typed: str) -> str | None:
    """The username of the account ``typed`` names: its own when an account has it
    exactly, else the one account's whose username it is in another letter case. None
    when none has, or when it could be either of two accounts the database let in before
    it kept case apart (migration notifications 0009): they sign in typed exactly."""
    found = list(
        get_user_model()
        .objects.filter(username__iexact=typed)
        .values_list("username", flat=True)
        .order_by()[:10]
    )
    if typed in found:
        return typed
    return found[0] if len(found) == 1 else None


def lockout_username(request: Any, credentials: dict[str, Any] | None = None) -> str | None:
    """django-axes's name for the username being tried (``AXES_USERNAME_CALLABLE``): the
    account's username in any case it is typed, so "bob", "Bob" and "BOB" share the count
    of wrong passwords and the lockout (lifted by the account's username); a name of no
    account is counted in lower case."""
    typed = (credentials or {}).get("username")
    if typed is None:
        typed = getattr(request, "data", request.POST).get("username")
    if not isinstance(typed, str):
        return None
    return account_username(typed) or typed.lower()


class CachedModelBackend(ModelBackend):
    """Django's ``ModelBackend``, whose ``get_user`` reads through the cache, and whose
    sign-in takes the username in any letter case (``account_username``)."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        field = get_user_model().USERNAME_FIELD
        if username is None:
            username = kwargs.pop(field, None)
        if isinstance(username, str):
            username = account_username(username) or username
        return super().authenticate(request, username=username, password=password, **kwargs)

    def get_user(self, user_id: Any) -> Any:
        key = _key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                cache.set(key, user, USER_SECONDS)
        return user


def forget_user(sender: Any, instance: Any, **kwargs: Any) -> None:
    cache.delete(_key(instance.pk))


def note_a_new_password(
    sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any
) -> None:
    """Before a user is saved: whether the password hash is about to change."""
    instance._korona_new_password = False
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance._korona_new_password = stored is not None and stored != instance.password


def revoke_tokens(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A new password revokes the user's API tokens, as it ends their other sessions:
    whoever had the old password has the old token too. (Django rehashing a password
    with a stronger hasher at sign-in counts as new: the user signs in again.)"""
    if getattr(instance, "_korona_new_password", False):
        from rest_framework.authtoken.models import Token

        Token.objects.filter(user=instance).delete()
        instance._korona_new_password = False


User = get_user_model()
pre_save.connect(note_a_new_password, sender=User, dispatch_uid="korona-note-password")
post_save.connect(revoke_tokens, sender=User, dispatch_uid="korona-revoke-tokens")
post_save.connect(forget_user, sender=get_user_model(), dispatch_uid="korona-forget-user")
post_delete.connect(forget_user, sender=get_user_model(), dispatch_uid="korona-forget-user-d")
