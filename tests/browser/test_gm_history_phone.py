"""A campaign's History on a 390x844 phone: the page fits the screen and each change
reads whole (a walk-through found the changes squeezed to a letter a line, and the page
59 pixels wider than the screen)."""

from __future__ import annotations

from datetime import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from campaign.services.adjustments import campaign_version
from campaign.services.deadlines import Schedule
from campaign.services.schedule import change_schedule
from tests.admin.conftest import new_campaign
from tests.browser.test_safe_defaults import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_campaigns_history_fits_a_phone(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    sign_in(page, live_server, django_user_model, (390, 844))
    campaign = new_campaign()
    change_schedule(
        campaign=campaign,
        schedule=Schedule(
            kind="weekly", weekday=6, time_of_day=time(19, 0), timezone="Australia/Sydney"
        ),
        reason="we play Sunday evenings",
        user=get_user_model().objects.get(username="gm"),
        seen=campaign_version(campaign.pk),
    )
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/history/")
    shot("history-phone-fit")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    change = page.locator("#change-history li", has_text="Weekday").first
    # One line for "Weekday: none -> Sunday", not a letter a line.
    assert change.bounding_box()["height"] < 40
    assert change.bounding_box()["x"] + change.bounding_box()["width"] <= 390
