"""The GM sets a campaign's schedule on its admin page."""

from __future__ import annotations

from datetime import time

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign
from tests.admin.conftest import new_campaign

pytestmark = pytest.mark.django_db


def schedule_url(campaign: Campaign) -> str:
    return reverse("admin:campaign_campaign_schedule", args=[campaign.pk])


def test_the_gm_sets_a_weekly_schedule(gm: Client) -> None:
    campaign = new_campaign()
    response = gm.post(
        schedule_url(campaign),
        {"kind": "weekly", "weekday": "4", "time_of_day": "18:00", "timezone": "Europe/Berlin"},
        follow=True,
    )
    assert response.status_code == 200
    row = Campaign.objects.get(pk=campaign.pk)
    assert (row.schedule_kind, row.weekday, row.time_of_day, row.timezone) == (
        "weekly",
        4,
        time(18),
        "Europe/Berlin",
    )
    assert row.next_deadline is not None
    page = gm.get(reverse("admin:campaign_campaign_change", args=[campaign.pk])).content.decode()
    assert "a turn every Friday at 18:00 (Europe/Berlin)" in page


@pytest.mark.parametrize(
    ("hours", "words"), [(1, "a turn every hour"), (48, "a turn every 48 hours")]
)
def test_an_hourly_schedule_is_said_in_words(gm: Client, hours: int, words: str) -> None:
    campaign = new_campaign()
    form = {"kind": "every_hours", "every_hours": str(hours), "timezone": "UTC"}
    assert gm.post(schedule_url(campaign), form).status_code == 302
    page = gm.get(reverse("admin:campaign_campaign_change", args=[campaign.pk])).content.decode()
    assert f"{words}<" in page and "every 1 hours" not in page


def test_an_unknown_time_zone_is_refused_and_nothing_changes(gm: Client) -> None:
    campaign = new_campaign()
    response = gm.post(
        schedule_url(campaign), {"kind": "every_hours", "every_hours": "12", "timezone": "Mars/X"}
    )
    assert response.status_code == 200
    assert "is not a time zone name" in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"


def test_every_hours_needs_the_hours(gm: Client) -> None:
    campaign = new_campaign()
    response = gm.post(schedule_url(campaign), {"kind": "every_hours", "timezone": "UTC"})
    assert "give the number of hours" in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"


def test_a_player_may_not_set_the_schedule(player: Client) -> None:
    campaign = new_campaign()
    response = player.post(schedule_url(campaign), {"kind": "every_hours", "every_hours": "1"})
    assert response.status_code in (302, 403)
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"
