"""The campaign's battles in a real browser, on a desk and on a phone: reached from the
top bar, every battle a card that fits the screen (nothing to scroll sideways), each
linking to its report; a battle waiting for the table gives its deadline, with the
reader's own time beside it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from battles.models import Battle
from campaign.models import Campaign
from tests.admin.conftest import waiting_campaign
from tests.web.conftest import join

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [(1280, 800), (390, 844), (360, 740)]

# What runs off the page's right edge: a tag and class per element, a few at most.
_OVERFLOW = """(width) => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > width + 1)
  .map(e => e.tagName + '.' + e.className).slice(0, 8)"""


def assert_fits(page: Any, width: int) -> None:
    assert page.evaluate(_OVERFLOW, width) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone", "small-phone"])
def test_a_player_finds_the_battles_and_opens_a_report(
    page: Any,
    live_server: Any,
    played: Campaign,
    aussie: Any,
    signed_in: Any,
    shot: Any,
    size: tuple[int, int],
) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    signed_in(aussie).goto(f"{live_server.url}/campaigns/{played.pk}/")
    page.locator("header.top nav").get_by_role("link", name="Battles").click()
    page.wait_for_url(f"**/campaigns/{played.pk}/battles/")
    assert page.locator("h1").inner_text() == "Battles of Korona played"
    cards = page.locator("ol.battles > li")
    assert cards.count() == 3
    # Newest turn first.
    assert page.locator("section.turn-battles h2").all_inner_texts() == ["Turn 2", "Turn 1"]
    assert_fits(page, width)
    # Each card reads whole inside the screen.
    for box in (cards.nth(i).bounding_box() for i in range(3)):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    tag = "desktop" if width > 600 else f"phone-{width}"
    shot(f"battle-list-{tag}")

    first = Battle.objects.filter(campaign=played, turn__number=2).get()
    cards.first.get_by_role("link").click()
    page.wait_for_url(f"**/campaigns/{played.pk}/battles/{first.pk}/")
    assert page.locator("h1").inner_text() == "Battle at Korona"


# A reader in Sydney: their clock reads otherwise than the campaign's UTC, so their own
# time is written beside it (a reader on UTC gets none: test_orders_waiting.py).
@pytest.mark.browser_context_args(timezone_id="Australia/Sydney", locale="en-GB")
@pytest.mark.parametrize("size", SIZES[:2], ids=["desktop", "phone"])
def test_battles_waiting_for_the_table_give_their_deadline_on_a_phone(
    page: Any,
    live_server: Any,
    aussie: Any,
    signed_in: Any,
    shot: Any,
    size: tuple[int, int],
) -> None:
    campaign, battles = waiting_campaign()
    join(aussie, campaign, "australian")
    Battle.objects.filter(campaign=campaign).update(
        deadline=datetime(2031, 7, 5, 18, 0, tzinfo=UTC)
    )
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    signed_in(aussie).goto(f"{live_server.url}/campaigns/{campaign.pk}/battles/")
    waiting = page.locator("ol.battles > li.waiting")
    assert waiting.count() == 2
    words = waiting.first.inner_text()
    assert "Still to be fought on the table" in words
    assert "wanted by Sat 5 Jul 2031, 18:00 UTC" in words
    assert (
        "if none is entered by then, the campaign waits for the game master's result, however "
        "long." in words
    )
    # localtime.js writes the moment on the reader's clock beside it.
    mine = waiting.first.locator("time.deadline + .your-time")
    mine.wait_for(state="attached")
    # The zone as the browser names it: "AEST" or "GMT+10", by its language data.
    assert mine.inner_text().strip().startswith("(your time: Sun 6 Jul 2031, 04:00 ")
    assert_fits(page, width)
    shot(f"battle-list-waiting-{'desktop' if width > 600 else 'phone'}")
