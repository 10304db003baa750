"""An order from an out-of-date tab, in a real browser (a walk-through's worst finding:
the second tab's "Withdraw to Isura" silently replaced the first's "Advance to Oivi").
The second tab, drawn before the first gave its order, is refused in words, with the
card drawn again as it stands; choosing again from it is taken, and so is a second
change in a row from the same tab. Without JavaScript, the same."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Order
from campaign.services import odds
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_orders import player_page  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

STALE = (
    "A Company's order was changed meanwhile (now: advance to Oivi). Nothing was changed: "
    "look again and choose."
)
SCREENS = [("phone", 390, 844), ("desktop", 1280, 900)]


def choose(page: Any, company: int, label: str) -> None:
    card = page.locator(f"#company-{company}")
    card.locator("select[name=order]").select_option(label=label)
    card.locator("button[value=give]").click()


def shows(page: Any, company: int, words: str) -> None:
    page.wait_for_function(
        "([id, words]) => document.querySelector(`#company-${id} .current`)"
        ".innerText.includes(words)",
        arg=[company, words],
    )


def snap(page: Any, company: int, name: str) -> None:
    """The card, and the whole page, of the tab ``page`` (``shot`` takes the first tab)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    card = page.locator(f"#company-{company}")
    card.scroll_into_view_if_needed()
    card.screenshot(path=str(ARTIFACTS / f"{name}-card.png"))
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def orders(campaign: Any) -> set[tuple[str, str, str | None]]:
    rows = Order.objects.filter(campaign=campaign)
    return set(rows.values_list("company__name", "kind", "target__name"))


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s[0])
def test_an_order_from_a_tab_drawn_before_another_is_refused_and_shows_the_order(
    player_page: tuple[Any, Any],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    screen: tuple[str, int, int],
) -> None:
    monkeypatch.setattr(odds, "request", lambda job, seen=None: None)  # odds not the point
    first, campaign = player_page
    name, width, height = screen
    first.set_viewport_size({"width": width, "height": height})
    second = first.context.new_page()  # the same player, another tab, drawn now
    second.set_viewport_size({"width": width, "height": height})
    second.goto(first.url)
    errors: list[str] = []
    second.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    a = campaign.companies.get(name="A Company").pk
    assert "no order given" in second.locator(f"#company-{a} .current").inner_text()

    choose(first, a, "Advance to Oivi")
    shows(first, a, "advance to Oivi")
    choose(second, a, "Withdraw to Isura")
    alert = second.locator(f"#company-{a} .error[role=alert]")
    alert.wait_for()
    assert alert.inner_text() == STALE
    assert "advance to Oivi" in second.locator(f"#company-{a} .current").inner_text()
    assert orders(campaign) == {("A Company", "advance", "Oivi")}
    snap(second, a, f"orders-meanwhile-1-refused-{name}")

    # Looked again, the player chooses again from the card drawn anew: taken; and the
    # same tab changes the same order once more, each answer carrying the order it drew.
    choose(second, a, "Withdraw to Isura")
    shows(second, a, "withdraw to Isura")
    choose(second, a, "Hold in Korona")
    shows(second, a, "hold in Korona")
    assert second.locator(f"#company-{a} .error").count() == 0
    assert orders(campaign) == {("A Company", "hold", None)}
    snap(second, a, f"orders-meanwhile-2-changed-twice-{name}")
    # The browser logs the refusal's 422 itself; nothing else went wrong.
    assert unexpected(errors) == []


def unexpected(errors: list[str]) -> list[str]:
    """The console's errors but the browser's own line for the refusal's 422 (a dropped
    poll logs nothing: tests/browser/test_orders_dropped_answers.py)."""
    return [e for e in errors if "status of 422" not in e]


def test_without_javascript_the_same_refusal(
    player_page: tuple[Any, Any],  # noqa: F811
    browser: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(odds, "request", lambda job, seen=None: None)
    first, campaign = player_page
    plain = browser.new_context(
        java_script_enabled=False,
        storage_state=first.context.storage_state(),
        viewport={"width": 390, "height": 844},
    )
    try:
        second = plain.new_page()
        second.goto(first.url)
        a = campaign.companies.get(name="A Company").pk
        choose(first, a, "Advance to Oivi")
        shows(first, a, "advance to Oivi")
        choose(second, a, "Withdraw to Isura")
        second.wait_for_load_state()
        alert = second.locator(f"#company-{a} .error[role=alert]")
        assert alert.inner_text() == STALE
        assert "advance to Oivi" in second.locator(f"#company-{a} .current").inner_text()
        assert orders(campaign) == {("A Company", "advance", "Oivi")}
        snap(second, a, "orders-meanwhile-3-plain-phone")
        choose(second, a, "Withdraw to Isura")  # from the page the refusal drew
        second.wait_for_load_state()
        assert "withdraw to Isura" in second.locator(f"#company-{a} .current").inner_text()
        assert orders(campaign) == {("A Company", "withdraw", "Isura")}
    finally:
        plain.close()
