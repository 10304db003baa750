"""A battle's result once its turn waits for it: entered by the GM from the table, fought
by the rules after all (the GM's choice), or fought by a worker (a deferred turn's share).
Each completes its turn when it is the last battle in (``campaign.services.turns``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone as django_timezone

from battles.models import Battle
from battles.services.fighting import fight
from campaign.models import Campaign, Turn
from campaign.services.turns import TurnReport, complete_if_ready
from rules import names
from rules.campaign import turn as rules
from rules.ending import result_problem
from rules.refusals import Refusal


class ResultRefused(Refusal):
    """A battle result that does not fit the battle; the message says why."""


def enter_battle_result(
    *, battle_id: int, winner: str, losses: dict[str, dict[str, int]]
) -> TurnReport:
    """The GM enters a tabletop battle's result: the winner and the stands lost per unit
    type on each side, checked against what was present. The turn completes when its
    last battle has a result."""
    with transaction.atomic():
        battle = Battle.objects.select_related("turn", "campaign").get(pk=battle_id)
        campaign = Campaign.objects.select_for_update().get(pk=battle.campaign_id)
        battle = Battle.objects.select_for_update().get(pk=battle_id)
        if battle.status != Battle.Status.PENDING:
            raise ResultRefused("this battle already has its result")
        result = checked_result(battle, winner, losses)
        battle.result = result
        battle.status = Battle.Status.ENTERED
        battle.save(update_fields=["result", "status"])
        turn = Turn.objects.select_for_update().get(pk=battle.turn_id)
        return complete_if_ready(campaign=campaign, turn=turn)


def checked_result(
    battle: Battle, winner: str, losses: dict[str, dict[str, int]]
) -> dict[str, Any]:
    """The result the GM entered for a tabletop battle, as stored: the winner and the
    stands lost per unit type on each side, checked against what was present
    (``ResultRefused`` says why it does not fit)."""
    for key, lost in (losses or {}).items():
        if key not in ("attacker", "defender") or not isinstance(lost, dict):
            raise ResultRefused(f"losses are given per side (attacker, defender), not {key!r}")
        for unit, count in lost.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ResultRefused(
                    f"the {key}'s losses of {names.unit(unit, 2)} must be a whole number "
                    f">= 0, not {count!r}"
                )
    result = {
        "winner": winner,
        "reason": "entered",
        "losses": {
            key: {unit: n for unit, n in ((losses or {}).get(key) or {}).items() if n}
            for key in ("attacker", "defender")
        },
        "stands_present": {key: battle.spec[key]["stands"] for key in ("attacker", "defender")},
    }
    planned = rules.PlannedBattle(
        key=battle.key,
        area=battle.spec["area"]["name"],
        attacker_side=battle.attacker_side,
        defender_side=battle.defender_side,
        attackers=[],
        defenders=[],
        seed=battle.seed,
        spec=battle.spec,
    )
    try:
        rules.check_result(planned, result)
    except ValueError as bad:
        raise ResultRefused(str(bad)) from bad
    problem = entered_result_problem(battle.spec, result)
    if problem is not None:
        raise ResultRefused(problem)
    return result


def entered_result_problem(spec: dict[str, Any], result: dict[str, Any]) -> str | None:
    """Why an entered result contradicts the battle's end condition (``result_problem``
    of ``rules.ending``: a side that lost a third of its stands has lost), or None."""
    present = {
        key: sum(spec[key]["stands"].values())
        + sum((spec[key].get("reinforcements") or {}).values())
        for key in ("attacker", "defender")
    }
    lost = {key: sum(result["losses"][key].values()) for key in ("attacker", "defender")}
    return result_problem(result["winner"], lost, present)


def fight_pending_battle(*, battle_id: int) -> TurnReport | None:
    """Fight one auto battle a deferred turn left pending (a worker's share of the turn);
    nothing if it has its result already. The dice are rolled outside any lock, so the
    battles of one turn are fought side by side; the result is written, and the turn
    completed when it is the last, under the campaign row lock."""
    battle = Battle.objects.filter(pk=battle_id).first()
    if battle is None or battle.status != Battle.Status.PENDING or battle.mode != "auto":
        return None
    fight(battle)
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=battle.campaign_id)
        if not Battle.objects.filter(pk=battle_id, status=Battle.Status.PENDING).update(
            result=battle.result, log=battle.log, status=battle.status
        ):
            return None  # another delivery wrote it first
        turn = Turn.objects.select_for_update().get(pk=battle.turn_id)
        return complete_if_ready(campaign=campaign, turn=turn)


def fight_battle_now(*, battle_id: int) -> TurnReport:
    """The GM's choice, before a tabletop battle is fought: let the rules fight it (auto)
    after all. The turn completes when its last battle has a result."""
    with transaction.atomic():
        battle = Battle.objects.get(pk=battle_id)
        campaign = Campaign.objects.select_for_update().get(pk=battle.campaign_id)
        battle = Battle.objects.select_for_update().get(pk=battle_id)
        if battle.status != Battle.Status.PENDING:
            raise ResultRefused("this battle already has its result")
        battle.mode = "auto"
        fight(battle)
        battle.save(update_fields=["mode", "result", "log", "status"])
        turn = Turn.objects.select_for_update().get(pk=battle.turn_id)
        return complete_if_ready(campaign=campaign, turn=turn)


def resolve_unentered(*, battle_id: int, now: datetime | None = None) -> bool:
    """A tabletop battle past its deadline, in a campaign that says ``auto``: fought by
    the rules. Nothing if it has its result or the campaign waits. True when fought."""
    now = now or django_timezone.now()
    battle = (
        Battle.objects.filter(pk=battle_id, status=Battle.Status.PENDING, deadline__lte=now)
        .select_related("campaign")
        .first()
    )
    if battle is None or battle.campaign.get_settings().unentered_tabletop != "auto":
        return False
    try:
        fight_battle_now(battle_id=battle_id)
    except ResultRefused:
        return False  # entered or fought meanwhile
    return True
