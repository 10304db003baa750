"""A corrected tabletop result is told to every player as every GM change is: the log's
line, with the corrected result and its reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from battles.models import Battle
from battles.services.correction import correct_battle_result
from battles.services.results import enter_battle_result
from campaign.models import Membership
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db


def test_every_player_is_told_of_the_correction_and_why(
    aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    doc = meeting_doc()
    doc["settings"] = {**doc.get("settings", {}), "battle_mode": "tabletop"}
    campaign = create_campaign(data=doc, name="Korona", seed=1)
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    Membership.objects.create(user=japanese, campaign=campaign, side="japanese")
    advance_turn(campaign_id=campaign.pk)
    for battle in Battle.objects.filter(campaign=campaign):
        enter_battle_result(battle_id=battle.pk, winner="defender", losses={})
    battle = Battle.objects.get(campaign=campaign, key="1:Korona:2")
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        correct_battle_result(
            battle_id=battle.pk,
            winner="attacker",
            losses={"defender": {"rifle_squad": 3}},
            reason="the winner was typed wrong",
        )

    for user in (aussie, japanese):
        (told,) = [message for message in mail.outbox if message.to == [user.email]]
        assert "The result of the battle at Korona in turn 1 was corrected" in told.body
        assert "the Japanese, attacking, win" in told.body
        assert "the winner was typed wrong" in told.body
