"""The GM's battle report (admin): who attacked whom in the campaign's words, the
battle's state, its log, and the way to the players' page of the battle."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle
from campaign.services.turns import advance_turn
from tests.admin.conftest import meeting_doc, new_campaign, waiting_campaign

pytestmark = pytest.mark.django_db


def report(gm: Client, battle: Battle) -> str:
    response = gm.get(f"/admin/battles/battle/{battle.pk}/report/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_fought_battles_report_says_who_attacked_whom_and_links_the_players_page(
    gm: Client,
) -> None:
    campaign = new_campaign(doc=meeting_doc())
    advance_turn(campaign_id=campaign.pk)
    battle = Battle.objects.filter(campaign=campaign).order_by("key").first()
    page = report(gm, battle)
    assert (
        "The <strong>Japanese</strong> attacked the <strong>Australians</strong> at Korona: "
        "fought by the rules.</p>" in page
    )
    assert f'href="/campaigns/{campaign.pk}/battles/{battle.pk}/"' in page
    assert gm.get(f"/campaigns/{campaign.pk}/battles/{battle.pk}/").status_code == 200
    # Its log, turn by turn in the players' page's words: the first terrain square by its
    # name on the sheet, never by its indices; moves between squares, not inches.
    assert "<summary>Set-up</summary>" in page and "<summary>Turn 1</summary>" in page
    assert "square A1: 2d6" in page and "square 0,0" not in page
    assert " moves from (" not in page


def test_a_tabletop_battle_not_fought_yet_says_so(gm: Client) -> None:
    campaign, battles = waiting_campaign()
    page = report(gm, battles["1:Korona:1"])
    assert (
        "at Korona: not fought yet, to be fought on the table (the game master enters each "
        "result)." in page
    )
    assert "No log: not fought yet." in page
