"""A paused campaign on a phone: the map and the campaigns list say since when and why
it is paused, and a long reason (a link the GM pasted) wraps instead of widening the
page."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.services.campaigns import set_paused
from campaign.services.scenarios import create_campaign
from tests.browser.conftest import ARTIFACTS
from tests.web.conftest import join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)

REASON = (
    "Holidays: we play again on 4 January, see "
    "https://example.org/our-group/calendar/korona-campaign-winter-break-2026-2027"
)


@pytest.mark.parametrize("width", [390, 1280])
def test_a_paused_campaign_says_since_when_and_why_on_a_phone(
    page: Any, live_server: Any, signed_in: Any, aussie: Any, width: int
) -> None:
    campaign = create_campaign(data=meeting_doc(), name="Meeting", seed=1)
    join(aussie, campaign, "australian")
    set_paused(campaign=campaign, paused=True, reason=REASON)
    page = signed_in(aussie)
    page.set_viewport_size({"width": width, "height": 900})
    for address, shot in ((f"/campaigns/{campaign.pk}/", "map"), ("/campaigns/", "list")):
        page.goto(f"{live_server.url}{address}")
        note = page.locator(".pause-note")
        said = note.inner_text()
        # The map: "Paused since ..."; the list, after its "Paused": "since ...".
        assert said.startswith("Paused since " if shot == "map" else "since "), said
        assert said.endswith(f"The game master's reason: {REASON}"), said
        assert note.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        note.screenshot(path=str(ARTIFACTS / f"pause-{shot}-{width}.png"))
