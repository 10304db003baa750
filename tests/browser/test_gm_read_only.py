"""The GM's pages of things to read but not change show no Save button (issue 15): a
played turn, a fought battle, a GM adjustment, the areas, companies, ships, air groups
and links the scenario and the turns keep (changed only by "Adjust", with a reason), and
every row's history (no Revert either). In a real browser, desktop and 390x844."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Battle
from campaign.models import AirGroup, Area, Company, GmAdjustment, Link, Ship, Turn
from campaign.services.adjustments import adjust_stands
from campaign.services.turns import advance_turn
from tests.admin.conftest import meeting_doc, new_campaign
from tests.browser.test_safe_defaults import SIZES, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

SAVING = (
    "input[name=_save], input[name=_continue], input[name=_addanother], "
    "input[value=Save], input[value=Revert], button:has-text('Save'), "
    "button:has-text('Revert')"
)


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_pages_to_read_show_no_save_button(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign(doc=meeting_doc())
    advance_turn(campaign_id=campaign.pk)  # turn 1, its two battles fought by the rules
    company = Company.objects.get(campaign=campaign, name="A Company")
    adjust_stands(company=company, unit_type="rifle_squad", held=5, reason="a lost squad")
    history = company.history.order_by("history_id").first()
    admin = f"{live_server.url}/admin"

    def change(model: Any, **where: Any) -> str:
        row = model.objects.filter(**where).order_by("pk").first()
        meta = row._meta
        return f"{admin}/{meta.app_label}/{meta.model_name}/{row.pk}/change/"

    pages = {
        "turn": change(Turn, campaign=campaign),
        "battle": change(Battle, campaign=campaign),
        "adjustment": change(GmAdjustment),
        "area": change(Area, campaign=campaign, name="Korona"),
        "company": change(Company, pk=company.pk),
        "ship": change(Ship, campaign=campaign),
        "airgroup": change(AirGroup, campaign=campaign),
        "link": change(Link, campaign=campaign),
        "history": f"{admin}/campaign/company/{company.pk}/history/",
        "history-version": f"{admin}/campaign/company/{company.pk}/history/{history.history_id}/",
    }
    for name, address in pages.items():
        page.goto(address)
        assert page.locator("#content-main").count() == 1, name
        if name in ("turn", "battle", "company", "history-version"):
            shot(f"read-only-{name}-{tag}")
        assert page.locator(SAVING).count() == 0, f"the {name} page offers to save"
        assert page.locator("#content-main input:not([type=hidden]), #content-main textarea"
                            ", #content-main select").count() == 0, name  # fmt: skip

    # What may be changed still is: the company's stands, by "Adjust", with a reason.
    page.goto(pages["company"])
    page.click("text=Adjust (with a reason)")
    page.select_option("select[name=unit_type]", "rifle_squad")
    page.fill("input[name=held]", "7")
    page.fill("textarea[name=reason]", "two squads found their way back")
    page.click("input[type=submit]")
    page.wait_for_load_state()
    assert company.stand_counts.get(unit_type="rifle_squad").held == 7
    # And the campaign's own page keeps its Save: its name and its players.
    page.goto(f"{admin}/campaign/campaign/{campaign.pk}/change/")
    assert page.locator("input[name=_save]").count() == 1
