"""Fighting a battle by the rules: its result and log from its spec and seed."""

from __future__ import annotations

from battles.models import Battle
from rules.rulesets import resolve_battle
from rules.spec import parse_battle


def fight(battle: Battle) -> Battle:
    """Resolve an auto battle through the rules; the caller saves it."""
    result = resolve_battle(parse_battle(battle.spec), battle.seed)
    battle.result = {k: v for k, v in result.items() if k != "log"}
    battle.log = result["log"]
    battle.status = Battle.Status.FOUGHT
    return battle
