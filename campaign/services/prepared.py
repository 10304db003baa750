"""Prepared reads: a ``values_list`` query a turn makes every time, compiled once.

Building a queryset and compiling it to SQL costs Django several times what SQLite
takes to run a small read of one campaign's rows (measured on this machine, the areas'
read of the snapshot: about 320 us through the ORM against 35 us for its SQL run
directly), and a turn makes a dozen such reads whose SQL never changes, only their
parameters (the campaign's id, the turn's number). A ``PreparedRead`` builds its
queryset once per database connection, with stand-in values for its arguments, keeps
the SQL, the parameters and the converters Django would apply to the columns, and then
runs that SQL with the real values. It goes through ``connection.cursor()`` as the ORM
does, so the debug log and the pinned query counts see every read, and it converts
each column as the ORM does (JSON, booleans on SQLite), so the rows are the ones
``list(queryset)`` would give.

A ``PreparedObjects`` does the same for a read of model instances (with its
``select_related`` rows and its deferred fields): the instances ``list(queryset)`` would
give, made from the rows as Django's ``ModelIterable`` makes them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, cast

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators

# Django's own, as ``ModelIterable`` calls it (django-stubs give it a later Django's
# signature).
_related_populators: Callable[[dict[str, Any], list[Any], str], list[Any]] = cast(
    Any, get_related_populators
)

# The stand-in for argument i is STAND_IN + i: positive and within a 32-bit integer, so
# that no integer column's range check (Django turns a lookup out of a column's range
# into an empty read) changes the SQL; an id or a turn number no campaign reaches.
STAND_IN = 2_147_000_000


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    # (position in params, argument index, the parameter's type: PostgreSQL's backend
    # wraps some integers, as psycopg's Int4)
    slots: tuple[tuple[int, int, type[int]], ...]
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]
    # How a read of model instances makes them from its rows (``PreparedObjects``).
    instances: _Instances | None = None


@dataclass(frozen=True, slots=True)
class _Instances:
    model: type[Model]
    db: str
    span: tuple[int, int]  # the model's own columns in a row: row[start:end]
    init_list: list[str]  # their attnames, as ``from_db`` takes them
    related: tuple[Any, ...]  # a ``RelatedPopulator`` for each ``select_related`` model


class PreparedRead:
    """A read whose queryset ``build`` makes from integer arguments (ids, numbers):
    ``rows(*args)`` is ``list(build(*args))`` as tuples, its SQL compiled once for each
    connection. ``build`` must give a ``values_list`` queryset (not ``flat``) in which
    each argument is a parameter of the SQL, as a lookup's value is."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]]) -> None:
        self._build = build
        self._alias: str | None = None  # the database the queryset reads, once built
        self._compiled: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Compiled] = (
            weakref.WeakKeyDictionary()
        )

    def rows(self, *args: int) -> list[tuple[Any, ...]]:
        return self._fetch(args)[1]

    def _fetch(self, args: tuple[int, ...]) -> tuple[_Compiled, list[tuple[Any, ...]]]:
        """The read as compiled for its connection, and its rows for ``args``."""
        connection = connections[self._alias] if self._alias is not None else None
        compiled = self._compiled.get(connection) if connection is not None else None
        if connection is None or compiled is None:
            queryset = self._build(*(STAND_IN + i for i in range(len(args))))
            self._alias = queryset.db
            connection = connections[queryset.db]
            compiled = self._compiled[connection] = self._compile(queryset, len(args))
        if len(args) != len(compiled.slots):
            raise TypeError(f"this read takes {len(compiled.slots)} arguments, not {len(args)}")
        params = list(compiled.params)
        for position, index, kind in compiled.slots:
            params[position] = args[index] if kind is int else kind(args[index])
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched = cursor.fetchall()
        if not compiled.converters:
            return compiled, [tuple(row) for row in fetched]
        rows = []
        for row in fetched:
            values = list(row)
            for position, converters, expression in compiled.converters:
                value = values[position]
                for converter in converters:
                    value = converter(value, expression, connection)
                values[position] = value
            rows.append(tuple(values))
        return compiled, rows

    def _compile(self, queryset: QuerySet[Any, Any], arity: int) -> _Compiled:
        return _compile(queryset, arity)


class PreparedObjects(PreparedRead):
    """A read of model instances: ``build`` gives a queryset of a model (``filter``,
    ``order_by``, ``select_related``, ``defer``, a slice; no annotation, no
    ``values``), and ``objects(*args)`` is ``list(build(*args))``, its SQL compiled once
    for each connection. Each instance is made as ``ModelIterable`` makes it:
    ``from_db`` with the model's columns, then each ``select_related`` instance."""

    def rows(self, *args: int) -> list[tuple[Any, ...]]:
        raise TypeError("a read of model instances gives objects(), not rows()")

    def objects(self, *args: int) -> list[Any]:
        compiled, rows = self._fetch(args)
        made = compiled.instances
        if made is None:
            raise AssertionError("a read of objects is compiled with how to make them")
        start, end = made.span
        objects = []
        for row in rows:
            instance = made.model.from_db(made.db, made.init_list, row[start:end])
            for populator in made.related:
                populator.populate(row, instance)
            objects.append(instance)
        return objects

    def _compile(self, queryset: QuerySet[Any, Any], arity: int) -> _Compiled:
        known_related = getattr(queryset, "_known_related_objects", None)
        if queryset._iterable_class is not ModelIterable or known_related:
            raise ValueError("a prepared read of objects is a plain queryset of a model")
        compiler = queryset.query.get_compiler(queryset.db)
        compiler.setup_query()  # the columns read, and the model each belongs to
        if compiler.annotation_col_map:
            raise ValueError("a prepared read of objects has no annotation")
        klass_info = compiler.klass_info
        columns = klass_info["select_fields"]
        start, end = columns[0], columns[-1] + 1
        made = _Instances(
            model=klass_info["model"],
            db=queryset.db,
            span=(start, end),
            init_list=[column[0].target.attname for column in compiler.select[start:end]],
            related=tuple(_related_populators(klass_info, compiler.select, queryset.db)),
        )
        return replace(_compile(queryset, arity), instances=made)


def _compile(queryset: QuerySet[Any, Any], arity: int) -> _Compiled:
    """The SQL of ``queryset`` and where its stand-ins are, as ``results_iter`` of
    Django's compiler would run it. Anything this does not reproduce (extra selects,
    composite keys, a stand-in that is not one parameter) is refused: a bug in a read."""
    compiler = queryset.query.get_compiler(queryset.db)
    sql, params = compiler.as_sql()
    if compiler.has_extra_select:
        raise ValueError("a prepared read has no extra select")
    fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
    if compiler.has_composite_fields(fields):
        raise ValueError("a prepared read has no composite field")
    slots = []
    for position, value in enumerate(params):
        index = value - STAND_IN if isinstance(value, int) and not isinstance(value, bool) else -1
        if 0 <= index < arity:
            slots.append((position, index, type(value)))
    if sorted(index for _, index, _ in slots) != list(range(arity)):
        raise ValueError(f"each argument of a prepared read is one parameter: {sql}")
    converters = tuple(
        (position, tuple(convs), expression)
        for position, (convs, expression) in compiler.get_converters(fields).items()
    )
    return _Compiled(sql=sql, params=tuple(params), slots=tuple(slots), converters=converters)
