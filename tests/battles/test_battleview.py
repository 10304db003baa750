"""The plain functions behind the report pages: turn words, terrain, forces, replay, sheet."""

from __future__ import annotations

import copy
import math
import re
from typing import Any

import pytest
from django.template.loader import render_to_string

from battles.models import Battle
from battles.web import battleview
from campaign.models import Turn
from campaign.web import turnlog
from rules import oldbreed

SIDE_NAMES = {"australian": "Australians", "japanese": "Japanese"}


def fought(campaign: Any) -> list[Battle]:
    return list(Battle.objects.filter(campaign=campaign, status="fought").order_by("id"))


# --- the words of a turn ---------------------------------------------------------------


def supply_record(**fields: Any) -> dict[str, Any]:
    record = {
        "phase": "supply",
        "kind": "supply",
        "side": "australian",
        "company": "B Company",
        "dice": [3],
        "modifiers": [{"reason": "supply company", "value": 1}],
        "target": 4,
        "outcome": "in supply",
        "total": 4,
        "base": "Port Murray",
        "turns_out_of_supply": 0,
        "text": "B Company: supply roll 3 +1 (supply company) = 4 against distance 4 to "
        "Port Murray: in supply",
    }
    record.update(fields)
    return record


def test_supply_words_name_the_company_die_modifier_distance_and_verdict() -> None:
    words = turnlog.record_words(supply_record())
    # The issue's example: "B Company: supply roll 3 + 1 (supply company) against
    # distance 4 — out of supply"; ours also gives the total and the base.
    assert re.fullmatch(
        r"B Company: supply roll 3 \+1 \(supply company\) = 4 against distance 4 "
        r"to Port Murray: in supply",
        words,
    )


def test_out_of_supply_words_say_how_many_turns_running() -> None:
    record = supply_record(
        dice=[1],
        total=2,
        outcome="out of supply",
        turns_out_of_supply=2,
        text="B Company: supply roll 1 +1 (supply company) = 2 against distance 4 to "
        "Port Murray: out of supply",
    )
    assert turnlog.record_words(record).endswith(
        "to Port Murray: out of supply for the 2nd turn running"
    )


def test_a_record_without_text_is_put_in_words_from_its_fields() -> None:
    record = supply_record(text="", outcome="out of supply", turns_out_of_supply=1)
    words = turnlog.record_words(record)
    assert words.startswith("B Company: supply rolled 3 +1 (supply company) against 4")
    assert "out of supply" in words


def test_every_roll_of_a_played_turn_is_in_words_with_its_dice(played: Any) -> None:
    rolled = 0
    for turn in Turn.objects.filter(campaign=played):
        for phase in turnlog.turn_phases(turn.log):
            assert phase.title and phase.lines
        for record in turn.log:
            words = turnlog.record_words(record)
            for die in record["dice"]:
                assert str(die) in words, (words, record["dice"])
                rolled += 1
            if record["kind"] == "supply":
                assert record["company"] in words and f"distance {record['target']}" in words
    assert rolled > 10


def test_turn_phases_keep_order_and_link_only_readable_battles() -> None:
    records = [
        {"phase": "naval", "kind": "event_check", "dice": [5], "text": "naval: 5"},
        supply_record(),
        {"phase": "battles", "kind": "battle", "dice": [], "battle": "1:K", "text": "b"},
        {"phase": "battles", "kind": "battle", "dice": [], "battle": "1:L", "text": "c"},
    ]
    phases = turnlog.turn_phases(records, {"1:K": 7})
    assert [p.key for p in phases] == ["naval", "supply", "battles"]
    assert [line.battle_id for line in phases[2].lines] == [7, None]


# --- the terrain -------------------------------------------------------------------------


def test_terrain_picture_has_one_cell_per_square(played: Any) -> None:
    battle = fought(played)[0]
    table = battleview.table_of(battle.spec, battle.seed, battle.log, battle.result)
    svg = render_to_string(
        "battles/_field.html", {"table": table, "area": battle.spec["area"], "counters": []}
    )
    cells = re.findall(r'<rect class="cell land-(\w+) going-(\w+)"', svg)
    terrain = [r for r in battle.log if r["kind"] == "terrain"]
    assert len(cells) == len(terrain) == table.width_ft * table.depth_ft
    assert sorted(cells) == sorted((r["landform"], r["going"]) for r in terrain)
    assert svg.count('class="woods"') == sum(r["vegetation"] != "none" for r in terrain)


def test_the_table_rolled_from_the_seed_is_the_one_the_rules_fought_on(played: Any) -> None:
    for battle in fought(played):
        from_log = battleview.table_of(battle.spec, battle.seed, battle.log)
        from_seed = battleview.table_of(battle.spec, battle.seed)
        assert from_log.source == "log" and from_seed.source == "seed"
        assert from_seed.squares == from_log.squares


def test_squares_are_drawn_with_the_defenders_edge_at_the_bottom(played: Any) -> None:
    battle = fought(played)[0]
    table = battleview.table_of(battle.spec, battle.seed, battle.log)
    a1 = next(s for s in table.squares if (s.col, s.row) == (0, 0))
    assert a1.label == "A1" and a1.y == table.depth_in - 12 and a1.x == 0
    assert [row[0].row for row in table.rows] == list(range(table.depth_ft))[::-1]


# --- forces, losses and the replay --------------------------------------------------------


def test_losses_add_up_to_the_result(played: Any) -> None:
    for battle in fought(played):
        forces = battleview.forces_of(battle.spec, battle.result, side_names=SIDE_NAMES)
        frames = battleview.replay_frames(battle.log)
        on_table = battleview.lost_on_the_table(frames)
        end = battle.log[-1]
        for force in forces:
            assert force.lost == sum(battle.result["losses"][force.key].values())
            assert force.present == sum(battle.result["stands_present"][force.key].values())
            assert on_table[force.key] == force.lost == end["lost"][force.key]
            assert force.won == (battle.result["winner"] == force.key)


def test_replay_frames_match_the_logs_positions_exactly(played: Any) -> None:
    for battle in fought(played):
        log = battle.log
        frames = battleview.replay_frames(log)
        deploy = next(r for r in log if r["kind"] == "deploy")
        assert frames[0]["positions"] == deploy["positions"]
        # Walk the log independently: after each (turn, phase) the positions are the
        # deploy record's, moved by every move record so far.
        where = {k: list(v) for k, v in deploy["positions"].items()}
        steps = []
        for record in log[log.index(deploy) + 1 :]:
            key = (record["turn"], record["phase"])
            if not steps or steps[-1][0] != key:
                steps.append([key, None])
            if record["kind"] == "move":
                assert where[record["stand"]] == record["from"]
                where[record["stand"]] = record["to"]
            steps[-1][1] = {k: list(v) for k, v in where.items()}
        assert len(frames) == len(steps) + 1
        for frame, (key, positions) in zip(frames[1:], steps, strict=True):
            assert (frame["turn"], frame["phase"]) == key
            assert frame["positions"] == positions
        moved = [m for f in frames for m in f["moves"]]
        assert moved == [[r["stand"], r["from"], r["to"]] for r in log if r["kind"] == "move"]
        assert [f["step"] for f in frames] == list(range(len(frames)))


def test_replay_marks_kills_statuses_and_rallies() -> None:
    log = [
        {"turn": 0, "phase": "deployment", "kind": "deploy", "dice": [], "hidden": ["d.sniper.1"],
         "positions": {"a.rifle_squad.1": [6, 30], "d.rifle_squad.1": [6, 6],
                       "d.sniper.1": [20, 8]}},
        {"turn": 1, "phase": "defender fire", "kind": "fire", "dice": [5, 5], "side": "x",
         "firer": "d.sniper.1", "firer_type": "sniper", "target": "a.rifle_squad.1",
         "target_type": "rifle_squad", "obscured": False, "hits": 2, "status_before": "ok",
         "effect": "suppressed", "revealed": True},
        {"turn": 1, "phase": "rally", "kind": "rally", "dice": [6], "side": "x",
         "stand": "a.rifle_squad.1", "status_before": "suppressed", "modifiers": [],
         "target": 5, "outcome": "rallied"},
        {"turn": 2, "phase": "attacker move", "kind": "assault", "dice": [1, 6], "by": "attacker",
         "attackers": ["a.rifle_squad.1"], "defenders": ["d.rifle_squad.1"],
         "rolls": [{"attacker": 1, "defender": 6}], "modifiers": {}, "totals": {},
         "outcome": "defender wins", "winner": "defender", "removed": ["a.rifle_squad.1"]},
        {"turn": 2, "phase": "end", "kind": "end", "dice": [], "winner": "defender",
         "reason": "a_third_lost", "lost": {}, "present": {}},
    ]  # fmt: skip
    frames = battleview.replay_frames(log)
    assert [(f["turn"], f["phase"]) for f in frames] == [
        (0, "deployment"),
        (1, "defender fire"),
        (1, "rally"),
        (2, "attacker move"),
        (2, "end"),
    ]
    assert frames[0]["hidden"] == ["d.sniper.1"] and frames[1]["hidden"] == []
    assert frames[1]["status"] == {"a.rifle_squad.1": "suppressed"}
    assert frames[2]["status"] == {}
    assert frames[3]["killed"] == ["a.rifle_squad.1"] and frames[3]["lost"] == ["a.rifle_squad.1"]
    assert frames[4]["killed"] == [] and frames[4]["lost"] == ["a.rifle_squad.1"]


def test_replay_follows_combat_events_that_bring_stands_back() -> None:
    log = [
        {"turn": 0, "phase": "deployment", "kind": "deploy", "dice": [], "hidden": [],
         "positions": {"a.rifle_squad.1": [6, 30], "a.commander.1": [10, 30]}},
        {"turn": 1, "phase": "defender fire", "kind": "combat_event", "dice": [3],
         "table": "Combat Event Table", "effect": "x", "text": "",
         "outcome": "a.rifle_squad.1 is killed (already suppressed)",
         "stand": "a.rifle_squad.1", "becomes": "killed"},
        {"turn": 1, "phase": "defender fire", "kind": "combat_event", "dice": [5],
         "table": "Japanese Event Table", "effect": "return_lost_squad", "text": "",
         "outcome": "a.rifle_squad.1 rejoins at 10,32",
         "stand": "a.rifle_squad.1", "becomes": "ok", "to": [10, 32], "hidden": False},
        {"turn": 1, "phase": "defender fire", "kind": "combat_event", "dice": [1],
         "table": "Japanese Event Table", "effect": "sniper_appears", "text": "",
         "outcome": "a.sniper.1 appears, hidden, at 14,20",
         "stand": "a.sniper.1", "becomes": "ok", "to": [14, 20], "hidden": True},
        {"turn": 1, "phase": "defender fire", "kind": "combat_event", "dice": [2],
         "table": "Combat Event Table", "effect": "x", "text": "",
         "outcome": "a.commander.1 is killed, say the words alone"},
    ]  # fmt: skip
    last = battleview.replay_frames(log)[-1]
    # The replay reads the structured fields, never the words.
    assert "a.commander.1" not in last["lost"]
    assert last["lost"] == []
    assert last["positions"]["a.rifle_squad.1"] == [10, 32]
    assert last["positions"]["a.sniper.1"] == [14, 20] and last["hidden"] == ["a.sniper.1"]


def test_a_battle_without_a_deploy_record_has_no_frames() -> None:
    assert battleview.replay_frames([]) == []
    table = battleview.Table(3, 3, [], "log")
    assert battleview.counters([], [], table) == []


def test_counters_start_where_the_first_frame_puts_them(played: Any) -> None:
    battle = fought(played)[0]
    frames = battleview.replay_frames(battle.log)
    forces = battleview.forces_of(battle.spec, battle.result, side_names=SIDE_NAMES)
    table = battleview.table_of(battle.spec, battle.seed, battle.log, battle.result)
    drawn = battleview.counters(frames, forces, table)
    assert {c.id for c in drawn} == set(frames[0]["positions"])
    for c in drawn:
        x, y = frames[0]["positions"][c.id]
        assert (c.x, c.y) == (x, 36 - y)
        assert c.side == ("japanese" if c.force == "attacker" else "australian")


def test_a_counter_on_the_tables_edge_is_drawn_wholly_on_the_table(played: Any) -> None:
    """The engines put stands on the very edge (an edge entry, a move stopped by it): a
    counter centred there hung half off the table, over the inch marks. It is drawn just
    inside; the frames keep the true position, and a counter clear of the edges is drawn
    where it stands."""
    battle = fought(played)[0]
    log = copy.deepcopy(battle.log)
    deploy = next(r for r in log if r["kind"] == "deploy")
    edges = [[0, 0], [36, 36], [0, 36], [36, 0], [18, 0], [0, 18], [35, 1]]
    moved = dict(zip(deploy["positions"], edges, strict=False))
    deploy["positions"].update(moved)
    table = battleview.table_of(battle.spec, battle.seed, log, battle.result)
    frames = battleview.replay_frames(log, table=table)
    forces = battleview.forces_of(battle.spec, battle.result, side_names=SIDE_NAMES)
    reach = battleview.COUNTER_REACH
    assert reach >= 1.2 + 0.7 / 2  # a counter's radius and half its widest outline
    drawn = battleview.counters(frames, forces, table)
    for c in drawn:
        assert frames[0]["positions"][c.id] == deploy["positions"][c.id]  # the truth kept
        assert reach <= c.drawn_x <= table.width_in - reach, c
        assert reach <= c.drawn_y <= table.depth_in - reach, c
        alone = all(  # no other counter close enough to be drawn apart from it
            math.dist(table.drawn_at(c.x, c.y), table.drawn_at(o.x, o.y)) >= battleview.COUNTER_GAP
            for o in drawn
            if o != c
        )
        inside = reach <= c.x <= table.width_in - reach and reach <= c.y <= table.depth_in - reach
        if inside and alone:
            assert (c.drawn_x, c.drawn_y) == (c.x, c.y)
        # Never drawn in another square than the one it stands in.
        assert int(min(c.x, 35.9) // 12) == int(c.drawn_x // 12)
        assert int(min(c.y, 35.9) // 12) == int(c.drawn_y // 12)
    corner = next(c for c in battleview.counters(frames, forces, table) if c.x == 0 and c.y == 36)
    assert (corner.drawn_x, corner.drawn_y) == (reach, 36 - reach)


def test_stands_on_one_inch_are_drawn_side_by_side_in_their_square() -> None:
    """Two stands on one inch were one counter, the other hidden under it, and a stand an
    inch from another hid most of its name: counters closer than ``COUNTER_GAP`` across
    and down are drawn apart, in their own square. A lost stand on a living one's spot
    is drawn aside, as near where it fell as is free, its mark written; one alone is
    drawn where it stands."""
    table = battleview.Table(3, 3, [], "log")
    positions = {
        "a.rifle_squad.1": [18, 30],
        "a.rifle_squad.2": [18, 30],  # on the same inch
        "a.hmg.1": [19, 30],  # an inch away
        "a.commander.1": [18, 31],  # lost there
        "d.rifle_squad.1": [6, 6],  # alone
        "d.rifle_squad.2": [12, 18],  # two on the line between A2 and B2: in B2
        "d.rifle_squad.3": [12, 18],
    }
    drawn = table.drawn_apart(positions, lost=["a.commander.1"])
    assert drawn["d.rifle_squad.1"] == [6, 30]
    assert drawn["a.commander.1"] != [18, 5]
    assert table.unmarked(drawn, ["a.commander.1"]) == []
    # Apart enough that none covers any of another (a counter is 2.4 across).
    together = ["a.rifle_squad.1", "a.rifle_squad.2", "a.hmg.1", "a.commander.1"]
    for first, second in ((0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)):
        assert apart(drawn[together[first]], drawn[together[second]]) >= 2.4
    for stand, (x, y) in positions.items():
        where = drawn[stand]
        assert math.dist(where, (x, 36 - y)) <= 2 * battleview.COUNTER_GAP, stand
        assert battleview.square_of((where[0], 36 - where[1]), table) == battleview.square_of(
            (x, y), table
        ), stand
    # On the line, they part into their own square only.
    on_line = drawn["d.rifle_squad.2"], drawn["d.rifle_squad.3"]
    assert min(x for x, _ in on_line) == 12 and apart(*on_line) >= 2.4


def apart(a: list[float], b: list[float]) -> float:
    """How far apart two counters' centres are, across or down, whichever is more: two
    counters 2.4 across touch when it is less."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def test_a_tight_cluster_of_stands_is_drawn_with_no_counter_on_another() -> None:
    """A walk-through: in a melee of a dozen stands within three inches of one another a
    few counters still overlapped a little (each moved at most 1.2 inches). Every
    counter of a stand still fighting is drawn clear of every other, in its square."""
    table = battleview.Table(3, 3, [], "log")
    cluster = [[17, 29], [18, 29], [18, 30], [19, 30], [18, 31], [17, 30]]
    positions = {f"a.rifle_squad.{i}": p for i, p in enumerate(cluster, start=1)}
    positions |= {f"d.rifle_squad.{i}": [x + 1, y] for i, (x, y) in enumerate(cluster, 1)}
    positions |= {"a.hmg.1": [13, 34], "a.commander.1": [13, 35], "d.hmg.1": [0, 36]}
    drawn = table.drawn_apart(positions)
    stands = sorted(drawn)
    for i, first in enumerate(stands):
        for second in stands[i + 1 :]:
            assert apart(drawn[first], drawn[second]) >= 2.4, (first, second)
    for stand, (x, y) in positions.items():
        assert battleview.square_of((drawn[stand][0], 36 - drawn[stand][1]), table) == (
            battleview.square_of((x, y), table)
        ), stand


def test_every_step_of_a_replay_says_where_its_counters_are_drawn(played: Any) -> None:
    """The frames keep the engine's positions; ``drawn`` is the picture's (replay.js
    reads it), and no two counters of stands still fighting are drawn on one point."""
    for battle in fought(played):
        table = battleview.table_of(battle.spec, battle.seed, battle.log, battle.result)
        frames = battleview.replay_frames(battle.log, table=table)
        assert frames == [
            {
                **truth,
                "drawn": frame["drawn"],
                "labels": frame["labels"],
                "unmarked": frame["unmarked"],
            }  # fmt: skip
            for truth, frame in zip(battleview.replay_frames(battle.log), frames, strict=True)
        ]
        for frame in frames:
            assert frame["drawn"].keys() == frame["positions"].keys()
            living = [p for s, p in frame["drawn"].items() if s not in frame["lost"]]
            assert len({tuple(p) for p in living}) == len(living)


def test_log_turns_group_the_log_turn_by_turn_and_phase_by_phase(played: Any) -> None:
    battle = fought(played)[0]
    turns = battleview.log_turns(battle.log)
    assert turns[0].title == "Set-up"
    assert [t.number for t in turns] == sorted({r["turn"] for r in battle.log})
    assert sum(len(p.lines) for t in turns for p in t.phases) == len(battle.log)
    fire = next(line for t in turns for p in t.phases for line in p.lines if line.kind == "fire")
    assert fire.text.startswith(("attacker", "defender")) and " fires at " in fire.text


def test_forces_of_a_pending_battle_have_no_losses_and_list_the_cup() -> None:
    spec = {
        "attacker": {"side": "japanese", "name": "1st Company and 2nd Company",
                     "quality": "veteran", "stands": {"commander": 1, "rifle_squad": 9},
                     "reinforcements": {"rifle_squad": 4}},
        "defender": {"side": "australian", "name": "A Company", "quality": "trained",
                     "stands": {"rifle_squad": 9}, "sniper": True},
    }  # fmt: skip
    attacker, defender = battleview.forces_of(spec, None, side_names=SIDE_NAMES)
    assert attacker.lost is None and attacker.present == 14
    assert [(s.label, s.present, s.reinforcements) for s in attacker.stands] == [
        ("Commander", 1, 0),
        ("Rifle squad", 9, 4),
    ]
    assert defender.sniper == "one rifle squad fights as a sniper" and defender.won is None
    assert battleview.outcome_words(None, [attacker, defender]) == "Not fought yet."


@pytest.mark.parametrize("reason", ["losses", "entered"])
def test_a_cup_reinforcement_is_counted_once_in_the_forces(reason: str) -> None:
    """Fought by the rules, the result's stands present count the cup's reinforcements
    (as the end of a battle counts them), and the table added them again: "11 + 2 in the
    cup" for 9 squads and 2 in the cup. A result entered from the table stores the spec's
    stands alone."""
    spec = {
        "attacker": {"side": "japanese", "name": "1st Company", "quality": "veteran",
                     "stands": {"rifle_squad": 9}, "reinforcements": {"rifle_squad": 2}},
        "defender": {"side": "australian", "name": "A Company", "quality": "trained",
                     "stands": {"rifle_squad": 9}},
    }  # fmt: skip
    counted = {"rifle_squad": 11} if reason == "losses" else {"rifle_squad": 9}
    result = {
        "winner": "defender",
        "reason": reason,
        "losses": {"attacker": {"rifle_squad": 4}, "defender": {"rifle_squad": 1}},
        "stands_present": {"attacker": counted, "defender": {"rifle_squad": 9}},
    }
    attacker, _ = battleview.forces_of(spec, result, side_names=SIDE_NAMES)
    assert [(s.present, s.reinforcements, s.lost, s.left) for s in attacker.stands] == [
        (9, 2, 4, 7)
    ]
    assert attacker.present == 11


# --- the sheet ------------------------------------------------------------------------


def sheet_spec(zone: int, **options: Any) -> dict[str, Any]:
    return {
        "area": {"name": "X", "zone": zone, "vegetation": "jungle", "plains": False},
        "attacker": {"side": "japanese", "name": "1st", "quality": "veteran", "stands": {}},
        "defender": {"side": "australian", "name": "A", "quality": "trained", "stands": {}},
        "support": {"buffalos": 3, "hurricane": False},
        "options": {"ruleset": "korona", **options},
    }


@pytest.mark.parametrize(
    ("zone", "japanese", "australian"),
    [
        (1, "none in zone 1", "heavy artillery (5 dice)"),
        (5, "none in zone 5", "none in zone 5"),
        (6, "heavy artillery (5 dice)", "strafing by 3 Buffalos (3 dice)"),
    ],
)
def test_support_available_by_zone_and_side(zone: int, japanese: str, australian: str) -> None:
    lines = {line.side: line for line in battleview.support_available(sheet_spec(zone), {})}
    assert lines["japanese"].missions[0].startswith(japanese)
    assert lines["australian"].missions[0].startswith(australian)
    assert lines["australian"].called_by == "the forward observer"
    assert lines["japanese"].called_by == "the commander"


def test_the_hurricane_bombs_instead_of_strafing() -> None:
    spec = sheet_spec(7)
    spec["support"] = {"buffalos": 0, "hurricane": True}
    lines = {line.side: line for line in battleview.support_available(spec, {})}
    assert lines["australian"].missions == ["the Hurricane-bomber's bombing (5 dice)"]
    spec["support"] = {"buffalos": 0, "hurricane": False}
    lines = {line.side: line for line in battleview.support_available(spec, {})}
    assert not lines["australian"].available and "no planes" in lines["australian"].missions[0]


def test_special_rules_follow_the_battles_options() -> None:
    table = {str(face): {"effect": "nothing", "text": f"entry {face}"} for face in range(1, 7)}
    spec = sheet_spec(
        5, turn_limit=8, impact_fuse=False, combat_events=True, combat_event_table=table
    )
    rules = dict(battleview.special_rules(spec))
    assert rules["Rule set"] == "Korona (WWII in the Pacific)"
    assert rules["Turn limit"].startswith("8 turns")
    assert rules["Impact fuse"] == (
        "off: the Japanese small mortars (knee mortars) fire as any other small mortar"
    )
    assert rules["Combat Events (Old Breed)"].startswith("on")
    assert "1: entry 1" in rules["Combat Event Table"]
    assert rules["Fog of War cup (Old Breed)"] == "off"
    plain = dict(battleview.special_rules(sheet_spec(5)))
    assert plain["Impact fuse"].startswith("on") and plain["Turn limit"].startswith("12 turns")
    assert plain["Combat Events (Old Breed)"] == "off"


def test_the_sheets_event_tables_read_as_one_list() -> None:
    """The shipped entries end in a full stop: a walk-through read "1: Ammunition runs
    low: one of your weapon teams is suppressed.; 2: A weapon jams..."."""
    spec = sheet_spec(
        5,
        combat_events=True,
        combat_event_table=oldbreed.DEFAULT_COMBAT_EVENT_TABLE,
        japanese_event_table=oldbreed.DEFAULT_JAPANESE_EVENT_TABLE,
    )
    rules = dict(battleview.special_rules(spec))
    for name in ("Combat Event Table", "Japanese Event Table"):
        assert ".;" not in rules[name] and all(f"{face}: " in rules[name] for face in range(1, 7))
    assert rules["Combat Event Table"].startswith("1: Ammunition runs low: ")


def test_force_on_force_sheet_lists_its_own_options_and_no_support() -> None:
    spec = copy.deepcopy(sheet_spec(6))
    spec["options"] = {"ruleset": "force_on_force", "night": True}
    rules = dict(battleview.special_rules(spec))
    assert rules["Rule set"] == "Force on Force" and rules["Night"] == "on"
    assert "Impact fuse" not in rules
    assert rules["Combat Events (Old Breed)"] == "off"
    assert not any(line.available for line in battleview.support_available(spec, {}))


def test_force_on_force_sheet_describes_the_old_breed_options_in_force() -> None:
    spec = copy.deepcopy(sheet_spec(6))
    spec["options"] = {"ruleset": "force_on_force", "combat_events": True, "fog_of_war_cup": True}
    rules = dict(battleview.special_rules(spec))
    assert "1 on its first firepower die rolls d10" in rules["Combat Events (Old Breed)"]
    assert rules["Fog of War cup (Old Breed)"].startswith("on: reinforcements go into a cup")
    assert "Combat events" not in rules and "Fog of war cup" not in rules  # no raw keys


def test_set_up_positions_name_their_square_even_on_the_far_edge(played: Any) -> None:
    battle = fought(played)[0]
    table = battleview.table_of(battle.spec, battle.seed, battle.log)
    log = [
        {"turn": 0, "phase": "deployment", "kind": "deploy", "dice": [], "hidden": [],
         "positions": {"a.rifle_squad.1": [36, 36], "d.commander.1": [0, 0],
                       "d.rifle_squad.1": [13, 25]}},
    ]  # fmt: skip
    positions = battleview.deploy_positions(log, table)
    assert [p["square"] for p in positions["attacker"]] == ["C3"]
    assert [(p["mark"], p["square"]) for p in positions["defender"]] == [("C", "A1"), ("R1", "B3")]


# --- the defender's sniper, as it went ---------------------------------------------------


def sniper_battle(vegetation: str, seed: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """The demo battle with the defender choosing a sniper, fought by the rules: in a
    clearing there are no woods to hide in and the swap is not made."""
    import json
    from pathlib import Path

    from rules import rulesets
    from rules.spec import parse_battle

    spec = json.loads(Path("fixtures/battles/korona-turn1.json").read_text())
    spec["area"]["vegetation"] = vegetation
    spec["defender"]["sniper"] = True
    result = dict(rulesets.resolve_battle(parse_battle(spec), seed))
    return spec, result


def forces_html(forces: list[battleview.ForceView]) -> str:
    html = render_to_string("battles/_forces.html", {"forces": forces, "campaign": None})
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_sniper_swap_refused_at_the_set_up_is_not_reported_as_a_sniper() -> None:
    """The walk-through's battle: the defender chose the sniper, the set-up found no woods
    to hide it in, and the Forces summary still said a squad fought as a sniper."""
    spec, result = sniper_battle("clearing")
    log = result.pop("log")
    assert any(r["kind"] == "sniper" for r in log)  # "the swap is not made"
    forces = battleview.forces_of(spec, result, side_names=SIDE_NAMES, log=log)
    defender = forces[1]
    assert "fights as a sniper" not in defender.sniper
    assert "not fielded" in defender.sniper and "fought as a rifle squad" in defender.sniper
    assert "sniper" not in [line.unit_type for line in defender.stands]
    page = forces_html(forces)
    assert "fights as a sniper" not in page and "Sniper 1" not in page
    rules = dict(battleview.special_rules(spec, log))
    assert rules["Sniper"].startswith("none")


def test_a_fielded_sniper_is_a_row_of_its_own_once_fought() -> None:
    """The result counts the sniper among the rifle squads (the campaign's type); the
    report shows it on its own row, lost or not as the replay ends."""
    spec, result = sniper_battle("jungle")
    log = result.pop("log")
    frames = battleview.replay_frames(log)
    lost = frames[-1]["lost"]
    forces = battleview.forces_of(spec, result, side_names=SIDE_NAMES, log=log, lost_stands=lost)
    defender = forces[1]
    rows = {line.unit_type: line for line in defender.stands}
    assert rows["sniper"].present == 1
    assert rows["sniper"].lost == int(battleview.SWAPPED_SNIPER in lost)
    assert rows["rifle_squad"].present == result["stands_present"]["defender"]["rifle_squad"] - 1
    assert defender.present == sum(result["stands_present"]["defender"].values())
    assert defender.lost == sum(result["losses"]["defender"].values())
    assert "fought as a sniper" in defender.sniper
    assert "Sniper 1" in forces_html(forces)


def test_before_it_is_fought_the_sniper_is_the_choice_as_the_reader_may_read_it() -> None:
    spec, _ = sniper_battle("clearing")
    defender = battleview.forces_of(spec, None, side_names=SIDE_NAMES)[1]
    assert defender.sniper == "one rifle squad fights as a sniper"
    assert "sniper" not in [line.unit_type for line in defender.stands]
    hidden = {**spec, "defender": {k: v for k, v in spec["defender"].items() if k != "sniper"}}
    assert battleview.forces_of(hidden, None, side_names=SIDE_NAMES)[1].sniper == ""


# --- the log's words: no stand ids ---------------------------------------------------------


def test_a_move_to_assault_names_its_target_in_words() -> None:
    """The walk-through read "(assault d.rifle_squad.1, rough going)"."""
    move = {"turn": 2, "phase": "attacker move", "kind": "move", "dice": [], "side": "japanese",
            "stand": "a.rifle_squad.6", "from": [6, 20], "to": [6, 17], "going": "rough",
            "purpose": "assault d.rifle_squad.1"}  # fmt: skip
    assert battleview.line_of(move) == (
        "attacker rifle squad 6 moves 3 inches, within square A2 "
        "(to assault defender rifle squad 1, rough going)"
    )
    sniper = {**move, "purpose": "assault d.sniper.1", "going": "bad"}
    assert "(to assault defender sniper 1, bad going)" in battleview.line_of(sniper)
    assert "(advance, good going)" in battleview.line_of({**move, "purpose": "advance",
                                                           "going": "good"})  # fmt: skip


def test_the_last_line_says_which_side_lost_and_why() -> None:
    """ "the Japanese win (withdrew)" read as if the winners had withdrawn (a walk-through):
    the line names the side that withdrew, or lost a third, or the shares at the turn
    limit, from the record's fields."""
    sides = {"a": "Japanese", "d": "Australian"}
    end = {"turn": 1, "phase": "end", "kind": "end", "dice": [], "winner": "attacker",
           "reason": "withdrew", "lost": {"attacker": 0, "defender": 0},
           "present": {"attacker": 28, "defender": 8}}  # fmt: skip
    assert battleview.line_of(end, None, sides) == "The Japanese win: the Australians withdrew"
    third = {**end, "winner": "defender", "reason": "a_third_lost",
             "lost": {"attacker": 4, "defender": 1},
             "present": {"attacker": 12, "defender": 24}}  # fmt: skip
    assert battleview.line_of(third, None, sides) == (
        "The Australians win: the Japanese lost a third or more of their stands (4 of 12)"
    )
    clock = {**third, "reason": "turn_limit", "lost": {"attacker": 3, "defender": 2}}
    assert battleview.line_of(clock, None, sides) == (
        "The Australians win at the turn limit: they lost the smaller share of their stands "
        "(2 of 24; the Japanese 3 of 12)"
    )
    tie = {**clock, "present": {"attacker": 12, "defender": 8}}
    assert "both lost the same share of their stands, and a tie goes to the defender" in (
        battleview.line_of(tie, None, sides)
    )
    # Without the battle's sides (a spec that names none) the rules' own words.
    assert battleview.line_of(end) == "attacker wins (withdrew)"


def test_a_force_on_force_battles_last_line_counts_units() -> None:
    """Force on Force's pieces are units (its ``fit_to_fight`` and its third lost count
    them): its battle's last line says so, on the report and in the replay."""
    sides = {"a": "Japanese", "d": "Australian"}
    third = {"turn": 2, "phase": "end", "kind": "end", "dice": [], "winner": "defender",
             "reason": "a_third_lost", "lost": {"attacker": 4, "defender": 1},
             "present": {"attacker": 12, "defender": 24}}  # fmt: skip
    (turn,) = battleview.log_turns([third], None, sides, ruleset="force_on_force")
    assert turn.phases[0].lines[0].text == (
        "The Australians win: the Japanese lost a third or more of their units (4 of 12)"
    )
    clock = {**third, "reason": "turn_limit", "lost": {"attacker": 3, "defender": 2}}
    assert battleview.line_of(clock, None, sides, "unit") == (
        "The Australians win at the turn limit: they lost the smaller share of their units "
        "(2 of 24; the Japanese 3 of 12)"
    )
    (korona,) = battleview.log_turns([third], None, sides, ruleset="korona")
    assert "a third or more of their stands (4 of 12)" in korona.phases[0].lines[0].text
    # The outcome above the log, too: the result names its rule set.
    companies = {"attacker": [("1st Company", None)], "defender": [("A Company", 1)]}
    spec = {
        "attacker": {"side": "japanese", "name": "1st Company", "quality": "veteran",
                     "stands": {"rifle_squad": 9}},
        "defender": {"side": "australian", "name": "A Company", "quality": "trained",
                     "stands": {"rifle_squad": 9}},
    }  # fmt: skip
    result = {"winner": "defender", "reason": "a_third_lost", "losses": {},
              "ruleset": "force_on_force"}  # fmt: skip
    forces = battleview.forces_of(spec, result, side_names=SIDE_NAMES, companies=companies)
    assert battleview.outcome_words(result, forces).endswith(
        ": the Japanese lost a third or more of their units."
    )
    # With the result's counts, the loser's share as the forces' table gives it.
    counted = {**result, "losses": {"attacker": {"rifle_squad": 5}, "defender": {}},
               "stands_present": {"attacker": {"rifle_squad": 12}, "defender": {}}}  # fmt: skip
    forces = battleview.forces_of(spec, counted, side_names=SIDE_NAMES, companies=companies)
    assert battleview.outcome_words(counted, forces).endswith(
        ": the Japanese lost a third or more of their units (5 of 12)."
    )


def test_an_assault_by_one_stand_assaults() -> None:
    record = {"turn": 2, "phase": "attacker move", "kind": "assault", "dice": [4, 2],
              "side": "japanese", "by": "attacker", "attackers": ["a.rifle_squad.6"],
              "defenders": ["d.rifle_squad.1"], "rolls": [{"attacker": 4, "defender": 2}],
              "modifiers": {"attacker": [], "defender": []},
              "totals": {"attacker": 4, "defender": 2}, "outcome": "attacker wins",
              "winner": "attacker", "removed": ["d.rifle_squad.1"]}  # fmt: skip
    words = battleview.line_of(record)
    assert words.startswith("attacker rifle squad 6 assaults defender rifle squad 1: rolls 4 v 2")
    both = {**record, "attackers": ["a.rifle_squad.6", "a.rifle_squad.7"]}
    assert battleview.line_of(both).startswith(
        "attacker rifle squad 6, attacker rifle squad 7 assault defender rifle squad 1:"
    )


def test_no_log_line_of_a_fought_battle_shows_a_stand_id(played: Any) -> None:
    _, result = sniper_battle("jungle", seed=4)
    logs = [battle.log for battle in fought(played)] + [result["log"]]
    moved_to_assault = 0
    for log in logs:
        for turn in battleview.log_turns(log):
            for line in (line for phase in turn.phases for line in phase.lines):
                assert not re.search(r"\b[ad]\.[a-z_]+\.\d", line.text), line.text
                moved_to_assault += "(to assault " in line.text
    assert moved_to_assault


def test_the_outcome_names_the_winners_without_brackets_in_brackets() -> None:
    """The walk-through read "The defender (Australians, A Company and B Company and C
    Company (militia)) wins"."""
    spec = {
        "attacker": {"side": "japanese", "name": "1st Company", "quality": "veteran",
                     "stands": {"rifle_squad": 9}},
        "defender": {"side": "australian", "quality": "trained", "stands": {"rifle_squad": 27},
                     "name": "A Company and B Company and C Company (militia)"},
    }  # fmt: skip
    companies = {
        "attacker": [("1st Company", None)],
        "defender": [("A Company", 1), ("B Company", 2), ("C Company (militia)", 3)],
    }
    result = {"winner": "defender", "reason": "a_third_lost", "losses": {}}
    forces = battleview.forces_of(spec, result, side_names=SIDE_NAMES, companies=companies)
    assert battleview.outcome_words(result, forces) == (
        "The Australians' A Company, B Company and C Company (militia), defending, win: "
        "the Japanese lost a third or more of their stands."
    )
    won = {**result, "winner": "attacker", "reason": "withdrew"}
    assert battleview.outcome_words(won, forces) == (
        "The Japanese 1st Company, attacking, wins: the Australians withdrew."
    )
    # Why, from the result's field: the report's readers are the two sides that fought.
    assert battleview.outcome_words({**won, "withdrawal": "hopeless"}, forces) == (
        "The Japanese 1st Company, attacking, wins: the Australians withdrew from a hopeless "
        "position: they faced more than three times their fighting strength, or had none "
        "left fit to fight."
    )
    # Which of the two, with the strengths then, when the result has them.
    hopeless = {**won, "withdrawal": "hopeless", "fit_to_fight": [2, 9]}
    assert battleview.outcome_words(hopeless, forces) == (
        "The Japanese 1st Company, attacking, wins: the Australians withdrew from a hopeless "
        "position: they had 2 stands fit to fight against 9, more than three times as many."
    )
    alone = battleview.forces_of(spec, result, side_names=SIDE_NAMES)  # no company rows
    assert battleview.outcome_words(result, alone).startswith(
        "The Australians' A Company and B Company and C Company (militia), defending, win:"
    )


def crowd(count: int, around: tuple[int, int], force: str = "a") -> dict[str, list[int]]:
    """``count`` stands within two inches of ``around``, as a melee or a crowded set-up
    leaves them (several on one inch)."""
    x, y = around
    return {
        f"{force}.rifle_squad.{i}": [x + (i * 7) % 5 - 2, y + (i * 3) % 5 - 2]
        for i in range(1, count + 1)
    }


def drawn_square(table: Any, at: list[float]) -> str:
    return battleview.square_of((at[0], table.depth_in - at[1]), table)


@pytest.mark.parametrize(
    ("count", "around"),
    [(14, (18, 18)), (16, (18, 18)), (20, (18, 18)), (30, (18, 18)), (18, (2, 2)),
     (25, (34, 34)), (40, (6, 30))],
)  # fmt: skip
def test_a_crowded_square_keeps_every_counter_in_it_shrunk_to_fit(
    count: int, around: tuple[int, int]
) -> None:
    """A walk-through: 14 stands or more in one square left no free spot, and a counter
    was drawn outside its square, where it read as standing in the next. Every counter
    of a stand still fighting is drawn wholly inside its own square; a square too crowded
    for full-size counters draws all of its counters smaller, in a grid, none on another,
    and no smaller than it must."""
    table = battleview.Table(3, 3, [], "log")
    positions = crowd(count, around) | crowd(3, (30, 6), "d")
    drawn = table.drawn_apart(positions)
    for stand, (x, y) in positions.items():
        at = drawn[stand]
        assert drawn_square(table, at) == battleview.square_of((x, y), table), (stand, at)
        scale = at[2] if len(at) > 2 else 1
        reach = battleview.COUNTER_REACH * scale - 0.01  # rounded to a hundredth
        left, top = at[0] // 12 * 12, at[1] // 12 * 12
        if scale < 1:  # a crowded square's grid: every counter wholly inside
            assert left + reach <= at[0] <= left + 12 - reach, (stand, at)
            assert top + reach <= at[1] <= top + 12 - reach, (stand, at)
    stands = sorted(drawn)
    for i, first in enumerate(stands):
        for second in stands[i + 1 :]:
            scale = min(len(drawn[first]) > 2 and drawn[first][2] or 1,
                        len(drawn[second]) > 2 and drawn[second][2] or 1)  # fmt: skip
            assert apart(drawn[first], drawn[second]) >= 2.4 * scale, (first, second)
    scales = {at[2] for at in drawn.values() if len(at) > 2}
    assert all(s >= 0.6 for s in scales)  # the marks still read
    if count <= 16:  # 4 by 4 fit at full size, wholly inside their square
        assert not scales


def test_a_crowded_step_draws_its_counters_smaller_on_the_page(played: Any) -> None:
    """The server's first frame draws a crowded square's counters at their scale, as
    replay.js does at each step (``frame["drawn"]``' third number)."""
    battle = fought(played)[0]
    log = copy.deepcopy(battle.log)
    deploy = next(r for r in log if r["kind"] == "deploy")
    stands = sorted(deploy["positions"])[:20]
    deploy["positions"].update(dict(zip(stands, crowd(20, (18, 18)).values(), strict=True)))
    table = battleview.table_of(battle.spec, battle.seed, log, battle.result)
    frames = battleview.replay_frames(log, table=table)
    forces = battleview.forces_of(battle.spec, battle.result, side_names=SIDE_NAMES)
    drawn = {c.id: c for c in battleview.counters(frames, forces, table)}
    for stand in stands:
        at = frames[0]["drawn"][stand]
        assert len(at) == 3 and at[2] < 1, at
        assert (drawn[stand].drawn_x, drawn[stand].drawn_y, drawn[stand].scale) == tuple(at)


def test_a_squares_going_is_written_beneath_its_own_name(played: Any) -> None:
    """A walk-through: a going written at the bottom of its square ("rough") sat just
    above the next square's name and read as that square's. At every step of real
    battles a square's going is written right beneath its own name, on the same side,
    inside its square (or, where no room is left beneath the name, not at all: the
    square's title and the sheet say it), never nearer another square's name."""
    pairs = 0
    for battle in fought(played)[:3]:
        table = battleview.table_of(battle.spec, battle.seed, battle.log, battle.result)
        frames = battleview.replay_frames(battle.log, table=table)
        for frame in [frames[0], frames[len(frames) // 2], frames[-1]]:
            labels = table.labels(frame["drawn"])
            names = [label for label in labels if label.kind == "cell-label"]
            for name, going in zip(labels[::2], labels[1::2], strict=True):
                if not going.shown:
                    continue
                assert name.shown and going.anchor == name.anchor and going.x == name.x
                below = going.y - name.y
                assert 1.25 <= below <= 1.7, (name.text, going.text, below)
                assert going.y + 1.05 <= going.corner_y + 12 - 0.3  # inside its square
                others = [n for n in names if n is not name and n.shown and n.x == name.x]
                assert all(abs(going.y - n.y) > below for n in others), going.text
                pairs += 1
    assert pairs > 20


def test_a_wooded_squares_trees_leave_room_for_its_name_and_going() -> None:
    """Each tree is drawn whole, one a tile as the key's patterns, and none where its
    square's name or going is written (a walk-through read the names over the trees)."""
    squares = [
        battleview.SquareView(0, 0, "flat", "heavy_woods", "bad", (3, 4, 6), 24),
        battleview.SquareView(1, 0, "hill", "light_woods", "rough", (5, 4, 2), 24),
        battleview.SquareView(0, 1, "flat", "none", "good", (2, 2), 24),
    ]
    table = battleview.Table(2, 2, squares, "log")
    labels = table.labels()
    woods = table.woods_among(labels)
    assert [(w.square, w.kind, len(w.trees)) for w in woods] == [
        ("A1", "woods-heavy", 25),
        ("B1", "woods-light", 9),
    ]
    for square, w in zip(squares, woods, strict=False):
        written = [
            battleview._label_box(label)
            for label in labels
            if (label.corner_x, label.corner_y) == (square.x, square.y) and label.shown
        ]
        assert len(written) == 2  # its name and its going
        for tree in w.trees:
            box = tuple(float(v) for v in tree.box.split())
            assert tree.shown is not any(battleview._meet(box, b) for b in written)
        assert 0 < sum(not tree.shown for tree in w.trees) < len(w.trees) / 2
    # The sheet's picture: the same, with no counters.
    assert table.woods == woods


def _label(text: str, *, shown: bool, kind: str = "cell-label") -> battleview.SquareLabel:
    return battleview.SquareLabel(kind, text, 0, 0, 0.4, 0.45, "start", shown)


def test_a_square_left_off_the_picture_is_said_in_words_whole() -> None:
    """The replay leaves a square's name or going off the picture where stands leave no
    room (a reader took B3's missing going for covered): said under it, name and going."""
    labels = [
        _label("A3 hill", shown=True),
        _label("good", shown=True, kind="cell-going"),
        _label("B3 flat", shown=True),
        _label("rough, light woods", shown=False, kind="cell-going"),
        _label("C1 hill", shown=False),
        _label("rough", shown=False, kind="cell-going"),
    ]
    assert battleview.unwritten_words(labels) == (
        "Covered by stands at this step: B3 flat – rough, light woods; C1 hill – rough."
    )
    assert battleview.unwritten_words(labels[:2]) == ""


@pytest.mark.parametrize("seed", range(12))
def test_every_counters_mark_in_a_replay_reads_clear_of_every_other(seed: int) -> None:
    """A walk-through: at the replay's last step the lost stands, drawn faded where they
    fell, lay under the living and under one another, and their marks ran together
    ("R18" beside two "R13" overprinted; "R11" over two lost stands' letters). At every
    step of the demo battle, a counter whose mark is written (the living, and a lost
    stand not in the frame's ``unmarked``) is drawn clear of every other such counter,
    and a lost one's (drawn beneath the living) clear of every counter at all."""
    import json
    from pathlib import Path

    from rules import rulesets
    from rules.spec import parse_battle

    spec = json.loads(Path("fixtures/battles/korona-turn1.json").read_text())
    result = dict(rulesets.resolve_battle(parse_battle(spec), seed))
    table = battleview.table_of(spec, seed, result["log"], result)
    frames = battleview.replay_frames(result["log"], table=table)
    assert frames[-1]["lost"]
    for frame in frames:
        drawn = frame["drawn"]
        unmarked = set(frame.get("unmarked", ()))
        assert unmarked <= set(frame["lost"])
        marked = sorted(stand for stand in drawn if stand not in unmarked)
        for stand in marked:
            for other in drawn:
                if other == stand or (other in unmarked and stand not in frame["lost"]):
                    continue
                scale = min(drawn[stand][2:3] or [1], drawn[other][2:3] or [1])[0]
                assert apart(drawn[stand], drawn[other]) >= 2.4 * scale, (
                    frame["step"],
                    stand,
                    other,
                )


def test_a_lost_stand_with_no_room_in_its_square_is_drawn_without_its_mark() -> None:
    """A square full of living counters leaves a lost one no free spot: it stays where it
    fell, beneath them, and its mark is left out rather than peek out beside theirs."""
    table = battleview.Table(3, 3, [], "log")
    positions = crowd(25, (18, 18)) | {"d.rifle_squad.1": [18, 18], "d.rifle_squad.2": [6, 6]}
    lost = ["d.rifle_squad.1", "d.rifle_squad.2"]
    drawn = table.drawn_apart(positions, lost)
    assert drawn["d.rifle_squad.1"] == [18, 18]
    assert table.unmarked(drawn, lost) == ["d.rifle_squad.1"]
