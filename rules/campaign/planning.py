"""Planning a turn: the orders a company may be given, and the battle an order leads to.

Pure functions over a ``CampaignState``, for the players' orders page:

- ``legal_moves`` asks ``check_order`` about every linked area, so the page offers only
  what the turn will accept and says why the rest is refused, in the rules' own words;
- ``as_seen_by`` is the campaign as one side may know it under fog of war: hidden enemy
  companies are left out, and each glimpsed one is an estimate made only from what the
  side sees of it (its side, kind, area and strength band: ``estimated_company``), never
  its real stands, establishment, losses, quality or which company it is;
- ``planned_battle`` builds the BATTLE.json an attack would be fought from, with the
  turn's own pairing (``pair_battles``), so the odds are those of the battle the turn
  would really set up on that information; ``foreseen_battle`` adds the battle already
  certain where a company stands with the enemy in its area (both engaged);
- ``fight_runs`` and ``odds_of`` split ``rules.odds.battle_odds`` into chunks a page can
  compute a few at a time, with the same seeds: the chunks add up to ``battle_odds``.
"""

from __future__ import annotations

import signal
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.campaign import visibility as fog
from rules.campaign.state import CampaignState, Company, Order
from rules.campaign.turn import (
    LOSS_ORDER,
    OrderError,
    PlannedBattle,
    check_order,
    pair_battles,
    sniper_choices,
)
from rules.dice import derive_seed
from rules.odds import wilson_interval
from rules.rulesets import resolve_battle
from rules.spec import BattleSpec

# The middle of each strength band, as a share of establishment (bands: weak below half,
# strong from 85%): the strength an unseen company is estimated at.
BAND_MIDDLE = {
    "weak": fog.WEAK_BELOW / 2,
    "average": (fog.WEAK_BELOW + fog.STRONG_FROM) / 2,
    "strong": (fog.STRONG_FROM + 1) / 2,
}
# Quality of a glimpsed enemy fighting company: the side cannot see it.
ESTIMATED_QUALITY = "trained"
# The establishment a glimpsed enemy fighting company is estimated at: the text's rifle
# company of its side (rulings section 2), the same for every glimpse. Never the
# company's own establishment: which company a glimpse is, is hidden (section 6: "without
# name"), and so are its battle losses, which shrink its establishment when supply does
# not replace them (``supply_replaces_battle_losses`` off).
ESTIMATED_ESTABLISHMENT = {
    "australian": {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "forward_observer": 1},
    "japanese": {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "hmg": 1},
}
MOVES = ("advance", "withdraw")


# --- legal orders -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refused:
    """A linked area the company may not move to, and why (``check_order``'s words)."""

    area: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LegalMoves:
    advances: tuple[str, ...]
    withdrawals: tuple[str, ...]
    refused: tuple[Refused, ...]

    def allows(self, kind: str, target: str | None) -> bool:
        if kind == "hold":
            return target is None
        return target in (self.advances if kind == "advance" else self.withdrawals)


def legal_moves(state: CampaignState, company: str, *, side: str | None) -> LegalMoves:
    """Every linked area as an advance and as a withdrawal, checked by ``check_order``
    exactly as ``give_order`` will check it. An area refused both ways lists both
    reasons (once, when they are the same: "engaged", say)."""
    here = state.companies[company].area
    advances: list[str] = []
    withdrawals: list[str] = []
    refused: list[Refused] = []
    for area in state.neighbours(here):
        reasons: list[str] = []
        for kind, allowed in (("advance", advances), ("withdraw", withdrawals)):
            try:
                check_order(state, Order(company, kind, area), side=side)
            except OrderError as refusal:
                if str(refusal) not in reasons:
                    reasons.append(str(refusal))
            else:
                allowed.append(area)
        if area not in advances and area not in withdrawals:
            refused.append(Refused(area, tuple(reasons)))
    return LegalMoves(tuple(advances), tuple(withdrawals), tuple(refused))


# --- the enemy as a side sees it ----------------------------------------------------------


def estimated_stands(establishment: Mapping[str, int], band: str) -> dict[str, int]:
    """Stands of a company of this establishment at the middle of its strength band,
    the missing ones taken as supply losses take them (rifle squads first). Always in
    the band itself, and at least one stand (a company with none is gone)."""
    total = sum(establishment.values())
    if total == 0:
        return dict(establishment)
    in_band = [n for n in range(1, total + 1) if _band(n, total) == band] or [1]
    wanted = total * BAND_MIDDLE[band]
    held = min(in_band, key=lambda n: (abs(n - wanted), n))
    stands = dict(establishment)
    missing = total - held
    for unit in LOSS_ORDER:
        if missing == 0:
            break
        taken = min(stands.get(unit, 0), missing)
        if taken:
            stands[unit] -= taken
            missing -= taken
    return stands


def _band(held: int, total: int) -> str:
    share = held / total
    if share < fog.WEAK_BELOW:
        return "weak"
    return "strong" if share >= fog.STRONG_FROM else "average"


def estimated_company(company: Company, band: str) -> Company:
    """A glimpsed enemy fighting company as its enemy may estimate it, from what the
    enemy sees of it (section 6): its side, kind, area and band, nothing else. It is the
    text's rifle company of its side (``ESTIMATED_ESTABLISHMENT``) at the middle of its
    band, trained, so every glimpse of one band on one side is the same estimate. The
    name is kept for the server only (the pages never show it for an estimate, and the
    AI's odds leave names out): it breaks ties only between identical estimates."""
    establishment = ESTIMATED_ESTABLISHMENT[company.side]
    return Company(
        name=company.name,
        side=company.side,
        kind=company.kind,
        area=company.area,
        stands=estimated_stands(establishment, band),
        establishment=dict(establishment),
        quality=ESTIMATED_QUALITY if company.fighting else None,
    )


def as_seen_by(state: CampaignState, side: str | None) -> CampaignState:
    """The campaign as ``side`` may know it. The GM (None), a finished campaign and fog
    of war off see it whole; otherwise enemy companies out of sight are left out,
    those in sight are estimates (``estimated_company``), and the seed is 0."""
    viewer = fog.Viewer(side)
    if fog.sees_everything(state, viewer):
        return state.copy()
    seen = state.copy()
    # Nor the campaign seed (section 6: no seed of a turn not yet played): a sketch's
    # battles are seeded from it, and the AI's sniper choice rolls its table from that.
    seen.seed = 0
    glimpsed = fog.glimpse_handles(state, viewer)
    companies: dict[str, Company] = {}
    for name, company in seen.companies.items():
        if company.side == side:
            companies[name] = company
        elif name in glimpsed:
            companies[name] = estimated_company(company, fog.strength_band(company))
    seen.companies = companies
    return seen


# --- the battle an order leads to ---------------------------------------------------------


def planned_battle(
    state: CampaignState, *, company: str, orders: Mapping[str, Order], for_odds: bool = False
) -> PlannedBattle | None:
    """The battle ``company`` would fight if its order is carried out and the enemy
    stays where ``state`` has it; None if its order leads to no battle.

    ``orders`` are its side's orders (by company). Every company of the side ordered
    into the same area goes there too; the battle is paired and built as the turn pairs
    and builds it (``pair_battles``): strongest against strongest, extras joining the
    largest battle. The side already in the area defends (both there: its controller).

    ``for_odds``: the battle as the campaign AI's odds read it (``ai.attacker_win_share``),
    which decide the defender's sniper themselves and check the battle they fight: the
    sniper is left out (so no table is rolled to choose it) and the spec is not checked
    here. The same battle otherwise, paired and keyed alike.
    """
    mover = state.companies.get(company)
    order = orders.get(company)
    if mover is None or not mover.fighting or order is None or order.kind not in MOVES:
        return None
    target = order.target or ""
    side = mover.side
    if not state.companies_in(target, side=state.enemy_of(side), fighting=True):
        return None
    arriving = _arriving(state, orders, side, target)
    if company not in arriving:
        return None
    return _paired(state, company, side, target, arriving, orders, for_odds=for_odds)


def foreseen_battle(
    state: CampaignState, *, company: str, orders: Mapping[str, Order]
) -> PlannedBattle | None:
    """The battle ``company`` will fight this turn as far as its side can foresee it: the
    one its order leads to (``planned_battle``), or, for a fighting company that already
    stands in an area with enemy fighting companies, the battle there. Such a company is
    engaged and may not move (``check_order``), nor may the enemy there, so the turn
    fights that battle whatever either side orders; the side's companies ordered into
    the area join it, paired as the turn pairs them (both sides there before movement:
    the area's controller defends). None if no battle is certain.

    For the orders page only: the campaign AI asks ``planned_battle`` about moves."""
    mover = state.companies.get(company)
    if mover is None or not mover.fighting:
        return None
    here = mover.area
    if not state.companies_in(here, side=state.enemy_of(mover.side), fighting=True):
        return planned_battle(state, company=company, orders=orders)
    arriving = _arriving(state, orders, mover.side, here)
    return _paired(state, company, mover.side, here, arriving, orders, for_odds=False)


def _paired(
    state: CampaignState,
    company: str,
    side: str,
    target: str,
    arriving: list[str],
    orders: Mapping[str, Order],
    *,
    for_odds: bool,
) -> PlannedBattle | None:
    """The battle of ``company`` once ``arriving`` have moved into ``target``, as the
    turn pairs it (``for_odds`` as for ``planned_battle``)."""
    there = {c.name for c in state.companies_in(target, fighting=True)}
    arrival = {target: {state.companies[name].side: 0 for name in there}}
    arrival[target].setdefault(side, 1)
    # Only this battle's companies, the arriving ones moved in.
    sketch = state.sketch(there | set(arriving))
    for name in arriving:
        sketch.companies[name].area = target
    # For the odds, every company declines the sniper: with no choice left to the AI,
    # pairing rolls no table for it. Otherwise the side's own companies choose as their
    # orders do (no order: none, as the turn takes it for a side with a player), and
    # the enemy's as its AI would (a guess: the enemy's orders are hidden).
    snipers = (
        dict.fromkeys(sketch.companies, False)
        if for_odds
        else {
            name: choice
            for name, choice in sniper_choices(sketch, orders, (side,)).items()
            if sketch.companies[name].side == side
        }
    )
    for battle in pair_battles(sketch, arrival, state.turn + 1, [], snipers, check=not for_odds):
        if company in battle.attackers or company in battle.defenders:
            return battle
    return None


def _arriving(
    state: CampaignState, orders: Mapping[str, Order], side: str, target: str
) -> list[str]:
    """The side's fighting companies whose orders, carried out, take them to ``target``."""
    arriving = []
    for name, given in orders.items():
        other = state.companies.get(name)
        if other is None or other.side != side or not other.fighting:
            continue
        if given.kind not in MOVES or given.target != target:
            continue
        try:
            check_order(state, given, side=side)
        except OrderError:
            continue  # refused when carried out: it holds
        arriving.append(name)
    return arriving


def advancing_into(
    state: CampaignState, orders: Mapping[str, Order], side: str, target: str
) -> list[str]:
    """The side's fighting companies that reach ``target`` only by advancing into it: an
    advance is carried out only by a company in supply this turn (``check_order``), which
    its supply roll at the start of the turn decides, before anything moves. A company
    withdrawing there moves in or out of supply; one already there holds either way."""
    return [
        name
        for name in _arriving(state, orders, side, target)
        if orders[name].kind == "advance" and state.companies[name].area != target
    ]


# --- odds, a chunk at a time --------------------------------------------------------------


@dataclass(slots=True)
class Tally:
    """Battles fought so far of an odds estimate, and what they came to."""

    runs: int = 0
    wins: dict[str, int] = field(default_factory=lambda: {"attacker": 0, "defender": 0})
    lost: dict[str, int] = field(default_factory=lambda: {"attacker": 0, "defender": 0})
    turns: int = 0

    def add(self, other: Tally) -> Tally:
        return Tally(
            runs=self.runs + other.runs,
            wins={k: self.wins[k] + other.wins[k] for k in self.wins},
            lost={k: self.lost[k] + other.lost[k] for k in self.lost},
            turns=self.turns + other.turns,
        )

    def to_json(self) -> dict[str, Any]:
        return {"runs": self.runs, "wins": self.wins, "lost": self.lost, "turns": self.turns}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        return cls(
            runs=int(data["runs"]),
            wins=dict(data["wins"]),
            lost=dict(data["lost"]),
            turns=int(data["turns"]),
        )


def ignore_interrupts() -> None:
    """The start of a process that fights odds runs for another (a pool's initializer).

    Ctrl-C at a terminal reaches the whole process group; the pool's owner stops its
    processes itself, so they let it pass rather than each print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def fight_runs(spec: BattleSpec, *, seed: int, start: int, stop: int) -> Tally:
    """Runs ``start`` to ``stop - 1`` of ``battle_odds(spec, seed=seed)``, same seeds."""
    tally = Tally()
    for run in range(start, stop):
        result = resolve_battle(spec, derive_seed(seed, "odds", run))
        tally.runs += 1
        tally.wins[result["winner"]] += 1
        tally.turns += result["turns"]
        for key in tally.lost:
            tally.lost[key] += sum(result["losses"][key].values())
    return tally


def odds_of(tally: Tally) -> dict[str, Any]:
    """The odds so far, as ``battle_odds`` reports them (win shares with their 95%
    Wilson intervals, mean losses and length)."""
    runs = tally.runs

    def share(key: str) -> dict[str, float]:
        low, high = wilson_interval(tally.wins[key], runs)
        p = tally.wins[key] / runs if runs else 0.0
        return {"p": round(p, 6), "low": round(low, 6), "high": round(high, 6)}

    return {
        "runs": runs,
        "attacker_win": share("attacker"),
        "defender_win": share("defender"),
        "mean_losses": {k: round(v / runs, 4) if runs else 0.0 for k, v in tally.lost.items()},
        "mean_turns": round(tally.turns / runs, 4) if runs else 0.0,
    }
