"""Who took a side's "ready" back ("Unready") is the side's own knowledge, as who marked
it is: its teammates read the name; another side learns only which sides are ready
(rulings section 6). So two campaigns that differ only in which Australian took the
side's "ready" back look the same, byte for byte, to the Japanese player, on every page,
poll and API answer that shows the sides ready; the Australians read the difference (the
test can fail)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Campaign
from tests.fog.crawl import normalise
from tests.web.conftest import *  # noqa: F403
from tests.web.conftest import aussie, campaign, japanese, join, login  # noqa: F401

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def bob(django_user_model: Any, campaign: Campaign) -> Any:  # noqa: F811
    mate = django_user_model.objects.create_user("bob", password="a long password 1")
    join(mate, campaign, "australian")
    return mate


def seen_by(user: Any, campaign: Campaign, sign_in: Any) -> dict[str, bytes]:  # noqa: F811
    """The pages, polls and API answers that show which sides are ready, as ``user``
    reads them (without the CSRF tokens, new in every answer)."""
    client = sign_in(user)
    pk = campaign.pk
    seen = {
        url: normalise(client.get(url).content)
        for url in (
            reverse("orders", args=[pk]),
            reverse("campaign-map", args=[pk]),
            reverse("campaigns"),
            f"/api/campaigns/{pk}/ready/",
            f"/api/campaigns/{pk}/",
        )
    }
    watch = reverse("orders-watch", args=[pk]) + "?seen=1.stale"
    seen[watch] = normalise(client.get(watch, **HTMX).content)
    return seen


def taken_back_by(
    marker: Any, taker: Any, reader: Any, game: Campaign, sign_in: Any
) -> dict[str, bytes]:
    """``marker`` marks the Australians ready, ``taker`` takes it back; what ``reader``
    reads then."""
    ready = reverse("orders-ready", args=[game.pk])
    unready = reverse("orders-unready", args=[game.pk])
    assert sign_in(marker).post(ready, {"turn": "1"}).status_code == 302
    assert sign_in(taker).post(unready, {"turn": "1"}).status_code == 302
    return seen_by(reader, game, sign_in)


def test_who_took_a_sides_ready_back_tells_the_enemy_nothing(
    campaign: Campaign,  # noqa: F811
    aussie: Any,  # noqa: F811
    bob: Any,
    japanese: Any,  # noqa: F811
    login: Any,  # noqa: F811
) -> None:
    by_bob = taken_back_by(aussie, bob, japanese, campaign, login)
    by_aussie = taken_back_by(bob, aussie, japanese, campaign, login)
    assert by_bob == by_aussie
    assert not any(b"bob" in page or b"taken back" in page for page in by_bob.values())
    # The Australians read who took it back: there, the twins differ.
    by_bob = taken_back_by(aussie, bob, aussie, campaign, login)
    by_aussie = taken_back_by(bob, aussie, aussie, campaign, login)
    orders = reverse("orders", args=[campaign.pk])
    assert by_bob[orders] != by_aussie[orders]
    assert b"then taken back by bob." in by_bob[orders]
    assert b"then taken back by you." in by_aussie[orders]
