"""Non-interference as a property: random pairs of twins, each crawled as its viewer.

Hypothesis draws the viewer, the seed, the turns played, the viewer's own orders, and
for each twin its hidden enemy facts: where the enemy companies out of sight start,
their stands, quality and standing orders, their orders turn by turn (among the areas
out of sight), the seed of battles not yet fought and of the turns not yet played. A
drawn pair whose hidden facts became known by the rules (a company walked into sight,
another side moved first) is not a pair of twins and is counted, not compared. Each
pair's crawl takes one request of every route and 40 more at random (the full crawl
is ``test_leaks.py``'s); the examples are the same on every run (``derandomize``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fog.noninterference import compare
from tests.fog.twins import Hidden, Pair

pytestmark = pytest.mark.django_db

# At the start of the Korona scenario: the areas out of each side's sight, the enemy
# companies there, and every company of each side.
OUT_OF_SIGHT = {
    "australian": ("Kilu", "Munara", "Kerna", "Erida"),
    "japanese": ("Port Murray", "Uberi Ridge", "Ioro", "Isura", "Erida", "Kerna"),
}
HIDDEN = {
    "australian": ("3rd Company", "Supply Company"),
    "japanese": ("C Company (militia)", "1st Supply Company"),
}
FIGHTING = {
    "australian": ("A Company", "B Company", "C Company (militia)"),
    "japanese": ("1st Company", "2nd Company", "3rd Company"),
}
AREAS = ("Port Murray", "Uberi Ridge", "Ioro", "Isura", "Korona", "Oivi", "Kilu", "Erida")
AREAS += ("Kerna", "Munara")
KINDS = ("advance", "withdraw", "hold")
EXAMPLES = 10


def _orders(companies: tuple[str, ...], areas: tuple[str, ...]) -> st.SearchStrategy[Any]:
    order = st.tuples(st.sampled_from(companies), st.sampled_from(KINDS), st.sampled_from(areas))
    turn = st.lists(order, max_size=2).map(
        lambda given: tuple((c, k, None if k == "hold" else a) for c, k, a in given)
    )
    return st.lists(turn, max_size=4).map(tuple)


@st.composite
def pairs(draw: st.DrawFn) -> Pair:
    viewer = draw(st.sampled_from(("australian", "japanese")))
    enemy = "japanese" if viewer == "australian" else "australian"
    hidden, away = HIDDEN[viewer], OUT_OF_SIGHT[viewer]

    def twin() -> Hidden:
        return Hidden(
            starts=draw(st.dictionaries(st.sampled_from(hidden), st.sampled_from(away))),
            rifles=draw(st.dictionaries(st.sampled_from(hidden[:1]), st.integers(5, 9))),
            quality=draw(
                st.dictionaries(
                    st.sampled_from(FIGHTING[enemy]),
                    st.sampled_from(("raw", "trained", "veteran")),
                )
            ),
            standing=draw(
                st.dictionaries(st.sampled_from(hidden), st.sampled_from(("hold", "aggressive")))
            ),
            orders=draw(_orders(hidden, away)),
            battle_seed=draw(st.sampled_from((0, 0, 1, 2**40))),
            campaign_seed=draw(st.none() | st.integers(0, 2**48)),
        )

    return Pair(
        viewer=viewer,
        seed=draw(st.integers(0, 2**48)),
        turns=draw(st.integers(1, 3)),
        settings=draw(st.sampled_from(({}, {"battle_mode": "tabletop"}))),
        orders=draw(_orders(FIGHTING[viewer], AREAS)),
        twins=(twin(), twin()),
    )


def test_random_twins_look_the_same() -> None:
    counted: Counter[str] = Counter()
    reasons: list[str] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(pairs(), st.integers(0, 2**32))
    def check(pair: Pair, crawl_seed: int) -> None:
        comparison = compare(pair, sample=40, rng=random.Random(crawl_seed))
        counted[comparison.why_not.split(" (")[0] or "twins"] += 1
        if comparison.why_not:
            reasons.append(comparison.why_not)
        counted["requests"] += comparison.requests
        if comparison.twins:
            assert not comparison.differences, comparison.report()

    check()
    # Most draws are twins; were few, the property would say little.
    assert counted["twins"] >= EXAMPLES // 2, (counted, reasons)
