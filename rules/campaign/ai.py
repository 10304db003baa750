"""The ``sensible`` standing order: the campaign AI that plays a side with no player.

``plan_side`` gives an order to each of a side's ``sensible`` companies when the side
comes to move, from what the side may know (``planning.as_seen_by``: under fog of war,
enemy companies out of sight are left out and glimpsed ones are estimates). It:

- attacks where the odds favour it: the odds are those of the battle the turn would
  set up (``planning.planned_battle``, the turn's own pairing), fought ``ODDS_RUNS``
  times by the same engine; it sends the fewest companies that make the attack good
  enough (``ATTACK_AT``), and presses on at worse odds (``RETAKE_AT``) for the
  objective when the enemy holds it, at any odds in the last ``LAST_CHANCE_TURNS``;
- holds ground worth holding: the objective is never left empty, nor its own base with
  an enemy next to it, and a company on either does not withdraw;
- withdraws, before the enemy can attack, from a battle it would lose badly (its odds
  as defender below ``WITHDRAW_BELOW``), as far as the campaign rules allow a
  withdrawal (not engaged; to a linked area closer to its base);
- uses supply: a move's destination must leave the company a fair chance of being in
  supply there next turn (``MIN_SUPPLY``; the roll against the distance, the supply
  company's +1, the bastard track's -1, the airdrop base), a company about to lose
  stands to supply withdraws toward it, and the supply company goes where it helps the
  most fighting companies' next rolls without being caught;
- deploys snipers: its companies make no sniper choice, so the turn takes the AI's
  (``turn.deployment_has_woods``).

Determinism: the plan depends only on the state and the campaign seed. Ties between
equally good moves are broken by its own ``random.Random`` seeded from
``derive_seed(campaign seed, "ai", turn, side)``; the odds are fought from seeds derived
from the battle itself (``derive_seed(ODDS_SEED, "ai-odds", digest of the spec)``), never
from the turn's dice, so planning rolls none of the turn's dice and a plan changes no
other roll of the turn. As the odds of a battle depend only on the battle, they are
cached (``_ODDS``, bounded) across turns and campaigns.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.campaign import planning
from rules.campaign import visibility as fog
from rules.campaign.state import CampaignState, Company, Order
from rules.campaign.turn import OrderError, _Map, check_order, engaged
from rules.dice import derive_seed
from rules.spec import parse_battle

ODDS_RUNS = 8  # battles fought for the odds of one candidate battle
ODDS_SEED = 13  # the root of the odds seeds: the same battle has the same odds everywhere
ATTACK_AT = 0.5  # attack when the attacker's win share is at least this
RETAKE_AT = 0.5  # not holding the objective: on the way to it, with all the turns ahead
RETAKE_FLOOR = 0.15  # ... and with few turns ahead (from RETAKE_AT down to this)
LAST_CHANCE_TURNS = 4  # the last turns, when any chance at that objective is taken
WITHDRAW_BELOW = 0.25  # defending, withdraw when the defender's win share is below this
REINFORCED_AT = 0.6  # reinforce the objective until its defenders' share is this
MIN_SUPPLY = 0.5  # a move must leave at least this chance of being in supply next turn
MAX_ATTACKERS = 3  # companies tried together against one area
CLOSE_LOW, CLOSE_HIGH = 0.25, 0.75  # a share in this band after ODDS_RUNS gets as many more
FINISH_AT = 0.35  # holding the objective, attack the enemy base at this: taken, it ends the war
_ODDS_CACHE_SIZE = 4096
_ODDS: OrderedDict[str, float] = OrderedDict()  # digest of a spec -> attacker win share


# --- odds ----------------------------------------------------------------------------------


def _normalised(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The battle as the odds see it: without names (they change nothing), and with the
    defender's sniper as the AI expects it (a defender in wooded country swaps one): a
    real battle's sniper comes from its terrain, which the side cannot see (so the AI's
    sketches leave it out: ``planned_battle``'s ``for_odds``)."""
    out: dict[str, Any] = json.loads(json.dumps(spec))
    out["area"]["name"] = "odds"
    for key in ("attacker", "defender"):
        out[key]["name"] = key
        for n, company in enumerate(out[key].get("companies") or []):
            company["name"] = f"{key} {n}"
    wooded = out["area"]["vegetation"] in ("jungle", "light")
    out["defender"]["sniper"] = bool(wooded and out["defender"]["stands"].get("rifle_squad"))
    return out


def attacker_win_share(spec: Mapping[str, Any], runs: int = ODDS_RUNS) -> float:
    """The attacker's win share over ``runs`` battles of ``spec``, cached."""
    battle = _normalised(spec)
    text = json.dumps(battle, sort_keys=True)
    digest = hashlib.sha256(f"{runs}:{text}".encode()).hexdigest()
    if digest in _ODDS:
        _ODDS.move_to_end(digest)
        return _ODDS[digest]
    spec_ = parse_battle(battle)
    seed = derive_seed(ODDS_SEED, "ai-odds", digest)
    # Half the runs first; a one-sided half (all won or all lost) is taken as it is.
    half = max(1, runs // 2)
    tally = planning.fight_runs(spec_, seed=seed, start=0, stop=half)
    if 0 < tally.wins["attacker"] < half:
        tally = tally.add(planning.fight_runs(spec_, seed=seed, start=half, stop=runs))
        # A close battle is where a decision turns on the odds: as many runs again.
        if CLOSE_LOW <= tally.wins["attacker"] / tally.runs <= CLOSE_HIGH:
            tally = tally.add(planning.fight_runs(spec_, seed=seed, start=runs, stop=2 * runs))
    share = tally.wins["attacker"] / tally.runs
    _ODDS[digest] = share
    if len(_ODDS) > _ODDS_CACHE_SIZE:
        _ODDS.popitem(last=False)
    return share


# --- supply ----------------------------------------------------------------------------------


def supply_chance(
    state: CampaignState, mapping: _Map, company: Company, area: str, depots: Iterable[str]
) -> float:
    """The chance that ``company`` is in supply on its roll in ``area`` next turn, with
    its side's supply companies in ``depots``: d6 + modifiers >= distance to its base
    (or to the airdrop base), as the supply phase rolls it; events left out."""
    settings = state.settings
    depots = set(depots)
    distance = mapping.home(company.side, area)
    planes = sum(g.planes for g in state.air if g.side == company.side)
    if (
        company.side == settings.airdrop_side
        and settings.airdrop_base in state.areas
        and state.areas[area].zone == settings.airdrop_zone
        and planes > 0
        and area in depots
    ):
        distance = min(distance, mapping.distance(area, settings.airdrop_base))
    modifier = 0
    if depots & ({area} | set(state.neighbours(area))):
        modifier += settings.supply_company_bonus
    if state.areas[area].track in settings.rough_tracks:
        modifier -= settings.rough_track_penalty
    return sum(1 for die in range(1, 7) if die + modifier >= distance) / 6


# --- the plan --------------------------------------------------------------------------------


@dataclass(slots=True)
class _Plan:
    state: CampaignState  # the real state: only our own companies are read from it
    view: CampaignState  # what the side knows
    side: str
    mapping: _Map
    rng: random.Random
    orders: dict[str, Order] = field(default_factory=dict)
    staying: set[str] = field(default_factory=set)  # companies that keep their area

    @property
    def enemy(self) -> str:
        return self.state.enemy_of(self.side)

    def legal(self, order: Order) -> bool:
        """Would the turn allow ``order``, the company in supply this turn? Planned
        before the supply rolls, an advance is given as if it will be: refused for
        supply when carried out, the company only holds."""
        try:
            check_order(self.state, order, side=self.side, in_supply=True)
        except OrderError:
            return False
        return True

    def move_into(self, company: Company, area: str) -> Order | None:
        """The move into ``area`` the rules allow ``company``: an advance, else a
        withdrawal; None if neither."""
        for kind in ("advance", "withdraw"):
            order = Order(company.name, kind, area)
            if self.legal(order):
                return order
        return None

    def enemies_in(self, area: str) -> list[Company]:
        return self.view.companies_in(area, side=self.enemy, fighting=True)

    def free_enemies_next_to(self, area: str, *, besides: str | None = None) -> list[Company]:
        """The visible enemy companies next to ``area`` (those in ``besides`` left out)
        that are not engaged, so may move this turn."""
        return [
            enemy
            for link in self.state.neighbours(area)
            if link != besides
            for enemy in self.enemies_in(link)
            if not engaged(self.view, enemy)
        ]

    def depots(self) -> list[str]:
        """Where the side's supply companies will be (planned moves included)."""
        out = []
        for c in self.state.companies.values():
            if c.side == self.side and not c.fighting:
                order = self.orders.get(c.name)
                out.append(order.target if order and order.target else c.area)
        return out

    def destination(self, company: Company) -> str:
        order = self.orders.get(company.name)
        return order.target if order and order.target else company.area

    def holds_objective(self) -> bool:
        """Does the side hold the objective, as far as it can see? Out of sight it does
        not know (a controller out of sight is a hidden fact): it counts as not held."""
        objective = self.state.settings.objective
        if objective not in self.view.areas:
            return False
        if not fog.sees_everything(self.state, fog.Viewer(self.side)) and (
            objective not in fog.watched_areas(self.state, self.side)
        ):
            return False
        return self.view.areas[objective].controller == self.side

    def worth_holding(self, area: str) -> bool:
        """The objective, and the side's own base (lost, the campaign ends)."""
        side = self.state.sides[self.side]
        return area in (self.state.settings.objective, side.base)

    def pick(self, options: list[Any], key: Any) -> Any:
        """The best of ``options`` by ``key`` (lowest first), ties broken by the AI's
        own seeded Random."""
        best = min(key(o) for o in options)
        tied = [o for o in options if key(o) == best]
        return tied[0] if len(tied) == 1 else self.rng.choice(tied)


def plan_side(state: CampaignState, side: str) -> dict[str, Order]:
    """Orders for every ``sensible`` company of ``side`` (those it leaves out hold)."""
    plan = _Plan(
        state=state,
        view=planning.as_seen_by(state, side),
        side=side,
        mapping=_Map(state),
        rng=random.Random(derive_seed(state.seed, "ai", state.turn + 1, side)),
    )
    mine = sorted(
        (c for c in state.companies.values() if c.side == side and c.standing_order == "sensible"),
        key=lambda c: c.name,
    )
    fighters = [c for c in mine if c.fighting]
    for company in fighters:
        if engaged(state, company):
            plan.staying.add(company.name)  # it may not move: it fights where it is
    _keep_key_ground(plan, fighters)
    _hold_objective(plan, fighters)
    _attacks(plan, fighters)
    _reinforce_objective(plan, fighters)
    _guard_base(plan, fighters)
    _withdrawals(plan, fighters)
    _advances(plan, fighters)
    _supply_companies(plan, [c for c in mine if not c.fighting])
    return plan.orders


def _free(plan: _Plan, fighters: list[Company]) -> list[Company]:
    return [c for c in fighters if c.name not in plan.staying and c.name not in plan.orders]


def _keep_key_ground(plan: _Plan, fighters: list[Company]) -> None:
    """The strongest company on the objective stays there, and on the side's base while
    an enemy company it can see is next to it."""
    base = plan.state.sides[plan.side].base
    threatened = any(plan.enemies_in(a) for a in plan.state.neighbours(base))
    for area in {plan.state.settings.objective, *([base] if threatened else [])}:
        here = [c for c in fighters if c.area == area]
        if here and not any(c.name in plan.staying for c in here):
            plan.staying.add(max(here, key=lambda c: (c.strength, c.name)).name)


def _hold_objective(plan: _Plan, fighters: list[Company]) -> None:
    """More of the companies on the objective stay there, strongest first, while the
    enemy that could reach it would attack it with better than ``1 - REINFORCED_AT``
    odds against those staying: holding it at the end wins, so none leaves it weaker
    than that to attack elsewhere."""
    objective = plan.state.settings.objective
    staying = [c for c in fighters if c.area == objective and c.name in plan.staying]
    if not staying or objective is None:
        return
    others = sorted(
        (c for c in fighters if c.area == objective and c.name not in plan.staying),
        key=lambda c: (-c.strength, c.name),
    )
    for company in others:
        share = _threat_to(plan, objective, staying)
        if share is None or share >= REINFORCED_AT:
            return
        plan.staying.add(company.name)
        staying.append(company)


def _attack_at(plan: _Plan, target: str, attackers: list[Company]) -> float:
    """The odds an attack on ``target`` needs. Not holding the objective, the objective
    and an area on the way to it are worth a worse chance (holding it wins at the end; a
    lost attack costs stands supply can replace), the worse the fewer turns are left to
    wait for a better one (``RETAKE_AT`` with the whole campaign ahead, down to
    ``RETAKE_FLOOR``), and any chance at all when only the last ``LAST_CHANCE_TURNS``
    are left once there: waiting then loses for sure."""
    settings = plan.state.settings
    objective = settings.objective
    if target == plan.state.sides[plan.enemy].base and plan.holds_objective():
        return FINISH_AT  # taken, it ends the campaign, won
    if objective not in plan.state.areas or plan.holds_objective():
        return ATTACK_AT
    to_go = plan.mapping.distance(target, objective)
    if not any(plan.mapping.distance(c.area, objective) > to_go for c in attackers):
        return ATTACK_AT  # not on the way to the objective
    spare = settings.turn_limit - plan.state.turn - to_go
    if spare <= LAST_CHANCE_TURNS:
        return 1e-9
    return RETAKE_FLOOR + (RETAKE_AT - RETAKE_FLOOR) * min(1.0, spare / settings.turn_limit)


def _attack_odds(plan: _Plan, attackers: list[Company], target: str) -> float | None:
    """Our chance that these companies' move into ``target`` wins every battle it leads
    to (the turn pairs them strongest against strongest, so two against two are two
    battles, and the area is taken only if both are won): the product of each battle's
    share, as the attacker, or as the defender where we were there first (an area both
    sides hold). None if the move leads to no battle."""
    orders = {c.name: Order(c.name, "advance", target) for c in attackers}
    chance, fought = 1.0, set()
    for company in attackers:
        battle = planning.planned_battle(
            plan.view, company=company.name, orders=orders, for_odds=True
        )
        if battle is None or battle.key in fought:
            continue
        fought.add(battle.key)
        share = attacker_win_share(battle.spec)
        chance *= share if battle.attacker_side == plan.side else 1 - share
    return chance if fought else None


def _group_odds(plan: _Plan, group: list[Company], target: str) -> float | None:
    """``_attack_odds`` for ``group``, and no better than those of its members that were
    in supply at the last roll: the plan is made before this turn's roll, and a member
    out of supply then may be refused its advance, leaving the rest to go in alone."""
    share = _attack_odds(plan, group, target)
    sure = [c for c in group if c.in_supply is not False]
    if share is None or not sure or len(sure) == len(group):
        return share
    alone = _attack_odds(plan, sure, target)
    return share if alone is None else min(share, alone)


def _attacks(plan: _Plan, fighters: list[Company]) -> None:
    """Attack each enemy-held area nearby with the fewest companies (strongest first)
    that make the odds good enough; the objective first, then the areas nearest the
    enemy base."""
    targets = sorted(
        {
            area
            for c in _movable(plan, fighters)
            for area in plan.state.neighbours(c.area)
            if plan.enemies_in(area)
        },
        key=lambda a: (
            a != plan.state.settings.objective,
            plan.mapping.enemy_base(plan.side, a),
            a,
        ),
    )
    for target in targets:
        able = _able_to_attack(plan, fighters, target)
        if not able:
            continue
        group = _attack_group(plan, able, target, _attack_at(plan, target, able))
        for company in group:
            plan.orders[company.name] = Order(company.name, "advance", target)
            plan.staying.discard(company.name)


def _attack_group(plan: _Plan, able: list[Company], target: str, needed: float) -> list[Company]:
    """The companies to send against ``target`` (none if no group is good enough): the
    fewest, strongest first, whose chance is at least ``needed``; pressing on at worse
    odds than a free choice (``needed`` under ``ATTACK_AT``: the objective to retake, the
    last chance), the group with the best chance, the fewest among equals (one company
    sent alone against three would fight all three at once)."""
    best: tuple[float, int] | None = None
    for size in range(1, len(able) + 1):
        share = _group_odds(plan, able[:size], target)
        if share is None or share < needed:
            continue
        if needed >= ATTACK_AT:
            return able[:size]
        if best is None or share > best[0]:
            best = (share, size)
    return able[: best[1]] if best else []


def _movable(plan: _Plan, fighters: list[Company]) -> list[Company]:
    """The companies without an order that are not engaged (some may be kept)."""
    return [c for c in fighters if c.name not in plan.orders and not engaged(plan.state, c)]


def _sortie(plan: _Plan, company: Company, target: str) -> bool:
    """May ``company``, kept on its side's base, attack ``target``? Only when every
    visible enemy company next to the base (not engaged elsewhere) is in ``target``:
    moving first, the attack engages them all; moving second, it is engaged on its base
    by whoever attacks it, and defends it as if it had stayed. Sitting on the base is
    the worst place to be beaten (nowhere to retreat: destroyed), and it wins nothing."""
    base = plan.state.sides[plan.side].base
    if company.area != base:
        return False
    return not plan.free_enemies_next_to(base, besides=target)


def _able_to_attack(plan: _Plan, fighters: list[Company], target: str) -> list[Company]:
    """The companies that may attack ``target`` (free, or kept on the base for a sortie;
    next to it, the advance allowed, some chance of supply there), strongest first, at
    most ``MAX_ATTACKERS``."""
    able = [
        c
        for c in _movable(plan, fighters)
        if (c.name not in plan.staying or _sortie(plan, c, target))
        and target in plan.state.neighbours(c.area)
        and plan.legal(Order(c.name, "advance", target))
        and supply_chance(plan.state, plan.mapping, c, target, plan.depots()) > 0
    ]
    return sorted(able, key=lambda c: (-c.strength, c.name))[:MAX_ATTACKERS]


def _reinforce_objective(plan: _Plan, fighters: list[Company]) -> None:
    """Free companies next to the objective, which the side holds with companies staying
    there, move in to defend it while the enemy could attack it at better than even
    odds for us to hold, and while each one makes the defence better."""
    objective = plan.state.settings.objective
    if objective not in plan.state.areas:
        return
    staying = [c for c in fighters if plan.destination(c) == objective and c.area == objective]
    if not staying:
        return
    share = _threat_to(plan, objective, staying)
    helpers = [
        c
        for c in _free(plan, fighters)
        if objective in plan.state.neighbours(c.area) and not plan.enemies_in(objective)
    ]
    for company in sorted(helpers, key=lambda c: (-c.strength, c.name)):
        order = plan.move_into(company, objective)
        if order is None:
            continue
        if share is None or share >= REINFORCED_AT:
            return
        better = _threat_to(plan, objective, [*staying, company])
        if better is None or better <= share:
            return
        plan.orders[company.name] = order
        staying.append(company)
        share = better


def _threat_to(plan: _Plan, area: str, defenders: list[Company]) -> float | None:
    """Our defenders' win share if every enemy company that could reach ``area`` attacks
    it; None if none could."""
    attackers = [e for e in plan.free_enemies_next_to(area) if _enemy_may_advance(plan, e, area)]
    if not attackers or not defenders:
        return None
    orders = {e.name: Order(e.name, "advance", area) for e in attackers}
    keep = {c.name for c in defenders} | set(orders)
    sketch = plan.view.sketch(
        {
            n
            for n, c in plan.view.companies.items()
            if n in keep or (c.area != area and c.side == plan.enemy)
        }
    )
    for company in defenders:
        sketch.companies[company.name].area = area  # those coming in defend with them
    battle = planning.planned_battle(
        sketch, company=attackers[0].name, orders=orders, for_odds=True
    )
    if battle is None:
        return None
    return 1 - attacker_win_share(battle.spec)


def _enemy_may_advance(plan: _Plan, enemy: Company, area: str) -> bool:
    """Could ``enemy`` advance into ``area`` this turn, as far as the side can tell? One
    it knows was out of supply at its last roll is taken as unable to (a guess at a roll
    it cannot see; without fog of war it sees the last one)."""
    try:
        check_order(
            plan.view,
            Order(enemy.name, "advance", area),
            side=plan.enemy,
            in_supply=enemy.in_supply,
        )
    except OrderError:
        return False
    return True


def _guard_base(plan: _Plan, fighters: list[Company]) -> None:
    """Not holding the objective, the side loses the campaign the turn its base falls:
    an empty base with a visible enemy next to it gets the strongest free company next
    to it (a withdrawal into it is always closer to its base)."""
    base = plan.state.sides[plan.side].base
    if plan.holds_objective() or any(plan.destination(c) == base for c in fighters):
        return
    if not any(plan.enemies_in(a) for a in plan.state.neighbours(base)):
        return
    able = [
        c
        for c in _free(plan, fighters)
        if base in plan.state.neighbours(c.area) and plan.legal(Order(c.name, "withdraw", base))
    ]
    if able:
        guard = max(able, key=lambda c: (c.strength, c.name))
        plan.orders[guard.name] = Order(guard.name, "withdraw", base)


def _withdrawals(plan: _Plan, fighters: list[Company]) -> None:
    """Withdraw from a battle it would lose badly, or from an area where a second turn
    out of supply would cost stands, unless the ground is worth holding. From a battle,
    never into its own base: the enemy can follow it there, and a defender beaten on its
    base has nowhere to retreat and is destroyed."""
    settings = plan.state.settings
    by_area: dict[str, list[Company]] = {}
    for c in _free(plan, fighters):
        by_area.setdefault(c.area, []).append(c)
    # In the last turns a loss to supply no longer matters: only the objective does.
    last_turns = settings.turn_limit - plan.state.turn <= LAST_CHANCE_TURNS
    for area, here in sorted(by_area.items()):
        if plan.worth_holding(area):
            continue
        staying = [c for c in fighters if c.area == area and plan.destination(c) == area]
        share = _threat_to(plan, area, staying)
        lose_badly = share is not None and share < WITHDRAW_BELOW
        for company in here:
            if not last_turns and _starving(plan, company):
                _fall_back(plan, company)
            elif lose_badly:
                _fall_back(plan, company, avoid=plan.state.sides[plan.side].base)


def _starving(plan: _Plan, company: Company) -> bool:
    """Would a second turn out of supply cost it stands, with a poor chance of supply
    where it is?"""
    settings = plan.state.settings
    return (
        company.in_supply is False
        and company.turns_out_of_supply + 1 >= settings.out_of_supply_turns_before_losses
        and supply_chance(plan.state, plan.mapping, company, company.area, plan.depots())
        < MIN_SUPPLY
    )


def _fall_back(plan: _Plan, company: Company, avoid: str | None = None) -> None:
    """Withdraw to the linked area without enemies (and not ``avoid``) with the best
    supply chance (then the nearest its base), if there is one."""
    backs = [
        a
        for a in plan.state.neighbours(company.area)
        if plan.legal(Order(company.name, "withdraw", a)) and not plan.enemies_in(a) and a != avoid
    ]
    if backs:
        best = plan.pick(
            backs,
            lambda a: (
                -supply_chance(plan.state, plan.mapping, company, a, plan.depots()),
                plan.mapping.home(plan.side, a),
            ),
        )
        plan.orders[company.name] = Order(company.name, "withdraw", best)


def _advances(plan: _Plan, fighters: list[Company]) -> None:
    """A free company (as if in supply this turn) moves one area toward the objective
    (then toward the enemy base) into an area without enemies, if it will be in supply
    there and would not lose the battle the enemy could bring to it."""
    settings = plan.state.settings
    objective = settings.objective if settings.objective in plan.state.areas else None
    for company in _free(plan, fighters):
        if objective is not None and company.area == objective:
            continue  # on the objective: it holds it
        options = _advance_options(plan, company, fighters, objective)
        if options:
            area, _ = plan.pick(options, lambda o: (_goal(plan, objective, o[0]), -o[1]))
            plan.orders[company.name] = Order(company.name, "advance", area)


def _goal(plan: _Plan, objective: str | None, area: str) -> tuple[int, int]:
    """How far ``area`` is from the objective, then from the enemy base (lower: nearer)."""
    to_objective = plan.mapping.distance(area, objective) if objective else 0
    return (to_objective, plan.mapping.enemy_base(plan.side, area))


def _advance_options(
    plan: _Plan, company: Company, fighters: list[Company], objective: str | None
) -> list[tuple[str, float]]:
    """The areas ``company`` may advance to, with its supply chance there. Holding the
    objective, an empty enemy base next to it is the only one (walked into, it ends the
    campaign, won). Not holding it, supply no longer counts once only the last turns
    would be left on arriving there (``LAST_CHANCE_TURNS``)."""
    finishing = plan.holds_objective()
    enemy_base = plan.state.sides[plan.enemy].base
    here = _goal(plan, objective, company.area)
    options = []
    for area in plan.state.neighbours(company.area):
        if plan.enemies_in(area) or not plan.legal(Order(company.name, "advance", area)):
            continue
        if finishing and area == enemy_base:
            return [(area, 1.0)]
        if _goal(plan, objective, area) >= here:
            continue
        chance = supply_chance(plan.state, plan.mapping, company, area, plan.depots())
        spare = plan.state.settings.turn_limit - plan.state.turn - here[0] + 1
        hurry = objective is not None and not finishing and spare <= LAST_CHANCE_TURNS
        if chance < MIN_SUPPLY and not hurry:
            continue
        together = [c for c in fighters if plan.destination(c) == area] + [company]
        share = _threat_to(plan, area, together)
        if share is not None and share < WITHDRAW_BELOW:
            continue
        options.append((area, chance))
    return options


def _supply_companies(plan: _Plan, supplies: list[Company]) -> None:
    """Each supply company heads for the area where the side's fighting companies, at
    their planned destinations, have the best chance of supply next turn (the +1 of a
    supply company in or next to their area, an airdrop), one area a turn, never into
    an area with enemy fighting companies or where a battle will be fought; an area next
    to the enemy counts against it (a supply company caught there must run)."""
    fighters = [c for c in plan.state.companies.values() if c.side == plan.side and c.fighting]
    battle_areas = {plan.destination(c) for c in fighters if plan.enemies_in(plan.destination(c))}
    for supply in supplies:
        if not engaged(plan.state, supply):
            order = _supply_move(plan, supply, fighters, battle_areas)
            if order is not None:
                plan.orders[supply.name] = order


def _supply_move(
    plan: _Plan, supply: Company, fighters: list[Company], battle_areas: set[str]
) -> Order | None:
    """One step toward the safe area where a supply company helps the most, if that is
    better than where it is."""
    others = [d for d in plan.depots() if d != supply.area]
    safe = [a for a in sorted(plan.state.areas) if not plan.enemies_in(a)]
    safe = [a for a in safe if a not in battle_areas]
    values = {a: _depot_value(plan, fighters, others, a) for a in {*safe, supply.area}}
    goal = plan.pick(
        safe or [supply.area],
        lambda a: (-values[a], plan.mapping.distance(supply.area, a)),
    )
    if goal == supply.area or values[goal] <= values[supply.area]:
        return None
    steps = _steps_toward(plan, supply, goal, safe)
    return plan.move_into(supply, plan.pick(steps, lambda a: a)) if steps else None


def _steps_toward(plan: _Plan, company: Company, goal: str, safe: list[str]) -> list[str]:
    """The safe linked areas nearer ``goal`` that ``company`` may move to."""
    here = plan.mapping.distance(company.area, goal)
    return [
        a
        for a in plan.state.neighbours(company.area)
        if a in safe
        and plan.mapping.distance(a, goal) < here
        and plan.move_into(company, a) is not None
    ]


def _depot_value(plan: _Plan, fighters: list[Company], others: list[str], area: str) -> float:
    """The fighting companies' total chance of supply next turn, at their planned
    destinations, with a supply company in ``area`` (and the others in ``others``),
    less half a company's chance if ``area`` is next to a visible enemy that could move
    into it this turn (an engaged one cannot)."""
    exposed = bool(plan.free_enemies_next_to(area))
    total = sum(
        supply_chance(plan.state, plan.mapping, c, plan.destination(c), [*others, area])
        for c in fighters
    )
    return total - (0.5 if exposed else 0.0)
