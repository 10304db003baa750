"""A rule set's BATTLE.json options checked against a table: one check for each option it
knows, each giving the problems with a value (none when it is good)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.ending import turn_limit_problem

# A check of one option: (its key, the value given) -> the problems, none when good.
Check = Callable[[str, Any], Sequence[str]]


def check(options: Mapping[str, Any], checks: Mapping[str, Check], ruleset: str) -> list[str]:
    """Problems with ``options`` (``ruleset`` already removed): each known key's own
    check, and every other key refused by name."""
    problems: list[str] = []
    for key, value in options.items():
        known = checks.get(key)
        if known is None:
            problems.append(f"{key!r} is not an option of the {ruleset} rule set")
        else:
            problems += known(key, value)
    return problems


def turn_limit(key: str, value: Any) -> list[str]:
    problem = turn_limit_problem(value)
    return [] if problem is None else [problem]


def boolean(key: str, value: Any) -> list[str]:
    return [] if isinstance(value, bool) else [f"{key} must be true or false, not {value!r}"]
