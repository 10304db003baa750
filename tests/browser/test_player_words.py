"""The players' pages on a phone: a message's byline reads author, "·", time."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign
from notifications.models import Message

# The top of the "·" and of the time after it, as the browser lays them out.
_TOPS = """(line) => {
  const text = [...line.childNodes].find((n) => n.nodeType === 3 && n.data.includes("·"));
  const range = document.createRange();
  range.setStart(text, text.data.indexOf("·"));
  range.setEnd(text, text.data.indexOf("·") + 1);
  const time = line.querySelector("time");
  return [range.getBoundingClientRect().top, time.getBoundingClientRect().top];
}"""


def test_a_messages_byline_keeps_its_dot_beside_the_author_on_a_phone(
    page: Any, played: Campaign, aussie: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    Message.objects.create(
        campaign=played,
        author=aussie,
        author_side="australian",
        channel="public",
        text="Good game so far, chaps.",
    )
    page.set_viewport_size({"width": 390, "height": 844})
    signed_in(aussie).goto(f"{live_server.url}/campaigns/{played.pk}/messages/")
    line = page.locator(".board li > div").first
    assert "·" in line.inner_text()
    dot, time = line.evaluate(_TOPS)
    # The time reads after the "·", never beside the author in a column of its own with
    # the "·" wrapped alone below the author (the top bar's flex ".who" styled the byline).
    assert time >= dot, (dot, time)
    shot("player-words-messages-phone")


# How many lines each item of the top bar's right-hand part takes, as the browser lays it out.
_LINES = """() => [...document.querySelectorAll(
  "header.top .who > span, header.top .who > a, header.top .who button")].map((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return [e.textContent.trim(), tops.size];
  })"""


def test_the_top_bar_keeps_each_of_its_links_whole_on_a_phone(
    page: Any, played: Campaign, aussie: Any, signed_in: Any, live_server: Any, shot: Any
) -> None:
    """On a phone the top bar read "Email and / feeds", "Sign / out" and "aussie · /
    Australians", each broken over two lines beside the next (a walk-through): each item
    stays whole, and the items wrap as wholes."""
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        signed_in(aussie).goto(f"{live_server.url}/campaigns/{played.pk}/")
        lines = dict(page.evaluate(_LINES))
        assert set(lines) == {"aussie · Australians", "Account", "Email and feeds", "Sign out"}
        assert all(n == 1 for n in lines.values()), (width, lines)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot("player-words-top-bar-phone")
