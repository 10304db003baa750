"""Celery tasks of the notices: thin, ids in, sent by name once the change has committed
(``config.enqueue``), idempotent by the unique key of ``Notice`` (notifications.services)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from campaign.services import schedule
from notifications import services

RETRY: dict[str, Any] = {
    "autoretry_for": schedule.TRANSIENT_ERRORS,
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 12,
}


@shared_task(name="notifications.turn_notices", **RETRY)
def turn_notices(turn_id: int) -> int:
    return services.turn_notices(turn_id=turn_id)


@shared_task(name="notifications.adjustment_notices", **RETRY)
def adjustment_notices(adjustment_id: int) -> int:
    return services.adjustment_notices(adjustment_id=adjustment_id)


@shared_task(name="notifications.message_notices", **RETRY)
def message_notices(message_id: int) -> int:
    return services.message_notices(message_id=message_id)


@shared_task(name="notifications.sweep", **RETRY)
def sweep_notices() -> int:
    """Deadline reminders due now, and failed sends tried again."""
    return services.deadline_reminders() + services.retry_failed()
