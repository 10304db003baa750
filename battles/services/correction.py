"""The GM corrects a mistyped tabletop result, before the next turn is played.

A roll-back would play the turn again with new dice (its seeds were shown), so the
battle fought at the table would become another battle. A correction instead plays the
turn again exactly (``campaign.services.turns.replay_turn``): its own start state,
orders and seeds, every other battle's result as it stands, and the corrected one. No
order of that turn can change any more, so its seeds, though shown, tell nobody anything
they could still use (docs/campaign.md, "Correcting a tabletop result").
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from battles.models import Battle
from battles.services.results import ResultRefused, checked_result
from campaign.models import Campaign, GmAdjustment, Turn
from campaign.services.adjustments import CORRECTION as CORRECTION
from campaign.services.adjustments import check_reason, check_seen, record
from campaign.services.rollback import KEPT_KINDS
from campaign.services.turns import replay_turn
from rules import names

# CORRECTION (above), the details' kind of a correction's line: a later correction does not
# count it among the GM changes a replay would undo (``_changes_since_start``).

# A turn a correction finds after the battle's own: played, or being played.
_STARTED = [Turn.Status.DONE, Turn.Status.BATTLES_PENDING, Turn.Status.ROLLING]


class CorrectionRefused(ResultRefused):
    """A result that may not be corrected now; the message says why and what to do."""


def correction_refusal(battle: Battle) -> str | None:
    """Why the result of ``battle`` cannot be corrected now, in the GM's words, or None:
    only a result entered from the table, while its turn is the latest begun."""
    place = battle.spec["area"]["name"]
    if battle.status == Battle.Status.PENDING:
        return f"the battle at {place} has no result yet: enter it instead"
    if battle.status != Battle.Status.ENTERED:
        return (
            f"the battle at {place} was fought by the rules: its dice gave its result, "
            "and there is no typing to correct"
        )
    n = battle.turn.number
    later = (
        Turn.objects.filter(campaign_id=battle.campaign_id, number__gt=n, status__in=_STARTED)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    if later is not None:
        return (
            f"turn {later} has been played since the battle at {place} was fought in turn "
            f"{n}, and its orders were given knowing the result: only a roll-back to the "
            f"start of turn {n} can change it now (its turns are then played with new dice)"
        )
    return None


def _changes_since_start(campaign: Campaign, number: int) -> list[GmAdjustment]:
    """The GM's changes to the state made since turn ``number`` began (while it waited
    for its battles, or after it), which playing it again from its start state would
    undo: not the schedule, who plays, an earlier correction, or the coming turn's new
    seed (the turn played again keeps its own, and the coming turn's commitment stays)."""
    made = GmAdjustment.objects.filter(campaign=campaign, before_turn__gt=number)
    during = GmAdjustment.objects.filter(
        campaign=campaign, before_turn=number, details__during_turn=number
    )
    return [
        change
        for change in (made | during).order_by("id")
        if (change.details or {}).get("kind") not in [*KEPT_KINDS, CORRECTION]
        and "withdrawn_commitment" not in (change.details or {})
    ]


def correct_battle_result(
    *,
    battle_id: int,
    winner: str,
    losses: dict[str, dict[str, int]],
    reason: str,
    user: Any = None,
    seen: str | None = None,
) -> GmAdjustment:
    """Replace the entered result of a tabletop battle with ``winner`` and ``losses``
    (checked as an entered one is), and, if its turn was complete, play the turn again
    exactly with it (``replay_turn``), all in one transaction. A public line says what
    was corrected and why (``reason``, required). ``seen``: the page's
    ``campaign_version``, refused (``StaleChange``) if the campaign has moved on.

    Refused (``CorrectionRefused``) for a battle fought by the rules, once a later turn
    has been played, or while GM changes made since the turn began would be undone by
    playing it again."""
    reason = check_reason(reason)
    with transaction.atomic():
        found = Battle.objects.get(pk=battle_id)
        campaign = Campaign.objects.select_for_update().get(pk=found.campaign_id)
        check_seen(campaign, seen)
        battle = Battle.objects.select_for_update().select_related("turn").get(pk=battle_id)
        refusal = correction_refusal(battle)
        if refusal is not None:
            raise CorrectionRefused(refusal)
        result = checked_result(battle, winner, losses)
        if result == battle.result:
            raise CorrectionRefused(
                "that is the result already entered: change the winner or the losses"
            )
        turn = Turn.objects.select_for_update().get(pk=battle.turn_id)
        if turn.status == Turn.Status.DONE:
            changes = _changes_since_start(campaign, turn.number)
            if changes:
                said = "; ".join(f'"{change.what}"' for change in changes)
                raise CorrectionRefused(
                    f"turn {turn.number} is played again to correct the result, from the "
                    f"state it began with, and that would undo your changes made since it "
                    f"began ({said}): roll back to the start of turn {turn.number} instead"
                )
        before = battle.result
        battle.result = result
        battle.save(update_fields=["result"])
        if turn.status == Turn.Status.DONE:
            replay_turn(campaign=campaign, turn=turn)
        return record(
            campaign=campaign,
            what=correction_line(campaign, battle, turn.number, before or {}, result),
            reason=reason,
            user=user,
            details={
                "kind": CORRECTION,
                "battle": battle.pk,
                "turn": turn.number,
                "before": before,
                "after": result,
            },
        )


def correction_line(
    campaign: Campaign,
    battle: Battle,
    number: int,
    before: dict[str, Any],
    after: dict[str, Any],
) -> str:
    """The public line of a correction: the result now and, when the line has room for
    it (``GmAdjustment.what``'s length), the result as it was entered; a result with many
    losses may leave room for the new one only (the old is in ``details``)."""
    sides = dict(campaign.sides.values_list("key", "name"))
    place = battle.spec["area"]["name"]
    now = (
        f"The result of the battle at {place} in turn {number} was corrected: "
        f"{result_words(battle, after, sides)}"
    )
    was = f" (it was entered as: {result_words(battle, before, sides)})"
    room = GmAdjustment._meta.get_field("what").max_length or len(now + was)
    if len(now + was) <= room:
        return now + was
    return now if len(now) <= room else now[: room - 1] + "…"


def result_words(battle: Battle, result: dict[str, Any], sides: dict[str, str]) -> str:
    """'the Australians, defending, win; the Japanese lost 3 rifle squads, the
    Australians lost nothing', each side by its name in the campaign (the walk of 7
    December 2026 read "win; lost: the Japanese nothing, ...")."""
    side_of = {"attacker": battle.attacker_side, "defender": battle.defender_side}
    called = {role: sides.get(key) or names.side_adjective(key) for role, key in side_of.items()}
    winner = str(result.get("winner"))
    acting = "attacking" if winner == "attacker" else "defending"
    losses = result.get("losses") or {}
    lost = [
        f"the {called[role]} lost {names.stands(names.in_unit_order(losses.get(role) or {}))}"
        for role in ("attacker", "defender")
    ]
    return f"the {called.get(winner, winner)}, {acting}, win; {', '.join(lost)}"
