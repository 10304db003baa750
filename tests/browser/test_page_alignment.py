"""The page's notes line up with the page: a flash message ("Your message is posted.")
starts and ends where the page's own content does, on a desktop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign

# The left and right edges of the note and of the page's content box (main less its padding).
_EDGES = """() => {
  const note = document.querySelector("ul.messages li").getBoundingClientRect();
  const main = document.querySelector("main");
  const box = main.getBoundingClientRect();
  const style = getComputedStyle(main);
  return [note.left, note.right,
          box.left + parseFloat(style.paddingLeft), box.right - parseFloat(style.paddingRight)];
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_flash_message_lines_up_with_the_page_under_it(
    page: Any,
    played: Campaign,
    aussie: Any,
    signed_in: Any,
    live_server: Any,
    shot: Any,
    width: int,
) -> None:
    """The walk-through saw "Your message is posted." run from the window's left edge
    (x=16 to 1264) above a page centred at x=80 to 1200."""
    page.set_viewport_size({"width": width, "height": 844})
    signed_in(aussie).goto(f"{live_server.url}/campaigns/{played.pk}/messages/")
    page.locator("textarea").first.fill("Good luck, chaps.")
    page.get_by_role("button", name="Post").first.click()
    page.locator("ul.messages li", has_text="Your message is posted.").wait_for()
    page.wait_for_load_state("load")  # measured with the style sheet applied
    note_left, note_right, page_left, page_right = page.evaluate(_EDGES)
    assert abs(note_left - page_left) <= 1, (note_left, page_left)
    assert abs(note_right - page_right) <= 1, (note_right, page_right)
    shot(f"flash-message-aligned-{width}")
