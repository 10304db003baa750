"""Exactly once, shown with a real Redis broker and real Celery worker processes.

Each case plays turn 1 of a campaign in which two battles are fought (so the battles run
as tasks of their own on the worker) through something that could play it twice or lose
it, and ends with exactly one Turn row and the state of one clean run with the same seed.
Needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL); CI has both, and there
tests/conftest.py stops the run rather than skip these.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.db import connection

from campaign.models import Campaign, Turn
from campaign.services.schedule import mark_side_ready, set_schedule, sweep_due
from campaign.services.turns import (
    OrdersOutOfDate,
    TurnAlreadyPlayed,
    TurnRefused,
    advance_turn,
)
from campaign.tasks import process_campaign_turn, sweep_due_campaigns
from config.celery import app as celery_app
from tests.campaign.test_services_turns import meeting_doc, new_campaign, reload
from tests.scheduling.test_schedule import NOW, clean_run, same_as

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL", "").strip()

pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set: no broker to test against"),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL: the worker shares the test database with the test",
    ),
]

SEED = 11


class Workers:
    """Celery worker processes on the test database and a queue of this test's own."""

    def __init__(self, queue: str, log_dir: Path) -> None:
        self.queue = queue
        self.log_dir = log_dir
        self.started: list[subprocess.Popen[bytes]] = []
        self.redis = redis.Redis.from_url(REDIS_URL)

    def start(self, **env: str) -> subprocess.Popen[bytes]:
        url = urlsplit(os.environ["DATABASE_URL"])
        database = connection.settings_dict["NAME"]  # test_korona
        environment = {
            **os.environ,
            "DATABASE_URL": urlunsplit(url._replace(path=f"/{database}")),
            "KORONA_TASK_QUEUE": self.queue,
            **env,
        }
        number = len(self.started)
        log = (self.log_dir / f"worker-{number}.log").open("wb")
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "-c",
                "1",
                "-Q",
                self.queue,
                "-n",
                f"{self.queue}-{number}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-l",
                "info",
            ],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.started.append(worker)
        return worker

    def send(self, task: Any, *args: Any) -> None:
        task.apply_async(args, queue=self.queue)

    def drained(self) -> bool:
        """Nothing waits in the queue (at any priority: the odds' chunks wait at the
        lowest, config/enqueue.py) and no delivery is unacknowledged."""
        waiting = sum(self.redis.llen(key) for key in self.redis.scan_iter(f"{self.queue}*"))
        unacked = [
            key
            for key in self.redis.hkeys("unacked")
            if self.queue.encode() in (self.redis.hget("unacked", key) or b"")
        ]
        return waiting == 0 and not unacked

    def stop(self) -> None:
        for worker in self.started:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
        for worker in self.started:
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        for key in self.redis.scan_iter(f"{self.queue}*"):
            self.redis.delete(key)

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.log_dir.glob("*.log")))


@pytest.fixture
def workers(tmp_path: Path, settings: Any) -> Iterator[Workers]:
    queue = f"korona-test-{uuid.uuid4().hex[:10]}"
    settings.KORONA_TASK_QUEUE = queue
    celery_app.conf.task_always_eager = False
    pool = Workers(queue, tmp_path)
    try:
        yield pool
    finally:
        pool.stop()
        celery_app.conf.task_always_eager = True


def wait_for(what: str, check: Callable[[], bool], workers: Workers, timeout: float = 300) -> None:
    """Wait for ``check``, polling. The limit only ends a wait that would never end: on a
    busy 2-core CI machine, starting two workers (each imports Django) and playing a turn
    can take much longer than on an idle one, and the odds test waited 300 s already."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}; worker logs:\n{workers.logs()}")


def turn_status(campaign: Campaign, number: int = 1) -> str | None:
    return (
        Turn.objects.filter(campaign=campaign, number=number)
        .values_list("status", flat=True)
        .first()
    )


def scheduled_campaign() -> Campaign:
    campaign = new_campaign("Korona 1", SEED, doc=meeting_doc())
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, now=NOW)
    Campaign.objects.filter(pk=campaign.pk).update(next_deadline=NOW)
    return reload(campaign)


def played_exactly_once(campaign: Campaign, workers: Workers) -> None:
    wait_for("turn 1 done", lambda: turn_status(campaign) == "done", workers)
    wait_for("the queue to drain", workers.drained, workers)
    time.sleep(0.5)  # a last duplicate, taken from the queue, finishing its no-op
    assert list(Turn.objects.filter(campaign=campaign).values_list("number", "status")) == [
        (1, "done")
    ], workers.logs()
    row = reload(campaign)
    assert (row.turn, row.due_turn) == (1, None)
    same_as(campaign, clean_run(seed=SEED, doc=meeting_doc()))


def test_the_same_task_delivered_twice_plays_one_turn(workers: Workers) -> None:
    campaign = scheduled_campaign()
    assert sweep_due(now=NOW, enqueue=False).claimed == [(campaign.pk, 1)]
    workers.send(process_campaign_turn, campaign.pk, 1)
    workers.send(process_campaign_turn, campaign.pk, 1)
    workers.start()
    workers.start()  # two workers, so the deliveries really can run side by side

    played_exactly_once(campaign, workers)


def test_the_last_ready_plays_the_turn_with_no_sweep_even_pressed_twice(
    workers: Workers,
) -> None:
    """No beat runs here: the turn every side is ready for is claimed by the task the
    "ready" sent once it committed, and played within seconds, not at the next sweep.
    The second press (a double click, a teammate) sends the claim again: harmless."""
    campaign = new_campaign("Korona 1", SEED, doc=meeting_doc())
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24)
    workers.start()
    workers.start()  # the two claims really can run side by side
    # No player plays a side: the others are the AI's, so one side's "ready" is enough.
    assert mark_side_ready(campaign=campaign, side="australian", page_turn=1)
    # Again; refused, nothing sent, if turn 1 was played before this second press.
    with contextlib.suppress(OrdersOutOfDate, TurnRefused):
        mark_side_ready(campaign=campaign, side="australian", page_turn=1)
    played_exactly_once(campaign, workers)


def test_the_gm_and_the_schedule_at_once_play_one_turn(workers: Workers) -> None:
    campaign = scheduled_campaign()
    workers.start()
    errors: list[BaseException] = []

    def gm() -> None:
        try:
            advance_turn(campaign_id=campaign.pk, expected_turn=1)  # "Advance turn now"
        except TurnAlreadyPlayed:
            pass
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    workers.send(sweep_due_campaigns)  # what beat sends every 30 s
    workers.send(sweep_due_campaigns)  # and a second beat started by mistake
    clicker = threading.Thread(target=gm)
    clicker.start()
    clicker.join(timeout=60)

    assert not errors
    played_exactly_once(campaign, workers)


def test_a_worker_killed_mid_turn_and_the_task_delivered_again_plays_one_turn(
    workers: Workers,
) -> None:
    campaign = scheduled_campaign()
    sweep_due(now=NOW, enqueue=False)
    slow = workers.start(KORONA_TEST_TURN_DELAY="5")
    workers.send(process_campaign_turn, campaign.pk, 1)
    wait_for("the turn to be rolling", lambda: turn_status(campaign) == "rolling", workers)
    time.sleep(1)  # inside the turn's transaction

    slow.send_signal(signal.SIGKILL)
    slow.wait(timeout=10)

    assert turn_status(campaign) == "rolling"  # nothing of the turn committed
    assert reload(campaign).turn == 0
    # Redis gives the unacknowledged delivery to the next worker after its visibility
    # timeout; the task is also sent again, as a lost claim would be by the sweep.
    workers.start(KORONA_VISIBILITY_TIMEOUT="1")
    workers.send(process_campaign_turn, campaign.pk, 1)
    played_exactly_once(campaign, workers)


def test_the_database_connection_dropped_mid_turn_plays_one_turn(workers: Workers) -> None:
    campaign = scheduled_campaign()
    sweep_due(now=NOW, enqueue=False)
    workers.start(KORONA_TEST_TURN_DELAY="3")
    workers.send(process_campaign_turn, campaign.pk, 1)
    wait_for("the turn to be rolling", lambda: turn_status(campaign) == "rolling", workers)
    time.sleep(1)  # inside the turn's transaction

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        (terminated,) = cursor.fetchone()
    assert terminated >= 1

    played_exactly_once(campaign, workers)
    assert "Retry in" in workers.logs()  # the task was retried, not given up
