"""A battle report with no replay (a tabletop battle whose result the GM entered, or one
whose log has no deployment to replay) on a phone and a desk: the table is the terrain
alone, with no stands to read, so it is drawn whole across the page, as on the battle
sheet, not zoomed in a frame that opened on its left edge with the rest cut off."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from battles.models import Battle
from battles.services.results import enter_battle_result
from campaign.models import Campaign
from tests.admin.conftest import waiting_campaign
from tests.web.conftest import join

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# The page's, the table frame's and the table's own boxes, and what scrolls sideways.
_MEASURE = """() => {
  const frame = document.querySelector(".field-frame");
  const table = frame.querySelector("rect.table-edge").getBoundingClientRect();
  const picture = frame.querySelector("svg.field").getBoundingClientRect();
  const box = frame.getBoundingClientRect();
  return {
    page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    frame: [frame.scrollWidth, frame.clientWidth, box.left, box.right],
    picture: [picture.left, picture.right],
    table: [table.left, table.right],
    hint: [...document.querySelectorAll(".swipe")].some(e => e.offsetParent !== null),
  };
}"""


def assert_the_table_is_drawn_whole(page: Any) -> None:
    seen = page.evaluate(_MEASURE)
    page_width, window_width = seen["page"]
    assert page_width <= window_width + 1, seen  # nothing scrolls the page sideways
    scroll_width, frame_width, left, right = seen["frame"]
    assert scroll_width <= frame_width + 1, seen  # nor the table in its frame
    # The whole picture, the table's both edges with it, inside the frame as it opens.
    assert left - 1 <= seen["picture"][0] and seen["picture"][1] <= right + 1, seen
    assert left <= seen["table"][0] and seen["table"][1] <= right, seen
    assert not seen["hint"], seen  # no "Swipe the table sideways": there is nothing to swipe


def entered_battle() -> tuple[Campaign, Battle]:
    campaign, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    enter_battle_result(
        battle_id=battle.pk,
        winner="defender",
        losses={"attacker": {"rifle_squad": 4}, "defender": {"rifle_squad": 1}},
    )
    return campaign, battle


@pytest.mark.parametrize("size", SIZES)
def test_an_entered_battles_table_is_drawn_whole_across_the_page(
    aussie: Any, signed_in: Any, live_server: Any, shot: Any, size: str
) -> None:
    campaign, battle = entered_battle()
    join(aussie, campaign, "australian")
    page = signed_in(aussie)
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + reverse("battle", args=[campaign.pk, battle.pk]))
    page.locator("text=No positions to replay").wait_for()
    assert page.locator("#replay").count() == 0
    assert_the_table_is_drawn_whole(page)
    shot(f"report-no-replay-entered-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_a_battle_whose_log_has_no_deployment_shows_its_table_whole(
    played: Campaign, japanese: Any, signed_in: Any, live_server: Any, shot: Any, size: str
) -> None:
    battle = Battle.objects.filter(campaign=played, status="fought").order_by("id").first()
    assert battle is not None
    log = [record for record in battle.log if record.get("kind") != "deploy"]
    Battle.objects.filter(pk=battle.pk).update(log=log)
    page = signed_in(japanese)
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + reverse("battle", args=[played.pk, battle.pk]))
    assert page.locator("#replay").count() == 0
    assert_the_table_is_drawn_whole(page)
    shot(f"report-no-replay-no-deployment-{size}")
