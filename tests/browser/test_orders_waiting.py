"""The orders page in a real browser while turn 1 waits for its tabletop results, on a
desktop and on a phone; and a deadline in the reader's own time zone, written as the
pages write every moment."""

from __future__ import annotations

import re
from datetime import UTC, datetime, time
from typing import Any

import pytest
from django.test import Client

from campaign.models import Campaign, Membership
from campaign.services.schedule import set_schedule
from campaign.services.turns import advance_turn
from tests.admin.conftest import new_campaign
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_orders_page_while_turn_1_waits_for_the_table(
    page: Any, live_server: Any, django_user_model: Any, signed_in: Any, shot: Any, size: Any
) -> None:
    player = django_user_model.objects.create_user("aussie", "a@example.com", "pw")
    campaign = new_campaign("Korona at the table", doc=meeting_doc(), battle_mode="tabletop")
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    # The walk's schedule: every Friday at 19:00 in Sydney.
    set_schedule(
        campaign=campaign,
        kind="weekly",
        weekday=4,
        time_of_day=time(19, 0),
        timezone="Australia/Sydney",
    )
    advance_turn(campaign_id=campaign.pk)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    signed_in(player)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/orders/")
    assert page.locator("h1").inner_text().startswith("Turn 1 waits for its battles at the table")
    under_way = page.locator(".under-way")
    assert "Turn 1 is under way." in under_way.inner_text()
    assert under_way.get_by_role("link", name="Korona (battle 1)").count() == 1
    assert "Orders for turn 2 open when the game master has entered the results." in (
        under_way.inner_text()
    )
    assert (
        "The deadline for turn 2 will be the first Friday at 19:00 (Australia/Sydney) "
        "after turn 1 ends:" in page.locator("#ready").inner_text()
    )
    assert page.locator("select[name=order], #ready-button").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    shot(f"orders-waiting-for-the-table-{'phone' if size[0] < 600 else 'desktop'}")


def test_your_time_is_written_as_every_other_moment_whatever_the_browsers_language(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    player = django_user_model.objects.create_user("aussie", "a@example.com", "pw")
    campaign = new_campaign("Korona clocks", doc=meeting_doc())
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, timezone="Europe/Berlin")
    Campaign.objects.filter(pk=campaign.pk).update(
        next_deadline=datetime(2031, 1, 15, 9, 0, tzinfo=UTC)
    )
    # A browser in American English, on UTC: its own format was "Wed, Jan 15, 09:00 AM UTC".
    context = browser.new_context(timezone_id="UTC", locale="en-US")
    client = Client()
    client.force_login(player)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/orders/")
    deadline = page.locator("time.deadline").first.inner_text()
    assert re.fullmatch(r"Wed 15 Jan 2031, 10:00 CET", deadline), deadline
    mine = page.locator(".your-time").first
    mine.wait_for()
    assert mine.text_content() == " (your time: Wed 15 Jan 2031, 09:00 UTC)"
    context.close()


@pytest.mark.parametrize(
    ("campaign_zone", "reader_zone", "shown"),
    [
        ("UTC", "UTC", None),
        # Melbourne keeps Sydney's clock, under another name in some browsers.
        ("Australia/Sydney", "Australia/Melbourne", None),
        ("Australia/Sydney", "Europe/Berlin", " (your time: Wed 15 Jan 2031, 10:00 CET)"),
    ],
    ids=["both-utc", "sydney-read-in-melbourne", "sydney-read-in-berlin"],
)
def test_your_time_is_left_out_when_the_readers_clock_reads_the_same(
    browser: Any,
    live_server: Any,
    django_user_model: Any,
    campaign_zone: str,
    reader_zone: str,
    shown: str | None,
) -> None:
    """The walk's map read "18:10 UTC (your time: 18:10 UTC)": the reader's clock adds
    something only when it reads another time than the campaign's."""
    player = django_user_model.objects.create_user("aussie", "a@example.com", "pw")
    campaign = new_campaign("Korona clocks", doc=meeting_doc())
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, timezone=campaign_zone)
    Campaign.objects.filter(pk=campaign.pk).update(
        next_deadline=datetime(2031, 1, 15, 9, 0, tzinfo=UTC)
    )
    context = browser.new_context(timezone_id=reader_zone, locale="en-GB")
    client = Client()
    client.force_login(player)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    for where in ("orders/", ""):  # the orders page, the map
        page.goto(f"{live_server.url}/campaigns/{campaign.pk}/{where}")
        deadline = page.locator("time.deadline").first
        # localtime.js has looked at it (it marks each moment it read).
        # A function, not an expression: Playwright evals its text in the page at every
        # poll after the first, which the Content-Security-Policy forbids (an EvalError);
        # a function is evaled once, as the wait begins, which the policy lets through.
        page.wait_for_function("() => document.querySelector('time.deadline').dataset.localShown")
        mine = page.locator("time.deadline + .your-time")
        if shown is None:
            assert mine.count() == 0, (where, deadline.inner_text(), mine.all_inner_texts())
        else:
            assert mine.first.text_content() == shown, where
    context.close()
