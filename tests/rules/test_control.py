"""Area of Control (Old Breed 16.1): where a side may place units."""

from __future__ import annotations

from rules.korona.control import edge_distance, in_area_of_control
from tests.rules.conftest import make_state, place, stand


def test_each_side_measures_from_its_own_edge() -> None:
    state = make_state()
    assert edge_distance(state, state.defender, 10) == 10
    assert edge_distance(state, state.attacker, 10) == state.field.depth_in - 10


def test_a_place_behind_two_friendly_units_is_in_control() -> None:
    state = make_state(defender={"rifle_squad": 3})
    for n, y in ((1, 12), (2, 14), (3, 4)):
        place(stand(state, f"d.rifle_squad.{n}"), 10 + n, y)
    assert in_area_of_control(state, state.defender, 5, 10)  # behind the squads at 12 and 14
    assert not in_area_of_control(state, state.defender, 5, 13)  # behind only one
    assert not in_area_of_control(state, state.defender, 5, 12)  # level is not closer


def test_the_sole_remaining_unit_is_enough() -> None:
    state = make_state(defender={"rifle_squad": 2})
    place(stand(state, "d.rifle_squad.1"), 10, 12)
    stand(state, "d.rifle_squad.2").alive = False
    assert in_area_of_control(state, state.defender, 5, 8)
    assert not in_area_of_control(state, state.defender, 5, 14)


def test_two_enemies_nearer_the_edge_take_a_place_out_of_control() -> None:
    state = make_state(defender={"rifle_squad": 2}, attacker={"rifle_squad": 2})
    place(stand(state, "d.rifle_squad.1"), 10, 20)
    place(stand(state, "d.rifle_squad.2"), 14, 20)
    place(stand(state, "a.rifle_squad.1"), 30, 6)
    place(stand(state, "a.rifle_squad.2"), 30, 30)
    assert in_area_of_control(state, state.defender, 5, 10)  # one enemy nearer the edge
    place(stand(state, "a.rifle_squad.2"), 32, 8)
    assert not in_area_of_control(state, state.defender, 5, 10)  # two enemies nearer


def test_a_side_with_no_units_controls_nothing() -> None:
    state = make_state(defender={"rifle_squad": 1})
    stand(state, "d.rifle_squad.1").alive = False
    assert not in_area_of_control(state, state.defender, 5, 1)
