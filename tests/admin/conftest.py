"""The GM's admin through its own views: a staff superuser's client, a player's client."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from datetime import time
from typing import Any

import pytest
from django.test import Client

from battles.models import Battle
from campaign.models import Campaign
from campaign.services.adjustments import campaign_version
from campaign.services.deadlines import Schedule
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import change_schedule
from campaign.services.turns import advance_turn
from tests.campaign.conftest import korona_doc


@pytest.fixture
def gm_user(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("gm", "gm@example.com", "pw")


@pytest.fixture
def gm(gm_user: Any) -> Client:
    client = Client()
    client.force_login(gm_user)
    return client


@pytest.fixture
def player(django_user_model: Any) -> Client:
    """Logged in, but not staff: every admin view sends them to the login page."""
    client = Client()
    client.force_login(django_user_model.objects.create_user("player", "p@example.com", "pw"))
    return client


def new_campaign(name: str = "Korona 1", *, doc: dict[str, Any] | None = None, **settings: Any):
    campaign = create_campaign(data=doc or korona_doc(), name=name, seed=1)
    if settings:
        campaign.set_settings(replace(campaign.get_settings(), **settings))
        campaign.save(update_fields=["settings"])
    return campaign


def meeting_doc() -> dict[str, Any]:
    """Korona with both Japanese companies of Oivi in Korona: two battles there on turn 1
    (1:Korona:1, 1st Company attacking A Company; 1:Korona:2, 2nd on B Company)."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["name"] in ("1st Company", "2nd Company"):
            company["area"] = "Korona"
    return doc


def waiting_campaign(name: str = "Korona 1") -> tuple[Campaign, dict[str, Battle]]:
    """A campaign whose turn 1 waits for its two tabletop battles."""
    campaign = new_campaign(name, doc=meeting_doc(), battle_mode="tabletop")
    advance_turn(campaign_id=campaign.pk)
    return campaign, {b.key: b for b in Battle.objects.filter(campaign=campaign)}


def assert_refused(response: Any) -> None:
    """A non-staff user is sent to the admin's login page."""
    assert response.status_code == 302
    assert response.url.startswith("/admin/login/")


def opened(client: Client, url: str) -> dict[str, str]:
    """Open a GM page (a browser tab) and read what its forms send back unseen: the
    hidden fields, such as the campaign as the page showed it (``seen``, ``turn``)."""
    return hidden_fields(client.get(url).content.decode())


def pressed_pause(
    client: Client, campaign: Any, button: str, reason: str = "", **kwargs: Any
) -> Any:
    """Press the campaign's Pause or Resume (``button``) as the GM does: its page, then
    its form sent with ``reason`` (a pause's is asked for; "holidays" unless given)."""
    url = f"/admin/campaign/campaign/{campaign.pk}/{button}/"
    reason = reason or ("holidays" if button == "pause" else "")
    return client.post(url, {**opened(client, url), "reason": reason}, **kwargs)


def entered(client: Client, url: str, data: dict[str, Any], **kwargs: Any) -> Any:
    """Press "Enter result" on a battle's result form as the GM does, twice: the first
    press shows the result in words and enters nothing; the second, sending back the
    result the page showed (``checked``), enters it. A first press refused (or sent
    away) is the answer."""
    first = client.post(url, data, **kwargs)
    shown = hidden_fields(first.content.decode()).get("checked") if first.status_code == 200 else ""
    if not shown:
        return first
    return client.post(url, {**data, "checked": shown}, **kwargs)


def hidden_fields(page: str) -> dict[str, str]:
    found = {}
    for tag in re.findall(r'<input type="hidden"[^>]*>', page):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and value and name.group(1) != "csrfmiddlewaretoken":
            found[name.group(1)] = html.unescape(value.group(1))
    return found


# A weekly schedule the walk-throughs used: Sunday evenings in Sydney.
SUNDAY_EVENINGS = Schedule(
    kind="weekly", weekday=6, time_of_day=time(19, 0), timezone="Australia/Sydney"
)


def play_sunday_evenings(campaign: Campaign, user: Any) -> None:
    """Give ``campaign`` the schedule SUNDAY_EVENINGS, as the GM's Schedule page does."""
    change_schedule(
        campaign=campaign,
        schedule=SUNDAY_EVENINGS,
        reason="we play Sunday evenings",
        user=user,
        seen=campaign_version(campaign.pk),
    )


def every_48_hours(campaign: Campaign, user: Any) -> None:
    """Give ``campaign`` a turn every 48 hours, as the GM's Schedule page does (``user``
    None: with no one at the keyboard)."""
    change_schedule(
        campaign=campaign,
        schedule=Schedule(kind="every_hours", every_hours=48),
        reason="a turn every two days",
        user=user,
        seen=None,
    )
