"""The odds of a planned attack, fought off the web request.

A page asks for an estimate (``request``) and reads how far it has come (``read``); the
battles are fought elsewhere, a chunk of runs at a time, and each chunk's tally lands in
the cache:

* with Redis (``KORONA_ODDS_BACKEND = "celery"``, set when ``REDIS_URL`` is): by the
  Celery workers, one task (``campaign.odds_chunk``) per chunk, sent through
  ``config.enqueue``; the job's BATTLE.json waits in the (shared, Redis) cache, so the
  task carries only the job's key and the chunk's number;
* on the embedded default (``"pool"``): by a ``ProcessPoolExecutor`` of
  ``KORONA_ODDS_WORKERS`` processes (one per core) in the web server's process, which
  run only ``rules/`` code;
* ``"inline"`` (the tests): in the asking process, at once.

Whatever fights them, run i has seed ``derive_seed(seed, "odds", i)``, so the finished
tally is ``rules.odds.battle_odds(spec, runs=runs, seed=seed)`` whoever asked, wherever
the chunks were fought and in whatever order they came in.

**The cache key is the job**: a SHA-256 of the battle's BATTLE.json as the reader may
know it (the enemy estimated under the fog of war) and the seed, with the runs and the
chunk size. Every reader who would ask for the same battle on the same information
reads the same estimate, and no key holds anything the reader may not know: a reader
who may know more asks for another battle, under another key.

**Duplicates do nothing.** A request sends the missing chunks only when it is the first
in ``SENT_SECONDS`` to ask (``cache.add``); a chunk already in the cache is not fought
again, and a chunk task claims its chunk (``cache.add``, ``CLAIM_SECONDS``) before it
fights, so a task delivered twice, or sent again by a later request while the first is
still fighting, is a no-op. A chunk lost with its worker is sent again by the first
request after ``SENT_SECONDS``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_context
from typing import Any

from django.conf import settings
from django.core.cache import cache

from config.enqueue import enqueue_odds_chunk
from rules.campaign import planning as rules
from rules.spec import parse_battle

log = logging.getLogger(__name__)

CACHE_SECONDS = 7 * 24 * 3600  # a finished chunk: the key names the battle, never stale
SENT_SECONDS = 30  # a request sends the missing chunks at most this often
CLAIM_SECONDS = 60  # a chunk task's claim: a chunk takes a second or two


@dataclass(frozen=True, slots=True)
class OddsJob:
    """One estimate: ``runs`` battles of the BATTLE.json ``spec`` from ``seed``, fought in
    chunks of ``chunk`` runs."""

    spec: dict[str, Any]
    seed: int
    runs: int
    chunk: int

    @property
    def key(self) -> str:
        """The cache key of the job: what the estimate depends on, and nothing else."""
        text = json.dumps({"spec": self.spec, "seed": self.seed}, sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()[:32]
        return f"korona:odds:{digest}:{self.runs}:{self.chunk}"

    @property
    def chunks(self) -> int:
        return -(-self.runs // self.chunk)

    def chunk_key(self, index: int) -> str:
        return f"{self.key}:{index}"

    def bounds(self, index: int) -> tuple[int, int]:
        """The runs of chunk ``index``: ``start`` to ``stop - 1``."""
        start = index * self.chunk
        return start, min(start + self.chunk, self.runs)

    def to_json(self) -> dict[str, Any]:
        return {"spec": self.spec, "seed": self.seed, "runs": self.runs, "chunk": self.chunk}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OddsJob:
        return cls(
            spec=data["spec"],
            seed=int(data["seed"]),
            runs=int(data["runs"]),
            chunk=int(data["chunk"]),
        )


def read(job: OddsJob) -> rules.Tally:
    """The chunks fought so far, added up (one cache read). Any chunk counts, in any
    order: the tally of all of them is the whole estimate's."""
    cached = cache.get_many([job.chunk_key(index) for index in range(job.chunks)])
    tally = rules.Tally()
    for part in cached.values():
        tally = tally.add(rules.Tally.from_json(part))
    return tally


def request(job: OddsJob, *, tally: rules.Tally | None = None) -> None:
    """Have the estimate's missing chunks fought off this request (a no-op once it is
    finished, or while an earlier request's chunks are on their way)."""
    tally = read(job) if tally is None else tally
    if tally.runs >= job.runs:
        return
    backend = settings.KORONA_ODDS_BACKEND
    if backend == "inline":
        for index in _missing(job):
            fight_chunk(job, index)
    elif backend == "pool":
        _pool_submit(job)
    elif backend == "celery":
        if not cache.add(f"{job.key}:sent", 1, SENT_SECONDS):
            return  # an earlier request sent them
        cache.set(f"{job.key}:job", job.to_json(), CACHE_SECONDS)
        for index in _missing(job):
            enqueue_odds_chunk(job.key, index)
    else:
        raise ValueError(f"KORONA_ODDS_BACKEND={backend!r}: not celery, pool or inline")


def _missing(job: OddsJob) -> list[int]:
    keys = [job.chunk_key(index) for index in range(job.chunks)]
    cached = cache.get_many(keys)
    return [index for index, key in enumerate(keys) if key not in cached]


def fight_chunk(job: OddsJob, index: int) -> bool:
    """Fight chunk ``index`` of the job here and cache its tally; False (nothing done)
    when it is cached already or another worker holds its claim."""
    key = job.chunk_key(index)
    if cache.get(key) is not None or not cache.add(f"{key}:claim", 1, CLAIM_SECONDS):
        return False
    try:
        start, stop = job.bounds(index)
        part = rules.fight_runs(parse_battle(job.spec), seed=job.seed, start=start, stop=stop)
        cache.set(key, part.to_json(), CACHE_SECONDS)
    finally:
        cache.delete(f"{key}:claim")
    return True


def fight_sent_chunk(*, job_key: str, index: int) -> bool:
    """The Celery task's work: chunk ``index`` of the job the request left in the cache
    under ``job_key``. False when the job is gone (expired: a later request sends it
    again) or the chunk is done or claimed."""
    data = cache.get(f"{job_key}:job")
    if data is None:
        return False
    job = OddsJob.from_json(data)
    if job.key != job_key or not 0 <= index < job.chunks:
        return False
    return fight_chunk(job, index)


# --- the process pool of the embedded default ------------------------------------------------

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_fighting: set[str] = set()  # chunk keys on their way in this process's pool


def pool() -> ProcessPoolExecutor:
    """This process's pool, started at first use. Its processes are spawned, not forked
    (a web server's threads and connections stay behind), and import only ``rules/``."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=settings.KORONA_ODDS_WORKERS,
                mp_context=get_context("spawn"),
                initializer=rules.ignore_interrupts,
            )
        return _pool


def _pool_submit(job: OddsJob) -> None:
    spec = parse_battle(job.spec)
    executor = pool()
    for index in _missing(job):
        key = job.chunk_key(index)
        with _lock:
            if key in _fighting:
                continue
            _fighting.add(key)
        start, stop = job.bounds(index)
        try:
            future = executor.submit(rules.fight_runs, spec, seed=job.seed, start=start, stop=stop)
        except (BrokenProcessPool, RuntimeError):
            _forget(key)
            _reset(executor)
            return  # the next request starts a new pool
        future.add_done_callback(partial(_landed, key=key))


def _landed(done: Future[rules.Tally], key: str) -> None:
    """A chunk fought by the pool (on the pool's thread): into the cache."""
    try:
        cache.set(key, done.result().to_json(), CACHE_SECONDS)
    except CancelledError:
        pass  # the pool was shut down: the next request asks again
    except BrokenProcessPool:
        log.warning("the odds pool broke (a process died); the next request starts another")
        if _pool is not None:
            _reset(_pool)
    except Exception:  # a chunk that fails is asked for again by the next request
        log.exception("odds chunk %s failed", key)
    finally:
        _forget(key)


def _forget(key: str) -> None:
    with _lock:
        _fighting.discard(key)


def _reset(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def shutdown() -> None:
    """Stop this process's pool (tests, the benchmark)."""
    global _pool
    with _lock:
        executor, _pool = _pool, None
        _fighting.clear()
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)
