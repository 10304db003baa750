"""Battle speed: the korona-turn1 battle for many seeds under each rule set, on one core.

    python bench/battles.py [--runs 1000] [--battle fixtures/battles/korona-turn1.json]
                            [--ruleset force_on_force] [--no-odds]

For each rule set (both by default; ``--ruleset`` names one, the battle converted to it
keeping only the rule set's name) prints the median and p95 milliseconds per battle,
battles per second, the mean battle length, and how long a 1,000-run odds estimate takes;
then the dice thrown per battle, counted by the battle's own ``Roller``, and the dice
limit: how long the project's ``rules.dice.Roller`` takes to throw that many dice one
``d6()`` at a time, timed right after each battle, with the median battle as a multiple
of the median limit.
Targets (issue 17): Korona at most 30x the dice limit, Force on Force at most 40x. The
ratio is the figure to trust on a loaded machine: both of its times are taken together.
A benchmark prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rules.kernel.battle  # noqa: E402
from rules.battlespec import BattleSpec  # noqa: E402
from rules.dice import Roller, derive_seed  # noqa: E402
from rules.odds import battle_odds  # noqa: E402
from rules.rulesets import RULESETS, resolve_battle  # noqa: E402
from rules.spec import load_battle, parse_battle  # noqa: E402


class _KeptRoller(Roller):
    """The kernel's Roller, kept hold of: the battle's own count of the dice it threw."""

    __slots__ = ()
    last: Roller | None = None

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        _KeptRoller.last = self


def _under(spec: BattleSpec, ruleset: str) -> BattleSpec:
    """The battle under ``ruleset``: its own options belong to its rule set, so only the
    rule set's name is kept."""
    if ruleset == spec.ruleset:
        return spec
    doc = spec.to_json()
    doc["options"] = {"ruleset": ruleset}
    return parse_battle(doc)


def throw(roller: Roller, count: int) -> float:
    """The seconds ``roller`` takes to throw ``count`` dice, one ``d6()`` each."""
    t0 = time.perf_counter()
    for _ in range(count):
        roller.d6()
    return time.perf_counter() - t0


def bench(spec: BattleSpec, runs: int, odds: bool) -> None:
    for seed in range(20):  # warm up caches and the allocator
        resolve_battle(spec, derive_seed(0, "warm", seed))
    times, turns, dice, limits = [], [], [], []
    dice_roller = Roller(1)
    started = time.perf_counter()
    for seed in range(runs):
        t0 = time.perf_counter()
        result = resolve_battle(spec, derive_seed(0, "bench", seed))
        times.append(time.perf_counter() - t0)
        turns.append(result["turns"])
        roller = _KeptRoller.last
        if roller is None or roller.seed != result["seed"]:
            raise SystemExit("the battle threw no dice through the kernel's Roller")
        dice.append(roller.dice_rolled)
        # The dice limit of this battle, right after it: both times see the same load.
        limits.append(throw(dice_roller, roller.dice_rolled))
    elapsed = time.perf_counter() - started - sum(limits)  # the battles alone
    times.sort()
    median = statistics.median(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(f"{spec.ruleset} rules, {runs} seeds, one core")
    print(f"  median {median * 1000:.2f} ms per battle")
    print(f"  p95    {p95 * 1000:.2f} ms per battle")
    print(f"  {runs / elapsed:.0f} battles per second")
    print(f"  mean battle length {statistics.mean(turns):.2f} turns")
    limit = statistics.median(limits)
    print(
        f"  {statistics.mean(dice):.1f} dice per battle; "
        f"the Roller throws them in {limit * 1000:.4f} ms (median)"
    )
    print(f"  median battle {median / limit:.0f}x the dice limit")
    if odds:
        t0 = time.perf_counter()
        battle_odds(spec, runs=1000, seed=1)
        print(f"  1,000-run odds: {time.perf_counter() - t0:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--battle", default=str(ROOT / "fixtures/battles/korona-turn1.json"))
    parser.add_argument(
        "--ruleset", choices=sorted(RULESETS), help="fight it under this rule set only"
    )
    parser.add_argument("--no-odds", action="store_true", help="skip the 1,000-run odds")
    args = parser.parse_args()
    # One process, so one core at a time; not pinned: pinning every run to the lowest core
    # made runs side by side share core 0 while the other idled.
    rules.kernel.battle.Roller = _KeptRoller  # type: ignore[misc]  # the battle's own roller
    spec = load_battle(args.battle)
    print(f"battle: {Path(args.battle).name}")
    for ruleset in [args.ruleset] if args.ruleset else RULESETS:
        bench(_under(spec, ruleset), args.runs, not args.no_odds)


if __name__ == "__main__":
    main()
