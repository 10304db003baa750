"""A tabletop result corrected (``correct_battle_result``) under the fog of war: each
side's pages, partials, feeds and API answers after the correction are byte for byte
those of the same campaign in which the right result was entered first, with the same
line of the GM's in its log. Nothing of the wrong result, or of the turn as first played,
is left for a side to read."""

from __future__ import annotations

import pytest

from battles.models import Battle
from battles.services.correction import CORRECTION, correct_battle_result, correction_line
from battles.services.results import checked_result, enter_battle_result
from campaign.services.adjustments import record
from campaign.services.turns import advance_turn
from tests.fog import twins
from tests.fog.noninterference import compare
from tests.fog.twins import Hidden, Pair

pytestmark = pytest.mark.django_db

# Two battles in Korona on turn 1 (tests/fog/test_battle_list.py).
MEETING = {"1st Company": "Korona", "2nd Company": "Korona"}
FIRST = {
    "winner": "defender",
    "losses": {"attacker": {"rifle_squad": 3}, "defender": {"rifle_squad": 1}},
}
WRONG = {"winner": "attacker", "losses": {"attacker": {}, "defender": {"rifle_squad": 3}}}
RIGHT = {"winner": "defender", "losses": {"attacker": {"rifle_squad": 3}, "defender": {}}}
REASON = "the winner was typed wrong"


def played(pair: Pair, index: int) -> twins.Built:
    """Turn 1 with its two tabletop battles entered: in twin 0 the second typed wrong,
    then corrected; in twin 1 entered right, and the same line of the GM's recorded."""
    built = twins.build(pair, index)
    campaign = built.campaign
    advance_turn(campaign_id=campaign.pk)
    battles = {b.key: b for b in Battle.objects.filter(campaign=campaign)}
    second = battles["1:Korona:2"]
    enter_battle_result(battle_id=battles["1:Korona:1"].pk, **FIRST)
    if index == 0:
        enter_battle_result(battle_id=second.pk, **WRONG)
        correct_battle_result(battle_id=second.pk, **RIGHT, reason=REASON)
    else:
        enter_battle_result(battle_id=second.pk, **RIGHT)
        campaign.refresh_from_db()
        before = checked_result(second, **WRONG)
        after = checked_result(second, **RIGHT)
        record(
            campaign=campaign,
            what=correction_line(campaign, second, 1, before, after),
            reason=REASON,
            user=None,
            details={
                "kind": CORRECTION,
                "battle": second.pk,
                "turn": 1,
                "before": before,
                "after": after,
            },
        )
    campaign.refresh_from_db()
    return built


@pytest.mark.parametrize("viewer", ["australian", "japanese"])
def test_a_sides_pages_after_a_correction_are_those_of_the_result_entered_first(
    viewer: str,
) -> None:
    pair = Pair(
        viewer=viewer,
        turns=0,
        settings={"battle_mode": "tabletop"},
        starts=MEETING,
        twins=(Hidden(), Hidden()),
    )
    comparison = compare(pair, build=played, alike=True, keep=True)
    assert comparison.twins, comparison.why_not
    assert not comparison.differences, comparison.report()
    turns = comparison.seen[0][f"GET /campaigns/{comparison.campaign}/turns/"]
    assert REASON.encode() in turns  # the log of turns, with the GM's line
