"""An invitation's link in the GM's admin, in a real browser on a phone: text to copy
with a Copy button (a script file, under the Content-Security-Policy), not a link that a
click would follow to "Join as the Japanese"."""

from __future__ import annotations

from typing import Any

import pytest

from notifications.invitations import invitation_url, invite_every_side
from tests.admin.conftest import new_campaign
from tests.browser.test_safe_defaults import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("where", ["list", "page"])
def test_the_copy_button_copies_the_link_and_follows_nothing(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, where: str
) -> None:
    sign_in(page, live_server, django_user_model, (390, 844))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    campaign = new_campaign("Kokoda table")
    invitation = invite_every_side(campaign=campaign, user=None, note="")[0][1]
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    address = f"{live_server.url}/admin/notifications/invitation/"
    if where == "page":
        address += f"{invitation.pk}/change/"
    page.goto(address)
    row = page.locator(".copy-link").filter(
        has=page.locator(f'input[value="{invitation_url(invitation)}"]')
    )
    field = row.locator("input")
    # One line: the field is no taller than a line of text (it wrapped a few letters a line).
    assert field.bounding_box()["height"] < 40
    row.locator("button").click()
    assert page.evaluate("navigator.clipboard.readText()") == invitation_url(invitation)
    assert row.locator("button").inner_text() == "Copied"
    shot(f"invitation-copy-{where}-phone")
    assert page.url == address  # nothing followed
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert refused == []
