"""The shared fixtures hold what the page and API tests rely on."""

from __future__ import annotations

from typing import Any

from battles.models import Battle
from campaign.services.visibility import open_campaign


def test_played_campaign_has_battles_and_enemies_in_sight_and_hidden(
    played: Any, aussie: Any
) -> None:
    assert played.turn == 2
    assert Battle.objects.filter(campaign=played).count() >= 2
    view = open_campaign(user=aussie, campaign=played)
    assert view.side == "australian"
    glimpsed = [c for c in view.companies if not c.full]
    assert glimpsed and all(c.side == "japanese" for c in glimpsed)
    assert len(view.companies) < len(view.state.companies)  # some enemies out of sight


def test_big_campaign_has_ten_times_the_companies(big_campaign: Any, gm_user: Any) -> None:
    assert len(open_campaign(user=gm_user, campaign=big_campaign).companies) == 80
