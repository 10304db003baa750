"""Same seeds, same battles: one SHA-256 over many battles and whole campaigns.

    python bench/battle_hash.py [--ruleset force_on_force] [--seeds 200] [--campaigns 20]
                                [--order aggressive]

Fights a set of battles (the korona-turn1 fixture and varied areas, forces, qualities
and snipers, one and two companies a side) for seeds 0 to N-1 under the rule set, and
plays whole campaigns of the reference scenario under it, every company on the standing
order; prints a hash of every result (battles) and of every turn's records and state
(campaigns). Run it before and after a change that must keep a rule set's results: the
hashes must be equal. A battle of two companies carries BATTLE.json ``companies`` where
the code reads it (as the campaign sends it). A benchmark prints figures; it asserts
nothing.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.campaign.scenario import load_scenario  # noqa: E402
from rules.campaign.turn import play_turn  # noqa: E402
from rules.dice import derive_seed  # noqa: E402
from rules.rulesets import resolve_battle  # noqa: E402
from rules.spec import BattleSpecError, parse_battle  # noqa: E402

AUSTRALIAN = {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "forward_observer": 1}
JAPANESE = {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "hmg": 1}


def _twice(stands: dict[str, int], second: dict[str, int]) -> dict[str, int]:
    return {k: stands.get(k, 0) + second.get(k, 0) for k in {**stands, **second}}


def battle_docs(ruleset: str) -> list[dict[str, Any]]:
    """The battles hashed: the fixture, then areas x forces x snipers."""
    fixture = json.loads((ROOT / "fixtures/battles/korona-turn1.json").read_text())
    docs = [fixture]
    areas = [
        {"name": "Isura", "zone": 4, "vegetation": "jungle", "plains": False},
        {"name": "Korona", "zone": 5, "vegetation": "light", "plains": True},
        {"name": "Uberi Ridge", "zone": 2, "vegetation": "jungle", "plains": False},
        {"name": "Kilu", "zone": 7, "vegetation": "light", "plains": True},
        {"name": "Clearing", "zone": 5, "vegetation": "clearing", "plains": False},
    ]
    small = {"commander": 1, "rifle_squad": 4, "forward_observer": 1}
    for area in areas:
        for attacker, defender, quality, sniper in [
            ("japanese", "australian", ("veteran", "trained"), False),
            ("australian", "japanese", ("trained", "veteran"), True),
            ("japanese", "australian", ("trained", "raw"), True),
        ]:
            stands = {"japanese": JAPANESE, "australian": AUSTRALIAN}
            docs.append(
                {
                    "area": area,
                    "table": {"width_ft": 3, "depth_ft": 3},
                    "attacker": {
                        "side": attacker,
                        "name": "Attackers",
                        "quality": quality[0],
                        "stands": dict(stands[attacker]),
                    },
                    "defender": {
                        "side": defender,
                        "name": "Defenders",
                        "quality": quality[1],
                        "stands": dict(stands[defender]),
                        "sniper": sniper,
                    },
                    "support": {"buffalos": 2, "hurricane": area["zone"] >= 6},
                    "options": {"ruleset": "korona"},
                }
            )
        # Two companies on the attacking side, one weakened.
        second = dict(small)
        docs.append(
            {
                "area": area,
                "table": {"width_ft": 3, "depth_ft": 3},
                "attacker": {
                    "side": "australian",
                    "name": "A Company",
                    "quality": "trained",
                    "stands": _twice(AUSTRALIAN, second),
                    "companies": [
                        {"name": "A Company", "stands": dict(AUSTRALIAN)},
                        {"name": "C Company", "stands": second},
                    ],
                },
                "defender": {
                    "side": "japanese",
                    "name": "1st Company",
                    "quality": "veteran",
                    "stands": dict(JAPANESE),
                    "sniper": area["vegetation"] != "clearing",
                },
                "support": {"buffalos": 3, "hurricane": False},
                "options": {"ruleset": "korona"},
            }
        )
    for doc in docs:
        doc["options"] = {"ruleset": ruleset}
    return docs


def parse(doc: dict[str, Any]) -> Any:
    """The battle, with ``companies`` if this code reads it (older code refuses it)."""
    try:
        return parse_battle(doc)
    except BattleSpecError:
        bare = copy.deepcopy(doc)
        for key in ("attacker", "defender"):
            bare[key].pop("companies", None)
        return parse_battle(bare)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="force_on_force")
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--campaigns", type=int, default=20)
    parser.add_argument("--order", default="aggressive", help="every company's standing order")
    args = parser.parse_args()

    battles = hashlib.sha256()
    docs = battle_docs(args.ruleset)
    for index, doc in enumerate(docs):
        spec = parse(doc)
        for seed in range(args.seeds):
            result = resolve_battle(spec, derive_seed(0, "hash", index, seed))
            battles.update(json.dumps(result, sort_keys=True).encode())
    print(f"{args.ruleset}: {len(docs)} battles x {args.seeds} seeds: {battles.hexdigest()}")

    campaigns = hashlib.sha256()
    turns = 0
    for n in range(args.campaigns):
        state = load_scenario(ROOT / "fixtures/scenarios/korona.json")
        state.seed = derive_seed(0, "hash-campaign", n)
        state.settings.ruleset = args.ruleset
        for company in state.companies.values():
            company.standing_order = args.order
        while not state.finished:
            outcome = play_turn(state)
            turns += 1
            state = outcome.state
            # The records and the state, without the battle specs the campaign sends
            # (a new field there is no change of result).
            log = [{k: v for k, v in r.items() if k != "spec"} for r in outcome.log]
            campaigns.update(json.dumps(log, sort_keys=True, default=str).encode())
            companies = {
                name: [c.area, dict(c.stands), c.side] for name, c in state.companies.items()
            }
            areas = {name: a.controller for name, a in state.areas.items()}
            campaigns.update(json.dumps([companies, areas], sort_keys=True).encode())
        campaigns.update(f"{state.winner}:{state.end_reason}".encode())
    print(
        f"{args.ruleset}: {args.campaigns} campaigns ({args.order}), {turns} turns: "
        f"{campaigns.hexdigest()}"
    )


if __name__ == "__main__":
    main()
