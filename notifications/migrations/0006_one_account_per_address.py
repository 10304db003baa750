"""One account per email address, kept by the database: a unique index on the address
trimmed and in lower case (as ``notifications.addresses`` compares them), for every
account that has one. The forms check first and say why; the index stops two sign-ups
with the same address at the same moment, which both pass the forms' check.

Django's user model is not Korona's, so the index is made here, in SQL both SQLite and
PostgreSQL read (an index on an expression, partial: an account may have no address).

Accounts that shared an address before (the system check ``notifications.W001`` warned
the game master of them at every migrate) would stop the index being made. The address
stays with the one of them that signed in last (never signed in: the oldest), the only
one still in use most likely; the others lose it, and the migration says which, and how
the game master gives each its own. A shared address got none of them a reset link, so
the one that keeps it gets that back; the others get no email until given their own.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations
from django.db.models.functions import Lower, Trim

INDEX = "korona_user_email_unique"


def _signed_in_last(user: Any) -> tuple[bool, float, int]:
    """Sorts an address's accounts: the last one signed in, else the oldest, last."""
    last = user.last_login
    return (last is not None, last.timestamp() if last else 0.0, -user.pk)


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _one_account_per_address(apps: Any, schema_editor: Any) -> None:
    user_model = apps.get_model("auth", "User")
    alias = schema_editor.connection.alias
    users = user_model.objects.using(alias).annotate(address=Lower(Trim("email")))
    by_address: dict[str, list[Any]] = {}
    for user in users.exclude(address="").order_by("pk"):
        by_address.setdefault(user.address, []).append(user)
    for address, accounts in sorted(by_address.items()):
        if len(accounts) < 2:
            continue
        accounts.sort(key=_signed_in_last)
        keeper, others = accounts[-1], accounts[:-1]
        user_model.objects.using(alias).filter(pk__in=[user.pk for user in others]).update(email="")
        lost = _join(sorted(user.username for user in others))
        lost_words = (
            f"{lost} has no address now, so gets no email until you give it one"
            if len(others) == 1
            else f"{lost} have no address now, so get no email until you give each one"
        )
        why = "signed in last" if keeper.last_login else "the oldest; none has signed in"
        print(
            f"\nThe accounts {_join(sorted(user.username for user in accounts))} shared "
            f"the email address {address}, which only one account may have now: "
            f"{keeper.username} keeps it ({why}); {lost_words} (in the admin: "
            "Users, the account, Email address, then Save)."
        )
    table = schema_editor.quote_name(user_model._meta.db_table)
    email = schema_editor.quote_name("email")
    schema_editor.execute(
        f"CREATE UNIQUE INDEX {schema_editor.quote_name(INDEX)} ON {table} "
        f"((LOWER(TRIM({email})))) WHERE TRIM({email}) <> ''"
    )


def _drop_index(apps: Any, schema_editor: Any) -> None:
    schema_editor.execute(f"DROP INDEX {schema_editor.quote_name(INDEX)}")


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("notifications", "0005_game_master_words"),
    ]

    operations = [
        migrations.RunPython(_one_account_per_address, _drop_index, elidable=False),
    ]
