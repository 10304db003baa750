"""Battles stored before the Combat Event records had their structured fields: migration
0003 reads the words once and adds them, so such a battle replays as it did."""

from __future__ import annotations

import copy
import importlib

import pytest

from battles.web import battleview
from rules.dice import derive_seed
from rules.rulesets import resolve_battle
from rules.spec import parse_battle
from tests.rules.conftest import battle_doc

migration = importlib.import_module("battles.migrations.0003_combat_event_fields")
NEW = ("stand", "becomes", "to", "hidden")


def test_the_words_of_each_kind_of_outcome_give_its_fields() -> None:
    assert migration.fields_of("a.hmg.1 is killed (already suppressed)") == {
        "stand": "a.hmg.1", "becomes": "killed"
    }  # fmt: skip
    assert migration.fields_of("d.rifle_squad.3 is pinned") == {
        "stand": "d.rifle_squad.3", "becomes": "pinned"
    }  # fmt: skip
    assert migration.fields_of("a.rifle_squad.2 rallies from suppressed") == {
        "stand": "a.rifle_squad.2", "becomes": "ok"
    }  # fmt: skip
    assert migration.fields_of("d.sniper.1 appears, hidden, at 14,20") == {
        "stand": "d.sniper.1", "becomes": "ok", "to": [14, 20], "hidden": True
    }  # fmt: skip
    assert migration.fields_of("a.rifle_squad.1 is already pinned") == {}
    assert migration.fields_of("no stand the event can strike") == {}


@pytest.mark.parametrize("ruleset", ["korona", "force_on_force"])
def test_an_old_log_given_its_fields_back_is_the_log_the_engine_writes(ruleset: str) -> None:
    """Strip the fields from engine logs with events, put them back from the words: the
    same records, and so the same replay."""
    events = 0
    for seed in range(6):
        doc = battle_doc()
        doc["options"] = {"ruleset": ruleset, "combat_events": True}
        log = resolve_battle(parse_battle(doc), derive_seed(0, "migration", seed))["log"]
        old = copy.deepcopy(log)
        for record in old:
            if record["kind"] == "combat_event":
                events += 1
                for key in NEW:
                    record.pop(key, None)
                record.update(migration.fields_of(record["outcome"]))
        assert old == log
        assert battleview.replay_frames(old, ruleset=ruleset) == battleview.replay_frames(
            log, ruleset=ruleset
        )
    assert events > 0  # the case occurred
