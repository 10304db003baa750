"""Scheduled turns at scale: N Korona campaigns all due at once, played by real Celery
workers on Redis and PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/korona_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 python bench/scheduler.py [--campaigns 1000] [--workers 1 2]

Migrates the database DATABASE_URL names (give it one you can spare; the campaigns it
creates are deleted at the end). For each number of worker processes: creates N
campaigns whose deadline is now, starts the workers (``celery worker --pool=solo``, one
process each, on a queue of their own), sweeps once as beat would, and waits until every
campaign has played its turn. Prints campaigns a minute, deadline to done (median and
p95), how long the sweep took to claim them, and, for one turn played in-process, its
queries and the share of its time spent in the database (what docs/campaign.md, "Scaling
past one machine", works its limits out from); checks that no turn was lost or played
twice. The target: 1,000 due campaigns within 2 minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from campaign.models import Campaign, Turn  # noqa: E402
from campaign.services.scenarios import create_campaign  # noqa: E402
from campaign.services.schedule import process_turn, set_schedule, sweep_due  # noqa: E402
from config.celery import app as celery_app  # noqa: E402

SCENARIO = ROOT / "fixtures" / "scenarios" / "korona.json"


def create(prefix: str, count: int) -> list[int]:
    doc = json.loads(SCENARIO.read_text(encoding="utf-8"))
    ids = []
    for n in range(count):
        campaign = create_campaign(data=doc, name=f"{prefix} {n}", seed=n)
        set_schedule(campaign=campaign, kind="every_hours", every_hours=24)
        ids.append(campaign.pk)
    return ids


def one_turn(prefix: str, runs: int = 5) -> tuple[int, float, float]:
    """Claimed turns played in this process, their battles fought at once: the queries
    of one, and the median seconds of one in all and in the database (the sum of its
    queries' round trips, as Django times them)."""
    ids = create(f"{prefix} queries", runs)
    deadline = timezone.now()
    Campaign.objects.filter(pk__in=ids).update(next_deadline=deadline)
    sweep_due(now=deadline, enqueue=False)
    counts, walls, database = [], [], []
    for campaign_id in ids:
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            process_turn(campaign_id=campaign_id, turn_number=1)
            walls.append(time.perf_counter() - started)
        counts.append(len(queries))
        database.append(sum(float(q["time"]) for q in queries.captured_queries))
    return max(counts), statistics.median(walls), statistics.median(database)


def start_workers(count: int, queue: str) -> list[subprocess.Popen[bytes]]:
    env = {**os.environ, "KORONA_TASK_QUEUE": queue}
    return [
        subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                "-Q", queue, "-n", f"{queue}-{n}@%h", "--without-gossip", "--without-mingle",
                "--without-heartbeat", "-l", "warning",
            ],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        )
        for n in range(count)
    ]  # fmt: skip


def run(campaigns: int, workers: int, timeout: float) -> dict[str, float | int]:
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    queue = f"korona-bench-{prefix}"
    ids = create(prefix, campaigns)
    from django.conf import settings

    settings.KORONA_TASK_QUEUE = queue
    processes = start_workers(workers, queue)
    try:
        time.sleep(3)  # the workers connect; they would only take tasks later otherwise
        deadline = timezone.now()
        Campaign.objects.filter(pk__in=ids).update(next_deadline=deadline)
        start = time.perf_counter()
        sweep_due(now=deadline)  # what beat's sweep task does, here in-process
        swept = time.perf_counter() - start
        done = 0
        while time.perf_counter() - start < timeout:
            done = Turn.objects.filter(campaign_id__in=ids, status="done").count()
            if done == campaigns:
                break
            time.sleep(0.25)
        elapsed = time.perf_counter() - start
        time.sleep(2)  # any duplicate delivery would have finished by now
        turns_each = set(
            Campaign.objects.filter(pk__in=ids)
            .annotate(turn_rows=Count("turns"))
            .values_list("turn", "turn_rows")
        )
        latencies = sorted(
            (finished - deadline).total_seconds()
            for finished in Turn.objects.filter(campaign_id__in=ids, status="done").values_list(
                "finished_at", flat=True
            )
        )
        return {
            "swept": swept,
            "done": done,
            "seconds": elapsed,
            "per_minute": done / elapsed * 60,
            "median": statistics.median(latencies) if latencies else float("nan"),
            "p95": latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan"),
            "exactly_once": turns_each == {(1, 1)},
        }
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)
        Campaign.objects.filter(name__startswith=prefix).delete()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait a run")
    args = parser.parse_args()
    if connection.vendor != "postgresql" or not settings_redis():
        print("bench/scheduler.py needs DATABASE_URL (PostgreSQL) and REDIS_URL", file=sys.stderr)
        return 2
    call_command("migrate", "--noinput", verbosity=0)
    celery_app.conf.task_always_eager = False
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    try:
        queries, wall, database = one_turn(prefix)
    finally:
        Campaign.objects.filter(name__startswith=prefix).delete()
    print(
        f"one turn (claimed, then played here): {queries} queries, median {wall * 1000:.0f} ms, "
        f"{database * 1000:.0f} ms of it in the database ({database / wall:.0%})"
    )
    print(f"{args.campaigns} Korona campaigns due at once, {os.cpu_count()} cores")
    for workers in args.workers:
        result = run(args.campaigns, workers, args.timeout)
        print(
            f"{workers} worker process{'es' if workers > 1 else ''}: "
            f"{result['done']}/{args.campaigns} done in {result['seconds']:.1f} s, "
            f"{result['per_minute']:.0f} campaigns/minute; deadline to done median "
            f"{result['median']:.1f} s, p95 {result['p95']:.1f} s; "
            f"{'none lost or doubled' if result['exactly_once'] else 'LOST OR DOUBLED'}; "
            f"the sweep claimed them in {result['swept']:.2f} s "
            f"({args.campaigns / result['swept']:.0f} a second)",
            flush=True,
        )
    return 0


def settings_redis() -> bool:
    from django.conf import settings

    return bool(settings.REDIS_URL)


if __name__ == "__main__":
    sys.exit(main())
