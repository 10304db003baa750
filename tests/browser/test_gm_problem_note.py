"""A change form sent back says what is wrong the project's way, in a real browser: the
note over the form counts the problems, and the order form says why a company it listed
takes no order now (its campaign ended while the page was open)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from campaign.models import Campaign, Company, Order
from tests.admin.conftest import new_campaign
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_an_order_for_a_campaign_ended_meanwhile_says_why(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign("Korona 1")
    third = Company.objects.get(campaign=campaign, name="3rd Company")
    page.goto(f"{live_server.url}/admin/campaign/order/add/")
    page.select_option("#id_company", str(third.pk))
    page.select_option("#id_kind", "hold")
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.FINISHED)
    page.click("input[name=_save]")
    expect(page.locator(".errornote")).to_have_text("Please correct the problem below.")
    expect(page.locator(".field-company .errorlist")).to_have_text(
        "Korona 1 has ended: its companies take no more orders."
    )
    shot(f"order-form-campaign-ended-{tag}")
    assert not Order.objects.exists()


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_an_invitation_sent_empty_counts_its_problems(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    new_campaign()
    page.goto(f"{live_server.url}/admin/notifications/invitation/add/")
    page.click("input[name=_save]")
    expect(page.locator(".errornote")).to_have_text("Please correct the 2 problems below.")
    shot(f"invitation-form-two-problems-{tag}")
