"""A battle has a result once fought, and only then (``battle_result_only_once_fought``):
the database refuses a battle waiting to be fought with a result, as it refuses one
fought without; the upgrade that brought the rule clears the result of any battle
still waiting that had one (docs/campaign.md, "Battles and their results")."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from battles.models import Battle
from battles.services.results import enter_battle_result
from campaign.services.turns import advance_turn
from tests.campaign.test_services_turns import meeting_doc, new_campaign

pytestmark = pytest.mark.django_db

WON = {"winner": "defender", "losses": {"attacker": {"rifle_squad": 3}, "defender": {}}}


def _waiting_and_entered() -> tuple[Battle, Battle]:
    """A tabletop turn's two battles: one still waiting for the table, one entered."""
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop")
    advance_turn(campaign_id=campaign.pk)
    waiting, entered = Battle.objects.filter(campaign=campaign).order_by("key")
    enter_battle_result(battle_id=entered.pk, **WON)
    entered.refresh_from_db()
    return waiting, entered


def test_the_database_refuses_a_battle_waiting_to_be_fought_with_a_result() -> None:
    waiting, entered = _waiting_and_entered()
    with pytest.raises(IntegrityError), transaction.atomic():
        Battle.objects.filter(pk=waiting.pk).update(result=entered.result)
    # Nor may an entered battle be put back to waiting with its result.
    with pytest.raises(IntegrityError), transaction.atomic():
        Battle.objects.filter(pk=entered.pk).update(status=Battle.Status.PENDING)


def test_the_database_refuses_a_fought_battle_without_a_result() -> None:
    waiting, entered = _waiting_and_entered()
    with pytest.raises(IntegrityError), transaction.atomic():
        Battle.objects.filter(pk=entered.pk).update(result=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        Battle.objects.filter(pk=waiting.pk).update(status=Battle.Status.FOUGHT)


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_clears_the_result_of_a_battle_still_waiting() -> None:
    """As the old rule allowed it (a hand edit): the battle waits on, its result and
    winner gone; the entered battle beside it keeps its own."""
    waiting, entered = _waiting_and_entered()
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([("battles", "0007_battle_winner_column")])  # the old rule
        Battle.objects.filter(pk=waiting.pk).update(result=entered.result)
        assert Battle.objects.get(pk=waiting.pk).winner == "defender"
        executor.loader.build_graph()
        executor.migrate([("battles", "0009_battle_result_only_once_fought")])
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    rows = dict(Battle.objects.values_list("pk", "status"))
    assert rows == {waiting.pk: "pending", entered.pk: "entered"}
    after = Battle.objects.get(pk=waiting.pk)
    assert after.result is None and after.winner is None
    assert Battle.objects.get(pk=entered.pk).result == entered.result
