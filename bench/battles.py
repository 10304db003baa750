"""Battle speed: the korona-turn1 battle for many seeds, on one core.

    python bench/battles.py [--runs 1000] [--battle fixtures/battles/korona-turn1.json]
                            [--ruleset force_on_force]

Prints the median and p95 milliseconds per battle, battles per second, and how long a
1,000-run odds estimate takes. Target: median under 5 ms. A benchmark prints figures;
it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.dice import derive_seed  # noqa: E402
from rules.odds import battle_odds  # noqa: E402
from rules.rulesets import RULESETS, resolve_battle  # noqa: E402
from rules.spec import load_battle, parse_battle  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--battle", default=str(ROOT / "fixtures/battles/korona-turn1.json"))
    parser.add_argument(
        "--ruleset", choices=sorted(RULESETS), help="fight it under this rule set instead"
    )
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    spec = load_battle(args.battle)
    if args.ruleset and args.ruleset != spec.ruleset:
        # The battle's own options belong to its rule set: keep only the rule set's name.
        doc = spec.to_json()
        doc["options"] = {"ruleset": args.ruleset}
        spec = parse_battle(doc)
    for seed in range(20):  # warm up caches and the allocator
        resolve_battle(spec, derive_seed(0, "warm", seed))

    times = []
    turns = []
    started = time.perf_counter()
    for seed in range(args.runs):
        t0 = time.perf_counter()
        result = resolve_battle(spec, derive_seed(0, "bench", seed))
        times.append(time.perf_counter() - t0)
        turns.append(result["turns"])
    elapsed = time.perf_counter() - started
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(f"battle: {Path(args.battle).name} ({spec.ruleset} rules), {args.runs} seeds, one core")
    print(f"median {statistics.median(times) * 1000:.2f} ms per battle")
    print(f"p95    {p95 * 1000:.2f} ms per battle")
    print(f"{args.runs / elapsed:.0f} battles per second")
    print(f"mean battle length {statistics.mean(turns):.2f} turns")

    t0 = time.perf_counter()
    battle_odds(spec, runs=1000, seed=1)
    print(f"1,000-run odds: {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
