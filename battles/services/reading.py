"""A battle as a reader of its campaign may read it: whether its report is open to them,
its spec and its seed, under the fog of war (rulings, section 6). The reader is the
campaign's ``CampaignView``; the battle pages, the API and the tests all ask here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from battles.models import Battle
from campaign.models import GmAdjustment
from campaign.services.adjustments import CORRECTION
from campaign.services.visibility import CampaignView
from rules.campaign import visibility as fog


def battle_open(view: CampaignView, battle: Battle) -> bool:
    """May the viewer read this battle's report (both forces, the log)?"""
    return battle.campaign_id == view.campaign.pk and fog.battle_visible(
        battle.attacker_side, battle.defender_side, view.state, view.viewer
    )


def battle_spec(view: CampaignView, battle: Battle) -> dict[str, Any]:
    """A battle's spec as the viewer may read it. Until the battle is fought, the
    defender's sniper choice is its own order (section 6: never the enemy's orders):
    the attacker's players read the defending force without it."""
    spec = dict(battle.spec or {})
    hidden = (
        not view.game_master
        and battle.status == Battle.Status.PENDING
        and battle.defender_side != view.side
    )
    defender = spec.get("defender")
    if hidden and isinstance(defender, dict) and "sniper" in defender:
        spec["defender"] = {k: v for k, v in defender.items() if k != "sniper"}
    return spec


def battle_seed(view: CampaignView, battle: Battle) -> int | None:
    """A battle's seed, shown only with its report once fought (the GM: always): the
    seed of a battle not yet fought would tell its result in advance."""
    if view.game_master or battle.status != Battle.Status.PENDING:
        return battle.seed
    return None


def result_corrections(campaign_id: int, battle_ids: Iterable[int]) -> dict[int, GmAdjustment]:
    """The GM's latest correction of each of these battles' results (the public line
    ``correct_battle_result`` records), by battle id; a battle never corrected is not
    there. One query. A roll-back takes a correction off the log with its turn."""
    wanted = set(battle_ids)
    found: dict[int, GmAdjustment] = {}
    rows = GmAdjustment.objects.filter(campaign_id=campaign_id, details__kind=CORRECTION)
    for row in rows.order_by("id"):
        battle = (row.details or {}).get("battle")
        if battle in wanted:
            found[battle] = row
    return found
