"""The orders page open in two tabs (or a teammate's): an order changed in one, the
other's cards follow their battles without a reload: a company joining a battle brings
its card and odds, one taking its order back loses its odds, and when the area's battle
is gone, "Planned battles" says so; while an area's odds are worked out, by its poll,
and once they are done, by the page's slow poll (orders-watch)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.services import odds, planning
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_orders import player_page  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def give(page: Any, company: int, label: str) -> None:
    card = page.locator(f"#company-{company}")
    card.locator("select[name=order]").select_option(label=label)
    card.locator("button[value=give]").click()
    page.wait_for_function(
        "([id, label]) => document.querySelector(`#company-${id} .current`)"
        ".innerText.includes(label)",
        arg=[company, label.replace("Advance", "advance").replace("Hold", "hold")],
    )


@pytest.mark.parametrize(
    "screen", [("phone", 390, 844), ("desktop", 1280, 900)], ids=lambda s: s[0]
)
def test_the_cards_of_one_tab_follow_the_orders_given_in_another(
    player_page: tuple[Any, Any],  # noqa: F811
    shot: Any,
    monkeypatch: pytest.MonkeyPatch,
    screen: tuple[str, int, int],
) -> None:
    # The workers never get to these odds: the area keeps polling, "0 of 200…".
    monkeypatch.setattr(odds, "request", lambda job, seen=None: None)
    first, campaign = player_page
    name, width, height = screen
    first.set_viewport_size({"width": width, "height": height})
    errors: list[str] = []
    first.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    a = campaign.companies.get(name="A Company").pk
    b = campaign.companies.get(name="B Company").pk
    give(first, a, "Advance to Oivi")
    first.locator(f"#company-{a} .odds-text").wait_for()

    second = first.context.new_page()  # the same player, another tab
    second.set_viewport_size({"width": width, "height": height})
    second.goto(first.url)
    give(second, b, "Advance to Oivi")
    # The first tab: B's card with its order and its battle, two battles at Oivi.
    first.locator(f"#company-{b} .odds-text").wait_for()
    assert "advance to Oivi" in first.locator(f"#company-{b} .current").inner_text()
    assert "Battle at Oivi: B Company" in first.locator(f"#company-{b}").inner_text()
    assert "into 2 battles" in first.locator("#planned-battles").inner_text()
    first.locator(f"#company-{b}").scroll_into_view_if_needed()
    shot(f"orders-two-tabs-1-joined-{name}")

    give(second, b, "Hold in Korona")
    first.locator(f"#company-{b} .odds").wait_for(state="detached")
    assert "hold in Korona" in first.locator(f"#company-{b} .current").inner_text()
    assert "one battle" in first.locator("#planned-battles").inner_text()

    give(second, a, "Hold in Korona")
    first.locator("#planned-battles .gone-battle").wait_for()
    assert (
        "Your orders lead to no battle in Oivi now."
        in first.locator("#planned-battles").inner_text()
    )
    first.locator(f"#company-{a} .odds").wait_for(state="detached")
    assert "hold in Korona" in first.locator(f"#company-{a} .current").inner_text()
    first.locator("#planned-battles").scroll_into_view_if_needed()
    shot(f"orders-two-tabs-2-gone-{name}")
    assert errors == []


@pytest.mark.parametrize(
    "screen", [("phone", 390, 844), ("desktop", 1280, 900)], ids=lambda s: s[0]
)
def test_once_the_odds_are_done_the_slow_poll_brings_the_other_tabs_orders(
    player_page: tuple[Any, Any],  # noqa: F811
    shot: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    screen: tuple[str, int, int],
) -> None:
    """Once every area's odds were in, nothing polled: the other tab's orders showed only
    after a reload. The slow poll (every second here, 25 by default) brings them, and
    only the cards that changed: a choice being made in another card stays."""
    settings.KORONA_ORDERS_WATCH_SECONDS = 1
    settings.KORONA_ODDS_BACKEND = "inline"  # the odds done with the order's answer
    monkeypatch.setattr(planning, "ODDS_RUNS", 40)
    first, campaign = player_page
    first.reload()  # drawn with the quick poll
    name, width, height = screen
    first.set_viewport_size({"width": width, "height": height})
    errors: list[str] = []
    first.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    a = campaign.companies.get(name="A Company").pk
    b = campaign.companies.get(name="B Company").pk
    c = campaign.companies.get(name="C Company (militia)").pk
    give(first, a, "Advance to Oivi")
    first.wait_for_function(
        f"() => document.querySelector('#company-{a} .odds-text').innerText"
        ".includes('of 40 battles fought out')"
    )
    assert first.locator(".area-odds-now.polling").count() == 0  # no odds poll left
    # A choice being made in C's card, not given yet.
    choosing = first.locator(f"#company-{c} select[name=order]")
    choosing.select_option(index=1)
    chosen = choosing.input_value()

    second = first.context.new_page()  # the same player, another tab
    second.set_viewport_size({"width": width, "height": height})
    second.goto(first.url)
    give(second, b, "Advance to Oivi")
    first.locator(f"#company-{b} .odds-text").wait_for()
    assert "advance to Oivi" in first.locator(f"#company-{b} .current").inner_text()
    assert "Battle at Oivi: B Company" in first.locator(f"#company-{b}").inner_text()
    assert "into 2 battles" in first.locator("#planned-battles").inner_text()
    assert choosing.input_value() == chosen  # C's card was left alone
    first.locator("#planned-battles").scroll_into_view_if_needed()
    shot(f"orders-two-tabs-3-slow-poll-joined-{name}")

    give(second, b, "Hold in Korona")
    give(second, a, "Hold in Korona")
    first.locator("#planned-battles .gone-battle").wait_for()
    assert (
        "Your orders lead to no battle in Oivi now."
        in first.locator("#planned-battles").inner_text()
    )
    first.locator(f"#company-{a} .odds").wait_for(state="detached")
    first.locator(f"#company-{b} .odds").wait_for(state="detached")
    assert "hold in Korona" in first.locator(f"#company-{a} .current").inner_text()
    first.locator("#planned-battles").scroll_into_view_if_needed()
    shot(f"orders-two-tabs-4-slow-poll-gone-{name}")
    assert errors == []


@pytest.mark.parametrize(
    "screen", [("phone", 390, 844), ("desktop", 1280, 900)], ids=lambda s: s[0]
)
def test_a_choice_not_given_yet_stays_when_its_card_is_brought_up_to_date(
    player_page: tuple[Any, Any],  # noqa: F811
    shot: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    screen: tuple[str, int, int],
) -> None:
    """A card drawn anew because its order changed elsewhere reset the choice the player
    had made in its select but not given yet, silently. It is kept, with a word."""
    settings.KORONA_ORDERS_WATCH_SECONDS = 1
    settings.KORONA_ODDS_BACKEND = "inline"
    monkeypatch.setattr(planning, "ODDS_RUNS", 40)
    first, campaign = player_page
    first.reload()  # drawn with the quick poll
    name, width, height = screen
    first.set_viewport_size({"width": width, "height": height})
    errors: list[str] = []
    first.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    b = campaign.companies.get(name="B Company").pk
    # B's card: a choice made, not given; and the sniper ticked, not given.
    choosing = first.locator(f"#company-{b} select[name=order]")
    other = [
        words
        for words in choosing.locator("option").all_inner_texts()
        if words.strip() not in ("Hold in Korona", "Advance to Oivi")
    ]
    choosing.select_option(label=other[0].strip())
    chosen = choosing.input_value()
    first.locator(f"#company-{b} input[name=sniper]").check()

    second = first.context.new_page()  # the same player, another tab (or a teammate)
    second.set_viewport_size({"width": width, "height": height})
    second.goto(first.url)
    give(second, b, "Advance to Oivi")
    first.wait_for_function(
        f"() => document.querySelector('#company-{b} .current').innerText"
        ".includes('advance to Oivi')",
    )
    card = first.locator(f"#company-{b}")
    assert choosing.input_value() == chosen  # kept, not reset to the order given elsewhere
    assert card.locator("input[name=sniper]").is_checked()
    assert "Not given yet" in card.locator(".unsaved-choice").inner_text()
    card.scroll_into_view_if_needed()
    shot(f"orders-two-tabs-5-choice-kept-{name}")
    card.screenshot(path=str(ARTIFACTS / f"orders-two-tabs-5-choice-kept-{name}-card.png"))
    # Given, the word goes with the card's answer.
    card.locator("button[value=give]").click()
    first.wait_for_function(
        f"() => !document.querySelector('#company-{b} .current').innerText"
        ".includes('advance to Oivi')"
    )
    assert first.locator(f"#company-{b} .unsaved-choice").count() == 0
    assert errors == []
