"""The players' pages' headings go down one level at a time (an h2 is followed by an h3,
never an h4): a screen reader's list of headings is the page's outline."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from battles.models import Battle
from campaign.models import Area, Campaign, Company

pytestmark = pytest.mark.django_db


def player_pages(campaign: Campaign) -> list[str]:
    battle = Battle.objects.filter(campaign=campaign, status="fought").order_by("id").first()
    assert battle is not None
    company = Company.objects.filter(campaign=campaign, side="australian").order_by("id").first()
    area = Area.objects.filter(campaign=campaign).order_by("id").first()
    assert company is not None and area is not None
    return [
        reverse("campaign-map", args=[campaign.pk]),
        reverse("turns", args=[campaign.pk]),
        reverse("battles", args=[campaign.pk]),
        reverse("turn", args=[campaign.pk, 1]),
        reverse("battle", args=[campaign.pk, battle.pk]),
        reverse("battle-sheet", args=[campaign.pk, battle.pk]),
        reverse("orders", args=[campaign.pk]),
        reverse("messages", args=[campaign.pk]),
        reverse("company", args=[campaign.pk, company.pk]),
        reverse("area", args=[campaign.pk, area.pk]),
    ]


def test_headings_skip_no_level(played: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    for url in player_pages(played):
        response = client.get(url)
        assert response.status_code == 200, url
        levels = [int(n) for n in re.findall(r"<h([1-6])\b", response.content.decode())]
        assert levels and levels[0] == 1, (url, levels)
        skips = [(a, b) for a, b in zip(levels, levels[1:], strict=False) if b > a + 1]
        assert not skips, (url, levels)
