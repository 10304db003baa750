"""The API's token check: DRF's ``TokenAuthentication``, its one query written in SQL.

Every API request signed in by a token reads the token and its user, afresh, so a revoked
token or a deactivated user is refused at once. DRF builds that query through the ORM on
every request (``Token.objects.select_related("user").get(key=...)``), and building it
cost more than the rest of a kept API list: about 1 of a kept list's 1.2-1.5 ms of CPU in
process, a third of the whole (issue 17). Here it is the same join, written once per
process and database, run on a plain cursor, and its row turned into the user as the ORM
turns any row into a model (each column's converters, then ``Model.from_db``): the same
user, the same refusals, the same single query. Read through ``raw`` instead, building
the raw query's column map and converters on every request was still about a quarter of
a kept list's time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

KEY_LENGTH = Token._meta.get_field("key").max_length or 40


@dataclass(frozen=True, slots=True)
class _Query:
    """The token's query for one database: its SQL, the user's fields in its columns'
    order, and each column's converters with the expression they are called with."""

    sql: str
    attnames: list[str]
    converters: list[tuple[int, list[Callable[..., Any]], Any]]


_queries: dict[tuple[str, Any], _Query] = {}


def _query(alias: str) -> _Query:
    connection = connections[alias]
    user_model = get_user_model()
    key = (alias, user_model)  # the user model too: tests may swap it
    if (known := _queries.get(key)) is not None:
        return known
    quote = connection.ops.quote_name
    fields = list(user_model._meta.concrete_fields)
    created = Token._meta.get_field("created")
    columns = [f"u.{quote(f.column)}" for f in fields] + [f"t.{quote(created.column)}"]
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(user_model._meta.db_table)} u"
        f" JOIN {quote(Token._meta.db_table)} t"
        f" ON t.{quote(Token._meta.get_field('user').column)} = u.{quote(user_model._meta.pk.column)}"
        f" WHERE t.{quote(Token._meta.get_field('key').column)} = %s"
    )
    converters = []
    for index, field in enumerate([*fields, created]):
        expression = field.get_col("u" if index < len(fields) else "t")
        found = connection.ops.get_db_converters(expression) + expression.get_db_converters(
            connection
        )
        if found:
            converters.append((index, found, expression))
    made = _Query(sql=sql, attnames=[f.attname for f in fields], converters=converters)
    _queries[key] = made
    return made


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, checked in one query written in SQL."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        if not (key.isascii() and key.isalnum() and len(key) <= KEY_LENGTH):
            # Never a token (DRF's are 40 hex digits); a NUL would be a database error on
            # PostgreSQL, a 500 where a bad token is a 401.
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user_model = get_user_model()
        alias = router.db_for_read(user_model)
        query = _query(alias)
        connection = connections[alias]
        with connection.cursor() as cursor:
            cursor.execute(query.sql, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        values = list(row)
        for index, converters, expression in query.converters:
            for convert in converters:
                values[index] = convert(values[index], expression, connection)
        user = user_model.from_db(alias, query.attnames, values[:-1])
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = Token(key=key, user=user, created=values[-1])
        return user, token
