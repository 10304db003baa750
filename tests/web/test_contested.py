"""A walk-through: the map tagged Korona "AUS" while Japanese companies fought in it. An
area where the reader sees both sides' fighting companies is marked contested: its tag
("AUS, contested"), its title, its line in the list, its page and the legend."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Campaign
from campaign.services.scenarios import create_campaign
from tests.web.conftest import join, meeting_doc

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def tags(html: str) -> dict[str, str]:
    """Each area's tag on the map, by the area's name (from its title)."""
    found = {}
    for area in re.finditer(r"<title>([^:<]+): zone.*?</title>(.*?)</g>", html, re.S):
        words = re.search(r'class="holder-words"[^>]*>([^<]*)<', area.group(2))
        if words:
            found[area.group(1)] = words.group(1)
    return found


@pytest.fixture
def meeting(db: Any, aussie: Any, japanese: Any) -> Campaign:
    """Korona with the Japanese 1st and 2nd Company in Korona beside A and B Company."""
    campaign = create_campaign(data=meeting_doc(), name="Meeting", seed=1)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    return campaign


@pytest.mark.parametrize("reader", ["aussie", "japanese", "gm_user"])
def test_an_area_with_both_sides_fighting_companies_is_tagged_contested(
    meeting: Campaign, reader: str, login: Any, request: pytest.FixtureRequest
) -> None:
    client = login(request.getfixturevalue(reader))
    html = client.get(f"/campaigns/{meeting.pk}/").content.decode()
    shown = tags(html)
    assert shown["Korona"] == "AUS, contested"
    assert [name for name, tag in shown.items() if "contested" in tag] == ["Korona"]
    assert "Korona: zone 5, Korona track, held by the Australians, contested" in html
    assert 'data-holder-key="contested"' in html  # the legend's line
    korona = meeting.areas.get(name="Korona")
    page = client.get(f"/campaigns/{meeting.pk}/areas/{korona.pk}/").content.decode()
    assert "contested: both sides' fighting companies are here" in page


def test_no_area_is_contested_while_the_sides_stand_apart(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    html = login(aussie).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert tags(html)["Korona"] == "AUS"
    assert "contested" not in html
