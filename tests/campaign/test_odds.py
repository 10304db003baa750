"""The odds fought off the web request (campaign/services/odds.py): by the process pool of
the embedded default, by Celery tasks (here run eagerly; a real worker in
tests/scheduling/test_odds_worker.py), or inline. Whichever fights them, the estimate is
``rules.odds.battle_odds`` with the same seeds, and a duplicate does nothing."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

from campaign.services import odds
from config.celery import app as celery_app
from rules.campaign.planning import odds_of
from rules.odds import battle_odds
from rules.spec import parse_battle

ROOT = Path(__file__).resolve().parents[2]
SPEC = json.loads((ROOT / "fixtures/battles/korona-turn1.json").read_text())


@pytest.fixture(autouse=True)
def eager_tasks() -> Iterator[None]:
    """The chunk tasks run in this process, also with REDIS_URL (CI): no worker here."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def job(runs: int = 30, chunk: int = 7, seed: int = 5) -> odds.OddsJob:
    return odds.OddsJob(spec=SPEC, seed=seed, runs=runs, chunk=chunk)


def same_as_battle_odds(estimate: odds.OddsJob) -> None:
    tally = odds.read(estimate)
    assert tally.runs == estimate.runs
    whole = battle_odds(parse_battle(estimate.spec), runs=estimate.runs, seed=estimate.seed)
    got = odds_of(tally)
    for key in ("attacker_win", "defender_win", "mean_losses", "mean_turns"):
        assert got[key] == whole[key], key


def wait_until_fought(estimate: odds.OddsJob, timeout: float = 120) -> None:
    runs = odds.wait(estimate, timeout=timeout).tally.runs
    assert runs == estimate.runs, f"only {runs} fought"


def test_the_key_is_the_battle_and_the_seed_and_nothing_else() -> None:
    assert job().key == job().key
    assert job(seed=6).key != job().key
    other = json.loads(json.dumps(SPEC))
    other["defender"]["stands"]["rifle_squad"] -= 1  # what a reader knows of the enemy
    assert odds.OddsJob(spec=other, seed=5, runs=30, chunk=7).key != job().key
    assert job().key.startswith("korona:odds:")


def test_the_key_is_made_once_and_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read of an estimate's chunks (every poll of the orders page, for each battle)
    hashed the whole BATTLE.json once a chunk, to name each chunk's key: half the cost of
    the read. The key is made with the job, and is the key it was (the chunks cached
    before are read)."""
    estimate = job()
    text = json.dumps({"spec": SPEC, "seed": 5}, sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    assert estimate.key == f"korona:odds:{digest}:30:7"
    assert estimate.chunk_key(3) == f"korona:odds:{digest}:30:7:3"
    hashed: list[bytes] = []

    class Hashlib:
        def sha256(self, data: bytes) -> Any:
            hashed.append(data)
            return hashlib.sha256(data)

    monkeypatch.setattr(odds, "hashlib", Hashlib())
    odds.fight_chunk(estimate, 2)
    assert odds.read(estimate).runs == 7 and odds.fought(estimate).missing == [0, 1, 3, 4]
    assert hashed == []


def test_wait_returns_the_read_once_fought_or_when_the_time_is_up(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.KORONA_ODDS_BACKEND = "celery"
    monkeypatch.setattr(odds, "enqueue_odds_chunk", lambda key, index: None)  # no worker
    estimate = job()
    odds.request(estimate)
    odds.fight_chunk(estimate, 1)
    seen = odds.wait(estimate, timeout=0)  # not fought: the read as it stands
    assert seen.tally.runs == 7 and seen.missing == [0, 2, 3, 4]
    # Chunks fought by another process (here a thread standing for a Celery worker) are
    # read on wait's tick.
    monkeypatch.setattr(odds, "TICK_SECONDS", 0.01)
    worker = threading.Thread(
        target=lambda: [odds.fight_chunk(estimate, i) for i in range(estimate.chunks)]
    )
    worker.start()
    try:
        seen = odds.wait(estimate, timeout=120)
    finally:
        worker.join()
    assert seen.tally.runs == estimate.runs and seen.missing == []
    same_as_battle_odds(estimate)


def test_wait_is_woken_by_the_pools_chunks_as_they_land(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``wait`` costs the pool no core: it sleeps until a chunk of this process's pool
    lands (no tick here: it is never woken by its time running out), and the chunks are
    forgotten by then, so a request right after it would send any of them again."""
    settings.KORONA_ODDS_BACKEND = "pool"
    settings.KORONA_ODDS_WORKERS = 2
    woken: list[bool] = []  # each sleep of wait's: True woken, False its time up

    class Landings(threading.Condition):
        def wait(self, timeout: float | None = None) -> bool:
            woken.append(super().wait(timeout))
            return woken[-1]

    monkeypatch.setattr(odds, "_landings", Landings(threading.RLock()))
    monkeypatch.setattr(odds, "TICK_SECONDS", 3600)
    estimate = job(runs=20, chunk=5)
    try:
        odds.request(estimate)
        seen = odds.wait(estimate, timeout=120)
        with odds._lock:
            assert not odds._fighting
    finally:
        odds.shutdown()
    assert seen.tally.runs == estimate.runs
    assert woken and all(woken)
    same_as_battle_odds(estimate)


def test_the_process_pool_fights_them_across_processes_as_battle_odds_would(
    settings: Any,
) -> None:
    settings.KORONA_ODDS_BACKEND = "pool"
    settings.KORONA_ODDS_WORKERS = 2
    estimate = job(runs=40, chunk=5)
    try:
        odds.request(estimate)
        assert odds.read(estimate).runs < estimate.runs  # the request did not fight them
        odds.request(estimate)  # a second request while they are fought: nothing new
        wait_until_fought(estimate)
        same_as_battle_odds(estimate)
        with odds._lock:
            assert not odds._fighting
    finally:
        odds.shutdown()


def test_a_pool_whose_process_died_is_started_again(settings: Any) -> None:
    settings.KORONA_ODDS_BACKEND = "pool"
    settings.KORONA_ODDS_WORKERS = 1
    try:
        first = odds.pool()
        first.submit(time.sleep, 0).result()
        for process in list(first._processes.values()):
            process.kill()
        estimate = job(runs=10, chunk=5)
        deadline = time.monotonic() + 120
        while odds.read(estimate).runs < estimate.runs:  # the broken pool is replaced
            assert time.monotonic() < deadline
            odds.request(estimate)
            time.sleep(0.1)
        assert odds.pool() is not first
        same_as_battle_odds(estimate)
    finally:
        odds.shutdown()


def test_the_pools_processes_let_ctrl_c_pass_to_their_owner(settings: Any) -> None:
    """Ctrl-C at the terminal of ``dev.py run`` reaches the whole process group: a pool
    process that took it would die printing a traceback, and break the pool. They ignore
    it; the owner shuts them down."""
    settings.KORONA_ODDS_BACKEND = "pool"
    settings.KORONA_ODDS_WORKERS = 1
    # As at a terminal: a process started in the background by a shell inherits SIGINT
    # ignored, and its children with it, which would hide what is tested here.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        executor = odds.pool()
        executor.submit(time.sleep, 0).result()
        (process,) = executor._processes.values()
        os.kill(process.pid, signal.SIGINT)
        time.sleep(0.5)  # time for the signal to land before the next job
        assert executor.submit(pow, 2, 10).result(timeout=30) == 1024
        assert process.is_alive()
    finally:
        odds.shutdown()
        signal.signal(signal.SIGINT, before)


def test_celery_tasks_are_sent_once_per_missing_chunk(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run eagerly here (no REDIS_URL): the task reads its job from the cache."""
    settings.KORONA_ODDS_BACKEND = "celery"
    sent: list[tuple[str, int]] = []
    real = odds.enqueue_odds_chunk

    def spy(job_key: str, index: int) -> None:
        sent.append((job_key, index))
        real(job_key, index)

    monkeypatch.setattr(odds, "enqueue_odds_chunk", spy)
    estimate = job()
    odds.fight_chunk(estimate, 2)  # one chunk is in already
    odds.request(estimate)
    assert sent == [(estimate.key, i) for i in (0, 1, 3, 4)]
    same_as_battle_odds(estimate)
    odds.request(estimate)  # finished: nothing sent
    assert len(sent) == 4


class _Feeder:
    """A pool's feeder that only notes what it is handed (no process started)."""

    def __init__(self) -> None:
        self.handed: list[int] = []

    def add(self, job_key: str, chunks: list[Any]) -> bool:
        self.handed += [int(chunk.key.rsplit(":", 1)[1]) for chunk in chunks]
        return True


@pytest.mark.parametrize("backend", ["inline", "pool", "celery"])
def test_a_request_given_its_callers_read_reads_the_cache_no_more(
    backend: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The poll reads the cache for the figure it shows (``fought``) and hands that read
    on: ``request`` sent the chunks missing from a second read of every chunk (one
    ``get_many`` more a poll). The chunks sent are those missing from the caller's read."""
    settings.KORONA_ODDS_BACKEND = backend
    estimate = job()
    odds.fight_chunk(estimate, 2)  # one chunk is in already
    seen = odds.fought(estimate)
    assert seen.missing == [0, 1, 3, 4] and seen.tally.runs == 7
    sent: list[int] = []
    monkeypatch.setattr(odds, "enqueue_odds_chunk", lambda key, index: sent.append(index))
    feeder = _Feeder()
    monkeypatch.setattr(odds, "feeder", lambda: feeder)
    real_fight = odds.fight_chunk
    monkeypatch.setattr(
        odds, "fight_chunk", lambda job, index: sent.append(index) or real_fight(job, index)
    )
    reads: list[list[str]] = []

    class Watched:
        """The cache, its reads of many keys noted."""

        def get_many(self, keys: list[str]) -> dict[str, Any]:
            reads.append(keys)
            return cache.get_many(keys)

        def __getattr__(self, name: str) -> Any:
            return getattr(cache, name)

    monkeypatch.setattr(odds, "cache", Watched())
    try:
        odds.request(estimate, seen=seen)
    finally:
        with odds._lock:
            odds._fighting.clear()
    assert reads == []
    assert sent + feeder.handed == [0, 1, 3, 4]
    if backend == "inline":
        same_as_battle_odds(estimate)


def test_a_second_request_inside_the_sent_window_sends_nothing(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.KORONA_ODDS_BACKEND = "celery"
    sent: list[tuple[str, int]] = []
    monkeypatch.setattr(odds, "enqueue_odds_chunk", lambda key, i: sent.append((key, i)))
    estimate = job()
    odds.request(estimate)
    odds.request(estimate)
    assert sent == [(estimate.key, i) for i in range(estimate.chunks)]
    cache.delete(f"{estimate.key}:sent")  # SENT_SECONDS later: the lost ones again
    odds.fight_chunk(estimate, 0)
    odds.request(estimate)
    assert sent[estimate.chunks :] == [(estimate.key, i) for i in range(1, estimate.chunks)]


def test_a_chunk_task_delivered_twice_or_claimed_fights_nothing() -> None:
    estimate = job()
    cache.set(f"{estimate.key}:job", estimate.to_json())
    assert odds.fight_sent_chunk(job_key=estimate.key, index=1) is True
    before = cache.get(estimate.chunk_key(1))
    assert odds.fight_sent_chunk(job_key=estimate.key, index=1) is False
    assert cache.get(estimate.chunk_key(1)) == before
    cache.add(f"{estimate.chunk_key(2)}:claim", 1)  # another worker is fighting it
    assert odds.fight_sent_chunk(job_key=estimate.key, index=2) is False
    assert cache.get(estimate.chunk_key(2)) is None
    # A job gone from the cache, or a chunk it does not have: nothing, no error.
    assert odds.fight_sent_chunk(job_key=job(seed=9).key, index=0) is False
    assert odds.fight_sent_chunk(job_key=estimate.key, index=estimate.chunks) is False


def test_an_unknown_backend_is_refused(settings: Any) -> None:
    settings.KORONA_ODDS_BACKEND = "threads"
    with pytest.raises(ValueError, match="not celery, pool or inline"):
        odds.request(job())


def test_the_pools_estimates_take_turns(settings: Any) -> None:
    """Two players ask at once: the second estimate has a first figure after a chunk of
    the first, not after all of it (first come, first served made it wait for the whole
    of every estimate asked before it)."""
    settings.KORONA_ODDS_BACKEND = "pool"
    settings.KORONA_ODDS_WORKERS = 1
    first, second = job(runs=240, chunk=10, seed=5), job(runs=20, chunk=10, seed=6)
    try:
        odds.request(first)
        odds.request(second)
        deadline = time.monotonic() + 120
        while odds.read(second).runs == 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        # The process has two chunks at hand: first 0 and 1 at once, then first 2 and
        # second 0 in turn (first come, first served: all 24 of first's); a few more of
        # first's may land while this looks.
        assert odds.read(first).runs < first.runs // 2
        wait_until_fought(first)
        wait_until_fought(second)
        same_as_battle_odds(first)
        same_as_battle_odds(second)
    finally:
        odds.shutdown()
