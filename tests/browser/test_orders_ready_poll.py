"""The ready box of an orders page left open, kept up to date by the page's slow poll
(orders-watch): the enemy's "ready" shows without a reload (which sides are ready is
public, rulings section 6), and a keyboard user whose focus is in the box keeps it when
the poll redraws the box: on the same button, or on the box once no button is left."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Campaign, Membership
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import mark_side_ready
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = pytest.mark.parametrize(
    "screen", [("phone", 390, 844), ("desktop", 1280, 900)], ids=lambda s: s[0]
)
PASSWORD = "a long password 1"
FOCUSED = "() => { const e = document.activeElement; return e ? (e.id || e.tagName) : null; }"


def open_orders(
    page: Any, live_server: Any, signed_in: Any, players: list[tuple[Any, str]], screen: Any
) -> tuple[Campaign, list[str]]:
    """The orders page of the first of ``players`` (user, side), polled every second, and
    the console's errors."""
    campaign = create_campaign(data=korona_doc(), name="Korona, ready", seed=5)
    for user, side in players:
        Membership.objects.create(user=user, campaign=campaign, side=side)
    _, width, height = screen
    page.set_viewport_size({"width": width, "height": height})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    signed_in(players[0][0])
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/orders/")
    return campaign, errors


@pytest.fixture(autouse=True)
def quick_poll(settings: Any) -> None:
    cache.clear()
    settings.KORONA_ORDERS_WATCH_SECONDS = 1


@SCREENS
def test_the_enemys_ready_shows_on_a_page_left_open(
    page: Any,
    live_server: Any,
    signed_in: Any,
    django_user_model: Any,
    shot: Any,
    screen: tuple[str, int, int],
) -> None:
    """The poll's token left out the enemy's "ready": the box said "Japanese: not ready
    yet" until a reload. The focus stays on the button the player had tabbed to."""
    players = [
        (django_user_model.objects.create_user(name, password=PASSWORD), side)
        for name, side in (("aussie", "australian"), ("japanese", "japanese"))
    ]
    campaign, errors = open_orders(page, live_server, signed_in, players, screen)
    box = page.locator("#ready")
    assert "Japanese: not ready yet" in box.inner_text()
    page.focus("#ready-button")
    mark_side_ready(campaign=campaign, side="japanese")
    box.locator("li", has_text="Japanese: ready").wait_for()
    assert "Australians: not ready yet" in box.inner_text()
    assert page.evaluate(FOCUSED) == "ready-button"
    assert "My orders for turn 1 are ready" in page.locator("#ready-button").inner_text()
    box.scroll_into_view_if_needed()
    shot(f"orders-ready-poll-1-enemy-ready-{screen[0]}")
    assert errors == []


@SCREENS
def test_the_focus_stays_in_the_ready_box_when_the_poll_redraws_it(
    page: Any,
    live_server: Any,
    signed_in: Any,
    django_user_model: Any,
    shot: Any,
    screen: tuple[str, int, int],
) -> None:
    """A player who tabbed to the ready button keeps the focus there when a teammate's
    "ready" turns it into "Unready" (the same button); when the enemy's "ready" then
    leaves no button (every side ready), the focus goes to the box, not to the top of
    the page as it did."""
    players = [
        (django_user_model.objects.create_user(name, password=PASSWORD), side)
        for name, side in (
            ("aussie", "australian"),
            ("mate", "australian"),
            ("japanese", "japanese"),
        )
    ]
    campaign, errors = open_orders(page, live_server, signed_in, players, screen)
    box = page.locator("#ready")
    page.focus("#ready-button")
    mark_side_ready(campaign=campaign, side="australian")  # the teammate's "ready"
    page.locator("#ready-button", has_text="Unready").wait_for()
    assert page.evaluate(FOCUSED) == "ready-button"
    mark_side_ready(campaign=campaign, side="japanese")  # every side ready: no button
    page.locator("#ready-button").wait_for(state="detached")
    assert "Every side is ready" in page.locator("#ready-status").inner_text()
    page.wait_for_function("() => document.activeElement.id === 'ready'")
    box.scroll_into_view_if_needed()
    shot(f"orders-ready-poll-2-focus-kept-{screen[0]}")
    assert errors == []
