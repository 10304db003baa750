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

While the pool fights, this process sleeps until a chunk lands (``odds.wait``), and the
pool's processes set up no Django (they import ``rules/`` only, as the web server's do).
Before 7 December it read the cache every 2 ms, which took some 10-20% of a core from
the pool it timed, and each process of the pool set Django up again (this file imported
anew by each) before its first battle: the pool's figures since are not comparable with
earlier ones (eight runs interleaved, quiet: warm 0.1-0.6 s better, cold 0.2-1.7 s).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]

if TYPE_CHECKING:
    from campaign.services import odds


def pooled(job: odds.OddsJob) -> float:
    """Ask for the estimate as a page does; the wall time until every chunk is cached.
    It waits on the pool's landings (``odds.wait``), not on a loop reading the cache
    every few milliseconds, which took a core's share from the pool it was timing."""
    from campaign.services import odds

    started = time.perf_counter()
    odds.request(job)
    if odds.wait(job, timeout=600).tally.runs < job.runs:
        raise SystemExit("the pool did not finish the estimate in 10 minutes")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--battle", default=str(ROOT / "fixtures/battles/korona-turn1.json"))
    args = parser.parse_args()
    # Django is set up here, not at the top of the file: the pool's processes are
    # spawned, and each imports this file again (as ``__mp_main__``); at the top, each
    # set Django up (a second of CPU) before its first battle, which the web server's pool
    # (whose main module, manage.py, does nothing when imported) never does.
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)  # the embedded default: the process pool, a local cache
    import django

    django.setup()

    from django.conf import settings

    from campaign.services import odds
    from rules.campaign.planning import odds_of
    from rules.odds import battle_odds
    from rules.spec import parse_battle

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
