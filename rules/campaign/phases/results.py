"""Phase 6, its results: every battle's result fed back into the map (losses, the
loser's withdrawal or surrender, Banzai! for a Japanese win)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import names as naming
from rules.campaign.phases.common import (
    PlannedBattle,
    TurnError,
    TurnInPlay,
    describe,
    record,
    retreat,
    supply_companies_caught,
)
from rules.campaign.state import Company
from rules.units import STAND_TYPES

BANZAI_SIDE = "japanese"
_UNIT_RANK = {unit: rank for rank, unit in enumerate(STAND_TYPES)}


def _take_losses(
    companies: list[Company], losses: Mapping[str, int], *, replaceable: bool = True
) -> dict[str, dict[str, int]]:
    """Killed stands leave the company, from the company holding most of that type first.

    ``replaceable`` (the setting ``supply_replaces_battle_losses``, on by default): they
    stay on its establishment, so supply may replace them ("replace any stands that it has
    lost so far"); off, they are lost for good (the establishment shrinks with them)."""
    taken: dict[str, dict[str, int]] = {}
    # A fixed unit order: results read back from a database come with their keys in any
    # order, and the log must not depend on it.
    for unit, count in sorted(losses.items(), key=lambda item: _UNIT_RANK.get(item[0], 99)):
        for _ in range(count):
            holder = max(companies, key=lambda c: (c.stands.get(unit, 0), c.name))
            if holder.stands.get(unit, 0) <= 0:
                break
            holder.stands[unit] -= 1
            if not replaceable:
                holder.establishment[unit] = max(
                    holder.establishment.get(unit, 0) - 1, holder.stands[unit]
                )
            taken.setdefault(holder.name, {})
            taken[holder.name][unit] = taken[holder.name].get(unit, 0) + 1
    return taken


def check_result(battle: PlannedBattle, result: Mapping[str, Any]) -> None:
    """A battle result must name a winner and lose no more stands than were present."""
    if result.get("winner") not in ("attacker", "defender"):
        raise ValueError("the winner must be attacker or defender")
    losses = result.get("losses") or {}
    for key in ("attacker", "defender"):
        present = battle.spec[key]["stands"]
        for unit, count in (losses.get(key) or {}).items():
            if not isinstance(count, int) or count < 0:
                raise ValueError(
                    f"the {key}'s losses of {naming.unit(unit, 2)} must be a whole number >= 0"
                )
            had = present.get(unit, 0)
            if count > had:
                raise ValueError(
                    f"the {key} lost {naming.count(count, unit)} but had "
                    f"{f'only {had}' if had else 'none'}"
                )


def battle_order(battle: PlannedBattle) -> tuple[str, int]:
    """A battle's place among its turn's: its area, then its number there (the key ends
    in ":<n>" when an area has several; pair_battles numbers them in this order)."""
    _, _, index = battle.key.partition(f":{battle.area}:")
    return battle.area, int(index) if index.isdigit() else 0


def _losses(
    turn: TurnInPlay,
    result: Mapping[str, Any],
    sides: dict[str, list[str]],
    fought: dict[str, Any],
) -> None:
    """Each side's losses leave its companies, one record per company that lost any."""
    state = turn.state
    replaceable = state.settings.supply_replaces_battle_losses
    for key, names in sides.items():
        companies = [state.companies[n] for n in names if n in state.companies]
        taken = _take_losses(
            companies, (result.get("losses") or {}).get(key, {}), replaceable=replaceable
        )
        for name, lost in taken.items():
            record(
                turn.log,
                "battles",
                "losses",
                f"{name} loses {describe(lost)}"
                + (" (supply may replace them)" if replaceable else " for good"),
                side=state.companies[name].side,
                company=name,
                outcome="losses",
                stands_lost=lost,
                **fought,
            )


def _loser_gives_way(turn: TurnInPlay, company: Company, fought: dict[str, Any]) -> None:
    """A losing company with stands left withdraws toward its base, or surrenders."""
    state, name = turn.state, company.name
    origin = company.area
    target = retreat(state, turn.mapping, company)
    if target is None:
        del state.companies[name]
        record(
            turn.log,
            "battles",
            "surrender",
            f"{name} cannot withdraw from {origin} and surrenders",
            side=company.side,
            company=name,
            outcome="surrendered",
            **fought,
        )
        return
    company.area = target
    record(
        turn.log,
        "battles",
        "withdrawal",
        f"{name} withdraws from {origin} to {target}",
        side=company.side,
        company=name,
        target=target,
        outcome="withdrew",
        **{"from": origin},
        **fought,
    )


def _losers(turn: TurnInPlay, names: list[str], fought: dict[str, Any]) -> None:
    """The losing companies: an empty one is removed, the rest give way."""
    for name in names:
        company = turn.state.companies.get(name)
        if company is None:
            continue
        if company.strength == 0:
            del turn.state.companies[name]
            record(
                turn.log,
                "battles",
                "company_removed",
                f"{name} has no stands left",
                side=company.side,
                company=name,
                outcome="removed",
                **fought,
            )
            continue
        _loser_gives_way(turn, company, fought)


def _feed_battle(turn: TurnInPlay, battle: PlannedBattle, result: Mapping[str, Any]) -> None:
    """One battle's result into the map."""
    state = turn.state
    winner_key = result["winner"]
    loser_key = "defender" if winner_key == "attacker" else "attacker"
    winner_side = battle.attacker_side if winner_key == "attacker" else battle.defender_side
    sides = {"attacker": sorted(battle.attackers), "defender": sorted(battle.defenders)}
    # Every record of this battle names it and its two sides (who may read it).
    fought = {
        "battle": battle.key,
        "attacker_side": battle.attacker_side,
        "defender_side": battle.defender_side,
    }
    _losses(turn, result, sides, fought)
    record(
        turn.log,
        "battles",
        "battle_result",
        f"battle at {battle.area}: the "
        f"{winner_key} ({state.sides[winner_side].name}) wins "
        f"({str(result.get('reason', 'entered')).replace('_', ' ')})",
        side=winner_side,
        target=battle.area,
        outcome=f"{winner_key} wins",
        winner=winner_key,
        **fought,
    )
    for name in sides[winner_key]:
        company = state.companies.get(name)
        if company is not None and company.side == BANZAI_SIDE:
            company.banzai = True
    _losers(turn, sides[loser_key], fought)
    for name in sides[winner_key]:
        company = state.companies.get(name)
        if company is not None and company.strength == 0:
            del state.companies[name]


def results_phase(turn: TurnInPlay) -> None:
    """Phase 6, after the battles: every result into the map, in a fixed order whatever
    order the plan lists the battles and their companies in (a plan rebuilt from the
    database, its battles fought as separate worker tasks, lists a battle's companies as
    the rows come): the battles by area and number, each side's companies by name.
    Withdrawals depend on it, and so does the log. A loser falling back may land on an
    enemy supply company, which must then give way."""
    for battle in sorted(turn.battles, key=battle_order):
        if battle.key not in turn.results:
            raise TurnError(f"the battle {battle.key} has no result yet")
        result = turn.results[battle.key]
        check_result(battle, result)
        _feed_battle(turn, battle, result)
    supply_companies_caught(turn.state, turn.mapping, turn.log)
