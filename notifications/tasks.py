"""Celery tasks of the notices: thin, ids in, sent once the change has committed
(``enqueue_*``), idempotent by the unique key of ``Notice`` (notifications.services)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import transaction

from campaign.services import schedule
from notifications import services

RETRY = {
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


# robust: a notice that fails to send (or, run eagerly, fails at all) is logged and never
# undoes or stops what it tells of.


def enqueue_turn_notices(turn_id: int) -> None:
    transaction.on_commit(
        lambda: turn_notices.apply_async((turn_id,), queue=settings.KORONA_TASK_QUEUE),
        robust=True,
    )


def enqueue_adjustment_notices(adjustment_id: int) -> None:
    transaction.on_commit(
        lambda: adjustment_notices.apply_async((adjustment_id,), queue=settings.KORONA_TASK_QUEUE),
        robust=True,
    )


def enqueue_message_notices(message_id: int) -> None:
    transaction.on_commit(
        lambda: message_notices.apply_async((message_id,), queue=settings.KORONA_TASK_QUEUE),
        robust=True,
    )
