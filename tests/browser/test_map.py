"""The campaign map in a real browser: drawn on the server, readable on a phone, and
redrawn by itself (htmx polling) when a turn is played."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.web.conftest import PASSWORD, join, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def korona(django_user_model: Any) -> Campaign:
    """Korona with one turn played: battles fought, enemies in sight; an Australian
    player in it."""
    campaign = create_campaign(data=meeting_doc(), name="Korona in the browser", seed=7)
    advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    join(player, campaign, "australian")
    return campaign


def sign_in(page: Any, live_server: Any, next_url: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}{next_url}")


def test_the_map_is_drawn_with_areas_companies_and_a_countdown(
    page: Any, live_server: Any, korona: Campaign, shot: Any
) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, live_server, f"/campaigns/{korona.pk}/")
    svg = page.locator("svg.campaign-map")
    assert svg.is_visible()
    assert page.locator("svg.campaign-map circle.area").count() == 10
    assert page.locator("svg.campaign-map a.chip.glimpse").count() >= 1
    assert "2nd Company" not in page.content()  # a glimpse has no name
    # The countdown ticks in the browser (the campaign's deadline, set after the turn).
    korona.refresh_from_db()
    if korona.next_deadline is not None:
        countdown = page.locator("[data-countdown]").first
        first = countdown.text_content()
        # Waits for the next tick (each second): a busy machine may run the timer late.
        expect(countdown).not_to_have_text(first or "")
    shot("map-1-desktop")

    name = page.locator("text.area-name", has_text=re.compile(r"^Korona$"))
    page.locator("svg.campaign-map a.area-link", has=name).click()
    page.wait_for_url(f"**/campaigns/{korona.pk}/areas/*/")
    assert page.locator("h1").text_content() == "Korona"
    shot("map-2-area")


def test_the_map_reads_on_a_phone(page: Any, live_server: Any, korona: Campaign, shot: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, live_server, f"/campaigns/{korona.pk}/")
    # The area names on the map are drawn at a legible size on the phone's screen.
    label = page.locator("svg.campaign-map text.area-name").first.bounding_box()
    assert label is not None and label["height"] >= 13
    chip = page.locator("svg.campaign-map a.chip text").first.bounding_box()
    assert chip is not None and chip["height"] >= 10
    # The page itself does not scroll sideways: only the map's frame does.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    # The same facts are listed below the map, as the hint above it says (the battle
    # pages share the hint: templates/_swipe_hint.html), and the map opened part-way
    # across: where the player's side stands, which the hint says too.
    assert page.locator(".area-entry").count() == 10
    hint = page.locator("p.swipe")
    assert hint.is_visible() and hint.text_content() == (
        "Swipe the map sideways to see all of it; it opens where your side stands, and every "
        "area is also listed below it."
    )
    shot("map-3-phone")

    # A company's page from the list below the map: its stands chart fits the phone.
    page.locator(".area-entry a", has_text="A Company").click()
    page.wait_for_url(f"**/campaigns/{korona.pk}/companies/*/")
    assert page.locator("h1").text_content() == "A Company"
    chart = page.locator("svg.stands-chart").bounding_box()
    assert chart is not None and chart["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot("map-6-company-phone")


def test_the_map_redraws_itself_when_a_turn_is_played(
    page: Any, live_server: Any, korona: Campaign, shot: Any, settings: Any
) -> None:
    settings.KORONA_MAP_POLL_SECONDS = 1
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, live_server, f"/campaigns/{korona.pk}/")
    assert page.locator("[data-turn]").text_content() == "Turn 1 played"
    page.evaluate("window.notReloaded = true")
    # The live region a screen reader listens to: it must be the same element after the
    # redraw (one swapped in anew need not be announced), only its words new.
    page.evaluate("() => { document.getElementById('map-news').kept = true; }")
    assert page.locator("#map-news").text_content() == ""
    shot("map-4-before-turn")

    advance_turn(campaign_id=korona.pk)

    page.wait_for_selector('[data-turn="2"]')
    assert page.evaluate("window.notReloaded") is True  # swapped in, not reloaded
    assert page.locator("svg.campaign-map").count() == 1
    assert page.locator("#live-map").count() == 1
    assert page.evaluate("() => document.getElementById('map-news').kept") is True
    news = page.locator("#map-news")
    assert (news.text_content() or "").startswith("The map has been redrawn. Turn 2 played.")
    assert news.get_attribute("role") == "status"
    box = news.bounding_box()  # for a screen reader: the page shows the same lines
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    shot("map-5-after-turn")


def _in_view(page: Any, area: str) -> bool:
    box = page.locator(f"svg.campaign-map circle[data-area='{area}']").first.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390


def _fighting_areas(campaign: Campaign, side: str) -> set[str]:
    companies = campaign.companies.filter(side=side, kind="fighting").select_related("area")
    return {c.area.name for c in companies}


def test_on_a_phone_the_map_opens_where_the_readers_troops_stand(
    page: Any, live_server: Any, korona: Campaign, django_user_model: Any, shot: Any
) -> None:
    """Port Murray, the Australians' base, is the map's left end and Kilu, the Japanese
    base, its right end; each side's fighting companies stand between. Each side's
    player finds its own troops in view, on the map now and on a past turn's map."""
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, live_server, f"/campaigns/{korona.pk}/")
    frame = page.locator(".map-frame")
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth")
    assert any(_in_view(page, area) for area in _fighting_areas(korona, "australian"))
    assert not _in_view(page, "Port Murray") or _fighting_areas(korona, "australian") == {
        "Port Murray"
    }
    shot("map-7-australian-phone")
    page.goto(f"{live_server.url}/campaigns/{korona.pk}/turns/1/map/")
    assert page.locator(".map-frame").evaluate("f => f.scrollLeft") > 0
    page.goto(f"{live_server.url}/campaigns/{korona.pk}/")
    page.locator("form[action$='/logout/'] button").click()
    page.wait_for_load_state()
    japanese = django_user_model.objects.create_user("nippon", "j@example.com", PASSWORD)
    join(japanese, korona, "japanese")
    page.goto(f"{live_server.url}/accounts/login/?next=/campaigns/{korona.pk}/")
    page.fill("#id_username", "nippon")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/campaigns/{korona.pk}/")
    assert page.locator(".map-frame").evaluate("f => f.scrollLeft") > 0
    assert any(_in_view(page, area) for area in _fighting_areas(korona, "japanese"))
    shot("map-8-japanese-phone")


# Each track line's ends and each chip's box, in the page's pixels.
_LINES_AND_CHIPS = """() => {
  const svg = document.querySelector("svg.campaign-map");
  const toPage = (x, y) => {
    const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  };
  const lines = [...svg.querySelectorAll("line[data-link]")].map((l) => [
    ...toPage(l.x1.baseVal.value, l.y1.baseVal.value),
    ...toPage(l.x2.baseVal.value, l.y2.baseVal.value)]);
  const chips = [...svg.querySelectorAll("a.chip rect")].map((r) => {
    const b = r.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  });
  return [lines, chips];
}"""


def crosses(line: list[float], box: list[float]) -> bool:
    x1, y1, x2, y2 = line
    return any(
        box[0] <= x1 + (x2 - x1) * i / 400 <= box[2]
        and box[1] <= y1 + (y2 - y1) * i / 400 <= box[3]
        for i in range(401)
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_no_chip_sits_on_a_track_line(
    page: Any, live_server: Any, korona: Campaign, shot: Any, width: int
) -> None:
    """The glimpse of the Japanese in Oivi sat on the Munara-Oivi track (a walk-through):
    every chip is clear of every track line, as the browser draws them."""
    page.set_viewport_size({"width": width, "height": 900})
    sign_in(page, live_server, f"/campaigns/{korona.pk}/")
    page.locator("svg.campaign-map").scroll_into_view_if_needed()
    shot(f"map-chips-clear-of-tracks-{width}")
    lines, chips = page.evaluate(_LINES_AND_CHIPS)
    assert lines and chips
    assert not [(line, box) for line in lines for box in chips if crosses(line, box)]
