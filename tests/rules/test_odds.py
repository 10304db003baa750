"""Outcome odds: Wilson intervals against published values, and the same battle fought
from derived seeds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import derive_seed
from rules.odds import battle_odds, wilson_interval
from rules.rulesets import resolve_battle
from rules.spec import load_battle
from tests.rules.conftest import FIXTURE, deadline


@pytest.mark.parametrize(
    ("successes", "runs", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Table I, method 3 (the Wilson score interval without continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_published_values(
    successes: int, runs: int, low: float, high: float
) -> None:
    got = wilson_interval(successes, runs)
    assert (round(got[0], 4), round(got[1], 4)) == (low, high)


def test_wilson_interval_with_no_runs_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_of_all_successes_reaches_one() -> None:
    low, high = wilson_interval(10, 10)
    assert round(low, 4) == 0.7225  # 1 - the upper bound for 0 of 10
    assert high == pytest.approx(1.0)


@given(runs=st.integers(1, 10_000), data=st.data())
def test_wilson_interval_holds_the_observed_share(runs: int, data: st.DataObject) -> None:
    successes = data.draw(st.integers(0, runs))
    low, high = wilson_interval(successes, runs)
    p = successes / runs
    assert 0.0 <= low <= p + 1e-12
    assert p - 1e-12 <= high <= 1.0
    mirrored = wilson_interval(runs - successes, runs)
    assert mirrored == pytest.approx((1 - high, 1 - low), abs=1e-12)


def test_battle_odds_fights_run_i_with_seed_derived_from_i() -> None:
    spec = load_battle(FIXTURE)
    with deadline(30, "20 battles"):
        odds = battle_odds(spec, runs=20, seed=3)
        results = [resolve_battle(spec, derive_seed(3, "odds", run)) for run in range(20)]
    attacker_wins = sum(r["winner"] == "attacker" for r in results)
    assert odds["attacker_win"]["p"] == round(attacker_wins / 20, 6)
    assert odds["defender_win"]["p"] == round((20 - attacker_wins) / 20, 6)
    low, high = wilson_interval(attacker_wins, 20)
    assert (odds["attacker_win"]["low"], odds["attacker_win"]["high"]) == (
        round(low, 6),
        round(high, 6),
    )
    assert odds["mean_losses"]["defender"] == round(
        sum(sum(r["losses"]["defender"].values()) for r in results) / 20, 4
    )
    assert odds["mean_turns"] == round(sum(r["turns"] for r in results) / 20, 4)
    for key in ("attacker_win", "defender_win"):
        assert odds[key]["low"] <= odds[key]["p"] <= odds[key]["high"]


def test_battle_odds_reports_progress_after_every_run() -> None:
    calls: list[tuple[int, int]] = []
    with deadline(30, "5 battles"):
        battle_odds(
            load_battle(FIXTURE), runs=5, progress=lambda done, total: calls.append((done, total))
        )
    assert calls == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


@pytest.mark.parametrize("runs", [0, -1])
def test_battle_odds_needs_a_run(runs: int) -> None:
    with pytest.raises(ValueError, match="at least one run"):
        battle_odds(load_battle(FIXTURE), runs=runs)
