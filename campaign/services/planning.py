"""Planning the coming turn: a side's orders, what each company may be ordered, the odds of
its planned attacks, and marking its orders ready.

Everything reads the campaign through a ``CampaignView`` (``campaign.services.
visibility``), so the fog of war is the one decided there: legal orders come from the
rules' own ``check_order`` on the campaign as it stands (they only ever read the
company's own area, which its side sees), and the odds of an attack are estimated on
the campaign as the side may know it (``rules.campaign.planning.as_seen_by``): a
glimpsed enemy company at the middle of its strength band and trained, never its real
stands or quality. The GM, everyone once the campaign has ended, and everyone with fog
of war off get the real forces.

The odds are fought off the web request, a chunk of battles at a time, by the Celery
workers or a process pool (``campaign.services.odds``); a page reads how far they are
(``odds_progress``) and polls until they are in. The chunks are cached under the battle
as the reader may know it and its seed, and their seeds are fixed, so the same attack on
the same information always gives the same odds, whoever asks and however often.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import BooleanField, Value
from django.utils import timezone as django_timezone

from campaign.models import Area, Campaign, Company, Order, ReadyTakenBack, SideReady
from campaign.services import odds as offline
from campaign.services.deadlines import SidePlay, side_play
from campaign.services.schedule import awaited_sides, mark_side_ready
from campaign.services.turns import (
    OrderInWords,
    check_orders_open,
    check_page_turn,
    give_order,
    order_in_words,
    order_seen,
    orders_closed_reason,
    players_by_side,
    waiting_turn,
    withdraw_order,
)
from campaign.services.visibility import CampaignView
from config.numbers import whole_number
from rules import names
from rules.campaign import planning as rules
from rules.campaign.state import Order as RulesOrder
from rules.campaign.turn import OrderError, PlannedBattle, supply_need
from rules.campaign.visibility import CompanyView
from rules.dice import derive_seed
from rules.refusals import Refusal

ODDS_RUNS = 1000  # battles per estimate: the 95% interval is about ±3 points at worst
ODDS_CHUNK = 50  # battles per task: 20 tasks, shared by every core and worker


class SideRefused(Refusal):
    """A side the viewer may not plan for (no such side, or the enemy's)."""

    def __init__(self, message: str, *, forbidden: bool) -> None:
        super().__init__(message)
        self.forbidden = forbidden  # True: a real side, not the viewer's


class ReadyRefused(Refusal):
    """The side may not mark its orders ready now; the message says why."""


# --- which side, and are orders open ------------------------------------------------------


def planning_side(*, view: CampaignView, asked: str | None) -> str:
    """The side whose orders the page shows: a player's own; for the GM the one asked
    for (``?side=``), else the first side of the campaign."""
    sides = list(view.state.sides)
    if asked is not None and asked not in sides:
        raise SideRefused(
            f"{asked!r} is not a side of {view.campaign.name} ({', '.join(sides)})",
            forbidden=False,
        )
    if view.game_master:
        return asked or sides[0]
    if view.side not in sides:
        raise SideRefused("a spectator gives no orders: they watch", forbidden=True)
    if asked is not None and asked != view.side:
        raise SideRefused(
            f"you play the {view.state.sides[view.side or ''].name}: only their orders are "
            "yours to see",
            forbidden=True,
        )
    return view.side or ""


# --- the plan of one side ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SupplyToCome:
    """A company of the side that reaches a planned battle only by advancing, which it
    does only if its supply roll at the start of the turn puts it in supply (out of
    supply, it stays where it is): the odds assume it arrives."""

    company: str
    need: int  # the least d6 that puts it in supply, as things stand (above 6: none)

    @property
    def sixths(self) -> int:
        """In how many of the die's six faces it passes."""
        return max(0, min(6, 7 - self.need))


@dataclass(frozen=True, slots=True)
class PlannedAttack:
    """The battle a company's order leads to, or the one it is already engaged in, as
    its side may foresee it."""

    battle: PlannedBattle
    side: str  # the side planning it
    campaign_id: int
    turn_number: int
    company_id: int
    target_id: int
    seed: int
    estimated: bool  # the enemy is an estimate (fog of war), not its real forces
    runs: int
    chunk: int
    held: bool = False  # the side holds the area (as it sees it): so it defends there
    # The side's companies whose advance into the area waits on their supply roll, by
    # name: the battle, and its odds, assume every one of them arrives.
    supply_rolls: tuple[SupplyToCome, ...] = ()
    # The side's companies in each of the area's other battles this turn, by name
    # (``with_others``): a card that named only its own battle's read as if it attacked
    # alone, beside the supply caveat naming them all.
    others: tuple[tuple[str, ...], ...] = ()

    @property
    def area(self) -> str:
        return self.battle.area

    @property
    def attacking(self) -> bool:
        return self.battle.attacker_side == self.side

    @property
    def friends(self) -> list[str]:
        return self.battle.attackers if self.attacking else self.battle.defenders

    @property
    def others_words(self) -> str:
        """ "B Company fights another battle there.", "" with no other battle there."""
        if not self.others:
            return ""
        companies = [name for battle in self.others for name in battle]
        fight = "fights" if len(companies) == 1 else "fight"
        battles = "another battle" if len(self.others) == 1 else f"{len(self.others)} other battles"
        return f"{names.join(companies)} {fight} {battles} there."

    @property
    def enemies(self) -> list[str]:
        return self.battle.defenders if self.attacking else self.battle.attackers

    @property
    def job(self) -> offline.OddsJob:
        """What the odds depend on: the battle's BATTLE.json as the side may know it, the
        seed and the runs (the cache key: nothing the side may not know)."""
        return offline.OddsJob(
            spec=self.battle.spec, seed=self.seed, runs=self.runs, chunk=self.chunk
        )


@dataclass(frozen=True, slots=True)
class CompanyPlan:
    """One company of the side: where it is, its order for the coming turn, the orders
    it may be given and the areas it may not move to (with why)."""

    company: CompanyView
    company_id: int
    order: Order | None  # its order for the coming turn; None: its standing order
    moves: rules.LegalMoves
    attack: PlannedAttack | None
    area_ids: dict[str, int]

    @property
    def establishment(self) -> int:
        return sum((self.company.establishment or {}).values())

    @property
    def area_id(self) -> int:
        return self.area_ids[self.company.area]

    @property
    def choices(self) -> list[tuple[str, str]]:
        """The orders it may be given: (form value, words)."""
        offered = [("hold", f"Hold in {self.company.area}")]
        offered += [(f"advance:{self.area_ids[a]}", f"Advance to {a}") for a in self.moves.advances]
        offered += [
            (f"withdraw:{self.area_ids[a]}", f"Withdraw to {a}") for a in self.moves.withdrawals
        ]
        return offered

    @property
    def current_choice(self) -> str | None:
        if self.order is None:
            return None
        if self.order.kind == "hold":
            return "hold"
        return f"{self.order.kind}:{self.order.target_id}"

    @property
    def seen(self) -> str:
        """What the card's form carries back of its order (``order_seen``)."""
        return order_seen(self.order)

    @property
    def words(self) -> OrderInWords:
        """Its order as the card says it, and a refusal (``order_in_words``)."""
        return order_in_words(self.order, area=self.company.area)


@dataclass(frozen=True, slots=True)
class SidePlan:
    """A side's orders for the coming turn, as its player (or the GM) plans them."""

    view: CampaignView
    side: str
    turn_number: int
    closed: str | None  # why orders are closed; None when open
    companies: list[CompanyPlan]
    ready_sides: list[str]  # sides marked ready for the coming turn
    # The turn under way whose battles are still being fought (``turn_number``: the
    # orders for the one after it are closed until they are in); None between turns.
    waiting: int | None = None
    # The user name of the player who marked the side's orders ready ("" when it is not,
    # or was before who marked it was kept): told to the side's players.
    ready_by: str = ""
    # The user name of the player who last took the side's "ready" back, while it is not
    # ready ("" when nobody has, this turn): told to the side's players only.
    unready_by: str = ""
    # How many players play each side (none: the campaign AI's, always ready), read once
    # when first asked: the pages that never show the sides (the odds poll) make no query
    # for it.
    _players: list[Counter[str]] = field(default_factory=list, compare=False, repr=False)

    @property
    def players(self) -> Counter[str]:
        if not self._players:
            self._players.append(players_by_side(self.view.campaign))
        return self._players[0]

    @property
    def side_name(self) -> str:
        return self.view.state.sides[self.side].name

    @property
    def sides(self) -> list[tuple[str, str, bool, bool]]:
        """(key, name, ready, played by the campaign AI) for every side."""
        by_ai = set(self.view.state.sides) - set(self.players)
        return [
            (key, s.name, key in self.ready_sides, key in by_ai)
            for key, s in self.view.state.sides.items()
        ]

    @property
    def ready(self) -> bool:
        return self.side in self.ready_sides

    @property
    def due_now(self) -> bool:
        """The deadline has passed (or every side is ready): the turn is played at once."""
        deadline = self.view.campaign.next_deadline
        return deadline is not None and deadline <= django_timezone.now()

    @property
    def unplayed(self) -> bool:
        """No player plays any side: every side is the campaign AI's, so no "ready" makes
        the turn due (``schedule.mark_side_ready``); its deadline does, or the GM."""
        return not self.players

    @property
    def every_side_ready(self) -> bool:
        """Every side a player plays is ready (the campaign AI's always are): the turn is
        due, and it is played within seconds."""
        return all(is_ready or by_ai for _, _, is_ready, by_ai in self.sides)

    @property
    def play(self) -> SidePlay:
        """How the reader's side is played (``deadlines.side_play``): ``solo``, every
        other side the campaign AI's (always ready), so the reader's own "ready" plays
        the turn (``mark_side_ready``) and the page says so in those words rather than
        "once every side is ready"; ``teammates``, another player plays it too, whose
        "ready" plays the turn as the reader's does ("you or a teammate"). Neither for
        the GM, who marks nothing ready, nor for a side the reader does not play."""
        reader = None if self.view.game_master or self.side != self.view.side else self.side
        return side_play(
            reader,
            played=self.players[self.side] > 0,
            others_play=not all(by_ai for key, _, _, by_ai in self.sides if key != self.side),
            teammates=self.players[self.side] > 1,
        )

    @property
    def solo(self) -> bool:
        return self.play.solo

    @property
    def played_by_one(self) -> str:
        """The name of the one side a player plays, to a reader who is not its player
        (the GM looking at a side): its "ready" plays the turn, the campaign AI's side
        being always ready. "" otherwise."""
        played = [name for _, name, _, by_ai in self.sides if not by_ai]
        return played[0] if len(played) == 1 and not self.solo else ""

    @property
    def teammates(self) -> bool:
        return self.play.teammates

    @property
    def may_mark_ready(self) -> bool:
        """A player whose orders are open and not yet marked ready (the GM plays the turn
        from the admin instead)."""
        return self.closed is None and not self.view.game_master and not self.ready

    def company(self, company_id: int) -> CompanyPlan | None:
        return next((plan for plan in self.companies if plan.company_id == company_id), None)

    @property
    def supply_turn(self) -> int:
        """The turn whose supply roll the companies show: the turn under way once it has
        rolled (its battles waiting), else the last one played (0: none rolled yet)."""
        return self.waiting if self.waiting is not None else self.turn_number - 1

    @property
    def at_table(self) -> bool:
        """The waiting turn's battles are fought at a real table (the GM enters their
        results), not by the rules on a worker (``battle_mode``)."""
        return self.view.state.settings.battle_mode == "tabletop"


def plan_side(*, view: CampaignView, side: str) -> SidePlan:
    """The side's companies and their orders for the coming turn. Three queries: the
    turn waiting for its battles (none once the campaign has ended), the side's orders
    (none while a turn waits) and the sides ready."""
    campaign = view.campaign
    number = campaign.turn + 1
    finished = campaign.status == Campaign.Status.FINISHED
    waiting = None if finished else waiting_turn(campaign)
    # While turn ``number`` waits for its battles its orders are being played: none is
    # the coming turn's (those open once its battles are in).
    orders = (
        {}
        if waiting is not None
        else {
            order.company_id: order
            for order in view.orders()
            .filter(turn_number=number, company__side=side)
            .select_related("target")
        }
    )
    closed = orders_closed_reason(campaign, waiting=waiting)
    # Who marked each side ready, in the same query: only the plan's own side's is kept
    # (a teammate's name is the side's own; another side's never leaves this function);
    # and, in the same query again, who took the plan's side's "ready" back, if anyone
    # did (read only of that side).
    marks = (
        SideReady.objects.filter(campaign=campaign, turn_number=number)
        .annotate(ready=Value(True, output_field=BooleanField()))
        .values_list("side", "marked_by__username", "ready")
        .order_by()  # a union's parts take none
    )
    taken_back = (
        ReadyTakenBack.objects.filter(campaign=campaign, turn_number=number, side=side)
        .annotate(ready=Value(False, output_field=BooleanField()))
        .values_list("side", "taken_back_by__username", "ready")
        .order_by()
    )
    marked: dict[str, str | None] = {}
    unmarked: dict[str, str | None] = {}
    for key, name, is_ready in marks.union(taken_back, all=True):
        (marked if is_ready else unmarked)[key] = name
    ready = sorted(marked)
    own = [c for c in view.companies if c.side == side and c.full]
    ids = view.ids
    by_name = {
        c.name: RulesOrder(
            c.name, order.kind, order.target.name if order.target else None, order.sniper
        )
        for c in own
        if (order := orders.get(ids.companies[c.name])) is not None
    }
    foreseen = rules.as_seen_by(view.state, view.side)
    plans = []
    for company in own:
        company_id = ids.companies[company.name]
        order = orders.get(company_id)
        plans.append(
            CompanyPlan(
                company=company,
                company_id=company_id,
                order=order,
                moves=rules.legal_moves(view.state, company.name, side=side),
                # An order into an enemy's area, or a company already standing with
                # the enemy (engaged: a battle whatever its order, or with none).
                attack=None
                if closed
                else _attack(view, foreseen, side, company.name, company_id, by_name),
                area_ids=ids.areas,
            )
        )
    return SidePlan(
        view=view,
        side=side,
        turn_number=number,
        closed=closed,
        companies=with_others(plans),
        ready_sides=ready,
        waiting=waiting,
        ready_by=marked.get(side) or "",
        unready_by="" if side in marked else unmarked.get(side) or "",
    )


def with_others(plans: list[CompanyPlan]) -> list[CompanyPlan]:
    """Each plan's attack with the side's companies in the other battles of its area (the
    turn pairs an area's companies into as many battles as the smaller side has)."""
    friends: dict[str, dict[str, list[str]]] = {}  # area -> battle key -> the side's
    for plan in plans:
        if plan.attack is not None:
            battles = friends.setdefault(plan.attack.area, {})
            battles.setdefault(plan.attack.battle.key, list(plan.attack.friends))
    changed = []
    for plan in plans:
        attack = plan.attack
        if attack is not None:
            others = tuple(
                tuple(companies)
                for key, companies in sorted(friends[attack.area].items())
                if key != attack.battle.key and companies
            )
            attack = replace(attack, others=others)
        changed.append(replace(plan, attack=attack))
    return changed


def _attack(
    view: CampaignView,
    foreseen: Any,
    side: str,
    company: str,
    company_id: int,
    orders: dict[str, RulesOrder],
) -> PlannedAttack | None:
    battle = rules.foreseen_battle(foreseen, company=company, orders=orders)
    if battle is None:
        return None
    number = view.campaign.turn + 1
    return PlannedAttack(
        battle=battle,
        side=side,
        campaign_id=view.campaign.pk,
        turn_number=number,
        company_id=company_id,
        target_id=view.ids.areas[battle.area],
        # The battle's stream, from the campaign's id and never its seed: the odds must
        # say nothing of the dice of the turns not yet played (rulings section 6), and
        # their first run is not the battle the turn will fight. From the battle's key
        # (turn, area, pairing), never the company's name: every company in one battle,
        # and the area's section, read one estimate.
        seed=derive_seed(view.campaign.pk, "planning", battle.key),
        estimated=not view.sees_everything,
        runs=ODDS_RUNS,
        chunk=ODDS_CHUNK,
        held=foreseen.areas[battle.area].controller == side,
        supply_rolls=_supply_to_come(foreseen, side, battle.area, orders),
    )


def _supply_to_come(
    foreseen: Any, side: str, area: str, orders: dict[str, RulesOrder]
) -> tuple[SupplyToCome, ...]:
    """The side's companies advancing into ``area`` whose supply roll is still to come and
    not certain: read from the side's own companies only (their areas, its supply
    companies), the roll as ``supply_need`` has it before the turn's events, with the
    company's Banzai! and its side's ship away read as the supply phase reads them. A roll
    certain (a Banzai! win, a die that cannot fail) leaves the move to no roll; one that
    cannot succeed (a ship away) needs more than a 6."""
    depots = [c.area for c in foreseen.companies.values() if c.side == side and not c.fighting]
    rolls = []
    for name in sorted(rules.advancing_into(foreseen, orders, side, area)):
        company = foreseen.companies[name]
        roll = supply_need(
            foreseen, side=side, area=company.area, depots=depots, banzai=company.banzai
        )
        if not roll.certain:
            rolls.append(SupplyToCome(company=name, need=7 if roll.hopeless else roll.need))
    return tuple(rolls)


# --- the odds, fought off the request -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OddsProgress:
    attack: PlannedAttack
    odds: dict[str, Any]  # rules.campaign.planning.odds_of: shares, intervals, means

    @property
    def done(self) -> int:
        return int(self.odds["runs"])

    @property
    def runs(self) -> int:
        return self.attack.runs

    @property
    def finished(self) -> bool:
        return self.done >= self.runs

    @property
    def attacker_win(self) -> dict[str, float]:
        """The attacker's chance of winning and its 95% interval, in percent."""
        return {key: value * 100 for key, value in self.odds["attacker_win"].items()}

    @property
    def side_win(self) -> dict[str, float]:
        """The planning side's chance of winning (attacking or defending) and its 95%
        interval, in percent: the one way the pages word odds, "you win N%"."""
        key = "attacker_win" if self.attack.attacking else "defender_win"
        return {name: value * 100 for name, value in self.odds[key].items()}


def odds_progress(*, attack: PlannedAttack, start: bool = True) -> OddsProgress:
    """The odds of the attack so far, from the cache; ``start``: have the battles not yet
    fought fought off this request (``campaign.services.odds.request``, given this read
    of the cache), to be read by a later call. Run i has seed
    ``derive_seed(attack.seed, "odds", i)``, so once finished they equal
    ``rules.odds.battle_odds(spec, runs=attack.runs, seed=attack.seed)``."""
    job = attack.job
    seen = offline.fought(job)
    tally = seen.tally
    if start and tally.runs < job.runs:
        offline.request(job, seen=seen)
        tally = offline.read(job)  # inline, or chunks that came in meanwhile
    return OddsProgress(attack=attack, odds=rules.odds_of(tally))


class OddsReader:
    """The odds of one answer: each estimate read once (``odds_progress``), however many
    places show it. A company's card and its battle's line under "Planned battles" (and
    the card of every company in that battle) read the same estimate; read apart, the
    chunks that came in between the reads made them say "550 of 1000" and "600 of 1000"
    of one battle."""

    def __init__(self, *, start: bool = True) -> None:
        self.start = start
        self._read: dict[str, dict[str, Any]] = {}  # the job's key: its odds

    def progress(self, attack: PlannedAttack) -> OddsProgress:
        key = attack.job.key
        if key not in self._read:
            self._read[key] = odds_progress(attack=attack, start=self.start).odds
        return OddsProgress(attack=attack, odds=self._read[key])


# --- giving orders and marking them ready ---------------------------------------------------


def parse_choice(
    *, view: CampaignView, choice: str, area: str | None = None
) -> tuple[str, int | None]:
    """A form's order value ("hold", "advance:<area id>", "withdraw:<area id>") as an
    order kind and the area's id; OrderError with the reason when it is none of them,
    in plain words, never the raw value (an edited form's "advance:21" means nothing to
    a player). ``area``: where the company stands, named in the reason."""
    kind, _, target = (choice or "").partition(":")
    if kind == "hold" and not target:
        return "hold", None
    number = whole_number(target)
    if kind in rules.MOVES and number is not None and view.area_by_id(number) is not None:
        return kind, number
    linked = f"an area linked to {area}" if area else "an area linked to the company's own"
    raise OrderError(f"that is not an order this company can be given: choose hold, or {linked}")


def order_company(
    *,
    view: CampaignView,
    company_id: int,
    choice: str,
    user: Any,
    sniper: bool = False,
    page_turn: int | None = None,
    seen: str | None = None,
) -> Order:
    """Give (or change) the company's order for the coming turn, through ``give_order``
    (which checks the rules again under the campaign lock); OrderError with the reason.
    ``sniper``: defending this turn, it swaps one rifle squad for a sniper. ``page_turn``:
    the turn the page was drawn for (``OrdersOutOfDate`` when it is no longer the
    coming one). ``seen``: what the page saw of the company's order
    (``OrderChangedMeanwhile`` when it has another now)."""
    company = Company.objects.select_related("area").get(pk=company_id, campaign=view.campaign)
    try:
        kind, target_id = parse_choice(view=view, choice=choice, area=company.area.name)
    except OrderError:
        # A page of a played turn says more than its bad value: that it is out of date.
        check_page_turn(view.campaign, page_turn)
        raise
    target = Area.objects.get(pk=target_id) if target_id is not None else None
    return give_order(
        company=company,
        kind=kind,
        target=target,
        side=view.side,
        user=user,
        sniper=sniper,
        page_turn=page_turn,
        seen=seen,
    )


def take_back_order(
    *, view: CampaignView, company_id: int, page_turn: int | None = None, seen: str | None = None
) -> bool:
    """Take back the company's order: it follows its standing order. OrderError when
    orders are closed, the page (or its card, ``seen``) is out of date, or the company
    is not the viewer's."""
    company = Company.objects.get(pk=company_id, campaign=view.campaign)
    if view.side is not None and company.side != view.side:
        raise OrderError(f"{company.name} belongs to the other side")
    return withdraw_order(company=company, page_turn=page_turn, seen=seen)


def mark_ready(*, view: CampaignView, page_turn: int | None = None, user: Any = None) -> bool:
    """The player's side has its orders ready for the coming turn (``mark_side_ready``);
    True when this made the turn due. Orders may still change until the turn is played.
    ``page_turn`` as for ``order_company``; ``user``, who marks it (their teammates are
    told).
    """
    if view.game_master:
        raise ReadyRefused(
            "ready is the players' word for their side; the game master plays a turn from the "
            "admin (Advance turn now)"
        )
    # Closed orders (a finished campaign, a turn waiting for its battles) are refused by
    # mark_side_ready itself, the one rule the API uses too.
    return mark_side_ready(
        campaign=view.campaign, side=view.side or "", page_turn=page_turn, user=user
    )


# --- the battles of one area, as the turn will pair them --------------------------------------


@dataclass(frozen=True, slots=True)
class AreaPlan:
    """Every battle the side's orders lead to in one area, as the turn pairs them: the
    companies arriving together are paired strongest against strongest, a side's extra
    companies join its largest battle (``rules.campaign.turn.pair_battles``)."""

    area: str
    area_id: int
    side: str
    attacks: list[PlannedAttack]  # one per battle there, in the turn's order
    present: bool = False  # some of the side's companies stand there already
    arriving: bool = True  # some are ordered there

    @property
    def attacking(self) -> bool:
        return all(attack.attacking for attack in self.attacks)


def planned_areas(plan: SidePlan) -> list[AreaPlan]:
    """The areas the side's orders lead to battle in, each with all its battles."""
    by_area: dict[str, dict[str, PlannedAttack]] = {}
    here: dict[str, set[bool]] = {}  # per area: is each of its companies there already
    for row in plan.companies:
        if row.attack is not None:
            by_area.setdefault(row.attack.area, {}).setdefault(row.attack.battle.key, row.attack)
            here.setdefault(row.attack.area, set()).add(row.company.area == row.attack.area)
    return [
        AreaPlan(
            area=area,
            area_id=plan.view.ids.areas[area],
            side=plan.side,
            attacks=[battles[key] for key in sorted(battles)],
            present=True in here[area],
            arriving=False in here[area],
        )
        for area, battles in sorted(by_area.items())
    ]


def take_chance(progresses: list[OddsProgress], *, attacking: bool) -> dict[str, float] | None:
    """The chance, in percent with a 95% range, that the side holds the area after its
    battles there: an area is held by the side left alone in it with fighting companies
    (``update_control``), so the attacker takes it only by winning every battle there,
    and the defender keeps it by winning any. The battles are fought apart, with dice of
    their own, so the chance is the product of the attacker's. None until every battle's
    odds are in."""
    if not progresses or not all(p.finished for p in progresses):
        return None
    p = low = high = 1.0
    for progress in progresses:
        share = progress.odds["attacker_win"]
        p, low, high = p * share["p"], low * share["low"], high * share["high"]
    if not attacking:
        p, low, high = 1 - p, 1 - high, 1 - low
    return {"p": p * 100, "low": low * 100, "high": high * 100}


def unmark_ready(*, view: CampaignView, page_turn: int | None = None, user: Any = None) -> bool:
    """Take back the player's "ready" for the coming turn; True when it was marked.
    ``user``: who took it back, which the side's teammates are told (``ReadyTakenBack``),
    as they are told who marked it.

    Refused (``ReadyRefused``, with why) once every side is ready -- the turn is due and
    is played at once -- or while the turn is being played, and when orders are closed."""
    from django.db import transaction

    if view.game_master:
        raise ReadyRefused("ready is the players' word for their side")
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=view.campaign.pk)
        check_page_turn(row, page_turn)  # OrdersOutOfDate: the page's turn has passed
        try:
            check_orders_open(row)
        except OrderError as closed:
            raise ReadyRefused(str(closed)) from closed
        number = row.turn + 1
        if row.due_turn is not None:
            raise ReadyRefused(f"turn {row.due_turn} is being played: too late to take it back")
        ready = set(
            SideReady.objects.filter(campaign=row, turn_number=number).values_list(
                "side", flat=True
            )
        )
        if view.side not in ready:
            return False
        if ready >= awaited_sides(row, set(view.state.sides)):
            raise ReadyRefused(
                f"every side is ready: turn {number} is being played now, too late to take it back"
            )
        SideReady.objects.filter(campaign=row, side=view.side, turn_number=number).delete()
        taker = user if user is not None and user.is_authenticated else None
        ReadyTakenBack.objects.update_or_create(
            campaign=row, side=view.side, turn_number=number, defaults={"taken_back_by": taker}
        )
        return True
