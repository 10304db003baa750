"""A campaign's history lists a settings change in words (a walk-through read the stored
dictionary there: "Settings: {'turn_limit': 20, 'naval_trigger': 6, ...[3328 chars]")."""

from __future__ import annotations

import html
import re
from datetime import datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from django.test import Client
from django.utils import timezone
from django.utils.formats import localize

from campaign.admin_history import settings_sides
from campaign.models import GmAdjustment
from campaign.services.adjustments import campaign_version, set_control
from campaign.services.campaigns import update_settings
from campaign.services.deadlines import Schedule, moment_words
from campaign.services.scenarios import start_campaign
from campaign.services.schedule import change_schedule
from campaign.services.turns import advance_turn
from tests.admin.conftest import new_campaign, play_sunday_evenings
from tests.campaign.conftest import korona_doc


def test_the_history_page_says_a_settings_change_in_words(gm: Client, gm_user: Any) -> None:
    campaign = new_campaign()
    settings = campaign.get_settings()
    update_settings(
        campaign=campaign,
        settings={**campaign.settings, "turn_limit": settings.turn_limit - 5},
        reason="a shorter campaign for our club night",
        user=gm_user,
    )
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/history/").content.decode()
    assert f"Campaign length, in turns: {settings.turn_limit}." in page
    assert f"Campaign length, in turns: {settings.turn_limit - 5}." in page
    assert "turn_limit" not in page and "{&#x27;" not in page and "chars]" not in page


def test_only_the_settings_that_changed_are_said() -> None:
    old, new = settings_sides({"turn_limit": 20, "fog_of_war": True},
                              {"turn_limit": 20, "fog_of_war": False})  # fmt: skip
    assert "Campaign length" not in old + new
    assert old.endswith(": on.") and new.endswith(": off.")


def test_a_rows_history_says_sides_choices_and_moments_in_words(gm: Client, gm_user: Any) -> None:
    """Not "Controller: australian -> japanese", nor "every_hours", nor
    "2026-12-08 03:17:37.267683+00:00"."""
    campaign = new_campaign()
    oivi = campaign.areas.get(name="Oivi")
    set_control(area=oivi, side="australian", reason="a patrol's report", user=gm_user)
    page = gm.get(f"/admin/campaign/area/{oivi.pk}/history/").content.decode()
    assert "Australian" in page and "australian" not in page.replace("side-australian", "")
    change_schedule(
        campaign=campaign,
        schedule=Schedule(kind="every_hours", every_hours=24, timezone="UTC"),
        reason="a turn a day",
        user=gm_user,
        seen=campaign_version(campaign.pk),
    )
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/history/").content.decode()
    assert "every hours" in page and "every_hours" not in page
    assert not re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+", page)
    assert " UTC" in page


def test_a_weekly_schedule_in_the_history_reads_as_the_campaign_page_says_it(
    gm: Client, gm_user: Any
) -> None:
    """A walk-through read "Weekday: none -> 6", "Time of day: none -> 19:00:00" and the
    next deadline in UTC ("08:00 UTC") beside a campaign page saying "19:00" in Sydney."""
    campaign = new_campaign()
    play_sunday_evenings(campaign, gm_user)
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/history/").content.decode()
    changes = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    assert "Weekday: none → Sunday" in changes
    assert "Time of day: none → 19:00 " in changes and "19:00:00" not in changes
    assert re.search(r"Next deadline: none → \w{3} \d+ \w{3} \d{4}, 19:00 AE[DS]T", changes)


def test_a_campaigns_first_history_line_gives_its_reason(gm: Client) -> None:
    """Not "Created gm None": its areas' and companies' first lines say the same."""
    campaign = new_campaign()
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/history/").content.decode()
    assert "created from the scenario" in page


def test_a_history_page_says_what_it_lists_and_where_the_rest_is(gm: Client) -> None:
    """A roll-back's line read "Turn: 0 -> 1" (the line below it was made before two
    turns were played), and a company's History was empty after its stands were
    adjusted: each page now says what it lists, and where the rest is."""
    campaign = new_campaign()
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/history/").content.decode()
    assert "since the line below it" in page and "each turn&#x27;s log says it" in page
    company = campaign.companies.get(name="A Company")
    page = gm.get(f"/admin/campaign/company/{company.pk}/history/").content.decode()
    assert "is listed under game master&#x27;s adjustments" in page


def test_a_campaigns_pages_give_their_times_on_the_campaigns_clock(
    gm: Client, gm_user: Any
) -> None:
    """A walk-through read a History line's date and a GM change's "created at" in UTC
    ("5:21 a.m.") beside deadlines given in the campaign's Sydney time."""
    campaign = new_campaign()
    campaign.timezone = "Australia/Sydney"
    campaign.save()
    oivi = campaign.areas.get(name="Oivi")
    set_control(area=oivi, side="australian", reason="a patrol's report", user=gm_user)
    made = GmAdjustment.objects.get(campaign=campaign).created_at
    sydney, utc = ZoneInfo("Australia/Sydney"), ZoneInfo("UTC")

    def shown(moment: datetime, zone: ZoneInfo) -> str:
        return html.escape(localize(timezone.localtime(moment, zone)))

    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    # Its list of GM changes names the zone, as the admin's lists do.
    assert moment_words(made, "Australia/Sydney") in page and shown(made, utc) not in page
    for history in (
        f"/admin/campaign/campaign/{campaign.pk}/history/",
        f"/admin/campaign/area/{oivi.pk}/history/",
    ):
        page = gm.get(history).content.decode()
        assert "Times are on the campaign&#x27;s clock (Australia/Sydney)." in page
        line = oivi.history.latest("history_date").history_date
        if "/area/" in history:
            # Said as the campaign's pages say a moment, not "Dec. 6, 2026, 10:19 p.m.".
            assert moment_words(line, "Australia/Sydney") in page
            assert shown(line, sydney) not in page and shown(line, utc) not in page


def test_a_history_line_names_who_and_lists_no_turns_played(gm: Client, gm_user: Any) -> None:
    """A walk-through read "Changed by: None" on the line of a campaign created from its
    scenario, "Turn: 0 -> 3" on a schedule change made after three turns (the page says
    the turns are not listed there), "Timezone" beside the schedule page's "Time zone",
    and a side as "Australian" where the pages name the Australians."""
    campaign = new_campaign()
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    play_sunday_evenings(campaign, gm_user)
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/history/").content.decode()
    changes = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    assert "Time zone: UTC → Australia/Sydney" in changes and "Timezone" not in changes
    assert "Turn:" not in changes  # the turns played are each turn's log's
    assert "Korona created from the scenario" in changes and "None" not in changes
    oivi = campaign.areas.get(name="Oivi")
    set_control(area=oivi, side="australian", reason="a patrol's report", user=gm_user)
    page = gm.get(f"/admin/campaign/area/{oivi.pk}/history/").content.decode()
    assert re.search(r"Controller:</strong>\s*\w+\s*&nbsp;&rarr;&nbsp;&nbsp;Australians\b", page)


def test_a_campaign_made_with_a_schedule_has_it_from_its_first_history_line(
    gm: Client, gm_user: Any
) -> None:
    """The walk-through: a campaign created weekly showed its "Created" line with no
    schedule, and the first later change (a roll-back) read "Schedule kind none → weekly,
    Time zone UTC → Australia/Sydney, Next deadline none → ..." as if it had set it."""
    campaign = start_campaign(
        data=korona_doc(),
        name="Owen Stanley 1942",
        seed=1,
        choices={},
        schedule=Schedule(
            kind="weekly", weekday=4, time_of_day=time(19, 0), timezone="Australia/Sydney"
        ),
    )
    created = campaign.history.order_by("history_id").first()
    assert created is not None and created.schedule_kind == "weekly"
    assert created.timezone == "Australia/Sydney" and created.next_deadline is not None
    settings = campaign.get_settings()
    update_settings(
        campaign=campaign,
        settings={**campaign.settings, "turn_limit": settings.turn_limit - 5},
        reason="a shorter campaign",
        user=gm_user,
    )
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/history/").content.decode()
    changes = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    assert "Campaign length, in turns" in changes  # the change made is listed
    for blamed in ("Schedule kind", "Time zone", "Next deadline", "Weekday"):
        assert blamed not in changes
