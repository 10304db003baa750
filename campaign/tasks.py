"""Celery tasks of the campaign: thin, ids in, the services do the work.

Every task is sent only once the transaction that asked for it has committed
(``enqueue_*`` below), retried on a transient database error only, and idempotent: the
services claim their work in the database, so a duplicate delivery does nothing.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import transaction

from campaign.services import schedule
from campaign.services.turns import fight_pending_battle

RETRY = {
    "autoretry_for": schedule.TRANSIENT_ERRORS,
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 12,
}


@shared_task(name="campaign.sweep_due_campaigns", **RETRY)
def sweep_due_campaigns() -> int:
    """Claim the campaigns whose deadline has passed and send their turns to workers."""
    return len(schedule.sweep_due().claimed)


@shared_task(name="campaign.process_turn", bind=True, **RETRY)
def process_campaign_turn(self, campaign_id: int, turn_number: int) -> bool:  # noqa: ANN001
    # On a worker the turn's battles are tasks of their own; run eagerly, in-process.
    return schedule.process_turn(
        campaign_id=campaign_id,
        turn_number=turn_number,
        defer_battles=not self.request.is_eager,
    )


@shared_task(name="campaign.fight_battle", **RETRY)
def fight_battle(battle_id: int) -> bool:
    """An auto battle of a turn in progress, or a tabletop one past its deadline."""
    if fight_pending_battle(battle_id=battle_id) is not None:
        return True
    return schedule.resolve_unentered(battle_id=battle_id)


# robust: one send that fails (or, run eagerly, one turn that fails) is logged and does
# not stop the others; a claim never sent is handed out again by a later sweep.


def enqueue_turn(campaign_id: int, turn_number: int) -> None:
    transaction.on_commit(
        lambda: process_campaign_turn.apply_async(
            (campaign_id, turn_number), queue=settings.KORONA_TASK_QUEUE
        ),
        robust=True,
    )


def enqueue_battle(battle_id: int) -> None:
    transaction.on_commit(
        lambda: fight_battle.apply_async((battle_id,), queue=settings.KORONA_TASK_QUEUE),
        robust=True,
    )
