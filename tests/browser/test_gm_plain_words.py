"""The GM's pages in plain words (issue 15): no stored key ("rifle_squad (5/9)",
"a_third_lost", "force_on_force") on the campaign list and page, a company and its
"Adjust" form, a battle, its report and its sheet, the areas; and the list and the home
page agree on the turn ("0 played; next: turn 1" beside "Next turn 1"). In a real
browser, desktop and 390x844."""

from __future__ import annotations

import re
from typing import Any

import pytest

from battles.models import Battle
from campaign.models import Area, Company, GmAdjustment
from campaign.services.adjustments import adjust_stands
from campaign.services.turns import advance_turn
from rules import names
from tests.admin.conftest import meeting_doc, new_campaign
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

# A stored key: lower-case words joined by underscores (rifle_squad, a_third_lost).
RAW_KEY = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")


def raw_keys(page: Any, content: str = "#content") -> list[str]:
    return RAW_KEY.findall(page.locator(content).inner_text())


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_gm_reads_words_not_keys(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign(doc=meeting_doc(), ruleset="force_on_force")
    admin = f"{live_server.url}/admin"

    # The home page and the list say the same of the turn.
    page.goto(f"{admin}/")
    assert page.locator("#attention td[data-label='Next turn']").inner_text() == "1"
    page.goto(f"{admin}/campaign/campaign/")
    shot(f"words-1-list-{tag}")
    assert page.locator("td.field-turn_shown").inner_text() == "0 played; next: turn 1"
    page.goto(f"{admin}/campaign/campaign/{campaign.pk}/change/")
    shot(f"words-2-campaign-{tag}")
    assert "0 played; next: turn 1" in page.locator("div.field-turn_words").inner_text()
    summary = page.locator("div.field-settings_summary").inner_text()
    assert "Rule set of the battles: Force on Force" in summary
    assert "How battles are fought: fought by the rules at once" in summary
    assert raw_keys(page) == []

    advance_turn(campaign_id=campaign.pk)  # turn 1: two battles at Korona, by the rules
    page.goto(f"{admin}/campaign/campaign/")
    assert page.locator("td.field-turn_shown").inner_text() == "1 played; next: turn 2"

    company = Company.objects.get(campaign=campaign, name="A Company")
    page.goto(f"{admin}/campaign/company/{company.pk}/change/")
    shot(f"words-3-company-{tag}")
    assert "rifle squads" in page.locator("#content").inner_text()
    assert raw_keys(page) == []
    page.click("text=Adjust (with a reason)")
    page.wait_for_url("**/adjust/")
    options = page.locator("select[name=unit_type] option").all_inner_texts()
    held = company.stand_counts.get(unit_type="rifle_squad")
    assert f"rifle squads ({held.held} of {held.establishment})" in options
    assert raw_keys(page) == []

    battle = Battle.objects.filter(campaign=campaign).order_by("key").first()
    for part, name in (("change", "battle"), ("report", "report")):
        page.goto(f"{admin}/battles/battle/{battle.pk}/{part}/")
        shot(f"words-4-{name}-{tag}")
        # The battle's input (BATTLE.json), for the technically minded, is folded away.
        assert raw_keys(page) == [], name
    # The GM's "Battle sheet" is the players' sheet, seen as the game master.
    page.goto(f"{admin}/battles/battle/{battle.pk}/sheet/")
    page.wait_for_url(f"**/campaigns/{campaign.pk}/battles/{battle.pk}/sheet/")
    shot(f"words-4-sheet-{tag}")
    assert raw_keys(page, "main") == [], "sheet"
    page.goto(f"{admin}/battles/battle/{battle.pk}/change/")
    result = page.locator("div.field-result_text").inner_text()
    why = "|".join(
        [
            *(re.escape(words) for words in names.BATTLE_END_NAMES.values()),
            # As the players' pages say them (805da5e, f14afe2): the loser's count, and
            # why the loser withdrew.
            r"the (Japanese|Australians) lost a third or more of their (stands|units) "
            r"\(\d+ of \d+\)",
            r"the (Japanese|Australians) withdrew [^()]*",
        ]
    )
    assert re.search(
        rf"The (Japanese|Australians), (attacking|defending), win \(({why})\); the ", result
    )
    assert "Force on Force" in page.locator("div.field-ruleset_words").inner_text()

    # A GM adjustment: its line in words; what it stored is folded away.
    adjust_stands(company=company, unit_type="rifle_squad", held=2, reason="a mistake")
    adjustment = GmAdjustment.objects.get()
    page.goto(f"{admin}/campaign/gmadjustment/{adjustment.pk}/change/")
    assert "A Company: rifle squads from" in page.locator("div.field-what_words").inner_text()
    assert raw_keys(page) == []

    area = Area.objects.get(campaign=campaign, name="Port Murray")
    page.goto(f"{admin}/campaign/area/{area.pk}/change/")
    assert "port, airfield" in page.locator("div.field-features_words").inner_text()
    assert raw_keys(page) == []
