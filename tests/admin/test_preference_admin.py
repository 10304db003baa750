"""A reader's notice settings in the game master's admin: checked as the reader's own
page checks them (``notifications.forms.PreferenceChecks``), so the admin keeps no hour
or time zone the emails cannot use."""

from __future__ import annotations

from typing import Any

import pytest
from django.forms.models import model_to_dict
from django.test import Client

from notifications.models import Preference

pytestmark = pytest.mark.django_db


def change(gm: Client, preference: Preference, **typed: Any) -> Any:
    data = {**model_to_dict(preference), **typed}
    data = {key: value for key, value in data.items() if value is not False}  # unticked
    return gm.post(f"/admin/notifications/preference/{preference.pk}/change/", data)


@pytest.fixture
def preference(gm_user: Any) -> Preference:
    return Preference.objects.create(user=gm_user, time_zone="UTC", reminder_hours=12)


def test_a_time_zone_is_kept_as_the_database_spells_it(gm: Client, preference: Preference) -> None:
    assert change(gm, preference, time_zone=" australia/SYDNEY ").status_code == 302
    assert Preference.objects.get().time_zone == "Australia/Sydney"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "America"])
def test_a_name_that_is_no_time_zone_is_refused(
    gm: Client, preference: Preference, zone: str
) -> None:
    response = change(gm, preference, time_zone=zone, reminder_hours=6)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["time_zone"] == [
        f"{zone!r} is not a time zone: use a name such as Europe/Berlin or Australia/Sydney."
    ]
    saved = Preference.objects.get()
    assert (saved.time_zone, saved.reminder_hours) == ("UTC", 12)


def test_hours_out_of_range_are_refused_in_a_sentence(gm: Client, preference: Preference) -> None:
    response = change(gm, preference, reminder_hours=169)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["reminder_hours"] == [
        "Between 1 and 168 hours (a week)."
    ]
    assert Preference.objects.get().reminder_hours == 12


def test_a_second_row_for_one_player_is_refused_in_words(
    gm: Client, preference: Preference, gm_user: Any
) -> None:
    """Django's "Preference with this User already exists." said it in its own words."""
    answer = gm.post(
        "/admin/notifications/preference/add/",
        {
            "user": gm_user.pk,
            "email": "on",
            "reminder_hours": "6",
            "time_zone": "",
            "_save": "Save",
        },
    )
    assert answer.status_code == 200
    assert answer.context["adminform"].form.errors == {
        "user": ["gm has notice settings already (one row each): change that row instead."]
    }
    assert Preference.objects.filter(user=gm_user).count() == 1
    changed = change(gm, preference, reminder_hours=6)  # its own row still saves
    assert changed.status_code == 302
