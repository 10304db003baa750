"""Odds speed: a 1,000-run estimate on one core, and off the request across every core.

    python bench/odds.py [--runs 1000] [--chunk 50] [--workers N]
                         [--battle fixtures/battles/korona-turn1.json]

Prints the wall time of ``rules.odds.battle_odds`` on one core, then of the same estimate
asked for as a page asks for it (``campaign.services.odds.request``) and fought by the
embedded default's process pool (``--workers``, default one per core) until every chunk
is in the cache: first with the pool started by that request (cold: the processes are
spawned), then with a pool already running (warm: another seed, as for the next page).
Checks the pool's estimate equals ``battle_odds``. The target: 1,000 runs in at most 1 s
of wall time on a 2-core machine. A benchmark prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("REDIS_URL", None)  # the embedded default: the process pool, a local cache

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from campaign.services import odds  # noqa: E402
from rules.campaign.planning import odds_of  # noqa: E402
from rules.odds import battle_odds  # noqa: E402
from rules.spec import parse_battle  # noqa: E402


def pooled(job: odds.OddsJob) -> float:
    started = time.perf_counter()
    odds.request(job)
    while odds.read(job).runs < job.runs:
        time.sleep(0.002)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--battle", default=str(ROOT / "fixtures/battles/korona-turn1.json"))
    args = parser.parse_args()
    settings.KORONA_ODDS_BACKEND = "pool"
    settings.KORONA_ODDS_WORKERS = args.workers
    doc = json.loads(Path(args.battle).read_text())
    spec = parse_battle(doc)

    started = time.perf_counter()
    whole = battle_odds(spec, runs=args.runs, seed=1)
    one_core = time.perf_counter() - started

    cold_job = odds.OddsJob(spec=doc, seed=1, runs=args.runs, chunk=args.chunk)
    cold = pooled(cold_job)
    warm = [
        pooled(odds.OddsJob(spec=doc, seed=seed, runs=args.runs, chunk=args.chunk))
        for seed in (2, 3, 4)
    ]
    got = odds_of(odds.read(cold_job))
    same = all(got[k] == whole[k] for k in ("attacker_win", "defender_win", "mean_losses"))
    odds.shutdown()

    best = min(warm)
    print(
        f"battle: {Path(args.battle).name} ({spec.ruleset} rules), {args.runs} runs, "
        f"chunks of {args.chunk}, {os.cpu_count()} cores"
    )
    print(f"one core (battle_odds):            {one_core:6.2f} s")
    print(f"process pool of {args.workers}, cold (spawned): {cold:6.2f} s")
    print(
        f"process pool of {args.workers}, warm:           {best:6.2f} s best of 3 "
        f"({', '.join(f'{w:.2f}' for w in warm)}), {one_core / best:.2f}x one core"
    )
    verdict = "met" if best <= 1.0 else "missed"
    print(f"target 1,000 runs within 1 s of wall time: {verdict}")
    print(f"the pool's estimate equals battle_odds: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
