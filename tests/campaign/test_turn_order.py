"""The turn log does not depend on the order the battles' results come in, nor on the
order a battle's companies are listed in: a turn whose battles are fought as separate
worker tasks (the plan rebuilt from the database) writes the same bytes as the same turn
fought in one go, whichever battle finishes first."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from battles.models import Battle
from battles.services.results import fight_pending_battle
from campaign.models import Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from rules.campaign import turn as rules
from rules.campaign.scenario import parse_scenario
from tests.campaign.conftest import korona_doc


def three_on_two() -> dict[str, Any]:
    """Every Japanese fighting company in Korona with A and B Company; the 1st Company is
    the weakest, so the 2nd and 3rd are paired first and the 1st joins the 2nd's battle:
    1:Korona:1 has two Japanese companies, listed strongest first (2nd, 1st), not in the
    scenario's order."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["side"] == "japanese" and company.get("kind", "fighting") == "fighting":
            company["area"] = "Korona"
        if company["name"] == "1st Company":
            company["stands"]["rifle_squad"] -= 2
    return doc


# A campaign seed whose 1:Korona:1 ends in a Japanese defeat, both companies surviving.
SEED = 26  # (36 with one stream a turn; 3 before issue 13 items 2, 4, 6, 7, 8; 23 before)


def log_bytes(log: list[dict[str, Any]]) -> bytes:
    return json.dumps(log, sort_keys=True).encode()


def test_finish_turn_does_not_depend_on_the_order_of_battles_or_companies() -> None:
    plan = rules.start_turn(parse_scenario(three_on_two()), {})
    first = plan.battles[0]
    assert first.key == "1:Korona:1" and first.attackers == ["2nd Company", "1st Company"]
    # The defenders win both: the Japanese fall back, two of them from the first battle.
    results = {b.key: {"winner": "defender", "losses": {}} for b in plan.battles}
    shuffled = replace(
        plan,
        battles=[
            replace(b, attackers=b.attackers[::-1], defenders=b.defenders[::-1])
            for b in plan.battles[::-1]
        ],
    )
    one, other = rules.finish_turn(plan, results), rules.finish_turn(shuffled, results)
    withdrawals = [r["company"] for r in one.log if r["kind"] == "withdrawal"]
    assert sorted(withdrawals) == ["1st Company", "2nd Company", "3rd Company"]
    assert log_bytes(one.log) == log_bytes(other.log)
    assert one.state == other.state


@pytest.mark.django_db
@pytest.mark.parametrize("order", ["first_battle_first", "last_battle_first"])
def test_a_turn_writes_the_same_log_however_its_battles_were_fought(order: str) -> None:
    def played(how: str) -> bytes:
        campaign = create_campaign(data=three_on_two(), name=f"Korona {how}", seed=SEED)
        if how == "in_one_go":
            advance_turn(campaign_id=campaign.pk)
        else:
            advance_turn(campaign_id=campaign.pk, defer_battles=True)
            battles = list(Battle.objects.filter(campaign=campaign).order_by("id"))
            assert len(battles) == 2
            for battle in battles if how == "first_battle_first" else battles[::-1]:
                fight_pending_battle(battle_id=battle.pk)
        turn = Turn.objects.get(campaign=campaign, number=1)
        assert turn.status == Turn.Status.DONE
        return log_bytes(turn.log)

    reference = played("in_one_go")
    # The seed fights 1:Korona:1 (two Japanese companies) to a Japanese defeat: both of
    # them withdraw, so the order they are taken in shows in the log.
    withdrew = [
        r["company"]
        for r in json.loads(reference)
        if r["kind"] == "withdrawal" and r.get("battle") == "1:Korona:1"
    ]
    assert len(withdrew) == 2, withdrew
    assert played(order) == reference
