"""A tabletop result corrected (``correct_battle_result``) under the fog of war: each
side's pages, partials, feeds and API answers after the correction are byte for byte
those of the same campaign in which the right result was entered first, with the same
line of the GM's in its log. Nothing of the wrong result, or of the turn as first played,
is left for a side to read."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from battles.services.correction import CORRECTION, correct_battle_result, correction_line
from battles.services.results import checked_result, enter_battle_result
from campaign.models import SPECTATOR, GmAdjustment, Membership
from campaign.services.adjustments import record
from campaign.services.turns import advance_turn
from tests.battles.test_correction import played as tabletop_played
from tests.fog import twins
from tests.fog.crawl import normalise
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


def test_a_correction_tells_a_spectator_neither_the_battles_place_nor_its_result(
    django_user_model: Any,
) -> None:
    """A spectator reads no battle while the campaign is played, so the GM's line of a
    correction must not give its place, winner or losses away: two campaigns that differ
    only in the result corrected read the same to them, while a side that fought it
    reads the difference (the walk of 7 December 2026 read "the battle at Korona in turn 2
    was corrected: the Japanese, attacking, win; lost: ..." as a spectator)."""
    campaign = tabletop_played("Watched", WRONG)
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "pw")
    player = django_user_model.objects.create_user("player", "p@example.com", "pw")
    Membership.objects.create(user=watcher, campaign=campaign, side=SPECTATOR)
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    second = Battle.objects.get(campaign=campaign, key="1:Korona:2")
    correct_battle_result(battle_id=second.pk, **RIGHT, reason=REASON)
    row = GmAdjustment.objects.get(campaign=campaign, details__kind=CORRECTION)

    def seen(user: Any) -> dict[str, bytes]:
        client = Client()
        client.force_login(user)
        urls = [
            reverse("turns", args=[campaign.pk]),
            reverse("turn", args=[campaign.pk, 1]),
            f"/api/campaigns/{campaign.pk}/adjustments/",
        ]
        return {url: normalise(client.get(url).content) for url in urls}

    corrected = {user: seen(user) for user in (watcher, player)}
    # The twin: the same line of the GM's, for another result (the Australians lost 2).
    other = checked_result(second, "defender", {"attacker": {}, "defender": {"rifle_squad": 2}})
    row.what = correction_line(campaign, second, 1, row.details["before"], other)
    row.details = {**row.details, "after": other}
    row.save(update_fields=["what", "details"])
    assert seen(watcher) == corrected[watcher]
    assert b"a battle of turn 1, fought on the table, was corrected" in b"".join(
        corrected[watcher].values()
    )
    assert seen(player) != corrected[player]  # the side that fought it reads the result
