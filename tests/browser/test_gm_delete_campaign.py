"""Deleting a campaign in a real browser, on a phone: its page's Delete button, the
confirmation saying what goes with it, and the list without it."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign
from tests.admin.conftest import new_campaign
from tests.browser.test_safe_defaults import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_gm_deletes_a_campaign_from_its_page(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    sign_in(page, live_server, django_user_model, (390, 844))
    campaign = new_campaign("Kokoda table")
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    page.click("a.deletelink")
    page.wait_for_url(f"**/campaign/{campaign.pk}/delete/")
    shot("delete-campaign-confirm-phone")
    assert "permission" not in page.content()
    assert page.locator("#preview li").first.inner_text().startswith("0 turns played")
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/campaign/campaign/")
    shot("delete-campaign-done-phone")
    assert "Kokoda table and everything in it were deleted." in page.content()
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
