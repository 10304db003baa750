"""The admin's Notices: what each notice was about, in words. Its key beside the turn
(``Notice.ref``) was shown bare under "Ref": a reminder's deadline minute (29470680), a
GM adjustment's id, a message's id, a turn row's id, none of which a GM can read."""

from __future__ import annotations

import html
import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from campaign.models import GmAdjustment, Turn
from campaign.services.turns import advance_turn
from notifications.models import Kind, Message, Notice
from notifications.services import deadline_ref
from tests.admin.conftest import new_campaign

pytestmark = pytest.mark.django_db


def text(page: bytes) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.decode())))


def test_each_notice_says_what_it_was_about_in_words(
    gm: Client, gm_user: Any, django_user_model: Any
) -> None:
    campaign = new_campaign()
    campaign.timezone = "Australia/Sydney"
    campaign.save(update_fields=["timezone"])
    advance_turn(campaign_id=campaign.pk)
    turn = Turn.objects.get(campaign=campaign, number=1)
    change = GmAdjustment.objects.create(
        campaign=campaign, before_turn=2, what="Ioro: held by nobody", reason="a test"
    )
    message = Message.objects.create(
        campaign=campaign, channel=Message.Channel.PUBLIC, author=gm_user, text="Hello"
    )
    deadline = datetime(2026, 12, 7, 18, 0, tzinfo=ZoneInfo("Australia/Sydney"))
    alice = django_user_model.objects.create_user("alice", "a@example.com", "pw")
    refs = {
        Kind.DEADLINE: deadline_ref(deadline),
        Kind.GM_NEWS: change.pk,
        Kind.MESSAGE: message.pk,
        Kind.TURN_PLAYED: turn.pk,
        Kind.CAMPAIGN_END: turn.pk + 1000,  # a turn row rolled back since
    }
    notices = {
        kind: Notice.objects.create(
            user=alice, kind=kind, campaign=campaign, turn=1, ref=ref, subject=kind, body="b"
        )
        for kind, ref in refs.items()
    }
    said = {
        Kind.DEADLINE: "deadline Mon 7 Dec 2026, 18:00 AEDT",
        Kind.GM_NEWS: f"game master's adjustment {change.pk}",
        Kind.MESSAGE: f"message {message.pk}, on the public board",
        Kind.TURN_PLAYED: "turn 1",
        Kind.CAMPAIGN_END: "turn 1 (rolled back)",
    }
    assert str(refs[Kind.DEADLINE]) not in text(gm.get("/admin/notifications/notice/").content)
    listed = gm.get("/admin/notifications/notice/").content.decode()
    assert re.search(r'class="column-about"[^>]*>.*?About', listed, re.S), listed
    for kind, notice in notices.items():
        page = gm.get(f"/admin/notifications/notice/{notice.pk}/change/").content
        shown = text(page)
        assert f"About: {said[kind]}" in shown or f"About {said[kind]}" in shown, shown
        assert "Ref:" not in shown
        assert said[kind] in text(listed.encode())
    change_page = gm.get(f"/admin/notifications/notice/{notices[Kind.GM_NEWS].pk}/change/")
    assert (
        f'href="/admin/campaign/gmadjustment/{change.pk}/change/"' in change_page.content.decode()
    )
