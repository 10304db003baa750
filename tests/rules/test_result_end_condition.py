"""A battle result must agree with the end condition (rulings section 4, "End"): a side
that lost a third of the stands it brought (losses x 3 >= present) has lost, unless both
did in the same phase, when the greater fraction lost loses and a tie goes to the
defender. Neither lost a third: either may have won (the turn limit, or a withdrawal)."""

from __future__ import annotations

import pytest

from rules.ending import result_problem

PRESENT = {"attacker": 9, "defender": 6}


@pytest.mark.parametrize(
    ("winner", "attacker_lost", "defender_lost", "fits"),
    [
        ("attacker", 9, 0, False),  # the attacker lost every stand it had
        ("attacker", 3, 0, False),  # exactly a third: 3 x 3 >= 9
        ("attacker", 2, 0, True),  # less than a third: the defender may have withdrawn
        ("defender", 2, 0, True),
        ("defender", 0, 2, False),  # 2 x 3 >= 6
        ("defender", 0, 1, True),
        ("attacker", 0, 2, True),
        # Both broke in one phase: 6/9 against 4/6 is a tie, the defender's.
        ("defender", 6, 4, True),
        ("attacker", 6, 4, False),
        # 3/9 against 6/6: the defender lost the greater fraction.
        ("attacker", 3, 6, True),
        ("defender", 3, 6, False),
        # 9/9 against 2/6: the attacker's.
        ("defender", 9, 2, True),
        ("attacker", 9, 2, False),
    ],
)
def test_a_result_fits_the_end_condition_or_says_why_not(
    winner: str, attacker_lost: int, defender_lost: int, fits: bool
) -> None:
    lost = {"attacker": attacker_lost, "defender": defender_lost}
    problem = result_problem(winner, lost, PRESENT)
    assert (problem is None) == fits, problem
    if not fits:
        assert problem.startswith(f"the {winner} cannot have won")
        other = "defender" if winner == "attacker" else "attacker"
        assert problem.endswith(f"the winner is the {other}")


def test_the_reason_names_the_stands_lost() -> None:
    assert result_problem("attacker", {"attacker": 9, "defender": 0}, PRESENT) == (
        "the attacker cannot have won: it lost 9 of the 9 stands it brought, a third or "
        "more, and the defender lost 0 of the 6 stands it brought, less than a third. A "
        "side that loses a third of its stands loses the battle at once: the winner is the "
        "defender"
    )
    assert result_problem("attacker", {"attacker": 6, "defender": 4}, PRESENT) == (
        "the attacker cannot have won: both sides lost a third or more (the attacker 6 of "
        "the 9 stands it brought, the defender 4 of the 6 stands it brought), the same "
        "fraction, and a tie goes to the defender: the winner is the defender"
    )
