"""Scenario balance: many campaigns of one scenario played to their end by the AI.

``simulate`` plays ``campaigns`` campaigns of a scenario, campaign i from the seed
``derive_seed(seed, "balance", i)``, every company on the standing orders given per side
(``sensible`` on both sides by default), every battle fought by the rules, and tallies
each side's wins (with 95% Wilson intervals), the draws (nobody holds the objective),
the mean length in turns and how often each area changed hands. Pure: the command and
the admin's Balance button both call it, and a ``progress`` callback reports each
campaign as it ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.campaign.state import CampaignState
from rules.campaign.turn import play_turn
from rules.dice import derive_seed
from rules.odds import wilson_interval

MAX_CAMPAIGNS = 10_000


@dataclass(slots=True)
class CampaignResult:
    winner: str | None
    turns: int
    changes: dict[str, int]  # area -> times it changed hands
    reason: str


@dataclass(slots=True)
class Balance:
    sides: dict[str, str]  # key -> name
    areas: list[str]
    standing_orders: dict[str, str]
    seed: int
    results: list[CampaignResult] = field(default_factory=list)

    @property
    def campaigns(self) -> int:
        return len(self.results)

    def wins(self, side: str | None) -> int:
        return sum(1 for r in self.results if r.winner == side)

    def share(self, side: str | None) -> dict[str, float]:
        n, k = self.campaigns, self.wins(side)
        low, high = wilson_interval(k, n)
        return {
            "wins": k,
            "p": round(k / n, 4) if n else 0.0,
            "low": round(low, 4),
            "high": round(high, 4),
        }

    def to_json(self) -> dict[str, Any]:
        n = self.campaigns
        return {
            "campaigns": n,
            "seed": self.seed,
            "standing_orders": dict(self.standing_orders),
            "sides": {key: {"name": name, **self.share(key)} for key, name in self.sides.items()},
            "nobody": self.share(None),
            "mean_turns": round(sum(r.turns for r in self.results) / n, 2) if n else 0.0,
            "area_changes": {
                area: round(sum(r.changes.get(area, 0) for r in self.results) / n, 3) if n else 0.0
                for area in self.areas
            },
        }

    def lines(self) -> list[str]:
        """The figures in plain words, one a line."""
        data = self.to_json()
        out = [
            f"{data['campaigns']} campaigns (seed {self.seed}; standing orders: "
            + ", ".join(f"{self.sides[k]} {v}" for k, v in self.standing_orders.items())
            + ")"
        ]
        for side in data["sides"].values():
            out.append(
                f"{side['name']} win {side['wins']} ({side['p']:.1%}, 95% interval "
                f"{side['low']:.1%} to {side['high']:.1%})"
            )
        if data["nobody"]["wins"]:
            out.append(f"nobody holds the objective at the end: {data['nobody']['wins']}")
        out.append(f"mean length: {data['mean_turns']} turns")
        out.append("changes of hands per campaign:")
        for area, mean in data["area_changes"].items():
            out.append(f"  {area}: {mean}")
        return out


def play_campaign(
    state: CampaignState,
    *,
    resolve: Callable[[dict[str, Any], int], dict[str, Any]] | None = None,
) -> CampaignResult:
    """Play one campaign to its end on its companies' standing orders."""
    changes: dict[str, int] = {}
    while not state.finished:
        outcome = play_turn(state, resolve=resolve)
        for record in outcome.log:
            if record["kind"] == "control" and record.get("previous") is not None:
                changes[record["target"]] = changes.get(record["target"], 0) + 1
        state = outcome.state
    return CampaignResult(
        winner=state.winner, turns=state.turn, changes=changes, reason=state.end_reason or ""
    )


def simulate(
    scenario: CampaignState,
    *,
    campaigns: int,
    seed: int = 0,
    standing_orders: Mapping[str, str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    start: int = 0,
    balance: Balance | None = None,
) -> Balance:
    """Play ``campaigns`` campaigns of ``scenario`` (runs ``start`` to ``start +
    campaigns - 1``; pass ``balance`` to add to an earlier tally)."""
    check_count(campaigns)
    orders = orders_of(scenario, standing_orders)
    if balance is None:
        balance = empty_balance(scenario, orders, seed)
    for run in range(start, start + campaigns):
        balance.results.append(play_run(scenario, orders=orders, seed=seed, run=run))
        if progress is not None:
            progress(run - start + 1, campaigns)
    return balance


def check_count(campaigns: int) -> None:
    if not 1 <= campaigns <= MAX_CAMPAIGNS:
        raise ValueError(f"the number of campaigns must be 1 to {MAX_CAMPAIGNS}, not {campaigns}")


def orders_of(scenario: CampaignState, standing_orders: Mapping[str, str] | None) -> dict[str, str]:
    """Each side's standing order: ``sensible`` unless ``standing_orders`` names another."""
    orders = {key: "sensible" for key in scenario.sides} | dict(standing_orders or {})
    for key in orders:
        if key not in scenario.sides:
            raise ValueError(f"{key!r} is not a side of this scenario")
    return orders


def empty_balance(scenario: CampaignState, orders: Mapping[str, str], seed: int) -> Balance:
    """A tally of no campaigns yet."""
    return Balance(
        sides={key: side.name for key, side in scenario.sides.items()},
        areas=sorted(scenario.areas),
        standing_orders=dict(orders),
        seed=seed,
    )


def play_run(
    scenario: CampaignState, *, orders: Mapping[str, str], seed: int, run: int
) -> CampaignResult:
    """Campaign ``run`` of a balance from ``seed``: the scenario from the start, on the
    seed ``derive_seed(seed, "balance", run)``, each company on its side's order."""
    state = scenario.copy()
    state.seed = derive_seed(seed, "balance", run)
    state.turn, state.finished, state.winner, state.end_reason = 0, False, None, None
    for company in state.companies.values():
        company.standing_order = orders[company.side]
    return play_campaign(state)


def play_runs(
    scenario: CampaignState, *, orders: Mapping[str, str], seed: int, start: int, stop: int
) -> list[CampaignResult]:
    """Runs ``start`` to ``stop - 1``, in order: a share of a balance for another process
    (campaign/services/balance.py), the same results ``simulate`` gives them."""
    return [play_run(scenario, orders=orders, seed=seed, run=run) for run in range(start, stop)]
