"""Scenario balance jobs: ``rules.campaign.balance.simulate`` run in the background for the
admin's Balance button, its progress kept in the cache for the page to poll.

The job is a thread of the web server, which shares the campaigns among
``KORONA_BALANCE_WORKERS`` processes (one per core by default; spawned, they run only
``rules/`` code), a few campaigns to a process at a time; the results are tallied in the
order of their runs, so the figures are the ones ``simulate`` gives in one process. On
the embedded default (one process, the local-memory cache) only that server answers the
poll; with Redis the progress is shared by every web worker, so whichever answers the
poll sees it. A job is lost if its process stops; the page then says so once the
progress stops coming (``stale``). The management command ``scenario_balance`` calls the
same ``simulate`` in the foreground.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any

from django.conf import settings
from django.core.cache import cache

from rules.campaign.balance import (
    Balance,
    CampaignResult,
    check_count,
    empty_balance,
    orders_of,
    play_runs,
    simulate,
)
from rules.campaign.planning import ignore_interrupts
from rules.campaign.scenario import parse_scenario
from rules.campaign.state import CampaignState
from rules.spec import MAX_SEED

JOB_SECONDS = 24 * 3600  # how long a job's progress and result are kept
STALE_SECONDS = 15 * 60  # no progress for this long: the job is taken as lost
SHARE = 2  # campaigns a process plays at a time: the progress moves after each share


def _key(job: str) -> str:
    return f"korona:balance:{job}"


def start_balance(
    *,
    data: Any,
    campaigns: int,
    seed: int | None = 0,
    background: bool = True,
) -> str:
    """Check the scenario (``ScenarioError`` lists its faults; nothing starts) and the
    count (ValueError), then start simulating; returns the job's id. ``seed`` None: one
    drawn at random, kept with the job (``seed_drawn``) so the page can say which."""
    drawn = seed is None
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    state = parse_scenario(data)
    check_count(campaigns)
    job = secrets.token_hex(8)
    status = {
        "job": job,
        "scenario": state.name,
        "done": 0,
        "total": campaigns,
        "seed": seed,
        "seed_drawn": drawn,
        "result": None,
        "lines": [],
        "error": None,
        "started": time.time(),
        "updated": time.time(),
    }
    cache.set(_key(job), status, JOB_SECONDS)

    def progress(done: int, total: int) -> None:
        cache.set(_key(job), {**status, "done": done, "updated": time.time()}, JOB_SECONDS)

    def run() -> None:
        try:
            balance = simulate_shared(
                state,
                campaigns=campaigns,
                seed=seed,
                progress=progress,
                workers=settings.KORONA_BALANCE_WORKERS,
            )
        except Exception as failure:  # noqa: BLE001 - the page must say the job failed
            final = {**status, "error": f"the simulation failed: {failure}"}
        else:
            final = {
                **status,
                "done": campaigns,
                "result": balance.to_json(),
                "lines": balance.lines(),
            }
        cache.set(_key(job), {**final, "updated": time.time()}, JOB_SECONDS)

    if background:
        threading.Thread(target=run, name=f"balance-{job}", daemon=True).start()
    else:
        run()
    return job


def simulate_shared(
    state: CampaignState,
    *,
    campaigns: int,
    seed: int,
    progress: Callable[[int, int], None],
    workers: int,
) -> Balance:
    """``simulate``'s balance, its campaigns shared among ``workers`` processes (one:
    played here); ``progress`` is told how many have ended as each share comes in."""
    if workers < 2 or campaigns <= SHARE:
        return simulate(state, campaigns=campaigns, seed=seed, progress=progress)
    orders = orders_of(state, None)
    shares: dict[int, list[CampaignResult]] = {}
    executor = ProcessPoolExecutor(
        max_workers=workers, mp_context=get_context("spawn"), initializer=ignore_interrupts
    )
    try:
        futures = {
            executor.submit(
                play_runs,
                state,
                orders=orders,
                seed=seed,
                start=start,
                stop=min(start + SHARE, campaigns),
            ): start
            for start in range(0, campaigns, SHARE)
        }
        for future in as_completed(futures):
            shares[futures[future]] = future.result()
            progress(sum(len(share) for share in shares.values()), campaigns)
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
    balance = empty_balance(state, orders, seed)
    for start in sorted(shares):
        balance.results.extend(shares[start])
    return balance


def balance_progress(job: str) -> dict[str, Any] | None:
    """The job's progress (done, total), and its result once done; None if unknown."""
    if not job.isalnum():
        return None
    status = cache.get(_key(job))
    if status is None:
        return None
    finished = status["result"] is not None or status["error"] is not None
    now = time.time()
    stale = not finished and now - status["updated"] > STALE_SECONDS
    left = "" if finished or stale else time_left(status, now)
    return {**status, "finished": finished, "stale": stale, "left": left}


def time_left(status: dict[str, Any], now: float) -> str:
    """About how long the job has left, at the pace of the campaigns played so far:
    "about 6 minutes left"; "" until the first have ended."""
    done, total = status["done"], status["total"]
    if not done or done >= total or "started" not in status:
        return ""
    pace = (status["updated"] - status["started"]) / done
    seconds = pace * (total - done) - (now - status["updated"])
    if seconds < 60:
        return "less than a minute left"
    minutes = round(seconds / 60)
    if minutes == 1:
        return "about a minute left"
    if minutes < 60:
        return f"about {minutes} minutes left"
    hours, minutes = divmod(minutes, 60)
    hour_words = f"about {hours} hour{'s' if hours != 1 else ''}"
    if not minutes:
        return f"{hour_words} left"
    return f"{hour_words} and {minutes} minute{'s' if minutes != 1 else ''} left"
