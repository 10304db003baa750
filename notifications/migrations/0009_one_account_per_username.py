"""One account per username in any letter case, kept by the database: a unique index on
the username in lower case. Django's sign-up and "Add an account" forms refuse "Bob"
beside "bob" already, and sign-in takes a username in any case (``config.auth``), so
two such accounts would be one name to their players; the index stops the ways round the
forms (two saves at the same moment, a rename in the admin, ``createsuperuser``).

Django's user model is not Korona's, so the index is made here, in SQL both SQLite and
PostgreSQL read, as migration 0006 made the email address's.

Accounts whose usernames already differ only in case keep them, and keep signing in as
before, each with its username typed exactly (typed in another case it names both, so
neither): renaming one would leave its player unable to sign in, and refusing to migrate
would leave the game master's site down until a rename made without the admin. The
later-made of each such group stay outside the index, by id, so a new account still
cannot take the name in any case; the migration names them, and how the game master
tells them apart (docs/pages.md, "Accounts and sides").
"""

from __future__ import annotations

from typing import Any

from django.db import migrations
from django.db.models.functions import Lower

INDEX = "korona_user_username_unique"


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _one_account_per_username(apps: Any, schema_editor: Any) -> None:
    user_model = apps.get_model("auth", "User")
    alias = schema_editor.connection.alias
    # Lower-cased by the database, as the index will be (SQLite's LOWER folds only ASCII).
    users = user_model.objects.using(alias).annotate(folded=Lower("username")).order_by("pk")
    by_name: dict[str, list[tuple[int, str]]] = {}
    for pk, username, folded in users.values_list("pk", "username", "folded"):
        by_name.setdefault(folded, []).append((pk, username))
    left_out: list[int] = []
    for _, accounts in sorted(by_name.items()):
        if len(accounts) < 2:
            continue
        left_out.extend(pk for pk, _ in accounts[1:])
        print(
            f"\nThe accounts {_join(sorted(name for _, name in accounts))} have usernames "
            "that differ only in letter case. Each keeps its username and signs in with it "
            "typed exactly as it is (typed in another case it could be either, so it is "
            "refused); no new account can take it, in any case. To tell them apart, rename "
            "all but one (in the admin: Users, the account, Username, then Save) and tell "
            "their players their new usernames."
        )
    table = schema_editor.quote_name(user_model._meta.db_table)
    username = schema_editor.quote_name("username")
    outside = (
        f" WHERE {schema_editor.quote_name('id')} NOT IN ({', '.join(map(str, left_out))})"
        if left_out
        else ""
    )
    schema_editor.execute(
        f"CREATE UNIQUE INDEX {schema_editor.quote_name(INDEX)} ON {table} "
        f"((LOWER({username}))){outside}"
    )


def _drop_index(apps: Any, schema_editor: Any) -> None:
    schema_editor.execute(f"DROP INDEX {schema_editor.quote_name(INDEX)}")


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("notifications", "0008_side_people_words"),
    ]

    operations = [
        migrations.RunPython(_one_account_per_username, _drop_index, elidable=False),
    ]
