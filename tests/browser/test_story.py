"""The story of an ended campaign on a phone: the winner and why, the charts drawn to the
screen's width (nothing to scroll sideways), the battles and the turning points."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from campaign.services.turns import run_campaign
from tests.web.conftest import PASSWORD, join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ended(django_user_model: Any) -> Campaign:
    campaign = create_campaign(data=meeting_doc(), name="Korona ended", seed=7)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=6))
    campaign.save(update_fields=["settings"])
    run_campaign(campaign_id=campaign.pk, turns=10)
    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    join(player, campaign, "australian")
    campaign.refresh_from_db()
    return campaign


def test_a_player_reads_the_end_summary_on_a_phone(
    page: Any, live_server: Any, ended: Campaign, shot: Any
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/?next=/campaigns/{ended.pk}/")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/campaigns/{ended.pk}/")
    page.click("text=The story of the campaign")
    page.wait_for_url(f"**/campaigns/{ended.pk}/story/")

    assert page.locator(".outcome").is_visible()
    assert "won" in page.locator(".outcome").text_content()
    for chart in ("svg.strength-chart", "svg.control-chart"):
        box = page.locator(chart).bounding_box()
        assert box is not None and 300 <= box["width"] <= 390, (chart, box)
    # The page fits the phone: nothing runs off its right edge.
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right > 391)"
        ".map(e => e.tagName + '.' + e.className).slice(0, 8)"
    )
    assert wide == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("table.tally tbody tr").count() == 2
    assert page.locator("ol.turning-points li").count() >= 1
    shot("story-phone")


def story_as_aussie(page: Any, live_server: Any, ended: Campaign, width: int) -> None:
    """Sign in as the Australians' player at ``width`` and open the ended campaign's story."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/?next=/campaigns/{ended.pk}/story/")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/campaigns/{ended.pk}/story/")


@pytest.mark.parametrize("width", [390, 1280])
def test_the_charts_words_read_at_about_the_pages_size(
    page: Any, live_server: Any, ended: Campaign, shot: Any, width: int
) -> None:
    """At 1280 wide each chart grew to the 46rem column: the strength chart's numbers to
    25 pixels and a short campaign's area names to 40; on a phone they must stay
    readable."""
    story_as_aussie(page, live_server, ended, width)
    words = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    for chart in ("svg.strength-chart", "svg.control-chart"):
        number = page.locator(f"{chart} text").first.bounding_box()
        assert number is not None
        assert 0.7 * words <= number["height"] <= 1.35 * words, (chart, number, words)
    shot(f"story-charts-{width}")


# Each cell of the control chart and its tag: the tag must sit inside its cell, whole.
CELLS = """() => [...document.querySelectorAll('svg.control-chart g[data-side]')].map(g => {
  const cell = g.querySelector('rect').getBoundingClientRect();
  const tag = g.querySelector('text.tag');
  const box = tag ? tag.getBoundingClientRect() : null;
  return {side: g.dataset.side, tag: tag ? tag.textContent : null,
          inside: !!box && box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5
            && box.top >= cell.top - 0.5 && box.bottom <= cell.bottom + 0.5,
          height: box ? box.height : 0};
})"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_control_chart_says_who_held_each_area_in_words(
    page: Any, live_server: Any, ended: Campaign, shot: Any, width: int
) -> None:
    """Not by colour alone: each cell carries the map's tag, inside it; the chart is told
    in words below it, for a screen reader too."""
    # An area that nobody held for a turn, and changed hands twice (the record edited so
    # that the chart draws all three tags).
    turn = ended.turns.get(number=2)
    turn.report["control"]["Oivi"] = None
    turn.save(update_fields=["report"])
    story_as_aussie(page, live_server, ended, width)
    cells = page.evaluate(CELLS)
    tags = {"australian": "AUS", "japanese": "JPN", "": "none"}
    assert {cell["side"] for cell in cells} == set(tags)
    assert [cell["tag"] for cell in cells] == [tags[cell["side"]] for cell in cells]
    assert all(cell["inside"] for cell in cells), [c for c in cells if not c["inside"]][:3]
    # Big enough to read: at least two thirds of the page's own words.
    words = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert min(cell["height"] for cell in cells) >= 0.6 * words
    page.click("summary:text('Who held each area, in words')")
    oivi = page.locator(".control-words li[data-area='Oivi']")
    assert oivi.is_visible()
    assert "nobody (none) after turn 2" in oivi.inner_text()
    shot(f"story-control-{width}")
