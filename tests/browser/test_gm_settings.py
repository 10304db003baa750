"""The GM's settings page in a real browser, on a desktop and on a 390x844 phone: the
settings grouped and explained with their rules quoted, the event tables one row per die
face, a bad value refused on its field with nothing changed, a stale tab refused, and the
players' log saying the change in words."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, GmAdjustment
from tests.admin.conftest import new_campaign
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_gm_changes_the_settings_in_a_form_with_the_rules_quoted(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    address = f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/settings/"
    page.goto(address)
    shot(f"settings-1-page-{tag}")

    # Grouped, explained, each rule quoted; no JSON text area anywhere.
    groups = page.locator("fieldset.setting-group h2").all_inner_texts()
    assert [g.lower() for g in groups] == [
        "battles", "fog of war", "old breed options", "end of the campaign", "supply",
        "naval events", "aerial events",
    ]  # fmt: skip
    texts = page.locator("textarea").evaluate_all("areas => areas.map(a => a.value)")
    assert len(texts) == 4 * 6 + 1  # each face's words in the four tables, and the reason
    assert not [text for text in texts if text.lstrip().startswith(("{", "["))]
    bastard = page.locator("#setting-rough_tracks blockquote").inner_text()
    assert "barely one person wide and often covered in fallen trees, mud and mosquitos" in bastard
    naval = page.locator("#setting-naval_table")
    assert naval.locator("tbody tr:not(.face-rule)").count() == 6
    face3 = page.locator("select[name=naval_table__3__effect]")
    assert face3.input_value() == "ship_departs"
    assert "the side's ship departs" in face3.locator("option:checked").inner_text()
    assert page.locator("textarea[name=naval_table__3__text]").input_value() == (
        "An Australian convoy has been attacked and the ship has had to depart."
    )
    assert "HMAS Pitcairn has had to depart Port Murray" in naval.inner_text()

    # A bad value: the Buffalos of aerial face 2 emptied. Refused on its field.
    page.select_option("select[name=battle_mode]", "tabletop")
    page.fill("input[name=aerial_table__2__count]", "")
    page.fill("textarea[name=reason]", "we fight at the club")
    page.click("input[type=submit][value=Save]")
    page.wait_for_load_state()
    shot(f"settings-2-refused-{tag}")
    assert "Nothing was saved" in page.locator(".errornote").inner_text()
    row_error = page.locator("#setting-aerial_table tr.errors .errorlist").inner_text()
    assert "Face 2: give how many Buffalos are lost." in row_error
    assert Campaign.objects.get().get_settings().battle_mode == "auto"
    assert GmAdjustment.objects.count() == 0

    # Corrected and saved: the naval face 3 now sends the ship of the other side away.
    page.fill("input[name=aerial_table__2__count]", "2")
    page.select_option("select[name=naval_table__3__side]", "japanese")
    page.click("input[type=submit][value=Save]")
    page.wait_for_load_state()
    assert "settings saved" in page.locator(".messagelist").inner_text()
    settings = Campaign.objects.get().get_settings()
    assert settings.battle_mode == "tabletop"
    assert settings.naval_table[3]["side"] == "japanese"
    what = GmAdjustment.objects.get().what
    assert what.startswith(
        "Settings changed. How battles are fought: fought on the table (the game master "
        "enters each result) (before: fought by the rules at once)."
    )
    assert "battle_mode" not in what and "naval_table" not in what and "_" not in what

    # A second tab opened before that save is refused, and changes nothing.
    stale = page.context.new_page()
    stale.goto(address)
    page.goto(address)
    page.fill("input[name=turn_limit]", "15")
    page.fill("textarea[name=reason]", "a shorter campaign")
    page.click("input[type=submit][value=Save]")
    page.wait_for_load_state()
    stale.fill("input[name=turn_limit]", "30")
    stale.fill("textarea[name=reason]", "a longer campaign")
    stale.click("input[type=submit][value=Save]")
    stale.wait_for_load_state()
    stale.screenshot(path=str(ARTIFACTS / f"settings-3-stale-{tag}.png"), full_page=True)
    message = stale.locator(".messagelist").inner_text()
    assert "Nothing was changed: another change by a game master was made to Korona 1" in message
    assert "Campaign length, in turns: 15 (before: 20) (reason: a shorter campaign)" in message
    assert Campaign.objects.get().get_settings().turn_limit == 15
    # The GM's entries are kept, the setting the other change touched marked beside them.
    assert stale.locator("input[name=turn_limit]").input_value() == "30"
    assert stale.locator("textarea[name=reason]").input_value() == "a longer campaign"
    assert "20 → 15" in stale.locator("#setting-turn_limit .meanwhile").inner_text()
    # Saved again, having read it: the GM's entry applies.
    stale.click("input[type=submit][value=Save]")
    stale.wait_for_load_state()
    assert "settings saved" in stale.locator(".messagelist").inner_text()
    assert Campaign.objects.get().get_settings().turn_limit == 30
