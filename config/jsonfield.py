"""A JSON column written by orjson: Django's ``JSONField`` with a faster encoder.

A campaign turn writes some 100 KB of JSON (its battles' logs above all), and the
standard library's encoder was a tenth of the turn's work. ``JSONField`` here stores the
same values, read back the same: only the text differs on SQLite, which keeps the text
(no spaces after ``,`` and ``:``, and characters beyond ASCII as UTF-8, not ``\\u``
escapes); nothing reads that text but a JSON parser (the ORM's, SQLite's
``json_extract``). PostgreSQL's ``jsonb`` keeps no text at all.

``dumps`` falls back to ``json.dumps`` for whatever orjson declines: an integer beyond
64 bits, a key that is not a string (``json.dumps`` writes ``1`` as ``"1"``), a
dataclass, a date-time (``json.dumps`` refuses those, and so still does), and whenever
orjson is not installed. The one value the two write differently is a float that is not
finite (``json.dumps``: ``NaN``, which PostgreSQL refuses; orjson: ``null``): no
column holds one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db import models
from django.db.backends.postgresql.psycopg_any import Jsonb

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; the fallback is plain json
    orjson = None  # type: ignore[assignment]

# Passed through to ``default`` (there is none, so orjson raises and json.dumps decides).
_DECLINE = (
    0 if orjson is None else orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
)


def dumps(value: Any) -> str:
    """``value`` as JSON text (orjson's, else ``json.dumps``'s)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=_DECLINE).decode()
        except TypeError:
            pass
    return json.dumps(value)


class JSONField(models.JSONField):
    """Django's ``JSONField``, its values written by ``dumps`` unless it has an
    ``encoder`` of its own (then as Django writes them)."""

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if self.encoder is not None:
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        if connection.vendor == "postgresql":
            return Jsonb(value, dumps=dumps)
        return dumps(value)

    def deconstruct(self) -> tuple[str, str, Sequence[Any], dict[str, Any]]:
        """As Django's field: the column is the same, so migrations see no change."""
        name, _, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs
