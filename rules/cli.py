"""The command line: ``simulate`` one battle, the ``odds`` over many, or ``verify`` a
played campaign turn from its TURN.json."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from rules.campaign.verify import TurnFileError, verify_turn
from rules.narrate import describe_record
from rules.odds import battle_odds
from rules.records import BattleResult
from rules.rulesets import resolve_battle
from rules.spec import MAX_SEED, BattleSpecError, load_battle

MAX_RUNS = 100_000  # battles of one odds run (the reference battle: about 7 minutes)


def _dump(data: Any, out: TextIO) -> None:
    # Sorted keys and fixed separators: the same battle and seed give identical bytes.
    out.write(json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n")


def _progress_bar(stream: TextIO) -> Callable[[int, int], None]:
    width = 40

    def show(done: int, total: int) -> None:
        if done != total and done % max(total // 200, 1):
            return
        filled = width * done // total
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show


def _summary(result: BattleResult) -> str:
    forces = result["forces"]
    lines = [
        f"Battle at {result['area']} ({result['ruleset']} rules, seed {result['seed']})",
        f"  attacker: {forces['attacker']['name']} ({forces['attacker']['side']}, "
        f"{forces['attacker']['quality']})",
        f"  defender: {forces['defender']['name']} ({forces['defender']['side']}, "
        f"{forces['defender']['quality']})",
        "",
    ]
    lines += [describe_record(record) for record in result["log"]]
    winner = forces[result["winner"]]["name"]
    lines.append("")
    lines.append(
        f"{winner} ({result['winner']}) wins after {result['turns']} turns: "
        f"{result['reason'].replace('_', ' ')}."
    )
    for key in ("attacker", "defender"):
        lost = {t: n for t, n in result["losses"][key].items() if n}
        lost_text = ", ".join(f"{n} {t.replace('_', ' ')}" for t, n in lost.items()) or "none"
        present = sum(result["stands_present"][key].values())
        lines.append(f"  {forces[key]['name']} lost {sum(lost.values())} of {present}: {lost_text}")
    return "\n".join(lines)


def _verify(path: str, stdout: TextIO, stderr: TextIO) -> int:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        verdict = verify_turn(data)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as bad:
        problems = bad.problems if isinstance(bad, TurnFileError) else [str(bad)]
        stderr.write(f"error: {path} is not a TURN.json that can be checked:\n")
        for problem in problems:
            stderr.write(f"  - {problem}\n")
        return 2
    stdout.write("\n".join(verdict.lines()) + "\n")
    return 0 if verdict.verified else 1


def main(
    argv: list[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    simulate = commands.add_parser("simulate", help="fight one battle")
    simulate.add_argument("battle", help="a BATTLE.json file")
    simulate.add_argument("--seed", type=int, required=True)
    simulate.add_argument("--json", action="store_true", help="print the result as JSON")
    odds = commands.add_parser("odds", help="outcome probabilities over many battles")
    odds.add_argument("battle", help="a BATTLE.json file")
    odds.add_argument("--runs", type=int, default=1000)
    odds.add_argument("--seed", type=int, default=0)
    odds.add_argument("--json", action="store_true", help="print the odds as JSON")
    verify = commands.add_parser("verify", help="check every die of a played campaign turn")
    verify.add_argument("turn", help="a TURN.json file, as the API gives it")
    args = parser.parse_args(argv)
    if args.command == "verify":
        return _verify(args.turn, stdout, stderr)
    if not 0 <= args.seed <= MAX_SEED:
        stderr.write(f"error: --seed must be from 0 to {MAX_SEED}, not {args.seed}\n")
        return 2
    if args.command == "odds" and not 1 <= args.runs <= MAX_RUNS:
        stderr.write(f"error: --runs must be from 1 to {MAX_RUNS}, not {args.runs}\n")
        return 2

    try:
        spec = load_battle(args.battle)
    except BattleSpecError as exc:
        stderr.write(f"error: {args.battle} is not a battle that can be fought:\n")
        for problem in exc.problems:
            stderr.write(f"  - {problem}\n")
        return 2

    if args.command == "simulate":
        fought = resolve_battle(spec, args.seed)
        if args.json:
            _dump(fought, stdout)
        else:
            stdout.write(_summary(fought) + "\n")
        return 0

    progress = _progress_bar(stderr) if stderr.isatty() else None
    result = battle_odds(spec, runs=args.runs, seed=args.seed, progress=progress)
    if args.json:
        _dump(result, stdout)
    else:
        for key in ("attacker", "defender"):
            share = result[f"{key}_win"]
            stdout.write(
                f"{key} wins {share['p']:.1%} (95% interval {share['low']:.1%}"
                f"-{share['high']:.1%}), mean stands lost "
                f"{result['mean_losses'][key]}\n"
            )
        stdout.write(f"over {result['runs']} battles, mean length {result['mean_turns']} turns\n")
    return 0
