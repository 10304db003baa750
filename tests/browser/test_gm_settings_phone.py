"""The GM's settings page on a 390x844 phone: every row fits the screen, and the going of
each landform is labelled by the landform (not "Face", which is the event tables')."""

from __future__ import annotations

from typing import Any

import pytest

from tests.admin.conftest import new_campaign
from tests.browser.test_safe_defaults import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_settings_page_fits_a_phone_with_each_landform_labelled(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    sign_in(page, live_server, django_user_model, (390, 844))
    campaign = new_campaign()
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/settings/")
    shot("settings-phone-fit")
    # What reaches past the screen's right edge, by tag and class: nothing, but a long
    # effect's list inside its frame that slides sideways (the frame itself fits).
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > 390.5)
            .filter(e => {
                const cell = e.parentElement.closest('td');
                return !cell || getComputedStyle(cell).overflowX !== 'auto';
            })
            .map(e => `${e.tagName}.${e.className}`)"""
    )
    assert wide == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    going = page.locator("#setting-landform_going tbody th").first
    label = going.evaluate("th => getComputedStyle(th, '::before').content")
    assert label == '"Landform: "'
