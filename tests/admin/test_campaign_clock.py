"""The admin's lists give each row's times on its own campaign's clock, the zone named
(a walk-through read the Turns and GM adjustments lists in UTC, beside deadlines it read
in each campaign's time zone), as its page and History do."""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib import admin
from django.db import models
from django.test import Client, RequestFactory
from django.utils import timezone
from django.utils.formats import localize

from campaign.models import Campaign, GmAdjustment, Turn
from campaign.services.adjustments import set_control
from campaign.services.deadlines import moment_words
from campaign.services.turns import advance_turn
from notifications.invitations import invite_every_side
from notifications.models import Invitation, Notice
from tests.admin.conftest import new_campaign

pytestmark = pytest.mark.django_db

SYDNEY, NEW_YORK = "Australia/Sydney", "America/New_York"


def in_utc(moment: datetime) -> str:
    """A time as the admin's lists gave it before: the server's UTC, unnamed."""
    return html.escape(localize(timezone.localtime(moment, ZoneInfo("UTC"))))


def two_campaigns(gm_user: Any) -> list[Campaign]:
    """A campaign played in Sydney and one in New York, each with a turn played, a GM
    change, a notice and its invitations."""
    campaigns = []
    for name, zone in (("Korona 1", SYDNEY), ("Korona 2", NEW_YORK)):
        campaign = new_campaign(name)
        campaign.timezone = zone
        campaign.save(update_fields=["timezone"])
        advance_turn(campaign_id=campaign.pk)
        oivi = campaign.areas.get(name="Oivi")
        set_control(area=oivi, side="australian", reason="a patrol's report", user=gm_user)
        Notice.objects.create(
            user=gm_user, kind="turn_played", campaign=campaign, turn=1, subject="Turn 1",
            body="played", sent_at=timezone.now(),
        )  # fmt: skip
        invite_every_side(campaign=campaign, user=gm_user)
        campaigns.append(campaign)
    Invitation.objects.filter(campaign=campaigns[0]).update(used_at=timezone.now())
    return campaigns


@pytest.mark.parametrize(
    ("url", "model", "field"),
    [
        ("/admin/campaign/turn/", Turn, "finished_at"),
        ("/admin/campaign/gmadjustment/", GmAdjustment, "created_at"),
        ("/admin/notifications/notice/", Notice, "created_at"),
    ],
)
def test_a_list_gives_each_rows_time_on_its_campaigns_clock(
    url: str, model: Any, field: str, gm: Client, gm_user: Any
) -> None:
    two_campaigns(gm_user)
    page = gm.get(url).content.decode()
    rows = model._default_manager.select_related("campaign").exclude(**{field: None})
    assert {row.campaign.timezone for row in rows} >= {SYDNEY} and rows.count() >= 2
    for row in rows:
        moment = getattr(row, field)
        assert moment_words(moment, row.campaign.timezone) in page, (row, field)
        assert in_utc(moment) not in page


def test_a_rows_page_gives_its_times_on_its_campaigns_clock(gm: Client, gm_user: Any) -> None:
    """Opened from the list, the row says the time the list said."""
    two_campaigns(gm_user)
    for row, field in (
        (GmAdjustment.objects.filter(campaign__timezone=SYDNEY).first(), "created_at"),
        (Notice.objects.get(campaign__timezone=SYDNEY), "sent_at"),
        (Invitation.objects.filter(campaign__timezone=SYDNEY).first(), "used_at"),
    ):
        assert row is not None
        meta = row._meta
        page = gm.get(f"/admin/{meta.app_label}/{meta.model_name}/{row.pk}/change/")
        assert page.status_code == 200
        moment = getattr(row, field)
        assert moment_words(moment, SYDNEY) in page.content.decode(), (row, field)


def test_a_campaigns_page_lists_its_turns_and_changes_with_the_zone_named(
    gm: Client, gm_user: Any
) -> None:
    sydney, _ = two_campaigns(gm_user)
    page = gm.get(f"/admin/campaign/campaign/{sydney.pk}/change/").content.decode()
    turn = Turn.objects.get(campaign=sydney)
    made = GmAdjustment.objects.filter(campaign=sydney).latest("created_at")
    assert turn.finished_at is not None
    assert moment_words(turn.finished_at, SYDNEY) in page
    assert moment_words(made.created_at, SYDNEY) in page


def test_the_invitations_list_gives_one_time_each_on_its_campaigns_clock(
    gm: Client, gm_user: Any
) -> None:
    """When the link stops working, or when it was used: a used link's expiry no
    longer matters (four columns of times and names beside the link did not fit)."""
    two_campaigns(gm_user)
    gone = Invitation.objects.filter(used_at=None).first()
    assert gone is not None
    gone.expires_at = timezone.now() - timedelta(days=1)
    gone.save(update_fields=["expires_at"])
    page = gm.get("/admin/notifications/invitation/").content.decode()
    for row in Invitation.objects.select_related("campaign"):
        clock = row.campaign.timezone
        if row.used_at is not None:
            words = f"used {moment_words(row.used_at, clock)}"
        elif row == gone:
            words = f"expired {moment_words(row.expires_at, clock)}"
        else:
            words = f"expires {moment_words(row.expires_at, clock)}"
        assert f'<td class="field-expiry">{words}</td>' in page, row
        assert in_utc(row.expires_at) not in page


def test_an_empty_time_reads_as_the_admins_dash_and_sorts_by_its_field(
    gm: Client, gm_user: Any
) -> None:
    two_campaigns(gm_user)
    unused = Invitation.objects.filter(used_at=None).first()
    assert unused is not None
    page = gm.get(f"/admin/notifications/invitation/{unused.pk}/change/").content.decode()
    used_when = re.search(r'field-used_when">.*?<div class="readonly">(.*?)</div>', page, re.S)
    assert used_when is not None and used_when.group(1) == "-"  # not "None"
    # The column sorts by the time itself (the sixth column: ?o=5), the latest first.
    page = gm.get("/admin/campaign/turn/").content.decode()
    assert '<th scope="col" class="sortable column-finished_when">' in page
    turns = list(gm.get("/admin/campaign/turn/?o=-5").context["cl"].result_list)
    assert [t.pk for t in turns] == [
        t.pk for t in sorted(turns, key=lambda t: t.finished_at, reverse=True)
    ]


def test_no_list_of_a_campaigns_rows_shows_a_time_in_utc(rf: RequestFactory, gm_user: Any) -> None:
    """Every admin list of rows that belong to a campaign (today's and any added later)
    shows its times through ``on_campaign_clock``, never as the bare field."""
    request = rf.get("/admin/")
    request.user = gm_user
    for model, model_admin in admin.site._registry.items():
        fields = {f.name: f for f in model._meta.get_fields()}
        if not isinstance(fields.get("campaign"), models.ForeignKey):
            continue
        for name in model_admin.get_list_display(request):
            field = fields.get(name) if isinstance(name, str) else None
            assert not isinstance(field, models.DateTimeField), (model.__name__, name)
