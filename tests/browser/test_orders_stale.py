"""An orders page left open while a turn is played (issue 15), in a real browser: the
page notices by itself that its turn has been played and says so with a link to the
coming turn's orders; an order sent from it before it noticed is refused in words and
files nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Campaign, Membership, Order
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a long password for the browser"
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def campaign(django_user_model: Any) -> Campaign:
    cache.clear()
    campaign = create_campaign(data=korona_doc(), name="Korona left open", seed=5)
    aussie = django_user_model.objects.create_user("aussie", password=PASSWORD)
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    return campaign


def open_orders(page: Any, live_server: Any, campaign: Campaign, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/orders/")
    assert page.locator("h1").inner_text().startswith("Orders for turn 1")


@pytest.mark.parametrize("size", SIZES)
def test_the_page_says_by_itself_that_its_turn_has_been_played(
    page: Any, live_server: Any, campaign: Campaign, settings: Any, shot: Any, size: str
) -> None:
    settings.KORONA_MAP_POLL_SECONDS = 1
    open_orders(page, live_server, campaign, size)
    assert page.locator(".turn-moved").count() == 0
    advance_turn(campaign_id=campaign.pk)
    notice = page.locator("#turn-watch.turn-moved")
    notice.wait_for()
    assert " ".join(notice.inner_text().split()) == (
        "This page was for turn 1, and turn 1 has been played since: orders now go to "
        "turn 2. Read what happened in turn 1 · Open the orders for turn 2"
    )
    # Nor does the page still say turn 1's seeds are secret: they are on its page now.
    assert "stay secret" not in page.locator("#dice-commitment").inner_text()
    assert "was drawn before turn 1 was played" in page.locator("#dice-commitment").inner_text()
    notice.scroll_into_view_if_needed()
    shot(f"orders-stale-noticed-{size}")
    notice.locator("a", has_text="Open the orders for turn 2").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text().startswith("Orders for turn 2")
    assert page.locator(".turn-moved").count() == 0


@pytest.mark.parametrize("size", SIZES)
def test_an_order_sent_from_the_page_of_a_played_turn_files_nothing(
    page: Any, live_server: Any, campaign: Campaign, settings: Any, shot: Any, size: str
) -> None:
    settings.KORONA_MAP_POLL_SECONDS = 600  # it has not noticed yet
    open_orders(page, live_server, campaign, size)
    advance_turn(campaign_id=campaign.pk)
    a = campaign.companies.get(name="A Company")
    row = page.locator(f"#company-{a.pk}")
    row.locator("select[name=order]").select_option(index=1)
    row.locator("button[value=give]").click()
    notice = page.locator("#turn-watch.turn-moved")
    notice.wait_for()
    assert " ".join(notice.inner_text().split()).startswith(
        "Not filed, nothing was changed: this page was for turn 1, and turn 1 has been "
        "played since: orders now go to turn 2."
    )
    assert not Order.objects.filter(campaign=campaign).exists()
    notice.scroll_into_view_if_needed()
    shot(f"orders-stale-refused-{size}")
