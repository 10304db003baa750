"""The map's legend on a phone: the contested line's two tags ("AUS, contested", "JPN,
contested") left its words a sliver of a column beside them, seven lines of two words
(a walk-through); the words go below the tags instead."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.services.scenarios import create_campaign
from tests.browser.conftest import ARTIFACTS
from tests.web.conftest import join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_contested_line_of_the_legend_reads_on_a_phone(
    page: Any, live_server: Any, signed_in: Any, aussie: Any, width: int
) -> None:
    campaign = create_campaign(data=meeting_doc(), name="Meeting", seed=1)
    join(aussie, campaign, "australian")
    page = signed_in(aussie)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    line = page.locator('[data-holder-key="contested"]')
    words = line.locator(".legend-words").bounding_box()
    assert words is not None
    # As wide as a sentence wants on a phone (all but the page's margins), not 80 px.
    assert words["width"] >= min(0.7 * width, 224), words
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    line.screenshot(path=str(ARTIFACTS / f"legend-contested-{width}.png"))
