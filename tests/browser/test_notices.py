"""A player told of a turn, in a real browser: they set their notices, the GM plays the
turn, the email arrives (Django's test outbox) and the channel's webhook is posted (a
local server on 127.0.0.1); the email's links open the turn and unsubscribe."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import mail

from campaign.models import Campaign, Membership
from campaign.services.scenarios import create_campaign
from config.celery import app as celery_app
from notifications.models import Preference, Webhook
from tests.notifications.conftest import Hooked
from tests.web.conftest import PASSWORD, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def eager_tasks(settings: Any, live_server: Any) -> Iterator[None]:
    settings.KORONA_SITE_URL = live_server.url
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.fixture
def hook_server() -> Iterator[Hooked]:
    server = Hooked()
    yield server
    server.close()


def sign_in(page: Any, live_server: Any, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def test_a_player_is_told_of_a_turn_by_email_and_the_channel_by_webhook(
    page: Any,
    browser: Any,
    live_server: Any,
    django_user_model: Any,
    hook_server: Hooked,
    shot: Any,
) -> None:
    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    django_user_model.objects.create_superuser("gm", "gm@example.com", PASSWORD)
    campaign = create_campaign(data=meeting_doc(), name="Korona by mail", seed=7)
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    Webhook.objects.create(campaign=campaign, url=hook_server.url)

    sign_in(page, live_server, "aussie", PASSWORD)
    page.goto(f"{live_server.url}/accounts/notices/")
    page.fill("#id_time_zone", "Australia/Sydney")
    page.fill("#id_reminder_hours", "6")
    shot("notices-1-settings")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert page.locator(".messages", has_text="saved").count() == 1
    assert Preference.objects.get(user=player).time_zone == "Australia/Sydney"

    gm = browser.new_page()
    sign_in(gm, live_server, "gm", PASSWORD)
    gm.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    gm.once("dialog", lambda dialog: dialog.accept())  # Advance turn now asks first
    gm.click("input[value='Advance turn now']")
    gm.wait_for_load_state()
    gm.close()
    assert Campaign.objects.get(pk=campaign.pk).turn == 1

    (message,) = [m for m in mail.outbox if m.to == ["a@example.com"]]
    assert message.subject == "[Korona by mail] Turn 1 played"
    assert "As the " in message.body  # the side's name, as the scenario spells it
    (post,) = hook_server.posts
    assert post["content"].startswith("**[Korona by mail] Turn 1 played**")

    turn_link = re.search(r"Every roll: (\S+)", message.body)[1]
    page.goto(turn_link)
    assert page.locator("h1", has_text="Turn 1").count() >= 1
    shot("notices-2-turn-from-email")

    unsubscribe = re.search(r"Stop these emails \(when a turn was played\): (\S+)", message.body)[1]
    page.goto(unsubscribe)
    assert page.locator("h1", has_text="Unsubscribed").count() == 1
    shot("notices-3-unsubscribed")
    assert Preference.objects.get(user=player).turn_played is False


def test_a_deadline_is_also_shown_in_the_readers_own_time_zone(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    from datetime import UTC, datetime

    from campaign.services.schedule import set_schedule

    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    campaign = create_campaign(data=meeting_doc(), name="Korona clocks", seed=7)
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, timezone="Europe/Berlin")
    campaign.refresh_from_db()
    Campaign.objects.filter(pk=campaign.pk).update(
        next_deadline=datetime(2031, 1, 15, 9, 0, tzinfo=UTC)
    )
    context = browser.new_context(timezone_id="Australia/Sydney", locale="en-GB")
    page = context.new_page()
    sign_in(page, live_server, "aussie", PASSWORD)
    for path in (f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/orders/", "/campaigns/"):
        page.goto(f"{live_server.url}{path}")
        mine = page.locator(".your-time").first
        mine.wait_for()
        # 09:00 UTC is 20:00 in Sydney (summer time, +11) on 15 January.
        assert "20:00" in mine.text_content(), (path, mine.text_content())
        assert "10:00" in page.locator("time.deadline").first.text_content()  # Berlin, +1
    context.close()


def test_the_notices_page_fits_a_phone(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    # The feeds' links are shown as their addresses, which are long: they wrap.
    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    campaign = create_campaign(data=meeting_doc(), name="Korona on a phone", seed=7)
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, live_server, "aussie", PASSWORD)
    page.goto(f"{live_server.url}/accounts/notices/")
    assert page.locator("#feed-calendar").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot("notices-phone")
