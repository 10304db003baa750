"""Smaller findings of the walk-through (issue 15) in a real browser, on a desk and on a
phone: the story says the first lead ("level until then") once, the orders page says what a company
without an order does, the site has an icon, a player's notice settings have no GM-only
notice, and the map page shows the newest messages."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from campaign.models import Company
from campaign.services.scenarios import create_campaign
from campaign.services.turns import run_campaign
from notifications.models import Message
from tests.browser.conftest import ARTIFACTS
from tests.web.conftest import PASSWORD, join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def player(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)


def sign_in(page: Any, live_server: Any, size: str, next_url: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}{next_url}")


@pytest.mark.parametrize("size", SIZES)
def test_the_story_says_for_the_first_time_once(
    page: Any, live_server: Any, player: Any, shot: Any, size: str
) -> None:
    # Seed 7 to the turn limit of 10: the lead in stands changes hands and ties.
    campaign = create_campaign(data=meeting_doc(), name="Korona told", seed=7)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=10))
    campaign.save(update_fields=["settings"])
    run_campaign(campaign_id=campaign.pk, turns=12)
    join(player, campaign, "australian")
    sign_in(page, live_server, size, f"/campaigns/{campaign.pk}/story/")
    points = page.locator("ol.turning-points").inner_text()
    assert points.count("level until then") <= 1
    assert "from here" not in points
    page.locator("ol.turning-points").scroll_into_view_if_needed()
    shot(f"walk-story-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_the_orders_icon_notices_and_messages_read_plainly(
    page: Any, live_server: Any, player: Any, gm_user: Any, shot: Any, size: str
) -> None:
    campaign = create_campaign(data=meeting_doc(), name="Korona walked", seed=7)
    join(player, campaign, "australian")
    Company.objects.filter(campaign=campaign, name="B Company").update(standing_order="aggressive")
    Company.objects.filter(campaign=campaign, name="A Company").update(standing_order="sensible")
    Message.objects.create(
        campaign=campaign, channel="announcement", author=gm_user, text="Turn 1 on Friday"
    )
    Message.objects.create(
        campaign=campaign, channel="side", side="australian", author=player,
        author_side="australian", text="Hold Korona whatever it costs",
    )  # fmt: skip

    # The map shows the newest messages (loaded by htmx) and links them all.
    sign_in(page, live_server, size, f"/campaigns/{campaign.pk}/")
    box = page.locator("#messages-box section.latest-messages")
    box.wait_for()
    text = " ".join(box.inner_text().split())
    assert "(2 in all)" in text and "Hold Korona whatever it costs" in text
    assert "Turn 1 on Friday" in text
    assert page.locator('link[rel="icon"]').get_attribute("href").endswith("favicon.svg")
    shot(f"walk-map-messages-{size}")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    box.screenshot(path=str(ARTIFACTS / f"walk-map-messages-{size}-box.png"))

    # The orders page says what each company does without an order, in words.
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/orders/")
    cards = " ".join(page.locator(".order-cards").inner_text().split())
    # Its standing order in the company page's words: never the campaign AI's "sensible".
    assert "sensible" not in cards
    assert "Standing order: hold (the default while you play this side): what" in cards
    assert "no order given, so it holds in Korona." in cards
    assert "no order given, so it advances towards the enemy's base by itself" in cards
    shot(f"walk-orders-{size}")

    # The player's notice settings offer the table's notice in a player's words.
    page.goto(f"{live_server.url}/accounts/notices/")
    assert page.locator('input[name="battle_waiting"]').count() == 1
    assert "When a battle of my side waits to be fought at the table" in (
        page.locator("main").inner_text()
    )
    assert "(game master)" not in page.locator("main").inner_text()
    shot(f"walk-notices-{size}")

    # The icon is there, at /favicon.ico too.
    answer = page.goto(f"{live_server.url}/favicon.ico")
    assert answer is not None and answer.ok
    assert "svg" in answer.headers.get("content-type", "")
