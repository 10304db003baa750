"""Scenario balance jobs: ``rules.campaign.balance.simulate`` run in the background for the
admin's Balance button, its progress kept in the cache for the page to poll.

On the embedded default (one process, the local-memory cache) the job is a thread of the
web server; with Redis the progress is shared by every web worker, so whichever answers
the poll sees it. A job is lost if its process stops; the page then says so once the
progress stops coming (``stale``). The management command ``scenario_balance`` calls the
same ``simulate`` in the foreground.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from django.core.cache import cache

from rules.campaign.balance import MAX_CAMPAIGNS, simulate
from rules.campaign.scenario import parse_scenario
from rules.spec import MAX_SEED

JOB_SECONDS = 24 * 3600  # how long a job's progress and result are kept
STALE_SECONDS = 15 * 60  # no progress for this long: the job is taken as lost


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
    if not 1 <= campaigns <= MAX_CAMPAIGNS:
        raise ValueError(f"the number of campaigns must be 1 to {MAX_CAMPAIGNS}, not {campaigns}")
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
        "updated": time.time(),
    }
    cache.set(_key(job), status, JOB_SECONDS)

    def progress(done: int, total: int) -> None:
        cache.set(_key(job), {**status, "done": done, "updated": time.time()}, JOB_SECONDS)

    def run() -> None:
        try:
            balance = simulate(state, campaigns=campaigns, seed=seed, progress=progress)
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


def balance_progress(job: str) -> dict[str, Any] | None:
    """The job's progress (done, total), and its result once done; None if unknown."""
    if not job.isalnum():
        return None
    status = cache.get(_key(job))
    if status is None:
        return None
    finished = status["result"] is not None or status["error"] is not None
    stale = not finished and time.time() - status["updated"] > STALE_SECONDS
    return {**status, "finished": finished, "stale": stale}
