"""A page whose polls fail says so, on a desktop and a phone.

The map's poll, the orders page's watches, the odds and the messages box ask the server
again and again; when the server was down, restarting, answered 500/502/503 or the
network dropped, the page kept showing what it last had as if it were live, and said
nothing. Now the page's one note (#poll-note, ``polls.js``) says it has lost touch and is
trying again, with the time it was last up to date, and goes away by itself at the next
poll answered. An order sent that fails is said at its form only (``not-saved.js``).
The server's failures are played by the browser (``page.route``): a 503, a poll cut off
(no answer at all), a 404, and a poll that never answers.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Campaign, Membership, Order
from campaign.services.scenarios import create_campaign
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a long password for the browser"
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LOST = re.compile(
    r"^This page has lost touch with Korona: what it shows is as of \d\d:\d\d and may be "
    r"out of date\. It keeps trying, and catches up by itself when Korona answers again\.$"
)


@pytest.fixture
def campaign(django_user_model: Any, settings: Any) -> Campaign:
    cache.clear()
    settings.KORONA_MAP_POLL_SECONDS = 1
    campaign = create_campaign(data=korona_doc(), name="Korona polls", seed=5)
    aussie = django_user_model.objects.create_user("aussie", password=PASSWORD)
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    return campaign


def open_page(page: Any, live_server: Any, path: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.url.endswith(path)


def note_words(page: Any) -> str:
    return " ".join(page.locator("#poll-note").inner_text().split())


def wait_for_note(page: Any) -> str:
    page.locator("#poll-note p").wait_for(timeout=15_000)
    return note_words(page)


def wait_for_no_note(page: Any) -> None:
    page.locator("#poll-note p").wait_for(state="detached", timeout=15_000)
    assert note_words(page) == ""


def in_sight(page: Any) -> bool:
    box = page.locator("#poll-note p").bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


@pytest.mark.parametrize("size", SIZES)
def test_the_map_says_when_its_poll_loses_touch_and_when_it_is_back(
    page: Any, live_server: Any, campaign: Campaign, shot: Any, size: str
) -> None:
    open_page(page, live_server, f"/campaigns/{campaign.pk}/", size)
    note = page.locator("#poll-note")
    assert note.get_attribute("role") == "status"
    assert note_words(page) == ""  # while the polls answer: nothing said, no room taken
    assert note.bounding_box()["height"] == 0

    # The server answers 503 (restarting, busy): said, and in sight however far the
    # reader has scrolled.
    page.route("**/map/live/**", lambda route: route.fulfill(status=503, body="busy"))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert LOST.match(wait_for_note(page))
    assert in_sight(page)
    shot(f"polls-lost-503-{size}")

    # Back: the note goes by itself.
    page.unroute("**/map/live/**")
    wait_for_no_note(page)

    # No answer at all (the network, the server down): the same words.
    page.route("**/map/live/**", lambda route: route.abort("connectionrefused"))
    assert LOST.match(wait_for_note(page))
    page.unroute("**/map/live/**")
    wait_for_no_note(page)

    # An error asking again will not mend: the page itself is out of date.
    page.route("**/map/live/**", lambda route: route.fulfill(status=404, body="gone"))
    said = wait_for_note(page)
    assert re.match(
        r"^This page could not be brought up to date \(Korona answered with error 404\): "
        r"what it shows is as of \d\d:\d\d and may be out of date\. Reload the page$",
        said,
    )
    link = page.locator("#poll-note a")
    assert link.inner_text() == "Reload the page"
    assert link.get_attribute("href") == f"/campaigns/{campaign.pk}/"
    shot(f"polls-lost-404-{size}")
    page.unroute("**/map/live/**")
    wait_for_no_note(page)


def test_a_poll_that_never_answers_is_given_up_and_said(
    page: Any, live_server: Any, campaign: Campaign
) -> None:
    open_page(page, live_server, f"/campaigns/{campaign.pk}/orders/", "phone")
    assert page.locator("#poll-note").get_attribute("data-timeout") == "45"
    page.route("**/orders/turn/**", lambda route: None)  # held: never answered
    # 45 seconds on the page; a test cannot wait that long.
    page.evaluate("document.getElementById('poll-note').dataset.timeout = '1'")
    assert LOST.match(wait_for_note(page))
    page.unroute("**/orders/turn/**")
    wait_for_no_note(page)


def test_an_order_not_saved_is_said_at_its_form_not_as_a_lost_poll(
    page: Any, live_server: Any, campaign: Campaign, shot: Any
) -> None:
    open_page(page, live_server, f"/campaigns/{campaign.pk}/orders/", "desktop")
    a = campaign.companies.get(name="A Company")

    def refuse_orders(route: Any) -> None:
        if route.request.method == "POST":
            route.fulfill(status=503, body="busy")
        else:
            route.fallback()

    page.route(f"**/orders/{a.pk}/", refuse_orders)
    # Whether the note ever says anything (a poll answered later would clear it again).
    page.evaluate(
        """() => {
            window.noteSaid = false;
            const note = document.getElementById('poll-note');
            new MutationObserver(() => { if (note.firstChild) window.noteSaid = true; })
                .observe(note, { childList: true, subtree: true, characterData: true });
        }"""
    )
    card = page.locator(f"#company-{a.pk}")
    select = card.locator("select[name=order]")
    choice = next(
        o for o in select.locator("option").all_inner_texts() if o.startswith("Withdraw to")
    )
    select.select_option(label=choice)
    card.locator("button[value=give]").click()
    card.locator(".not-saved").wait_for(timeout=10_000)
    # The page's polls go on answering meanwhile: one answered after the order failed.
    with page.expect_response(lambda r: "/orders/turn/" in r.url, timeout=15_000):
        pass
    assert page.evaluate("window.noteSaid") is False
    assert note_words(page) == ""
    assert not Order.objects.filter(campaign=campaign).exists()
    shot("polls-order-not-saved-desktop")
