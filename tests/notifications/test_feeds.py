"""The iCal feed of a user's deadlines and the Atom feed of their side's turns: signed
per user, read through the fog of war."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from datetime import timedelta
from typing import Any

import icalendar
import pytest
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from battles.web.lists import battle_reasons, battle_shares, readable_battles
from campaign.models import Campaign, GmAdjustment, Turn
from campaign.services.deadlines import Schedule
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import change_schedule, set_schedule
from campaign.services.turns import advance_turn
from campaign.services.visibility import open_campaign
from campaign.web import turnlog
from notifications.feeds import feed_token, feed_urls
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


def get(url: str) -> Any:
    return Client().get(url.removeprefix("http://korona.test"))


def test_a_feed_answers_only_its_own_users_token(aussie: Any, japanese: Any) -> None:
    mine = feed_urls(aussie)
    assert get(mine["calendar"]).status_code == 200
    assert get(mine["turns"]).status_code == 200
    theirs = feed_token(japanese)
    assert theirs != feed_token(aussie)
    for bad in (theirs, "0" * 40, feed_token(aussie)[:-1] + "x"):
        assert Client().get(f"/feeds/{aussie.pk}/{bad}/deadlines.ics").status_code == 404
        assert Client().get(f"/feeds/{aussie.pk}/{bad}/turns.atom").status_code == 404
    assert Client().get(f"/feeds/999999/{feed_token(aussie)}/turns.atom").status_code == 404


def test_a_new_password_retires_the_old_feed_links(aussie: Any) -> None:
    old = feed_urls(aussie)["turns"]
    aussie.set_password("another long password")
    aussie.save()
    assert get(old).status_code == 404
    assert get(feed_urls(aussie)["turns"]).status_code == 200


def test_the_calendar_has_each_campaigns_next_deadline(campaign: Campaign, aussie: Any) -> None:
    now = timezone.now().replace(microsecond=0)
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, now=now)
    answer = get(feed_urls(aussie)["calendar"])
    assert answer["Content-Type"].startswith("text/calendar")
    assert "no-store" in answer["Cache-Control"]
    calendar = icalendar.Calendar.from_ical(answer.content)
    (event,) = calendar.walk("VEVENT")
    assert str(event["summary"]) == "Korona: orders for turn 1 due"
    assert event.decoded("dtstart") == now + timedelta(hours=24)
    (alarm,) = event.walk("VALARM")
    assert alarm.decoded("trigger") == timedelta(hours=-12)


def test_the_alarm_comes_no_earlier_than_halfway_through_a_short_turn(
    campaign: Campaign, aussie: Any, japanese: Any
) -> None:
    """A turn every 2 hours: the alarm 12 hours before its deadline went off before the
    event existed. It follows the reminder email: the reader's hours, halfway at most."""
    from notifications.models import Preference

    set_schedule(campaign=campaign, kind="every_hours", every_hours=2)
    Preference.objects.create(user=japanese, reminder_hours=1)

    def trigger(user: Any) -> Any:
        calendar = icalendar.Calendar.from_ical(get(feed_urls(user)["calendar"]).content)
        (alarm,) = calendar.walk("VALARM")
        return alarm.decoded("trigger")

    assert trigger(aussie) == timedelta(hours=-1)  # 12 hours chosen: halfway
    assert trigger(japanese) == timedelta(hours=-1)
    change_schedule(
        campaign=campaign,
        schedule=Schedule(kind="every_hours", every_hours=6, timezone="UTC"),
        reason="a slower pace",
    )
    assert trigger(aussie) == timedelta(hours=-3)
    assert trigger(japanese) == timedelta(hours=-1)


def test_an_events_stamp_is_when_its_deadline_was_set_not_the_deadline(
    campaign: Campaign, aussie: Any
) -> None:
    """RFC 5545: DTSTAMP is when the event's information was last revised. It was the
    deadline itself, a time to come; it is when the GM set the schedule, a time past,
    the same at every fetch (a calendar reads a new stamp as a change)."""

    def stamps() -> list[Any]:
        fetches = [
            icalendar.Calendar.from_ical(get(feed_urls(aussie)["calendar"]).content)
            for _ in range(2)
        ]
        events = [event for feed in fetches for event in feed.walk("VEVENT")]
        assert all(e.decoded("dtstamp") < e.decoded("dtstart") for e in events)
        return [event.decoded("dtstamp") for event in events]

    # The schedule the campaign was made with: its deadline dates from then.
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24)
    campaign.refresh_from_db()
    made = max(campaign.created_at, campaign.updated_at).replace(microsecond=0)
    assert stamps() == [made, made]
    # The GM's new schedule, later, sets a new deadline: the stamp is the change's time.
    change_schedule(
        campaign=campaign,
        schedule=Schedule(kind="every_hours", every_hours=48, timezone="UTC"),
        reason="two days a turn",
    )
    set_at = GmAdjustment.objects.get(campaign=campaign).created_at.replace(microsecond=0)
    assert stamps() == [set_at, set_at]


def test_a_tabletop_results_stamp_is_when_its_turn_was_played(gm_user: Any) -> None:
    campaign = create_campaign(data=meeting_doc(), name="Table", seed=1)
    campaign.set_settings(replace(campaign.get_settings(), battle_mode="tabletop"))
    campaign.save(update_fields=["settings"])
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24)
    advance_turn(campaign_id=campaign.pk)
    turn = Turn.objects.get(campaign=campaign, number=1)
    calendar = icalendar.Calendar.from_ical(get(feed_urls(gm_user)["calendar"]).content)
    tabletop = [e for e in calendar.walk("VEVENT") if "tabletop result due" in e["summary"]]
    assert tabletop
    for event in tabletop:
        assert event.decoded("dtstamp") == turn.created_at.replace(microsecond=0)
        assert event.decoded("dtstamp") < event.decoded("dtstart")


def test_the_calendar_of_a_campaign_without_a_deadline_is_empty(
    campaign: Campaign, aussie: Any
) -> None:
    calendar = icalendar.Calendar.from_ical(get(feed_urls(aussie)["calendar"]).content)
    assert calendar.walk("VEVENT") == []


def test_the_turns_feed_is_each_turn_as_the_side_saw_it(played: Campaign, aussie: Any) -> None:
    answer = get(feed_urls(aussie)["turns"])
    assert answer["Content-Type"].startswith("application/atom+xml")
    entries = ET.fromstring(answer.content).findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}title").text for e in entries] == [
        "Korona played: turn 2",
        "Korona played: turn 1",
    ]
    view = open_campaign(user=aussie, campaign=played)
    names = {key: side.name for key, side in view.state.sides.items()}
    for entry, number in zip(entries, (2, 1), strict=True):
        turn = played.turns.get(number=number)
        readable = readable_battles(view, turn=turn)
        lines = turnlog.turn_summary(
            view.records(turn.log, number=turn.number),
            names,
            battle_reasons(readable),
            shares=battle_shares(readable),
        )
        # A defeat by losses gives the loser's count, as the battle's report does.
        assert number == 2 or any(re.search(r"of their stands \(\d+ of \d+\)", x) for x in lines)
        assert lines
        expected = "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>"
        assert entry.find(f"{ATOM}summary").text == expected
    # A side knows its battles in full (rulings section 6): the enemy companies that
    # fought it are named; any other company it does not see now is not.
    fought = {
        name
        for turn in played.turns.all()
        for record in view.records(turn.log, number=turn.number)
        if record.get("kind") == "battle"
        for name in [*record["attackers"], *record["defenders"]]
    }
    hidden = set(view.state.companies) - {c.name for c in view.companies} - fought
    assert hidden
    for name in hidden:
        assert name.encode() not in answer.content, name


def test_the_notices_page_gives_the_readers_own_feed_links(aussie: Any) -> None:
    """The links were empty (the page was drawn without them)."""
    client = Client()
    client.force_login(aussie)
    page = client.get("/accounts/notices/").content.decode()
    for url in feed_urls(aussie).values():
        assert f'href="{url}"' in page
