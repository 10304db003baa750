"""Scenario balance (rules.campaign.balance), its command and the admin's Balance button:
campaigns simulated with the sensible AI on both sides, the win shares with their Wilson
intervals, the mean length, and how often each area changed hands."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from rules.campaign.balance import simulate
from rules.campaign.scenario import parse_scenario
from rules.dice import derive_seed
from rules.odds import wilson_interval
from tests.campaign.conftest import korona_doc


def short_doc(turns: int = 2) -> dict[str, Any]:
    doc = korona_doc(standing_order=None)
    doc["settings"] = {"turn_limit": turns}
    return doc


def test_simulate_plays_each_campaign_to_its_end_and_counts_who_won() -> None:
    seen: list[tuple[int, int]] = []
    balance = simulate(
        parse_scenario(short_doc()), campaigns=3, seed=5, progress=lambda d, n: seen.append((d, n))
    )
    assert seen == [(1, 3), (2, 3), (3, 3)]
    data = balance.to_json()
    assert data["campaigns"] == 3
    assert data["standing_orders"] == {"australian": "sensible", "japanese": "sensible"}
    wins = {key: side["wins"] for key, side in data["sides"].items()}
    assert sum(wins.values()) + data["nobody"]["wins"] == 3
    for key, side in data["sides"].items():
        low, high = wilson_interval(wins[key], 3)
        assert (side["low"], side["high"]) == (round(low, 4), round(high, 4))
    assert 1 <= data["mean_turns"] <= 2
    assert set(data["area_changes"]) == set(parse_scenario(short_doc()).areas)


def test_each_campaign_is_the_one_its_seed_plays() -> None:
    from rules.campaign.balance import play_campaign

    state = parse_scenario(short_doc())
    balance = simulate(state, campaigns=2, seed=9)
    for run, result in enumerate(balance.results):
        alone = state.copy()
        alone.seed = derive_seed(9, "balance", run)
        for company in alone.companies.values():
            company.standing_order = "sensible"
        assert play_campaign(alone) == result
    assert simulate(state, campaigns=2, seed=9).to_json() == balance.to_json()


def test_changes_of_hands_are_counted_per_area() -> None:
    # Aggressive Japanese walk into Korona's empty neighbours: Munara changes hands.
    doc = short_doc(turns=1)
    for company in doc["companies"]:
        if company["name"] in ("A Company", "B Company"):
            company["area"] = "Isura"
    balance = simulate(
        parse_scenario(doc),
        campaigns=2,
        standing_orders={"japanese": "aggressive", "australian": "hold"},
    )
    assert balance.to_json()["area_changes"]["Korona"] == 1.0


@pytest.mark.parametrize("count", [0, 10_001])
def test_a_bad_number_of_campaigns_is_refused(count: int) -> None:
    with pytest.raises(ValueError, match="the number of campaigns must be 1 to 10000"):
        simulate(parse_scenario(short_doc()), campaigns=count)


def test_an_unknown_side_is_refused() -> None:
    with pytest.raises(ValueError, match="'dutch' is not a side"):
        simulate(parse_scenario(short_doc()), campaigns=1, standing_orders={"dutch": "hold"})


# --- the command --------------------------------------------------------------------------


def scenario_file(tmp_path: Path, doc: dict[str, Any]) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_the_command_prints_the_shares_their_intervals_and_the_changes(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "scenario_balance",
        scenario_file(tmp_path, short_doc()),
        campaigns=2,
        stdout=out,
        stderr=err,
    )
    text = out.getvalue()
    assert "2 campaigns (seed 0; standing orders: Australians sensible, Japanese sensible)" in text
    assert "Australians win" in text and "Japanese win" in text and "95% interval" in text
    assert "mean length:" in text and "  Korona:" in text
    assert "2/2" in err.getvalue()  # the progress bar


def test_the_command_prints_json(tmp_path: Path) -> None:
    out = io.StringIO()
    call_command(
        "scenario_balance",
        scenario_file(tmp_path, short_doc()),
        campaigns=1,
        json=True,
        japanese="hold",
        stdout=out,
    )
    data = json.loads(out.getvalue())
    assert data["campaigns"] == 1 and data["standing_orders"]["japanese"] == "hold"


def test_the_command_lists_a_bad_scenarios_faults(tmp_path: Path) -> None:
    doc = short_doc()
    doc["companies"][0]["quality"] = "elite"
    err = io.StringIO()
    with pytest.raises(CommandError, match="not a scenario that can be played"):
        call_command("scenario_balance", scenario_file(tmp_path, doc), campaigns=1, stderr=err)
    assert "must be one of raw, trained, veteran, not 'elite'" in err.getvalue()


def test_the_command_refuses_a_bad_count(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="--campaigns must be 1 to 10000, not 0"):
        call_command("scenario_balance", scenario_file(tmp_path, short_doc()), campaigns=0)


def test_a_balance_shared_among_processes_is_the_one_played_in_one() -> None:
    """The admin's Balance shares its campaigns among processes, a few at a time, in
    whatever order they end: the tally is still run by run the one ``simulate`` gives."""
    from campaign.services.balance import SHARE, simulate_shared

    state = parse_scenario(short_doc())
    campaigns = 2 * SHARE + 1  # three shares, the last a short one
    seen: list[int] = []
    shared = simulate_shared(
        state, campaigns=campaigns, seed=4, progress=lambda d, n: seen.append(d), workers=2
    )
    alone = simulate(state, campaigns=campaigns, seed=4)
    assert shared.results == alone.results
    assert shared.to_json() == alone.to_json()
    assert seen == sorted(seen) and seen[-1] == campaigns and len(seen) == 3


@pytest.mark.parametrize(
    ("done", "elapsed", "since", "words"),
    [
        (0, 30, 0, ""),  # nothing has ended yet: no pace to go by
        (10, 100, 0, "about 15 minutes left"),  # 10 s a campaign, 90 to come
        (10, 100, 60, "about 14 minutes left"),  # a minute since the last share came in
        (50, 500, 0, "about 8 minutes left"),  # 500 s: 8 min 20 s
        (95, 950, 0, "less than a minute left"),
        (94, 940, 0, "about a minute left"),
        (1, 60, 0, "about 1 hour and 39 minutes left"),
        (1, 3600, 0, "about 99 hours left"),
        (100, 1000, 0, ""),  # done
    ],
)
def test_the_balance_page_says_about_how_long_is_left(
    done: int, elapsed: float, since: float, words: str
) -> None:
    from campaign.services.balance import time_left

    status = {"done": done, "total": 100, "started": 1000.0, "updated": 1000.0 + elapsed}
    assert time_left(status, now=1000.0 + elapsed + since) == words
