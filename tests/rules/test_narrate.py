"""Plain words for log records: exact sentences for hand-made records, and a sentence for
every record of whole battles."""

from __future__ import annotations

from typing import Any

import pytest

from rules import names
from rules.korona.engine import resolve
from rules.narrate import describe_record, phase_name, stand_name, stand_sides
from tests.rules.conftest import VARIANTS, deadline


def record(kind: str, turn: int = 2, phase: str = "attacker fire", **fields: Any) -> dict:
    return {"turn": turn, "phase": phase, "kind": kind, **fields}


def test_fire_at_an_obscured_target() -> None:
    text = describe_record(
        record(
            "fire",
            firer="a.rifle_squad.3",
            target="d.commander.1",
            dice=[5, 6, 1],
            obscured=True,
            hits=2,
            effect="suppressed",
        )
    )
    assert text == (
        "T2 attacker fire: attacker rifle squad 3 fires at defender commander 1: "
        "5 6 1 (obscured, one die fewer) = 2 hits: suppressed"
    )


def test_fire_with_a_blast_and_the_impact_fuse() -> None:
    text = describe_record(
        record(
            "fire",
            firer="a.small_mortar.1",
            target="d.rifle_squad.2",
            dice=[6, 6, 5],
            obscured=False,
            hits=3,
            effect="pinned",
            impact_fuse=True,
        )
    )
    assert text.endswith("= 3 hits: pinned (impact fuse: knee mortars only pin in woods)")
    blast = describe_record(
        record(
            "fire",
            firer="a.hmg.1",
            target="d.rifle_squad.2",
            dice=[6, 6, 5, 5],
            obscured=False,
            hits=4,
            effect="killed",
            blast=[{"stand": "d.sniper.1", "status_before": "ok", "effect": "suppressed"}],
        )
    )
    assert blast.endswith("= 4 hits: killed; blast: defender sniper 1 suppressed")


def test_a_miss_reads_as_no_effect() -> None:
    text = describe_record(
        record(
            "fire",
            firer="a.commander.1",
            target="d.rifle_squad.1",
            dice=[1],
            obscured=True,
            hits=0,
            effect="none",
        )
    )
    assert text.endswith(": 1 (obscured, one die fewer) = 0 hits")


def artillery_support(**more: Any) -> dict[str, Any]:
    """The defender's off-table artillery, called by its forward observer, pinning an
    attacking rifle squad."""
    return record(
        "support",
        phase="defender fire",
        firer="off-table artillery",
        called_by="d.forward_observer.1",
        target="a.rifle_squad.2",
        dice=[1, 2, 3, 4, 5],
        obscured=False,
        hits=1,
        effect="pinned",
        **more,
    )


def test_support_names_its_caller() -> None:
    text = describe_record(artillery_support())
    assert text == (
        "T2 defender fire: off-table artillery fires at attacker rifle squad 2 "
        "(called by defender forward observer 1): 1 2 3 4 5 = 1 hit: pinned"
    )


def test_stands_are_named_by_their_side_when_the_battle_says_it() -> None:
    """A player's page names a stand as a player says it, "Japanese rifle squad 3", not
    by its role; the sides come from the BATTLE.json (a force without one keeps its
    role)."""
    sides = stand_sides(
        {"attacker": {"side": "japanese"}, "defender": {"side": "australian", "name": "A"}}
    )
    assert sides == {"a": "Japanese", "d": "Australian"}
    assert stand_sides({"attacker": {"side": "japanese"}, "defender": {}}) == {
        "a": "Japanese",
        "d": "defender",
    }
    fire = artillery_support(
        blast=[{"stand": "a.hmg.1", "status_before": "ok", "effect": "suppressed"}]
    )
    assert describe_record(fire, sides) == (
        "T2 Australian fire: off-table artillery fires at Japanese rifle squad 2 "
        "(called by Australian forward observer 1): 1 2 3 4 5 = 1 hit: pinned; "
        "blast: Japanese HMG 1 suppressed"
    )
    # A stand's id in free text is named the same way.
    caught = record("caught", stand="d.rifle_squad.1", outcome="lost", reason="by a.hmg.1")
    assert describe_record(caught, sides) == (
        "T2 Japanese fire: Australian rifle squad 1 lost: by Japanese HMG 1"
    )
    assert stand_name("a.sniper.1", sides) == "Japanese sniper 1"
    assert stand_name("a.sniper.1") == "attacker sniper 1"


def test_overwatch_names_its_side_in_words() -> None:
    overwatch = record("overwatch", phase="activation", side="japanese", units=["a.hmg.1"])
    assert describe_record(overwatch, {"a": "Japanese", "d": "Australian"}) == (
        "T2 activation: Japanese units on Overwatch: Japanese HMG 1"
    )


def test_fire_at_armour() -> None:
    text = describe_record(
        record(
            "fire",
            firer="a.at_gun.1",
            target="d.light_tank.1",
            dice=[4, 2, 3],
            obscured=False,
            hits=1,
            effect="killed",
            armour={"to_hit": 4, "penetration": [2, 3], "attack": 3, "defence": 8},
        )
    )
    assert text == (
        "T2 attacker fire: attacker AT gun 1 fires at defender light tank 1: to hit 4 "
        "(4+ needed), 2d6 2 3 + 3 = 8 against defence 8: destroyed"
    )


def test_assault_with_a_tie_rolled_again() -> None:
    text = describe_record(
        record(
            "assault",
            phase="attacker move",
            attackers=["a.rifle_squad.1"],
            defenders=["d.rifle_squad.4"],
            dice=[3, 4, 2, 1],
            rolls=[{"attacker": 3, "defender": 4}, {"attacker": 2, "defender": 1}],
            modifiers={"attacker": [{"reason": "veteran troops", "value": 1}], "defender": []},
            totals={"attacker": 3, "defender": 1},
            outcome="attacker wins",
            winner="attacker",
            removed=["d.rifle_squad.4"],
        )
    )
    assert text == (
        "T2 attacker move: attacker rifle squad 1 assault defender rifle squad 4: "
        "rolls 3 v 4; 2 v 1 (attacker veteran troops +1; defender no modifiers); "
        "totals attacker 3, defender 1: attacker wins; removed defender rifle squad 4"
    )


def test_rally_command_and_end() -> None:
    rally = record(
        "rally",
        phase="rally",
        stand="d.rifle_squad.1",
        status_before="pinned",
        dice=[3],
        modifiers=[{"reason": 'commander within 2"', "value": 1}],
        target=4,
        outcome="rallied",
    )
    assert describe_record(rally) == (
        'T2 rally: defender rifle squad 1 (pinned) rolls 3 (commander within 2" +1) '
        "needing 4+: rallied"
    )
    command = record(
        "command",
        phase="attacker move",
        stand="a.rifle_squad.2",
        reason='7.0" from its commander',
        dice=[2],
        target=4,
        outcome="stays put",
    )
    assert describe_record(command) == (
        'T2 attacker move: attacker rifle squad 2, 7.0" from its commander, rolls 2 '
        "needing 4+: stays put"
    )
    end = record("end", turn=5, phase="end", winner="defender", reason="a_third_lost")
    assert describe_record(end) == "T5 end: defender wins (a third lost)"


SIDES = {"a": "Japanese", "d": "Australian"}


def test_phases_and_results_are_named_by_their_side_when_the_battle_says_it() -> None:
    """A player reads "T2 Japanese move: ...", "the Australians win", not the roles the
    records keep ("attacker move", "defender wins"); the command line, with no sides,
    keeps the roles."""
    assault = record(
        "assault",
        phase="attacker move",
        attackers=["a.rifle_squad.1"],
        defenders=["d.rifle_squad.4"],
        dice=[3, 4],
        rolls=[{"attacker": 3, "defender": 4}],
        modifiers={"attacker": [{"reason": "veteran troops", "value": 1}], "defender": []},
        totals={"attacker": 4, "defender": 4},
        outcome="defender wins",
        winner="defender",
        removed=["a.rifle_squad.1"],
    )
    assert describe_record(assault, SIDES) == (
        "T2 Japanese move: Japanese rifle squad 1 assault Australian rifle squad 4: "
        "rolls 3 v 4 (Japanese veteran troops +1; Australian no modifiers); "
        "totals Japanese 4, Australian 4: the Australians win; removed Japanese rifle squad 1"
    )
    empty = {**assault, "dice": [], "rolls": [], "modifiers": {}, "removed": []}
    empty |= {"outcome": "attacker wins: no one left to fight", "winner": "attacker"}
    assert describe_record(empty, SIDES).endswith(": the Japanese win: no one left to fight")
    assert describe_record(empty).endswith(": attacker wins: no one left to fight")
    initiative = record("initiative", phase="initiative", dice=[2, 5], winner="defender")
    assert describe_record(initiative, SIDES) == "T2 initiative: initiative 2 5: the Australians"
    assert describe_record(initiative) == "T2 initiative: initiative 2 5: defender"
    end = record("end", turn=5, phase="end", winner="attacker", reason="turn_limit")
    assert describe_record(end, SIDES) == "T5 end: the Japanese win (turn limit)"
    assert phase_name("defender activation", SIDES) == "Australian activation"
    assert phase_name("rally", SIDES) == "rally"
    assert phase_name("attacker fire") == "attacker fire"
    # A force whose side the spec does not say keeps its role.
    assert phase_name("defender fire", {"a": "Japanese", "d": "defender"}) == "defender fire"


def test_set_up_records_have_no_turn() -> None:
    terrain = record(
        "terrain",
        turn=0,
        phase="terrain",
        square=[1, 2],
        dice=[2, 4, 6],
        landform="mud_rocks_swamp",
        vegetation="heavy_woods",
        going="bad",
    )
    assert describe_record(terrain) == (
        "terrain: square 1,2: 2d6 2+4 = mud/rocks/swamp, d6 6 = heavy woods; bad going"
    )


@pytest.mark.parametrize("landform", ["river_creek", "mud_rocks_swamp", "steep_high_ridge"])
def test_a_terrain_roll_names_its_landform_and_woods_as_the_battle_pages_key_does(
    landform: str,
) -> None:
    """The walk-through: the set-up said "river creek" and "mud rocks swamp" where the
    key beside the picture says "river/creek" and "mud/rocks/swamp", and "d6 3 = none"
    where it says "no woods"."""
    terrain = record(
        "terrain",
        turn=0,
        phase="terrain",
        square=[0, 0],
        dice=[5, 5, 3],
        landform=landform,
        vegetation="none",
        going="rough",
    )
    # The key is built from these same names (tests/web/test_battle_key.py).
    named = names.LANDFORM_NAMES[landform]
    assert f"= {named}, d6 3 = no woods;" in describe_record(terrain)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_record_of_a_battle_has_its_own_sentence(variant: str) -> None:
    for seed in range(5):
        with deadline(10, f"the battle with seed {seed}"):
            log = resolve(VARIANTS[variant], seed)["log"]
        for entry in log:
            text = describe_record(entry)
            head = (
                f"T{entry['turn']} {entry['phase']}: " if entry["turn"] else f"{entry['phase']}: "
            )
            assert text.startswith(head)
            assert text != head + entry["kind"], f"no words for {entry['kind']} records"
