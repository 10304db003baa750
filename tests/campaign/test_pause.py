"""Pausing and resuming a campaign (campaign.services.campaigns.set_paused): a GM change
every member reads, the pause with its reason, the resume with its new deadline."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from unittest.mock import patch

import pytest

from campaign.models import SPECTATOR, Campaign, GmAdjustment, Membership
from campaign.services.adjustments import (
    NothingChanged,
    ReasonMissing,
    StaleChange,
    campaign_version,
)
from campaign.services.campaigns import CampaignRefused, set_paused
from campaign.services.rollback import rollback_to_turn
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import set_schedule
from campaign.services.turns import advance_turn
from campaign.services.visibility import open_campaign
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db

MONDAY_NOON = datetime(2026, 12, 7, 1, 0, tzinfo=UTC)  # 12:00 in Sydney (AEDT)


def new_campaign() -> Campaign:
    return create_campaign(data=korona_doc(), name="Korona", seed=1)


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_a_pause_without_a_reason_is_refused_and_changes_nothing(reason: Any) -> None:
    campaign = new_campaign()
    saved = Campaign.objects.get().updated_at
    with pytest.raises(ReasonMissing, match="a pause needs a reason, which every player reads"):
        set_paused(campaign=campaign, paused=True, reason=reason)
    row = Campaign.objects.get()
    assert row.status == Campaign.Status.ACTIVE
    assert row.updated_at == saved
    assert not GmAdjustment.objects.exists()


def test_a_pause_is_a_line_in_the_log_with_its_reason_and_who_paused(
    django_user_model: Any,
) -> None:
    gm = django_user_model.objects.create_user("gm", is_staff=True)
    campaign = new_campaign()
    line = set_paused(
        campaign=campaign, paused=True, reason="  Christmas: back on the 4th ", user=gm
    )
    assert Campaign.objects.get().status == Campaign.Status.PAUSED
    assert line.what == (
        "Campaign paused: no turn is played until the game master resumes it (they may still "
        "play one by hand)"
    )
    assert line.reason == "Christmas: back on the 4th"
    assert line.user == gm
    assert line.before_turn == 1
    assert line.details == {"kind": "pause", "next_deadline": None}


def test_a_resume_says_the_new_deadline_on_the_campaigns_clock() -> None:
    campaign = new_campaign()
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, timezone="Australia/Sydney")
    set_paused(campaign=campaign, paused=True, reason="a player away")
    with patch("django.utils.timezone.now", return_value=MONDAY_NOON):
        line = set_paused(campaign=campaign, paused=False, reason="he is back")
    assert line.what == "Campaign resumed: the next deadline is Tue 8 Dec 2026, 12:00 AEDT"
    assert line.reason == "he is back"
    assert line.details == {"kind": "resume", "next_deadline": "2026-12-08T01:00:00+00:00"}
    row = Campaign.objects.get()
    assert row.status == Campaign.Status.ACTIVE
    assert row.next_deadline == datetime(2026, 12, 8, 1, 0, tzinfo=UTC)


def test_a_resume_needs_no_reason_and_says_so() -> None:
    campaign = new_campaign()
    set_paused(campaign=campaign, paused=True, reason="holidays")
    line = set_paused(campaign=campaign, paused=False, reason="  ")
    assert line.reason == "no reason given"
    # No player yet: only the game master's button plays the next turn.
    assert line.what == (
        'Campaign resumed: no deadline. Turn 1 is played when the game master presses "Advance '
        'turn now" (no player plays a side, so no side\'s "ready" plays it).'
    )


def test_a_resume_with_no_deadline_names_whose_ready_plays_the_turn(
    django_user_model: Any,
) -> None:
    """Played solo, "once every side is ready" read as though the campaign AI's side had a
    ready to give: the line names the side whose "ready" plays the next turn."""
    campaign = new_campaign()
    alice = django_user_model.objects.create_user("alice", "alice@example.com", "pw-long-1")
    Membership.objects.create(user=alice, campaign=campaign, side="australian")
    set_paused(campaign=campaign, paused=True, reason="holidays")
    line = set_paused(campaign=campaign, paused=False, reason="back")
    assert line.what == (
        "Campaign resumed: no deadline. Turn 1 is played when the Australians mark their "
        "orders ready (the campaign AI plays the other side, always ready), or when the game "
        "master plays it."
    )
    bob = django_user_model.objects.create_user("bob", "bob@example.com", "pw-long-1")
    Membership.objects.create(user=bob, campaign=campaign, side="japanese")
    set_paused(campaign=campaign, paused=True, reason="holidays")
    line = set_paused(campaign=campaign, paused=False, reason="back")
    assert line.what == (
        "Campaign resumed: no deadline. Turn 1 is played once every side is ready, or when "
        "the game master plays it."
    )


@pytest.mark.parametrize("paused", [True, False])
def test_pausing_a_paused_campaign_or_resuming_an_active_one_changes_nothing(
    paused: bool,
) -> None:
    campaign = new_campaign()
    if paused:
        set_paused(campaign=campaign, paused=True, reason="holidays")
    before = GmAdjustment.objects.count()
    said = "paused" if paused else "active"
    with pytest.raises(NothingChanged, match=f"Nothing changed: Korona is already {said}."):
        set_paused(campaign=campaign, paused=paused, reason="again")
    assert GmAdjustment.objects.count() == before


def test_an_ended_campaign_is_neither_paused_nor_resumed() -> None:
    doc = korona_doc()
    doc.update(finished=True, winner="japanese", end_reason="base_taken")
    campaign = create_campaign(data=doc, name="Korona", seed=1)
    with pytest.raises(CampaignRefused, match="has ended"):
        set_paused(campaign=campaign, paused=True, reason="holidays")
    assert not GmAdjustment.objects.exists()


def test_a_pause_from_a_page_opened_before_a_turn_was_played_is_refused() -> None:
    campaign = new_campaign()
    seen = campaign_version(campaign.pk)
    advance_turn(campaign_id=campaign.pk)
    with pytest.raises(StaleChange, match="Nothing was changed"):
        set_paused(campaign=campaign, paused=True, reason="holidays", seen=seen)
    assert Campaign.objects.get().status == Campaign.Status.ACTIVE
    assert not GmAdjustment.objects.exists()


def test_every_reader_reads_the_pause_alike(django_user_model: Any) -> None:
    """No side reads more or less of a pause: its line and reason are the GM's words."""
    campaign = new_campaign()
    readers = {}
    for name, side in (("aussie", "australian"), ("kenji", "japanese"), ("fan", SPECTATOR)):
        readers[name] = django_user_model.objects.create_user(name)
        Membership.objects.create(campaign=campaign, user=readers[name], side=side)
    set_paused(campaign=campaign, paused=True, reason="rules question on mud")
    read = [open_campaign(user=user, campaign=campaign).adjustments() for user in readers.values()]
    assert read[0] == read[1] == read[2]
    [line] = read[0]
    assert line.what.startswith("Campaign paused:") and line.reason == "rules question on mud"


def test_a_roll_back_keeps_the_pause_and_its_line() -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    set_paused(campaign=campaign, paused=True, reason="holidays")
    rollback_to_turn(campaign=campaign, number=1, reason="a wrong order")
    assert Campaign.objects.get().status == Campaign.Status.PAUSED
    kinds = [row.details.get("kind") for row in GmAdjustment.objects.order_by("pk")]
    assert kinds[0] == "pause"
