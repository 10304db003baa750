"""The API's token check: DRF's ``TokenAuthentication``, its one query written in SQL.

Every API request signed in by a token reads the token and its user, afresh, so a revoked
token or a deactivated user is refused at once. DRF builds that query through the ORM on
every request (``Token.objects.select_related("user").get(key=...)``), and building it
cost more than the rest of a kept API list: about 1 of a kept list's 1.2-1.5 ms of CPU in
process, a third of the whole (issue 17). Here it is the same join, its SQL written once
per process and database, read on a plain cursor and made into the user as the ORM makes
any row into a model (each column's converters, ``config.rows``, then
``Model.from_db``): the same user, the same refusals, the same single query. Read
through ``raw`` instead, the raw query's column map and converters built on every
request were still about a quarter of a kept list's time.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from config.rows import Column, fetch_row

KEY_LENGTH = Token._meta.get_field("key").max_length or 40

# By database and user model (tests may swap it): the SQL, its columns for fetch_row,
# and the user's field names (attnames) in the order of its columns.
_Query = tuple[str, list[Column], list[str]]
_queries: dict[tuple[str, Any], _Query] = {}


def _query(alias: str, user_model: Any) -> _Query:
    if (known := _queries.get((alias, user_model))) is not None:
        return known
    ops = connections[alias].ops

    def column(table: str, field: Any) -> str:
        return f"{table}.{ops.quote_name(field.column)}"

    fields = list(user_model._meta.concrete_fields)
    token = Token._meta
    columns = [column("u", f) for f in fields] + [column("t", token.get_field("created"))]
    sql = (
        f"SELECT {', '.join(columns)} FROM {ops.quote_name(user_model._meta.db_table)} u"
        f" JOIN {ops.quote_name(token.db_table)} t"
        f" ON {column('t', token.get_field('user'))} = {column('u', user_model._meta.pk)}"
        f" WHERE {column('t', token.get_field('key'))} = %s"
    )
    read: list[Column] = [(field, "u") for field in fields]
    read.append((token.get_field("created"), "t"))
    known = _queries[alias, user_model] = (sql, read, [f.attname for f in fields])
    return known


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, checked in one query written in SQL."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        if not (key.isascii() and key.isalnum() and len(key) <= KEY_LENGTH):
            # Never a token (DRF's are 40 hex digits); a NUL would be a database error on
            # PostgreSQL, a 500 where a bad token is a 401.
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user_model = get_user_model()
        alias = router.db_for_read(user_model)
        sql, columns, attnames = _query(alias, user_model)
        values = fetch_row(alias, sql, [key], columns)
        if values is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = user_model.from_db(alias, attnames, values[:-1])
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, Token(key=key, user=user, created=values[-1])
