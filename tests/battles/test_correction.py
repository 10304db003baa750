"""Correcting a mistyped tabletop result (``correct_battle_result``): the turn played again
with its own seeds gives the turn a fresh one with that result entered would have."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.models import Battle
from battles.services.correction import CorrectionRefused, correct_battle_result
from battles.services.results import enter_battle_result, fight_battle_now
from campaign.models import Campaign, GmAdjustment, SeedCommitment, Turn
from campaign.services import turns as turns_service
from campaign.services.adjustments import ReasonMissing, adjust_stands
from campaign.services.commitments import change_turn_seed, verify_played_turn
from campaign.services.turns import advance_turn
from campaign.services.visibility import open_campaign
from tests.campaign.test_services_turns import (
    company,
    database_state,
    meeting_doc,
    new_campaign,
    state_of,
)

pytestmark = pytest.mark.django_db

FIRST = {
    "winner": "defender",
    "losses": {"attacker": {"rifle_squad": 3}, "defender": {"rifle_squad": 1}},
}
# Typed wrong: the Japanese 2nd Company won at the table, and B Company fell back.
WRONG = {"winner": "attacker", "losses": {"attacker": {}, "defender": {"rifle_squad": 3}}}
RIGHT = {"winner": "defender", "losses": {"attacker": {"rifle_squad": 3}, "defender": {}}}


def tabletop(name: str, **settings: Any) -> Campaign:
    return new_campaign(name=name, doc=meeting_doc(), battle_mode="tabletop", **settings)


def battle(campaign: Campaign, key: str) -> Battle:
    return Battle.objects.get(campaign=campaign, key=key)


def played(name: str, second: dict[str, Any], **settings: Any) -> Campaign:
    """Turn 1 of a tabletop campaign, its two battles entered: FIRST, then ``second``."""
    campaign = tabletop(name, **settings)
    advance_turn(campaign_id=campaign.pk)
    enter_battle_result(battle_id=battle(campaign, "1:Korona:1").pk, **FIRST)
    enter_battle_result(battle_id=battle(campaign, "1:Korona:2").pk, **second)
    return campaign


def what_a_turn_left(campaign: Campaign) -> dict[str, Any]:
    """Everything the turn wrote that a page shows, the campaign's name left out."""
    turn = Turn.objects.get(campaign=campaign, number=1)
    state = database_state(campaign)
    return {
        "state": replace(state_of(campaign), name=""),
        "tables": {k: v for k, v in state.items() if k != "campaign"} | {"row": state["campaign"]},
        "log": turn.log,
        "report": turn.report,
        "report_text": turn.report_text,
        "seed": turn.seed,
        "battles": sorted(
            (
                b.key,
                b.seed,
                b.status,
                b.result,
                b.log,
                sorted(b.attackers.values_list("name", flat=True)),
                sorted(b.defenders.values_list("name", flat=True)),
            )
            for b in Battle.objects.filter(campaign=campaign)
        ),
        "shown": [
            (row.number, row.revealed_at is not None)
            for row in SeedCommitment.objects.filter(campaign=campaign).order_by("number")
        ],
    }


def test_a_corrected_result_gives_the_turn_it_would_have_given_entered_first() -> None:
    corrected = played("Korona 1", WRONG)
    wrong = what_a_turn_left(corrected)
    assert company(corrected, "B Company").area.name == "Isura"  # it fell back

    correct_battle_result(
        battle_id=battle(corrected, "1:Korona:2").pk, **RIGHT, reason="typed the wrong winner"
    )

    fresh = played("Korona 2", RIGHT)
    assert what_a_turn_left(corrected) == what_a_turn_left(fresh)
    assert what_a_turn_left(corrected) != wrong
    assert company(corrected, "B Company").area.name == "Korona"


def test_the_correction_is_a_public_line_with_its_reason() -> None:
    campaign = played("Korona 1", WRONG)

    line = correct_battle_result(
        battle_id=battle(campaign, "1:Korona:2").pk, **RIGHT, reason="typed the wrong winner"
    )

    assert line.reason == "typed the wrong winner"
    assert line.before_turn == 2
    assert line.what == (
        "The result of the battle at Korona in turn 1 was corrected: the Australians, "
        "defending, win; the Japanese lost 3 rifle squads, the Australians lost nothing "
        "(it was entered as: the Japanese, attacking, win; the Japanese lost nothing, "
        "the Australians lost 3 rifle squads)"
    )
    assert GmAdjustment.objects.filter(campaign=campaign).count() == 1


def test_a_reason_is_required_and_nothing_changes_without_one() -> None:
    campaign = played("Korona 1", WRONG)
    before = what_a_turn_left(campaign)

    with pytest.raises(ReasonMissing):
        correct_battle_result(battle_id=battle(campaign, "1:Korona:2").pk, **RIGHT, reason=" ")

    assert what_a_turn_left(campaign) == before


def test_a_battle_fought_by_the_rules_keeps_its_dice_and_cannot_be_corrected() -> None:
    def mixed(name: str, second: dict[str, Any]) -> Campaign:
        campaign = tabletop(name)
        advance_turn(campaign_id=campaign.pk)
        fight_battle_now(battle_id=battle(campaign, "1:Korona:1").pk)
        enter_battle_result(battle_id=battle(campaign, "1:Korona:2").pk, **second)
        return campaign

    corrected = mixed("Korona 1", WRONG)
    fought = battle(corrected, "1:Korona:1")

    correct_battle_result(battle_id=battle(corrected, "1:Korona:2").pk, **RIGHT, reason="typo")

    again = battle(corrected, "1:Korona:1")
    assert (again.result, again.log, again.seed) == (fought.result, fought.log, fought.seed)
    assert what_a_turn_left(corrected) == what_a_turn_left(mixed("Korona 2", RIGHT))
    kept = what_a_turn_left(corrected)
    with pytest.raises(CorrectionRefused, match="was fought by the rules"):
        correct_battle_result(battle_id=fought.pk, **RIGHT, reason="typo")
    assert what_a_turn_left(corrected) == kept


def test_refused_once_the_next_turn_has_been_played() -> None:
    campaign = played("Korona 1", WRONG)
    advance_turn(campaign_id=campaign.pk)
    before = database_state(campaign)
    logs = list(Turn.objects.filter(campaign=campaign).values_list("log", flat=True))

    with pytest.raises(CorrectionRefused, match="turn 2 has been played since .* roll-back"):
        correct_battle_result(battle_id=battle(campaign, "1:Korona:2").pk, **RIGHT, reason="typo")

    assert database_state(campaign) == before
    assert list(Turn.objects.filter(campaign=campaign).values_list("log", flat=True)) == logs
    assert not GmAdjustment.objects.filter(campaign=campaign).exists()


def test_a_result_entered_while_the_turn_waits_is_corrected_in_place() -> None:
    corrected = tabletop("Korona 1")
    advance_turn(campaign_id=corrected.pk)
    enter_battle_result(battle_id=battle(corrected, "1:Korona:2").pk, **WRONG)

    correct_battle_result(battle_id=battle(corrected, "1:Korona:2").pk, **RIGHT, reason="typo")
    assert Turn.objects.get(campaign=corrected).status == Turn.Status.BATTLES_PENDING
    enter_battle_result(battle_id=battle(corrected, "1:Korona:1").pk, **FIRST)

    assert what_a_turn_left(corrected) == what_a_turn_left(played("Korona 2", RIGHT))


def test_the_same_result_again_is_refused() -> None:
    campaign = played("Korona 1", WRONG)
    with pytest.raises(CorrectionRefused, match="already entered"):
        correct_battle_result(battle_id=battle(campaign, "1:Korona:2").pk, **WRONG, reason="typo")


def test_refused_while_a_change_made_since_the_turn_began_would_be_undone() -> None:
    campaign = played("Korona 1", WRONG)
    adjust_stands(
        company=company(campaign, "A Company"), unit_type="rifle_squad", held=5, reason="house"
    )
    before = what_a_turn_left(campaign)

    with pytest.raises(CorrectionRefused, match="would undo your changes made since"):
        correct_battle_result(battle_id=battle(campaign, "1:Korona:2").pk, **RIGHT, reason="typo")

    assert what_a_turn_left(campaign) == before


def test_a_second_correction_is_not_refused_by_the_first() -> None:
    campaign = played("Korona 1", WRONG)
    key = battle(campaign, "1:Korona:2").pk
    halfway = {"winner": "defender", "losses": {"attacker": {"rifle_squad": 4}}}
    correct_battle_result(battle_id=key, **halfway, reason="typo")
    correct_battle_result(battle_id=key, **RIGHT, reason="typo again")

    assert what_a_turn_left(campaign) == what_a_turn_left(played("Korona 2", RIGHT))


@pytest.mark.django_db(transaction=True)
def test_a_correction_that_fails_midway_leaves_nothing_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    campaign = played("Korona 1", WRONG)
    before = what_a_turn_left(campaign)
    real = turns_service.save_snapshot

    def failing(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        raise RuntimeError("the database went away")

    monkeypatch.setattr(turns_service, "save_snapshot", failing)
    with pytest.raises(RuntimeError, match="went away"):
        correct_battle_result(battle_id=battle(campaign, "1:Korona:2").pk, **RIGHT, reason="typo")

    assert what_a_turn_left(campaign) == before
    assert not GmAdjustment.objects.filter(campaign=campaign).exists()


def test_a_company_the_wrong_result_destroyed_comes_back_into_its_battle() -> None:
    probe = tabletop("Korona 0")
    advance_turn(campaign_id=probe.pk)
    present = battle(probe, "1:Korona:2").spec["defender"]["stands"]
    wiped = {"winner": "attacker", "losses": {"attacker": {}, "defender": dict(present)}}
    corrected = played("Korona 1", wiped)
    assert not corrected.companies.filter(name="B Company").exists()

    line = correct_battle_result(
        battle_id=battle(corrected, "1:Korona:2").pk, **RIGHT, reason="typo"
    )

    # Every stand lost makes a long line: the result as it was entered, which has no room
    # in the log's line (300 characters), is left to its details.
    assert line.what.endswith("the Australians lost nothing")
    assert len(line.what) <= GmAdjustment._meta.get_field("what").max_length
    assert line.details["before"]["losses"]["defender"] == present

    assert list(battle(corrected, "1:Korona:2").defenders.values_list("name", flat=True)) == [
        "B Company"
    ]
    assert what_a_turn_left(corrected) == what_a_turn_left(played("Korona 2", RIGHT))


def test_the_turn_that_ended_the_campaign_is_corrected_and_still_ends_it() -> None:
    corrected = played("Korona 1", WRONG, turn_limit=1)
    assert Campaign.objects.get(pk=corrected.pk).status == Campaign.Status.FINISHED

    correct_battle_result(battle_id=battle(corrected, "1:Korona:2").pk, **RIGHT, reason="typo")

    fresh = played("Korona 2", RIGHT, turn_limit=1)
    assert what_a_turn_left(corrected) == what_a_turn_left(fresh)
    assert Campaign.objects.get(pk=corrected.pk).status == Campaign.Status.FINISHED


def test_the_corrected_turn_verifies_from_its_own_commitment(django_user_model: Any) -> None:
    """``python -m rules verify`` on the corrected turn's TURN.json, as the GM reads it
    (everything): the same commitment and seeds, every record played again from its
    start state with the results as they now stand."""
    campaign = played("Korona 1", WRONG)
    correct_battle_result(battle_id=battle(campaign, "1:Korona:2").pk, **RIGHT, reason="typo")
    gm = django_user_model.objects.create_superuser("gm", "gm@example.com", "pw")
    view = open_campaign(user=gm, campaign=Campaign.objects.get(pk=campaign.pk))
    verdict = verify_played_turn(view, Turn.objects.get(campaign=campaign, number=1))

    assert verdict is not None and verdict.verified, verdict and verdict.differences
    assert any("played again" in line or "start state" in line for line in verdict.checked)


def test_a_new_seed_for_the_coming_turn_stays_and_does_not_stop_a_correction() -> None:
    campaign = played("Korona 1", WRONG)
    change_turn_seed(campaign=campaign, reason="a fresh start", seed=12345)
    coming = SeedCommitment.objects.get(campaign=campaign, number=2)

    correct_battle_result(battle_id=battle(campaign, "1:Korona:2").pk, **RIGHT, reason="typo")

    again = SeedCommitment.objects.get(campaign=campaign, number=2)
    assert (again.commitment, again.seed) == (coming.commitment, coming.seed)
    assert Turn.objects.get(campaign=campaign, number=1).seed != again.seed
