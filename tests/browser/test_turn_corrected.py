"""A tabletop result the GM corrected, on its own turn's page in a real browser, on a
desktop and on a phone: the player of a side that fought it reads the mark at the
battle's result, linked to its report; a spectator reads only that a battle of the turn
was corrected, linked to the GM's changes."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Battle
from battles.services.correction import correct_battle_result
from campaign.models import SPECTATOR, Membership
from tests.battles.test_correction import RIGHT, WRONG, played

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_turn_1s_page_marks_its_corrected_result(
    page: Any, live_server: Any, django_user_model: Any, signed_in: Any, shot: Any, size: Any
) -> None:
    campaign = played("Corrected at the table", WRONG)
    player = django_user_model.objects.create_user("aussie", "a@example.com", "pw")
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "pw")
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    Membership.objects.create(user=watcher, campaign=campaign, side=SPECTATOR)
    second = Battle.objects.get(campaign=campaign, key="1:Korona:2")
    correct_battle_result(battle_id=second.pk, **RIGHT, reason="The table swapped the sides.")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    name = "phone" if size[0] < 600 else "desktop"

    signed_in(player)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/turns/1/")
    mark = page.locator(".rolls .corrected")
    assert mark.count() == 1
    assert mark.inner_text().startswith(
        "This result was corrected by the game master after the turn was played, on "
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    mark.scroll_into_view_if_needed()
    shot(f"turn-corrected-player-{name}")
    mark.get_by_role("link", name="its report says why").click()
    page.wait_for_load_state()
    assert "Why: The table swapped the sides." in page.locator("#correction").inner_text()

    page.context.clear_cookies()
    signed_in(watcher)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/turns/1/")
    told = page.locator("main > p.corrected")
    assert told.inner_text().startswith(
        "The result of a battle of this turn, fought on the table, was corrected by the game "
        "master after the turn was played, on "
    )
    assert "Korona" not in told.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    shot(f"turn-corrected-spectator-{name}")
    told.get_by_role("link", name="the game master's changes say why").click()
    page.wait_for_load_state()
    assert "The table swapped the sides." in page.locator("main").inner_text()
