"""The exact chances the AI reasons with, checked against icepool's dice algebra."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from rules.probability import (
    ARMOUR_HIT,
    HIT,
    SIX,
    at_least,
    opposed_d6_win,
    two_d6_at_least,
)

D6 = icepool.d6


def test_the_named_chances_are_the_rules_targets() -> None:
    assert HIT == D6.probability(">=", 5) == Fraction(1, 3)  # a hit on 5-6
    assert SIX == D6.probability("==", 6) == Fraction(1, 6)  # a sniper's 6
    assert ARMOUR_HIT == D6.probability(">=", 4) == Fraction(1, 2)  # one die at 4+


@pytest.mark.parametrize("dice", range(9))
def test_at_least_k_hits_of_n_dice_matches_icepool(dice: int) -> None:
    hits = dice @ (D6 >= 5)
    for successes in range(dice + 1):
        expected = hits.probability(">=", successes)
        assert at_least(successes, dice, HIT) == expected, (successes, dice)


@pytest.mark.parametrize("dice", range(6))
def test_at_least_k_sixes_of_n_dice_matches_icepool(dice: int) -> None:
    sixes = dice @ (D6 == 6)
    for successes in range(dice + 1):
        assert at_least(successes, dice, SIX) == sixes.probability(">=", successes)


def test_more_successes_than_dice_is_impossible_and_none_is_certain() -> None:
    assert at_least(4, 3, HIT) == 0
    assert at_least(0, 0, HIT) == 1
    assert at_least(-1, 2, HIT) == 1


@pytest.mark.parametrize("difference", range(-8, 9))
def test_opposed_d6_win_matches_icepool_with_ties_rolled_again(difference: int) -> None:
    margin = D6 + difference - D6
    win, tie = margin.probability(">", 0), margin.probability("==", 0)
    expected = win / (1 - tie)
    assert opposed_d6_win(difference) == expected
    assert isinstance(opposed_d6_win(difference), Fraction)


def test_opposed_d6_win_is_fair_at_even_modifiers_and_certain_beyond_five() -> None:
    assert opposed_d6_win(0) == Fraction(1, 2)
    assert opposed_d6_win(6) == 1
    assert opposed_d6_win(-6) == 0
    for difference in range(-8, 9):
        assert opposed_d6_win(difference) + opposed_d6_win(-difference) == 1


@pytest.mark.parametrize("target", range(0, 15))
def test_two_d6_at_least_matches_icepool(target: int) -> None:
    assert two_d6_at_least(target) == (2 @ D6).probability(">=", target)


def test_armour_kill_chance_is_hit_then_penetration() -> None:
    # AT gun (attack 3) on a light tank (defence 8): 4+ to hit, then 2d6 >= 5.
    shot = (D6 >= 4) & (2 @ D6 + 3 >= 8)
    assert ARMOUR_HIT * two_d6_at_least(8 - 3) == Fraction(5, 12)
    assert shot.probability("==", True) == Fraction(5, 12)
