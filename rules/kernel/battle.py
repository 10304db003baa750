"""The battle driver every rule set shares: the terrain rolled first, the deployment, the
turns until one ends the battle or the turn limit, the end and the result; and a side's
withdrawal. A rule set gives the driver an ``Engine``: its name, its default options, how
it rolls the table, its state, its deployment and one turn's phases."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from rules.battlefield import Battlefield, RolledTable
from rules.battlespec import BattleSpec
from rules.dice import Roller
from rules.ending import BEATEN_BY_THE_CLOCK, HOPELESS, BattleOver
from rules.kernel.state import ATTACKER, DEFENDER, BattleState, Force, pieces_of
from rules.records import BattleResult

State = BattleState[Any]


@dataclass(frozen=True, slots=True)
class Engine:
    """What a rule set gives the driver."""

    name: str
    defaults: dict[str, Any]
    roll_terrain: Callable[[BattleSpec, Roller], Battlefield]
    # The rule set's own state (a subclass of the kernel's) for the spec, dice and table.
    new_state: Callable[[BattleSpec, Roller, Battlefield, dict[str, Any]], Any]
    # Both sides set up (the defender first, as both rule sets do), on that state.
    deploy: Callable[[Any], None]
    # One turn's phases on that state; raises BattleOver the moment the battle ends.
    turn: Callable[[Any], None]


# The log's words for each cause of a withdrawal (rules.ending.WITHDRAWALS).
_WITHDRAWAL_NOTES = {
    HOPELESS: " from a hopeless position",
    BEATEN_BY_THE_CLOCK: ": it cannot win before the turn limit",
}


def withdraw(
    state: State, force: Force[Any], cause: str, *, fit_to_fight: tuple[int, int] | None = None
) -> NoReturn:
    """The force withdraws of its own accord, which counts as a loss (rulings section 4);
    ``cause`` (rules.ending.WITHDRAWALS) says why, in the log and in the result.
    ``fit_to_fight``: a hopeless side's fighting strength and the enemy's then, as the
    rule set counted them, for the result (the log's record is as it was)."""
    note = _WITHDRAWAL_NOTES[cause]
    state.record("withdraw", side=force.side, dice=[], outcome=f"{force.spec.name} withdraws{note}")
    raise BattleOver(force.enemy.key, "withdrew", cause, fit_to_fight)


def _record_terrain(state: State, battlefield: Battlefield, rolled: bool) -> None:
    state.phase = "terrain"
    for row in battlefield.squares:
        for square in row:
            dice = list(square.landform_dice)
            if square.vegetation_die is not None:
                dice.append(square.vegetation_die)
            state.record(
                "terrain",
                square=[square.col, square.row],
                # A table laid out by hand: no dice were rolled for it.
                dice=dice if rolled else [],
                landform=str(square.landform),
                vegetation=str(square.vegetation),
                going=str(square.going),
            )


def _deploy(engine: Engine, state: State) -> None:
    state.phase = "deployment"
    engine.deploy(state)
    state.record(
        "deploy",
        dice=[],
        positions={p.id: [p.x, p.y] for force in state.forces for p in force.on_table()},
        hidden=[p.id for p in state.defender.on_table() if p.hidden],
    )


def _fight(engine: Engine, state: State) -> BattleOver:
    """The turns: the winner, why, and why the loser withdrew (None: it did not)."""
    attacker, defender = state.attacker, state.defender
    try:
        for turn in range(1, state.options["turn_limit"] + 1):
            state.turn = turn
            state.cup_drawn.clear()
            engine.turn(state)
    except BattleOver as over:
        return over
    # Ruling: at the turn limit the smaller fraction lost wins, a tie to the defender.
    winner = ATTACKER if attacker.fraction_lost() < defender.fraction_lost() else DEFENDER
    return BattleOver(winner, "turn_limit")


def roll_table(engine: Engine, spec: BattleSpec, seed: int) -> RolledTable:
    """The table the battle is fought on, rolled first from its seed as ``resolve`` rolls
    it, for a battle to be fought on later (``resolve``'s ``table``)."""
    roller = Roller(seed)
    battlefield = engine.roll_terrain(spec, roller)
    return RolledTable(battlefield, seed, roller.dice_rolled, spec.terrain())


def _table_dice(table: RolledTable, spec: BattleSpec, seed: int) -> Roller:
    """The battle's dice after its table, rolled before (``roll_table``) for this battle."""
    if table.seed != seed or table.terrain != spec.terrain():
        raise ValueError(
            f"the table was rolled for seed {table.seed} and terrain {table.terrain}, "
            f"not this battle's (seed {seed}, terrain {spec.terrain()})"
        )
    return Roller.resumed(seed, table.dice)


def resolve(
    engine: Engine,
    spec: BattleSpec,
    seed: int,
    battlefield: Battlefield | None = None,
    table: RolledTable | None = None,
) -> BattleResult:
    """Fight the battle described by ``spec`` with dice from ``seed``; returns the result.

    ``battlefield`` replaces the generated terrain (a table laid out by hand); by default
    the terrain is rolled first, from the same dice, unless ``table`` has rolled it
    already (``roll_table``): the battle goes on from the dice after it.
    """
    if battlefield is not None and table is not None:
        raise ValueError("a battle is fought on a table laid out by hand or on a rolled one")
    options = {**engine.defaults, **spec.options}
    rolled = battlefield is None
    if battlefield is not None:
        roller = Roller(seed)
    elif table is not None:
        roller = _table_dice(table, spec, seed)
        battlefield = table.battlefield
    else:
        roller = Roller(seed)
        battlefield = engine.roll_terrain(spec, roller)
    state = engine.new_state(spec, roller, battlefield, options)
    _record_terrain(state, battlefield, rolled)
    _deploy(engine, state)
    over = _fight(engine, state)
    winner, reason = over.winner, over.reason
    state.phase = "end"
    state.record("end", dice=[], winner=winner, reason=reason,
                 lost={f.key: f.lost for f in state.forces},
                 present={f.key: f.present for f in state.forces})  # fmt: skip
    out = result(engine, state, seed, winner, reason, over.withdrawal)
    if over.fit_to_fight is not None:
        out["fit_to_fight"] = list(over.fit_to_fight)
    return out


def result(
    engine: Engine,
    state: State,
    seed: int,
    winner: str,
    reason: str,
    withdrawal: str | None = None,
) -> BattleResult:
    """The result of a battle fought to its end."""
    out: BattleResult = {
        "ruleset": engine.name,
        "seed": seed,
        "winner": winner,
        "reason": reason,
        "turns": state.turn,
        "area": state.spec.area.name,
        "forces": {
            f.key: {"side": f.side, "name": f.spec.name, "quality": str(f.spec.quality)}
            for f in state.forces
        },
        "stands_present": {f.key: f.present_by_type() for f in state.forces},
        "losses": {f.key: f.losses_by_type() for f in state.forces},
        "stands": [
            {
                "id": p.id,
                "force": f.key,
                "type": f.type_of(p),
                "counts_as": p.report_type,
                # Appeared through a Combat Event: not on the roster, not in the losses.
                "extra": p.extra,
                "in_cup": p in f.cup,  # a reinforcement never drawn
                **f.report_row(p),
            }
            for f, p in pieces_of(state.forces)
        ],
        "terrain": state.field.to_json(),
        # Echoed (the event tables are not: they are data, often long).
        "options": {
            "ruleset": engine.name,
            **{k: state.options[k] for k in engine.defaults if not k.endswith("_event_table")},
        },
        "log": state.log,
    }
    if withdrawal:  # only when the loser withdrew: a result without it reads as before
        out["withdrawal"] = withdrawal
    return out
