"""The embedded schedule: `manage.py run_scheduler` plays due turns in-process."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from campaign.management.commands import run_scheduler
from campaign.models import Turn
from campaign.services.schedule import mark_side_ready
from tests.campaign.test_services_turns import new_campaign, reload
from tests.scheduling.test_schedule import NOW, players, scheduled

pytestmark = pytest.mark.django_db


def test_run_scheduler_once_plays_the_due_turns_and_only_those(
    django_capture_on_commit_callbacks: Any,
) -> None:
    due = scheduled("Due")
    idle = new_campaign("Idle")
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("run_scheduler", "--once", stdout=out)

    assert f"campaign {due.pk}: turn 1 processed" in out.getvalue()
    assert list(Turn.objects.values_list("campaign__name", "number", "status")) == [
        ("Due", 1, "done")
    ]
    assert reload(due).next_deadline > NOW
    assert reload(idle).turn == 0


def test_the_embedded_scheduler_sweeps_at_once_for_a_turn_every_side_is_ready_for(
    monkeypatch: Any,
) -> None:
    """It slept its 10 s between sweeps whatever happened: the last "ready" waited for
    the next sweep. It looks each second for a turn due now, and sweeps for it at once
    (the clock here is faked: each sleep is counted, none taken)."""
    slept: list[float] = []
    monkeypatch.setattr(run_scheduler.time, "sleep", slept.append)
    run_scheduler.wait_for_sweep(10)
    assert slept == [1.0] * 10  # nothing due: the whole wait
    campaign = new_campaign("Ready")
    players(campaign, "australian")
    mark_side_ready(campaign=campaign, side="australian", now=NOW)
    slept.clear()
    run_scheduler.wait_for_sweep(10)
    assert slept == [1.0]  # due: the sweep comes after the next look
