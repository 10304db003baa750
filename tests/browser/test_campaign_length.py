"""The campaign's length and how it is won, in a real browser: the map's header and the
orders page on the last turn, on a desktop and on a phone (screenshots to look at), and
a length the game master changes showing on an open map without a reload."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign
from campaign.services.campaigns import update_settings
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_map import korona, sign_in  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

LAST = "Turn 2 of 2 is next: the last turn"
HOW_WON = "To win, hold Korona when the campaign ends: after turn 2, or sooner"


def shorten(campaign: Campaign, turns: int) -> None:
    campaign.refresh_from_db()
    update_settings(
        campaign=campaign,
        settings={**campaign.settings, "turn_limit": turns},
        reason="a shorter campaign",
    )


@pytest.mark.parametrize(
    ("screen", "width", "height"), [("desktop", 1280, 900), ("phone", 390, 844)]
)
def test_the_last_turn_and_how_it_is_won_read_on_the_map_and_the_orders_page(
    page: Any,
    live_server: Any,
    korona: Campaign,  # noqa: F811
    shot: Any,
    screen: str,
    width: int,
    height: int,
) -> None:
    shorten(korona, 2)  # one turn played: the next is the last
    page.set_viewport_size({"width": width, "height": height})
    sign_in(page, live_server, f"/campaigns/{korona.pk}/")
    assert page.locator("[data-turn-of]").text_content() == LAST
    how = page.locator(".map-head .how-won")
    assert how.is_visible() and (how.text_content() or "").startswith(HOW_WON)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(f"length-1-map-{screen}")
    page.locator(".map-head").screenshot(path=str(ARTIFACTS / f"length-1-map-head-{screen}.png"))

    page.goto(f"{live_server.url}/campaigns/{korona.pk}/orders/")
    line = page.locator(".campaign-length")
    assert line.is_visible()
    assert (line.text_content() or "").startswith("Turn 2 of 2: the last turn. " + HOW_WON)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(f"length-2-orders-{screen}")


def test_an_open_map_shows_a_new_length_without_a_reload(
    page: Any,
    live_server: Any,
    korona: Campaign,  # noqa: F811
    settings: Any,
) -> None:
    settings.KORONA_MAP_POLL_SECONDS = 1
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, live_server, f"/campaigns/{korona.pk}/")
    assert page.locator("[data-turn-of]").text_content() == "Turn 2 of 20 is next"
    page.evaluate("window.notReloaded = true")
    shorten(korona, 2)
    page.wait_for_selector('[data-turn-of="2/2"]')
    assert page.locator("[data-turn-of]").text_content() == LAST
    assert page.evaluate("window.notReloaded") is True
