"""The six phases of a Korona campaign turn, as pure functions over a snapshot.

``start_turn`` rolls the naval and aerial events, supply and initiative, moves the
companies and pairs the battles; ``finish_turn`` feeds the battles' results back into
the map (losses, withdrawals, surrender, control) and checks for the end of the
campaign. ``play_turn`` does both, resolving every battle through ``rules``. The phases
themselves live in ``rules.campaign.phases``, one module each, played in the order of
``START_PHASES`` and ``FINISH_PHASES``.

Every die of a turn comes from the turn seed (by default ``derive_seed(campaign seed,
"turn", number)``), through the stream of its roll group (``rules.campaign.seeds``; a
record's ``dice_streams`` names each die's), and lands in the turn's log as a record
with ``phase``, ``kind``, ``side``, ``company``, ``dice``, ``modifiers`` (each with
``reason`` and ``value``), ``target`` and ``outcome``, plus a ``text`` in plain words.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.campaign.phases import (
    battles,
    control,
    end,
    events,
    initiative,
    movement,
    results,
    supply,
)
from rules.campaign.phases.battles import deployment_has_woods, pair_battles, sniper_choices
from rules.campaign.phases.common import (
    OrderError,
    PlannedBattle,
    TurnError,
    TurnInPlay,
    _Map,
    distances_from,
    engaged,
)
from rules.campaign.phases.control import update_control
from rules.campaign.phases.initiative import MAX_INITIATIVE_ROUNDS
from rules.campaign.phases.movement import ai_orders, check_order, standing_order
from rules.campaign.phases.results import BANZAI_SIDE, check_result
from rules.campaign.phases.supply import LOSS_ORDER, REGAIN_ORDER, SupplyNeed, supply_need
from rules.campaign.seeds import TurnDice, default_turn_seed
from rules.campaign.state import CampaignState, Order
from rules.dice import Roller
from rules.records import BattleResult
from rules.rulesets import resolve_battle
from rules.spec import parse_battle

__all__ = [
    "BANZAI_SIDE",
    "FINISH_PHASES",
    "LOSS_ORDER",
    "MAX_INITIATIVE_ROUNDS",
    "REGAIN_ORDER",
    "START_PHASES",
    "OrderError",
    "PlannedBattle",
    "SupplyNeed",
    "TurnError",
    "TurnOutcome",
    "TurnPlan",
    "_Map",
    "ai_orders",
    "check_order",
    "check_result",
    "deployment_has_woods",
    "distances_from",
    "engaged",
    "finish_turn",
    "pair_battles",
    "play_turn",
    "sniper_choices",
    "standing_order",
    "start_turn",
    "supply_need",
    "update_control",
]

Phase = Callable[[TurnInPlay], None]

# The turn as it is played: each phase's name (the ``phase`` of its records) and its
# function. ``start_turn`` plays these, up to the battles waiting to be fought...
START_PHASES: tuple[tuple[str, Phase], ...] = (
    ("naval", events.naval_phase),
    ("aerial", events.aerial_phase),
    ("supply", supply.supply_phase),
    ("initiative", initiative.initiative_phase),
    ("movement", movement.movement_phase),
    ("battles", battles.battles_phase),
)
# ...and ``finish_turn`` these, once every battle has its result.
FINISH_PHASES: tuple[tuple[str, Phase], ...] = (
    ("battles", results.results_phase),
    ("control", control.control_phase),
    ("end", end.end_phase),
)


@dataclass(slots=True)
class _Turn:
    """What a turn carries from its start to its end: the state, the log, the battles."""

    number: int
    state: CampaignState
    log: list[dict[str, Any]]
    battles: list[PlannedBattle]


@dataclass(slots=True)
class TurnPlan(_Turn):
    """A turn after movement, its battles paired and waiting for their results."""

    initiative: str


@dataclass(slots=True)
class TurnOutcome(_Turn):
    """A turn played to its end, with its battles' results."""

    results: dict[str, dict[str, Any]] = field(default_factory=dict)


def start_turn(
    state: CampaignState,
    orders: Mapping[str, Order] | None = None,
    *,
    roller: Roller | None = None,
    players: Collection[str] = (),
    seed: int | None = None,
) -> TurnPlan:
    """Phases 1-5 and the pairing of phase 6, on a copy of ``state``.

    The dice come from the turn ``seed`` (by default the campaign seed's for this turn,
    ``rules.campaign.seeds.default_turn_seed``); a ``roller`` given instead serves every
    stream (tests script their dice that way). ``players``: the sides a player plays (the
    rest are the AI's: its standing orders and its sniper choices).
    """
    if state.finished:
        raise TurnError(f"the campaign {state.name!r} has ended; no more turns are played")
    state = state.copy()
    number = state.turn + 1
    if seed is None:
        seed = default_turn_seed(state.seed, number)
    planned = ai_orders(state, orders or {}, players)
    dice = TurnDice(seed, scripted=roller)
    turn = TurnInPlay(
        number=number,
        state=state,
        mapping=_Map(state),
        log=[],
        dice=dice,
        seed=seed,
        orders=orders or {},
        players=players,
        planned=planned,
    )
    for _, phase in START_PHASES:
        phase(turn)
    if dice.rolled != sum(len(r["dice"]) for r in turn.log):
        raise AssertionError("a campaign roll went unlogged")  # a bug, never bad input
    return TurnPlan(
        number=number, state=state, log=turn.log, battles=turn.battles, initiative=turn.first
    )


def finish_turn(plan: TurnPlan, results: Mapping[str, Mapping[str, Any]]) -> TurnOutcome:
    """Feed every battle's result back into the map; check the end of the campaign."""
    state = plan.state.copy()
    turn = TurnInPlay(
        number=plan.number,
        state=state,
        mapping=_Map(state),
        log=list(plan.log),
        battles=plan.battles,
        results=results,
    )
    for _, phase in FINISH_PHASES:
        phase(turn)
    return TurnOutcome(
        number=plan.number,
        state=state,
        log=turn.log,
        battles=plan.battles,
        results={k: dict(v) for k, v in results.items()},
    )


def play_turn(
    state: CampaignState,
    orders: Mapping[str, Order] | None = None,
    resolve: Callable[[dict[str, Any], int], dict[str, Any]] | None = None,
    *,
    players: Collection[str] = (),
    seed: int | None = None,
) -> TurnOutcome:
    """A whole turn with every battle fought automatically."""
    plan = start_turn(state, orders, players=players, seed=seed)
    if resolve is None:
        results = {b.key: dict(_fight(b)) for b in plan.battles}
    else:
        results = {b.key: resolve(b.spec, b.seed) for b in plan.battles}
    return finish_turn(plan, results)


def _fight(battle: PlannedBattle) -> BattleResult:
    """A battle of the turn fought by the rules, from its spec as the pairing read it and
    on its table when the pairing rolled it."""
    spec = battle.parsed or parse_battle(battle.spec)
    return resolve_battle(spec, battle.seed, table=battle.table)
