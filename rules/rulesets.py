"""The rule sets a battle can be fought under, by the name BATTLE.json's options give.

A rule set takes the same battle input and gives the same result format; a new one
(Force on Force, say) plugs in here beside the Korona rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.forceonforce import engine as force_on_force
from rules.korona import engine as korona

if TYPE_CHECKING:
    from rules.battlefield import Battlefield
    from rules.dice import Roller
    from rules.spec import BattleSpec


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    label: str
    resolve: Callable[[BattleSpec, int], dict[str, Any]]
    check_options: Callable[[dict[str, Any]], list[str]]
    # The table as the engine rolls it first, from a roller of the battle's seed.
    terrain: Callable[[BattleSpec, Roller], Battlefield]
    # Does it read a force's BATTLE.json ``companies`` (each stand's own commander)? A
    # campaign sends them only to a rule set that does, so the others' battles (and the
    # campaign AI's odds of them, seeded from the battle) stay as they were.
    reads_companies: bool


RULESETS: dict[str, Ruleset] = {
    "korona": Ruleset(
        "korona",
        "Korona (WWII in the Pacific)",
        korona.resolve,
        korona.check_options,
        korona.roll_terrain,
        reads_companies=True,
    ),
    "force_on_force": Ruleset(
        "force_on_force",
        "Force on Force",
        force_on_force.resolve,
        force_on_force.check_options,
        force_on_force.roll_terrain,
        reads_companies=False,
    ),
}


def resolve_battle(spec: BattleSpec, seed: int) -> dict[str, Any]:
    """Fight one battle under the rule set its options name."""
    return RULESETS[spec.ruleset].resolve(spec, seed)
