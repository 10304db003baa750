"""The one module that sends Korona's tasks: by name, and only once the transaction that
asked for them has committed.

The services call these; they never import a ``tasks`` module, which imports the
services (the cycle services -> tasks -> services is gone, and the import contracts in
pyproject.toml keep it gone). A task is looked up by its registered name when it is
sent: the apps' ``ready()`` import their ``tasks`` modules, so every process that can
send one has registered it.

``robust=True``: a send that fails (or, run eagerly, a task that fails) is logged and
never undoes or stops what asked for it; a turn claim never sent is handed out again by
a later sweep, a failed notice is tried again by the notices' sweep.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction

from config.celery import app

log = logging.getLogger(__name__)


# The odds' chunks go last: a worker takes one only when no turn, battle, notice or sweep
# waits. Every look at an orders page with a planned attack sends dozens of them; in line
# with the rest they kept a turn waiting a minute and made beat's sweep expire unread. On
# Redis a lower number is taken first and a task sent without one is at 0; brokers without
# priorities (the in-memory one, tasks run at once) ignore it.
LAST = 9


def _send(name: str, *args: int | str, priority: int = 0) -> None:
    app.tasks[name].apply_async(args, queue=settings.KORONA_TASK_QUEUE, priority=priority)


def enqueue_turn(campaign_id: int, turn_number: int) -> None:
    transaction.on_commit(
        lambda: _send("campaign.process_turn", campaign_id, turn_number), robust=True
    )


def enqueue_due_turn(campaign_id: int) -> None:
    """The campaign's turn, due now that every side is ready, claimed and played within
    seconds of the last "ready", not at beat's next sweep (up to KORONA_SWEEP_SECONDS).
    With no broker (the embedded default) nothing is sent: a task runs at once where it
    is sent, and the turn would be played inside the web request that marked "ready";
    the embedded scheduler (``run_scheduler``) looks for a due turn every second."""
    if app.conf.task_always_eager:
        return
    transaction.on_commit(lambda: _send("campaign.claim_due_turn", campaign_id), robust=True)


def enqueue_battle(battle_id: int) -> None:
    transaction.on_commit(lambda: _send("campaign.fight_battle", battle_id), robust=True)


def enqueue_turn_notices(turn_id: int) -> None:
    transaction.on_commit(lambda: _send("notifications.turn_notices", turn_id), robust=True)


def enqueue_adjustment_notices(adjustment_id: int) -> None:
    transaction.on_commit(
        lambda: _send("notifications.adjustment_notices", adjustment_id), robust=True
    )


def enqueue_message_notices(message_id: int) -> None:
    transaction.on_commit(lambda: _send("notifications.message_notices", message_id), robust=True)


def enqueue_odds_chunk(job_key: str, index: int) -> None:
    """A chunk of an odds estimate (campaign.services.odds), sent at once: it waits for
    nothing in the database (its job is in the cache). A send that fails is logged; the
    chunk is sent again by a later request for the odds."""
    try:
        _send("campaign.odds_chunk", job_key, index, priority=LAST)
    except Exception:
        log.exception("could not send odds chunk %s of %s", index, job_key)
