"""The orders page after the player's sign-in changed elsewhere, in a real browser, on a
desktop and a phone (walk-through of 7 December 2026, its screenshots csrf-01, csrf-02,
sess-01, sess-02).

- Signed out and in again in another tab: the page's CSRF token is no longer good. "Give
  order" and "ready" did nothing on screen (a bare 403), the list still showing the new
  choice as if given. Now the card (and the ready box) says nothing was saved and why,
  the list is back on the order given, and after a reload the choice is offered again,
  not given.
- Signed out (in another tab, or the session expired): "Give order" drew the whole
  sign-in page inside the card, and signing in there led to "This address is not a
  page", the order lost. Now the sign-in page opens whole, says nothing was saved, and
  leads back to the orders page, where the choice is offered again.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Campaign, Membership, Order, SideReady
from campaign.services.scenarios import create_campaign
from config.signedout import NOT_SAVED
from config.views import CHANGED
from tests.browser.conftest import ARTIFACTS
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a long password for the browser"
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def campaign(django_user_model: Any, settings: Any) -> Campaign:
    cache.clear()
    # The page's own polls wait (the turn's every 15 s, the slow one's 25 s): one that
    # happened to ask while a test has signed out elsewhere finds the player signed out
    # and opens the sign-in page by itself, as it should, before the test's order or
    # "ready" is sent, and the test lost its page.
    settings.KORONA_MAP_POLL_SECONDS = 600
    settings.KORONA_ORDERS_WATCH_SECONDS = 600
    campaign = create_campaign(data=korona_doc(), name="Korona signed out", seed=5)
    aussie = django_user_model.objects.create_user("aussie", password=PASSWORD)
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    return campaign


def sign_in(page: Any, live_server: Any) -> None:
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")


def open_orders(page: Any, live_server: Any, campaign: Campaign, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/accounts/login/")
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/orders/")
    assert page.locator("h1").inner_text().startswith("Orders for turn 1")


def sign_out_in_another_tab(page: Any, live_server: Any, *, and_in_again: bool) -> None:
    other = page.context.new_page()
    other.goto(f"{live_server.url}/accounts/logout/")
    with other.expect_navigation():
        other.click("main button[type=submit]")
    if and_in_again:
        sign_in(other, live_server)
        assert other.url.endswith("/campaigns/")
    other.close()


@pytest.fixture
def shot(page: Any) -> Any:
    """The screen as the player sees it (not the whole page: what was just scrolled to)."""

    def take(name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"))

    return take


def words(locator: Any) -> str:
    return " ".join(locator.inner_text().split())


def choose_withdraw(card: Any) -> str:
    select = card.locator("select[name=order]")
    choice = next(
        o for o in select.locator("option").all_inner_texts() if o.startswith("Withdraw to")
    )
    select.select_option(label=choice)
    return choice


@pytest.mark.parametrize("size", SIZES)
def test_an_order_after_signing_in_again_elsewhere_says_it_was_not_saved(
    page: Any, live_server: Any, campaign: Campaign, shot: Any, size: str
) -> None:
    open_orders(page, live_server, campaign, size)
    sign_out_in_another_tab(page, live_server, and_in_again=True)
    a = campaign.companies.get(name="A Company")
    card = page.locator(f"#company-{a.pk}")
    given = card.locator("select[name=order] option:checked").inner_text()  # "Hold in Korona"
    choice = choose_withdraw(card)
    card.locator("button[value=give]").click()
    said = card.locator(".not-saved")
    said.wait_for()
    assert (
        words(said) == f"Not saved: your choice “{choice}” was not given. {CHANGED} Reload the page"
    )
    assert said.get_attribute("role") == "alert"
    # The list shows the order the card says it has (none), not the choice not given.
    assert card.locator("select[name=order] option:checked").inner_text() == given
    assert "no order given" in words(card.locator(".current"))
    assert not Order.objects.filter(campaign=campaign).exists()
    said.scroll_into_view_if_needed()
    shot(f"orders-stale-sign-in-order-{size}")

    # "ready" says so in its box, and marks nothing.
    page.locator("#ready-button").click()
    in_box = page.locator("#ready .not-saved")
    in_box.wait_for()
    assert words(in_box) == f"Not saved. {CHANGED} Reload the page"
    assert not SideReady.objects.exists()
    in_box.scroll_into_view_if_needed()
    shot(f"orders-stale-sign-in-ready-{size}")

    # Reloaded as it says: the choice is offered again, not given, and then given.
    in_box.get_by_role("link", name="Reload the page").click()
    page.wait_for_load_state()
    card = page.locator(f"#company-{a.pk}")
    assert card.locator("select[name=order] option:checked").inner_text() == choice
    assert words(card.locator(".unsaved-choice")) == (
        "Not given yet: you chose this before, and it was not saved then. Give it with the "
        "button to keep it."
    )
    assert not Order.objects.filter(campaign=campaign).exists()
    card.scroll_into_view_if_needed()
    shot(f"orders-stale-sign-in-offered-again-{size}")
    card.locator("button[value=give]").click()
    page.locator(f"#company-{a.pk} button[value=withdraw]").wait_for()
    assert Order.objects.filter(campaign=campaign, company=a, kind="withdraw").count() == 1
    assert page.locator(".not-saved").count() == 0


@pytest.mark.parametrize("size", SIZES)
def test_an_order_after_signing_out_elsewhere_opens_the_sign_in_page_and_comes_back(
    page: Any, live_server: Any, campaign: Campaign, shot: Any, size: str
) -> None:
    open_orders(page, live_server, campaign, size)
    orders_url = page.url
    sign_out_in_another_tab(page, live_server, and_in_again=False)
    a = campaign.companies.get(name="A Company")
    card = page.locator(f"#company-{a.pk}")
    choice = choose_withdraw(card)
    card.locator("button[value=give]").click()
    page.wait_for_url("**/accounts/login/**")
    assert page.locator("h1").inner_text() == "Sign in"
    assert page.locator(".messages").inner_text() == NOT_SAVED
    assert page.locator("#id_username").count() == 1  # one sign-in form: the page's own
    assert not Order.objects.filter(campaign=campaign).exists()
    shot(f"orders-signed-out-sign-in-{size}")

    sign_in(page, live_server)
    assert page.url == orders_url  # back on the orders page, not a form's address
    card = page.locator(f"#company-{a.pk}")
    assert card.locator("#id_username").count() == 0
    assert card.locator("select[name=order] option:checked").inner_text() == choice
    assert words(card.locator(".unsaved-choice")) == (
        "Not given yet: you chose this when you had been signed out, so it was not saved. "
        "Give it with the button to keep it."
    )
    assert not Order.objects.filter(campaign=campaign).exists()
    card.scroll_into_view_if_needed()
    shot(f"orders-signed-out-back-{size}")
    card.locator("button[value=give]").click()
    page.locator(f"#company-{a.pk} button[value=withdraw]").wait_for()
    assert Order.objects.filter(campaign=campaign, company=a, kind="withdraw").count() == 1


def sign_in_as(page: Any, name: str) -> None:
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")


@pytest.mark.parametrize("how", ["signed-in-elsewhere", "signed-out"])
def test_a_choice_not_saved_is_never_offered_to_the_next_player(
    page: Any,
    live_server: Any,
    campaign: Campaign,
    django_user_model: Any,
    shot: Any,
    how: str,
) -> None:
    """The Australian player's order is not saved (their sign-in changed, or they were
    signed out), and the page opens again for their teammate, signed in in the same
    browser: the teammate is offered nothing of it. The choice was kept in the tab for
    the page's address alone, and the teammate read "Not given yet: you chose this
    before" over an order they never chose."""
    mate = django_user_model.objects.create_user("mate", password=PASSWORD)
    Membership.objects.create(user=mate, campaign=campaign, side="australian")
    open_orders(page, live_server, campaign, "desktop")
    orders_url = page.url
    a = campaign.companies.get(name="A Company")
    card = page.locator(f"#company-{a.pk}")
    given = card.locator("select[name=order] option:checked").inner_text()
    other = page.context.new_page()
    other.goto(f"{live_server.url}/accounts/logout/")
    with other.expect_navigation():
        other.click("main button[type=submit]")
    if how == "signed-in-elsewhere":
        sign_in_as(other, "mate")  # the teammate, in another tab
    other.close()
    choice = choose_withdraw(card)
    assert choice != given
    card.locator("button[value=give]").click()
    if how == "signed-in-elsewhere":
        said = card.locator(".not-saved")
        said.wait_for()
        assert "not given" in words(said)
        # Opened again for the reader signed in now (as the page's polls do, HX-Refresh).
        said.get_by_role("link", name="Reload the page").click()
        page.wait_for_load_state()
    else:
        page.wait_for_url("**/accounts/login/**")
        sign_in_as(page, "mate")  # the teammate signs in on the page it opened
    assert page.url == orders_url
    card = page.locator(f"#company-{a.pk}")
    card.wait_for()
    assert card.locator("select[name=order] option:checked").inner_text() == given
    assert page.locator(".unsaved-choice").count() == 0
    assert not Order.objects.filter(campaign=campaign).exists()
    shot(f"orders-not-given-next-player-{how}")


@pytest.mark.parametrize("size", SIZES)
def test_ready_after_the_session_cookie_expired_opens_the_sign_in_page_and_comes_back(
    page: Any, live_server: Any, campaign: Campaign, shot: Any, size: str
) -> None:
    open_orders(page, live_server, campaign, size)
    orders_url = page.url
    page.context.clear_cookies(name="sessionid")  # the browser let it expire
    page.locator("#ready-button").click()
    page.wait_for_url("**/accounts/login/**")
    assert page.locator(".messages").inner_text() == NOT_SAVED
    assert not SideReady.objects.exists()
    sign_in(page, live_server)
    assert page.url == orders_url
    page.locator("#ready-button").click()
    # Played solo (the Japanese are the campaign AI's): ready plays the turn.
    page.locator("#ready-status").get_by_text("Your orders are ready").wait_for()
    assert SideReady.objects.count() == 1
    shot(f"orders-expired-ready-again-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_without_script_a_stale_order_gets_a_page_in_words_and_a_way_back(
    browser: Any, live_server: Any, campaign: Campaign, size: str
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=SIZES[size])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        sign_in(page, live_server)
        page.goto(f"{live_server.url}/campaigns/{campaign.pk}/orders/")
        orders_url = page.url
        sign_out_in_another_tab(page, live_server, and_in_again=True)
        a = campaign.companies.get(name="A Company")
        card = page.locator(f"#company-{a.pk}")
        choose_withdraw(card)
        with page.expect_navigation():
            card.locator("button[value=give]").click()
        assert page.locator("h1").inner_text() == "This page was out of date: nothing was saved"
        assert CHANGED in words(page.locator("main"))
        assert "CSRF" not in page.locator("main").inner_text()
        assert not Order.objects.filter(campaign=campaign).exists()
        page.screenshot(path=str(ARTIFACTS / f"orders-stale-sign-in-no-script-{size}.png"))
        with page.expect_navigation():
            page.get_by_role("link", name="Back to the page").click()
        assert page.url == orders_url

        # Signed out elsewhere: signing in leads back to the orders page, not the form's.
        sign_out_in_another_tab(page, live_server, and_in_again=False)
        card = page.locator(f"#company-{a.pk}")
        choose_withdraw(card)
        with page.expect_navigation():
            card.locator("button[value=give]").click()
        assert page.locator(".messages").inner_text() == NOT_SAVED
        sign_in(page, live_server)
        assert page.url == orders_url
        assert not Order.objects.filter(campaign=campaign).exists()
    finally:
        context.close()


FOCUSED = "() => { const e = document.activeElement; return e ? (e.id || e.tagName) : null; }"
# Counts the answers settled from now on (listened to after orders.js: its own listener
# has run when the count grows).
COUNT_SETTLED = """() => {
  window.settled = 0;
  document.addEventListener("htmx:afterSettle", () => { window.settled += 1; });
}"""


def test_a_card_whose_order_was_not_saved_takes_no_focus_back_later(
    page: Any, live_server: Any, campaign: Campaign, settings: Any
) -> None:
    """A keyboard user's order not saved (the server refused it as it refuses a page whose
    sign-in changed elsewhere: a 403 in words): the card says so and keeps the focus. The
    player then went elsewhere on the page; the next answer swapped in anywhere (here a
    teammate's order, brought by the slow poll) pulled the focus back to that card: its
    id, remembered for an answer that was never swapped in, waited for the next one."""
    settings.KORONA_ORDERS_WATCH_SECONDS = 1
    open_orders(page, live_server, campaign, "phone")
    a = campaign.companies.get(name="A Company").pk
    b = campaign.companies.get(name="B Company").pk
    page.route(
        f"**/orders/{a}/",
        lambda route: route.fulfill(status=403, content_type="text/plain", body=CHANGED),
    )
    card = page.locator(f"#company-{a}")
    choose_withdraw(card)
    page.focus(f"#give-{a}")
    page.keyboard.press("Enter")
    card.locator(".not-saved").wait_for()
    assert page.evaluate(FOCUSED) == f"give-{a}"
    page.evaluate("() => document.activeElement.blur()")  # the player taps elsewhere
    assert page.evaluate(FOCUSED) == "BODY"
    page.evaluate(COUNT_SETTLED)

    teammate = page.context.new_page()  # the same side, another tab
    teammate.goto(page.url)
    other = teammate.locator(f"#company-{b}")
    other.locator("select[name=order]").select_option(label="Advance to Oivi")
    other.locator("button[value=give]").click()
    teammate.locator(f"#company-{b} button[value=withdraw]").wait_for()
    page.wait_for_function(
        "(b) => document.querySelector(`#company-${b} .current`).innerText"
        ".includes('advance to Oivi') && window.settled > 0",
        arg=b,
    )
    assert page.evaluate(FOCUSED) == "BODY"
