"""The GM's irreversible buttons ask first, and nothing is chosen for the GM: in a real
browser, on a desktop and on a 390x844 phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from battles.models import Battle
from campaign.models import Campaign, Company, Turn
from campaign.services.turns import advance_turn
from tests.admin.conftest import new_campaign, waiting_campaign

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [(1280, 800), (390, 844)]


def sign_in(page: Any, live_server: Any, django_user_model: Any, size: tuple[int, int]) -> str:
    django_user_model.objects.create_superuser("gm", "gm@example.com", "a long gm password")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "gm")
    page.fill("#id_password", "a long gm password")
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/")
    return "desktop" if size[0] > 600 else "phone"


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_advance_turn_now_asks_first_on_the_page_and_in_the_list(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    asked: list[str] = []

    def answer(accept: bool) -> None:
        def handle(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        page.once("dialog", handle)

    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/change/")
    shot(f"safe-1-campaign-{tag}")
    answer(False)
    page.click("input[value='Advance turn now']")
    page.wait_for_timeout(300)
    assert asked == [
        "Play turn 1 of Korona 1 now? Its dice are rolled at once and every player sees the result."
    ]
    assert Campaign.objects.get().turn == 0  # dismissed: nothing played

    answer(True)
    page.click("input[value='Advance turn now']")
    page.wait_for_load_state()
    assert page.locator(".messagelist").count() == 1
    assert Campaign.objects.get().turn == 1

    # The list's action asks too, on a page of its own: the campaign's question by name.
    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    page.check("input[name=_selected_action]")
    page.select_option("select[name=action]", "advance_now")
    page.click("button[name=index]")
    page.wait_for_load_state()
    shot(f"safe-2-list-advance-{tag}")
    expect(page.locator(".advance-questions li")).to_have_text(
        ["Play turn 2 of Korona 1 now? Its dice are rolled at once and every player sees the "
         "result."]
    )  # fmt: skip
    assert Campaign.objects.get().turn == 1
    page.click("text=No, back to the campaigns")
    page.wait_for_url(f"{live_server.url}/admin/campaign/campaign/")
    assert Campaign.objects.get().turn == 1
    page.check("input[name=_selected_action]")
    page.select_option("select[name=action]", "advance_now")
    page.click("button[name=index]")
    page.click("input[value='Yes, play it']")
    page.wait_for_url(f"{live_server.url}/admin/campaign/campaign/")
    assert Campaign.objects.get().turn == 2
    assert len(asked) == 2  # no browser question beside the page's


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_fight_it_now_asks_and_result_entry_chooses_nothing(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    page.goto(f"{live_server.url}/admin/battles/battle/{battle.pk}/change/")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("input[value='Fight it now (auto)']")
    page.wait_for_timeout(300)
    assert Battle.objects.get(pk=battle.pk).status == "pending"

    page.click("text=Enter result")
    page.wait_for_load_state()
    shot(f"safe-2-result-{tag}")
    assert page.locator("select[name=winner]").input_value() == ""
    numbers = page.locator("input[type=number]")
    assert numbers.count() > 0
    assert all(numbers.nth(i).input_value() == "" for i in range(numbers.count()))

    page.goto(f"{live_server.url}/admin/battles/battle/{battle.pk}/change/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("input[value='Fight it now (auto)']")
    page.wait_for_load_state()
    assert Battle.objects.get(pk=battle.pk).status == "fought"


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_roll_back_chooses_the_latest_turn_and_shows_what_it_undoes(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    tag = sign_in(page, live_server, django_user_model, size)
    campaign = new_campaign()
    Company.objects.filter(campaign=campaign).update(standing_order="aggressive")
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    page.goto(f"{live_server.url}/admin/campaign/campaign/{campaign.pk}/rollback/")
    shot(f"safe-3-rollback-{tag}")
    assert page.locator("select[name=number]").input_value() == "3"
    preview = page.locator("#preview")
    assert preview.locator("h2").text_content() == "Rolling back to the start of turn 3 undoes"
    assert preview.locator("li").first.text_content().startswith("Turn 3 (played)")

    # The preview follows the choice at once, before any press.
    page.select_option("select[name=number]", "1")
    expect(page.locator("#preview h2")).to_have_text("Rolling back to the start of turn 1 undoes")
    shot(f"safe-4-rollback-preview-{tag}")
    assert page.locator("#preview li").count() >= 3
    assert Campaign.objects.get().turn == 3  # nothing rolled back by choosing
    page.fill("textarea[name=reason], input[name=reason]", "wrong setup")
    page.check("input[name=confirm]")
    page.click("input[value='Roll back']")
    page.wait_for_load_state()
    assert Campaign.objects.get().turn == 0
    assert not Turn.objects.filter(campaign=campaign).exists()
