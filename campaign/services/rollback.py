"""Roll a campaign back to the start of an earlier turn: the GM's undo for a mistake."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q

from battles.models import Battle
from campaign.models import (
    Campaign,
    GmAdjustment,
    Order,
    ReadyTakenBack,
    SeedCommitment,
    SideReady,
    Turn,
)
from campaign.services.adjustments import (
    AdjustmentRefused,
    check_reason,
    check_seen,
    record,
    save_with_history,
)
from campaign.services.commitments import reseed_shown
from campaign.services.snapshot import save_snapshot
from campaign.settings_doc import adjustment_what
from rules.campaign.scenario import parse_scenario
from rules.names import by_name, join


def rollback_to_turn(
    *, campaign: Campaign, number: int, reason: str, user: Any = None, seen: str | None = None
) -> GmAdjustment:
    """Restore the campaign as it stood when turn ``number`` began (``Turn.start_state``).

    Turns ``number`` and later go, with their battles; orders for later turns go too,
    while the orders given for turn ``number`` stay, so it can be played again. The
    sides' "ready" marks for turn ``number`` and later go: each player looks at the
    campaign as it now stands and marks ready again (kept, every side ready would wait
    for a trigger already spent, and no player could take the mark back). Companies
    destroyed since come back (as new rows), those created since go. The campaign is
    active afterwards (a paused one stays paused), and a ``GmAdjustment`` records the
    roll-back.

    The public log tells what is true afterwards: the GM's changes made after turn
    ``number`` began (before a later turn, or while it waited for its battles) are undone
    with it and leave the log; the roll-back's own line, with its reason, says so, and
    keeps them in its ``details`` (``undone``) for the GM. Each undone turn whose seeds
    were shown gets a new seed, committed to at once (``reseed_shown``): played again
    from the shown one, its dice would be known before its orders (section 6); the line
    says so too. ``seen``: the page's ``campaign_version``, refused (``StaleChange``) if
    the campaign has moved on."""
    reason = check_reason(reason)
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        check_seen(row, seen)
        turn = Turn.objects.filter(campaign=row, number=number).first()
        if turn is None:
            raise AdjustmentRefused(f"{row.name} has no turn {number}")
        if turn.start_state is None:
            raise AdjustmentRefused(f"turn {number} did not keep the state it began from")
        state = parse_scenario(turn.start_state)
        played = row.turn
        undone_battles = Battle.objects.filter(campaign=row, turn__number__gte=number)
        removed = list(undone_battles.values_list("pk", flat=True))
        # The turns' battles go with them (CASCADE).
        Turn.objects.filter(campaign=row, number__gte=number).delete()
        if row.due_turn is not None:  # a turn the scheduler claimed is gone with the rest
            Campaign.objects.filter(pk=row.pk).update(due_turn=None, claimed_at=None)
        Order.objects.filter(campaign=row, turn_number__gt=number).delete()
        SideReady.objects.filter(campaign=row, turn_number__gte=number).delete()
        ReadyTakenBack.objects.filter(campaign=row, turn_number__gte=number).delete()
        undone = _undone(row, number)
        gone = [
            {
                "what": a.what,
                "reason": a.reason,
                "before_turn": a.before_turn,
                "user": a.user_id,
                "created_at": a.created_at.isoformat(),
                "details": a.details,
            }
            for a in undone.order_by("id")
        ]
        undone.delete()
        # The schedule changes made since stay (``_undone``): they now come before the
        # turn played again, not during or after it.
        for kept in _kept_schedule_changes(row, number):
            kept.before_turn = number
            kept.details = {k: v for k, v in (kept.details or {}).items() if k != "during_turn"}
            kept.save(update_fields=["before_turn", "details"])
        reseeded = reseed_shown(campaign=row, first=number)
        save_snapshot(campaign=row, state=state)
        # A paused campaign stays paused: the GM paused it for a reason the mistake being
        # fixed does not undo (a roll-back used to resume it without a word). An ended one
        # is running again.
        if row.status != Campaign.Status.PAUSED:
            row.status = Campaign.Status.ACTIVE
        save_with_history(row, ["status", "updated_at"], reason=reason, user=user)
        campaign.refresh_from_db()
        return record(
            campaign=row,
            what=f"Rolled back to the start of turn {number}"
            + (f"; {_changes(len(gone))} made since undone with it" if gone else "")
            + (f"; {_new_seeds(reseeded)}" if reseeded else ""),
            reason=reason,
            user=user,
            details={
                "to_turn": number,
                "turns_played_before": played,
                "undone": gone,
                "reseeded": reseeded,
                # The battles it removed, and those of the roll-backs it undid (their
                # lines go): a form sent for one says it was rolled back, not "not found".
                "battles_removed": sorted(removed + _removed_by(gone)),
            },
        )


def _removed_by(undone: list[dict[str, Any]]) -> list[int]:
    """The battles the roll-backs among the ``undone`` GM changes had removed."""
    return [
        pk
        for change in undone
        if isinstance(change.get("details"), dict)
        for pk in change["details"].get("battles_removed") or []
    ]


def rolled_back_battle(battle_id: int) -> bool:
    """Did a roll-back remove battle ``battle_id`` (with its turn)? Told by the battles each
    roll-back keeps (``battles_removed``), so a battle that never existed, or went with
    its campaign, or was removed by a roll-back made before they were kept, is not."""
    kept = GmAdjustment.objects.filter(details__has_key="battles_removed")
    return any(
        battle_id in (details.get("battles_removed") or [])
        for details in kept.values_list("details", flat=True)
    )


TURN_WORDS = {
    "done": "played",
    "battles_pending": "waiting for tabletop results",
    "failed": "failed",
    "queued": "queued",
    "rolling": "being played",
}


# The GM's changes a roll-back keeps: neither the schedule, nor who plays, nor a pause
# (a paused campaign stays paused) is part of a turn's start state, so they stay as the
# GM last made them, and so do their lines (a player's leaving, and their side's coming
# back to a player; the map's "paused since" reads the pause's).
KEPT_KINDS = ["schedule", "player", "player_joined", "pause", "resume"]


def _undone(campaign: Campaign, number: int) -> Any:
    """The GM's changes a roll-back to the start of turn ``number`` undoes. Not a
    schedule change nor a player's leaving (``KEPT_KINDS``)."""
    return (
        GmAdjustment.objects.filter(campaign=campaign)
        .filter(Q(before_turn__gt=number) | Q(before_turn=number, details__during_turn=number))
        # (a row without "kind" has no value to compare: NOT of it would drop the row)
        .filter(~Q(details__has_key="kind") | ~Q(details__kind__in=KEPT_KINDS))
    )


# Why each kept change is kept, in the roll-back's preview.
_KEPT_AS = {
    "schedule": "as the schedule is now",
    "pause": "a roll-back neither pauses nor resumes the campaign",
    "resume": "a roll-back neither pauses nor resumes the campaign",
}


def _kept_schedule_changes(campaign: Campaign, number: int) -> Any:
    """The schedule changes, players' leavings, pauses and resumes a roll-back to the
    start of turn ``number`` keeps, among those made since it began (``_undone`` leaves
    them out)."""
    return (
        GmAdjustment.objects.filter(campaign=campaign, details__kind__in=KEPT_KINDS)
        .filter(Q(before_turn__gt=number) | Q(before_turn=number, details__during_turn=number))
        .order_by("id")
    )


def rollback_preview(*, campaign: Campaign, number: int) -> list[str]:
    """What rolling back to the start of turn ``number`` would undo, one line each, in
    words, for the GM to read before confirming; nothing is changed."""
    lines = []
    start_state = None
    turns = Turn.objects.filter(campaign=campaign, number__gte=number).order_by("number")
    for turn in turns.prefetch_related("battles"):
        battles = len(turn.battles.all())
        fought = f", its {battles} battle{'s' if battles != 1 else ''}" if battles else ""
        status = TURN_WORDS.get(turn.status, turn.status)
        lines.append(f"Turn {turn.number} ({status}){fought}: deleted.")
        if turn.number == number:
            start_state = turn.start_state
    later = Order.objects.filter(campaign=campaign, turn_number__gt=number).count()
    if later:
        lines.append(
            f"{later} order{'s' if later != 1 else ''} given for turn {number + 1} or later: "
            "deleted."
        )
    ready = sorted(
        SideReady.objects.filter(campaign=campaign, turn_number=number).values_list(
            "side", flat=True
        )
    )
    if ready:
        names = dict(campaign.sides.values_list("key", "name"))
        lines.append(
            f"Marked ready for turn {number}: {join(names.get(s, s) for s in ready)}. "
            "Unmarked: each side marks its orders ready again."
        )
    shown = list(
        SeedCommitment.objects.filter(
            campaign=campaign, number__gte=number, revealed_at__isnull=False
        )
        .order_by("number")
        .values_list("number", flat=True)
    )
    if shown:
        lines.append(
            f"{_new_seeds(shown).capitalize()}: drawn at random and committed to at once, "
            "so that no player knows the dice of a turn before giving its orders."
        )
    lines += _standing_orders_undone(campaign, number, start_state)
    for adjustment in _undone(campaign, number).order_by("id"):
        what = adjustment_what(adjustment.what, adjustment.details)
        lines.append(f'Your change "{what}" ({adjustment.reason}): undone.')
    for kept in _kept_schedule_changes(campaign, number):
        why = _KEPT_AS.get(str((kept.details or {}).get("kind")), "as who plays is now")
        lines.append(
            f'Your change "{kept.what}" ({kept.reason}): kept, {why}; the '
            f"log lists it before turn {number}."
        )
    lines += _battles_fought_again(turns)
    if campaign.status == Campaign.Status.FINISHED:
        lines.append("The campaign's end: undone; it is active again.")
    if campaign.status == Campaign.Status.PAUSED:
        lines.append(
            "The campaign is paused: it stays paused. No turn is played on its schedule "
            "until you resume it."
        )
    return lines


def _battles_fought_again(turns: Any) -> list[str]:
    """What happens to the battles the roll-back deletes, for a GM who rolls back to fix
    a mistyped tabletop result: the turn played again rolls new dice (its seeds were
    shown), so its battles are not the same ones, and a tabletop battle needs its result
    entered again. A walk-through's GM found the battle their table had fought gone."""
    battles = [battle for turn in turns for battle in turn.battles.all()]
    if not battles:
        return []
    lines = [
        "The battles deleted are not fought again as they were: the turns played again "
        "roll new dice, so their moves, supply and battles may differ."
    ]
    if any(battle.mode == "tabletop" for battle in battles):
        lines.append(
            "A tabletop battle of the turn played again needs its result entered again, "
            "and it may not be the battle your table fought. To fix only a mistyped "
            "result, check it before you roll back: a result entered is final."
        )
    return lines


def _standing_orders_undone(
    campaign: Campaign, number: int, start_state: dict[str, Any] | None
) -> list[str]:
    """The standing orders set since turn ``number`` began, which the roll-back puts back
    as they were then (they are part of its start state): 'Standing order aggressive of
    A Company and B Company, set since turn 6 began: back to sensible.' A walk-through's
    GM set a side aggressive, rolled back to fix a table result, and found it sensible
    again with no word of it (standing orders are neither orders for a turn nor GM
    changes in the log, the preview's other lines)."""
    if not isinstance(start_state, dict):
        return []
    then = {
        (company.get("side"), company.get("name")): company.get("standing_order")
        for company in start_state.get("companies") or []
        if isinstance(company, dict)
    }
    changed: dict[tuple[str, str], list[str]] = {}
    rows = campaign.companies.order_by("side", "name").values_list("side", "name", "standing_order")
    for side, name, order in rows:
        was = then.get((side, name))
        if was and was != order:
            changed.setdefault((order, was), []).append(name)
    return [
        f"Standing order {now} of {join(by_name(companies))}, set since turn {number} "
        f"began: back to {was}."
        for (now, was), companies in changed.items()
    ]


def _new_seeds(numbers: list[int]) -> str:
    """'turn 2 has a new seed (its dice had been shown)', or 'turns 2 and 3 have...'"""
    if len(numbers) == 1:
        return f"turn {numbers[0]} has a new seed (its dice had been shown)"
    return f"turns {join(str(n) for n in numbers)} have new seeds (their dice had been shown)"


def _changes(count: int) -> str:
    return "the game master's change" if count == 1 else f"the game master's {count} changes"
