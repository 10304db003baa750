"""Fingerprints of behaviour: one hash per group of battles and campaign turns.

    python bench/fingerprint.py [--seeds 200] [--campaigns 20]

A refactor must keep behaviour: run this before and after, and the hashes must match
(a commit that changes one names the rule it fixes). Purely in ``rules/``, no database.

- ``battle/<rule set>``: the korona-turn1 fixture fought under each rule set for
  ``--seeds`` seeds; the hash covers every result whole (log, losses, winner).
- ``campaign``: ``--campaigns`` campaigns of the reference scenario, half on the
  ``sensible`` standing order and half ``aggressive``, played to their end; the hash
  covers the state after every turn (``dump_scenario``), every turn's log, and every
  battle's spec, seed and result.
- ``campaign battles/force_on_force``: the same campaigns' battle specs fought under
  Force on Force too, so both engines are fingerprinted on the battles a campaign makes.

It prints counts beside each hash, so two runs with other arguments are not mistaken
for a match. A benchmark prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.campaign.scenario import dump_scenario, load_scenario  # noqa: E402
from rules.campaign.turn import finish_turn, start_turn  # noqa: E402
from rules.dice import derive_seed  # noqa: E402
from rules.rulesets import RULESETS, resolve_battle  # noqa: E402
from rules.spec import load_battle, parse_battle  # noqa: E402

SCENARIO = ROOT / "fixtures/scenarios/korona.json"
BATTLE = ROOT / "fixtures/battles/korona-turn1.json"


class Digest:
    def __init__(self) -> None:
        self.hash = hashlib.sha256()
        self.items = 0

    def add(self, value: Any) -> None:
        self.hash.update(json.dumps(value, sort_keys=True, default=str).encode())
        self.hash.update(b"\n")
        self.items += 1

    def line(self, name: str) -> str:
        return f"{name:34} {self.hash.hexdigest()[:20]}  ({self.items} items)"


def under(doc: dict[str, Any], ruleset: str) -> dict[str, Any]:
    """The battle document fought under ``ruleset``, its own options dropped when the
    rule set changes (they belong to the other rule set)."""
    if doc.get("options", {}).get("ruleset", "korona") == ruleset:
        return doc
    return {**doc, "options": {"ruleset": ruleset}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--campaigns", type=int, default=20)
    args = parser.parse_args()
    started = time.perf_counter()

    fixture = load_battle(str(BATTLE)).to_json()
    for ruleset in sorted(RULESETS):
        spec = parse_battle(under(fixture, ruleset))
        digest = Digest()
        for seed in range(args.seeds):
            digest.add(resolve_battle(spec, derive_seed(0, "fingerprint", seed)))
        print(digest.line(f"battle/{ruleset}"))

    campaign, fof = Digest(), Digest()
    battles = 0
    for n in range(args.campaigns):
        state = load_scenario(SCENARIO)
        state.seed = derive_seed(0, "fingerprint campaign", n)
        order = "sensible" if n % 2 == 0 else "aggressive"
        for company in state.companies.values():
            company.standing_order = order
        while not state.finished:
            plan = start_turn(state)
            results = {}
            for battle in plan.battles:
                results[battle.key] = resolve_battle(parse_battle(battle.spec), battle.seed)
                campaign.add([battle.key, battle.spec, battle.seed, results[battle.key]])
                other = under(battle.spec, "force_on_force")
                fof.add(resolve_battle(parse_battle(other), battle.seed))
                battles += 1
            outcome = finish_turn(plan, results)
            campaign.add([outcome.number, outcome.log, dump_scenario(outcome.state)])
            state = outcome.state
    print(campaign.line(f"campaign ({args.campaigns} played)"))
    print(fof.line("campaign battles/force_on_force"))
    print(f"{battles} campaign battles; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
