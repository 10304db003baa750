"""Turn use cases: give orders, advance a turn, enter a tabletop battle's result.

The campaign rules are pure functions in ``rules.campaign.turn``; this module loads the
snapshot, calls them and saves the outcome, each turn in one transaction with the
campaign row locked, so a turn commits whole or not at all and two callers cannot
advance the same turn twice. The admin, the API, the pages, the management commands and
the Celery tasks all call these.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.db.models.query import MAX_GET_RESULTS
from django.utils import timezone

from battles.models import Battle
from battles.services.planned import planned_battles, store_battles
from campaign.history import quiet_history
from campaign.models import (
    SPECTATOR,
    Area,
    Campaign,
    Company,
    GmAdjustment,
    Membership,
    Order,
    SideReady,
    Turn,
)
from campaign.services import commitments
from campaign.services.deadlines import Schedule, next_deadline_after, no_deadline_words
from campaign.services.prepared import PreparedObjects, PreparedRead
from campaign.services.snapshot import (
    SnapshotIds,
    load_snapshot,
    load_snapshot_with_ids,
    save_fields,
    save_snapshot,
)
from config.enqueue import enqueue_battle
from notifications.hooks import turn_changed
from rules.campaign import turn as rules
from rules.campaign.scenario import dump_scenario, parse_scenario
from rules.campaign.state import STANDING_ORDERS, Settings
from rules.campaign.state import Order as RulesOrder
from rules.names import join as names_join
from rules.refusals import Refusal


class TurnRefused(Refusal):
    """A turn that may not be advanced now; the message says why."""


class TurnAlreadyPlayed(TurnRefused):
    """The turn asked for (``expected_turn``) is not the next one: it was played, or is
    waiting for its battles, already."""


class CampaignChangedSince(TurnRefused):
    """The campaign is not as the GM's page showed it (``expected_state``, from
    ``advance_state``): paused or resumed, or a GM change made (its settings, schedule,
    an adjustment) since, though the same turn is next; or its players and the sides not
    ready are not (``expected_sides``, from ``sides_state``; ``sides``: what changed, in
    the GM's words). ``now``: the campaign's row as it is."""

    def __init__(self, message: str, *, now: Campaign, sides: str = "") -> None:
        super().__init__(message)
        self.now = now
        self.sides = sides


def advance_state(campaign: Campaign) -> str:
    """What a GM page showed of the campaign before its next turn that the GM answered
    "Advance turn now" for, as a token the button sends back: its status (the question
    says "paused" or not), its last save (a pause, a resume or a settings change saves
    the row, so a pause then a resume in another tab, which leaves the status as it was,
    still changes it) and its last GM change (``last_gm_change``: the settings, the
    schedule, which the question's next deadline is counted by, and every adjustment to
    the state the turn is played from). The turn number travels beside it
    (``expected_turn``).

    Not its next deadline: what moves it besides those is a player's "ready" (the last
    side's makes the turn due at once) and the scheduler's claim of that turn, neither of
    which changes the turn the GM was asked to play, its orders played as they stand, ready
    or not, as the question says; guarded, the GM's click was refused whenever the last
    player got ready after the page was read. Who plays and who took back "ready" since
    are checked beside it (``sides_state``)."""
    updated = int(campaign.updated_at.timestamp() * 1_000_000) if campaign.updated_at else 0
    return f"{campaign.status}.{updated}.{last_gm_change(campaign)}"


def sides_state(campaign: Campaign) -> str:
    """Who plays the campaign's sides and which of them the coming turn still waits for,
    as a GM page showed them with its "Advance turn now" (the campaign's page lists its
    players; the button's question, there and on the list's confirmation page, says
    "Not ready yet: the Australians"), as a token the button sends back (``expected_sides``):
    each player's account and side (spectators play none), then the sides a player plays
    that are not marked ready. Not the orders: no such page shows them, and the turn plays
    them as they stand, as its question says."""
    players = sorted(
        Membership.objects.filter(campaign=campaign)
        .exclude(side=SPECTATOR)
        .values_list("user_id", "side")
    )
    ready = set(
        SideReady.objects.filter(campaign=campaign, turn_number=campaign.turn + 1).values_list(
            "side", flat=True
        )
    )
    waiting = sorted({side for _, side in players} - ready)
    return ",".join(f"{user}:{side}" for user, side in players) + "/" + ",".join(waiting)


def _read_sides(token: str) -> tuple[dict[int, str], set[str]] | None:
    """``sides_state``'s token read back: each player's side by account, and the sides not
    ready; None for a token that is not one."""
    players_part, slash, waiting_part = token.partition("/")
    if not slash:
        return None
    players: dict[int, str] = {}
    for pair in filter(None, players_part.split(",")):
        user, colon, side = pair.partition(":")
        if not colon or not user.isdigit() or not side:
            return None
        players[int(user)] = side
    return players, set(filter(None, waiting_part.split(",")))


def sides_changed_words(campaign: Campaign, shown: str) -> str:
    """What changed since a GM page showed ``shown`` (``sides_state``) that the GM did
    not see, in words ("" for nothing): a player joined, left or was given another side;
    a side the page showed ready (or played by the campaign AI) is not ready now, as a
    player took back its "ready". A side that got ready since is not one: the question
    said it was not ready, and the GM chose to play the turn with its orders as they
    stood (ruling of 7 December 2026, docs/campaign.md)."""
    was = _read_sides(shown)
    now = _read_sides(sides_state(campaign))
    assert now is not None
    if was is None:
        return "your page did not say who plays its sides"
    (before, waited), (players, waiting) = was, now
    names = dict(campaign.sides.values_list("key", "name"))
    users = {
        user.pk: user.get_username()
        for user in get_user_model().objects.filter(pk__in=set(before) | set(players))
    }

    def side(key: str) -> str:
        return f"the {names.get(key, 'other side')}"

    said = []
    for user, key in sorted(players.items()):
        name = users.get(user, "a player")
        if user not in before:
            said.append(f"{name} joined it, playing {side(key)}")
        elif before[user] != key:
            said.append(f"{name} now plays {side(key)}, not {side(before[user])}")
    for user in sorted(set(before) - set(players)):
        said.append(f"{users.get(user, 'a player')} left it")
    shown_played = set(before.values())
    for key in sorted(waiting - waited):
        if key in shown_played:
            said.append(f"{side(key)} took back their \u201cready\u201d")
    if not said:
        return ""
    return f"{names_join(said)} since your page showed it"


def last_gm_change(campaign: Campaign) -> int:
    """The id of the campaign's latest GM change (0 for none): from the admin's list's
    annotation (``gm_change``) when the row has it, else one query."""
    annotated = getattr(campaign, "gm_change", None)
    if annotated is not None:
        return int(annotated)
    found = GmAdjustment.objects.filter(campaign=campaign).aggregate(last=Max("pk"))["last"]
    return int(found or 0)


@dataclass(frozen=True, slots=True)
class TurnReport:
    turn: Turn
    battles: list[Battle]

    @property
    def done(self) -> bool:
        return self.turn.status == Turn.Status.DONE


# --- orders -------------------------------------------------------------------------------


class OrdersOutOfDate(rules.OrderError):
    """An order (or a "ready") sent from a page drawn for a turn that is no longer the
    coming one, or an API write that read its order for such a turn: a turn was played
    (or rolled back) since. Nothing is changed. The message is the page's; ``said``
    words it for another asker (the API's, ``campaign.api.errors``)."""

    def __init__(self, *, page_turn: int, next_turn: int) -> None:
        self.page_turn = page_turn
        self.next_turn = next_turn
        super().__init__(self.said(asked="this page was for"))

    def said(self, *, asked: str) -> str:
        """The refusal with ``asked`` saying what was for the old turn ("this page was
        for", then "turn 4"), without the page's words."""
        page_turn, next_turn = self.page_turn, self.next_turn
        if page_turn < next_turn:
            played = (
                f"turn {page_turn} has been played"
                if next_turn == page_turn + 1
                else f"turns {page_turn} to {next_turn - 1} have been played"
            )
            words = f"{asked} turn {page_turn}, and {played} since"
        else:
            words = (
                f"{asked} turn {page_turn}, but the coming turn is turn {next_turn} "
                "(the game master rolled the campaign back)"
            )
        return f"{words}: orders now go to turn {next_turn}"


class OrderChangedMeanwhile(rules.OrderError):
    """An order (or its taking back) sent from a page that no longer shows the company's
    order as it stands: another tab, or a teammate, changed it since (``seen``, what the
    page saw, is not ``order_seen`` of the order now). Nothing is changed. The message
    names the company and its order now: the player's own side's, never hidden."""

    def __init__(self, *, company: str, now: str) -> None:
        super().__init__(
            f"{company}'s order was changed meanwhile (now: {now}). "
            "Nothing was changed: look again and choose."
        )
        self.company = company
        self.now = now


def order_seen(order: Order | None) -> str:
    """What a page saw of a company's order for the coming turn, as its form carries it
    back (``seen``): "-" for none, else its choice and its sniper ("advance:12.0",
    "hold.1"). The same order, given again, reads the same. The API's ``ETag`` of an
    order, and the ``If-Match`` it takes back."""
    if order is None:
        return "-"
    return _order_token(order.kind, order.target_id, sniper=order.sniper)


def _order_token(kind: str, target_id: int | None, *, sniper: bool) -> str:
    choice = "hold" if kind == "hold" else f"{kind}:{target_id}"
    return f"{choice}.{int(bool(sniper))}"


@dataclass(frozen=True, slots=True)
class OrderInWords:
    """An order as the company's card says it: what it does ("advance to Oivi", "hold in
    Korona", "no order given") and, apart (the card sets the first in bold), its sniper
    ("; a sniper if it defends", or ""). As one string: both, as a refusal says it."""

    does: str
    sniper: str = ""

    def __str__(self) -> str:
        return self.does + self.sniper


def order_in_words(order: Order | None, *, area: str) -> OrderInWords:
    """The words of a company's order for the coming turn, the card's and the refusal's
    (``OrderChangedMeanwhile``) alike; ``area``: the name of the area it is in (a hold
    holds there)."""
    if order is None:
        return OrderInWords("no order given")
    target = order.target  # none for a hold, and only for a hold (order_target_iff_moving)
    where = f"in {area}" if target is None else f"to {target.name}"
    return OrderInWords(f"{order.kind} {where}", "; a sniper if it defends" if order.sniper else "")


def _coming_order(campaign: Campaign, company: Company) -> Order | None:
    """The company's order for the coming turn, read under the campaign lock that every
    order's writer takes: what is read here stays so until the write."""
    return Order.objects.filter(company=company, turn_number=campaign.turn + 1).first()


def check_seen(company: Company, order: Order | None, *, seen: str | None, wanted: str) -> None:
    """Refuse a write from a page that saw another order of the company's (``seen``) than
    it has now (``order``), unless the write asks for just the order it has (``wanted``,
    as ``order_seen`` reads it: the same order again, or taking back one already gone):
    nothing would change, so nothing its giver never saw is replaced. ``seen`` None: the
    caller does not say, as a script's post may not."""
    now = order_seen(order)
    if seen is None or now in (seen, wanted):
        return
    words = order_in_words(order, area=company.area.name)
    raise OrderChangedMeanwhile(company=company.name, now=str(words))


def check_page_turn(campaign: Campaign, page_turn: int | None) -> None:
    """Refuse a form drawn (or an API write that read its order) for another turn than
    the coming one (``page_turn`` None: the caller does not say). Called under the
    campaign lock."""
    if page_turn is not None and page_turn != campaign.turn + 1:
        raise OrdersOutOfDate(page_turn=page_turn, next_turn=campaign.turn + 1)


def give_order(
    *,
    company: Company,
    kind: str,
    target: Area | None = None,
    side: str | None = None,
    user: Any = None,
    sniper: bool = False,
    page_turn: int | None = None,
    seen: str | None = None,
) -> Order:
    """Give (or change) a company's order for the coming turn; refused with the reason.

    ``side`` is the side of the player giving it; None for the GM, who may order anyone.
    ``sniper``: should it defend this turn, it swaps one rifle squad for a sniper.
    ``page_turn``: the turn the page giving it was drawn for (the API's: the turn whose
    orders its request read); another is refused (``OrdersOutOfDate``), so an order
    never lands on a turn its giver did not see.
    ``seen``: what the page saw of the company's order (``order_seen``); another order
    now is refused (``OrderChangedMeanwhile``), so no order silently replaces one its
    giver never saw.
    """
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=company.campaign_id)
        check_page_turn(campaign, page_turn)
        check_orders_open(campaign)
        sniper = bool(sniper) and company.kind == Company.Kind.FIGHTING
        order = _coming_order(campaign, company)
        wanted = _order_token(kind, target.pk if target else None, sniper=sniper)
        check_seen(company, order, seen=seen, wanted=wanted)
        if target is not None and target.campaign_id != campaign.pk:
            raise rules.OrderError(f"{target.name} is not on the map of {campaign.name}")
        state = load_snapshot(campaign=campaign)
        rules.check_order(
            state, RulesOrder(company.name, kind, target.name if target else None), side=side
        )
        if order is None:
            return Order.objects.create(
                campaign=campaign,
                company=company,
                turn_number=campaign.turn + 1,
                kind=kind,
                target=target,
                given_by=user,
                sniper=sniper,
            )
        if order_seen(order) != wanted:  # the same order again changes nothing, its giver too
            order.kind, order.target, order.given_by, order.sniper = kind, target, user, sniper
            order.save(update_fields=["kind", "target", "given_by", "sniper"])
        return order


def waiting_turn(campaign: Campaign) -> int | None:
    """The number of the turn under way whose battles are still being fought (at the
    table, or by workers), or None. One query."""
    return (
        Turn.objects.filter(campaign=campaign, status=Turn.Status.BATTLES_PENDING)
        .values_list("number", flat=True)
        .first()
    )


def check_orders_open(campaign: Campaign) -> None:
    """Orders are for the next turn: none while the campaign is over, or while a turn
    waits for its tabletop battles (their results still move companies)."""
    closed = orders_closed_reason(
        campaign,
        waiting=None if campaign.status == Campaign.Status.FINISHED else waiting_turn(campaign),
    )
    if closed is not None:
        raise rules.OrderError(closed)


def orders_closed_reason(campaign: Campaign, *, waiting: int | None) -> str | None:
    """Why no order may be given now, or None: ``waiting`` is the turn ``waiting_turn``
    found (the caller reads it once, for this and for its page)."""
    if campaign.status == Campaign.Status.FINISHED:
        return "the campaign has ended, so no more orders are given"
    if waiting is not None:
        return (
            f"turn {waiting} is waiting for its tabletop battles; orders for turn "
            f"{waiting + 1} open when their results are in"
        )
    return None


def withdraw_order(
    *, company: Company, page_turn: int | None = None, seen: str | None = None
) -> bool:
    """Take back a company's order for the coming turn; it follows its standing order.
    ``page_turn`` and ``seen`` as for ``give_order``."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=company.campaign_id)
        check_page_turn(campaign, page_turn)
        check_orders_open(campaign)
        if seen is not None:  # a page that saw one taken back meanwhile wants it gone too
            check_seen(company, _coming_order(campaign, company), seen=seen, wanted="-")
        deleted, _ = Order.objects.filter(company=company, turn_number=campaign.turn + 1).delete()
        return bool(deleted)


def set_standing_order(*, company: Company, standing_order: str) -> Company:
    """The order a company follows when it is given none (the GM's to set)."""
    if Campaign.objects.filter(pk=company.campaign_id, status=Campaign.Status.FINISHED).exists():
        raise rules.OrderError("the campaign has ended")
    if standing_order not in STANDING_ORDERS:
        raise rules.OrderError(
            f"{standing_order!r} is not a standing order ({', '.join(STANDING_ORDERS)})"
        )
    Company.objects.filter(pk=company.pk).update(standing_order=standing_order)
    company.standing_order = standing_order
    return company


# The turn's reads of its orders, its players and a waiting turn, by the campaign's id
# (and the turn's number): compiled once (``prepared``), as every turn makes them.
_ORDERS = PreparedRead(
    lambda campaign_id, number: Order.objects.filter(
        campaign_id=campaign_id, turn_number=number
    ).values_list("company__name", "kind", "target__name", "sniper")
)
_PLAYED_SIDES = PreparedRead(
    lambda campaign_id: (
        Membership.objects.filter(campaign_id=campaign_id)
        .exclude(side=SPECTATOR)
        .values_list("side")
    )
)
# The campaign's row, locked for the turn: ``select_for_update().get(pk=...)``, the
# same SQL (``get`` reads at most MAX_GET_RESULTS rows).
_LOCKED = PreparedObjects(
    lambda campaign_id: (
        Campaign.objects.select_for_update().filter(pk=campaign_id).order_by()[:MAX_GET_RESULTS]
    )
)
_WAITING = PreparedRead(
    lambda campaign_id: Turn.objects.filter(
        campaign_id=campaign_id, status=Turn.Status.BATTLES_PENDING
    ).values_list("number")[:1]
)


def _orders_for(campaign: Campaign, number: int) -> dict[str, RulesOrder]:
    return {
        name: RulesOrder(name, kind, target, sniper=sniper)
        for name, kind, target, sniper in _ORDERS.rows(campaign.pk, number)
    }


def players_by_side(campaign: Campaign) -> Counter[str]:
    """How many players play each side (a membership each; a spectator plays none); a
    side missing from it is played by the AI."""
    return Counter(side for (side,) in _PLAYED_SIDES.rows(campaign.pk))


def played_sides(campaign: Campaign) -> set[str]:
    """The sides a player plays (a membership; a spectator plays none): the rest are
    played by the AI."""
    return set(players_by_side(campaign))


def no_deadline_turn_words(campaign: Campaign, number: int) -> str:
    """When turn ``number`` is played with no deadline, for the public log (a schedule
    change, a resume): every player reads it, so the one side a player plays is named
    (its "ready" alone plays the turn, the campaign AI's side being always ready), as
    the map says it to a spectator (``campaign.web.maps.played_by_one``), not "once
    every side is ready"."""
    played = played_sides(campaign)
    played_by = None
    if len(played) == 1:
        (key,) = played
        names = dict(campaign.sides.values_list("key", "name"))
        if len(names) > 1:
            played_by = names.get(key, key)
    return no_deadline_words(number, unplayed=not played, played_by=played_by)


# --- the turn -----------------------------------------------------------------------------


def advance_turn(
    *,
    campaign_id: int,
    expected_turn: int | None = None,
    expected_state: str | None = None,
    expected_sides: str | None = None,
    defer_battles: bool = False,
) -> TurnReport:
    """Play the campaign's next turn. Auto battles are fought at once; tabletop ones
    leave the turn waiting (``battles_pending``) until the GM enters their results.

    ``expected_turn``: play only if it is that turn's number, else ``TurnAlreadyPlayed``
    (so a duplicate delivery or a second click does nothing). ``expected_state``: the
    campaign as the GM's page showed it (``advance_state``), else ``CampaignChangedSince``
    and nothing is played (checked with the row locked); ``expected_sides``: its players
    and the sides not ready as that page showed them (``sides_state``), else the same,
    when one of them changed as ``sides_changed_words`` says. ``defer_battles``: the
    auto battles are left pending too, and each is handed to a worker once the turn
    commits (``campaign.tasks.fight_battle``); the last one in completes the turn."""
    with transaction.atomic():
        campaign = _locked_campaign(campaign_id)
        number = campaign.turn + 1
        _check_turn_may_start(campaign, number, expected_turn)
        if expected_state is not None and expected_state != advance_state(campaign):
            raise CampaignChangedSince(
                f"{campaign.name} has changed since the page was opened", now=campaign
            )
        if expected_sides is not None and (
            changed := sides_changed_words(campaign, expected_sides)
        ):
            raise CampaignChangedSince(f"{campaign.name}: {changed}", now=campaign, sides=changed)
        turn, plan, ids, settings = _start_turn(campaign, number, defer_battles=defer_battles)
        if django_settings.KORONA_TEST_TURN_DELAY:
            time.sleep(django_settings.KORONA_TEST_TURN_DELAY)  # tests kill a turn midway
        # Every battle fought here, before its row is written: the turn ends in this
        # transaction, whose last write of the map is the only one anyone sees, over the
        # rows as they were loaded.
        auto = settings.battle_mode == "auto"
        ends_now = _ends_now(plan, settings, defer_battles=defer_battles)
        battles = _battle_rows(campaign, turn, plan, ids, settings, fought=ends_now)
        if not ends_now:
            # The map after movement is the map while its battles wait to be fought.
            save_snapshot(campaign=campaign, state=plan.state, ids=ids)
        _spend_claim(campaign)
        if defer_battles and auto:
            for battle in battles:
                enqueue_battle(battle.pk)
        if not ends_now:
            return complete_if_ready(campaign=campaign, turn=turn, plan=plan)
        return complete_if_ready(campaign=campaign, turn=turn, plan=plan, ids=ids, battles=battles)


def _locked_campaign(campaign_id: int) -> Campaign:
    """The campaign's row, locked until the transaction ends (``Campaign.DoesNotExist``
    for none, as ``get`` raises it)."""
    found = _LOCKED.objects(campaign_id)
    if not found:
        raise Campaign.DoesNotExist("Campaign matching query does not exist.")
    campaign: Campaign = found[0]
    return campaign


def _check_turn_may_start(campaign: Campaign, number: int, expected_turn: int | None) -> None:
    """Refuse a turn that is not the next one, of a finished campaign, or while a turn
    waits for its tabletop battles (``TurnAlreadyPlayed`` when that is the one asked for)."""
    if expected_turn is not None and expected_turn != number:
        raise TurnAlreadyPlayed(
            f"turn {expected_turn} of {campaign.name} is not the next turn ({number})"
        )
    if campaign.status == Campaign.Status.FINISHED:
        raise TurnRefused(f"{campaign.name} has ended: no more turns are played")
    waiting = _WAITING.rows(campaign.pk)
    if waiting:
        (pending,) = waiting[0]
        refusal = TurnAlreadyPlayed if pending == expected_turn else TurnRefused
        raise refusal(
            f"turn {pending} of {campaign.name} is still waiting for its tabletop battles"
        )


def _ends_now(plan: rules.TurnPlan, settings: Settings, *, defer_battles: bool) -> bool:
    """Does the turn end in the transaction it starts in: no battle, or only auto
    battles, fought at once?"""
    return not plan.battles or (settings.battle_mode == "auto" and not defer_battles)


def _start_turn(
    campaign: Campaign, number: int, *, defer_battles: bool
) -> tuple[Turn, rules.TurnPlan, SnapshotIds, Settings]:
    """The rules' start of the turn (up to its battles) from the committed seed, the
    orders and the players, saved in its Turn row (rolling) with what it started from;
    the ids of the rows the state was loaded from, and the campaign's settings as loaded
    (read from the row once a turn)."""
    state, ids = load_snapshot_with_ids(campaign=campaign)
    orders = _orders_for(campaign, number)
    seed = commitments.committed_seed(campaign=campaign, number=number)
    players = played_sides(campaign)
    plan = rules.start_turn(state, orders, seed=seed, players=players)
    turn = _turn_row(campaign, number)
    turn.status = Turn.Status.ROLLING
    turn.seed = seed
    turn.orders = [
        {
            "company": o.company,
            "side": state.companies[o.company].side,
            "kind": o.kind,
            "target": o.target,
            "sniper": o.sniper,
        }
        for o in sorted(orders.values(), key=lambda o: o.company)
    ]
    turn.players = sorted(players)
    # The log so far, for a turn that waits for its battles (``_plan_of`` reads it back
    # when they are in). A turn that ends in this transaction writes its whole log as it
    # ends (``complete_if_ready``): the log so far, never seen, is not written first.
    waits = not _ends_now(plan, state.settings, defer_battles=defer_battles)
    turn.log = plan.log if waits else []
    turn.start_state = dump_scenario(state)
    turn.failure_reason = ""
    turn.save()
    return turn, plan, ids, state.settings


def _battle_rows(
    campaign: Campaign,
    turn: Turn,
    plan: rules.TurnPlan,
    ids: SnapshotIds,
    settings: Settings,
    *,
    fought: bool,
) -> list[Battle]:
    """A Battle row for each battle the turn paired (``battles.services.planned``), by
    the ids the snapshot was loaded with; ``fought``: each fought first, written with its
    result."""
    return store_battles(
        campaign=campaign,
        turn=turn,
        planned=plan.battles,
        mode=settings.battle_mode,
        ruleset=settings.ruleset,
        # A tabletop result is due by the time the next turn would have been.
        tabletop_deadline=next_deadline_after(Schedule.of(campaign), timezone.now()),
        area_ids=ids.areas,
        company_ids=ids.companies,
        fought=fought,
    )


def _spend_claim(campaign: Campaign) -> None:
    """The scheduler's claim on this turn is spent (or stale, after a roll-back)."""
    if campaign.due_turn is not None:
        Campaign.objects.filter(pk=campaign.pk).update(due_turn=None, claimed_at=None)
        campaign.due_turn = campaign.claimed_at = None


def _turn_row(campaign: Campaign, number: int) -> Turn:
    """The Turn row to play turn ``number`` in: the one the scheduler queued (or that
    failed), else a new one. Only a claimed turn costs a query to look for it."""
    if campaign.due_turn == number:
        queued = (
            Turn.objects.filter(campaign=campaign, number=number)
            .exclude(status__in=[Turn.Status.DONE, Turn.Status.BATTLES_PENDING])
            .first()
        )
        if queued is not None:
            return queued
    return Turn(campaign=campaign, number=number)


def _plan_of(campaign: Campaign, turn: Turn, battles: list[Battle]) -> rules.TurnPlan:
    """Rebuild a waiting turn's plan from what was saved when it started."""
    state = load_snapshot(campaign=campaign)
    planned = planned_battles(battles)
    return rules.TurnPlan(
        number=turn.number, state=state, log=list(turn.log), battles=planned, initiative=""
    )


def complete_if_ready(
    *,
    campaign: Campaign,
    turn: Turn,
    plan: rules.TurnPlan | None = None,
    ids: SnapshotIds | None = None,
    battles: list[Battle] | None = None,
) -> TurnReport:
    """Finish the turn when its last battle has a result; otherwise mark it waiting.
    ``ids``: the map's rows as ``plan`` was loaded from them (``save_snapshot``);
    ``battles``: the turn's battles, every one with its result, as the caller wrote them."""
    turn_changed(turn)  # its notices go once this commits
    if battles is None:
        battles = list(
            Battle.objects.filter(turn=turn)
            .prefetch_related("attackers", "defenders")
            .order_by("id")
        )
    pending = [b for b in battles if b.status == Battle.Status.PENDING]
    if pending:
        turn.status = Turn.Status.BATTLES_PENDING
        turn.save(update_fields=["status"])
        if campaign.next_deadline is not None:
            # No orders are due while the turn waits (a turn begun by the GM's hand kept
            # the deadline it would have been played at): the turn's end sets the next.
            campaign.next_deadline = None
            Campaign.objects.filter(pk=campaign.pk).update(next_deadline=None)
        return TurnReport(turn=turn, battles=battles)
    if plan is None:
        plan = _plan_of(campaign, turn, battles)
    # None is pending, answered above: every battle here has its result.
    results = {b.key: b.result for b in battles if b.result is not None}
    outcome = rules.finish_turn(plan, results)
    save_snapshot(campaign=campaign, state=outcome.state, ids=ids)
    if outcome.state.finished:
        campaign.status = Campaign.Status.FINISHED
        with quiet_history():
            campaign.save(update_fields=["status"])
    turn.log = outcome.log
    turn.report = _report(outcome)
    turn.report_text = "\n".join(record["text"] for record in outcome.log)
    turn.status = Turn.Status.DONE
    turn.finished_at = timezone.now()
    save_fields(turn, ["log", "report", "report_text", "status", "finished_at"])
    commitments.turn_played(campaign=campaign, number=turn.number, finished=outcome.state.finished)
    if campaign.schedule_kind != Campaign.ScheduleKind.NONE or campaign.next_deadline:
        # The next deadline counts from the turn that was played, however it was played.
        campaign.next_deadline = (
            None
            if outcome.state.finished
            else next_deadline_after(Schedule.of(campaign), turn.finished_at)
        )
        Campaign.objects.filter(pk=campaign.pk).update(next_deadline=campaign.next_deadline)
    return TurnReport(turn=turn, battles=battles)


def _report(outcome: rules.TurnOutcome) -> dict[str, Any]:
    state = outcome.state
    return {
        "turn": outcome.number,
        "battles": [
            {
                "key": b.key,
                "area": b.area,
                "attackers": b.attackers,
                "defenders": b.defenders,
                "winner": outcome.results[b.key]["winner"],
                "reason": outcome.results[b.key].get("reason"),
                "losses": outcome.results[b.key].get("losses"),
            }
            for b in outcome.battles
        ],
        "companies": {
            c.name: {
                "side": c.side,
                "area": c.area,
                "stands": c.strength,
                "establishment": sum(c.establishment.values()),
                "in_supply": c.in_supply,
            }
            for c in state.companies.values()
        },
        "control": {a.name: a.controller for a in state.areas.values()},
        "finished": state.finished,
        "winner": state.winner,
        "end_reason": state.end_reason,
    }


def run_campaign(*, campaign_id: int, turns: int) -> list[TurnReport]:
    """Play up to ``turns`` turns (both sides on their standing orders where they gave
    none), stopping when the campaign ends or a turn waits for a tabletop battle."""
    reports = []
    for _ in range(turns):
        report = advance_turn(campaign_id=campaign_id)
        reports.append(report)
        if not report.done or Campaign.objects.get(pk=campaign_id).status == "finished":
            break
    return reports


def replay_turn(*, campaign: Campaign, turn: Turn) -> TurnReport:
    """Play a done turn, the latest, again exactly as it was played: from its start state,
    with its own orders, seed and players, and with its battles' results as they now
    stand (one corrected by the GM, ``battles.services.correction``). The campaign row
    must be locked by the caller's transaction; nothing here commits on its own.

    Its battles are not fought again: planned again from the same state, orders and seed,
    they are the same battles (refused, ``TurnRefused``, if they are not), and an auto
    battle's result is its seed's. The standing orders the GM set since the turn was
    played stay as set (they are not the turn's). The turn keeps its seed, already shown:
    no order of it can change, so nothing is learned from it (docs/campaign.md). Its
    players were told of it once (a notice per turn row): the caller's line of the GM's
    change tells them of the correction."""
    if turn.start_state is None or turn.seed is None:
        raise TurnRefused(f"turn {turn.number} did not keep the state it began from")
    state = parse_scenario(turn.start_state)
    orders = {
        o["company"]: RulesOrder(o["company"], o["kind"], o["target"], sniper=o["sniper"])
        for o in turn.orders or []
    }
    plan = rules.start_turn(state, orders, seed=turn.seed, players=set(turn.players or []))
    battles = list(
        Battle.objects.filter(turn=turn).prefetch_related("attackers", "defenders").order_by("id")
    )
    if sorted(b.key for b in plan.battles) != sorted(b.key for b in battles):
        raise TurnRefused(f"turn {turn.number} does not play again as it was played")
    results = {b.key: b.result for b in battles if b.result is not None}
    outcome = rules.finish_turn(plan, results)
    standing = dict(campaign.companies.values_list("name", "standing_order"))
    for company in outcome.state.companies.values():
        company.standing_order = standing.get(company.name, company.standing_order)
    was_finished = campaign.status == Campaign.Status.FINISHED
    save_snapshot(campaign=campaign, state=outcome.state)
    _relink_forces(campaign, plan.battles, battles)
    finished = outcome.state.finished
    if finished != was_finished:
        campaign.status = Campaign.Status.FINISHED if finished else Campaign.Status.ACTIVE
        with quiet_history():
            campaign.save(update_fields=["status"])
    turn.log = outcome.log
    turn.report = _report(outcome)
    turn.report_text = "\n".join(record["text"] for record in outcome.log)
    save_fields(turn, ["log", "report", "report_text"])
    commitments.turn_played(campaign=campaign, number=turn.number, finished=finished)
    if finished:
        campaign.next_deadline = None
        Campaign.objects.filter(pk=campaign.pk).update(next_deadline=None)
    elif was_finished and campaign.schedule_kind != Campaign.ScheduleKind.NONE:
        campaign.next_deadline = next_deadline_after(Schedule.of(campaign), timezone.now())
        Campaign.objects.filter(pk=campaign.pk).update(next_deadline=campaign.next_deadline)
    return TurnReport(turn=turn, battles=battles)


def _relink_forces(
    campaign: Campaign, planned: list[rules.PlannedBattle], battles: list[Battle]
) -> None:
    """Each battle's companies as a turn played afresh leaves them: those the turn's end
    left standing (a company it destroys leaves its battles, as ``save_snapshot`` deletes
    it); one that came back with the corrected result is a new row, linked again."""
    ids = dict(campaign.companies.values_list("name", "pk"))
    rows = {b.key: b for b in battles}
    for battle in planned:
        row = rows[battle.key]
        for relation in ("attackers", "defenders"):
            names_ = getattr(battle, relation)
            getattr(row, relation).set([ids[name] for name in names_ if name in ids])
