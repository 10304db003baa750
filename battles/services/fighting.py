"""Fighting a battle by the rules: its result and log from its spec and seed, and the
battles the rules are to fight now that no one else will."""

from __future__ import annotations

from datetime import datetime

from battles.models import Battle
from campaign.models import Campaign, Turn
from rules.battlefield import RolledTable
from rules.rulesets import resolve_battle
from rules.spec import BattleSpec, parse_battle


def fight(
    battle: Battle, parsed: BattleSpec | None = None, table: RolledTable | None = None
) -> Battle:
    """Resolve an auto battle through the rules; the caller saves it. ``parsed``: its
    spec as ``parse_battle`` read it already (the turn pairing it checks each one), else
    it is read here. ``table``: its table as the turn pairing it rolled it (the AI's
    sniper choice reads it), not rolled again."""
    spec = parse_battle(battle.spec) if parsed is None else parsed
    result = resolve_battle(spec, battle.seed, table=table)
    battle.result = {k: v for k, v in result.items() if k != "log"}
    battle.log = result["log"]
    battle.status = Battle.Status.FOUGHT
    return battle


def tabletop_past_deadline(now: datetime) -> list[int]:
    """The tabletop battles of active campaigns whose ``unentered_tabletop`` is ``auto``,
    past their deadline with no result entered: the rules fight them."""
    return list(
        Battle.objects.filter(
            status=Battle.Status.PENDING,
            mode="tabletop",
            deadline__lte=now,
            campaign__status=Campaign.Status.ACTIVE,
            campaign__settings__unentered_tabletop="auto",
        ).values_list("pk", flat=True)
    )


def stalled_auto_battles(begun_before: datetime) -> list[int]:
    """The auto battles of a turn in progress since before ``begun_before`` that are
    still pending (their task lost with a broker, say): to be handed out again."""
    return list(
        Battle.objects.filter(
            status=Battle.Status.PENDING,
            mode="auto",
            turn__status=Turn.Status.BATTLES_PENDING,
            turn__created_at__lte=begun_before,
        ).values_list("pk", flat=True)
    )
