"""The command line: ``simulate`` one battle, the ``odds`` over many, and malformed files."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.cli import main
from tests.rules.conftest import FIXTURE, battle_doc, deadline

ROOT = Path(__file__).parents[2]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with deadline(30, f"python -m rules {' '.join(argv)}"):
        code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, doc: Any, name: str = "battle.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


# --- simulate ---------------------------------------------------------------------------


def test_simulate_json_is_byte_identical_across_runs() -> None:
    first = run("simulate", str(FIXTURE), "--seed", "17", "--json")
    second = run("simulate", str(FIXTURE), "--seed", "17", "--json")
    assert first[0] == 0
    assert first == second


def test_simulate_json_has_the_interface_fields() -> None:
    code, out, err = run("simulate", str(FIXTURE), "--seed", "17", "--json")
    assert (code, err) == (0, "")
    result = json.loads(out)
    for field in (
        "winner",
        "reason",
        "turns",
        "losses",
        "stands_present",
        "seed",
        "terrain",
        "log",
    ):
        assert field in result, field
    assert result["seed"] == 17
    assert result["winner"] in ("attacker", "defender")
    assert result["reason"] in ("a_third_lost", "turn_limit", "withdrew")
    assert result["stands_present"]["attacker"] == {
        "commander": 1,
        "rifle_squad": 9,
        "small_mortar": 1,
        "hmg": 1,
    }
    assert len(result["terrain"]) == 3 and len(result["terrain"][0]) == 3
    assert out == json.dumps(result, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def test_simulate_json_differs_by_seed() -> None:
    assert (
        run("simulate", str(FIXTURE), "--seed", "1", "--json")[1]
        != run("simulate", str(FIXTURE), "--seed", "2", "--json")[1]
    )


def test_simulate_without_json_tells_the_battle_in_words() -> None:
    code, out, _ = run("simulate", str(FIXTURE), "--seed", "3")
    result = json.loads(run("simulate", str(FIXTURE), "--seed", "3", "--json")[1])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Battle at Korona (korona rules, seed 3)"
    assert "  attacker: 1st Company (japanese, veteran)" in lines
    assert "  defender: A Company (australian, trained)" in lines
    winner = result["forces"][result["winner"]]["name"]
    reason = result["reason"].replace("_", " ")
    assert f"{winner} ({result['winner']}) wins after {result['turns']} turns: {reason}." in lines
    # One line per log record, between the heading and the summary.
    assert len(lines) == 4 + len(result["log"]) + 1 + 3


def test_simulate_needs_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", str(FIXTURE)])
    assert exit_.value.code == 2
    assert "--seed" in capsys.readouterr().err


# --- malformed input --------------------------------------------------------------------


def test_a_malformed_file_exits_2_and_lists_every_problem(tmp_path: Path) -> None:
    doc = battle_doc(attacker={"rifle_squad": -1, "tiger_tank": 2}, defender_quality="elite")
    path = write(tmp_path, doc)
    code, out, err = run("simulate", path, "--seed", "1", "--json")
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert lines[0] == f"error: {path} is not a battle that can be fought:"
    assert "  - attacker.stands.rifle_squad: must be from 0 to 1000, not -1" in lines
    assert any(
        line.startswith("  - attacker.stands.tiger_tank: unknown unit type") for line in lines
    )
    assert "  - defender.quality: must be one of raw, trained, veteran, not 'elite'" in lines


def test_bad_json_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "{ not json")
    code, out, err = run("odds", path, "--runs", "5", "--json")
    assert (code, out) == (2, "")
    assert "not valid JSON at line 1" in err


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = run("simulate", str(tmp_path / "absent.json"), "--seed", "1")
    assert code == 2
    assert "cannot read the file" in err


# --- odds -------------------------------------------------------------------------------


def test_odds_json_reports_shares_with_intervals() -> None:
    code, out, err = run("odds", str(FIXTURE), "--runs", "20", "--json")
    assert (code, err) == (0, "")
    odds = json.loads(out)
    assert odds["runs"] == 20
    assert odds["seed"] == 0
    assert odds["ruleset"] == "korona"
    for key in ("attacker_win", "defender_win"):
        share = odds[key]
        assert set(share) == {"p", "low", "high"}
        assert 0 <= share["low"] <= share["p"] <= share["high"] <= 1
        assert (share["p"] * 20) == pytest.approx(round(share["p"] * 20))  # whole battles
    assert odds["attacker_win"]["p"] + odds["defender_win"]["p"] == pytest.approx(1, abs=1e-9)
    assert set(odds["mean_losses"]) == {"attacker", "defender"}
    assert all(0 <= v <= 12 for v in odds["mean_losses"].values())
    assert 1 <= odds["mean_turns"] <= 12


def test_odds_are_reproducible_and_depend_on_the_seed() -> None:
    first = run("odds", str(FIXTURE), "--runs", "10", "--seed", "5", "--json")[1]
    again = run("odds", str(FIXTURE), "--runs", "10", "--seed", "5", "--json")[1]
    assert first == again
    assert json.loads(first)["seed"] == 5


def test_odds_in_words() -> None:
    code, out, _ = run("odds", str(FIXTURE), "--runs", "10")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("attacker wins ") and "95% interval" in lines[0]
    assert lines[1].startswith("defender wins ")
    assert lines[2].startswith("over 10 battles, mean length ")


@pytest.mark.parametrize("runs", ["0", "-3", "100001", str(10**9)])
def test_odds_need_one_to_a_hundred_thousand_runs(runs: str) -> None:
    code, out, err = run("odds", str(FIXTURE), "--runs", runs)
    assert (code, out) == (2, "")
    assert err == f"error: --runs must be from 1 to 100000, not {runs}\n"


# --- the module entry point -------------------------------------------------------------


def test_python_dash_m_rules_simulates_a_battle() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "rules", "simulate", str(FIXTURE), "--seed", "17", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == run("simulate", str(FIXTURE), "--seed", "17", "--json")[1]


def test_python_dash_m_rules_exits_2_on_a_malformed_file(tmp_path: Path) -> None:
    path = write(tmp_path, battle_doc(attacker_quality="elite"))
    completed = subprocess.run(
        [sys.executable, "-m", "rules", "simulate", path, "--seed", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert "attacker.quality" in completed.stderr
