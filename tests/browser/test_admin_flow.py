"""The GM's control desk in a real browser: upload the Korona scenario, set a schedule,
advance a turn, enter the tabletop results, and see the turn done and on the map."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from battles.models import Battle
from campaign.models import Campaign, Turn
from tests.admin.conftest import meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def gm_page(page: Any, live_server: Any, django_user_model: Any) -> Any:
    django_user_model.objects.create_superuser("gm", "gm@example.com", "a long gm password")
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "gm")
    page.fill("#id_password", "a long gm password")
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/")
    return page


def test_a_gm_uploads_sets_a_schedule_advances_and_enters_tabletop_results(
    gm_page: Any, live_server: Any, tmp_path: Path, shot: Any
) -> None:
    page = gm_page
    doc = meeting_doc()
    scenario = tmp_path / "korona.json"
    scenario.write_text(json.dumps(doc))

    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    page.click("text=Create a campaign")
    page.fill("input[name=name]", "Korona in the browser")
    page.fill("input[name=seed]", "7")
    page.set_input_files("input[name=scenario]", str(scenario))
    page.select_option("select[name=battle_mode]", "tabletop")  # the battles wait for the table
    shot("1-upload")
    page.click("input[type=submit][value=Create]")
    page.wait_for_load_state()
    campaign = Campaign.objects.get(name="Korona in the browser")
    assert campaign.companies.count() == 8

    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    page.click("text=Schedule")
    page.select_option("select[name=kind]", "every_hours")
    page.fill("input[name=every_hours]", "24")
    page.fill("textarea[name=reason]", "a turn a day suits the group")
    shot("2-schedule")
    page.click("input[type=submit]")
    page.wait_for_load_state()
    assert page.locator(".messagelist", has_text="schedule saved").count() == 1
    campaign.refresh_from_db()
    assert campaign.schedule_kind == "every_hours"
    assert campaign.every_hours == 24
    assert campaign.next_deadline is not None

    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    page.once("dialog", lambda dialog: dialog.accept())  # "Play turn 1 ... now?"
    page.click("input[value='Advance turn now']")
    page.wait_for_load_state()
    shot("3-advanced")
    turn = Turn.objects.get(campaign=campaign, number=1)
    assert turn.status == Turn.Status.BATTLES_PENDING

    for n, battle in enumerate(Battle.objects.filter(campaign=campaign).order_by("key")):
        page.goto(f"{live_server.url}/admin/battles/battle/{battle.pk}/change/")
        page.click("text=Enter result")
        page.select_option("select[name=winner]", "defender")
        losses = page.locator("input[type=number]")  # nothing is filled in for the GM
        for i in range(losses.count()):
            losses.nth(i).fill("0")
        page.fill("input[name=attacker__rifle_squad]", "3")
        shot(f"4-result-{n + 1}")
        page.click("input[type=submit]")
        page.wait_for_load_state()
        # The first press shows the result in words and enters nothing; the second does.
        check = page.locator("#check")
        assert "The defender, " in check.inner_text() and "wins the battle" in check.inner_text()
        assert "The attacker lost 3 rifle squads." in check.inner_text()
        assert Battle.objects.get(pk=battle.pk).status == Battle.Status.PENDING
        shot(f"4-result-{n + 1}-check")
        page.click("input[type=submit]")
        page.wait_for_load_state()

    turn.refresh_from_db()
    assert turn.status == Turn.Status.DONE
    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    shot("5-campaigns")
    row = page.locator("tr", has_text="Korona in the browser")
    assert row.count() == 1
    assert Campaign.objects.get(pk=campaign.pk).turn == 1
    # The defenders held: the Japanese companies fell back to Oivi.
    assert set(
        campaign.companies.filter(side="japanese", kind="fighting").values_list(
            "area__name", flat=True
        )
    ) == {"Oivi", "Kilu"}

    # And the GM sees it on the players' map: the turn played, the companies where they
    # fell back to.
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    page.locator("svg.campaign-map").wait_for()
    shot("6-map")
    assert page.locator("[data-turn]").first.text_content() == "Turn 1 played"
    for name, area in campaign.companies.filter(side="japanese", kind="fighting").values_list(
        "name", "area__name"
    ):
        entry = page.locator(f"article[data-area='{area}']")
        assert entry.locator("li", has_text=name).count() == 1
