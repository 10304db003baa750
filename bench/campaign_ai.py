"""The campaign AI head to head: ``sensible`` against ``aggressive`` and ``hold``.

    python bench/campaign_ai.py [--campaigns 200] [--workers 2] [--seed 0]
                                [--scenario fixtures/scenarios/korona.json]
                                [--against aggressive hold]

For each opponent X it plays ``--campaigns`` campaigns with ``sensible`` Australians
against X Japanese and as many with X Australians against ``sensible`` Japanese (campaign
i has the same seed in every pairing), and X against X for the baseline. It prints each
pairing's win shares with 95% Wilson intervals, and sensible's share over both seatings
with the exact one-sided binomial test of it against one half:
the scenario favours one side, so beating an opponent head to head means winning more
than half of the campaigns of the two seatings together, and winning more with either
side than X does in its place. A benchmark prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.campaign.balance import simulate  # noqa: E402
from rules.campaign.scenario import load_scenario  # noqa: E402
from rules.odds import wilson_interval  # noqa: E402


def _chunk(args: tuple[str, str, str, int, int, int]) -> list[tuple[str | None, int]]:
    scenario, australian, japanese, seed, start, count = args
    state = load_scenario(scenario)
    balance = simulate(
        state,
        campaigns=count,
        seed=seed,
        start=start,
        standing_orders={"australian": australian, "japanese": japanese},
    )
    return [(r.winner, r.turns) for r in balance.results]


def pairing(
    pool: ProcessPoolExecutor, scenario: str, australian: str, japanese: str, n: int, seed: int
) -> list[tuple[str | None, int]]:
    size = max(1, n // 8)
    jobs = [
        (scenario, australian, japanese, seed, start, min(size, n - start))
        for start in range(0, n, size)
    ]
    out: list[tuple[str | None, int]] = []
    for part in pool.map(_chunk, jobs):
        out.extend(part)
    return out


def share(wins: int, n: int) -> str:
    low, high = wilson_interval(wins, n)
    return f"{wins}/{n} = {wins / n:.1%} (95% {low:.1%}-{high:.1%})"


def one_sided_p(wins: int, n: int) -> float:
    """The exact one-sided p-value of ``wins`` of ``n`` against a share of one half:
    P(X >= wins) for X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, k) for k in range(wins, n + 1)) / 2**n


def needed(p: float) -> str:
    """Campaigns per seating for the 95% interval of a seat-balanced share ``p`` to
    exclude one half with 80% power (normal approximation: a one-sample test of p
    against 0.5 at two-sided 5%)."""
    if p <= 0.5:
        return "sensible does not win more than half: no number of campaigns shows it better"
    z_alpha, z_beta = 1.959964, 0.841621
    total = ((z_alpha * 0.5 + z_beta * math.sqrt(p * (1 - p))) / (p - 0.5)) ** 2
    return (
        f"at a true share of {p:.1%}, {math.ceil(total / 2)} campaigns per seating "
        "give an interval above 50% with 80% power"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scenario", default=str(ROOT / "fixtures/scenarios/korona.json"))
    parser.add_argument("--against", nargs="+", default=["aggressive", "hold"])
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the X against X pairings (faster)"
    )
    args = parser.parse_args()
    n = args.campaigns
    started = time.perf_counter()
    print(f"{args.scenario}: {n} campaigns a pairing, seed {args.seed}")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for other in args.against:
            as_aus = pairing(pool, args.scenario, "sensible", other, n, args.seed)
            as_jap = pairing(pool, args.scenario, other, "sensible", n, args.seed)
            base = (
                [] if args.no_baseline else pairing(pool, args.scenario, other, other, n, args.seed)
            )
            won_aus = sum(1 for w, _ in as_aus if w == "australian")
            won_jap = sum(1 for w, _ in as_jap if w == "japanese")
            base_aus = sum(1 for w, _ in base if w == "australian")
            base_jap = sum(1 for w, _ in base if w == "japanese")
            print(f"\nsensible against {other}:")
            print(f"  sensible Australians v {other} Japanese: Australians win {share(won_aus, n)}")
            print(f"  {other} Australians v sensible Japanese: Japanese win {share(won_jap, n)}")
            if base:
                print(
                    f"  baseline {other} v {other}: Australians win {share(base_aus, n)}, "
                    f"Japanese {share(base_jap, n)}"
                )
            both = won_aus + won_jap
            print(f"  sensible over both seatings: wins {share(both, 2 * n)}")
            print(
                f"  one-sided exact binomial test against 50%: p = {one_sided_p(both, 2 * n):.2g}"
            )
            print(f"  {needed(both / (2 * n))}")
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
