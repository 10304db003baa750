"""The Korona battle as a whole: determinism, a complete log, the end conditions, and the
rules re-checked against every record of many whole battles (``audit``)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from math import hypot
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules.korona.engine as engine
from rules.battlefield import Battlefield, Sight
from rules.dice import Roller
from rules.ending import BattleOver
from rules.kernel import battle
from rules.korona.engine import _fire_phase, check_options, resolve
from rules.korona.fire import EFFECT_NAMES, INDIRECT_FIRE, effect_of_hits, in_range
from rules.korona.state import CONTACT_IN, OK, PINNED, SUPPRESSED
from rules.korona.support import SUPPORT_ZONES
from rules.spec import BattleSpec
from rules.units import MOVEMENT, RALLY_TARGET, UNIT_TYPES, Quality
from tests.rules.conftest import (
    VARIANTS,
    deadline,
    korona_turn1,
    make_spec,
    make_state,
    open_table,
    place,
    stand,
)

PHASES = ["attacker move", "defender fire", "defender move", "attacker fire", "rally"]
RALLY = PHASES.index("rally")
REASONS = {"a_third_lost", "turn_limit", "withdrew"}
GOING_INDEX = {"good": 0, "rough": 1, "bad": 2}
STATUS = {"ok": OK, "pinned": PINNED, "suppressed": SUPPRESSED}


def fight(spec: BattleSpec, seed: int) -> dict[str, Any]:
    with deadline(10, f"the battle with seed {seed}"):
        return resolve(spec, seed)


# --- the audit: every record of a battle against the rules ------------------------------


class _Replay:
    """The battle rebuilt from its log alone: positions, states, who moved when."""

    def __init__(self, result: dict[str, Any]) -> None:
        self.types = {s["id"]: s["type"] for s in result["stands"]}
        self.force_of = {s["id"]: s["force"] for s in result["stands"]}
        self.counts_as = {s["id"]: s["counts_as"] for s in result["stands"]}
        self.alive = dict.fromkeys(self.types, True)
        self.status = dict.fromkeys(self.types, OK)
        self.position: dict[str, tuple[int, int]] = {}
        self.hidden: set[str] = set()
        # (turn, stand) for every stand that moved or limbered in that turn.
        self.moved: set[tuple[int, str]] = set()
        # (turn, stand) for every heavy or man-packed weapon that fired, and every caller.
        self.fired: set[tuple[int, str]] = set()
        self.field = Battlefield.from_json(
            result["terrain"], width_ft=len(result["terrain"][0]), depth_ft=len(result["terrain"])
        )

    def distance(self, a: str, b: str) -> float:
        (ax, ay), (bx, by) = self.position[a], self.position[b]
        return hypot(ax - bx, ay - by)

    def friends_near(self, stand_id: str) -> list[str]:
        """Living stands of the same force within 2" of this one."""
        return [
            other
            for other, alive in self.alive.items()
            if alive
            and other != stand_id
            and self.force_of[other] == self.force_of[stand_id]
            and self.distance(other, stand_id) <= 2
        ]

    def needs_command_roll(self, stand_id: str) -> bool:
        """More than 6" from a living commander, or with none; a commander never rolls."""
        if self.types[stand_id] == "commander":
            return False
        commander = self.commander_of(self.force_of[stand_id])
        return (
            commander is None or not self.alive[commander] or self.distance(commander, stand_id) > 6
        )

    def commander_of(self, key: str) -> str | None:
        return next(
            (s for s, t in self.types.items() if t == "commander" and self.force_of[s] == key), None
        )

    def assault_modifiers(
        self, key: str, fighting: list[str], quality: Quality
    ) -> list[dict[str, Any]]:
        """The text's assault modifiers for a side fighting with ``fighting`` (first leads)."""
        lead = UNIT_TYPES[self.types[fighting[0]]]
        mods = []
        if lead.crew_served:
            mods.append({"reason": "crew served weapon", "value": -2})
        if quality is not Quality.TRAINED:
            mods.append(
                {"reason": f"{quality} troops", "value": -1 if quality is Quality.RAW else 1}
            )
        if len(fighting) > 1:
            mods.append({"reason": "additional squads in contact", "value": len(fighting) - 1})
        commander = self.commander_of(key)
        if (
            commander is not None
            and commander not in fighting
            and self.alive[commander]  # pinned or suppressed, it supports (item 7)
            and any(self.distance(commander, s) <= 2 for s in fighting)
        ):
            mods.append({"reason": "commander adding support", "value": 1})
        if lead.armoured:
            mods.append({"reason": "tank", "value": 3})
        elif lead.move_class in ("wheeled", "tracked"):
            mods.append({"reason": "other vehicle", "value": 1})
        status = self.status[fighting[0]]
        if status != OK:
            mods.append(
                {"reason": "pinned" if status == PINNED else "suppressed", "value": -status}
            )
        return mods

    def enemies_in_contact(self) -> list[tuple[str, str]]:
        alive = [s for s, is_alive in self.alive.items() if is_alive]
        return [
            (a, d)
            for a in alive
            if self.force_of[a] == "attacker"
            for d in alive
            if self.force_of[d] == "defender" and self.distance(a, d) <= CONTACT_IN
        ]

    def apply(self, stand_id: str, effect: str) -> None:
        if effect == "killed":
            self.alive[stand_id] = False
        elif effect != "none":
            self.status[stand_id] = STATUS[effect]


def audit(result: dict[str, Any], spec: BattleSpec) -> list[str]:
    """Every way the log of ``result`` breaks a rule, as sentences (empty: none)."""
    faults: list[str] = []
    log = result["log"]
    replay = _Replay(result)
    forces = {"attacker": spec.attacker, "defender": spec.defender}
    options = {**engine.DEFAULT_OPTIONS, **spec.options}
    side_key = {spec.attacker.side: "attacker", spec.defender.side: "defender"}
    command_rolls: dict[tuple[int, str, str], list[str]] = defaultdict(list)
    missions: dict[tuple[int, str], int] = defaultdict(int)
    acted: set[tuple[int, str, str]] = set()  # (turn, phase, stand) that fired or called
    last_phase = (0, -1)
    should_rally: dict[int, set[str]] = {}
    rallied: dict[int, set[str]] = defaultdict(set)

    def fault(record: dict[str, Any], text: str) -> None:
        faults.append(f"T{record['turn']} {record['phase']} {record['kind']}: {text}")

    for index, record in enumerate(log):
        turn, phase, kind = record["turn"], record["phase"], record["kind"]
        following = log[index + 1] if index + 1 < len(log) else None
        order = None
        if phase in PHASES:
            order = (turn, PHASES.index(phase))
        elif kind == "end" and record["reason"] == "turn_limit":
            order = (turn + 1, 0)  # the last turn was played out, rally and all
        if order is not None:
            if order < last_phase:
                fault(record, f"out of order after {last_phase}")
            # Every stand pinned or suppressed when a rally phase begins rolls in it.
            for rally_turn in range(last_phase[0], order[0] + 1):
                rally_phase = (rally_turn, RALLY)
                if last_phase < rally_phase <= order:
                    should_rally[rally_turn] = {
                        s for s, alive in replay.alive.items() if alive and replay.status[s] != OK
                    }
                if last_phase <= rally_phase < order:
                    missing = should_rally.get(rally_turn, set()) - rallied[rally_turn]
                    if missing:
                        fault(record, f"no rally roll in turn {rally_turn} for {sorted(missing)}")
            last_phase = order
        if kind == "deploy":
            replay.position = {k: tuple(v) for k, v in record["positions"].items()}
            replay.hidden = set(record["hidden"])
        elif kind in ("move", "limber"):
            mover = record["stand"]
            key = replay.force_of[mover]
            if phase != f"{key} move":
                fault(record, f"{mover} moved outside its side's move phase")
            if not replay.alive[mover] or replay.status[mover] != OK:
                fault(record, f"{mover} moved while dead, pinned or suppressed")
            if "stays put" in command_rolls[(turn, phase, mover)]:
                fault(record, f"{mover} moved after failing its command roll")
            if (turn, mover) in replay.fired:
                fault(record, f"{mover} moved in a turn it fired (or called fire)")
            replay.moved.add((turn, mover))
            if kind == "move":
                needs_roll = replay.needs_command_roll(mover)
                if needs_roll and "moves" not in command_rolls[(turn, phase, mover)]:
                    fault(record, f'{mover} moved beyond 6" of its commander without a roll')
                if tuple(record["from"]) != replay.position[mover]:
                    fault(record, f"{mover} moved from {record['from']}, not where it stood")
                (fx, fy), (tx, ty) = record["from"], record["to"]
                unit = UNIT_TYPES[record["stand_type"]]
                allowance = MOVEMENT[unit.move_class][GOING_INDEX[record["going"]]]
                length = hypot(tx - fx, ty - fy)
                if allowance is None or length > allowance:
                    fault(record, f'{mover} moved {length:.2f}" in {record["going"]} going')
                if replay.field.going_along(fx, fy, tx, ty).value != record["going"]:
                    fault(record, f"{mover}'s going is not the worst going on its path")
                replay.position[mover] = (tx, ty)
        elif kind == "command":
            mover = record["stand"]
            if not replay.needs_command_roll(mover):
                fault(record, f'{mover} rolled for command within 6" of its commander')
            rolls = command_rolls[(turn, phase, mover)]
            if rolls:
                fault(record, f"{mover} rolled for command again this phase (had {rolls})")
            quality = forces[replay.force_of[mover]].quality
            target = {Quality.VETERAN: 3, Quality.TRAINED: 4, Quality.RAW: 5}[quality]
            passed = record["dice"][0] >= target
            if record["target"] != target or record["outcome"] != (
                "moves" if passed else "stays put"
            ):
                fault(record, f"command roll {record['dice']} against {record['target']}")
            rolls.append(record["outcome"])
        elif kind in ("fire", "support"):
            key = side_key[record["side"]]
            target = record["target"]
            if phase != f"{key} fire":
                fault(record, "fired outside its side's fire phase")
            if not replay.alive[target]:
                fault(record, f"shot at {target}, already dead")
            if target in replay.hidden:
                fault(record, f"shot at {target}, still hidden")
            if STATUS[record["status_before"]] != replay.status[target]:
                fault(record, f"{target} was {record['status_before']} by the log's account")
            if kind == "support":
                missions[(turn, phase)] += 1
                if missions[(turn, phase)] > 1:
                    fault(record, "a second fire mission in one fire phase")
                viewer = record["called_by"]
                wanted = "forward_observer" if record["side"] == "australian" else "commander"
                zones = SUPPORT_ZONES[record["side"]]
                allowed = zones["artillery"] if record["mission"] == "artillery" else zones["air"]
                if replay.types[viewer] != wanted or spec.area.zone not in allowed:
                    fault(
                        record, f"{record['mission']} called by {viewer} in zone {spec.area.zone}"
                    )
                if (turn, viewer) in replay.moved:
                    fault(record, f"{viewer} called a mission in a turn it moved")
            else:
                viewer = record["firer"]
                unit = UNIT_TYPES[record["firer_type"]]
                if replay.force_of[viewer] != key:
                    fault(record, f"{viewer} fired in the other side's phase")
                if record.get("indirect"):
                    # "No limit indirect": any range, seen by an unmoved, unsuppressed
                    # FO or commander of the firer's side.
                    spotter = record["spotted_by"]
                    if unit.name not in INDIRECT_FIRE:
                        fault(record, f"{viewer} fired indirectly")
                    if (
                        replay.force_of[spotter] != key
                        or replay.types[spotter] not in ("forward_observer", "commander")
                        or not replay.alive[spotter]
                        or replay.status[spotter] == SUPPRESSED
                        or (turn, spotter) in replay.moved
                        or (turn, phase, spotter) in acted
                    ):
                        fault(record, f"{spotter} may not spot for {viewer}")
                elif not in_range(unit, replay.distance(viewer, target)):
                    fault(record, f"{viewer} fired at {target} out of range")
                if unit.fires_only_unmoved and (turn, viewer) in replay.moved:
                    fault(record, f"{viewer} fired in a turn it moved")
                replay.hidden.discard(viewer)
            if not replay.alive[viewer] or replay.status[viewer] == SUPPRESSED:
                fault(record, f"{viewer} acted while dead or suppressed")
            if (turn, phase, viewer) in acted:
                fault(record, f"{viewer} fired or called fire twice in one fire phase")
            acted.add((turn, phase, viewer))
            if kind == "support" or UNIT_TYPES[replay.types[viewer]].fires_only_unmoved:
                replay.fired.add((turn, viewer))
            looker = record["spotted_by"] if record.get("indirect") else viewer
            (vx, vy), (gx, gy) = replay.position[looker], replay.position[target]
            sight = replay.field.sight(vx, vy, gx, gy, woods_between=True)
            if sight is Sight.BLOCKED:
                fault(record, f"{looker} cannot see {target}")
            elif (sight is Sight.OBSCURED) != record["obscured"]:
                fault(record, f"obscured is {record['obscured']}, sight says {sight}")
            if kind == "support":
                weapon_dice = {
                    "artillery": 5,
                    "bombing": 5,
                    "strafing": min(spec.support.buffalos, 3),
                }[record["mission"]]
            else:
                weapon_dice = UNIT_TYPES[record["firer_type"]].fire_dice
            if "armour" in record:
                armour = record["armour"]
                hit = armour["to_hit"] >= 4
                if record["dice"] != [armour["to_hit"], *armour["penetration"]] or (
                    len(armour["penetration"]) != (2 if hit else 0)
                ):
                    fault(record, f"armour dice {record['dice']} for {armour}")
                destroyed = (
                    hit and sum(armour["penetration"]) + armour["attack"] >= armour["defence"]
                )
                if record["effect"] != ("killed" if destroyed else "none"):
                    fault(record, f"armour {armour} gave {record['effect']}")
            else:
                if len(record["dice"]) != max(weapon_dice - record["obscured"], 0):
                    fault(record, f"{len(record['dice'])} dice, obscured {record['obscured']}")
                fused = (
                    kind == "fire"
                    and record["side"] == "japanese"
                    and record["firer_type"] == "small_mortar"
                    and replay.field.square_at(gx, gy).wooded
                    and options["impact_fuse"]
                )
                if bool(record.get("impact_fuse")) != fused:
                    fault(record, f"impact fuse {record.get('impact_fuse')}, the rules say {fused}")
                sniper = record["firer_type"] == "sniper"
                hits = sum(d >= (6 if sniper else 5) for d in record["dice"])
                if hits != record["hits"]:
                    fault(record, f"{record['dice']} is not {record['hits']} hits")
                if sniper:
                    expected = "killed" if hits else "none"
                else:
                    after = effect_of_hits(
                        replay.status[target], hits, pin_only=bool(record.get("impact_fuse"))
                    )
                    expected = "none" if hits == 0 else EFFECT_NAMES[after]
                if record["effect"] != expected:
                    fault(record, f"effect {record['effect']}, the rules say {expected}")
            if record["effect"] == "killed" and record["hits"] >= 4 and "armour" not in record:
                expected_blast = {
                    s
                    for s, alive in replay.alive.items()
                    if alive
                    and s != target
                    and not UNIT_TYPES[replay.types[s]].armoured
                    and replay.distance(s, target) <= 2
                }
                if record["firer_type"] == "sniper":
                    expected_blast = set()
                if {c["stand"] for c in record.get("blast", ())} != expected_blast:
                    fault(record, f"blast {record.get('blast')}, the rules say {expected_blast}")
            replay.apply(target, record["effect"])
            for caught in record.get("blast", ()):
                if caught["stand"] == target or replay.distance(caught["stand"], target) > 2:
                    fault(record, f"blast caught {caught['stand']}")
                replay.apply(caught["stand"], caught["effect"])
        elif kind == "caught":
            caught = record["stand"]
            if not UNIT_TYPES[replay.types[caught]].fragile_in_contact or replay.friends_near(
                caught
            ):
                fault(record, f"{caught} was caught, but is not a lone commander, sniper or FO")
            replay.alive[caught] = False
        elif kind == "assault":
            for attacker in record["attackers"]:
                if UNIT_TYPES[replay.types[attacker]].crew_served:
                    fault(record, f"{attacker}, a crew-served weapon, started an assault")
            for one, others in (("attackers", "defenders"), ("defenders", "attackers")):
                for member in record[one]:
                    if all(replay.distance(member, o) > CONTACT_IN for o in record[others]):
                        fault(record, f"{member} is in the assault without being in contact")
            for member in record["attackers"] + record["defenders"]:
                unit = UNIT_TYPES[replay.types[member]]
                if (
                    unit.fragile_in_contact
                    and replay.alive[member]
                    and not replay.friends_near(member)
                ):
                    fault(record, f'{member} fought in contact with no friend within 2"')
            assaulting = phase.split()[0]  # the force whose move phase it is
            if record["attackers"] and replay.force_of[record["attackers"][0]] != assaulting:
                fault(record, "the assault was made by the side that is not moving")
            if record["rolls"]:
                for key, members in ((assaulting, "attackers"), (None, "defenders")):
                    side = key or replay.force_of[record["defenders"][0]]
                    fighting = [m for m in record[members] if replay.alive[m]]
                    expected = replay.assault_modifiers(side, fighting, forces[side].quality)
                    if sorted(map(str, record["modifiers"][side])) != sorted(map(str, expected)):
                        fault(
                            record, f"{side} modifiers {record['modifiers'][side]}, not {expected}"
                        )
                # ``rolls``, ``modifiers`` and ``totals`` all name the sides by force.
                last = record["rolls"][-1]
                totals = record["totals"]
                for key in ("attacker", "defender"):
                    mods = sum(m["value"] for m in record["modifiers"][key])
                    if totals[key] != last[key] + mods:
                        fault(record, f"{key} total {totals[key]} is not its die plus modifiers")
                if totals["attacker"] == totals["defender"]:
                    fault(record, "a tie was not rolled again")
                winner = max(totals, key=totals.get)
                if record["winner"] != winner:
                    fault(record, f"{record['winner']} won on totals {totals}")
            losing = "defenders" if record["winner"] == assaulting else "attackers"
            if record["removed"] != [m for m in record[losing] if replay.alive[m]]:
                fault(record, f"removed {record['removed']}, not every loser in the assault")
            for loser in record["removed"]:
                replay.alive[loser] = False
        elif kind == "rally":
            rallier = record["stand"]
            rallied[turn].add(rallier)
            before = replay.status[rallier]
            if not replay.alive[rallier] or before == OK:
                fault(record, f"{rallier} rallied while dead or unhurt")
            quality = forces[replay.force_of[rallier]].quality
            target = RALLY_TARGET[quality][0 if before == PINNED else 1]
            bonus = sum(m["value"] for m in record["modifiers"])
            commander = replay.commander_of(replay.force_of[rallier])
            supported = (
                commander is not None
                and commander != rallier
                and replay.alive[commander]  # pinned or suppressed, it adds 1 (item 7)
                and replay.distance(commander, rallier) <= 2
            )
            if bonus != int(supported):
                fault(record, f"{rallier}'s commander bonus is {bonus}")
            success = record["dice"][0] + bonus >= target
            if record["target"] != target or record["outcome"] != (
                "rallied" if success else "failed"
            ):
                fault(record, f"rally {record['dice']} + {bonus} against {record['target']}")
            if success:
                replay.status[rallier] = OK
        if (
            phase.endswith(" move")
            and following is not None
            and following["phase"] != phase
            and following["kind"] != "end"
        ):
            # Contact is an assault: when a move phase is over, no enemies touch.
            for a, b in replay.enemies_in_contact():
                fault(record, f"{a} and {b} are left in contact without an assault")

    # Losses in the result are the stands the log killed, by the type the campaign knows.
    dead = [s for s, alive in replay.alive.items() if not alive]
    for key in ("attacker", "defender"):
        lost: dict[str, int] = defaultdict(int)
        for stand_id in dead:
            if replay.force_of[stand_id] == key:
                lost[replay.counts_as[stand_id]] += 1
        reported = {t: n for t, n in result["losses"][key].items() if n}
        if reported != dict(lost):
            faults.append(f"{key} losses {reported}, the log killed {dict(lost)}")
    return faults


class RecordingRoller(Roller):
    """The real roller, keeping every face it throws."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.faces: list[int] = []
        RecordingRoller.last = self

    def roll(self, count: int = 1, sides: int = 6) -> tuple[int, ...]:
        faces = super().roll(count, sides)
        self.faces.extend(faces)
        return faces

    def d6(self) -> int:
        face = super().d6()
        self.faces.append(face)
        return face

    def die(self, sides: int) -> int:
        face = super().die(sides)
        self.faces.append(face)
        return face


@pytest.fixture
def recording_roller(monkeypatch: pytest.MonkeyPatch) -> type[RecordingRoller]:
    monkeypatch.setattr(battle, "Roller", RecordingRoller)  # the kernel throws the dice
    return RecordingRoller


# --- determinism ------------------------------------------------------------------------


def test_the_same_seed_fights_the_same_battle() -> None:
    spec = korona_turn1()
    first, second = fight(spec, 7), fight(spec, 7)
    assert first == second
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_different_seeds_fight_different_battles() -> None:
    spec = korona_turn1()
    logs = [json.dumps(fight(spec, seed)["log"]) for seed in range(5)]
    assert len(set(logs)) == 5


def test_the_result_is_plain_json() -> None:
    result = fight(korona_turn1(), 3)
    assert json.loads(json.dumps(result)) == result


# --- a complete log ---------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_die_thrown_is_in_exactly_one_record_in_order(
    variant: str, recording_roller: type[RecordingRoller]
) -> None:
    spec = VARIANTS[variant]
    for seed in range(8):
        result = fight(spec, seed)
        roller = recording_roller.last
        logged = [face for record in result["log"] for face in record.get("dice", [])]
        assert roller.dice_rolled == len(roller.faces) == len(logged)
        assert logged == roller.faces, (variant, seed)


def test_every_record_says_when_and_what() -> None:
    result = fight(korona_turn1(), 11)
    for record in result["log"]:
        assert {"turn", "phase", "kind"} <= set(record)
    assert result["log"][-1]["kind"] == "end"
    assert [r["kind"] for r in result["log"]].count("end") == 1


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_record_has_a_dice_list(variant: str) -> None:
    # docs/rules.md: "Every record has turn (0 for set-up), phase and kind, and a dice list."
    spec = VARIANTS[variant]
    without: dict[str, int] = defaultdict(int)
    for seed in range(20):
        for record in fight(spec, seed)["log"]:
            if not isinstance(record.get("dice"), list):
                without[record["kind"]] += 1
    assert not without, f"records with no dice list, by kind: {dict(without)}"


def test_the_terrain_is_logged_square_by_square_with_its_dice() -> None:
    spec = korona_turn1()
    result = fight(spec, 5)
    terrain = [r for r in result["log"] if r["kind"] == "terrain"]
    assert len(terrain) == spec.width_ft * spec.depth_ft
    for record in terrain:
        col, row = record["square"]
        square = result["terrain"][row][col]
        assert record["dice"] == [*square["landform_dice"], square["vegetation_die"]]
        assert (record["landform"], record["going"]) == (square["landform"], square["going"])


# --- the rules, record by record --------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_whole_battles_keep_the_rules(variant: str) -> None:
    spec = VARIANTS[variant]
    faults: dict[str, tuple[int, str]] = {}  # each kind of fault, with its first instance
    for seed in range(40):
        for fault in audit(fight(spec, seed), spec):
            faults.setdefault(_fault_kind(fault), (seed, fault))
    assert not faults, "\n".join(f"seed {seed}: {fault}" for seed, fault in faults.values())


def _fault_kind(fault: str) -> str:
    """A fault without its turn, stands and numbers, so like faults are reported once."""
    fault = re.sub(r"\b[ad]\.\w+\.\d+", "<stand>", fault)
    return re.sub(r"\d+(\.\d+)?", "#", fault)


def _first(log: list[dict[str, Any]], kind: str, **where: Any) -> dict[str, Any] | None:
    return next(
        (r for r in log if r["kind"] == kind and all(r[k] == v for k, v in where.items())), None
    )


def _stretch_a_move(log: list[dict[str, Any]]) -> bool:
    record = _first(log, "move")
    if record is None or record["from"][1] < 10:
        return False
    record["to"] = [record["from"][0], record["from"][1] - 10]
    return True


def _miscount_hits(log: list[dict[str, Any]]) -> bool:
    record = _first(log, "fire", hits=1)
    if record is None:
        return False
    record["hits"] = 2
    return True


def _flip_a_rally(log: list[dict[str, Any]]) -> bool:
    record = _first(log, "rally", outcome="failed")
    if record is None:
        return False
    record["outcome"] = "rallied"
    return True


def _drop_a_rally(log: list[dict[str, Any]]) -> bool:
    record = _first(log, "rally", outcome="failed")
    if record is None:
        return False
    log.remove(record)
    return True


def _fire_out_of_turn(log: list[dict[str, Any]]) -> bool:
    record = _first(log, "fire", phase="attacker fire")
    if record is None:
        return False
    record["phase"] = "defender fire"
    return True


@pytest.mark.parametrize(
    ("tamper", "fault"),
    [
        (_stretch_a_move, 'moved 10.00" in'),
        (_miscount_hits, "is not 2 hits"),
        (_flip_a_rally, "rally ["),
        (_fire_out_of_turn, "fired outside its side's fire phase"),
        (_drop_a_rally, "no rally roll in turn"),
    ],
)
def test_the_audit_finds_a_tampered_record(
    tamper: Callable[[list[dict[str, Any]]], bool], fault: str
) -> None:
    """The audit can fail: a clean battle, tampered with, breaks the rule it should."""
    spec = korona_turn1()
    for seed in range(30):
        result = fight(spec, seed)
        if audit(result, spec) or not tamper(result["log"]):
            continue
        found = audit(result, spec)
        assert any(fault in text for text in found), found
        return
    pytest.fail("no clean battle with a record to tamper with in 30 seeds")


def test_a_stand_that_fails_its_command_roll_does_not_move_that_turn() -> None:
    spec = korona_turn1()
    offenders = []
    failures = 0
    for seed in range(100):
        result = fight(spec, seed)
        failed = {
            (r["turn"], r["phase"], r["stand"])
            for r in result["log"]
            if r["kind"] == "command" and r["outcome"] == "stays put"
        }
        failures += len(failed)
        offenders += [
            (seed, r["turn"], r["stand"])
            for r in result["log"]
            if r["kind"] == "move" and (r["turn"], r["phase"], r["stand"]) in failed
        ]
    assert failures >= 20, f"only {failures} failed command rolls in 100 battles"
    assert offenders == []


# Derandomized: the same 30 seeds from all of 2**64 every run, so a failure is reproducible.
@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_random_seeds_keep_the_rules_and_the_result_invariants(seed: int) -> None:
    spec = korona_turn1()
    result = fight(spec, seed)
    assert audit(result, spec) == []
    assert_result_invariants(result, spec)


# --- the result and the end of the battle -----------------------------------------------


def assert_result_invariants(result: dict[str, Any], spec: BattleSpec) -> None:
    assert result["winner"] in ("attacker", "defender")
    assert result["reason"] in REASONS
    assert result["stands_present"] == {
        "attacker": spec.attacker.stands,
        "defender": spec.defender.stands,
    }
    turn_limit = {**engine.DEFAULT_OPTIONS, **spec.options}["turn_limit"]
    assert 1 <= result["turns"] <= turn_limit
    lost = {key: sum(result["losses"][key].values()) for key in ("attacker", "defender")}
    present = {key: sum(result["stands_present"][key].values()) for key in lost}
    for key in lost:
        assert set(result["losses"][key]) <= set(result["stands_present"][key])
        for unit, count in result["losses"][key].items():
            assert 0 <= count <= result["stands_present"][key][unit]
    winner = result["winner"]
    loser = "defender" if winner == "attacker" else "attacker"
    end = result["log"][-1]
    assert (end["winner"], end["reason"], end["lost"], end["present"]) == (
        winner,
        result["reason"],
        lost,
        present,
    )
    if result["reason"] == "a_third_lost":
        assert lost[loser] * 3 >= present[loser]
        if lost[winner] * 3 >= present[winner]:  # both broke at once: the worse one loses
            assert lost[loser] / present[loser] >= lost[winner] / present[winner]
    else:
        # Nobody had broken, or the battle would have ended then.
        assert lost[loser] * 3 < present[loser]
        assert lost[winner] * 3 < present[winner]
    if result["reason"] == "turn_limit":
        assert result["turns"] == turn_limit
        fraction = {key: lost[key] / present[key] for key in lost}
        expected = "attacker" if fraction["attacker"] < fraction["defender"] else "defender"
        assert winner == expected
    if result["reason"] == "withdrew":
        withdraw = result["log"][-2]
        assert withdraw["kind"] == "withdraw"
        assert withdraw["side"] == result["forces"][loser]["side"]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_result_invariants_hold_over_many_seeds(variant: str) -> None:
    spec = VARIANTS[variant]
    reasons = set()
    for seed in range(60):
        result = fight(spec, seed)
        assert_result_invariants(result, spec)
        reasons.add(result["reason"])
    assert "a_third_lost" in reasons


def test_the_result_has_the_interface_fields() -> None:
    result = fight(korona_turn1(), 1)
    assert {
        "ruleset",
        "seed",
        "winner",
        "reason",
        "turns",
        "area",
        "forces",
        "stands_present",
        "losses",
        "stands",
        "terrain",
        "options",
        "log",
    } <= set(result)
    assert (result["ruleset"], result["seed"], result["area"]) == ("korona", 1, "Korona")
    assert result["options"] == {
        "ruleset": "korona",
        "turn_limit": 12,
        "impact_fuse": True,
        "combat_events": False,
        "fog_of_war_cup": False,
    }
    assert result["forces"]["attacker"] == {
        "side": "japanese",
        "name": "1st Company",
        "quality": "veteran",
    }
    assert len(result["stands"]) == 24


def test_with_a_turn_limit_of_one_the_battle_stops_after_turn_one() -> None:
    # On a 1 ft deep table the two sides start within reach of each other: on the usual
    # 3 ft, an attacker that cannot reach the enemy in the one turn withdraws at once.
    spec = replace(korona_turn1(), options={"turn_limit": 1}, depth_ft=1)
    for seed in range(40):
        result = fight(spec, seed)
        assert result["turns"] == 1
        assert all(r["turn"] <= 1 for r in result["log"])
        assert_result_invariants(result, spec)
        if result["reason"] == "turn_limit":
            lost = {k: sum(v.values()) for k, v in result["losses"].items()}
            smaller = "attacker" if lost["attacker"] < lost["defender"] else "defender"
            assert result["winner"] == smaller  # same size forces: fractions as losses


def test_a_tie_at_a_turn_limit_of_one_goes_to_the_defender() -> None:
    # A battle scripted so that nobody can be lost in the one turn: a lone raw wheeled
    # vehicle (no fire dice, 1 in 3 to win an assault: it does not try) attacks a
    # trained one (2 in 3 is under the 0.7 it needs to counter-attack) on an open table
    # 1 ft deep, in reach of each other (so the attacker does not withdraw). The turn
    # limit is reached every time, with nothing lost on either side: the defender wins.
    spec = make_spec(
        attacker={"wheeled_vehicle": 1},
        defender={"wheeled_vehicle": 1},
        attacker_quality="raw",
        defender_quality="trained",
        depth_ft=1,
        options={"turn_limit": 1},
    )
    for seed in range(20):
        result = resolve(spec, seed, battlefield=open_table(3, 1))
        assert (result["reason"], result["turns"], result["winner"]) == (
            "turn_limit",
            1,
            "defender",
        )
        assert all(r["turn"] <= 1 for r in result["log"])
        assert result["options"]["turn_limit"] == 1
        assert {k: sum(v.values()) for k, v in result["losses"].items()} == {
            "attacker": 0,
            "defender": 0,
        }
        assert [r["kind"] for r in result["log"] if r["turn"] == 1 and r["kind"] == "assault"] == []


def test_a_sniper_is_reported_as_the_rifle_squad_it_replaced() -> None:
    spec = VARIANTS["jungle_sniper"]
    killed_sniper = 0
    for seed in range(80):
        result = fight(spec, seed)
        assert result["stands_present"]["defender"]["rifle_squad"] == 6
        assert "sniper" not in result["stands_present"]["defender"]
        assert "sniper" not in result["losses"]["defender"]
        [sniper] = [s for s in result["stands"] if s["type"] == "sniper"]
        assert (sniper["id"], sniper["force"], sniper["counts_as"]) == (
            "d.sniper.1",
            "defender",
            "rifle_squad",
        )
        killed = _killed_in(result["log"])
        if "d.sniper.1" in killed:
            killed_sniper += 1
            squads = sum(1 for s in killed if s.startswith("d.rifle_squad."))
            assert result["losses"]["defender"]["rifle_squad"] == squads + 1
    assert killed_sniper  # the case was seen


def _killed_in(log: list[dict[str, Any]]) -> set[str]:
    """Every stand the log says was killed: by fire, blast, assault or caught in contact."""
    killed = set()
    for record in log:
        if record["kind"] in ("fire", "support") and record["effect"] == "killed":
            killed.add(record["target"])
        killed.update(c["stand"] for c in record.get("blast", ()) if c["effect"] == "killed")
        if record["kind"] == "assault":
            killed.update(record["removed"])
        if record["kind"] == "caught":
            killed.add(record["stand"])
    return killed


def test_the_sniper_deploys_hidden_in_woods() -> None:
    spec = VARIANTS["jungle_sniper"]
    result = fight(spec, 2)
    deploy = next(r for r in result["log"] if r["kind"] == "deploy")
    assert deploy["hidden"] == ["d.sniper.1"]
    x, y = deploy["positions"]["d.sniper.1"]
    field = Battlefield.from_json(result["terrain"], width_ft=3, depth_ft=3)
    assert field.square_at(x, y).wooded


# --- the end of the battle, rule by rule ------------------------------------------------


def kill(state, *stand_ids: str) -> None:
    for stand_id in stand_ids:
        stand(state, stand_id).alive = False


def test_a_side_that_has_lost_a_third_loses() -> None:
    state = make_state(attacker={"rifle_squad": 6}, defender={"rifle_squad": 9})
    kill(state, "d.rifle_squad.1", "d.rifle_squad.2")
    state.end_check()  # 2 of 9: fighting on
    kill(state, "d.rifle_squad.3")
    with pytest.raises(BattleOver) as over:
        state.end_check()
    assert (over.value.winner, over.value.reason) == ("attacker", "a_third_lost")


def test_when_both_break_at_once_the_greater_fraction_lost_loses() -> None:
    state = make_state(attacker={"rifle_squad": 6}, defender={"rifle_squad": 9})
    kill(state, "a.rifle_squad.1", "a.rifle_squad.2", "d.rifle_squad.1", "d.rifle_squad.2")
    kill(state, "d.rifle_squad.3", "d.rifle_squad.4")  # 2/6 = 0.33 against 4/9 = 0.44
    with pytest.raises(BattleOver) as over:
        state.end_check()
    assert over.value.winner == "attacker"


def test_when_both_break_by_the_same_fraction_the_defender_wins() -> None:
    state = make_state(attacker={"rifle_squad": 3}, defender={"rifle_squad": 3})
    kill(state, "a.rifle_squad.1", "d.rifle_squad.1")
    with pytest.raises(BattleOver) as over:
        state.end_check()
    assert over.value.winner == "defender"


def test_check_options_knows_the_korona_options() -> None:
    assert check_options({"turn_limit": 12, "impact_fuse": False}) == []
    assert check_options({"turn_limit": 1}) == []
    assert check_options({"turn_limit": 100}) == []
    assert len(check_options({"turn_limit": 0, "impact_fuse": 1, "fog": True})) == 3


# --- the fire phase ---------------------------------------------------------------------


def fire_phase_state(weapon: str, dice: list[int]):
    """A Japanese weapon and a squad facing four Australian squads 10" away."""
    state = make_state(
        attacker={weapon: 1, "rifle_squad": 1}, defender={"rifle_squad": 4}, dice=dice
    )
    place(stand(state, f"a.{weapon}.1"), 18, 30)
    place(stand(state, "a.rifle_squad.1"), 30, 32)
    for n, x in enumerate((6, 14, 22, 30), start=1):
        place(stand(state, f"d.rifle_squad.{n}"), x, 20)
    state.phase = "attacker fire"
    return state


def firers(state) -> list[str]:
    return [r["firer"] for r in state.log if r["kind"] == "fire"]


def test_an_unmoved_man_packed_weapon_fires() -> None:
    state = fire_phase_state("hmg", [1] * 7)
    _fire_phase(state, state.attacker)
    assert firers(state) == ["a.hmg.1", "a.rifle_squad.1"]


def test_a_man_packed_weapon_that_moved_does_not_fire() -> None:
    state = fire_phase_state("hmg", [1] * 3)
    stand(state, "a.hmg.1").moved = True
    _fire_phase(state, state.attacker)
    assert firers(state) == ["a.rifle_squad.1"]


def test_a_rifle_squad_that_moved_still_fires() -> None:
    state = fire_phase_state("hmg", [1] * 7)
    stand(state, "a.rifle_squad.1").moved = True
    _fire_phase(state, state.attacker)
    assert firers(state) == ["a.hmg.1", "a.rifle_squad.1"]


def test_a_limbered_heavy_weapon_does_not_fire() -> None:
    state = fire_phase_state("medium_mortar", [1] * 3)
    stand(state, "a.medium_mortar.1").limbered = True
    _fire_phase(state, state.attacker)
    assert firers(state) == ["a.rifle_squad.1"]


def test_a_suppressed_stand_does_not_fire_but_a_pinned_one_does() -> None:
    state = fire_phase_state("hmg", [1] * 4)
    stand(state, "a.hmg.1").status = PINNED
    stand(state, "a.rifle_squad.1").status = SUPPRESSED
    _fire_phase(state, state.attacker)
    assert firers(state) == ["a.hmg.1"]
    assert state.roller.dice_rolled == 4
