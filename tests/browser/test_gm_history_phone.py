"""A campaign's History on a 390x844 phone: the page fits the screen and each change
reads whole (a walk-through found the changes squeezed to a letter a line, and the page
59 pixels wider than the screen)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.admin.conftest import new_campaign, play_sunday_evenings
from tests.browser.test_safe_defaults import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_campaigns_history_fits_a_phone(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    sign_in(page, live_server, django_user_model, (390, 844))
    campaign = new_campaign()
    play_sunday_evenings(campaign, get_user_model().objects.get(username="gm"))
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/history/")
    shot("history-phone-fit")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    change = page.locator("#change-history li", has_text="Weekday").first
    # One line for "Weekday: none -> Sunday", not a letter a line.
    assert change.bounding_box()["height"] < 40
    assert change.bounding_box()["x"] + change.bounding_box()["width"] <= 390
