"""The embedded schedule: `manage.py run_scheduler` plays due turns in-process."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from campaign.models import Turn
from tests.campaign.test_services_turns import new_campaign, reload
from tests.scheduling.test_schedule import NOW, scheduled

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
