"""Unready: a player takes back their side's "ready" until every side is ready."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, SideReady
from campaign.services.schedule import mark_side_ready

HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db


def ready_sides(campaign: Campaign) -> set[str]:
    return set(SideReady.objects.filter(campaign=campaign).values_list("side", flat=True))


def test_a_player_takes_back_ready(campaign: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    client.post(f"/campaigns/{campaign.pk}/orders/ready/")
    page = client.get(f"/campaigns/{campaign.pk}/orders/").content.decode()
    assert "Unready" in page
    answer = client.post(f"/campaigns/{campaign.pk}/orders/unready/", **HTMX)
    assert answer.status_code == 200
    assert ready_sides(campaign) == set()
    assert "are ready</button>" in answer.content.decode()  # the ready button is back


def test_without_htmx_it_returns_to_the_page(campaign: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    client.post(f"/campaigns/{campaign.pk}/orders/ready/")
    answer = client.post(f"/campaigns/{campaign.pk}/orders/unready/")
    assert answer.status_code == 302 and answer.url.endswith("#ready")
    assert ready_sides(campaign) == set()


def test_unready_touches_only_the_players_own_side(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    mark_side_ready(campaign=campaign, side="japanese")
    login(aussie).post(f"/campaigns/{campaign.pk}/orders/unready/", **HTMX)
    assert ready_sides(campaign) == {"japanese"}


def test_too_late_once_every_side_is_ready(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    mark_side_ready(campaign=campaign, side="japanese")
    mark_side_ready(campaign=campaign, side="australian")
    answer = login(aussie).post(f"/campaigns/{campaign.pk}/orders/unready/", **HTMX)
    assert answer.status_code == 422
    assert "every side is ready" in answer.content.decode()
    assert ready_sides(campaign) == {"japanese", "australian"}


def test_too_late_while_the_turn_is_being_played(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    mark_side_ready(campaign=campaign, side="australian")
    Campaign.objects.filter(pk=campaign.pk).update(due_turn=1)
    answer = login(aussie).post(f"/campaigns/{campaign.pk}/orders/unready/", **HTMX)
    assert answer.status_code == 422 and "being played" in answer.content.decode()
    assert ready_sides(campaign) == {"australian"}


def test_the_gm_has_no_ready_to_take_back(campaign: Campaign, gm_user: Any, login: Any) -> None:
    answer = login(gm_user).post(f"/campaigns/{campaign.pk}/orders/unready/", **HTMX)
    assert answer.status_code == 422
