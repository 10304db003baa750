"""``Battle.winner``, the column the battles API list and its digest read, is the result's
winner whoever writes the result and however: the rules fighting a turn's battles, a
worker fighting a deferred one, the GM entering a tabletop result or letting the rules
fight it, a correction played again, a roll-back, and a plain update of the row. The
database keeps it from ``result`` itself, so none of them can leave it behind."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.models import Battle
from battles.services.correction import correct_battle_result
from battles.services.results import (
    enter_battle_result,
    fight_battle_now,
    fight_pending_battle,
    resolve_unentered,
)
from campaign.models import Campaign
from campaign.services.rollback import rollback_to_turn
from campaign.services.turns import advance_turn
from tests.api.helpers import url
from tests.campaign.test_services_turns import meeting_doc, new_campaign

pytestmark = pytest.mark.django_db

WON = {"winner": "defender", "losses": {"attacker": {"rifle_squad": 3}, "defender": {}}}
LOST = {"winner": "attacker", "losses": {"attacker": {}, "defender": {"rifle_squad": 3}}}


def winners(campaign: Campaign) -> list[tuple[str, str | None, str | None]]:
    """Each battle's key, stored winner and result's winner, read afresh from the rows;
    every battle has the two the same (else the test fails here)."""
    rows = [
        (key, winner, (result or {}).get("winner"))
        for key, winner, result in Battle.objects.filter(campaign=campaign)
        .order_by("key")
        .values_list("key", "winner", "result")
    ]
    assert [(key, stored) for key, stored, _ in rows] == [(key, read) for key, _, read in rows]
    return rows


def keys(campaign: Campaign) -> dict[str, int]:
    return dict(Battle.objects.filter(campaign=campaign).values_list("key", "pk"))


def test_a_turn_fought_by_the_rules_stores_each_winner() -> None:
    campaign = new_campaign(doc=meeting_doc())
    advance_turn(campaign_id=campaign.pk)
    rows = winners(campaign)
    assert len(rows) == 2
    assert all(winner in ("attacker", "defender", "draw") for _, winner, _ in rows)


def test_a_deferred_battle_has_no_winner_until_a_worker_fights_it() -> None:
    campaign = new_campaign(doc=meeting_doc())
    advance_turn(campaign_id=campaign.pk, defer_battles=True)
    assert [winner for _, winner, _ in winners(campaign)] == [None, None]

    # The worker writes its result with a conditional update, not a save.
    fight_pending_battle(battle_id=keys(campaign)["1:Korona:1"])
    first, second = winners(campaign)
    assert first[1] is not None and second[1] is None
    fight_pending_battle(battle_id=keys(campaign)["1:Korona:2"])
    assert all(winner is not None for _, winner, _ in winners(campaign))


def test_an_entered_result_and_a_battle_the_gm_lets_the_rules_fight_store_their_winners() -> None:
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop")
    advance_turn(campaign_id=campaign.pk)
    assert [winner for _, winner, _ in winners(campaign)] == [None, None]

    enter_battle_result(battle_id=keys(campaign)["1:Korona:1"], **LOST)
    assert winners(campaign)[0][1] == "attacker"
    fight_battle_now(battle_id=keys(campaign)["1:Korona:2"])
    assert winners(campaign)[1][1] is not None


def test_a_tabletop_battle_fought_by_the_rules_past_its_deadline_stores_its_winner() -> None:
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop", unentered_tabletop="auto")
    advance_turn(campaign_id=campaign.pk)
    later = timezone.now() + timedelta(days=3)
    Battle.objects.filter(campaign=campaign).update(deadline=timezone.now())
    for battle_id in keys(campaign).values():
        assert resolve_unentered(battle_id=battle_id, now=later)
    assert all(winner is not None for _, winner, _ in winners(campaign))


def test_a_corrected_result_replaces_the_winner() -> None:
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop")
    advance_turn(campaign_id=campaign.pk)
    enter_battle_result(battle_id=keys(campaign)["1:Korona:1"], **WON)
    enter_battle_result(battle_id=keys(campaign)["1:Korona:2"], **LOST)  # the turn is played
    assert [winner for _, winner, _ in winners(campaign)] == ["defender", "attacker"]

    correct_battle_result(
        battle_id=keys(campaign)["1:Korona:2"], **WON, reason="typed the wrong winner"
    )
    assert [winner for _, winner, _ in winners(campaign)] == ["defender", "defender"]


def test_a_roll_back_and_the_turn_played_again_leave_the_winners_of_the_new_battles() -> None:
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop")
    advance_turn(campaign_id=campaign.pk)
    enter_battle_result(battle_id=keys(campaign)["1:Korona:1"], **WON)
    enter_battle_result(battle_id=keys(campaign)["1:Korona:2"], **LOST)

    rollback_to_turn(campaign=campaign, number=1, reason="a mistyped result")
    assert winners(campaign) == []
    advance_turn(campaign_id=campaign.pk)
    assert [winner for _, winner, _ in winners(campaign)] == [None, None]
    enter_battle_result(battle_id=keys(campaign)["1:Korona:2"], **WON)
    assert [winner for _, winner, _ in winners(campaign)] == [None, "defender"]


@pytest.mark.parametrize(
    "write",
    ["save", "save_result_only", "update", "bulk_update"],
)
def test_any_write_of_the_result_keeps_the_winner(write: str) -> None:
    campaign = new_campaign(doc=meeting_doc())
    advance_turn(campaign_id=campaign.pk)
    battle = Battle.objects.get(campaign=campaign, key="1:Korona:1")
    result: dict[str, Any] = {**battle.result, "winner": "draw"}
    if write == "save":
        battle.result = result
        battle.save()
    elif write == "save_result_only":
        battle.result = result
        battle.save(update_fields=["result"])
    elif write == "update":
        Battle.objects.filter(pk=battle.pk).update(result=result)
    else:
        battle.result = result
        Battle.objects.bulk_update([battle], ["result"])
    assert dict((key, winner) for key, winner, _ in winners(campaign))["1:Korona:1"] == "draw"


def test_the_battles_list_reads_no_result_json_on_a_request(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """Every request reads the list's digest afresh (``respond_digested``); it reads the
    stored winner, not the winner out of every battle's result (the slowest API list
    while it did: issue 17)."""
    client = login(aussie)
    first = client.get(url(played, "battles/"))
    assert first.status_code == 200 and first.json()["count"] > 0
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url(played, "battles/"))
    assert again.content == first.content
    battle_reads = [q["sql"] for q in queries.captured_queries if "battles_battle" in q["sql"]]
    assert len(battle_reads) == 1  # the digest
    assert "result" not in battle_reads[0]


@pytest.mark.django_db(transaction=True)
def test_battles_stored_before_the_column_get_their_winners_from_the_migration() -> None:
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop")
    advance_turn(campaign_id=campaign.pk)
    enter_battle_result(battle_id=keys(campaign)["1:Korona:1"], **WON)
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([("battles", "0006_side_people_words")])  # no winner column
        executor.loader.build_graph()
        executor.migrate([("battles", "0007_battle_winner_column")])
        assert [winner for _, winner, _ in winners(campaign)] == ["defender", None]
    finally:
        # The later migrations again (the database's rules since), for the next tests.
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
