"""A player the GM removes from a campaign is told so by email, with the GM's reason, on
their emails' clock: they are no member now, so the GM's-change notice, which goes to
the members, never reached them (the last session found bob removed and never told)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from unittest.mock import patch

import pytest
from django.core import mail

from campaign.models import Campaign, GmAdjustment, Membership
from campaign.services.members import remove_player
from notifications.models import Notice, Preference

pytestmark = pytest.mark.django_db


def to(address: str) -> list[Any]:
    return [message for message in mail.outbox if message.to == [address]]


def remove(campaign: Campaign, user: Any, reason: str, capture: Any) -> GmAdjustment:
    membership = Membership.objects.get(campaign=campaign, user=user)
    with capture(execute=True):
        return remove_player(membership_id=membership.pk, reason=reason)


def test_the_removed_player_is_told_with_the_reason_on_their_clock(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    Preference.objects.create(user=japanese, time_zone="Asia/Tokyo")
    with patch("django.utils.timezone.now", return_value=datetime(2026, 12, 7, 9, 30, tzinfo=UTC)):
        remove(campaign, japanese, "moved to Perth", django_capture_on_commit_callbacks)
    (told,) = to(japanese.email)
    assert told.subject == "[Korona] You no longer play in Korona"
    assert told.body.startswith(
        "The game master removed you from Korona on Mon 7 Dec 2026, 18:30 JST, before "
        "turn 1: you no longer play in it, read its pages or get its emails."
    )
    assert (
        "Every player reads in its log: The player japanese no longer plays the Japanese: "
        "from turn 1 the campaign AI plays them, each company on its standing order."
    ) in told.body
    assert "The game master's reason: moved to Perth" in told.body
    # No switch of its own: no "stop these emails" line, no list to leave.
    assert "Stop these emails" not in told.body and "List-Unsubscribe" not in told.extra_headers
    assert "Stop every email from Korona" in told.body
    # The Australian is told as a member, with the public line: one email each.
    (theirs,) = to(aussie.email)
    assert "The player japanese no longer plays the Japanese" in theirs.body
    assert "removed you" not in theirs.body


def test_a_removal_is_told_whatever_the_gm_news_choice_but_not_with_no_email_at_all(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    Preference.objects.create(user=japanese, gm_news=False)
    Preference.objects.create(user=aussie, email=False)
    remove(campaign, japanese, "moved away", django_capture_on_commit_callbacks)
    remove(campaign, aussie, "asked to stop", django_capture_on_commit_callbacks)
    (told,) = to(japanese.email)
    assert "removed you from Korona" in told.body
    assert to(aussie.email) == []
    assert Notice.objects.filter(user=japanese, kind="removed").count() == 1


def test_a_spectator_removed_is_told_they_no_longer_follow_it(
    campaign: Campaign, django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    sue = django_user_model.objects.create_user("sue", "sue@example.com", "pw")
    Membership.objects.create(campaign=campaign, user=sue, side="spectator")
    remove(campaign, sue, "the table is full", django_capture_on_commit_callbacks)
    (told,) = to(sue.email)
    assert told.subject == "[Korona] You no longer follow Korona"
    # Not "Sue": a username is spelled as its owner spells it, at a sentence's start too.
    assert "Every player reads in its log: The spectator sue no longer follows Korona." in (
        told.body
    )
    assert "Sue" not in told.body
    assert "The game master's reason: the table is full" in told.body


def test_a_removed_player_without_an_address_is_not_emailed(
    campaign: Campaign, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    japanese.email = ""
    japanese.save()
    remove(campaign, japanese, "moved away", django_capture_on_commit_callbacks)
    assert not Notice.objects.filter(kind="removed").exists()
