"""A player's pages give every moment on the campaign's clock, its zone named, as they give
its deadline: a turn played, a GM change, a message, a turn's dice commitment. Before,
they were the server's UTC, unnamed, beside a deadline in Sydney time."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Campaign, Company, GmAdjustment, Turn
from campaign.services.adjustments import adjust_stands
from notifications.models import Message

pytestmark = pytest.mark.django_db

# 08:07 UTC on 6 December is 19:07 in Sydney (daylight time, UTC+11).
MOMENT = datetime(2026, 12, 6, 8, 7, tzinfo=UTC)
SYDNEY = "Sun 6 Dec 2026, 19:07 AEDT"


def test_a_players_pages_give_moments_on_the_campaigns_clock(
    played: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    played.timezone = "Australia/Sydney"
    played.save(update_fields=["timezone"])
    Turn.objects.filter(campaign=played, number=1).update(finished_at=MOMENT)
    adjust_stands(
        company=Company.objects.get(campaign=played, name="A Company"),
        unit_type="rifle_squad",
        held=5,
        reason="dysentery in the ranks",
        user=gm_user,
    )
    GmAdjustment.objects.filter(campaign=played).update(created_at=MOMENT)
    message = Message.objects.create(
        campaign=played, channel="public", author=gm_user, text="Good hunting"
    )
    Message.objects.filter(pk=message.pk).update(created_at=MOMENT)
    client = login(aussie)
    # The turns page gives turn 1's time and the GM's change before the coming turn.
    pages = {
        "turns": (reverse("turns", args=[played.pk]), 2),
        "turn 1": (reverse("turn", args=[played.pk, 1]), 1),
        "messages": (f"/campaigns/{played.pk}/messages/", 1),
        "the map's messages": (f"/campaigns/{played.pk}/messages/latest/", 1),
    }
    for name, (address, times) in pages.items():
        answer = client.get(address)
        assert answer.status_code == 200, name
        text = answer.content.decode()
        assert text.count(SYDNEY) == times, name
        assert ", 08:07" not in text, name  # (a <time> keeps its ISO moment, in UTC)


def test_a_deadline_names_its_zone_as_the_other_times_do_and_the_map_says_it_in_full_once(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """The deadline read "Sun 6 Dec 2026, 19:07 Australia/Sydney" on the map and the
    campaign list, "Sun 6 Dec, 19:07 (Australia/Sydney)" on the orders page, beside
    times read "AEDT". Now it reads as they do; where a player reads the campaign's
    clock (the map's deadline, each campaign's on the list) the zone is named in full,
    once."""
    deadline = datetime(2031, 12, 6, 8, 7, tzinfo=UTC)  # ahead: not yet due
    Campaign.objects.filter(pk=played.pk).update(
        timezone="Australia/Sydney", next_deadline=deadline
    )
    client = login(aussie)
    on_clock = "Sat 6 Dec 2031, 19:07 AEDT"
    in_full = f"{on_clock}, Australia/Sydney time"
    pages = {
        "map": (reverse("campaign-map", args=[played.pk]), 1),
        "campaign list": (reverse("campaigns"), 1),
        "orders": (reverse("orders", args=[played.pk]), 0),
    }
    for name, (address, zone_named) in pages.items():
        answer = client.get(address)
        assert answer.status_code == 200, name
        text = answer.content.decode()
        assert on_clock in text, name
        assert text.count("Australia/Sydney") == zone_named, name
        assert text.count(in_full) == zone_named, name
