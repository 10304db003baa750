"""Outcome odds: the same battle fought many times from derived seeds."""

from __future__ import annotations

from collections.abc import Callable
from math import sqrt
from typing import Any

from rules.battlespec import BattleSpec
from rules.dice import derive_seed
from rules.rulesets import resolve_battle

Z_95 = 1.959963984540054


def wilson_interval(successes: int, runs: int) -> tuple[float, float]:
    """The 95% Wilson score interval for a proportion (sound near 0 and 1, unlike p ± 2σ)."""
    if runs == 0:
        return (0.0, 1.0)
    p = successes / runs
    z2 = Z_95 * Z_95
    centre = (p + z2 / (2 * runs)) / (1 + z2 / runs)
    half = Z_95 * sqrt(p * (1 - p) / runs + z2 / (4 * runs * runs)) / (1 + z2 / runs)
    return (max(0.0, centre - half), min(1.0, centre + half))


def battle_odds(
    spec: BattleSpec,
    *,
    runs: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Fight ``runs`` battles, run i with seed derive_seed(seed, "odds", i)."""
    if runs < 1:
        raise ValueError(f"odds need at least one run, not {runs}")
    wins = {"attacker": 0, "defender": 0}
    lost = {"attacker": 0, "defender": 0}
    turns = 0
    for run in range(runs):
        result = resolve_battle(spec, derive_seed(seed, "odds", run))
        wins[result["winner"]] += 1
        turns += result["turns"]
        for key in lost:
            lost[key] += sum(result["losses"][key].values())
        if progress is not None:
            progress(run + 1, runs)

    def share(key: str) -> dict[str, float]:
        low, high = wilson_interval(wins[key], runs)
        return {"p": round(wins[key] / runs, 6), "low": round(low, 6), "high": round(high, 6)}

    return {
        "ruleset": spec.ruleset,
        "runs": runs,
        "seed": seed,
        "attacker_win": share("attacker"),
        "defender_win": share("defender"),
        "mean_losses": {key: round(value / runs, 4) for key, value in lost.items()},
        "mean_turns": round(turns / runs, 4),
    }
