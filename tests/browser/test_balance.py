"""The admin's Balance button in a real browser: a scenario file sent from the upload page,
the progress bar growing as the page polls, then the win shares."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_admin_flow import gm_page  # noqa: F401 - the signed-in GM's page
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_gm_balances_a_scenario_and_watches_the_progress(
    gm_page: Any,  # noqa: F811
    live_server: Any,
    tmp_path: Path,
    shot: Any,
) -> None:
    page = gm_page
    doc = korona_doc(standing_order=None)
    doc["settings"] = {"turn_limit": 3}
    scenario = tmp_path / "korona.json"
    scenario.write_text(json.dumps(doc))

    page.goto(f"{live_server.url}/admin/campaign/campaign/create/")
    page.set_input_files("input[name=scenario]", str(scenario))
    page.fill("input[name=campaigns]", "6")
    shot("balance-0-upload")
    page.click("input[value=Balance]")  # the same form, to the Balance view: no name needed
    page.wait_for_selector("#balance-progress, #balance-result")
    shot("balance-1-progress")
    page.wait_for_selector("#balance-result", timeout=240_000)  # the page reloads when done
    result = page.inner_text("#balance-result")
    shot("balance-2-result")
    intro = page.inner_text("#content-main")
    assert "6 campaigns of Korona, the sensible AI on both sides, a random seed (" in intro
    assert "seed 0" not in intro
    # A table with its headers in words, shares in percent; no console lines.
    assert page.locator("#balance-result table caption").all_inner_texts() == [
        "Who wins",
        "How often each area changed hands",
    ]
    # (the admin's style writes column headers in capitals)
    assert "likely share (95% interval)" in result.lower() and "The Australians" in result
    assert "%" in result and "A campaign lasted" in result and "Korona" in result
    assert "Only 6 campaigns: too few to judge the scenario by." in result
    assert "changes of hands per campaign" not in result
