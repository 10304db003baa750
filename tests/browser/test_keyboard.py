"""The players' pages by keyboard alone: the first Tab offers a way past the top bar (on
the map, past its dozens of area and company links too), visible once it has the focus."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Campaign

pytestmark = pytest.mark.django_db(transaction=True)

FOCUSED = "() => { const e = document.activeElement; return e ? (e.id || e.tagName) : null; }"


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_first_tab_skips_to_the_page(
    signed_in: Any, live_server: Any, played: Campaign, aussie: Any, shot: Any, size: Any
) -> None:
    page = signed_in(aussie)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(live_server.url + reverse("campaign-map", args=[played.pk]))
    skip = page.locator("a.skip-link")
    assert not skip.is_visible() or skip.bounding_box()["y"] < 0  # out of sight until used
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.className") == "skip-link"
    box = skip.bounding_box()
    assert box is not None and box["y"] >= 0 and skip.inner_text() == "Skip to the page"
    shot(f"skip-link-{size[0]}")
    page.keyboard.press("Enter")
    assert page.evaluate(FOCUSED) == "main"
    page.keyboard.press("Tab")  # the next stop is in the page, not the top bar
    inside = "() => document.querySelector('main').contains(document.activeElement)"
    assert page.evaluate(inside) is True
