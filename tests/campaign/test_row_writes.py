"""The plain-SQL writes of campaign.services.snapshot (``save_fields``, ``insert_rows``,
``insert_new``, ``update_where``): the rows the ORM's ``save(update_fields=...)``,
``bulk_create`` and ``update`` would write, in one statement each."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.models import Battle
from campaign.models import Campaign, Company, SeedCommitment, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.snapshot import insert_new, insert_rows, save_fields, update_where
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db


def _values(model: Any, pk: int) -> dict[str, Any]:
    values: dict[str, Any] = model.objects.filter(pk=pk).values().get()
    return values


def test_save_fields_writes_what_save_with_update_fields_writes() -> None:
    ours = create_campaign(data=korona_doc(), name="Ours", seed=1)
    theirs = create_campaign(data=korona_doc(), name="Theirs", seed=1)
    before = ours.updated_at
    changed: dict[str, Any] = {
        "turn": 3,
        "status": Campaign.Status.FINISHED,
        "winner": "japanese",
        "end_reason": "a reason",
        "settings": {**ours.settings, "turn_limit": 7},
        "next_deadline": timezone.now() + timedelta(days=1),
    }
    fields = ["turn", "status", "winner", "end_reason", "settings", "next_deadline", "updated_at"]
    for row in (ours, theirs):
        for name, value in changed.items():
            setattr(row, name, value)
    with CaptureQueriesContext(connection) as ours_sql:
        save_fields(ours, fields)
    with CaptureQueriesContext(connection) as theirs_sql:
        theirs.save(update_fields=fields)
    assert len(ours_sql.captured_queries) == 1
    assert ours.updated_at > before  # auto_now, set as save sets it
    written, expected = _values(Campaign, ours.pk), _values(Campaign, theirs.pk)
    for key in ("id", "name", "created_at", "updated_at"):
        written.pop(key), expected.pop(key)
    assert written == expected
    assert written["turn"] == 3 and written["settings"]["turn_limit"] == 7
    # The same statement, but for the row and the time.
    assert (
        ours_sql.captured_queries[0]["sql"].split(" WHERE ")[0].split('"updated_at"')[0]
        == (theirs_sql.captured_queries[0]["sql"].split(" WHERE ")[0].split('"updated_at"')[0])
    )


def test_save_fields_of_a_row_that_is_gone_is_refused_as_save_refuses_it() -> None:
    campaign = create_campaign(data=korona_doc(), name="Gone", seed=1)
    turn = Turn.objects.create(campaign=campaign, number=1, seed=5)
    Turn.objects.filter(pk=turn.pk).delete()
    turn.status = Turn.Status.DONE
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        save_fields(turn, ["status"])


def test_insert_rows_writes_every_row_in_one_insert() -> None:
    campaign = create_campaign(data=korona_doc(), name="Rows", seed=1)
    turn = Turn.objects.create(campaign=campaign, number=1, seed=5)
    battles = Battle.objects.bulk_create(
        Battle(
            campaign=campaign,
            turn=turn,
            area=area,
            key=f"1:{area.name}",
            attacker_side="japanese",
            defender_side="australian",
            seed=n,
            spec={},
        )
        for n, area in enumerate(campaign.areas.order_by("id")[:2])
    )
    companies = list(Company.objects.filter(campaign=campaign).order_by("id")[:3])
    through = Battle.attackers.through
    rows = [(battles[0].pk, companies[0].pk), (battles[0].pk, companies[1].pk)]
    rows += [(battles[1].pk, companies[2].pk)]
    with CaptureQueriesContext(connection) as captured:
        insert_rows(through, ["battle", "company"], rows)
        insert_rows(through, ["battle", "company"], [])  # nothing: no query
    assert len(captured.captured_queries) == 1
    assert sorted(through.objects.values_list("battle_id", "company_id")) == sorted(rows)
    assert [c.name for c in battles[0].attackers.order_by("id")] == [c.name for c in companies[:2]]


def test_insert_new_writes_what_bulk_create_writes_and_can_leave_a_conflict_out() -> None:
    campaign = create_campaign(data=korona_doc(), name="Commitments", seed=1)

    def row(number: int, seed: int) -> SeedCommitment:
        return SeedCommitment(
            campaign=campaign,
            number=number,
            seed=seed,
            salts={"public": "00"},
            branch_commitments={"public": "11"},
            commitment="22",
        )

    with CaptureQueriesContext(connection) as captured:
        insert_new(row(7, 70))
        insert_new(row(7, 71), ignore_conflicts=True)  # the turn has one: left out
    assert len(captured.captured_queries) == 2
    SeedCommitment.objects.bulk_create([row(8, 70)])
    written = _values(SeedCommitment, SeedCommitment.objects.get(campaign=campaign, number=7).pk)
    expected = _values(SeedCommitment, SeedCommitment.objects.get(campaign=campaign, number=8).pk)
    assert written.pop("created_at") is not None  # auto_now_add, set as bulk_create sets it
    for key in ("id", "number", "created_at"):
        expected.pop(key)
    written.pop("id")
    written.pop("number")
    assert written == expected
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_new(row(7, 72))


def test_update_where_updates_the_rows_filter_update_would() -> None:
    campaign = create_campaign(data=korona_doc(), name="Reveal", seed=1)
    now = timezone.now()
    for number in (2, 3):
        SeedCommitment.objects.create(
            campaign=campaign, number=number, seed=number, salts={}, branch_commitments={}
        )
    SeedCommitment.objects.filter(campaign=campaign, number=3).update(revealed_at=now)
    later = now + timedelta(hours=1)
    where = {"campaign": campaign.pk, "revealed_at": None}
    with CaptureQueriesContext(connection) as captured:
        updated = update_where(SeedCommitment, {**where, "number": 2}, {"revealed_at": later})
        again = update_where(SeedCommitment, {**where, "number": 3}, {"revealed_at": later})
    assert (updated, again, len(captured.captured_queries)) == (1, 0, 2)
    revealed = dict(
        SeedCommitment.objects.filter(campaign=campaign).values_list("number", "revealed_at")
    )
    assert revealed[2] == later and revealed[3] == now  # the one shown before is kept
    assert revealed[1] is None  # the first turn's, made with the campaign: not matched
