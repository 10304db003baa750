"""The GM's "Correct the result" of a tabletop battle: the result form prefilled with the
result entered, its check step, a reason, and the turn played again with the same dice."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client

from battles.models import Battle
from campaign.models import Campaign, GmAdjustment, Turn
from campaign.services.turns import advance_turn
from tests.admin.conftest import entered, hidden_fields, opened, waiting_campaign
from tests.admin.test_stale_pages import result_data

pytestmark = pytest.mark.django_db


def words(page: bytes) -> str:
    return html.unescape(page.decode())


def url(battle: Battle, page: str) -> str:
    return f"/admin/battles/battle/{battle.pk}/{page}/"


def played_turn(gm: Client) -> tuple[Campaign, dict[str, Battle]]:
    """Turn 1 complete: both battles entered through the form, the defender winning
    each with no stands lost."""
    campaign, battles = waiting_campaign()
    for battle in battles.values():
        form = url(battle, "result")
        entered(gm, form, {**opened(gm, form), **result_data(battle, "defender")})
    assert Turn.objects.get(campaign=campaign).status == Turn.Status.DONE
    return campaign, battles


def corrected_data(battle: Battle) -> dict[str, Any]:
    """The attacker won at the table, the defender losing 3 rifle squads."""
    return {**result_data(battle, "attacker"), "defender__rifle_squad": 3, "reason": "mistyped"}


def test_the_battles_page_offers_the_correction_while_its_turn_is_the_latest(
    gm: Client,
) -> None:
    _, battles = played_turn(gm)
    page = words(gm.get(url(battles["1:Korona:1"], "change")).content)
    assert f'<a href="{url(battles["1:Korona:1"], "correct")}">Correct the result</a>' in page
    assert "This result is final." not in page
    assert 'corrected with "Correct the result" on the battle\'s page until turn 2' in page


def test_the_form_is_prefilled_checks_first_then_plays_the_turn_again(gm: Client) -> None:
    campaign, battles = played_turn(gm)
    battle = battles["1:Korona:2"]
    form = url(battle, "correct")
    shown = hidden_fields(gm.get(form).content.decode())
    page = words(gm.get(form).content)
    assert '<option value="defender" selected>' in page  # the result entered
    assert "Correct the result of the battle at Korona" in page

    first = gm.post(form, {**shown, **corrected_data(battle)})
    assert first.status_code == 200
    assert "Nothing is corrected yet" in words(first.content)
    assert Battle.objects.get(pk=battle.pk).result["winner"] == "defender"
    assert not GmAdjustment.objects.filter(campaign=campaign).exists()

    second = gm.post(form, {**hidden_fields(first.content.decode()), **corrected_data(battle)})
    assert second.status_code == 302
    assert Battle.objects.get(pk=battle.pk).result["winner"] == "attacker"
    line = GmAdjustment.objects.get(campaign=campaign)
    assert line.reason == "mistyped"
    assert line.what.startswith("The result of the battle at Korona in turn 1 was corrected")
    turn = Turn.objects.get(campaign=campaign)
    assert "B Company" in turn.report_text and "withdraw" in turn.report_text.lower()
    done = words(gm.get(second.url).content)
    assert "turn 1 was played again with the same dice" in done


def test_a_reason_is_asked_for_and_nothing_changes_without_it(gm: Client) -> None:
    campaign, battles = played_turn(gm)
    battle = battles["1:Korona:2"]
    form = url(battle, "correct")
    data = {**corrected_data(battle), "reason": ""}
    answer = entered(gm, form, {**opened(gm, form), **data})
    assert answer.status_code == 200
    assert "Give a reason for this change." in words(answer.content)
    assert Battle.objects.get(pk=battle.pk).result["winner"] == "defender"
    assert not GmAdjustment.objects.filter(campaign=campaign).exists()


def test_refused_in_words_once_the_next_turn_has_been_played(gm: Client) -> None:
    campaign, battles = played_turn(gm)
    battle = battles["1:Korona:2"]
    form = url(battle, "correct")
    shown = opened(gm, form)
    advance_turn(campaign_id=campaign.pk)

    page = words(gm.get(url(battle, "change")).content)
    assert f'href="{form}"' not in page
    assert "This result is final. To correct a mistake, <a href=" in page
    answer = entered(gm, form, {**shown, **corrected_data(battle)}, follow=True)
    said = words(answer.content)
    assert "Turn 2 has been played since the battle at Korona was fought in turn 1" in said
    assert "only a roll-back to the start of turn 1" in said
    assert Battle.objects.get(pk=battle.pk).result["winner"] == "defender"
    assert not GmAdjustment.objects.filter(campaign=campaign).exists()


def test_a_battle_fought_by_the_rules_is_refused(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    gm.post(url(battle, "fight"), opened(gm, url(battle, "change")))
    fought = Battle.objects.get(pk=battle.pk)
    assert fought.status == Battle.Status.FOUGHT

    answer = gm.get(url(battle, "correct"), follow=True)
    assert "was fought by the rules: its dice gave its result" in words(answer.content)
    assert Battle.objects.get(pk=battle.pk).result == fought.result


def test_a_page_opened_before_another_change_corrects_nothing(gm: Client) -> None:
    campaign, battles = played_turn(gm)
    battle = battles["1:Korona:2"]
    form = url(battle, "correct")
    shown = opened(gm, form)
    other = url(battles["1:Korona:1"], "correct")
    entered(gm, other, {**opened(gm, other), **corrected_data(battles["1:Korona:1"])})
    assert GmAdjustment.objects.filter(campaign=campaign).count() == 1

    answer = entered(gm, form, {**shown, **corrected_data(battle)})
    assert answer.status_code == 200
    assert "Nothing was changed" in words(answer.content)
    assert Battle.objects.get(pk=battle.pk).result["winner"] == "defender"
    assert GmAdjustment.objects.filter(campaign=campaign).count() == 1
