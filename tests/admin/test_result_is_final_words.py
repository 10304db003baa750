"""How a battle's result is put right: the result form says so before it is sent, and a
fought battle's page says how (a correction until the next turn, then a roll-back of its
turn), in words that match what a roll-back does. A walk-through entered a result and
found neither."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client

from battles.models import Battle
from campaign.services.rollback import rollback_to_turn
from campaign.services.turns import advance_turn
from tests.admin.conftest import entered, hidden_fields, opened, waiting_campaign
from tests.admin.test_stale_pages import result_data

pytestmark = pytest.mark.django_db

FINAL = 'Read the result over before you press "Enter result": the turn goes on with it.'
# A result typed in wrong is corrected until the next turn is played
# (tests/admin/test_correct_result.py); after that, only by a roll-back.
TYPED = (
    'A result typed in wrong is corrected with "Correct the result" on the battle\'s page '
    "until turn 2 is played: turn 1 is then played again with the same dice"
)
CORRECT = (
    "roll the campaign back</a> to the start of turn 1: that undoes turn 1 and any later "
    "turn, with every battle in them and its result. Turn 1 is then played again from the "
    'orders already given (when you press "Advance turn now", or once every side is ready '
    "again), and each of its battles waits for you to enter its result again. If the turn "
    "was complete, it is played with new dice"
)


# Then, in that order, what is left once the correction is not offered: the walk of 7
# December 2026 read "Once turn 2 has been played, only a roll-back changes it. To correct
# a mistake, roll the campaign back ...", as if a roll-back were the way now.
THEN = (
    'Once turn 2 has been played, "Correct the result" is no longer offered, and the only '
    'way to change the result is to <a href="'
)


def words(page: bytes) -> str:
    return html.unescape(page.decode())


def test_the_result_form_says_before_sending_that_the_result_is_final(gm: Client) -> None:
    campaign, battles = waiting_campaign()
    page = words(gm.get(f"/admin/battles/battle/{battles['1:Korona:1'].pk}/result/").content)
    assert FINAL in page and TYPED in page and CORRECT in page
    assert page.index(TYPED) < page.index(THEN) < page.index(CORRECT)
    assert "To correct a mistake" not in page
    # Said above the button that sends it.
    assert page.index(FINAL) < page.index('value="Enter result"')
    rollback = f"/admin/campaign/campaign/{campaign.pk}/rollback/?number=1"
    assert f'<a href="{rollback}">roll the campaign back</a>' in page
    assert "back to the start of turn 1" in words(gm.get(rollback).content)


def test_a_fought_battles_page_says_how_to_correct_a_mistake(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    change = f"/admin/battles/battle/{battle.pk}/change/"
    assert "This result is final." not in words(gm.get(change).content)  # none yet
    url = f"/admin/battles/battle/{battle.pk}/result/"
    entered(gm, url, {**opened(gm, url), **result_data(battle, "defender")})
    page = words(gm.get(change).content)
    assert "This result is final." not in page  # until turn 2 is played
    assert TYPED in page and CORRECT in page
    assert page.index(TYPED) < page.index(THEN) < page.index(CORRECT)
    assert "To correct a mistake" not in page


def test_what_the_words_say_a_roll_back_does_it_does(gm: Client) -> None:
    """A complete turn rolled back is played again from its orders, and its battles wait
    for their results again, none of them entered."""
    campaign, battles = waiting_campaign()
    for battle in battles.values():
        url = f"/admin/battles/battle/{battle.pk}/result/"
        entered(gm, url, {**opened(gm, url), **result_data(battle, "defender")})
    assert not Battle.objects.filter(status=Battle.Status.PENDING).exists()
    rollback_to_turn(campaign=campaign, number=1, reason="a result entered wrong")
    assert not Battle.objects.filter(campaign=campaign).exists()
    advance_turn(campaign_id=campaign.pk)
    again = Battle.objects.filter(campaign=campaign)
    assert again.exists()
    assert {b.status for b in again} == {Battle.Status.PENDING}


def test_the_first_press_shows_the_result_in_words_and_enters_nothing(gm: Client) -> None:
    """The walk-through entered the wrong winner in one click; correcting it cost a
    roll-back and a turn played again with new dice. The first press now shows the result
    as it will read; only the same result pressed again is entered."""
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    url = f"/admin/battles/battle/{battle.pk}/result/"
    data = {**result_data(battle, "attacker"), "defender__rifle_squad": 6, "defender__commander": 1}
    first = gm.post(url, {**opened(gm, url), **data})
    assert first.status_code == 200
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.PENDING
    page = words(first.content)
    assert "Nothing is entered yet. Check the result as it will read" in page
    assert "The attacker, 1st Company (Japanese), wins the battle." in page
    assert "The defender, A Company (Australians), loses: its companies withdraw" in page
    assert "The defender lost 1 commander and 6 rifle squads." in page
    assert "The attacker lost no stands." in page
    assert 'press "Enter result" again to enter it' in page
    shown = opened_from(first)
    # The GM sees the wrong winner and corrects it: shown again, still nothing entered.
    fixed = {**data, "winner": "defender", "defender__rifle_squad": 0, "defender__commander": 0}
    second = gm.post(url, {**shown, **fixed})
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.PENDING
    assert "The defender, A Company (Australians), wins the battle." in words(second.content)
    # The same result pressed again is entered.
    third = gm.post(url, {**opened_from(second), **fixed})
    assert third.status_code == 302
    assert Battle.objects.get(pk=battle.pk).result["winner"] == "defender"


def test_a_result_the_rules_refuse_is_said_before_the_check(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    url = f"/admin/battles/battle/{battle.pk}/result/"
    data = {"winner": "attacker"}
    for side in ("attacker", "defender"):
        for unit, count in battle.spec[side]["stands"].items():
            data[f"{side}__{unit}"] = count if side == "attacker" else 0
    page = words(gm.post(url, data).content)
    assert "The attacker cannot have won" in page and "Check the result" not in page


def opened_from(response: Any) -> dict[str, str]:
    return hidden_fields(response.content.decode())
