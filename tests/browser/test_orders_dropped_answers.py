"""A poll's answer that comes back after the page has moved on is dropped, not let in and
not aborted (orders.js): an answer drawn before the page's own order would put back
what the order changed, and one read from an element taken off the page finds nowhere
to go ("Invalid re-target"). Aborting the request did both, but htmx logs every abort
as two console errors; a dropped answer logs nothing.

The poll's request is held in the browser (Playwright's route) while the page moves on,
then answered, so the order of events is the one that went wrong, every run."""

from __future__ import annotations

import re
from typing import Any

import pytest

from campaign.services import odds, planning
from tests.browser.test_orders import player_page  # noqa: F401
from tests.browser.test_orders_two_tabs import give

pytestmark = pytest.mark.django_db(transaction=True)


class Held:
    """The page's requests to ``path``, held unanswered while ``on``."""

    def __init__(self, page: Any, path: str) -> None:
        self.page = page
        self.on = False
        self.routes: list[Any] = []
        page.route(re.compile(path), self.route)

    def route(self, route: Any) -> None:
        if self.on:
            self.routes.append(route)
        else:
            route.continue_()

    def first(self) -> Any:
        """The first request held, waiting for one."""
        for _ in range(600):
            if self.routes:
                return self.routes[0]
            self.page.wait_for_timeout(50)
        raise AssertionError("no request was held")

    def release(self) -> None:
        """Let the rest of the held requests through, and hold no more."""
        self.on = False
        for route in self.routes[1:]:
            route.continue_()


def count_answers(page: Any, path: str) -> None:
    """``window.answered``: the requests to ``path`` htmx has done with, swapped or not
    (counted by the request itself: htmx tells the page nothing of an answer to an
    element no longer on it)."""
    page.evaluate(
        """(path) => {
            window.answered = 0;
            window.aborted = 0;
            document.addEventListener("htmx:beforeRequest", (event) => {
                if (!event.detail.pathInfo.requestPath.includes(path)) return;
                const xhr = event.detail.xhr;
                xhr.addEventListener("loadend", () => { window.answered += 1; });
                xhr.addEventListener("abort", () => { window.aborted += 1; });
            });
        }""",
        path,
    )


def answer(page: Any, route: Any, response: Any) -> None:
    """Answer the held request ``route`` and wait for htmx to be done with it (nothing
    else to that path is on its way: each poll waits for its own answer)."""
    assert page.evaluate("() => window.aborted") == 0  # htmx logs an abort as errors
    count = page.evaluate("() => window.answered") + 1
    route.fulfill(response=response)
    page.wait_for_function("(count) => window.answered >= count", arg=count)


def test_a_slow_poll_asked_before_an_order_has_its_answer_dropped(
    player_page: tuple[Any, Any],  # noqa: F811
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.KORONA_ORDERS_WATCH_SECONDS = 1
    settings.KORONA_ODDS_BACKEND = "inline"  # the odds done with the order's answer
    monkeypatch.setattr(planning, "ODDS_RUNS", 40)
    first, campaign = player_page
    first.reload()  # drawn with the quick poll
    errors: list[str] = []
    first.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    first.on("pageerror", lambda e: errors.append(str(e)))
    a = campaign.companies.get(name="A Company").pk
    b = campaign.companies.get(name="B Company").pk
    count_answers(first, "/orders/watch/")
    watch = Held(first, r"/orders/watch/")
    watch.on = True
    asked = watch.first()  # the slow poll, on its way

    # Another tab gives B an order; the slow poll is answered with it, but only once
    # this page has given A its order: its "Planned battles" has B's battle, not A's.
    second = first.context.new_page()
    second.goto(first.url)
    give(second, b, "Advance to Oivi")
    stale = asked.fetch()
    assert stale.status == 200
    assert "B Company" in stale.text()
    give(first, a, "Advance to Oivi")
    first.locator(f"#company-{a} .odds-text").wait_for()
    # Read once the page has stopped changing by itself: the order's answer brings the odds
    # done, unless another request (the other tab's slow poll, say) held the claim on a
    # chunk of the same battle at that moment (odds.fight_chunk): then the answer says "20
    # of 40" and the area's poll brings the rest a moment later (seen under load).
    first.wait_for_function("() => !document.querySelector('.area-odds-now.polling')")
    planned = first.locator("#planned-battles").inner_text()
    card = first.locator(f"#company-{a}").inner_text()
    assert "A Company" in planned

    answer(first, asked, stale)
    assert first.locator("#planned-battles").inner_text() == planned
    assert first.locator(f"#company-{a}").inner_text() == card

    # The next slow poll brings B's order all the same.
    watch.release()
    first.wait_for_function(
        f"() => document.querySelector('#company-{b} .current').innerText"
        ".includes('advance to Oivi')",
    )
    assert "A Company" in first.locator("#planned-battles").inner_text()
    assert errors == []


def test_an_odds_poll_whose_area_an_order_redrew_has_its_answer_dropped(
    player_page: tuple[Any, Any],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The workers never get to these odds: the area keeps polling, "0 of 200…".
    monkeypatch.setattr(odds, "request", lambda job, seen=None: None)
    first, campaign = player_page
    errors: list[str] = []
    first.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    first.on("pageerror", lambda e: errors.append(str(e)))
    a = campaign.companies.get(name="A Company").pk
    b = campaign.companies.get(name="B Company").pk
    area_odds = Held(first, r"/orders/area/\d+/odds/")
    give(first, a, "Advance to Oivi")
    first.locator(".area-odds-now.polling").wait_for()
    count_answers(first, "/orders/area/")
    area_odds.on = True
    asked = area_odds.first()  # Oivi's odds, asked for A alone

    # B's order redraws "Planned battles", the polling area with it; the poll's answer,
    # come back now, would go to "Planned battles" from an area no longer on the page.
    give(first, b, "Advance to Oivi")
    planned = first.locator("#planned-battles").inner_text()
    assert "B Company" in planned
    answer(first, asked, asked.fetch())
    assert first.locator("#planned-battles").inner_text() == planned

    area_odds.release()
    first.locator(".area-odds-now.polling").first.wait_for()  # the new area polls on
    assert errors == []
