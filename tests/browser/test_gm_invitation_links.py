"""An invitation's link in the GM's admin, in a real browser on a phone: text to copy
with a Copy button (a script file, under the Content-Security-Policy), not a link that a
click would follow to "Join as the Japanese"."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from notifications.invitations import invitation_url, invite_every_side
from tests.admin.conftest import new_campaign
from tests.browser.test_safe_defaults import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("where", ["list", "page"])
def test_the_copy_button_copies_the_link_and_follows_nothing(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, where: str
) -> None:
    page.clock.install()  # "Copied" lasts 2 s of the page's clock: the test's, below
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
        has=page.locator("textarea", has_text=invitation_url(invitation))
    )
    field = row.locator("textarea")
    # One line: the field is no taller than a line of text (it wrapped a few letters a line).
    assert field.bounding_box()["height"] < 40
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)
    row.locator("button").click()
    assert page.evaluate("navigator.clipboard.readText()") == invitation_url(invitation)
    # Read however long the machine took: on a busy one, 2 s of real time could pass first.
    expect(row.locator("button")).to_have_text("Copied")
    shot(f"invitation-copy-{where}-phone")
    assert page.url == address  # nothing followed
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert refused == []


def test_the_whole_link_is_read_in_the_invitations_list_at_1280(
    page: Any, live_server: Any, django_user_model: Any, shot: Any
) -> None:
    """The list's narrow column showed only "http://127.0.0.(" of the link: it wraps,
    whole, inside its field, with its Copy button beside it, and the list still fits."""
    sign_in(page, live_server, django_user_model, (1280, 800))
    campaign = new_campaign("Kokoda table")
    invite_every_side(campaign=campaign, user=None, note="made with the campaign")
    page.goto(f"{live_server.url}/admin/notifications/invitation/")
    fields = page.locator("#result_list .copy-link textarea")
    assert fields.count() == 2
    for field in fields.all():
        seen = field.evaluate(
            "f => [f.scrollWidth <= f.clientWidth, f.scrollHeight <= f.clientHeight + 1]"
        )
        assert seen == [True, True]  # nothing of the link hidden
    buttons = page.locator("#result_list .copy-link button")
    assert buttons.first.is_visible()
    shot("invitations-list-1280")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280


# Each row's link field and Copy button, the cell they are in, and the text of the
# expiry beside them; and the list's frame, its width and the room it has.
ROWS = """() => [...document.querySelectorAll('#result_list tbody tr')].map(row => {
  const box = (element) => element.getBoundingClientRect();
  const expiry = document.createRange();
  expiry.selectNodeContents(row.querySelector('td.field-expiry'));
  return {
    button: box(row.querySelector('.copy-link button')).right,
    field: box(row.querySelector('.copy-link textarea')).right,
    cell: box(row.querySelector('td.field-link')).right,
    expiry: expiry.getBoundingClientRect().left,
  };
})"""
FRAME = "() => [document.querySelector('.results')].map(f => [f.scrollWidth, f.clientWidth])[0]"


@pytest.mark.parametrize("named", ["short", "long"])
def test_the_copy_button_and_the_list_keep_clear_of_the_expiry_at_1280(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, named: str
) -> None:
    """The list ran past its frame at 1280 px (the campaign's name kept on one line, as
    the admin keeps a related row's): its last column was cut, and with a longer name
    the link, its Copy button and the expiry beside them were pushed out of sight. Each
    stays in its own column, and the whole list in its frame."""
    sign_in(page, live_server, django_user_model, (1280, 800))
    campaign = new_campaign("Kokoda table")
    invite_every_side(campaign=campaign, user=None, note="made with the campaign")
    if named == "long":
        other = new_campaign("The long campaign of the Owen Stanley Range")
        invite_every_side(
            campaign=other, user=None, note="for Bob, who plays the Japanese on Thursdays"
        )
    page.goto(f"{live_server.url}/admin/notifications/invitation/")
    rows = page.evaluate(ROWS)
    assert len(rows) == (4 if named == "long" else 2)
    for row in rows:
        assert row["button"] <= row["cell"] and row["field"] <= row["cell"], row
        assert row["cell"] <= row["expiry"], row
    shot(f"invitations-list-1280-{named}")
    wide, room = page.evaluate(FRAME)
    assert wide <= room  # nothing of the list cut off at its frame's edge


# Counts the clipboard's answers to the page's copies. The count goes up in the callback
# before the page's own (chained after it, in the same run of callbacks), so when the test
# reads 2, "Copied" has been said for the second press.
COUNT_COPIES = """() => {
  const write = navigator.clipboard.writeText.bind(navigator.clipboard);
  window.copiesWritten = 0;
  navigator.clipboard.writeText = (text) => write(text).then(() => { window.copiesWritten += 1; });
}"""


def copies_said(page: Any, count: int) -> None:
    """Wait (real time, the page's clock being held) until the clipboard has answered
    ``count`` copies."""
    deadline = time.monotonic() + 60
    while page.evaluate("() => window.copiesWritten") < count:
        assert time.monotonic() < deadline, f"the clipboard never answered copy {count}"
        time.sleep(0.05)


def test_a_second_copy_says_copied_for_its_own_two_seconds(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    """ "Copied" goes back to "Copy" two seconds after a press. Pressed again a second and a
    half later, the first press's two seconds ended the second's "Copied" half a second
    after it was said. The page's clock is the test's (Playwright's), so no time passes
    but the time the test makes pass."""
    page.clock.install()
    sign_in(page, live_server, django_user_model, (390, 844))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    campaign = new_campaign("Kokoda table")
    invitation = invite_every_side(campaign=campaign, user=None, note="")[0][1]
    page.goto(f"{live_server.url}/admin/notifications/invitation/{invitation.pk}/change/")
    button = page.locator(".copy-link button")
    page.evaluate(COUNT_COPIES)
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)
    button.click()
    copies_said(page, 1)
    assert button.inner_text() == "Copied"
    page.clock.run_for(1500)
    assert button.inner_text() == "Copied"
    button.click()
    # The copy is written, and "Copied" said again, when the clipboard answers: after the
    # click returns. Run the clock on before that (CI did), and the first press's two
    # seconds ran out with no second press yet to restart them.
    copies_said(page, 2)
    page.clock.run_for(1000)  # 2.5 s after the first press, 1 s after the second
    assert button.inner_text() == "Copied"
    page.clock.run_for(1100)  # 2.1 s after the second
    assert button.inner_text() == "Copy"
