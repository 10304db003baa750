"""Snipers in the campaign (rulings section 4): the defending side chooses, per company,
whether to swap one rifle squad for a sniper; an order option a player sets in advance,
and the AI's choice for a side with no player, which swaps when its deployment third of
the table has woods."""

from __future__ import annotations

import pytest

from rules.battlefield import SQUARE_IN
from rules.campaign.state import Order
from rules.campaign.turn import deployment_has_woods, play_turn, start_turn
from rules.korona.engine import resolve
from rules.rulesets import RULESETS
from rules.spec import parse_battle
from tests.campaign.builders import (
    counting_tables,
    korona_state,
    move,
    scripted_turn,
    supply_dice,
    turn_dice,
)


def attack(seed: int = 1, *, players: tuple[str, ...] = (), **defender_orders: Order):
    """The 1st Company attacks A Company alone in Korona (B Company has gone to Ioro)."""
    state = move(korona_state(seed), B_Company="Ioro")
    orders = {"1st Company": Order("1st Company", "advance", "Korona"), **defender_orders}
    roller = turn_dice(supply_dice(state), initiative=(1, 6))
    plan = start_turn(state, orders, roller=roller, players=players)  # type: ignore[arg-type]
    assert roller.unused == []
    (battle,) = plan.battles
    return battle


def hold(sniper: bool | None) -> dict[str, Order]:
    return {"A_Company": Order("A Company", "hold", sniper=sniper)}


def seeds_by_woods(wanted: bool, count: int = 2) -> list[int]:
    """Campaign seeds whose Korona battle's defender third has (or has not) woods."""
    found = []
    for seed in range(1, 400):
        battle = attack(seed, players=("australian",))  # no sniper: only the table is read
        if deployment_has_woods(battle.spec, battle.seed) is wanted:
            found.append(seed)
            if len(found) == count:
                return found
    raise AssertionError("no such seed")


@pytest.mark.parametrize("woods", [True, False])
def test_a_player_who_orders_a_sniper_gets_one_with_or_without_woods(woods: bool) -> None:
    for seed in seeds_by_woods(woods):
        battle = attack(seed, players=("australian",), **{"A Company": hold(True)["A_Company"]})
        assert battle.spec["defender"]["sniper"] is True
        assert parse_battle(battle.spec).defender.sniper is True


@pytest.mark.parametrize("woods", [True, False])
def test_a_player_who_orders_no_sniper_gets_none(woods: bool) -> None:
    for seed in seeds_by_woods(woods):
        battle = attack(seed, players=("australian",), **{"A Company": hold(False)["A_Company"]})
        assert battle.spec["defender"]["sniper"] is False


def test_a_company_of_a_played_side_with_no_order_makes_no_sniper_choice() -> None:
    for seed in seeds_by_woods(True):
        assert attack(seed, players=("australian",)).spec["defender"]["sniper"] is False


@pytest.mark.parametrize("woods", [True, False])
def test_a_side_with_no_player_swaps_when_its_deployment_third_has_woods(woods: bool) -> None:
    for seed in seeds_by_woods(woods):
        battle = attack(seed)  # nobody plays the Australians
        assert battle.spec["defender"]["sniper"] is woods


def test_an_order_that_leaves_the_choice_open_takes_the_ais() -> None:
    for woods in (True, False):
        for seed in seeds_by_woods(woods):
            battle = attack(seed, **{"A Company": hold(None)["A_Company"]})
            assert battle.spec["defender"]["sniper"] is woods


def test_deployment_has_woods_reads_the_table_the_engine_fights_on() -> None:
    for woods in (True, False):
        for seed in seeds_by_woods(woods, count=3):
            battle = attack(seed, players=("australian",))
            result = resolve(parse_battle(battle.spec), battle.seed)
            third = max(3 * SQUARE_IN // 3, 2)
            wooded = [
                r
                for r in result["log"]
                if r.get("phase") == "terrain"
                and r["square"][1] * SQUARE_IN < third
                and r["vegetation"] != "none"
            ]
            assert bool(wooded) is woods


def test_the_choice_rolls_none_of_the_turns_dice() -> None:
    # scripted_turn checks every scripted die is thrown and no more: the same dice play
    # the turn whichever choice is made.
    state = move(korona_state(), B_Company="Ioro")
    orders = {"1st Company": Order("1st Company", "advance", "Korona")}
    for sniper in (True, False, None):
        given = {**orders, "A Company": Order("A Company", "hold", sniper=sniper)}
        plan = scripted_turn(state, supply_dice(state), given, initiative=(1, 6))
        assert len(plan.battles) == 1


def test_only_the_defender_gets_the_choice() -> None:
    battle = attack(1, **{"1st Company": Order("1st Company", "advance", "Korona", sniper=True)})
    assert "sniper" not in battle.spec["attacker"]


def test_one_sniper_for_a_defending_force_of_two_companies() -> None:
    state = korona_state()
    orders = {
        "1st Company": Order("1st Company", "advance", "Korona"),
        "A Company": Order("A Company", "hold", sniper=True),
        "B Company": Order("B Company", "hold", sniper=True),
    }
    plan = scripted_turn(state, supply_dice(state), orders, initiative=(1, 6))
    (battle,) = plan.battles
    assert battle.spec["defender"]["sniper"] is True  # one rifle squad of the force
    assert battle.spec["defender"]["stands"]["rifle_squad"] == 18


def test_the_ais_choice_keeps_the_table_it_read_for_the_battle() -> None:
    for woods in (True, False):
        for seed in seeds_by_woods(woods):
            battle = attack(seed)  # nobody plays the Australians: the AI chooses
            spec = parse_battle(battle.spec)
            assert battle.parsed == spec  # the sniper chosen is in the spec as read
            assert battle.parsed.defender.sniper is woods
            assert battle.table == RULESETS["korona"].roll_table(spec, battle.seed)


def test_a_players_choice_reads_no_table() -> None:
    for sniper in (True, False):
        order = hold(sniper)["A_Company"]
        battle = attack(1, players=("australian",), **{"A Company": order})
        assert battle.table is None


def test_a_turn_rolls_the_table_of_a_battle_the_ai_chooses_for_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rolled = counting_tables(monkeypatch)
    state = move(korona_state(1), B_Company="Ioro")
    orders = {"1st Company": Order("1st Company", "advance", "Korona")}
    fought = [b for seed in range(1, 6) for b in play_turn(state.copy(), orders, seed=seed).battles]
    assert fought and all(b.table is not None for b in fought)
    assert [rolled[b.seed] for b in fought] == [1] * len(fought)
