"""The odds never keep a turn waiting on the broker.

Every visit to an orders page with a planned attack sends its odds as dozens of chunks
(``campaign.odds_chunk``) to the one Korona queue. Were they in line with everything
else, a turn, its battles and beat's sweep (which expires after KORONA_SWEEP_SECONDS)
would wait behind them: on a group's server, two players looking at their orders kept
the workers on odds for over a minute, beat's sweep expired unread and the turn both
players had marked ready was played a minute late. So the chunks go to the queue's
lowest priority, which a worker takes only when nothing else waits.

The broker is read here as a worker reads it (kombu's Redis channel takes the queue's
priority levels in order), with no worker started. Needs Redis, as the other broker
tests (tests/scheduling/test_exactly_once.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from config.celery import app as celery_app
from config.enqueue import enqueue_battle, enqueue_odds_chunk, enqueue_turn
from tests.scheduling.test_exactly_once import REDIS_URL

pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db,
    pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set: no broker to test against"),
]


@pytest.fixture
def queue(settings: Any) -> Iterator[str]:
    """A queue of this test's own, really sent to (not run eagerly), emptied after."""
    name = f"korona-test-{uuid.uuid4().hex[:10]}"
    settings.KORONA_TASK_QUEUE = name
    celery_app.conf.task_always_eager = False
    try:
        yield name
    finally:
        celery_app.conf.task_always_eager = True
        client = redis.Redis.from_url(REDIS_URL)
        for key in client.scan_iter(match=f"{name}*"):
            client.delete(key)


def taken_in_order(queue: str) -> list[str]:
    """The tasks' names in the order a worker takes them off ``queue``."""
    names = []
    with celery_app.connection_for_read() as connection:
        channel = connection.default_channel
        while (message := channel.basic_get(queue, no_ack=True)) is not None:
            names.append(message.headers["task"])
    return names


def beat_sweep(queue: str) -> None:
    """The sweep as beat sends it (settings.CELERY_BEAT_SCHEDULE)."""
    celery_app.send_task("campaign.sweep_due_campaigns", queue=queue, expires=30)


@pytest.mark.parametrize(
    ("task", "send"),
    [
        ("campaign.sweep_due_campaigns", beat_sweep),
        ("campaign.process_turn", lambda queue: enqueue_turn(1, 3)),
        ("campaign.fight_battle", lambda queue: enqueue_battle(7)),
    ],
)
def test_a_task_sent_after_a_backlog_of_odds_is_taken_before_them(
    queue: str,
    task: str,
    send: Callable[[str], None],
    django_capture_on_commit_callbacks: Any,
) -> None:
    for index in range(20):
        enqueue_odds_chunk("odds:some-attack", index)
    with django_capture_on_commit_callbacks(execute=True):
        send(queue)
    assert taken_in_order(queue) == [task] + ["campaign.odds_chunk"] * 20
