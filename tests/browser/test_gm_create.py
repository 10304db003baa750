"""Creating a campaign asks for its main choices at once (issue 15): the scenario (the
Korona one if no file), battle mode, rule set, fog of war, the Old Breed options and the
schedule, each explained with its rule, preset to the rulings' defaults. In a real
browser, desktop and 390x844."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_new_campaign_asks_its_main_choices(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    page.click("text=Create a campaign")
    page.wait_for_load_state()
    shot(f"create-1-page-{tag}")
    sections = page.locator("#content-main fieldset h2").all_inner_texts()
    assert [s.lower() for s in sections] == [
        "the campaign", "battles", "fog of war", "old breed options", "schedule",
        "balance (optional)",
    ]  # fmt: skip
    # The defaults, in words, and the rules beside them.
    assert page.locator("select[name=battle_mode] option:checked").inner_text() == (
        "fought by the rules at once"
    )
    assert page.locator("select[name=ruleset] option:checked").inner_text() == (
        "Korona (WWII in the Pacific)"
    )
    assert page.locator("input[name=fog_of_war]").is_checked()
    assert not page.locator("input[name=combat_events]").is_checked()
    assert page.locator("select[name=kind] option:checked").inner_text() == (
        "none: once every side is ready, or when the game master plays it"
    )
    assert (
        "Whenever a Squad or WT rolls a ‘1’" in page.locator("#setting-combat_events").inner_text()
    )
    assert (
        "Korona scenario that comes with Korona" in page.locator("#setting-scenario").inner_text()
    )
    # Solo play and the campaign's length, said where the GM decides (a walk-through).
    solo = page.locator("#create-solo").inner_text()
    assert solo.startswith("Playing solo: a side nobody joins is played by the campaign AI")
    length = page.locator("#create-length").inner_text()
    assert length.startswith("Length: the Korona scenario lasts 20 turns")
    assert "The campaign's clock" in page.locator("#setting-timezone").inner_text()

    # A weekly schedule without its day: refused, on its field, nothing created.
    page.fill("input[name=name]", "Korona at the club")
    page.select_option("select[name=battle_mode]", "tabletop")
    page.check("input[name=combat_events]")
    page.select_option("select[name=kind]", "weekly")
    page.fill("input[name=time_of_day]", "19:30")
    page.fill("input[name=timezone]", "Australia/Sydney")
    page.click("input[type=submit][value=Create]")
    page.wait_for_load_state()
    shot(f"create-2-refused-{tag}")
    assert "Nothing was created" in page.locator(".errornote").inner_text()
    assert "Give the weekday of the turn." in page.locator("#setting-weekday").inner_text()
    assert Campaign.objects.count() == 0

    page.select_option("select[name=weekday]", "4")  # Friday
    page.click("input[type=submit][value=Create]")
    page.wait_for_load_state()
    shot(f"create-3-created-{tag}")
    assert "Created Korona at the club" in page.locator(".messagelist").inner_text()
    campaign = Campaign.objects.get()
    settings = campaign.get_settings()
    assert (settings.battle_mode, settings.combat_events, settings.fog_of_war) == (
        "tabletop", True, True,
    )  # fmt: skip
    assert (campaign.schedule_kind, campaign.weekday, campaign.timezone) == (
        "weekly", 4, "Australia/Sydney",
    )  # fmt: skip
    assert (
        "a turn every Friday at 19:30 (Australia/Sydney)"
        in page.locator("div.field-schedule_summary").inner_text()
    )
