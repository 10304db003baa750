"""A battle's table rolled before the battle (``Ruleset.roll_table``) and the battle
fought on it: the same battle, dice and log, as one that rolls its table itself; a table
rolled for another battle is refused (issue 17: the campaign AI's sniper choice reads the
table, and the battle is fought on that one rather than on the same table rolled again)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.battlespec import AreaSpec, BattleSpec
from rules.korona import engine as korona
from rules.rulesets import RULESETS, resolve_battle
from tests.rules.conftest import VARIANTS, open_table


def _as(spec: BattleSpec, ruleset: str) -> BattleSpec:
    return replace(spec, ruleset=ruleset, options={})


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_battle_fought_on_its_rolled_table_is_the_battle_itself(
    ruleset: str, variant: str
) -> None:
    spec = _as(VARIANTS[variant], ruleset)
    for seed in range(3):
        table = RULESETS[ruleset].roll_table(spec, seed)
        assert table.battlefield == RULESETS[ruleset].terrain(spec, seed)
        on_it = resolve_battle(spec, seed, table=table)
        assert json.dumps(on_it, sort_keys=True) == json.dumps(
            resolve_battle(spec, seed), sort_keys=True
        )
        # The table is kept, not used up: fought on again, the same battle.
        assert resolve_battle(spec, seed, table=table) == on_it


def test_the_table_of_another_seed_is_refused() -> None:
    spec = VARIANTS["korona"]
    table = RULESETS["korona"].roll_table(spec, 1)
    with pytest.raises(ValueError, match="rolled for seed 1"):
        resolve_battle(spec, 2, table=table)


def test_the_table_of_another_terrain_is_refused() -> None:
    spec = VARIANTS["korona"]
    table = RULESETS["korona"].roll_table(spec, 1)
    jungle = replace(spec, area=AreaSpec("Isura", 4, "jungle", False))
    wider = replace(spec, width_ft=spec.width_ft + 1)
    going = replace(spec, landform_going={"mud": "bad"})
    for other in (jungle, wider, going):
        with pytest.raises(ValueError, match="not this battle's"):
            resolve_battle(other, 1, table=table)


def test_a_table_laid_out_by_hand_and_a_rolled_one_are_not_both_taken() -> None:
    spec = VARIANTS["korona"]
    table = RULESETS["korona"].roll_table(spec, 1)
    with pytest.raises(ValueError, match="by hand or on a rolled one"):
        korona.resolve(spec, 1, battlefield=open_table(), table=table)
