"""The battles a campaign turn paired: stored as Battle rows with their companies when
the turn starts, and read back as the rules' ``PlannedBattle`` when it finishes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from battles.models import Battle
from battles.services.fighting import fight
from campaign.models import Area, Campaign, Company, Turn
from campaign.services.snapshot import insert_rows
from rules.campaign.turn import PlannedBattle


def store_battles(
    *,
    campaign: Campaign,
    turn: Turn,
    planned: Sequence[PlannedBattle],
    mode: str,
    ruleset: str,
    tabletop_deadline: datetime | None,
    area_ids: Mapping[str, int] | None = None,
    company_ids: Mapping[str, int] | None = None,
    fought: bool = False,
) -> list[Battle]:
    """A Battle row for each battle the turn paired, with its companies (the campaign's
    area and company ids read once, unless given: ``area_ids``, ``company_ids`` by name).
    ``fought``: each fought by the rules first, so its row is written once, with its
    result."""
    if area_ids is None:
        area_ids = dict(Area.objects.filter(campaign=campaign).values_list("name", "id"))
    if company_ids is None:
        company_ids = dict(Company.objects.filter(campaign=campaign).values_list("name", "id"))
    rows = [
        Battle(
            campaign=campaign,
            turn=turn,
            area_id=area_ids[battle.area],
            key=battle.key,
            attacker_side=battle.attacker_side,
            defender_side=battle.defender_side,
            mode=mode,
            ruleset=ruleset,
            seed=battle.seed,
            spec=battle.spec,
            deadline=tabletop_deadline if mode == "tabletop" else None,
        )
        for battle in planned
    ]
    if fought:
        # Each spec as the pairing read it (the same dict, unchanged since) and its table
        # as the pairing rolled it: neither again.
        rows = [
            fight(row, battle.parsed, battle.table)
            for row, battle in zip(rows, planned, strict=True)
        ]
    battles = Battle.objects.bulk_create(rows)
    for relation in ("attackers", "defenders"):
        # Plain values in one INSERT: the rows are not read again in the turn.
        insert_rows(
            getattr(Battle, relation).through,
            ["battle", "company"],
            [
                (row.pk, company_ids[name])
                for row, battle in zip(battles, planned, strict=True)
                for name in getattr(battle, relation)
            ],
        )
    return battles


def planned_battles(battles: Sequence[Battle]) -> list[PlannedBattle]:
    """The rules' pairing back from the rows (their companies prefetched)."""
    return [
        PlannedBattle(
            key=b.key,
            area=b.spec["area"]["name"],
            attacker_side=b.attacker_side,
            defender_side=b.defender_side,
            attackers=[c.name for c in b.attackers.all()],
            defenders=[c.name for c in b.defenders.all()],
            seed=b.seed,
            spec=b.spec,
        )
        for b in battles
    ]
