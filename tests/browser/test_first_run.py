"""The first run's way in, in a real browser: the GM signs in with the printed password
and finds the Korona campaign; a player opens the printed link and joins a side."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_printed_account_and_link_get_the_gm_and_a_player_in(
    page: Any, live_server: Any, shot: Any, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    host = live_server.url.removeprefix("http://")
    out = StringIO()
    call_command("first_run", address=host, stdout=out)
    printed = out.getvalue()
    password = re.search(r"user gm\s+password (\S+)", printed)[1]
    link = re.search(r"Australians: (\S+)", printed)[1]
    tag = "desktop" if size[0] > 600 else "phone"

    page.goto(f"{live_server.url}/admin/")
    page.fill("#id_username", "gm")
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    # The home page says the account has no email address, and the invitations waiting.
    assert page.get_by_text("You have no email address").count() == 1
    assert page.get_by_text("2 invitations waiting").count() == 1
    shot(f"first-run-0-home-{tag}")
    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    assert page.locator("#result_list").get_by_text("Korona", exact=True).count() == 1
    shot(f"first-run-1-gm-{tag}")
    # The campaign's page keeps the printed links, to copy (a lost console loses none).
    page.get_by_role("link", name="Korona", exact=True).first.click()
    page.wait_for_url("**/change/")
    page.wait_for_load_state()
    assert page.locator(".invitation textarea[readonly]").count() == 2
    shot(f"first-run-1b-campaign-{tag}")

    page.context.clear_cookies()
    page.goto(link)
    shot(f"first-run-2-invitation-{tag}")
    page.fill("#id_username", "digger")
    page.fill("#id_email", "digger@example.com")
    page.fill("#id_password1", "jungle track at dawn 1942")
    page.fill("#id_password2", "jungle track at dawn 1942")
    page.locator("#new-account button[type=submit]").click()
    page.wait_for_load_state()
    shot(f"first-run-2b-joined-{tag}")
    page.wait_for_url("**/campaigns/**")
    page.goto(f"{live_server.url}/campaigns/")
    assert page.locator("main").get_by_text("Korona").count() >= 1
    assert page.locator("main").get_by_text("Australian").count() >= 1
    shot(f"first-run-3-player-{tag}")
