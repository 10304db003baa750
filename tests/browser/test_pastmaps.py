"""A past turn's map in a real browser: opened from the turn's page, then the whole
campaign stepped through in the time-lapse, on a desktop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn, give_order
from tests.web.conftest import PASSWORD, join, korona_doc, meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def korona(django_user_model: Any) -> Campaign:
    campaign = create_campaign(data=meeting_doc(), name="Korona past", seed=7)
    for _ in range(2):
        advance_turn(campaign_id=campaign.pk)
    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    join(player, campaign, "australian")
    return campaign


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_player_opens_a_past_turns_map_and_steps_the_time_lapse(
    page: Any, live_server: Any, korona: Campaign, shot: Any, size: tuple[int, int]
) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/accounts/login/?next=/campaigns/{korona.pk}/turns/1/")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/campaigns/{korona.pk}/turns/1/")

    page.click("text=The map of this turn")
    page.wait_for_url(f"**/campaigns/{korona.pk}/turns/1/map/")
    assert page.locator("h1").text_content() == "The map at the start of turn 1"
    assert page.locator("svg.campaign-map g.battle-mark").count() >= 1
    # An enemy in sight is a band, not a name (the battles it fought name it, as on the
    # turn's page: a side knows its own battles in full).
    assert page.locator("svg.campaign-map a.chip.glimpse").count() >= 1
    assert page.locator("svg.campaign-map g.companies title", has_text="2nd Company").count() == 0
    shot(f"pastmap-1-turn-1-{width}")

    page.click("text=Time-lapse of the campaign")
    page.wait_for_url(f"**/campaigns/{korona.pk}/timelapse/")
    counter = page.locator("[data-step=counter]")
    frames = page.locator("#timelapse .frame")
    assert frames.count() == 3
    assert counter.text_content() == "Step 1 of 3: Turn 1"
    # The frame takes the page's width, not the browser's figure margins (40px a side
    # left a phone's map 276px wide).
    frame_box, main_box = frames.nth(0).bounding_box(), page.locator("main").bounding_box()
    assert frame_box["width"] >= main_box["width"] - 50
    assert frames.nth(0).is_visible() and not frames.nth(1).is_visible()
    assert page.locator("[data-step=prev]").is_disabled()
    page.click("[data-step=next]")
    assert counter.text_content() == "Step 2 of 3: Turn 2"
    assert frames.nth(1).is_visible() and not frames.nth(0).is_visible()
    # The map's legend, under the map shown: what its tags, hatching and chips say.
    legend = page.locator(".map-legend")
    assert legend.count() == 1 and legend.is_visible()
    assert legend.locator("[data-holder-key=AUS]").is_visible()
    assert legend.bounding_box()["y"] > frames.nth(1).bounding_box()["y"]
    shot(f"pastmap-2-timelapse-turn-2-{width}")
    page.locator("#timelapse").focus()
    page.keyboard.press("End")
    assert counter.text_content() == "Step 3 of 3: After turn 2 (now)"
    assert page.locator("[data-step=next]").is_disabled()
    page.keyboard.press("Home")
    assert counter.text_content() == "Step 1 of 3: Turn 1"
    page.click("[data-step=play]")
    page.wait_for_function(
        # A function, not an expression: Playwright evals an expression in the page,
        # which the Content-Security-Policy forbids.
        "() => document.querySelector('[data-step=counter]').textContent.startsWith('Step 2')"
    )


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_opposite_moves_on_one_link_read_as_two_arrows(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    """A Company withdrew Korona to Isura while C Company advanced Isura to Korona: one
    line with a head at each end (a walk-through, misc-07); now two arrows, not touching."""
    campaign = create_campaign(data=korona_doc(), name="Both ways", seed=1)
    player = django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)
    join(player, campaign, "australian")
    orders = [("A Company", "withdraw", "Isura"), ("C Company (militia)", "advance", "Korona")]
    for name, kind, target in orders:
        give_order(
            company=campaign.companies.get(name=name),
            kind=kind,
            target=campaign.areas.get(name=target),
            side="australian",
        )
    advance_turn(campaign_id=campaign.pk)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_server.url}/accounts/login/?next=/campaigns/{campaign.pk}/turns/1/map/")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/campaigns/{campaign.pk}/turns/1/map/")
    there = page.locator('g.move[data-move="Korona|Isura"] line')
    back = page.locator('g.move[data-move="Isura|Korona"] line')
    there.scroll_into_view_if_needed()
    shot(f"pastmap-both-ways-{size[0]}")
    # Level arrows (Isura and Korona side by side), one above the other: apart by more
    # than a head's half width (10) and a line's (2.5), as the page draws them.
    ys = [float(line.get_attribute(end) or 0) for line in (there, back) for end in ("y1", "y2")]
    assert ys[0] == ys[1] and ys[2] == ys[3], ys
    assert abs(ys[0] - ys[2]) >= 12.5, ys
