"""Exact chances of the dice mechanics, for the AI's decisions and the tests' checks."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb


@cache
def at_least(successes: int, dice: int, chance: Fraction) -> Fraction:
    """P(at least ``successes`` of ``dice`` independent dice succeed), each with ``chance``."""
    if successes <= 0:
        return Fraction(1)
    return sum(
        (
            comb(dice, k) * chance**k * (1 - chance) ** (dice - k)
            for k in range(successes, dice + 1)
        ),
        Fraction(0),
    )


@cache
def opposed_d6_win(modifier_difference: int) -> Fraction:
    """P(d6 + a beats d6 + b, ties rolled again) where ``modifier_difference`` is a - b."""
    wins = ties = 0
    for mine in range(1, 7):
        for theirs in range(1, 7):
            diff = mine + modifier_difference - theirs
            wins += diff > 0
            ties += diff == 0
    if ties == 36:
        return Fraction(1, 2)
    return Fraction(wins, 36 - ties)


@cache
def two_d6_at_least(target: int) -> Fraction:
    """P(2d6 >= target)."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= target), 36)


HIT = Fraction(1, 3)  # a hit on 5-6
SIX = Fraction(1, 6)
ARMOUR_HIT = Fraction(1, 2)  # one die at 4+
