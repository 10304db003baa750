"""What the GM does through Korona's own admin pages (play a turn, pause, change a
company's stands, enter or fight a battle's result) lands in the admin's log: the home
page's "Recent actions" and each row's History list it, in the words the GM was told.
The services change the rows, so the admin's own logging (of its forms) never saw them."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.test import Client

from battles.models import Battle
from battles.web.forces import battle_words
from campaign.models import Campaign, Company
from campaign.services.rollback import rollback_to_turn
from campaign.services.turns import advance_turn
from tests.admin.conftest import (
    entered,
    meeting_doc,
    new_campaign,
    opened,
    pressed_pause,
    waiting_campaign,
)
from tests.admin.test_campaign_admin import CHOICES
from tests.admin.test_stale_pages import result_data

pytestmark = pytest.mark.django_db


def logged(obj: Any) -> list[str]:
    rows = LogEntry.objects.filter(object_id=str(obj.pk), action_flag=CHANGE).order_by("id")
    return [row.get_change_message() for row in rows if row.content_type.model_class() is type(obj)]


def test_playing_a_turn_and_pausing_are_recent_actions(gm: Client) -> None:
    campaign = new_campaign()
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    gm.post(f"/admin/campaign/campaign/{campaign.pk}/advance/", opened(gm, page))
    pressed_pause(gm, campaign, "pause")
    paused = (
        "Korona 1: Campaign paused: no turn is played until the game master resumes it (they "
        "may still play one by hand). Every player is told."
    )
    assert logged(Campaign.objects.get()) == [
        "Korona 1: turn 1 played. Battles: none.",  # the message's link to its log: no record
        paused,
    ]
    home = gm.get("/admin/").content.decode()
    assert "Recent actions" in home and "None available" not in home
    assert f'href="/admin/campaign/campaign/{campaign.pk}/change/"' in home
    # Each with what was done (not only "Changed: Korona 1, Campaign").
    assert "Korona 1: turn 1 played. Battles: none." in home and paused in html.unescape(home)


def test_a_gm_adjustment_is_a_recent_action(gm: Client) -> None:
    campaign = new_campaign()
    company = Company.objects.get(campaign=campaign, name="A Company")
    url = f"/admin/campaign/company/{company.pk}/adjust/"
    data = {**opened(gm, url), "unit_type": "rifle_squad", "held": 8, "reason": "dysentery"}
    response = gm.post(url, data, follow=True)
    # What changed, not only "stands adjusted" (a walk-through could not tell).
    said = "A Company: rifle squads from 9 to 8."
    assert [str(m) for m in response.context["messages"]] == [said]
    assert logged(company) == [said]
    # The box says it takes the count held after the change, not the stands lost.
    page = gm.get(url).content.decode()
    assert "How many of that type the company holds after your change" in page


def test_fighting_a_waiting_battle_is_a_recent_action(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    gm.post(f"/admin/battles/battle/{battle.pk}/fight/")
    assert logged(battle) == [
        "The battle at Korona: the Japanese 1st Company attacks the Australians' A Company was "
        "fought by the rules."
    ]


def test_recent_actions_show_an_apostrophe_as_one(gm: Client) -> None:
    """The message's HTML escapes were kept in the log, then escaped again on the home
    page: "attacks the Australians&#x27; C Company" (a walk-through)."""
    doc = meeting_doc()
    for company in doc["companies"]:
        if company["name"] == "B Company":
            company["name"] = "O'Hara's Company"
    campaign = new_campaign(doc=doc, battle_mode="tabletop")
    advance_turn(campaign_id=campaign.pk)
    battle = Battle.objects.get(campaign=campaign, key="1:Korona:1")
    url = f"/admin/battles/battle/{battle.pk}/result/"
    entered(gm, url, {**opened(gm, url), **result_data(battle, "defender")})
    (said,) = logged(battle)
    assert "attacks the Australians' O'Hara's Company (enter its result)." in said
    home = gm.get("/admin/").content.decode()
    assert "Australians&#x27; O&#x27;Hara&#x27;s Company (enter its result)" in home
    assert "&amp;#x27;" not in home


def test_creating_a_campaign_logs_words_not_copy_buttons(gm: Client) -> None:
    data = {**CHOICES, "name": "Table test", "seed": "7"}
    response = gm.post("/admin/campaign/campaign/create/", data)
    assert response.status_code == 302, response.context["form"].errors
    campaign = Campaign.objects.get(name="Table test")
    (said,) = logged(campaign)
    assert said == (
        "Created Table test (seed 7), with an invitation link for each side: Australians, Japanese."
    )
    assert "Copy" not in gm.get("/admin/").content.decode().split("Recent actions")[1]


def test_a_battle_a_roll_back_removed_is_listed_without_a_link(gm: Client) -> None:
    """A link to it landed on Django's "Battle with ID “5” doesn’t exist" (a walk-through)."""
    campaign, battles = waiting_campaign()
    for fought in battles.values():
        gm.post(f"/admin/battles/battle/{fought.pk}/fight/")
    battle = battles["1:Korona:1"]
    name = html.escape(battle_words(battle))
    home = gm.get("/admin/").content.decode()
    assert f'href="/admin/battles/battle/{battle.pk}/change/"' in home
    rollback_to_turn(campaign=campaign, number=1, reason="a mistake", user=None)
    assert not Battle.objects.filter(pk=battle.pk).exists()
    home = gm.get("/admin/").content.decode()
    assert f'href="/admin/battles/battle/{battle.pk}/change/"' not in home
    gone = "(no longer there: a roll-back or a deletion removed it)"
    assert f'{name} <span class="quiet">{gone}</span>' in home


def test_recent_actions_name_a_battle_as_the_gms_pages_do_now(gm: Client) -> None:
    """The log kept a battle's ``__str__`` ("1: battle 1 at Korona"), where every GM page
    names it "At Korona: the Japanese 1st Company attacks the Australians' A Company":
    an entry names a battle still there as it is called now (an entry written before
    included), and a new entry keeps that name, so it stays once the battle is gone."""
    campaign, battles = waiting_campaign()
    first, second = battles["1:Korona:1"], battles["1:Korona:2"]
    gm.post(f"/admin/battles/battle/{first.pk}/fight/")
    # An entry the log kept before battles were named so, for a battle still there.
    (entry,) = LogEntry.objects.filter(object_id=str(first.pk))
    LogEntry.objects.filter(pk=entry.pk).update(object_repr=str(first))
    gm.post(f"/admin/battles/battle/{second.pk}/fight/")
    (kept,) = LogEntry.objects.filter(object_id=str(second.pk))
    assert kept.object_repr == battle_words(second)
    home = html.unescape(gm.get("/admin/").content.decode()).split("Recent actions")[1]
    for battle in (first, second):
        assert f'/admin/battles/battle/{battle.pk}/change/">{battle_words(battle)}</a>' in home
    assert ": battle 1 at Korona" not in home and ": battle 2 at Korona" not in home
    # Gone: the old entry keeps the name it was written with, the new one the new name.
    rollback_to_turn(campaign=campaign, number=1, reason="a mistake", user=None)
    home = html.unescape(gm.get("/admin/").content.decode()).split("Recent actions")[1]
    gone = "(no longer there: a roll-back or a deletion removed it)"
    assert f'{battle_words(second)} <span class="quiet">{gone}</span>' in home
    assert f'1: battle 1 at Korona <span class="quiet">{gone}</span>' in home
