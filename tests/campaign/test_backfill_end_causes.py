"""``manage.py backfill_end_causes``: campaigns that finished before their end causes
were kept (migration 0011) get them where the stored state tells them exactly; the
others keep their reason as written; a second run changes nothing."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from django.core.management import call_command

from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from campaign.services.turns import run_campaign
from tests.campaign.conftest import korona_doc
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db


def backfill() -> str:
    out = io.StringIO()
    call_command("backfill_end_causes", stdout=out)
    return out.getvalue()


def ended_before_0011(name: str, turns: int) -> Campaign:
    """A campaign played to its end, its causes then taken away: as one that ended
    before they were kept."""
    campaign = create_campaign(data=meeting_doc(), name=name, seed=7)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=turns))
    campaign.save(update_fields=["settings"])
    run_campaign(campaign_id=campaign.pk, turns=turns)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED and campaign.end_causes
    Campaign.objects.filter(pk=campaign.pk).update(end_causes=[])
    return campaign


def written_finished(name: str, reason: str) -> Campaign:
    doc: dict[str, Any] = korona_doc()
    doc.update(turn=20, finished=True, winner="japanese", end_reason=reason)
    campaign = create_campaign(data=doc, name=name, seed=1)
    Campaign.objects.filter(pk=campaign.pk).update(end_causes=[])
    return campaign


def test_a_campaign_that_ended_before_its_causes_were_kept_gets_them_once() -> None:
    played = ended_before_0011("Korona 3", 3)
    going_on = create_campaign(data=meeting_doc(), name="Korona going on", seed=7)
    stamped = Campaign.objects.get(pk=played.pk).updated_at
    assert backfill() == "Filled in why 1 campaign ended.\n- Korona 3\n"
    filled = Campaign.objects.get(pk=played.pk)
    assert filled.end_causes == [{"kind": "turn_limit", "side": None, "area": None, "turns": 3}]
    assert filled.end_reason == played.end_reason  # the engine's words, kept
    assert filled.updated_at > stamped  # the map's stamp moves: its pages say it anew
    assert Campaign.objects.get(pk=going_on.pk).end_causes == []
    # Again: nothing left to do, nothing changed.
    assert backfill() == "Filled in why 0 campaigns ended.\n"
    assert Campaign.objects.get(pk=played.pk).updated_at == filled.updated_at


def test_a_reason_the_state_does_not_give_word_for_word_is_kept_as_written() -> None:
    """A scenario written as finished "by the game master", and one whose reason is not
    the engine's words for what its state shows: neither can be worked out exactly."""
    by_gm = written_finished("Korona by the game master", "the game master ended it")
    loose = written_finished("Korona loosely", "the turn limit is reached")
    exact = written_finished("Korona exactly", "the turn limit (20) is reached")
    assert backfill() == (
        "Filled in why 1 campaign ended.\n- Korona exactly\n"
        "Kept the reason as written for 2 campaigns (it could not be worked out exactly):\n"
        "- Korona by the game master\n- Korona loosely\n"
    )
    for kept in (by_gm, loose):
        assert Campaign.objects.get(pk=kept.pk).end_causes == []
    assert Campaign.objects.get(pk=exact.pk).end_causes == [
        {"kind": "turn_limit", "side": None, "area": None, "turns": 20}
    ]
