"""The GM's order form in a real browser: choosing a company narrows the Target list to
the areas linked to its own at once (htmx, under the site's Content-Security-Policy)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from campaign.models import Area, Company
from tests.admin.conftest import new_campaign
from tests.browser.test_safe_defaults import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_choosing_a_company_narrows_the_targets(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    sign_in(page, live_server, django_user_model, (390, 844))
    campaign = new_campaign("Korona 1")
    new_campaign("Kokoda table")
    third = Company.objects.get(campaign=campaign, name="3rd Company")
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    page.goto(f"{live_server.url}/admin/campaign/order/add/")
    assert page.locator("#id_target option").count() == 1 + Area.objects.count()
    page.select_option("#id_company", str(third.pk))
    # Kilu, where it is, is linked to Oivi alone.
    expect(page.locator("#id_target option")).to_have_count(2)
    shot("order-form-targets-narrowed-phone")
    labels = page.locator("#id_target option").all_inner_texts()[1:]
    assert labels == ["Oivi"]
    page.select_option("#id_kind", "advance")
    page.select_option("#id_target", label="Oivi")
    page.click("input[name=_save]")
    page.wait_for_url(f"{live_server.url}/admin/campaign/order/")
    assert refused == []
