"""Who marked the side's orders ready, on the side's own orders page: a walk-through's
player read "Your side's orders are marked ready" after a teammate pressed it, and could
not tell who had. A teammate's user name is the side's own (rulings section 6); the
other side reads only that a side is ready, as before."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from campaign.models import Campaign, SideReady
from tests.web.conftest import join

pytestmark = pytest.mark.django_db


@pytest.fixture
def teammate(django_user_model: Any, campaign: Campaign) -> Any:
    mate = django_user_model.objects.create_user("bob", password="a long password 1")
    join(mate, campaign, "australian")
    return mate


def orders_of(client: Client, campaign: Campaign) -> str:
    return client.get(f"/campaigns/{campaign.pk}/orders/").content.decode()


def test_a_teammates_ready_names_who_marked_it(
    campaign: Campaign, aussie: Any, teammate: Any, japanese: Any, login: Any
) -> None:
    answer = login(teammate).post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"})
    assert answer.status_code in (200, 302)
    assert SideReady.objects.get(campaign=campaign).marked_by == teammate
    assert "Your side's orders are marked ready by bob." in orders_of(login(aussie), campaign)
    assert "Your side's orders are marked ready by you." in orders_of(login(teammate), campaign)
    assert "bob" not in orders_of(login(japanese), campaign)


def test_a_ready_marked_through_the_api_names_who_marked_it_too(
    campaign: Campaign, aussie: Any, teammate: Any, login: Any
) -> None:
    client = login(teammate)
    answer = client.post(
        f"/api/campaigns/{campaign.pk}/ready/", {}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    assert "marked ready by bob." in orders_of(login(aussie), campaign)


def test_a_ready_kept_before_who_marked_it_was_reads_as_before(
    campaign: Campaign, aussie: Any, teammate: Any, login: Any
) -> None:
    SideReady.objects.create(campaign=campaign, side="australian", turn_number=1)
    page = orders_of(login(aussie), campaign)
    assert "Your side's orders are marked ready. You may still change them" in page


def test_a_teammates_unready_names_who_took_it_back_to_the_side_only(
    campaign: Campaign, aussie: Any, teammate: Any, japanese: Any, login: Any
) -> None:
    """A teammate's "ready" was named ("marked ready by bob"), their "Unready" was not: the
    side's page went back to "not ready yet", and aussie could not tell who had taken
    it back."""
    login(aussie).post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"})
    answer = login(teammate).post(f"/campaigns/{campaign.pk}/orders/unready/", {"turn": "1"})
    assert answer.status_code == 302
    assert not SideReady.objects.filter(campaign=campaign).exists()
    assert "Your side's orders were marked ready, then taken back by bob." in orders_of(
        login(aussie), campaign
    )
    assert "then taken back by you." in orders_of(login(teammate), campaign)
    enemy = orders_of(login(japanese), campaign)
    assert "bob" not in enemy and "taken back" not in enemy
    # Marked ready again, the side reads who marked it, not who took it back before.
    login(aussie).post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"})
    page = orders_of(login(teammate), campaign)
    assert "Your side's orders are marked ready by aussie." in page
    assert "taken back" not in page


def test_an_unready_through_the_api_names_who_took_it_back_too(
    campaign: Campaign, aussie: Any, teammate: Any, login: Any
) -> None:
    login(aussie).post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"})
    answer = login(teammate).delete(f"/api/campaigns/{campaign.pk}/ready/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["taken_back"] is True
    assert "then taken back by bob." in orders_of(login(aussie), campaign)
