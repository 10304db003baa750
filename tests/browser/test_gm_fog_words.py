"""The GM's Adjust page, desktop and phone: a reason naming a company the other side
does not see comes back with the warning and the "Save it anyway" box; ticked, it saves."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Company, GmAdjustment
from notifications.models import Message
from tests.admin.conftest import new_campaign
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

DYSENTERY = "The Japanese 3rd Company in Korona was hit by dysentery (house rule)."


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_adjust_page_asks_before_a_reason_names_a_hidden_company(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    third = Company.objects.get(campaign=campaign, name="3rd Company")
    page.goto(f"{live_server.url}/admin/campaign/company/{third.pk}/adjust/")
    page.select_option("#id_unit_type", "rifle_squad")
    page.fill("#id_held", "5")
    page.fill("#id_reason", DYSENTERY)
    page.click("input[type=submit]")

    warning = page.locator(".errorlist").filter(has_text="Nothing was saved")
    assert "the Japanese 3rd Company, which the Australians and spectators" in (
        warning.inner_text()
    )
    box = page.get_by_label("Save it anyway")
    assert box.is_visible() and not box.is_checked()
    assert page.input_value("#id_reason") == DYSENTERY
    shot(f"fog-words-asked-{tag}")
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert not GmAdjustment.objects.exists()

    box.check()
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/campaign/company/{third.pk}/change/")
    shot(f"fog-words-saved-{tag}")
    assert GmAdjustment.objects.get().reason == DYSENTERY


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_gms_announcement_asks_before_naming_a_hidden_company(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/messages/")
    board = page.locator("#board-announcement-")
    board.locator("textarea").fill("3rd Company is down with fever.")
    board.get_by_role("button", name="Post").click()

    board = page.locator("#board-announcement-")
    assert "Not posted: this message names the Japanese 3rd Company" in board.inner_text()
    assert board.locator("textarea").input_value() == "3rd Company is down with fever."
    shot(f"fog-words-announcement-asked-{tag}")
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert not Message.objects.exists()

    board.get_by_label("Post it anyway").check()
    board.get_by_role("button", name="Post").click()
    page.wait_for_selector("text=Your message is posted.")
    assert Message.objects.get().text == "3rd Company is down with fever."


def test_the_settings_page_asks_under_its_reason(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    """The settings page draws its reason on its own, under "Why": the warning and the
    box come there, and the list at the top links to it."""
    sign_in(page, live_server, django_user_model, (1280, 800))
    campaign = new_campaign()
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/settings/")
    page.fill("#id_turn_limit", "9")
    page.fill("#id_reason", "Longer: the 3rd Company is still in Kilu.")
    page.click("input[type=submit]")

    why = page.locator("#setting-reason")
    assert "the Japanese 3rd Company, which the Australians" in why.inner_text()
    box = page.get_by_label("Save it anyway")
    shot("fog-words-settings-asked-desktop")
    why.scroll_into_view_if_needed()  # the page is long: the reason and the box as seen
    page.screenshot(path=str(ARTIFACTS / "fog-words-settings-asked-why-desktop.png"))
    page.locator(".errornote").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "fog-words-settings-asked-top-desktop.png"))
    box.check()
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    campaign.refresh_from_db()
    assert campaign.get_settings().turn_limit == 9
