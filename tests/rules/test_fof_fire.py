"""Force on Force fire resolution (rules.forceonforce.fire) against exact distributions.

The expected distributions are computed with icepool by an evaluator written here, from
the rule's own words (an ascending sweep: each defence 4+ cancels one waiting attack 4+
that it equals or exceeds); the engine's matching is a different (descending) sweep.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import Roller
from rules.forceonforce import fire as f
from rules.forceonforce import tables as t
from tests.rules.conftest import ScriptedRoller

QUALITIES = (6, 8, 10)


class _UnmatchedFromTheRule(icepool.MultisetEvaluator):
    """Attack 4+ dice that no defence 4+ die equals or exceeds, defender matching best."""

    def next_state(self, state: Any, order: Any, outcome: int, attack: int, dfn: int) -> Any:
        if order != icepool.Order.Ascending:
            raise icepool.UnsupportedOrder()
        waiting = state or 0
        if outcome >= 4:
            waiting += attack
            waiting -= min(waiting, dfn)
        return waiting

    def final_outcome(self, final_state: Any, *_: Any) -> int:
        return final_state or 0


class _UnmatchedByTheEngine(icepool.MultisetEvaluator):
    """The engine's own sweep step, evaluated exactly over every roll."""

    def next_state(self, state: Any, order: Any, outcome: int, attack: int, dfn: int) -> Any:
        if order != icepool.Order.Descending:
            raise icepool.UnsupportedOrder()
        hits, spare = state or (0, 0)
        if outcome < t.SUCCESS:
            return hits, spare
        return f.sweep_step(hits, spare, attack, dfn)

    def final_outcome(self, final_state: Any, *_: Any) -> int:
        return (final_state or (0, 0))[0]


RULE = _UnmatchedFromTheRule()
ENGINE = _UnmatchedByTheEngine()


def _exact(evaluator: icepool.MultisetEvaluator, n: int, a: int, m: int, d: int) -> dict:
    # Both pools over the same outcomes, so each step sees the counts of both.
    die_a = icepool.Die(range(1, a + 1))
    die_d = icepool.Die(range(1, d + 1))
    result = evaluator.evaluate(die_a.pool(n), die_d.pool(m))
    total = result.denominator()
    return {k: Fraction(v, total) for k, v in result.items()}


@pytest.mark.parametrize("attack_die", QUALITIES)
@pytest.mark.parametrize("defence_die", QUALITIES)
def test_the_engine_matching_has_the_exact_hit_distribution(
    attack_die: int, defence_die: int
) -> None:
    # The whole grid: 1-10 attack dice against 1-6 defence dice.
    for n in range(1, 11):
        for m in range(1, 7):
            expected = _exact(RULE, n, attack_die, m, defence_die)
            assert _exact(ENGINE, n, attack_die, m, defence_die) == expected, (n, m)
            assert sum(expected.values()) == 1


def test_one_d6_against_one_d6_hits_a_third_of_the_time() -> None:
    # Closed form: the attack shows 4, 5 or 6 (1/6 each); the defence fails to equal it
    # with probability 3/6, 4/6, 5/6: (3 + 4 + 5) / 36 = 1/3.
    assert _exact(RULE, 1, 6, 1, 6)[1] == Fraction(1, 3)


def test_a_d6_defence_cannot_match_a_d10_seven() -> None:
    assert f.unmatched([7, 9], [6, 6, 6]) == 2
    assert f.unmatched([7, 5], [6, 8]) == 0
    assert f.unmatched([4, 4, 4], [3, 10]) == 2  # a 3 is no success: it matches nothing


def test_the_defender_arranges_his_dice_best() -> None:
    # A naive pairing of 9 with 5 wastes the 9; the rule lets the defender pair 9-8, 5-4.
    assert f.unmatched([5, 8], [9, 5]) == 0


def _brute_force(attack: list[int], dfn: list[int]) -> int:
    hits_needed = [a for a in attack if a >= 4]
    good = [d for d in dfn if d >= 4]
    best = len(hits_needed)
    for perm in itertools.permutations(good, min(len(good), len(hits_needed))):
        for chosen in itertools.combinations(range(len(hits_needed)), len(perm)):
            matched = sum(1 for i, d in zip(chosen, perm, strict=True) if d >= hits_needed[i])
            best = min(best, len(hits_needed) - matched)
    return best


@given(
    st.lists(st.integers(1, 10), max_size=5),
    st.lists(st.integers(1, 10), max_size=4),
)
def test_matching_is_the_best_arrangement_for_the_defender(
    attack: list[int], dfn: list[int]
) -> None:
    assert f.unmatched(attack, dfn) == _brute_force(attack, dfn)


@pytest.mark.parametrize(("n", "a", "m", "d"), [(2, 6, 2, 6), (3, 8, 2, 8), (2, 10, 3, 6)])
def test_every_roll_enumerated_gives_the_icepool_distribution(
    n: int, a: int, m: int, d: int
) -> None:
    counts: dict[int, int] = {}
    for attack in itertools.product(range(1, a + 1), repeat=n):
        for dfn in itertools.product(range(1, d + 1), repeat=m):
            hits = f.unmatched(attack, dfn)
            counts[hits] = counts.get(hits, 0) + 1
    total = a**n * d**m
    assert {k: Fraction(v, total) for k, v in counts.items()} == _exact(RULE, n, a, m, d)


@pytest.mark.parametrize(("n", "a", "m", "d"), [(5, 8, 3, 8), (10, 10, 4, 6), (4, 6, 6, 10)])
def test_seeded_exchanges_follow_the_exact_distribution(n: int, a: int, m: int, d: int) -> None:
    # The full exchange (roller, both pools, matching) sampled 4,000 times: every
    # probability within 4.5 standard errors of the exact value.
    runs = 4000
    roller = Roller(12345 + n * 100 + m)
    seen: dict[int, int] = {}
    for _ in range(runs):
        hits = f.exchange(roller, n, a, m, d).hits
        seen[hits] = seen.get(hits, 0) + 1
    assert roller.dice_rolled == runs * (n + m)
    for hits, p in _exact(RULE, n, a, m, d).items():
        se = (float(p) * (1 - float(p)) / runs) ** 0.5
        assert abs(seen.get(hits, 0) / runs - float(p)) <= 4.5 * se + 1e-9, hits


# --- Troop Quality dice and shifts -------------------------------------------------------


def test_die_shifts_climb_the_ladder_and_stop_at_d12() -> None:
    assert f.shift_die(8, 1) == 10
    assert f.shift_die(10, 2) == 12
    assert f.shift_die(12, 1) == 12
    assert f.shift_die(8, -1) == 6


def test_a_shift_below_d6_leaves_no_die() -> None:
    assert f.shift_die(6, -1) is None
    assert f.shift_die(8, -2) is None


def test_a_tq_check_passes_on_four_and_a_natural_one_draws_fog_of_war() -> None:
    assert f.tq_check(ScriptedRoller([4]), 8).passed
    assert not f.tq_check(ScriptedRoller([3]), 8).passed
    one = f.tq_check(ScriptedRoller([1]), 8, modifier=5)
    assert one.fog_of_war and one.passed  # the modifier passes it; the 1 still draws


def test_the_reaction_test_goes_to_the_initiative_unit_on_any_tie() -> None:
    both_fail = f.opposed_test(ScriptedRoller([2, 3]), 8, 8, ties_to_a=True)
    assert both_fail.first_wins
    tie = f.opposed_test(ScriptedRoller([5, 5]), 8, 8, ties_to_a=True)
    assert tie.first_wins
    beaten = f.opposed_test(ScriptedRoller([5, 6]), 8, 8, ties_to_a=True)
    assert not beaten.first_wins
    failed_high = f.opposed_test(ScriptedRoller([3, 2]), 8, 8, ties_to_a=True)
    assert failed_high.first_wins


def test_a_spotter_must_pass_and_roll_higher() -> None:
    assert not f.opposed_test(ScriptedRoller([5, 5]), 8, 8, ties_to_a=False).first_wins
    assert not f.opposed_test(ScriptedRoller([3, 1]), 8, 8, ties_to_a=False).first_wins
    assert f.opposed_test(ScriptedRoller([6, 5]), 8, 8, ties_to_a=False).first_wins


def test_a_reaction_test_win_has_the_exact_chance() -> None:
    # A d10 non-initiative unit beats a d8 initiative unit iff it shows 4+ and more.
    beats = icepool.map(lambda a, b: int(b >= 4 and b > a), icepool.d8, icepool.d10)
    p = Fraction(beats.quantity(1), beats.denominator())
    wins = sum(
        not f.opposed_test(ScriptedRoller([a, b]), 8, 10, ties_to_a=True).first_wins
        for a in range(1, 9)
        for b in range(1, 11)
    )
    assert Fraction(wins, 80) == p == Fraction(41, 80)


# --- firepower --------------------------------------------------------------------------


def test_a_rifle_squad_at_optimum_range_throws_five_dice() -> None:
    # 4 figures + light support 1 + optimum range 1 - bolt rifles 1.
    fp = f.firepower(f.Shot(figures=4, support="light", small_arms="bolt"))
    assert fp.dice == 5


def test_support_weapon_dice_fall_with_movement() -> None:
    assert [f.support_dice("medium", m) for m in ("none", "tactical", "rapid")] == [2, 1, 0]
    assert [f.support_dice("heavy", m) for m in ("none", "tactical", "rapid")] == [3, 1, None]
    assert f.firepower(f.Shot(figures=4, support="heavy", movement="rapid")).dice == 0


def test_penalties_come_off_the_ten_die_cap() -> None:
    shot = f.Shot(figures=10, support="heavy", target_exposed=True, earlier_actions=2)
    assert f.firepower(shot).dice == 8  # 10 + 3 + 1 + 1 capped at 10, then -2


def test_diminishing_firepower_can_reach_zero() -> None:
    assert f.firepower(f.Shot(figures=2, band="beyond", earlier_actions=3)).dice == 0


def test_suppression_fire_costs_two_dice_except_for_medium_and_heavy_weapons() -> None:
    rifles = f.firepower(f.Shot(figures=4, suppression=True))
    assert rifles.dice == 3 and rifles.suppressing
    gun = f.firepower(f.Shot(figures=4, support="heavy"))
    assert gun.suppressing and gun.dice == 8


def test_supply_and_rapid_movement_change_the_dice() -> None:
    base = f.firepower(f.Shot(figures=4)).dice
    assert f.firepower(f.Shot(figures=4, supply="abundant")).dice == base + 1
    assert f.firepower(f.Shot(figures=4, supply="poor")).dice == base - 1
    assert f.firepower(f.Shot(figures=4, movement="rapid")).dice == base - 1
    assert f.firepower(f.Shot(figures=4, target_moving_rapidly=True)).dice == base + 1


def test_night_halves_firepower_beyond_the_reduced_optimum_range() -> None:
    assert f.firepower(f.Shot(figures=4, band="beyond", night_beyond=True)).dice == 2
    assert f.optimum_range(8, night=True) == 4
    assert f.optimum_range(8, doubled=True) == 16


def test_split_fire_is_limited_by_troop_quality() -> None:
    assert f.check_split(6, [2, 2], 0)
    assert not f.check_split(8, [2, 2], 0)
    assert f.check_split(10, [1, 1, 1, 1], 0)
    assert not f.check_split(12, [1, 1, 1, 1], 3)
    assert f.check_split(8, [2, 2], 2)  # the support dice must go to one of the targets


shots = st.builds(
    f.Shot,
    figures=st.integers(0, 12),
    support=st.sampled_from([None, "light", "medium", "heavy"]),
    support_jammed=st.booleans(),
    movement=st.sampled_from(["none", "tactical", "rapid"]),
    band=st.sampled_from(["close_assault", "optimum", "beyond"]),
    small_arms=st.sampled_from([None, "bolt", "smg", "assault"]),
    target_exposed=st.booleans(),
    target_moving_rapidly=st.booleans(),
    supply=st.sampled_from(["poor", "normal", "abundant"]),
    earlier_actions=st.integers(0, 5),
    suppression=st.booleans(),
    defending_close_assault=st.booleans(),
    outgunned=st.booleans(),
    suppressed_weapons=st.booleans(),
    out_of_smoke=st.booleans(),
    night_beyond=st.booleans(),
    extra=st.integers(-1, 1),
)


@given(shots)
def test_firepower_is_never_above_ten_dice_nor_below_zero(shot: f.Shot) -> None:
    fp = f.firepower(shot)
    assert 0 <= fp.dice <= t.FIREPOWER_CAP


# --- defence ----------------------------------------------------------------------------


def test_basic_defence_is_the_figures_or_the_firepower_whichever_is_less() -> None:
    assert f.defence(4, 7).dice == 4
    assert f.defence(4, 2).dice == 2
    assert f.defence(4, 2, cover=["in_cover", "solid"], armour="heavy").dice == 6
    assert f.defence(4, 9, cover=["fortified"]).dice == 7


@given(
    st.integers(0, 8),
    st.integers(0, 12),
    st.lists(st.sampled_from(sorted(t.COVER_DICE)), max_size=3),
    st.sampled_from(sorted(t.ARMOUR_DICE)),
)
def test_defence_dice_are_never_zero(
    figures: int, attack: int, cover: list[str], armour: str
) -> None:
    assert f.defence(figures, attack, cover=cover, armour=armour).dice >= 1


# --- results ----------------------------------------------------------------------------


def test_who_got_hit_in_a_four_figure_unit_rolls_a_d8() -> None:
    assert f.who_got_hit(ScriptedRoller([2]), 4) == ("leader", 2)
    assert f.who_got_hit(ScriptedRoller([3]), 4) == ("special_weapon", 3)
    assert f.who_got_hit(ScriptedRoller([8]), 4) == ("other", 8)
    assert f.who_got_hit(ScriptedRoller([]), 1) == ("other", None)


def test_a_morale_check_stands_only_if_successes_outnumber_failures() -> None:
    assert f.morale_check(ScriptedRoller([4, 5, 6, 1]), 8, 4).stands
    assert not f.morale_check(ScriptedRoller([4, 5, 1, 1]), 8, 4).stands  # equal: pinned
    assert f.morale_check(ScriptedRoller([]), 6, 4, shift=-1).die is None


@pytest.mark.parametrize("morale_die", [6, 8, 10])
@pytest.mark.parametrize("figures", [1, 2, 3, 4])
def test_the_chance_to_stand_is_exact(morale_die: int, figures: int) -> None:
    success = icepool.Die(range(1, morale_die + 1)).map(lambda x: int(x >= t.SUCCESS))
    stands = (figures @ success).map(lambda k: int(k > figures - k))
    expected = Fraction(stands.quantity(1), stands.denominator())
    stood = sum(
        f.morale_check(ScriptedRoller(faces), morale_die, figures).stands
        for faces in itertools.product(range(1, morale_die + 1), repeat=figures)
    )
    assert Fraction(stood, morale_die**figures) == expected


def test_first_aid_tables() -> None:
    assert [f.first_aid(i, advanced=False) for i in range(1, 7)] == [
        "dead",
        "serious",
        "serious",
        "light",
        "light",
        "ok",
    ]
    assert [f.first_aid(i, advanced=True) for i in range(1, 7)] == [
        "dead",
        "serious",
        "light",
        "light",
        "ok",
        "ok",
    ]


def test_suppression_depends_on_confidence() -> None:
    assert f.suppression_check_needed("high", 9) == (False, 0)
    assert f.suppression_check_needed("low", 1) == (True, -1)
    assert f.suppression_check_needed("confident", 2) == (False, 0)
    assert f.suppression_check_needed("confident", 3) == (True, 0)


def test_morale_check_points_for_being_fired_on() -> None:
    hmg = f.firepower(f.Shot(figures=4, support="heavy")).unmodified
    gpmg = f.firepower(f.Shot(figures=4, support="medium")).unmodified
    lmg = f.firepower(f.Shot(figures=4, support="light")).unmodified
    assert (hmg, gpmg, lmg) == (4, 3, 2)
    assert f.fire_morale_trigger("high", hmg) is not None
    assert f.fire_morale_trigger("confident", gpmg) is not None
    assert f.fire_morale_trigger("high", gpmg) is None
    assert f.fire_morale_trigger("confident", lmg) is None
    assert f.fire_morale_trigger("low", 0) is not None


def test_the_fog_of_war_table_has_a_card_for_every_face() -> None:
    assert [e.face for e in t.FOG_OF_WAR_TABLE] == [1, 2, 3, 4, 5, 6]
    assert f.fog_of_war_event(6).key == "none"


@given(shots, st.none() | st.integers(0, 12))
def test_firepower_dice_are_the_dice_of_firepower(shot: f.Shot, allotted: int | None) -> None:
    shot = shot._replace(allotted=allotted)
    assert f.firepower_dice(shot) == f.firepower(shot).dice
