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
