"""The odds fought by a real Celery worker on Redis (campaign/services/odds.py, the
``"celery"`` backend): the request sends one task per chunk and returns at once, the
worker fights them and leaves each chunk's tally in the shared (Redis) cache, the whole
is ``rules.odds.battle_odds`` with the same seeds, and a task delivered twice fights
nothing. Needs Redis and PostgreSQL, as the other worker tests
(tests/scheduling/test_exactly_once.py)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from campaign.services import odds
from campaign.tasks import odds_chunk
from tests.campaign.test_odds import job, same_as_battle_odds
from tests.scheduling.test_exactly_once import REDIS_URL, Workers, pytestmark, wait_for, workers

__all__ = ["pytestmark", "workers"]  # the worker tests' marks and their fixture


def test_a_worker_fights_the_odds_sent_off_the_request(workers: Workers, settings: Any) -> None:
    # The worker's cache: Redis at REDIS_URL, as settings.py makes it with REDIS_URL.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "korona",
        }
    }
    settings.KORONA_ODDS_BACKEND = "celery"
    estimate = job(runs=20, chunk=5, seed=41)
    keys = [estimate.chunk_key(i) for i in range(estimate.chunks)]
    cache.delete_many([*keys, f"{estimate.key}:sent", f"{estimate.key}:job"])
    try:
        odds.request(estimate)  # sent: nothing fought here, no worker yet
        assert odds.read(estimate).runs == 0
        workers.start()
        wait_for(
            "the worker to fight every chunk",
            lambda: odds.read(estimate).runs == estimate.runs,
            workers,  # a busy CI machine: a chunk is a second or two on an idle one
        )
        same_as_battle_odds(estimate)
        first = cache.get(keys[0])
        workers.send(odds_chunk, estimate.key, 0)  # delivered twice
        # Done once the worker logs its result: the queue drains (the delivery is taken
        # and acknowledged) a moment before the task's "succeeded" line is written.
        wait_for(
            "the duplicate to be done",
            lambda: workers.logs().count("succeeded in") == estimate.chunks + 1,
            workers,
        )
        wait_for("the queue to drain", workers.drained, workers)
        assert cache.get(keys[0]) == first
        assert "campaign.odds_chunk" in workers.logs()
        assert "False" in workers.logs()  # the duplicate's answer: it fought nothing
    finally:
        cache.delete_many([*keys, f"{estimate.key}:sent", f"{estimate.key}:job"])
