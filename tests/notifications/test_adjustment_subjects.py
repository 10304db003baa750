"""A game master's change is told with the news in its subject, in a few words, and the
whole line in its body: the solo walk of 7 December 2026 read a whole paragraph as a
subject ("[Solo Kokoda] Game master's change: Schedule changed: a turn every Thursday at
19:30 (Australia/Sydney) (before: none: ...). The campaign is paused: ...")."""

from __future__ import annotations

from datetime import time
from typing import Any

import pytest
from django.core import mail

from campaign.models import Campaign, Company, Membership
from campaign.services.adjustments import adjust_stands
from campaign.services.campaigns import set_paused, update_settings
from campaign.services.deadlines import Schedule
from campaign.services.members import remove_player
from campaign.services.schedule import change_schedule

pytestmark = pytest.mark.django_db


def told(user: Any) -> Any:
    (message,) = [m for m in mail.outbox if m.to == [user.email]]
    return message


def test_a_schedule_change_says_the_new_schedule_and_the_body_the_rest(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    set_paused(campaign=campaign, paused=True, reason="Christmas")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        change_schedule(
            campaign=campaign,
            schedule=Schedule(
                kind="weekly", weekday=3, time_of_day=time(19, 30), timezone="Australia/Sydney"
            ),
            reason="Thursday nights",
        )
    message = told(aussie)
    assert message.subject == (
        "[Korona] New schedule: a turn every Thursday at 19:30 (Australia/Sydney)"
    )
    assert "(before: none: a turn is played once every side is ready" in message.body
    assert "The campaign is paused: its next deadline counts from when it resumes." in (
        message.body
    )


def test_a_schedule_change_to_none_says_no_more_deadlines(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    change_schedule(
        campaign=campaign, schedule=Schedule(kind="every_hours", every_hours=48), reason="x"
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        change_schedule(campaign=campaign, schedule=Schedule(kind="none"), reason="by hand")
    assert told(aussie).subject == (
        "[Korona] No more deadlines: a turn is played once every side is ready"
    )


def test_a_settings_change_names_the_settings_changed(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        update_settings(
            campaign=campaign,
            settings={**campaign.settings, "table_width_ft": 8, "turn_limit": 17},
            reason="a bigger table",
        )
    message = told(aussie)
    assert message.subject == (
        "[Korona] Settings changed: Battle table width, in feet; Campaign length, in turns"
    )
    assert "Battle table width, in feet: 8 (before: 3)." in message.body


def test_many_settings_changed_are_counted_past_the_second(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        update_settings(
            campaign=campaign,
            settings={
                **campaign.settings,
                "table_width_ft": 8,
                "table_depth_ft": 8,
                "turn_limit": 17,
                "rough_track_penalty": 2,
            },
            reason="a new season",
        )
    assert told(aussie).subject == (
        "[Korona] Settings changed: Battle table width, in feet; Battle table depth, in "
        "feet; 2 more"
    )


def test_a_players_going_is_its_first_clause(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    membership = Membership.objects.get(campaign=campaign, user=japanese)
    campaign.turn = 1
    campaign.save(update_fields=["turn"])
    with django_capture_on_commit_callbacks(execute=True):
        remove_player(membership_id=membership.pk, reason="moved away")
    message = told(aussie)
    assert message.subject == (
        f"[Korona] The player {japanese.username} no longer plays the Japanese"
    )
    assert "the campaign AI plays them" in message.body


def test_a_stands_change_keeps_its_short_fogged_line(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    second = Company.objects.get(campaign=campaign, name="2nd Company")
    stands = second.stand_counts.first()
    assert stands is not None
    with django_capture_on_commit_callbacks(execute=True):
        adjust_stands(company=second, unit_type=stands.unit_type, held=0, reason="lost at sea")
    subject = told(aussie).subject
    assert subject == (
        "[Korona] Game master's change: An enemy company (Japanese): stands adjusted"
    )
