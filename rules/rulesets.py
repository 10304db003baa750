"""The rule sets a battle can be fought under, by the name BATTLE.json's options give.

A rule set takes the same battle input and gives the same result format; a new one
(Force on Force, say) plugs in here beside the Korona rules. This registry is the only
door to a rule set for the code outside ``rules/`` (an import contract checks it): its
defaults, its option checks, the table it rolls for a spec and a seed, the words of its
log records, the replay of its log and what its battle sheet says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from rules import replay, sheet
from rules.dice import Roller
from rules.forceonforce import engine as force_on_force
from rules.korona import engine as korona
from rules.narrate import describe_record, record_words

# The battle log's words, through this door (the apps import no other module of the rules
# that is not public): a stand, a phase and a line's heading by the battle's sides.
from rules.narrate import heading as heading
from rules.narrate import phase_name as phase_name
from rules.narrate import stand_name as stand_name
from rules.narrate import stand_sides as stand_sides
from rules.records import BattleResult

if TYPE_CHECKING:
    from rules.battlefield import Battlefield, RolledTable
    from rules.battlespec import BattleSpec

DEFAULT_RULESET = "korona"  # a BATTLE.json whose options name none


class _Resolve(Protocol):
    """A rule set's battle: fought from its spec and seed, on its table rolled already
    (``Ruleset.roll_table``) when one is given."""

    def __call__(
        self, spec: BattleSpec, seed: int, *, table: RolledTable | None = None
    ) -> BattleResult: ...


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    label: str
    resolve: _Resolve
    check_options: Callable[[dict[str, Any]], list[str]]
    # The table as the engine rolls it first, from a roller of the battle's seed.
    roll_terrain: Callable[[BattleSpec, Roller], Battlefield]
    # The same, from the seed, kept to fight the battle on (``resolve``'s ``table``).
    roll_table: Callable[[BattleSpec, int], RolledTable]
    # Does it read a force's BATTLE.json ``companies`` (each stand's own commander)? A
    # campaign sends them only to a rule set that does, so the others' battles (and the
    # campaign AI's odds of them, seeded from the battle) stay as they were.
    reads_companies: bool
    defaults: Mapping[str, Any]  # every option besides ``ruleset``, as the engine takes it
    # Do pinned and suppressed end with the turn (Force on Force) or stay until rallied?
    statuses_end_with_turn: bool
    # The battle sheet: the rule set's own option lines, the die its Combat Events read,
    # and the off-table missions a side may call (and whether any can be called).
    sheet_rules: Callable[[dict[str, Any]], list[tuple[str, str]]]
    event_die: str
    support_missions: Callable[[Mapping[str, Any], str], tuple[list[str], bool]]
    short_label: str  # in a battle page's heading line: "Korona rules"
    # Its word for one of a force's pieces, as its rules name them: a Korona "stand", a
    # Force on Force "unit" (a result's ``fit_to_fight`` counts them).
    piece: str

    def terrain(self, spec: BattleSpec, seed: int) -> Battlefield:
        """The table the battle is fought on, as the engine rolls it first from the seed
        (a tabletop battle waiting to be fought plays on the same table)."""
        return self.roll_terrain(spec, Roller(seed))

    def replay(
        self, log: Sequence[Mapping[str, Any]], words: Callable[[Mapping[str, Any]], str]
    ) -> list[dict[str, Any]]:
        """The replay's frames from the log's structured records (``rules.replay``)."""
        return replay.replay_frames(
            log, words=words, statuses_end_with_turn=self.statuses_end_with_turn
        )


def other_options(merged: dict[str, Any]) -> list[tuple[str, str]]:
    """The options left, by name, skipping those off or empty (``fog_of_war`` is always
    said, on or off)."""
    return [
        (key.replace("_", " ").capitalize(), _option_words(value))
        for key, value in sorted(merged.items())
        if value not in (None, [], {}, False) or key in ("fog_of_war",)
    ]


def _option_words(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_option_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


RULESETS: dict[str, Ruleset] = {
    "korona": Ruleset(
        "korona",
        "Korona (WWII in the Pacific)",
        korona.resolve,
        korona.check_options,
        korona.roll_terrain,
        korona.roll_table,
        reads_companies=True,
        defaults=korona.DEFAULT_OPTIONS,
        statuses_end_with_turn=False,
        sheet_rules=sheet.korona_rules,
        event_die="its first die",
        support_missions=sheet.korona_support,
        short_label="Korona rules",
        piece="stand",
    ),
    "force_on_force": Ruleset(
        "force_on_force",
        "Force on Force",
        force_on_force.resolve,
        force_on_force.check_options,
        force_on_force.roll_terrain,
        force_on_force.roll_table,
        reads_companies=False,
        defaults=force_on_force.DEFAULT_OPTIONS,
        statuses_end_with_turn=True,
        sheet_rules=sheet.no_rules_of_its_own,
        event_die="its first firepower die",
        support_missions=sheet.force_on_force_support,
        short_label="Force on Force",
        piece="unit",
    ),
}


def ruleset_of(options: Mapping[str, Any] | None) -> Ruleset | None:
    """The rule set a BATTLE.json's options name (the default when they name none);
    None for a name no rule set has."""
    name = (options or {}).get("ruleset", DEFAULT_RULESET)
    return RULESETS.get(name) if isinstance(name, str) else None


def piece(name: str | None) -> str:
    """A rule set's word for one of a force's pieces, by the name a battle stores
    ("stand", "unit"); the default rule set's for a name no rule set has."""
    ruleset = RULESETS.get(name or DEFAULT_RULESET) or RULESETS[DEFAULT_RULESET]
    return ruleset.piece


def narrate(record: Mapping[str, Any], sides: Mapping[str, str] | None = None) -> str:
    """One log record in words, with its turn and phase heading (``rules.narrate``: the
    records of either rule set say what they are), its stands named by ``sides``
    (``rules.narrate.stand_sides``)."""
    return describe_record(dict(record), sides)


def narrate_words(record: Mapping[str, Any], sides: Mapping[str, str] | None = None) -> str:
    """``narrate``'s words without the turn and phase heading (``heading``): a line of a
    log shown under its turn and phase."""
    return record_words(dict(record), sides)


def rules_in_force(options: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """The rules a battle sheet lists for a BATTLE.json's options: the rule set, the turn
    limit and the end, the rule set's own options, the Old Breed ones, then the rest,
    each in words (the defaults filled in)."""
    options = dict(options or {})
    name = options.pop("ruleset", DEFAULT_RULESET)
    ruleset = ruleset_of({"ruleset": name})
    merged = {**(ruleset.defaults if ruleset else {}), **options}
    limit = merged.pop("turn_limit", 12)
    rules = [
        ("Rule set", ruleset.label if ruleset else str(name)),
        (
            "Turn limit",
            f"{limit} turns; then the side that lost the smaller share of its stands wins, "
            "the defender on a tie",
        ),
        ("End", "a side that has lost a third of the stands it brought loses at once"),
    ]
    if ruleset is not None:
        rules += ruleset.sheet_rules(merged)
        rules += sheet.old_breed_rules(merged, ruleset.event_die)
    return rules + other_options(merged)


def support_missions(spec: Mapping[str, Any], side: str) -> tuple[list[str], bool]:
    """The off-table missions ``side`` may call in a BATTLE.json's battle, in words, and
    whether any can be called."""
    ruleset = ruleset_of(spec.get("options"))
    missions = ruleset.support_missions if ruleset else sheet.force_on_force_support
    return missions(spec, side)


def resolve_battle(
    spec: BattleSpec, seed: int, *, table: RolledTable | None = None
) -> BattleResult:
    """Fight one battle under the rule set its options name; on ``table`` when its table
    was rolled already (``Ruleset.roll_table``), the same battle."""
    return RULESETS[spec.ruleset].resolve(spec, seed, table=table)
