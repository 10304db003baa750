"""The README's quick start, step by step, as a newcomer follows it (issue 15): the first
run's GM account and invitation link, a player joining, giving an order and marking
ready, the GM playing the turn, both reading it. Every button the steps name is pressed
here by the name the README gives it, on a desktop and on a 390x844 phone."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from battles.models import Battle
from campaign.models import Campaign, Order

pytestmark = pytest.mark.django_db(transaction=True)

README = Path(__file__).resolve().parents[2] / "README.md"

# The names the quick start gives, in its order; each is pressed below.
NAMED = [
    "Make my account and join as the Australians",
    "Orders",
    "Give order",
    "My orders for turn 1 are ready",
    "Advance turn now",
    "View",
    "Turns",
    "Battles",
]


def quick_start() -> str:
    text = README.read_text()
    return re.sub(r"\s+", " ", text[text.index("## Quick start") : text.index("## Layout")])


def test_the_quick_start_names_these_steps() -> None:
    steps = quick_start()
    quoted = re.findall(r'"([^"]+)"', steps)
    assert [name for name in quoted if name in NAMED] == [
        "Make my account and join as the Australians", "Orders", "Give order",
        "My orders for turn 1 are ready", "Advance turn now", "View", "Turns", "Battles",
    ]  # fmt: skip


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_newcomer_plays_a_turn_by_the_quick_start(
    browser: Any, live_server: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = "desktop" if size[0] > 600 else "phone"
    host = live_server.url.removeprefix("http://")
    out = StringIO()
    call_command("first_run", address=host, stdout=out)
    printed = out.getvalue()
    password = re.search(r"user gm\s+password (\S+)", printed)[1]
    link = re.search(r"Australians: (\S+)", printed)[1]
    viewport = {"width": size[0], "height": size[1]}

    # 1. The GM signs in; the home page lists Korona.
    gm = browser.new_context(viewport=viewport).new_page()
    gm.goto(f"{live_server.url}/admin/")
    gm.fill("#id_username", "gm")
    gm.fill("#id_password", password)
    gm.click("input[type=submit]")
    gm.wait_for_url(f"{live_server.url}/admin/")
    assert gm.locator("#attention").get_by_text("Korona", exact=True).count() == 1

    # 2. A player, in a private window of their own: the link, an account, the orders.
    player = browser.new_context(viewport=viewport).new_page()
    player.goto(link)
    player.fill("#id_username", "digger")
    player.fill("#id_email", "digger@example.com")
    player.fill("#id_password1", "jungle track at dawn 1942")
    player.fill("#id_password2", "jungle track at dawn 1942")
    player.get_by_role("button", name="Make my account and join as the Australians").click()
    player.wait_for_url(re.compile(r".*/campaigns/\d+/$"))
    shot_of(shot, player, f"quick-start-1-map-{tag}")
    player.locator("nav").get_by_role("link", name="Orders", exact=True).click()
    player.wait_for_url(re.compile(r".*/orders/$"))
    order = player.locator("form").filter(
        has=player.locator("option", has_text="Advance to Korona")
    )
    order.locator("select").select_option(label="Advance to Korona")
    with player.expect_response(lambda answer: answer.request.method == "POST"):
        order.get_by_role("button", name="Give order").click()
    player.wait_for_load_state()
    assert Order.objects.get().target.name == "Korona"
    with player.expect_response(lambda answer: answer.request.method == "POST"):
        player.get_by_role("button", name="My orders for turn 1 are ready").click()
    player.wait_for_load_state()
    shot_of(shot, player, f"quick-start-2-ready-{tag}")
    assert "Australians: ready" in player.inner_text("main")

    # 3. The GM plays the turn (and confirms); both read it.
    campaign = Campaign.objects.get(name="Korona")
    gm.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    gm.once("dialog", lambda dialog: dialog.accept())
    gm.get_by_role("button", name="Advance turn now").click()
    gm.wait_for_load_state()
    assert "Korona: turn 1 played." in gm.locator(".messagelist").inner_text()
    gm.locator("#turns-group").get_by_role("link", name="View").first.click()
    gm.wait_for_load_state()
    shot_of(shot, gm, f"quick-start-3-gm-turn-{tag}")
    assert "Naval events: rolled" in gm.inner_text("#content")
    player.locator("nav").get_by_role("link", name="Turns", exact=True).click()
    player.wait_for_load_state()
    shot_of(shot, player, f"quick-start-4-player-turns-{tag}")
    assert "1 turn played" in player.inner_text("main")
    player.locator("nav").get_by_role("link", name="Battles", exact=True).click()
    player.wait_for_url(re.compile(r".*/battles/$"))
    shot_of(shot, player, f"quick-start-5-player-battles-{tag}")
    main = player.inner_text("main")
    assert "Battles of Korona" in main
    fought = Battle.objects.filter(campaign=campaign).count()
    assert (f"{fought} battle" in main) if fought else ("fought no battle yet" in main)


def shot_of(shot: Any, page: Any, name: str) -> None:
    """The ``shot`` fixture draws the test's own page; these steps have two windows."""
    from tests.browser.conftest import ARTIFACTS

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
