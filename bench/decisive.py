"""Decisive battles: how often campaign battles end at the tactical turn limit.

    python bench/decisive.py [--campaigns 150] [--order aggressive]
                             [--scenario fixtures/scenarios/korona.json]

Plays N campaigns of the scenario purely in ``rules/`` (no database), every company on
the same standing order, each campaign from its own seed, and fights every battle with
the Korona engine. Prints the share of battles that reached the turn limit (and of those,
how many with no stand lost), by the area's vegetation, and the attacker's win share.
The goal (issue 13) is at most 10% of battles at the limit. A benchmark prints figures;
it asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.campaign.scenario import load_scenario  # noqa: E402
from rules.campaign.turn import finish_turn, start_turn  # noqa: E402
from rules.dice import derive_seed  # noqa: E402
from rules.ending import BEATEN_BY_THE_CLOCK  # noqa: E402
from rules.rulesets import resolve_battle  # noqa: E402
from rules.spec import parse_battle  # noqa: E402


def play(scenario: Path, seed: int, order: str) -> list[tuple[str, dict]]:
    """One whole campaign: (vegetation, battle result) for every battle fought."""
    state = load_scenario(scenario)
    state.seed = seed
    for company in state.companies.values():
        company.standing_order = order
    fought = []
    while not state.finished:
        plan = start_turn(state)
        results = {}
        for battle in plan.battles:
            results[battle.key] = resolve_battle(parse_battle(battle.spec), battle.seed)
            fought.append((battle.spec["area"]["vegetation"], results[battle.key]))
        state = finish_turn(plan, results).state
    return fought


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=150)
    parser.add_argument("--order", default="aggressive", help="every company's standing order")
    parser.add_argument("--scenario", default=str(ROOT / "fixtures/scenarios/korona.json"))
    args = parser.parse_args()
    started = time.perf_counter()
    total, at_limit, bloodless, attacker_wins = 0, 0, 0, 0
    by_vegetation: Counter[str] = Counter()
    limit_by_vegetation: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    turns = 0
    for n in range(args.campaigns):
        for vegetation, result in play(
            Path(args.scenario), derive_seed(0, "decisive", n), args.order
        ):
            total += 1
            by_vegetation[vegetation] += 1
            reason = result["reason"]
            if reason == "withdrew":
                clock = result.get("withdrawal") == BEATEN_BY_THE_CLOCK
                reason += " (the clock)" if clock else " (hopeless)"
            reasons[reason] += 1
            turns += result["turns"]
            attacker_wins += result["winner"] == "attacker"
            if result["reason"] == "turn_limit":
                at_limit += 1
                limit_by_vegetation[vegetation] += 1
                if not any(sum(lost.values()) for lost in result["losses"].values()):
                    bloodless += 1
    elapsed = time.perf_counter() - started
    share = at_limit / total if total else 0.0
    print(f"{args.campaigns} campaigns ({args.order}), {total} battles, {elapsed:.0f} s")
    print(f"at the turn limit: {at_limit} ({share:.1%}), of them {bloodless} with no stand lost")
    for vegetation in sorted(by_vegetation):
        count = by_vegetation[vegetation]
        print(
            f"  {vegetation}: {limit_by_vegetation[vegetation]} of {count}"
            f" ({limit_by_vegetation[vegetation] / count:.1%})"
        )
    print("ended by: " + ", ".join(f"{r} {c}" for r, c in reasons.most_common()))
    if total:
        print(f"attacker won {attacker_wins / total:.1%}; mean length {turns / total:.2f} turns")


if __name__ == "__main__":
    main()
