"""A pause and a resume are told to every member, spectators too, as the game master's
changes (``Kind.GM_NEWS``): the pause with its reason, the resume with its new deadline
on the campaign's clock; each once, however often its task is delivered."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from unittest.mock import patch

import pytest
from django.core import mail

from campaign.models import SPECTATOR, Campaign, GmAdjustment, Membership
from campaign.services.adjustments import ReasonMissing
from campaign.services.campaigns import set_paused
from campaign.services.schedule import set_schedule
from notifications import services
from notifications.models import Kind, Notice, Preference

pytestmark = pytest.mark.django_db


@pytest.fixture
def fan(django_user_model: Any, campaign: Campaign) -> Any:
    user = django_user_model.objects.create_user("fan", "fan@example.com", "a long password")
    Membership.objects.create(campaign=campaign, user=user, side=SPECTATOR)
    return user


def to(user: Any) -> list[Any]:
    return [message for message in mail.outbox if message.to == [user.email]]


def test_a_pause_is_told_to_every_member_with_its_reason(
    campaign: Campaign,
    aussie: Any,
    japanese: Any,
    fan: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        set_paused(campaign=campaign, paused=True, reason="Christmas: back on 4 January")
    for user in (aussie, japanese, fan):
        (message,) = to(user)
        assert message.subject == "[Korona] Paused by the game master"
        assert "Campaign paused: no turn is played until the game master resumes it" in (
            message.body
        )
        assert "Reason: Christmas: back on 4 January" in message.body
    assert set(Notice.objects.values_list("kind", flat=True)) == {Kind.GM_NEWS}


def test_a_resume_is_told_with_its_new_deadline_on_the_campaigns_clock(
    campaign: Campaign, aussie: Any, fan: Any, django_capture_on_commit_callbacks: Any
) -> None:
    set_schedule(campaign=campaign, kind="every_hours", every_hours=48, timezone="Asia/Tokyo")
    set_paused(campaign=campaign, paused=True, reason="a player away")
    mail.outbox.clear()
    with (
        django_capture_on_commit_callbacks(execute=True),
        patch("django.utils.timezone.now", return_value=datetime(2026, 12, 7, 3, tzinfo=UTC)),
    ):
        set_paused(campaign=campaign, paused=False)
    for user in (aussie, fan):
        (message,) = to(user)
        assert "Campaign resumed: the next deadline is Wed 9 Dec 2026, 12:00 JST\n" in message.body
        assert "Reason: no reason given" in message.body
        assert message.subject == (
            "[Korona] Resumed by the game master: the next deadline is Wed 9 Dec 2026, 12:00 JST"
        )


def test_a_resume_with_no_deadline_says_so_in_its_subject_and_who_plays_in_its_body(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The subject is the news ("no deadline"), not the whole line; the body says whose
    "ready" plays the next turn."""
    set_paused(campaign=campaign, paused=True, reason="a player away")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        set_paused(campaign=campaign, paused=False)
    (message,) = to(aussie)
    assert message.subject == "[Korona] Resumed by the game master: no deadline"
    assert (
        "Campaign resumed: no deadline. Turn 1 is played once every side is ready, or when "
        "the game master plays it." in message.body
    )


def test_a_pause_delivered_twice_is_told_once(
    campaign: Campaign,
    aussie: Any,
    japanese: Any,
    fan: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        line = set_paused(campaign=campaign, paused=True, reason="holidays")
    assert len(mail.outbox) == 3
    assert services.adjustment_notices(adjustment_id=line.pk) == 0  # the task again
    assert len(mail.outbox) == 3
    assert Notice.objects.count() == 3


def test_a_pause_a_resume_and_a_pause_again_are_each_told(
    campaign: Campaign,
    aussie: Any,
    japanese: Any,
    fan: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        set_paused(campaign=campaign, paused=True, reason="holidays")
        set_paused(campaign=campaign, paused=False, reason="back from holidays")
        set_paused(campaign=campaign, paused=True, reason="a rules question on mud")
    for user in (aussie, japanese, fan):
        told = [message.body for message in to(user)]
        assert len(told) == 3
        assert "Reason: holidays" in told[0] and "Campaign paused" in told[0]
        assert "Reason: back from holidays" in told[1] and "Campaign resumed" in told[1]
        assert "Reason: a rules question on mud" in told[2] and "Campaign paused" in told[2]


def test_a_member_who_turned_off_the_game_masters_changes_is_not_emailed_a_pause(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    Preference.objects.create(user=aussie, gm_news=False)
    with django_capture_on_commit_callbacks(execute=True):
        set_paused(campaign=campaign, paused=True, reason="holidays")
    assert to(aussie) == [] and len(to(japanese)) == 1


def test_a_pause_refused_for_want_of_a_reason_tells_nobody(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ReasonMissing):
        set_paused(campaign=campaign, paused=True, reason="")
    assert mail.outbox == [] and not Notice.objects.exists()
    assert not GmAdjustment.objects.exists()
    assert Campaign.objects.get().status == Campaign.Status.ACTIVE
