"""Celery tasks of the campaign: thin, ids in, the services do the work.

Every task is sent by name, only once the transaction that asked for it has committed
(``config.enqueue``), retried on a transient database error only, and idempotent: the
services claim their work in the database, so a duplicate delivery does nothing.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from campaign.services import odds, schedule

RETRY: dict[str, Any] = {
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


@shared_task(name="campaign.claim_due_turn", **RETRY)
def claim_due_turn(campaign_id: int) -> int:
    """Claim the campaign's turn if it is due (its last side just became ready) and send
    it to a worker: the sweep of one campaign; a duplicate, or a turn not due, claims
    nothing."""
    return len(schedule.claim_due_turn(campaign_id=campaign_id))


@shared_task(name="campaign.process_turn", bind=True, **RETRY)
def process_campaign_turn(self, campaign_id: int, turn_number: int) -> bool:  # noqa: ANN001
    # On a worker the turn's battles are tasks of their own; run eagerly, in-process.
    return schedule.process_turn(
        campaign_id=campaign_id,
        turn_number=turn_number,
        defer_battles=not self.request.is_eager,
    )


@shared_task(name="campaign.odds_chunk")
def odds_chunk(job_key: str, index: int) -> bool:
    """A chunk of an odds estimate, its job in the cache; a duplicate does nothing."""
    return odds.fight_sent_chunk(job_key=job_key, index=index)
