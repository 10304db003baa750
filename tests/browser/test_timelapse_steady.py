"""The time-lapse steps in place: every frame's map is drawn in the same box, so stepping
through the turns moves nothing on the page (the maps varied in height, and the page
jumped at each step), on a desktop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.web.conftest import join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# The shown frame's map: where it starts on the page and its size; and the controls'.
_SHOWN = """() => {
  const map = document.querySelector("#timelapse .frame.current svg.campaign-map");
  const box = map.getBoundingClientRect();
  const controls = document.querySelector(".timelapse-controls").getBoundingClientRect();
  return [box.top + window.scrollY, box.width, box.height, map.getAttribute("viewBox"),
          controls.top + window.scrollY];
}"""


@pytest.fixture
def long_campaign(aussie: Any) -> Campaign:
    """Four turns of Korona with the Japanese in Korona from the start: companies move,
    fight and fall back, so the maps' chips and notes differ from turn to turn."""
    campaign = create_campaign(data=meeting_doc(), name="Korona steady", seed=7)
    for _ in range(4):
        advance_turn(campaign_id=campaign.pk)
    join(aussie, campaign, "australian")
    return campaign


@pytest.mark.parametrize("size", SIZES)
def test_every_frame_of_the_time_lapse_is_drawn_in_the_same_box(
    long_campaign: Campaign, aussie: Any, signed_in: Any, live_server: Any, shot: Any, size: str
) -> None:
    page = signed_in(aussie)
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/campaigns/{long_campaign.pk}/timelapse/")
    counter = page.locator("[data-step=counter]")
    steps = page.locator("#timelapse .frame").count()
    assert steps == 5
    seen = []
    for step in range(steps):
        if step:
            page.click("[data-step=next]")
        assert counter.text_content().startswith(f"Step {step + 1} of {steps}")
        seen.append(page.evaluate(_SHOWN))
        shot(f"timelapse-steady-{size}-{step + 1}")
    tops, widths, heights, boxes, controls = zip(*seen, strict=True)
    assert len(set(boxes)) == 1, boxes  # one drawing area for the whole campaign
    assert max(heights) - min(heights) <= 0.5, heights
    assert max(widths) - min(widths) <= 0.5, widths
    assert max(tops) - min(tops) <= 0.5, tops  # each map starts where the last one did
    assert len(set(controls)) == 1, controls
