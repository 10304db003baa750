"""python manage.py run_scheduler [--every SECONDS] [--once]: the embedded schedule.

Sweeps due campaigns every few seconds, and at once when a turn falls due between two
sweeps (every side ready moves its deadline to now: it looks each second, one indexed
query), in this process: with no REDIS_URL the tasks
run at once, here (the turns and their battles included); with REDIS_URL it sends them
to the workers, as `celery beat` would. Either way the claims are in the database, so
running it beside a beat (or twice) never plays a turn twice.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, close_old_connections
from django.utils import timezone

from campaign.services.schedule import due_campaigns, sweep_due
from config.celery import app as celery_app
from notifications.tasks import sweep_notices

# Seconds between two looks for a turn due now: the last side ready makes its turn due at
# once, and "played within seconds" should not wait for the next sweep.
LOOK_SECONDS = 1.0


def wait_for_sweep(seconds: float) -> None:
    """Sleep until the next sweep is due, ``seconds`` on, or less: until a campaign's
    turn is due now (every side ready, ``mark_side_ready``), which is swept at once."""
    left = seconds
    while left > 0:
        step = min(LOOK_SECONDS, left)
        time.sleep(step)
        left -= step
        try:
            if due_campaigns(timezone.now()).exists():
                return
        except DatabaseError:
            continue  # the database is away: the sweep at its time says why


class Command(BaseCommand):
    help = "Play the turns of campaigns whose deadline has passed, every few seconds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--every",
            type=float,
            default=min(settings.KORONA_SWEEP_SECONDS, 10.0),
            help="seconds between sweeps (default: KORONA_SWEEP_SECONDS, at most 10)",
        )
        parser.add_argument("--once", action="store_true", help="sweep once and stop")

    def handle(self, *args: object, **options: object) -> None:
        every = float(options["every"])  # type: ignore[arg-type]
        eager = celery_app.conf.task_always_eager  # no REDIS_URL: the tasks run here
        mode = "in-process" if eager else "sending turns to the workers"
        outcome = "processed" if eager else "sent to a worker"
        self.stdout.write(f"run_scheduler: sweeping due campaigns every {every:g} s, {mode}")
        try:
            while True:
                try:
                    done = sweep_due()
                    sweep_notices.delay()  # deadline reminders; sends that failed, again
                except Exception as error:  # noqa: BLE001 - keep the loop alive; say why
                    self.stderr.write(f"run_scheduler: the sweep failed: {error}")
                else:
                    for campaign_id, number in done.claimed + done.reissued:
                        self.stdout.write(f"campaign {campaign_id}: turn {number} {outcome}")
                if options["once"]:
                    return
                wait_for_sweep(every)
                close_old_connections()  # a long-lived process: drop a dead connection
        except KeyboardInterrupt:
            return
