"""The GM's home page (admin index) in a real browser: what needs the GM now."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from battles.models import Battle
from campaign.models import Campaign, Membership, SideReady, Turn
from campaign.services.deadlines import moment_words
from tests.admin.conftest import new_campaign, waiting_campaign

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_home_page_lists_results_to_enter_failed_turns_and_sides_not_ready(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    waiting, battles = waiting_campaign("Korona at the table")
    wanted = timezone.now() + timedelta(days=3)  # as a schedule gives them when the turn begins
    Battle.objects.filter(campaign=waiting).update(deadline=wanted)
    broken = new_campaign("Korona broken")
    Turn.objects.create(
        campaign=broken,
        number=1,
        seed=1,
        status=Turn.Status.FAILED,
        failure_reason="database went away mid-turn",
    )
    scheduled = new_campaign("Korona weekly")
    deadline = timezone.now() + timedelta(hours=30)
    Campaign.objects.filter(pk=scheduled.pk).update(
        schedule_kind="every_hours", every_hours=48, next_deadline=deadline
    )
    for side in ("australian", "japanese"):
        player = django_user_model.objects.create_user(side, password="pw")
        Membership.objects.create(campaign=scheduled, user=player, side=side)
    SideReady.objects.create(campaign=scheduled, side="japanese", turn_number=1)
    solo = new_campaign("Korona solo")
    player = django_user_model.objects.create_user("solo", password="pw")
    Membership.objects.create(campaign=solo, user=player, side="australian")
    django_user_model.objects.create_superuser("gm", "gm@example.com", "a long gm password")

    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "gm")
    page.fill("#id_password", "a long gm password")
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/")
    box = page.locator("#attention")
    shot(f"gm-home-{'desktop' if size[0] > 600 else 'phone'}")

    assert box.locator("h2").text_content() == "Needs you now"
    results = box.locator("a", has_text="Enter the result of")
    assert results.count() == 2
    names = [results.nth(i).text_content() for i in range(2)]
    assert names == [
        "Enter the result of the battle at Korona: the Japanese 1st Company attacks the "
        "Australians' A Company",
        "Enter the result of the battle at Korona: the Japanese 2nd Company attacks the "
        "Australians' B Company",
    ]
    assert (
        f"Results wanted by {moment_words(wanted, waiting.timezone)}: if none is entered by "
        "then, the campaign waits for your result, however long."
    ) in box.locator("li", has_text="Korona at the table, turn 1").first.text_content()
    assert box.get_by_text("database went away mid-turn").count() == 1
    row = box.locator("tr", has_text="Korona weekly")
    assert "Australians" in row.text_content() and "Japanese" not in row.text_content()
    assert "from now" in row.text_content()
    assert "every side" not in row.text_content()
    # A side no player plays is the campaign AI's, always ready: never "not ready".
    solo_row = box.locator("tr", has_text="Korona solo").text_content()
    assert "the campaign AI plays the Japanese" in solo_row and "Australians" in solo_row
    broken_row = box.locator("tr", has_text="Korona broken").text_content()
    assert "no player: the campaign AI plays every side" in broken_row
    # Soonest deadline first: the scheduled campaign before those the GM plays by hand.
    rows = box.locator("tbody tr")
    assert "Korona weekly" in rows.first.text_content()

    results.first.click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/admin/battles/battle/{battles['1:Korona:1'].pk}/result/")
    assert waiting.pk


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_recent_actions_name_a_fought_battle_as_the_battles_list_does(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, size: tuple[int, int]
) -> None:
    """The GM fights a waiting battle by the rules from its page: Recent actions lists it
    as every GM page names it, "At Korona: ...", not "1: battle 1 at Korona"."""
    from battles.web.forces import battle_words
    from tests.browser.test_safe_defaults import sign_in

    _, battles = waiting_campaign("Korona at the table")
    battle = battles["1:Korona:1"]
    sign_in(page, live_server, django_user_model, size)
    page.goto(f"{live_server.url}/admin/battles/battle/{battle.pk}/change/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Fight it now (auto)").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/admin/")
    recent = page.locator("#recent-actions-module")
    link = recent.get_by_role("link", name=battle_words(battle))
    assert link.is_visible()
    assert "battle 1 at Korona" not in recent.inner_text()
    recent.scroll_into_view_if_needed()
    shot(f"gm-home-recent-battle-{'desktop' if size[0] > 600 else 'phone'}")
