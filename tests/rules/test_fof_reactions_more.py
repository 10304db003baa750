"""Force on Force reactions beyond reaction fire: reaction movement (3.13) and Opportunity
Fire (3.15), on hand-laid tables with scripted dice, and whole battles that replay from
their seed."""

from __future__ import annotations

from typing import Any

import pytest

from rules.forceonforce import ai, engine
from rules.forceonforce.state import BattleState, Unit
from rules.rulesets import resolve_battle
from rules.spec import parse_battle
from tests.rules.conftest import table
from tests.rules.test_fof_battle import battle
from tests.rules.test_fof_mechanics import at, make, used

# A high ridge in the right third of the middle row: behind it is out of sight.
RIDGE = (".- .- .-", ".- .- R-", ".- .- .-")


def ridge_state(faces: list[int], **options: Any) -> tuple[BattleState, Unit, Unit]:
    """Japanese veterans (d10) In Cover at (16, 18) with initiative, the Australians within
    their 10" optimum range (so they fire where they stand); an Australian trained squad
    (d8) in the open at (21, 10), 6" from the lee of the ridge."""
    state = make(faces, **options)
    state.field = table(*RIDGE)
    iu, niu = state.attacker.units[0], state.defender.units[0]
    at(iu, 16, 18).in_cover = True
    at(niu, 21, 10)
    state.initiative = state.attacker
    return state, iu, niu


def kinds(state: BattleState) -> list[tuple[str, str | None]]:
    return [(r["kind"], r.get("purpose") or r.get("action")) for r in state.log]


# --- reaction movement (3.13) -----------------------------------------------------------


def test_a_unit_in_the_open_under_heavy_fire_reacts_by_moving_out_of_sight() -> None:
    # The d10 squad's shot (2.0 expected hits) is heavy and more than the exposed d8 squad
    # can return (1.0): it reacts by moving, Tactically, 6" into the lee of the ridge.
    # Reaction test: IU 3, NIU 7: the NIU wins and moves before the IU fires; out of
    # sight, the IU's declared fire is lost.
    state, iu, niu = ridge_state([3, 7])
    assert ai.reaction_move(state, niu, iu) == ((27, 10), "tactical")
    engine.activate(state, iu)
    assert kinds(state) == [("reaction", "reaction move"), ("move", "reaction move")]
    assert niu.position == [27, 10] and not state.sees(iu, niu)
    assert niu.penalty_moves == 1  # 3.1: -1D for each move as part of a Reaction
    assert iu.fires == 0 and used(state) == 2
    assert ai.reaction_move(state, niu, iu) is None  # one Reaction move a turn


def test_a_reaction_move_that_loses_the_test_takes_the_fire_first_then_moves() -> None:
    # IU 7, NIU 3: the IU fires its declared shot first (6d10, all 1s, against 4d8),
    # then the squad completes its move.
    state, iu, niu = ridge_state([7, 3] + [1] * 10)
    engine.activate(state, iu)
    assert kinds(state) == [
        ("reaction", "reaction move"),
        ("fire", "activation"),
        ("move", "reaction move"),
    ]
    assert niu.position == [27, 10] and iu.fires == 1 and not niu.may_react
    assert used(state) == 12


def test_a_rapid_reaction_move_takes_the_rapid_movers_minus_one() -> None:
    # NIU 4 - 1 = 3 fails: the IU (3) wins the tie and fires first (6d10 against 4d8);
    # then the squad makes its Rapid move, 9".
    state, iu, niu = ridge_state([3, 4] + [1] * 10)
    engine.react(state, iu, niu, will_fire=True, move=((30, 10), "rapid"))
    assert state.log[0]["totals"] == [3, 3] and state.log[0]["winner"] == iu.id
    assert state.log[-1]["purpose"] == "reaction move (rapid)" and niu.movement == "rapid"


def test_a_unit_that_can_return_fire_from_cover_reacts_by_fire() -> None:
    state, iu, niu = ridge_state([])
    niu.in_cover = True  # not in the open: it stands and fights
    assert ai.reaction_move(state, niu, iu) is None
    assert ai.reacts(state, niu, iu, fired_on=True)


def test_a_unit_that_cannot_hurt_its_attacker_moves_even_from_cover() -> None:
    state, iu, niu = ridge_state([], dfn={"forward_observer": 1})
    niu = at(state.defender.units[0], 21, 10)
    niu.in_cover = True
    assert ai.reaction_move(state, niu, iu) == ((27, 10), "tactical")


# --- Opportunity Fire (3.15) -----------------------------------------------------------


def opportunity_state(faces: list[int]) -> tuple[BattleState, Unit, Unit, Unit]:
    """The ridge table; a second Japanese squad, not yet activated, at (14, 4) sees the
    Australian squad where it stands (9" away, within its optimum range: it would not
    advance) and in the lee of the ridge."""
    state, _, _ = ridge_state(faces, att={"rifle_squad": 2})
    iu, opp = state.attacker.units
    niu = at(state.defender.units[0], 21, 10)
    at(iu, 16, 18).in_cover = True
    at(opp, 14, 4).in_cover = True
    return state, iu, opp, niu


def test_opportunity_fire_spends_an_activation_to_fire_first_at_a_reaction_move() -> None:
    # Opportunity test: the unactivated squad 7, the mover 3: it fires first (6d10 all
    # 1s against 4d8); then the reaction move's own test (IU 3, NIU 7) and the move.
    state, iu, opp, niu = opportunity_state([7, 3] + [1] * 10 + [3, 7])
    move = ai.reaction_move(state, niu, iu)
    assert move == ((27, 10), "tactical") and ai.opportunity_fire(state, opp, niu, moving=True)
    assert not ai.opportunity_fire(state, opp, niu, moving=False)  # it would fire anyway
    engine.activate(state, iu)  # it fires at the squad, which reacts by that move
    assert kinds(state) == [
        ("reaction", engine.OPPORTUNITY_FIRE),
        ("fire", engine.OPPORTUNITY_FIRE),
        ("reaction", "reaction move"),
        ("move", "reaction move"),
    ]
    assert state.log[0]["initiative_unit"] == opp.id and opp.activated and opp.fires == 1
    assert used(state) == 14
    engine.activate(state, opp)  # the activation was spent
    assert len(state.log) == 4


def test_opportunity_fire_that_loses_its_test_fires_after_the_reaction_move() -> None:
    # Opportunity test 3 against 7: the mover goes first (its test: IU 3, NIU 7), and the
    # squad at (14, 4), still seeing it in the lee of the ridge, fires last.
    state, iu, opp, niu = opportunity_state([3, 7, 3, 7] + [1] * 10)
    assert ai.reaction_move(state, niu, iu) == ((27, 10), "tactical")
    engine.activate(state, iu)
    assert kinds(state) == [
        ("reaction", engine.OPPORTUNITY_FIRE),
        ("reaction", "reaction move"),
        ("move", "reaction move"),
        ("fire", engine.OPPORTUNITY_FIRE),
    ]
    assert state.log[-1]["firer"] == opp.id and opp.activated


# --- whole battles ----------------------------------------------------------------------


def _fight(seed: int) -> dict[str, Any]:
    return resolve_battle(parse_battle(battle()), seed)


def _seed_with(purpose: str) -> int:
    return next(
        seed for seed in range(60) if any(r.get("purpose") == purpose for r in _fight(seed)["log"])
    )


@pytest.mark.parametrize("purpose", ["reaction move", engine.OPPORTUNITY_FIRE])
def test_battles_with_the_new_reactions_replay_from_their_seed(purpose: str) -> None:
    seed = _seed_with(purpose)
    assert _fight(seed) == _fight(seed)
