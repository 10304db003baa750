"""``createsuperuser`` (README: the way to add another game master), refusing in plain
words what the database would refuse with a traceback: a username another account has in
any letter case, an email address another account uses (trimmed, in any case). Migrations
``notifications`` 0006 and 0009 keep both unique; Django's own command checks only the
username, exactly as typed, and then met the index's IntegrityError.

Django's command, with those checks: a name or address typed at the prompt is asked
again, as Django asks again for a taken username; one given as an option or in the
environment (``--noinput`` with ``DJANGO_SUPERUSER_*``) ends the command, nothing made.
Found first because its app, ``config``, comes before ``django.contrib.auth`` in
INSTALLED_APPS (Django's ``get_commands``: an earlier app's command wins).
"""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.management.commands import createsuperuser
from django.core.management.base import CommandError
from django.db import IntegrityError
from django.db.models import Value
from django.db.models.functions import Lower

from notifications.addresses import email_taken

EMAIL_TAKEN = (
    "Error: another account uses that email address (each account needs one of its own, "
    "in any letter case): give another."
)


class Command(createsuperuser.Command):
    def _validate_username(self, username: str, verbose_field_name: str, database: str) -> Any:
        """Django's refusals, then one of a username another account has in another
        letter case ("Bob" beside "bob"), as the database's index compares them."""
        # Django's private check, the one both its prompts and --noinput call.
        refused = super()._validate_username(  # type: ignore[misc]
            username, verbose_field_name, database
        )
        if refused or not username:
            return refused
        users = self.UserModel._default_manager.db_manager(database)
        field = str(get_user_model().USERNAME_FIELD)
        same = users.annotate(folded=Lower(field)).filter(folded=Lower(Value(username)))
        if same.exists():
            taken = same.values_list(field, flat=True).first()
            return (
                f"Error: that username is already taken, as {taken!r}: usernames are the "
                "same in any letter case. Give another."
            )
        return None

    def get_input_data(self, field: Any, message: str, default: Any = None) -> Any:
        """A typed email address another account uses is asked again."""
        value = super().get_input_data(field, message, default)
        if field.name == "email" and value and email_taken(value):
            self.stderr.write(EMAIL_TAKEN)
            return None
        return value

    def handle(self, *args: Any, **options: Any) -> None:
        given = options.get("email")
        if given is None and not options["interactive"]:
            given = os.environ.get("DJANGO_SUPERUSER_EMAIL")
        if given and email_taken(given):
            raise CommandError(f"{EMAIL_TAKEN.removeprefix('Error: ')} Nothing was created.")
        try:
            super().handle(*args, **options)
        except IntegrityError as taken:  # the same name or address taken at that moment
            raise CommandError(
                "Another account took that username or email address meanwhile: nothing "
                "was created. Run the command again with another."
            ) from taken
