"""One row of hand-written SQL, its columns converted as the ORM converts a model's.

Korona writes a few hot queries in SQL (the API's token check, ``config.tokens``; a
campaign's stamp, ``campaign.services.visibility.campaign_stamp``), which every API
request and every map poll runs. Read through ``Model.objects.raw``, Django builds the
raw query's column map and each column's converters again on every call, and that cost
about as much as the rest of a kept API list. Here a plain cursor reads the row and
each column that comes from a model field gets that field's converters (the database's,
then the field's own: on SQLite a date-time is text until converted), found once per
process and database: the same values the ORM gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from django.db import connections
from django.db.models import Field

Converter = Callable[[Any, Any, Any], Any]

_converters: dict[tuple[str, Field[Any, Any], str], tuple[list[Converter], Any]] = {}


def converters_of(alias: str, field: Field[Any, Any], table: str) -> tuple[list[Converter], Any]:
    """``field``'s converters on database ``alias`` and the expression they are called
    with, as the ORM's compiler finds them for a column of ``table`` (an alias)."""
    key = (alias, field, table)
    if (known := _converters.get(key)) is None:
        connection = connections[alias]
        expression = field.get_col(table)
        found = connection.ops.get_db_converters(expression) + expression.get_db_converters(
            connection
        )
        known = _converters[key] = (found, expression)
    return known


Column: TypeAlias = "tuple[Field[Any, Any], str] | None"


def fetch_row(
    alias: str, sql: str, params: Sequence[Any], fields: Sequence[Column]
) -> list[Any] | None:
    """The first row of ``sql`` (None if none), each column converted as ``fields`` says:
    ``(field, table alias)`` for a model's column, None for one read as it comes (an
    expression's: the ORM converts those of ``raw`` no further either)."""
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, spec in enumerate(fields):
        if spec is None:
            continue
        converters, expression = converters_of(alias, *spec)
        for convert in converters:
            values[index] = convert(values[index], expression, connection)
    return values
