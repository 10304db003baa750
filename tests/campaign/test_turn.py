"""The turn as a whole: the reference scenario as built, determinism, the log, and whole
Korona campaigns played to their end with invariants checked after every turn."""

from __future__ import annotations

from typing import Any

import pytest

from rules.campaign import seeds
from rules.campaign.state import CampaignState
from rules.campaign.turn import (
    TurnOutcome,
    distances_from,
    finish_turn,
    play_turn,
    start_turn,
)
from rules.dice import Roller, derive_seed
from rules.rulesets import resolve_battle
from rules.spec import parse_battle
from tests.campaign.builders import KORONA_FIGHTING, korona_state, scripted_turn, supply_dice
from tests.rules.conftest import deadline

RECORD_FIELDS = {
    "phase",
    "kind",
    "side",
    "company",
    "dice",
    "modifiers",
    "target",
    "outcome",
    "text",
}


def aggressive(state: CampaignState) -> CampaignState:
    for company in state.companies.values():
        company.standing_order = "aggressive"
    return state


def dice_in(log: list[dict[str, Any]]) -> int:
    return sum(len(record["dice"]) for record in log)


# --- the reference scenario -----------------------------------------------------------


def test_the_reference_scenario_distances_to_the_bases() -> None:
    state = korona_state()

    assert distances_from(state, "Port Murray") == {
        "Port Murray": 0,
        "Uberi Ridge": 1,
        "Ioro": 2,
        "Erida": 2,
        "Isura": 3,
        "Kerna": 3,
        "Korona": 4,
        "Munara": 4,
        "Oivi": 5,
        "Kilu": 6,
    }
    assert distances_from(state, "Kilu")["Korona"] == 2
    assert distances_from(state, "Kilu")["Munara"] == 2


def test_the_reference_scenario_forces() -> None:
    state = korona_state()

    assert sorted(c.name for c in state.companies.values() if c.fighting) == sorted(KORONA_FIGHTING)
    assert all(c.strength == 12 for c in state.companies.values() if c.fighting)
    assert all(
        c.strength == 6 and c.quality is None for c in state.companies.values() if not c.fighting
    )
    assert {a.name for a in state.areas.values() if a.controller == "japanese"} == {"Oivi", "Kilu"}
    assert (state.air[0].buffalos, state.air[0].bombers) == (3, 0)


# --- determinism and the log ----------------------------------------------------------


def test_play_turn_twice_from_the_same_state_gives_equal_outcomes() -> None:
    state = aggressive(korona_state(seed=7))

    first, second = play_turn(state), play_turn(state)

    assert first.battles  # A and B Company advance on Oivi: a battle is fought
    assert first == second


def test_play_turn_leaves_the_state_it_was_given_untouched() -> None:
    state = aggressive(korona_state(seed=7))
    before = state.copy()

    play_turn(state)

    assert state == before


def replayed_dice(turn_seed: int, log: list[dict[str, Any]]) -> list[int]:
    """Each die of ``log`` as its named stream of ``turn_seed`` gives it, in order."""
    streams: dict[str, Roller] = {}
    faces = []
    for record in log:
        assert len(record["dice_streams"]) == len(record["dice"]), record
        for name in record["dice_streams"]:
            branch, label = seeds.split_stream(name)
            if name not in streams:
                branch_seed = seeds.branch_seed(turn_seed, branch)
                streams[name] = Roller(seeds.stream_seed(branch_seed, label))
            faces.append(streams[name].d6())
    return faces


def test_a_turn_draws_its_dice_from_the_campaign_seed_and_the_turn_number() -> None:
    state = korona_state(seed=11)
    state.turn = 4

    plan = start_turn(state)
    again = start_turn(state, seed=derive_seed(11, "turn", 5))

    assert plan.number == 5
    assert plan.log == again.log
    # Every die comes from the stream its record names, seeded from the turn seed.
    assert replayed_dice(derive_seed(11, "turn", 5), plan.log) == [
        face for record in plan.log for face in record["dice"]
    ]


def test_each_roll_group_has_its_own_stream() -> None:
    state = aggressive(korona_state(seed=3))

    plan = start_turn(state)

    streams = {name for record in plan.log for name in record["dice_streams"]}
    assert {"public/naval", "public/aerial", "initiative/australian"} <= streams
    assert "initiative/japanese" in streams
    supply = {r["company"]: r["dice_streams"] for r in plan.log if r["kind"] == "supply"}
    assert supply and all(
        names == [f"{state.companies[name].side}/supply:{name}"] for name, names in supply.items()
    )


def test_different_seeds_give_different_turns() -> None:
    logs = {repr(start_turn(korona_state(seed=seed)).log) for seed in range(1, 7)}

    assert len(logs) > 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_die_of_a_turn_is_in_its_log(seed: int) -> None:
    state = aggressive(korona_state(seed=seed))
    roller = Roller(derive_seed(seed, "turn", 1))

    plan = start_turn(state, roller=roller)

    assert roller.dice_rolled == dice_in(plan.log)


def test_every_scripted_die_is_in_the_log() -> None:
    state = korona_state()
    faces = supply_dice(state, {"A Company": 1})

    plan = scripted_turn(state, faces, naval=[6, 3], aerial=[6, 4], initiative=[6, 3, 2, 5])

    assert dice_in(plan.log) == 4 + len(faces) + 4


def test_every_record_has_the_fields_of_the_log_format() -> None:
    state = aggressive(korona_state(seed=3))
    outcome = play_turn(state)
    scripted = scripted_turn(korona_state(), supply_dice(korona_state()), naval=[6, 2])

    for record in outcome.log + scripted.log:
        assert record.keys() >= RECORD_FIELDS, record
        assert isinstance(record["dice"], list)
        assert isinstance(record["modifiers"], list)
        assert all({"reason", "value"} <= m.keys() for m in record["modifiers"])
        assert isinstance(record["text"], str) and record["text"]


# --- whole campaigns ------------------------------------------------------------------


def play_one_turn(state: CampaignState) -> TurnOutcome:
    """``play_turn``'s steps, every die of the turn recomputed from its stream."""
    plan = start_turn(state)
    turn_seed = derive_seed(state.seed, "turn", state.turn + 1)
    assert replayed_dice(turn_seed, plan.log) == [f for r in plan.log for f in r["dice"]]
    fought = [name for battle in plan.battles for name in battle.attackers + battle.defenders]
    assert len(fought) == len(set(fought)), "a company fights two battles in one turn"
    results = {b.key: resolve_battle(parse_battle(b.spec), b.seed) for b in plan.battles}
    return finish_turn(plan, results)


def check_invariants(before: CampaignState, outcome: TurnOutcome) -> None:
    state = outcome.state
    assert outcome.number == before.turn + 1 == state.turn
    for company in state.companies.values():
        assert company.area in state.areas, company
        assert company.side in state.sides, company
        assert company.strength > 0, f"{company.name} has no stands but was kept"
        for unit in company.stands.keys() | company.establishment.keys():
            held = company.stands.get(unit, 0)
            full = company.establishment.get(unit, 0)
            assert 0 <= held <= full, f"{company.name}: {held} {unit} of {full}"
        old = before.companies.get(company.name)
        if old is not None:
            for unit, full in company.establishment.items():
                assert full <= old.establishment.get(unit, 0), "establishment never grows"
    for area in state.areas.values():
        sides = {c.side for c in state.companies_in(area.name, fighting=True)}
        if len(sides) == 1:
            assert area.controller == next(iter(sides)), area
    for record in outcome.log:
        assert record.keys() >= RECORD_FIELDS, record


SEEDS = list(range(1, 11))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_whole_korona_campaign_on_aggressive_orders_ends_by_turn_20(seed: int) -> None:
    state = aggressive(korona_state(seed=seed))
    turns: list[TurnOutcome] = []
    with deadline(30, f"the campaign of seed {seed}"):
        while not state.finished:
            assert state.turn < 20, "the campaign outlived its turn limit"
            outcome = play_one_turn(state)
            check_invariants(state, outcome)
            turns.append(outcome)
            state = outcome.state

    assert 1 <= state.turn <= 20
    assert [t.number for t in turns] == list(range(1, state.turn + 1))
    assert state.winner in ("australian", "japanese")
    assert state.winner == state.areas["Korona"].controller
    assert state.end_reason
    (end,) = [r for r in turns[-1].log if r["kind"] == "campaign_end"]
    assert end["winner"] == state.winner
    assert not any(r["kind"] == "campaign_end" for t in turns[:-1] for r in t.log)


def test_a_whole_campaign_replays_exactly_through_play_turn() -> None:
    state = aggressive(korona_state(seed=2))
    by_steps, by_play = state, state
    with deadline(30, "two replays of a campaign"):
        while not by_steps.finished:
            stepped, played = play_one_turn(by_steps), play_turn(by_play)
            assert stepped == played
            by_steps, by_play = stepped.state, played.state
