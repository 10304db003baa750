"""Phases 1 and 2: the naval and aerial events (rulings section 3), on scripted dice.

Every turn here is played on the reference scenario; unless a test says otherwise every
supply die is a 6, so a company out of supply is out because of the event.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from rules.campaign.phases.events import (
    buffalos_lost_in,
    fewer_buffalos_lost,
    outcome_retells_entry,
)
from rules.campaign.state import (
    DEFAULT_AERIAL_TABLE,
    DEFAULT_NAVAL_TABLE,
    AirGroup,
    CampaignState,
    Ship,
)
from rules.campaign.turn import TurnPlan, finish_turn
from rules.spec import MAX_PLANES
from tests.campaign.builders import (
    KORONA_FIGHTING,
    korona_state,
    move,
    records,
    scripted_turn,
    supply_record,
)

AUSTRALIANS = ("A Company", "B Company", "C Company (militia)")
JAPANESE = ("1st Company", "2nd Company", "3rd Company")
ALL_SIXES = [6] * len(KORONA_FIGHTING)


def in_supply(plan: TurnPlan, names: Iterable[str]) -> dict[str, bool | None]:
    return {name: plan.state.companies[name].in_supply for name in names}


def ship(state: CampaignState, name: str) -> Ship:
    return next(s for s in state.ships if s.name == name)


def raaf(state: CampaignState) -> AirGroup:
    (group,) = state.air
    return group


# --- naval events ---------------------------------------------------------------------


@pytest.mark.parametrize("check", [1, 2, 3, 4, 5])
def test_no_naval_event_below_the_trigger_and_only_the_check_die_is_rolled(check: int) -> None:
    plan = scripted_turn(korona_state(), ALL_SIXES, naval=[check])

    (record,) = [r for r in plan.log if r["phase"] == "naval"]
    assert record["kind"] == "event_check"
    assert record["dice"] == [check]
    assert record["target"] == 6
    assert record["outcome"] == "no event"
    assert all(s.present for s in plan.state.ships)


def test_naval_trigger_is_a_setting() -> None:
    plan = scripted_turn(korona_state(naval_trigger=4), ALL_SIXES, naval=[4, 3])

    assert [r["dice"] for r in plan.log if r["phase"] == "naval"] == [[4], [3]]
    assert ship(plan.state, "HMAS Pitcairn").present is False


def test_naval_3_pitcairn_departs_and_no_australian_company_is_in_supply() -> None:
    plan = scripted_turn(korona_state(), ALL_SIXES, naval=[6, 3])

    assert ship(plan.state, "HMAS Pitcairn").present is False
    assert ship(plan.state, "IJN Uesugi").present is True
    assert in_supply(plan, AUSTRALIANS) == dict.fromkeys(AUSTRALIANS, False)
    assert in_supply(plan, JAPANESE) == dict.fromkeys(JAPANESE, True)
    record = supply_record(plan, "A Company")
    assert record["total"] == 6 >= record["target"] == 4  # the roll alone would have done
    assert record["outcome"] == "out of supply"
    assert record["forced"]


def test_naval_4_uesugi_departs_and_no_japanese_company_is_in_supply() -> None:
    plan = scripted_turn(korona_state(), ALL_SIXES, naval=[6, 4])

    assert ship(plan.state, "IJN Uesugi").present is False
    assert ship(plan.state, "HMAS Pitcairn").present is True
    assert in_supply(plan, JAPANESE) == dict.fromkeys(JAPANESE, False)
    assert in_supply(plan, AUSTRALIANS) == dict.fromkeys(AUSTRALIANS, True)


@pytest.mark.parametrize(("face", "name"), [(1, "HMAS Pitcairn"), (6, "IJN Uesugi")])
def test_naval_1_and_6_bring_a_departed_ship_back(face: int, name: str) -> None:
    state = korona_state()
    ship(state, name).present = False

    plan = scripted_turn(state, ALL_SIXES, naval=[6, face])

    assert ship(plan.state, name).present is True
    assert all(plan.state.companies[n].in_supply for n in KORONA_FIGHTING)


@pytest.mark.parametrize("face", [1, 6])
def test_naval_1_and_6_with_every_ship_present_have_no_effect(face: int) -> None:
    plan = scripted_turn(korona_state(), ALL_SIXES, naval=[6, face])

    assert all(s.present for s in plan.state.ships)
    assert all(plan.state.companies[n].in_supply for n in KORONA_FIGHTING)


def test_naval_2_takes_away_australian_supply_company_support() -> None:
    state = move(korona_state(), **{"1st_Supply_Company": "Korona"})
    # A Company in Korona: 3 +1 (supply company) = 4 would reach Port Murray, 4 links away.
    supply = [3, 3, 6, 6, 6, 6]

    with_support = scripted_turn(state, supply)
    without = scripted_turn(state, supply, naval=[6, 2])

    assert supply_record(with_support, "A Company")["outcome"] == "in supply"
    record = supply_record(without, "A Company")
    assert record["modifiers"] == []
    assert record["outcome"] == "out of supply"
    assert record["forced"] == []  # an ordinary failed roll, not an event
    # The Japanese keep theirs (their supply company in Kilu is linked to Oivi).
    assert supply_record(without, "1st Company")["modifiers"] == [
        {"reason": "supply company", "value": 1}
    ]


def test_naval_5_takes_away_japanese_supply_company_support() -> None:
    state = move(korona_state(), **{"1st_Supply_Company": "Korona"})

    plan = scripted_turn(state, ALL_SIXES, naval=[6, 5])

    for name in JAPANESE:
        assert supply_record(plan, name)["modifiers"] == []
    assert supply_record(plan, "A Company")["modifiers"] == [
        {"reason": "supply company", "value": 1}
    ]
    assert in_supply(plan, KORONA_FIGHTING) == dict.fromkeys(KORONA_FIGHTING, True)


def test_a_departed_ship_does_not_block_supply_on_later_turns_by_default() -> None:
    first = scripted_turn(korona_state(), ALL_SIXES, naval=[6, 3])
    state = finish_turn(first, {}).state
    assert ship(state, "HMAS Pitcairn").present is False

    second = scripted_turn(state, ALL_SIXES)

    assert ship(second.state, "HMAS Pitcairn").present is False  # still away
    assert in_supply(second, AUSTRALIANS) == dict.fromkeys(AUSTRALIANS, True)


def test_with_the_setting_a_departed_ship_blocks_supply_every_turn_it_is_away() -> None:
    first = scripted_turn(korona_state(ship_absence_blocks_supply=True), ALL_SIXES, naval=[6, 3])
    state = finish_turn(first, {}).state

    second = scripted_turn(state, ALL_SIXES)

    assert in_supply(second, AUSTRALIANS) == dict.fromkeys(AUSTRALIANS, False)
    assert in_supply(second, JAPANESE) == dict.fromkeys(JAPANESE, True)
    assert supply_record(second, "A Company")["forced"]


def test_with_the_setting_a_ship_back_this_turn_no_longer_blocks_supply() -> None:
    # Phase 1 brings HMAS Pitcairn back before phase 3 rolls supply: its absence does
    # not last into this turn's supply, so it cannot block it.
    state = korona_state(ship_absence_blocks_supply=True)
    ship(state, "HMAS Pitcairn").present = False

    plan = scripted_turn(state, ALL_SIXES, naval=[6, 1])

    assert ship(plan.state, "HMAS Pitcairn").present is True
    assert in_supply(plan, AUSTRALIANS) == dict.fromkeys(AUSTRALIANS, True)


def test_a_naval_event_is_logged_with_its_table_die() -> None:
    plan = scripted_turn(korona_state(), ALL_SIXES, naval=[6, 3])

    check, event = [r for r in plan.log if r["phase"] == "naval"]
    assert (check["kind"], check["dice"], check["outcome"]) == ("event_check", [6], "event")
    assert (event["kind"], event["dice"], event["side"]) == ("event", [3], "australian")
    assert "HMAS Pitcairn" in event["outcome"]


# --- aerial events --------------------------------------------------------------------


@pytest.mark.parametrize("check", [1, 2, 3, 4, 5])
def test_no_aerial_event_below_the_trigger_and_only_the_check_die_is_rolled(check: int) -> None:
    plan = scripted_turn(korona_state(), ALL_SIXES, aerial=[check])

    (record,) = [r for r in plan.log if r["phase"] == "aerial"]
    assert (record["dice"], record["outcome"]) == ([check], "no event")
    assert (raaf(plan.state).buffalos, raaf(plan.state).bombers) == (3, 0)


@pytest.mark.parametrize(
    ("buffalos", "face", "left"),
    [(3, 1, 2), (3, 2, 1), (1, 1, 0), (1, 2, 0), (0, 1, 0), (0, 2, 0)],
)
def test_aerial_1_and_2_lose_buffalos_never_below_none(buffalos: int, face: int, left: int) -> None:
    state = korona_state()
    raaf(state).buffalos = buffalos

    plan = scripted_turn(state, ALL_SIXES, aerial=[6, face])

    assert raaf(plan.state).buffalos == left
    (event,) = records(plan.log, "event")
    assert event["outcome"].startswith(f"{buffalos - left} Buffalo")


# Every face of the default tables that loses Buffalos, with its count (faces 1 and 2).
PLANES_LOST_FACES = [
    (phase, face, entry["count"])
    for phase, table in (("naval", DEFAULT_NAVAL_TABLE), ("aerial", DEFAULT_AERIAL_TABLE))
    for face, entry in table.items()
    if entry["effect"] == "planes_lost"
]
assert PLANES_LOST_FACES, "no face of the default tables loses Buffalos: test a table that does"


@pytest.mark.parametrize(("phase", "face", "count"), PLANES_LOST_FACES)
@pytest.mark.parametrize("buffalos", [0, 1, 2, 3])
def test_buffalos_lost_are_read_back_from_every_face_that_loses_them(
    phase: str, face: int, count: int, buffalos: int
) -> None:
    """The pages say "Only 1 Buffalo was left, and it is lost." from the event's outcome
    (``fewer_buffalos_lost``): a record carries no count of its own (a new field would
    change every turn's records, which replays and bench/battle_hash.py compare)."""
    state = korona_state()
    raaf(state).buffalos = buffalos

    plan = scripted_turn(state, ALL_SIXES, **{phase: [6, face]})

    lost = buffalos - raaf(plan.state).buffalos
    (event,) = records(plan.log, "event")
    entry = DEFAULT_AERIAL_TABLE[face]
    assert buffalos_lost_in(event["outcome"]) == lost
    assert fewer_buffalos_lost(entry, event["outcome"]) == (lost if lost < count else None)
    assert outcome_retells_entry(entry, event["outcome"]) == (lost == count)


@pytest.mark.parametrize(("count", "buffalos"), [(5, 3), (MAX_PLANES, MAX_PLANES - 1), (12, 11)])
def test_fewer_buffalos_than_a_gm_written_count_are_read_back(count: int, buffalos: int) -> None:
    entry = {"effect": "planes_lost", "side": "australian", "count": count, "text": "Lost."}
    state = korona_state(aerial_table={face: entry for face in range(1, 7)})
    raaf(state).buffalos = buffalos

    plan = scripted_turn(state, ALL_SIXES, aerial=[6, 1])

    (event,) = records(plan.log, "event")
    assert raaf(plan.state).buffalos == 0
    assert fewer_buffalos_lost(entry, event["outcome"]) == buffalos


@pytest.mark.parametrize(
    "outcome",
    ["1 Buffalos lost", "2 Buffalo lost", "02 Buffalos lost", "2 Buffalos lost.", "no effect"],
)
def test_words_the_rules_never_write_are_no_count_of_buffalos_lost(outcome: str) -> None:
    entry = {"effect": "planes_lost", "side": "australian", "count": 5, "text": "Lost."}
    assert buffalos_lost_in(outcome) is None
    assert fewer_buffalos_lost(entry, outcome) is None


def test_buffalos_lost_as_many_as_the_entry_asks_or_another_effect_are_not_fewer() -> None:
    """Not "Only 2 Buffalos were left" when the entry asked 2 (or 1, a table the GM has
    changed since the turn was played), nor for any other effect."""
    two = {"effect": "planes_lost", "side": "australian", "count": 2, "text": "Lost."}
    assert fewer_buffalos_lost(two, "2 Buffalos lost") is None
    assert fewer_buffalos_lost({**two, "count": 1}, "2 Buffalos lost") is None
    assert fewer_buffalos_lost({**two, "effect": "planes_recalled"}, "1 Buffalo lost") is None
    assert fewer_buffalos_lost(two, "1 Buffalo lost") == 1


def test_aerial_3_every_buffalo_leaves_for_good() -> None:
    state = korona_state()
    raaf(state).bombers = 1

    plan = scripted_turn(state, ALL_SIXES, aerial=[6, 3])

    assert (raaf(plan.state).buffalos, raaf(plan.state).bombers) == (0, 1)
    later = scripted_turn(finish_turn(plan, {}).state, ALL_SIXES)
    assert raaf(later.state).buffalos == 0


def test_aerial_4_a_hurricane_bomber_arrives() -> None:
    plan = scripted_turn(korona_state(), ALL_SIXES, aerial=[6, 4])

    assert (raaf(plan.state).buffalos, raaf(plan.state).bombers) == (3, 1)


def test_aerial_4_brings_at_most_one_hurricane_bomber() -> None:
    state = korona_state()
    raaf(state).bombers = 1

    plan = scripted_turn(state, ALL_SIXES, aerial=[6, 4])

    assert raaf(plan.state).bombers == 1


def test_aerial_5_strafes_the_japanese_company_on_the_korona_track_nearest_port_murray() -> None:
    # 1st and 2nd Company are both in Oivi, 5 links from Port Murray: the tie goes by name.
    plan = scripted_turn(korona_state(), ALL_SIXES, aerial=[6, 5])

    assert in_supply(plan, JAPANESE) == {
        "1st Company": False,
        "2nd Company": True,
        "3rd Company": True,
    }
    assert supply_record(plan, "1st Company")["forced"] == ["strafed"]
    assert in_supply(plan, AUSTRALIANS) == dict.fromkeys(AUSTRALIANS, True)


def test_aerial_5_ignores_japanese_companies_off_the_korona_track() -> None:
    # Munara is 4 links from Port Murray, nearer than Oivi, but on the southern track.
    state = move(korona_state(), **{"1st_Company": "Munara", "2nd_Company": "Kilu"})

    plan = scripted_turn(state, ALL_SIXES, aerial=[6, 5])

    assert in_supply(plan, JAPANESE) == {
        "1st Company": True,
        "2nd Company": False,  # Kilu, tie with 3rd Company broken by name
        "3rd Company": True,
    }


def test_aerial_5_with_no_japanese_company_on_the_korona_track_has_no_effect() -> None:
    state = move(
        korona_state(),
        **{"1st_Company": "Munara", "2nd_Company": "Munara", "3rd_Company": "Kerna"},
    )

    plan = scripted_turn(state, ALL_SIXES, aerial=[6, 5])

    assert in_supply(plan, KORONA_FIGHTING) == dict.fromkeys(KORONA_FIGHTING, True)
    (event,) = records(plan.log, "event")
    assert "no effect" in event["outcome"]


def test_aerial_6_no_japanese_company_is_in_supply() -> None:
    plan = scripted_turn(korona_state(), ALL_SIXES, aerial=[6, 6])

    assert in_supply(plan, JAPANESE) == dict.fromkeys(JAPANESE, False)
    assert in_supply(plan, AUSTRALIANS) == dict.fromkeys(AUSTRALIANS, True)


def test_both_events_in_one_turn_roll_four_dice_in_order() -> None:
    plan = scripted_turn(korona_state(), ALL_SIXES, naval=[6, 3], aerial=[6, 6])

    events = records(plan.log, "event")
    assert [(e["phase"], e["dice"]) for e in events] == [("naval", [3]), ("aerial", [6])]
    assert not any(plan.state.companies[n].in_supply for n in KORONA_FIGHTING)
