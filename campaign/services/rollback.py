"""Roll a campaign back to the start of an earlier turn: the GM's undo for a mistake."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign.models import Campaign, GmAdjustment, Order, Turn
from campaign.services.adjustments import AdjustmentRefused, check_reason, record
from campaign.services.snapshot import save_snapshot
from rules.campaign.scenario import parse_scenario


def rollback_to_turn(
    *, campaign: Campaign, number: int, reason: str, user: Any = None
) -> GmAdjustment:
    """Restore the campaign as it stood when turn ``number`` began (``Turn.start_state``).

    Turns ``number`` and later go, with their battles; orders for later turns go too,
    while the orders given for turn ``number`` stay, so it can be played again. Companies
    destroyed since come back (as new rows), those created since go. The campaign is
    active afterwards, and a ``GmAdjustment`` records the roll-back."""
    reason = check_reason(reason)
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        turn = Turn.objects.filter(campaign=row, number=number).first()
        if turn is None:
            raise AdjustmentRefused(f"{row.name} has no turn {number}")
        if turn.start_state is None:
            raise AdjustmentRefused(f"turn {number} did not keep the state it began from")
        state = parse_scenario(turn.start_state)
        played = row.turn
        # The turns' battles go with them (CASCADE).
        Turn.objects.filter(campaign=row, number__gte=number).delete()
        if row.due_turn is not None:  # a turn the scheduler claimed is gone with the rest
            Campaign.objects.filter(pk=row.pk).update(due_turn=None, claimed_at=None)
        Order.objects.filter(campaign=row, turn_number__gt=number).delete()
        save_snapshot(campaign=row, state=state)
        row.status = Campaign.Status.ACTIVE
        row.save(update_fields=["status", "updated_at"])
        campaign.refresh_from_db()
        return record(
            campaign=row,
            what=f"rolled back to the start of turn {number}",
            reason=reason,
            user=user,
            details={"to_turn": number, "turns_played_before": played},
        )
