"""Migration 0011: a saved "UTC", the old default the settings page offered filled in,
becomes empty (each campaign's own clock); a zone a reader chose stays."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("notifications", "0010_invitation_to_follow_as_spectator")]
AFTER = [("notifications", "0011_time_zone_empty_is_the_campaigns_clock")]


def migrate(to: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(to)
    return executor.loader.project_state(to).apps


def test_a_saved_utc_becomes_the_campaigns_clock_and_a_chosen_zone_stays(
    django_user_model: Any,
) -> None:
    old = migrate(BEFORE)
    user = old.get_model("auth", "User")
    preference = old.get_model("notifications", "Preference")
    kept = user.objects.create(username="kept", email="k@example.com")
    chose = user.objects.create(username="chose", email="c@example.com")
    preference.objects.create(user=kept, time_zone="UTC")
    preference.objects.create(user=chose, time_zone="Europe/Berlin")
    new = migrate(AFTER)
    preference = new.get_model("notifications", "Preference")
    zones = dict(preference.objects.values_list("user__username", "time_zone"))
    assert zones == {"kept": "", "chose": "Europe/Berlin"}
