"""A spectator's turn page, desktop and phone: words for a reader with no side ("each
side's supply rolls", "the dice open to every side"), never "the enemy" or "your side"."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import SPECTATOR, Membership
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_a_spectator_reads_the_turn_page_in_words_for_no_side(
    page: Any,
    live_server: Any,
    django_user_model: Any,
    signed_in: Any,
    shot: Any,
    width: int,
    height: int,
) -> None:
    campaign = create_campaign(data=meeting_doc(), name="Korona watched", seed=13)
    advance_turn(campaign_id=campaign.pk)
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "pw")
    Membership.objects.create(user=watcher, campaign=campaign, side=SPECTATOR)
    page.set_viewport_size({"width": width, "height": height})
    signed_in(watcher).goto(f"{live_server.url}/campaigns/{campaign.pk}/turns/1/")
    text = page.locator("main").inner_text()
    assert "Fog of war: each side's supply rolls, orders and moves are not shown." in text
    assert "Verified: the dice open to every side (a spectator sees no side's own)" in text
    assert "the enemy" not in text and "your side" not in text
    page.locator("#dice-commitment").scroll_into_view_if_needed()
    shot(f"spectator-turn-1-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
