"""A property over generated Force on Force battles: no logged fire has a firer that does
not see its target at that moment, and none reaches beyond the range its kind allows
(an ambush: twice the ambusher's unmodified Troop Quality, 4.1; there is no other
maximum range). Sight is recomputed from the result's own terrain, at the positions the
fire record gives, both ways (sight is mutual: docs/rules.md)."""

from __future__ import annotations

from math import hypot
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battlefield import Battlefield, Sight
from rules.forceonforce import tables as t
from rules.rulesets import resolve_battle
from rules.spec import parse_battle
from rules.units import Quality
from tests.rules.test_fof_battle import battle

QUALITIES = ("raw", "trained", "veteran")


@st.composite
def battles(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    size = draw(st.integers(2, 4))
    squads = draw(st.integers(2, 6))
    doc = battle(
        area__vegetation=draw(st.sampled_from(["jungle", "light", "clearing"])),
        area__plains=draw(st.booleans()),
        table__width_ft=size,
        table__depth_ft=size,
        attacker__quality=draw(st.sampled_from(QUALITIES)),
        defender__quality=draw(st.sampled_from(QUALITIES)),
        attacker__stands={"commander": 1, "rifle_squad": squads + 1, "hmg": 1, "sniper": 0},
        defender__stands={"rifle_squad": squads, "small_mortar": 1, "medium_mortar": 1},
        defender__sniper=draw(st.booleans()),
    )  # fmt: skip
    options = doc["options"]
    options["defender_hidden"] = draw(st.booleans())
    options["night"] = draw(st.booleans())
    options["combat_events"] = draw(st.booleans())
    options["turn_limit"] = draw(st.integers(3, 8))
    if draw(st.booleans()):
        options["irregular"] = [draw(st.sampled_from(["japanese", "australian"]))]
    if draw(st.booleans()):
        options["confidence"] = {
            "japanese": draw(st.sampled_from(t.CONFIDENCE_LEVELS)),
            "australian": draw(st.sampled_from(t.CONFIDENCE_LEVELS)),
        }
    if draw(st.booleans()):
        options["fog_of_war_cup"] = True
        doc["attacker"]["reinforcements"] = {"rifle_squad": 2}
    return doc, draw(st.integers(0, 2**32 - 1))


def _tq(result: dict[str, Any], unit_id: str) -> int:
    force = "attacker" if unit_id.startswith("a.") else "defender"
    return t.TROOP_QUALITY[Quality(result["forces"][force]["quality"])]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_no_logged_fire_is_blind_or_beyond_its_reach(case: tuple[dict[str, Any], int]) -> None:
    doc, seed = case
    spec = parse_battle(doc)
    result = resolve_battle(spec, seed)
    field = Battlefield.from_json(result["terrain"], width_ft=spec.width_ft,
                                  depth_ft=spec.depth_ft)  # fmt: skip
    for record in result["log"]:
        if record["kind"] != "fire":
            continue
        (fx, fy), (tx, ty) = record["firer_at"], record["target_at"]
        assert field.sight(fx, fy, tx, ty) is not Sight.BLOCKED, record
        assert field.sight(tx, ty, fx, fy) is not Sight.BLOCKED, record
        assert record["attack"], record  # a fire with no dice is no fire (3.4)
        if record["action"] == "ambush":
            reach = t.AMBUSH_RANGE_FACTOR * _tq(result, record["firer"])
            assert hypot(fx - tx, fy - ty) <= reach, record


def test_the_audits_blind_ambush_is_gone() -> None:
    # Issue 12's reproduction: the reference battle in jungle with defender_hidden, seed
    # 0: in turn 2 rifle squad 1 at (13, 11) ambushed the commander at (7, 25), sight
    # blocked both ways. Every fire of that battle now has sight both ways.
    doc = battle(area__vegetation="jungle", area__plains=False, options__defender_hidden=True)
    spec = parse_battle(doc)
    result = resolve_battle(spec, 0)
    field = Battlefield.from_json(result["terrain"], width_ft=spec.width_ft,
                                  depth_ft=spec.depth_ft)  # fmt: skip
    assert field.sight(13, 11, 7, 25) is Sight.BLOCKED  # the audit's pair, still blind
    shots = [r for r in result["log"] if r["kind"] == "fire"]
    assert shots
    for record in shots:
        (fx, fy), (tx, ty) = record["firer_at"], record["target_at"]
        assert field.sight(fx, fy, tx, ty) is not Sight.BLOCKED, record
        assert field.sight(tx, ty, fx, fy) is not Sight.BLOCKED, record
