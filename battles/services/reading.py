"""A battle as a reader of its campaign may read it: whether its report is open to them,
its spec and its seed, under the fog of war (rulings, section 6). The reader is the
campaign's ``CampaignView``; the battle pages, the API and the tests all ask here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from battles.models import Battle
from campaign.models import GmAdjustment
from campaign.services.adjustments import CORRECTION
from campaign.services.deadlines import moment_words
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


@dataclass(frozen=True, slots=True)
class CorrectionMark:
    """A tabletop result of a turn that the GM corrected, as a reader of the turn's page
    is told of it beside the turn's battles (the GM's line of it is filed with the
    changes before the next turn, where a walk-through of 7 December 2026 found it: the
    turn's own page showed the new numbers with no sign they had changed)."""

    when: datetime
    waited: bool  # made while the turn still waited for its battles, not after it
    told_before: int  # the turn whose "game master's changes" list it (``before_turn``)
    battle_id: int | None = None  # the battle, for a reader who may read it
    battle_key: str = ""
    label: str = ""  # "Oivi", "Korona (battle 2)": for a reader who may read it


def turn_corrections(
    view: CampaignView, battles: Iterable[Mapping[str, Any]]
) -> dict[int, list[CorrectionMark]]:
    """The GM's corrections of tabletop results, by the number of the battle's turn,
    oldest first. Of a battle among ``battles`` (``readable_battles`` rows: the
    reader's) the latest, with the battle; of any other (a spectator's: section 6), each
    one as the public log tells it, its turn and when, neither its place nor its result.
    One query."""
    readable = {row["id"]: row for row in battles}
    marks: dict[int, list[CorrectionMark]] = {}
    latest: dict[int, tuple[int, CorrectionMark]] = {}
    rows = GmAdjustment.objects.filter(campaign=view.campaign, details__kind=CORRECTION)
    for row in rows.order_by("id"):
        details = row.details or {}
        number, battle = details.get("turn"), details.get("battle")
        if not isinstance(number, int):
            continue
        mark = CorrectionMark(
            when=row.created_at,
            waited=details.get("during_turn") == number,
            told_before=row.before_turn,
        )
        if isinstance(battle, int) and battle in readable:
            found = readable[battle]
            latest[battle] = (
                number,
                CorrectionMark(
                    mark.when,
                    mark.waited,
                    mark.told_before,
                    battle_id=battle,
                    battle_key=found["key"],
                    label=found["label"],
                ),
            )
        else:
            marks.setdefault(number, []).append(mark)
    for number, mark in latest.values():
        marks.setdefault(number, []).append(mark)
    for listed in marks.values():
        listed.sort(key=lambda mark: mark.when)
    return marks


def correction_mark_words(mark: CorrectionMark, clock: str) -> str:
    """A correction's mark as a turn's feed entry says it, on ``clock``: "The result of
    the battle at Oivi was corrected by the game master after the turn was played, on
    Mon 7 Dec 2026, 09:40 AEDT: its report says why." (a reader of another side's
    battle: "The result of a battle of this turn, fought on the table, ...")."""
    when = "while the turn waited for its battles" if mark.waited else "after the turn was played"
    moment = moment_words(mark.when, clock)
    if mark.battle_id is None:
        return (
            f"The result of a battle of this turn, fought on the table, was corrected by the "
            f"game master {when}, on {moment}: the game master's changes say why."
        )
    return (
        f"The result of the battle at {mark.label} was corrected by the game master {when}, "
        f"on {moment}: its report says why."
    )
