"""Fixtures for the players' pages and the API: a campaign, its GM and its players.

- ``gm_user``: staff, sees everything; ``aussie``/``japanese``: members playing a side;
  ``outsider``: signed in but in no campaign.
- ``campaign``: the Korona reference scenario, nothing played (fog of war on).
- ``played``: Korona with both Japanese companies moved into Korona, two turns played,
  so there are battles, supply rolls and enemy companies in sight.
- ``big_campaign``: Korona with 10x the companies, for the pinned query counts.
- ``login(user)`` gives a signed-in test client.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from campaign.models import Campaign, Membership
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.campaign.conftest import korona_doc, with_more_companies

PASSWORD = "a long password for tests"


def meeting_doc() -> dict[str, Any]:
    """Korona with the Japanese companies of Oivi already in Korona: battles on turn 1."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["name"] in ("1st Company", "2nd Company"):
            company["area"] = "Korona"
    return doc


def crowded_doc() -> dict[str, Any]:
    """Korona with every company there twice (the AI's orders), the Australians' A and
    B in Ioro beside their C in Isura, the Japanese 1st and 2nd next door in Korona:
    columns of chips under three neighbouring areas from the start, two of them four
    chips deep (three and a "+N more")."""
    doc = with_more_companies(korona_doc(standing_order=None), times=2)
    areas = {
        "A Company": "Ioro",
        "B Company": "Ioro",
        "C Company (militia)": "Isura",
        "1st Company": "Korona",
        "2nd Company": "Korona",
    }
    for company in doc["companies"]:
        name = company["name"].split(" #")[0]
        company["area"] = areas.get(name, company["area"])
    return doc


def join(user: Any, campaign: Campaign, side: str) -> Membership:
    return Membership.objects.create(user=user, campaign=campaign, side=side)


@pytest.fixture
def gm_user(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("gm", "gm@example.com", PASSWORD, is_staff=True)


@pytest.fixture
def aussie(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("aussie", "a@example.com", PASSWORD)


@pytest.fixture
def japanese(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("japanese", "j@example.com", PASSWORD)


@pytest.fixture
def outsider(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("outsider", "o@example.com", PASSWORD)


@pytest.fixture
def login() -> Callable[[Any], Client]:
    def signed_in(user: Any) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return signed_in


def _members(campaign: Campaign, aussie: Any, japanese: Any) -> Campaign:
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    return campaign


@pytest.fixture
def campaign(db: Any, aussie: Any, japanese: Any) -> Campaign:
    return _members(create_campaign(data=korona_doc(), name="Korona", seed=1), aussie, japanese)


@pytest.fixture
def played(db: Any, aussie: Any, japanese: Any) -> Campaign:
    # Seed 13: after two turns the Japanese hold Korona, the 1st Company has fallen back to
    # Oivi (out of the Australians' sight, in Isura) and the 3rd waits in Kilu. (Seed 7
    # did that before supply replaced battle losses and the AI deployed snipers, seed 3
    # before each roll group had its own stream of dice.)
    campaign = create_campaign(data=meeting_doc(), name="Korona played", seed=13)
    for _ in range(2):
        advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    return _members(campaign, aussie, japanese)


@pytest.fixture
def big_campaign(db: Any, aussie: Any, japanese: Any) -> Campaign:
    """10x the companies of Korona, one turn played: for the pinned query counts."""
    doc = with_more_companies(meeting_doc(), times=10)
    campaign = create_campaign(data=doc, name="Korona x10", seed=3)
    advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    return _members(campaign, aussie, japanese)


def whole_json_read(sql: str, table: str, columns: tuple[str, ...]) -> list[str]:
    """Which of ``columns`` (JSON columns of ``table``) a query selects whole: named in its
    select list, not only inside a key's extraction (``JSON_EXTRACT("t"."c", ...)`` on
    SQLite, ``("t"."c" -> ...)`` on PostgreSQL), which reads the keys a page shows."""
    whole = r'(SELECT|,)\s*(DISTINCT\s+)?"{table}"\."{column}"\s*(AS\s+"\w+"\s*)?(,|FROM)'
    return [
        column for column in columns if re.search(whole.format(table=table, column=column), sql)
    ]
