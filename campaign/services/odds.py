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
  run only ``rules/`` code, the estimates waiting taking turns chunk by chunk;
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
import time
from collections import deque
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import get_context
from typing import Any

from django.conf import settings
from django.core.cache import cache

from config.enqueue import enqueue_odds_chunk
from rules.campaign import planning as rules
from rules.spec import BattleSpec, parse_battle

log = logging.getLogger(__name__)

CACHE_SECONDS = 7 * 24 * 3600  # a finished chunk: the key names the battle, never stale
SENT_SECONDS = 30  # a request sends the missing chunks at most this often
CLAIM_SECONDS = 60  # a chunk task's claim: a chunk takes a second or two
TICK_SECONDS = 0.25  # ``wait``'s look at the cache for chunks fought by another process


@dataclass(frozen=True, slots=True)
class OddsJob:
    """One estimate: ``runs`` battles of the BATTLE.json ``spec`` from ``seed``, fought in
    chunks of ``chunk`` runs."""

    spec: dict[str, Any]  # not to be changed once the job is made: its key is made then
    seed: int
    runs: int
    chunk: int
    # The cache key, made once: every chunk's key and every read of the chunks start
    # from it, and hashing the whole BATTLE.json again for each of them was half of what
    # a read of an estimate's chunks cost.
    key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """The cache key of the job: what the estimate depends on, and nothing else."""
        text = json.dumps({"spec": self.spec, "seed": self.seed}, sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()[:32]
        object.__setattr__(self, "key", f"korona:odds:{digest}:{self.runs}:{self.chunk}")

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


@dataclass(frozen=True, slots=True)
class Fought:
    """The chunks of an estimate found in the cache by one read, by their number."""

    job: OddsJob
    parts: dict[int, rules.Tally]

    @property
    def tally(self) -> rules.Tally:
        """The chunks added up. Any chunk counts, in any order: the tally of all of them
        is the whole estimate's."""
        tally = rules.Tally()
        for part in self.parts.values():
            tally = tally.add(part)
        return tally

    @property
    def missing(self) -> list[int]:
        """The chunks not in the cache when it was read."""
        return [index for index in range(self.job.chunks) if index not in self.parts]


def fought(job: OddsJob) -> Fought:
    """The chunks fought so far (one cache read)."""
    keys = [job.chunk_key(index) for index in range(job.chunks)]
    cached = cache.get_many(keys)
    return Fought(
        job=job,
        parts={
            i: rules.Tally.from_json(cached[key]) for i, key in enumerate(keys) if key in cached
        },
    )


def read(job: OddsJob) -> rules.Tally:
    """The chunks fought so far, added up (one cache read)."""
    return fought(job).tally


def wait(job: OddsJob, *, timeout: float) -> Fought:
    """The estimate's chunks once every one is fought, or as far as they have come when
    ``timeout`` seconds have passed (the benchmark and the tests wait so; a page polls).

    Woken by each chunk this process's pool lands, so the waiting costs no core the
    pool's processes could use: ``bench/odds.py`` read the cache every 2 ms instead, which
    took a tenth of a core from a pool with one process a core. Chunks fought elsewhere
    (Celery workers) are read every ``TICK_SECONDS``."""
    deadline = time.monotonic() + timeout
    with _landings:
        while (seen := fought(job)).tally.runs < job.runs:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            _landings.wait(min(left, TICK_SECONDS))
    return seen


def request(job: OddsJob, *, seen: Fought | None = None) -> None:
    """Have the estimate's missing chunks fought off this request (a no-op once it is
    finished, or while an earlier request's chunks are on their way). ``seen``: the
    caller's own read of the cache (``fought``), so the request reads it no more."""
    seen = fought(job) if seen is None else seen
    if seen.tally.runs >= job.runs:
        return
    backend = settings.KORONA_ODDS_BACKEND
    if backend == "inline":
        for index in seen.missing:
            fight_chunk(job, index)
    elif backend == "pool":
        _pool_submit(job, seen.missing)
    elif backend == "celery":
        if not cache.add(f"{job.key}:sent", 1, SENT_SECONDS):
            return  # an earlier request sent them
        cache.set(f"{job.key}:job", job.to_json(), CACHE_SECONDS)
        for index in seen.missing:
            enqueue_odds_chunk(job.key, index)
    else:
        raise ValueError(f"KORONA_ODDS_BACKEND={backend!r}: not celery, pool or inline")


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
#
# The estimates take turns. Every player opening the orders page asks for one estimate
# per planned battle, and the pool has one process a core: fed first come, first served,
# the last estimate asked for showed "0 of 1000 fought" until every estimate before it
# had finished (49 s in a two-player walk-through, on a busy machine). The feeder hands
# the pool a few chunks at a time, each from the next estimate in turn, so every
# estimate waiting has a first figure after a few chunks, and all of them grow together.

_lock = threading.Lock()
_fighting: set[str] = set()  # chunk keys on their way in this process's pool
# Notified as each chunk of this process's pool lands (``wait``). Its lock is re-entrant:
# a pool shut down from a landing chunk's callback cancels the chunks still waiting, whose
# callbacks land on the same thread.
_landings = threading.Condition(threading.RLock())


@dataclass(frozen=True, slots=True)
class _Chunk:
    key: str  # its cache key
    spec: BattleSpec
    seed: int
    start: int
    stop: int


class _Feeder:
    """A process pool, fed by a thread of its own, the estimates waiting taking turns
    (round robin): each process has the chunk it fights and the next one at hand, so none
    waits for the feeder, and a new estimate waits for at most two chunks a process."""

    def __init__(self, workers: int) -> None:
        self.executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=get_context("spawn"),
            initializer=rules.ignore_interrupts,
        )
        self._free = 2 * workers  # each process has its next chunk at hand
        self._waiting: dict[str, deque[_Chunk]] = {}  # job key: its chunks, in turn order
        self._stopped = False
        self._turn = threading.Condition()
        threading.Thread(target=self._feed, name="korona-odds-feeder", daemon=True).start()

    def add(self, job_key: str, chunks: list[_Chunk]) -> bool:
        """Queue ``chunks`` of the estimate ``job_key`` behind the ones it has waiting;
        False when the feeder has stopped (its pool broke or was shut down meanwhile)."""
        with self._turn:
            if self._stopped:
                return False
            self._waiting.setdefault(job_key, deque()).extend(chunks)
            self._turn.notify()
            return True

    def stop(self) -> list[str]:
        """Stop feeding; the keys of the chunks that were still waiting."""
        with self._turn:
            self._stopped = True
            dropped = [chunk.key for queue in self._waiting.values() for chunk in queue]
            self._waiting.clear()
            self._turn.notify()
        return dropped

    def _next(self) -> _Chunk | None:
        """The next estimate's next chunk, once the pool has room (None: stopped)."""
        with self._turn:
            while not self._stopped and not (self._free and self._waiting):
                self._turn.wait()
            if self._stopped:
                return None
            job_key = next(iter(self._waiting))
            queue = self._waiting.pop(job_key)
            chunk = queue.popleft()
            if queue:
                self._waiting[job_key] = queue  # to the back: the next estimate's turn
            self._free -= 1
            return chunk

    def _feed(self) -> None:
        """The feeder's thread: it, not the pool's own thread, submits (a done callback
        that submits runs on the thread that reads the pool's results)."""
        while (chunk := self._next()) is not None:
            try:
                future = self.executor.submit(
                    rules.fight_runs,
                    chunk.spec,
                    seed=chunk.seed,
                    start=chunk.start,
                    stop=chunk.stop,
                )
            except (BrokenProcessPool, RuntimeError):  # broken, or shut down meanwhile
                _forget(chunk.key)
                _reset(self)  # the next request starts a new pool
                return
            future.add_done_callback(partial(self._landed, key=chunk.key))

    def _landed(self, done: Future[rules.Tally], key: str) -> None:
        """A chunk fought (on the pool's thread): into the cache, and its process free."""
        try:
            _landed(done, key, self)
        finally:
            with self._turn:
                self._free += 1
                self._turn.notify()


_feeder: _Feeder | None = None


def feeder() -> _Feeder:
    """This process's pool and its feeder, started at first use. The pool's processes are
    spawned, not forked (a web server's threads and connections stay behind), and import
    only ``rules/``."""
    global _feeder
    with _lock:
        if _feeder is None:
            _feeder = _Feeder(settings.KORONA_ODDS_WORKERS)
        return _feeder


def pool() -> ProcessPoolExecutor:
    """This process's pool (started at first use, with its feeder)."""
    return feeder().executor


def _pool_submit(job: OddsJob, missing: list[int]) -> None:
    spec = parse_battle(job.spec)
    chunks = []
    for index in missing:
        key = job.chunk_key(index)
        with _lock:
            if key in _fighting:
                continue
            _fighting.add(key)
        start, stop = job.bounds(index)
        chunks.append(_Chunk(key, spec, job.seed, start, stop))
    if chunks and not feeder().add(job.key, chunks):
        for chunk in chunks:  # its pool stopped meanwhile: the next request asks again
            _forget(chunk.key)


def _landed(done: Future[rules.Tally], key: str, owner: _Feeder) -> None:
    """A chunk fought by ``owner``'s pool (on the pool's thread): into the cache, and
    ``wait`` woken. Cached and forgotten under ``_landings``, so a ``wait`` never reads a
    chunk cached but still on its way (a request right after it would not send it)."""
    with _landings:
        try:
            cache.set(key, done.result().to_json(), CACHE_SECONDS)
        except CancelledError:
            pass  # the pool was shut down: the next request asks again
        except BrokenProcessPool:
            log.warning("the odds pool broke (a process died); the next request starts another")
            _reset(owner)  # its own pool, never one started since to replace it
        except Exception:  # a chunk that fails is asked for again by the next request
            log.exception("odds chunk %s failed", key)
        finally:
            _forget(key)
            _landings.notify_all()


def _forget(key: str) -> None:
    with _lock:
        _fighting.discard(key)


def _reset(broken: _Feeder) -> None:
    global _feeder
    with _lock:
        if _feeder is broken:
            _feeder = None
    for key in broken.stop():
        _forget(key)
    broken.executor.shutdown(wait=False, cancel_futures=True)


def shutdown() -> None:
    """Stop this process's pool (tests, the benchmark)."""
    global _feeder
    with _lock:
        stopping, _feeder = _feeder, None
        _fighting.clear()
    if stopping is not None:
        stopping.stop()
        stopping.executor.shutdown(wait=True, cancel_futures=True)
