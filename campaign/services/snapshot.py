"""Between the database and the campaign rules: load a campaign's snapshot, save one back.

The rules (``rules/campaign``) compute on a ``CampaignState``; these two functions are
the only way campaign state crosses into or out of the models. Both run a fixed number
of queries whatever the number of companies: one query per table, one statement per
table written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, cast

from django.db import DatabaseError, models, transaction
from django.db.models.constants import OnConflict

from campaign.history import quiet_history
from campaign.models import AirGroup, Area, Campaign, Company, CompanyStands, Link, Ship, Side
from campaign.services.prepared import PreparedRead
from rules.campaign import state as rules
from rules.campaign.phases.end import end_causes
from rules.campaign.scenario import settings_to_json
from rules.units import STAND_TYPES

_STAND_ORDER = {unit: i for i, unit in enumerate(STAND_TYPES)}
# The company fields a turn may change, written back by save_snapshot.
COMPANY_FIELDS = [
    "side",
    "kind",
    "quality",
    "area",
    "turns_out_of_supply",
    "banzai",
    "standing_order",
    "in_supply",
]


@dataclass(frozen=True, slots=True)
class SnapshotIds:
    """The row ids behind a snapshot's names, for links to the pages and the API, and for
    ``save_snapshot`` to write over the rows it was loaded from without reading them again."""

    areas: dict[str, int]
    companies: dict[str, int]
    stands: dict[tuple[int, str], int] = field(default_factory=dict)  # (company, unit)
    ships: dict[str, int] = field(default_factory=dict)
    air: dict[str, int] = field(default_factory=dict)  # by side


def load_snapshot(*, campaign: Campaign) -> rules.CampaignState:
    """The campaign as the rules see it, in 7 queries: one per table (sides, areas, links,
    companies, stand counts, ships, air groups). The settings come from the row itself.

    Rows are read in creation order, so companies, links, ships and air groups come back
    in the order of the scenario they were created from (the turn rolls in this order)."""
    return load_snapshot_with_ids(campaign=campaign)[0]


# The snapshot's reads, by the campaign's id: compiled once (``prepared``), as a turn
# makes them every time.
_SIDES = PreparedRead(
    lambda campaign_id: (
        Side.objects.filter(campaign_id=campaign_id)
        .order_by("id")
        .values_list("key", "name", "base__name")
    )
)
_AREAS = PreparedRead(
    lambda campaign_id: (
        Area.objects.filter(campaign_id=campaign_id)
        .order_by("id")
        .values_list(
            "name",
            "zone",
            "track",
            "vegetation",
            "plains",
            "features",
            "x",
            "y",
            "controller",
            "id",
        )
    )
)
_LINKS = PreparedRead(
    lambda campaign_id: (
        Link.objects.filter(campaign_id=campaign_id)
        .order_by("id")
        .values_list("a__name", "b__name")
    )
)
_STANDS = PreparedRead(
    lambda campaign_id: (
        CompanyStands.objects.filter(company__campaign_id=campaign_id)
        .order_by("id")
        .values_list("company_id", "unit_type", "held", "establishment", "id")
    )
)
_COMPANIES = PreparedRead(
    lambda campaign_id: (
        Company.objects.filter(campaign_id=campaign_id)
        .order_by("id")
        .values_list("id", "area__name", *(f for f in COMPANY_FIELDS if f != "area"), "name")
    )
)
_SHIPS = PreparedRead(
    lambda campaign_id: (
        Ship.objects.filter(campaign_id=campaign_id)
        .order_by("id")
        .values_list("name", "side", "port__name", "present", "id")
    )
)
_AIR = PreparedRead(
    lambda campaign_id: (
        AirGroup.objects.filter(campaign_id=campaign_id)
        .order_by("id")
        .values_list("side", "base__name", "buffalos", "bombers", "id")
    )
)


def load_snapshot_with_ids(*, campaign: Campaign) -> tuple[rules.CampaignState, SnapshotIds]:
    """``load_snapshot`` and the row ids of its areas and companies, in the same 7 queries."""
    area_ids: dict[str, int] = {}
    company_ids: dict[str, int] = {}
    sides = {
        key: rules.Side(key=key, name=name, base=base or "")
        for key, name, base in _SIDES.rows(campaign.pk)
    }
    areas: dict[str, rules.Area] = {}
    for row in _AREAS.rows(campaign.pk):
        areas[row[0]] = rules.Area(
            name=row[0],
            zone=row[1],
            track=row[2],
            vegetation=row[3],
            plains=row[4],
            features=tuple(row[5]),
            x=row[6],
            y=row[7],
            controller=row[8],
        )
        area_ids[row[0]] = row[9]
    links = _LINKS.rows(campaign.pk)
    counts: dict[int, list[tuple[str, int, int]]] = {}
    stand_ids: dict[tuple[int, str], int] = {}
    for company_id, unit, held, full, stand_id in _STANDS.rows(campaign.pk):
        counts.setdefault(company_id, []).append((unit, held, full))
        stand_ids[company_id, unit] = stand_id
    companies: dict[str, rules.Company] = {}
    for row in _COMPANIES.rows(campaign.pk):
        company_id, area, side, kind, quality, turns_out, banzai, order, in_supply, name = row
        company_ids[name] = company_id
        stands = sorted(counts.get(company_id, []), key=lambda c: _STAND_ORDER.get(c[0], 99))
        companies[name] = rules.Company(
            name=name,
            side=side,
            kind=kind,
            area=area,
            stands={unit: held for unit, held, _ in stands},
            establishment={unit: full for unit, _, full in stands},
            quality=quality,
            turns_out_of_supply=turns_out,
            banzai=banzai,
            standing_order=order,
            in_supply=in_supply,
        )
    ship_rows = _SHIPS.rows(campaign.pk)
    ships = [
        rules.Ship(name=name, side=side, port=port, present=present)
        for name, side, port, present, _ in ship_rows
    ]
    air_rows = _AIR.rows(campaign.pk)
    air = [
        rules.AirGroup(side=side, base=base, buffalos=buffalos, bombers=bombers)
        for side, base, buffalos, bombers, _ in air_rows
    ]
    state = rules.CampaignState(
        name=campaign.name,
        seed=campaign.seed,
        settings=campaign.get_settings(),
        sides=sides,
        areas=areas,
        links=links,
        companies=companies,
        ships=ships,
        air=air,
        turn=campaign.turn,
        finished=campaign.status == Campaign.Status.FINISHED,
        winner=campaign.winner,
        end_reason=campaign.end_reason or None,
    )
    return state, SnapshotIds(
        areas=area_ids,
        companies=company_ids,
        stands=stand_ids,
        ships={row[0]: row[-1] for row in ship_rows},
        air={row[0]: row[-1] for row in air_rows},
    )


def save_snapshot(
    *, campaign: Campaign, state: rules.CampaignState, ids: SnapshotIds | None = None
) -> None:
    """Write what a turn changes back over the campaign's rows.

    ``ids``: the rows' ids as ``load_snapshot_with_ids`` read them, when nothing has
    written the campaign's companies, stands, ships or air groups since (in the same
    transaction): the 5 reads below are then saved.

    Must be called inside the caller's ``transaction.atomic()``, which should also hold
    the campaign row (``select_for_update``): the turn's outcome is then written whole or
    not at all. Raises ``TransactionManagementError`` outside one.

    Written: every company (deleting those the state no longer has: destroyed or
    surrendered; creating new ones), their stand counts (a row per unit type the company
    has ever had; new unit types get new rows), the control of areas, the ships, the air
    groups and the campaign row (turn, status, winner, end reason, settings). The map
    itself (areas, links, sides) is fixed for a campaign: a state naming an area, ship or
    air group the campaign lacks is a ``ValueError`` and nothing is written.

    Queries: 5 reads (areas, companies, stand rows, ships, air groups; none given
    ``ids``), one UPDATE each
    for companies, stand rows, areas, ships, air groups and the campaign, plus, only when
    needed, the deletion of removed companies (with their stands, orders and places in
    battles), the deletion of unit types a company no longer has, one INSERT of new
    companies and one INSERT of new stand rows.
    """
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError(
            "save_snapshot must run inside the caller's transaction.atomic()"
        )
    # A turn's writes are recorded by the turn itself, not row by row (campaign.history).
    with quiet_history():
        _write_snapshot(campaign=campaign, state=state, ids=ids or _read_ids(campaign))


def _read_ids(campaign: Campaign) -> SnapshotIds:
    return SnapshotIds(
        areas=dict(Area.objects.filter(campaign=campaign).values_list("name", "id")),
        companies=dict(Company.objects.filter(campaign=campaign).values_list("name", "id")),
        stands={
            (company_id, unit): row_id
            for row_id, company_id, unit in CompanyStands.objects.filter(
                company__campaign=campaign
            ).values_list("id", "company_id", "unit_type")
        },
        ships=dict(Ship.objects.filter(campaign=campaign).values_list("name", "id")),
        air=dict(AirGroup.objects.filter(campaign=campaign).values_list("side", "id")),
    )


def _write_snapshot(*, campaign: Campaign, state: rules.CampaignState, ids: SnapshotIds) -> None:
    # Copies: the writes below add and take ids.
    area_ids, company_ids, stand_ids = dict(ids.areas), dict(ids.companies), dict(ids.stands)
    ship_ids, air_ids = ids.ships, ids.air
    _check_known(state, area_ids=area_ids, ship_ids=ship_ids, air_ids=air_ids)

    removed = [cid for name, cid in company_ids.items() if name not in state.companies]
    if removed:
        Company.objects.filter(pk__in=removed).delete()
    new = [c for name, c in state.companies.items() if name not in company_ids]
    if new:
        created = Company.objects.bulk_create(
            company_row(campaign=campaign, company=c, area_ids=area_ids) for c in new
        )
        company_ids.update({row.name: row.pk for row in created})

    # Written as plain values (a row's pk, then its fields), not model instances: a turn
    # writes every company, stand row and area, and building a model for each cost more
    # than its part of the UPDATE.
    new_names = {c.name for c in new}
    update_rows(
        Company,
        [
            (company_ids[c.name], *_company_values(c, area_ids))
            for c in state.companies.values()
            if c.name not in new_names
        ],
        COMPANY_FIELDS,
    )

    stand_updates: list[tuple[int, int, int]] = []
    stand_inserts: list[CompanyStands] = []
    for company in state.companies.values():
        company_id = company_ids[company.name]
        for unit, held, full in _stand_counts(company):
            row_id = stand_ids.pop((company_id, unit), None)
            if row_id is None:
                stand_inserts.append(
                    CompanyStands(
                        company_id=company_id, unit_type=unit, held=held, establishment=full
                    )
                )
            else:
                stand_updates.append((row_id, held, full))
    # Rows left over are unit types the state no longer gives a company (neither held nor
    # in its establishment), besides the rows of removed companies, gone with them.
    removed_ids = set(removed)
    dropped = [row_id for (cid, _), row_id in stand_ids.items() if cid not in removed_ids]
    if dropped:
        CompanyStands.objects.filter(pk__in=dropped).delete()
    update_rows(CompanyStands, stand_updates, ["held", "establishment"])
    if stand_inserts:
        CompanyStands.objects.bulk_create(stand_inserts)

    update_rows(
        Area,
        [(area_ids[a.name], a.controller) for a in state.areas.values()],
        ["controller"],
    )
    update_rows(
        Ship,
        [(ship_ids[s.name], s.side, area_ids[s.port], s.present) for s in state.ships],
        ["side", "port", "present"],
    )
    update_rows(
        AirGroup,
        [(air_ids[g.side], area_ids[g.base], g.buffalos, g.bombers) for g in state.air],
        ["base", "buffalos", "bombers"],
    )

    campaign.turn = state.turn
    if state.finished:
        campaign.status = Campaign.Status.FINISHED
    elif campaign.status == Campaign.Status.FINISHED:
        campaign.status = Campaign.Status.ACTIVE
    campaign.winner = state.winner
    campaign.end_reason = state.end_reason or ""
    campaign.end_causes = causes_of(state)
    campaign.settings = settings_to_json(state.settings)
    save_fields(
        campaign,
        ["turn", "status", "winner", "end_reason", "end_causes", "settings", "updated_at"],
    )


def causes_of(state: rules.CampaignState) -> list[dict[str, Any]]:
    """Why a finished campaign ended, as the campaign row keeps it (``end_causes``): what
    the end phase found, read again from the state it left (nothing changes after it);
    [] for a campaign still going on, or one whose state ends it for no rule's reason (a
    scenario written as finished)."""
    return [asdict(cause) for cause in end_causes(state)] if state.finished else []


def company_row(
    *,
    campaign: Campaign,
    company: rules.Company,
    area_ids: dict[str, int],
    pk: int | None = None,
) -> Company:
    """The ``Company`` row for a snapshot's company (not saved)."""
    fields = _company_fields(company, area_ids)
    fields["area_id"] = fields.pop("area")  # by id: the area rows are not read
    return Company(pk=pk, campaign=campaign, name=company.name, **fields)


def _company_values(company: rules.Company, area_ids: dict[str, int]) -> tuple[Any, ...]:
    """The company's value of each of ``COMPANY_FIELDS``, in order (its area by id)."""
    fields = _company_fields(company, area_ids)
    return tuple(fields[name] for name in COMPANY_FIELDS)


def _company_fields(company: rules.Company, area_ids: dict[str, int]) -> dict[str, Any]:
    """What a turn may change of a company: each of ``COMPANY_FIELDS`` by name, its area
    by id (the one list both a new row and an update are made from)."""
    return {
        "side": company.side,
        "kind": company.kind,
        "quality": company.quality,
        "area": area_ids[company.area],
        "turns_out_of_supply": company.turns_out_of_supply,
        "banzai": company.banzai,
        "standing_order": company.standing_order,
        "in_supply": company.in_supply,
    }


def stand_rows(*, company_id: int, company: rules.Company) -> Iterable[CompanyStands]:
    """A ``CompanyStands`` row (not saved) per unit type the company has."""
    for unit, held, full in _stand_counts(company):
        yield CompanyStands(company_id=company_id, unit_type=unit, held=held, establishment=full)


def _stand_counts(company: rules.Company) -> Iterable[tuple[str, int, int]]:
    """(unit type, held, establishment) per unit type the company has."""
    for unit in dict.fromkeys([*company.establishment, *company.stands]):
        yield unit, company.stands.get(unit, 0), company.establishment.get(unit, 0)


def _check_known(
    state: rules.CampaignState,
    *,
    area_ids: dict[str, int],
    ship_ids: dict[str, int],
    air_ids: dict[str, int],
) -> None:
    problems = [f"area {name!r}" for name in state.areas if name not in area_ids]
    problems += [
        f"company {c.name!r} in area {c.area!r}"
        for c in state.companies.values()
        if c.area not in area_ids
    ]
    problems += [f"ship {s.name!r}" for s in state.ships if s.name not in ship_ids]
    problems += [f"{g.side} air group" for g in state.air if g.side not in air_ids]
    problems += [
        f"port or base {name!r}"
        for name in [s.port for s in state.ships] + [g.base for g in state.air]
        if name not in area_ids
    ]
    if problems:
        raise ValueError("the campaign has no " + ", no ".join(problems))


def update_rows(
    model: type[models.Model], rows: Sequence[tuple[Any, ...]], fields: list[str]
) -> None:
    """Write ``fields`` of every row in one UPDATE, however many rows. Each row is its pk
    and then its value of each field, in order (a foreign key's by the id).

    ``QuerySet.bulk_update`` would do the same in batches, and on SQLite Django sizes them
    for 999 parameters (a batch can be made smaller, never larger), so the query count
    would grow with the campaign; and building the CASE expressions through the ORM costs
    far more than the database's work. Measured (issue 16, item 7), the companies' and
    stand rows' writes of a turn, ``bulk_update`` against this function: 2 queries either
    way for the Korona scenario (8 companies, 26 stand rows), 3 against 2 for ten times
    its companies (260 stand rows: two batches of at most 249), and about 40 times the
    time (a loaded 2-core machine: 148 against 1.9 ms, 1,538 against 37 ms); a turn
    with ten times the companies goes from 46 queries to 48 (bench/turns.py). So the one
    statement is written here: ``SET col = CAST(CASE id WHEN %s THEN %s ... END AS type)``.
    SQLite (3.32+) takes 32766 parameters, a few thousand rows here; PostgreSQL has no
    such limit with Django's client-side binding."""
    if not rows:
        return
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    pk_column = quote(model._meta.pk.column)
    assignments: list[str] = []
    params: list[object] = []
    whens = " ".join(["WHEN %s THEN %s"] * len(rows))
    for position, name in enumerate(fields, start=1):
        field = cast("models.Field[Any, Any]", model._meta.get_field(name))  # a column
        for row in rows:
            params += [row[0], field.get_db_prep_value(row[position], connection)]
        assignments.append(
            f"{quote(field.column)} = CAST(CASE {pk_column} {whens} END "
            f"AS {field.cast_db_type(connection)})"
        )
    params += [row[0] for row in rows]
    placeholders = ", ".join(["%s"] * len(rows))
    sql = (
        f"UPDATE {quote(model._meta.db_table)} SET {', '.join(assignments)} "
        f"WHERE {pk_column} IN ({placeholders})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _set_clause(
    connection: Any, values: Sequence[tuple[models.Field[Any, Any], Any]]
) -> tuple[list[str], list[object]]:
    """An UPDATE's assignments of ``values`` (each column with its value, before the
    database's preparing) and their parameters, as the ORM writes them: a value the
    database gets as None is written NULL, any other as a parameter."""
    quote = connection.ops.quote_name
    assignments: list[str] = []
    params: list[object] = []
    for column, value in values:
        prepared = column.get_db_prep_save(value, connection)
        if prepared is None:
            assignments.append(f"{quote(column.column)} = NULL")
        else:
            assignments.append(f"{quote(column.column)} = %s")
            params.append(prepared)
    return assignments, params


def save_fields(instance: models.Model, fields: Sequence[str]) -> None:
    """Write ``fields`` of a saved row: the UPDATE ``instance.save(update_fields=fields)``
    makes (each value as ``pre_save`` gives it, ``auto_now`` set), its SQL written here.

    What a turn writes of its own rows (the Turn row as it ends, the campaign's turn and
    settings) is written every turn, and the ORM's compiling of one UPDATE costs several
    times the database's work (a loaded 2-core machine: about 400 us against 60 us for
    the campaign row). Like ``update_rows``, it sends no ``pre_save`` or ``post_save``
    signal: a turn's writes leave no history row (``quiet_history``), and nothing else
    listens to these models. No row updated is the ``DatabaseError`` ``save`` raises."""
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    meta = instance._meta
    table = quote(meta.db_table)
    # In the model's order of its fields, as ``save`` writes them.
    assignments, params = _set_clause(
        connection,
        [
            (column, column.pre_save(instance, False))
            for column in meta.local_concrete_fields
            if not column.primary_key and (column.name in fields or column.attname in fields)
        ],
    )
    params.append(meta.pk.get_db_prep_value(instance.pk, connection))
    sql = f"UPDATE {table} SET {', '.join(assignments)} WHERE {table}.{quote(meta.pk.column)} = %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount < 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")


def insert_rows(
    model: type[models.Model],
    fields: list[str],
    rows: Sequence[tuple[Any, ...]],
    *,
    ignore_conflicts: bool = False,
) -> None:
    """Insert every row in one INSERT, however many rows; each row is its value of each
    field, in order (a foreign key's by the id). Their ids are not read back: for rows
    nothing reads again in the same breath, such as a turn's battles' places for their
    companies (``bulk_create`` would build a model for each and compile the INSERT
    through the ORM, several times the database's work for a few rows). No signal is
    sent, as ``bulk_create`` sends none. ``ignore_conflicts``: a row that breaks a
    unique constraint is left out, as ``bulk_create(ignore_conflicts=True)`` leaves it."""
    if not rows:
        return
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    columns = [cast("models.Field[Any, Any]", model._meta.get_field(name)) for name in fields]
    params: list[object] = []
    for row in rows:
        params += [
            column.get_db_prep_save(value, connection)
            for column, value in zip(columns, row, strict=True)
        ]
    conflict = OnConflict.IGNORE if ignore_conflicts else None
    one = f"({', '.join(['%s'] * len(columns))})"
    suffix = connection.ops.on_conflict_suffix_sql(columns, conflict, [], [])
    sql = (
        f"{connection.ops.insert_statement(on_conflict=conflict)} "
        f"{quote(model._meta.db_table)} "
        f"({', '.join(quote(column.column) for column in columns)}) "
        f"VALUES {', '.join([one] * len(rows))}" + (f" {suffix}" if suffix else "")
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def insert_new(instance: models.Model, *, ignore_conflicts: bool = False) -> None:
    """Insert a new row (no pk yet) as ``bulk_create([instance])`` inserts it: every
    field but the generated id, as ``pre_save`` gives it (``auto_now_add`` set), its id
    not read back (``insert_rows``)."""
    meta = instance._meta
    columns = [f for f in meta.concrete_fields if not f.generated and f is not meta.auto_field]
    insert_rows(
        type(instance),
        [column.name for column in columns],
        [tuple(column.pre_save(instance, True) for column in columns)],
        ignore_conflicts=ignore_conflicts,
    )


def update_where(
    model: type[models.Model], where: Mapping[str, Any], values: Mapping[str, Any]
) -> int:
    """``model.objects.filter(**where).update(**values)`` for plain equality (a None in
    ``where``: IS NULL), its SQL written here; the rows updated. For the rows a turn
    updates every turn by a key other than their id (the ORM's compiling of one UPDATE
    costs several times the database's work); no signal is sent, as ``update`` sends
    none."""
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    meta = model._meta
    table = quote(meta.db_table)
    assignments, params = _set_clause(
        connection,
        [(cast("models.Field[Any, Any]", meta.get_field(name)), v) for name, v in values.items()],
    )
    conditions: list[str] = []
    for name, value in where.items():
        column = cast("models.Field[Any, Any]", meta.get_field(name))
        if value is None:
            conditions.append(f"{table}.{quote(column.column)} IS NULL")
        else:
            conditions.append(f"{table}.{quote(column.column)} = %s")
            params.append(column.get_db_prep_value(value, connection))
    sql = f"UPDATE {table} SET {', '.join(assignments)} WHERE ({' AND '.join(conditions)})"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)
