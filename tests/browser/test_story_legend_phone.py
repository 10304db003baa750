"""The story's chart legends on a phone: a side with a long name wrapped its label, and
the flex row shrank the swatch beside it to nothing (a label with no colour). Each
swatch keeps its size and sits on its label's first line, at a phone's width and a
desktop's."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from campaign.services.scenarios import create_campaign
from campaign.services.turns import run_campaign
from tests.browser.conftest import ARTIFACTS
from tests.web.conftest import join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "Australian Imperial Force of the Kokoda Track and the Northern Beaches"

# Each legend line: its swatch's box and its label's first line box (a Range over the
# words after the swatch).
MEASURE = """
[...document.querySelectorAll('ul.story-legend li')].map(li => {
  const swatch = li.querySelector('.swatch, .tag-swatch').getBoundingClientRect();
  const words = document.createRange();
  words.selectNodeContents(li);
  words.setStartAfter(li.querySelector('.swatch, .tag-swatch'));
  const first = words.getClientRects()[0];
  return {text: li.textContent, width: swatch.width, top: swatch.top,
          bottom: swatch.bottom, left: first.left, lineTop: first.top,
          lineBottom: first.bottom, right: swatch.right};
})
"""


@pytest.mark.parametrize(("width", "size"), [(390, "phone"), (1280, "desktop")])
def test_a_legend_swatch_stays_beside_its_label(
    page: Any, live_server: Any, signed_in: Any, aussie: Any, shot: Any, width: int, size: str
) -> None:
    doc = meeting_doc()
    for side in doc["sides"]:
        if side["key"] == "australian":
            side["name"] = LONG
    campaign = create_campaign(data=doc, name="Korona told", seed=7)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=3))
    campaign.save(update_fields=["settings"])
    run_campaign(campaign_id=campaign.pk, turns=5)
    join(aussie, campaign, "australian")
    page = signed_in(aussie)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/story/")
    lines = page.evaluate(MEASURE)
    assert any(LONG in line["text"] for line in lines)
    for line in lines:
        # Kept whole (a swatch is 1rem, a tag its letters) ...
        assert line["width"] >= 14, line
        # ... and beside its label: on the label's first line, the words after it.
        assert line["top"] < line["lineBottom"] and line["bottom"] > line["lineTop"], line
        assert line["right"] <= line["left"] + 1, line
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(f"story-legend-{size}")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for n, legend in enumerate(page.locator("ul.story-legend").all()):
        legend.screenshot(path=str(ARTIFACTS / f"story-legend-{n}-{size}.png"))
