"""Turns on a timetable: schedules, deadlines, sides ready, and the sweep that claims due
campaigns for the workers.

Exactly once, in three locks:

* the sweep **claims** a due campaign's next turn with a conditional UPDATE of the
  campaign row (its deadline as read, no claim yet), and writes a ``queued`` Turn row of
  that number in the same transaction: two sweeps (two beats started by mistake, or
  the embedded loop beside a beat) cannot both claim it, the second UPDATE matches no row;
* ``process_turn`` plays it through ``advance_turn(expected_turn=N)``, which holds the
  campaign row lock and refuses a turn that is no longer the next one: a task delivered
  twice, a worker killed and its task redelivered, the GM's "advance now" at the same
  moment all end with one turn N;
* a turn commits whole or not at all, so a worker or a connection lost mid-turn leaves
  the queued turn to be played again, from the same seed.

The deadlines themselves are pure functions: ``campaign.services.deadlines``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone as django_timezone

from battles.services.fighting import stalled_auto_battles, tabletop_past_deadline
from campaign.models import Campaign, GmAdjustment, Side, SideReady, Turn
from campaign.services.adjustments import check_reason, check_seen, record, save_with_history
from campaign.services.deadlines import (
    Schedule,
    ScheduleRefused,
    SidePlay,
    check_schedule,
    moment_words,
    next_deadline_after,
    same_schedule,
    schedule_change_words,
    side_play,
)
from campaign.services.turns import (
    TurnAlreadyPlayed,
    TurnRefused,
    advance_turn,
    check_orders_open,
    check_page_turn,
    no_deadline_turn_words,
    played_sides,
    players_by_side,
)
from config.enqueue import enqueue_battle, enqueue_due_turn, enqueue_turn
from rules.campaign.turn import OrderError
from rules.dice import derive_seed

logger = logging.getLogger(__name__)

# A claim whose turn is still queued or rolling after this long is handed out again (the
# task may have been lost with a broker, or its worker killed): playing it is idempotent.
STALE_CLAIM = timedelta(minutes=5)
# Claims per sweep transaction, so one sweep never holds thousands of row locks.
SWEEP_BATCH = 500


# --- the GM's and the players' side -------------------------------------------------------


def set_schedule(
    *,
    campaign: Campaign,
    kind: str,
    every_hours: int | None = None,
    weekday: int | None = None,
    time_of_day: time | None = None,
    timezone: str = "UTC",
    now: datetime | None = None,
) -> Campaign:
    """Set the campaign's schedule and its next deadline from ``now``, with no line in
    the public log: for a campaign being made. The GM's change of a running campaign's
    schedule goes through ``change_schedule``."""
    schedule = _checked(Schedule(kind, every_hours, weekday, time_of_day, timezone))
    now = now or django_timezone.now()
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if row.status == Campaign.Status.FINISHED:
            raise ScheduleRefused(f"{row.name} has ended: it has no more deadlines")
        fields = _fields(schedule, now)
        Campaign.objects.filter(pk=row.pk).update(**fields)
    for name, value in fields.items():
        setattr(campaign, name, value)
    return campaign


def _checked(schedule: Schedule) -> Schedule:
    """``schedule`` checked (``ScheduleRefused``), keeping only the values its kind uses."""
    kind = schedule.kind
    return check_schedule(
        Schedule(
            kind=kind,
            every_hours=schedule.every_hours if kind == "every_hours" else None,
            weekday=schedule.weekday if kind == "weekly" else None,
            time_of_day=schedule.time_of_day if kind == "weekly" else None,
            timezone=schedule.timezone,
        )
    )


def _fields(schedule: Schedule, now: datetime) -> dict[str, Any]:
    """The campaign's columns for ``schedule``, its next deadline counted from ``now``."""
    return {
        "schedule_kind": schedule.kind,
        "every_hours": schedule.every_hours,
        "weekday": schedule.weekday,
        "time_of_day": schedule.time_of_day,
        "timezone": schedule.timezone,
        "next_deadline": next_deadline_after(schedule, now),
    }


def change_schedule(
    *,
    campaign: Campaign,
    schedule: Schedule,
    reason: str,
    user: Any = None,
    seen: str | None = None,
    now: datetime | None = None,
) -> GmAdjustment | None:
    """The GM changes the campaign's schedule: its next deadline counts from ``now``, and
    the public log says the new schedule and the next deadline in words, with the GM's
    reason (which tells the players, as every GM change does). A schedule that plays turns
    as the one it replaces changes nothing, records nothing and returns None (the
    deadline is kept), and needs no reason (a walk-through pressed Save on the page as it
    opened and was asked for one, as on the settings page); a change with none is refused
    (``ReasonMissing``). ``seen``: the page's ``campaign_version`` (``StaleChange`` if the
    campaign has moved on since)."""
    checked = _checked(schedule)
    now = now or django_timezone.now()
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        check_seen(row, seen)
        if row.status == Campaign.Status.FINISHED:
            raise ScheduleRefused(f"{row.name} has ended: it has no more deadlines")
        before = Schedule.of(row)
        if same_schedule(before, checked):
            return None
        reason = check_reason(reason)
        # Saved through the model, with the reason: the row's History lists the change.
        fields = _fields(checked, now)
        if Turn.objects.filter(campaign=row, status=Turn.Status.BATTLES_PENDING).exists():
            # No orders are due while a turn waits for its battles' results (as resuming
            # sets none then, ``set_paused``): the turn's end counts the next deadline.
            fields["next_deadline"] = None
        for name, value in fields.items():
            setattr(row, name, value)
            setattr(campaign, name, value)
        save_with_history(row, list(fields), reason=reason, user=user)
        return record(
            campaign=row,
            what=_schedule_line(row, before, checked),
            reason=reason,
            user=user,
            details={
                "kind": "schedule",
                "before": _schedule_json(before),
                "after": _schedule_json(checked),
                "next_deadline": row.next_deadline.isoformat() if row.next_deadline else None,
            },
        )


def _schedule_line(campaign: Campaign, before: Schedule, after: Schedule) -> str:
    """'Schedule changed: a turn every 24 hours (before: none: a turn is played once every side
    is ready, or when the game master plays it).
    Next deadline: Fri 11 Dec 2026, 18:00 CET.'"""
    first = schedule_change_words(before, after)
    number = campaign.turn + 1
    if Turn.objects.filter(campaign=campaign, status=Turn.Status.BATTLES_PENDING).exists():
        return (
            f"{first} No deadline while turn {number} waits for its battles' results: the "
            "next counts from its end."
        )
    if campaign.next_deadline is None:
        # Not only the game master's press: every side ready plays it too (the map's words).
        return f"{first} No deadline: {no_deadline_turn_words(campaign, number)}"
    if campaign.status == Campaign.Status.PAUSED:
        return f"{first} The campaign is paused: its next deadline counts from when it resumes."
    return f"{first} Next deadline: {moment_words(campaign.next_deadline, after.timezone)}."


def _schedule_json(schedule: Schedule) -> dict[str, Any]:
    return {
        "kind": schedule.kind,
        "every_hours": schedule.every_hours,
        "weekday": schedule.weekday,
        "time_of_day": schedule.time_of_day.strftime("%H:%M") if schedule.time_of_day else None,
        "timezone": schedule.timezone,
    }


def mark_side_ready(
    *,
    campaign: Campaign,
    side: str,
    now: datetime | None = None,
    page_turn: int | None = None,
    user: Any = None,
) -> bool:
    """A side's orders for the coming turn are ready. When every side a player plays is,
    the turn is due at once, and is claimed once this commits (``enqueue_due_turn``: a
    worker within seconds, not beat's next sweep; the embedded scheduler looks every
    second), as the sweep claims it, so never twice: a side with no player is played by
    the campaign AI, which is always ready, so a solo player's "ready" plays the turn. A
    side that gave no orders plays its standing orders. True when this made the turn due.

    The one rule for the page and the API: refused (``TurnRefused``) once the campaign has
    ended, and while a turn waits for its tabletop battles (orders for the next are not
    open: their results still move companies). ``page_turn``: the turn the page was drawn
    for; another is refused (``OrdersOutOfDate``), so "ready" never lands on a turn the
    player did not see. ``user``: who marked it, which the side's teammates are told; a
    side marked ready already keeps who marked it first."""
    now = now or django_timezone.now()
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        check_page_turn(row, page_turn)
        if row.status == Campaign.Status.FINISHED:
            raise TurnRefused(f"{row.name} has ended: no more turns are played")
        try:
            check_orders_open(row)
        except OrderError as closed:
            raise TurnRefused(str(closed)) from None
        sides = set(Side.objects.filter(campaign=row).values_list("key", flat=True))
        if side not in sides:
            raise TurnRefused(f"{side!r} is not a side of {row.name}")
        number = row.turn + 1
        marker = user if user is not None and user.is_authenticated else None
        SideReady.objects.get_or_create(
            campaign=row, side=side, turn_number=number, defaults={"marked_by": marker}
        )
        ready = set(
            SideReady.objects.filter(campaign=row, turn_number=number).values_list(
                "side", flat=True
            )
        )
        if not awaited_sides(row, sides) <= ready or row.due_turn is not None:
            return False
        if row.next_deadline is None or row.next_deadline > now:
            Campaign.objects.filter(pk=row.pk).update(next_deadline=now)
            campaign.next_deadline = now
        enqueue_due_turn(row.pk)
        return True


def awaited_sides(campaign: Campaign, sides: set[str]) -> set[str]:
    """The sides of ``sides`` whose "ready" the coming turn waits for: those a player
    plays (the campaign AI plays the others, and is always ready)."""
    return sides & played_sides(campaign)


def play_of_side(campaign: Campaign, side: str | None) -> SidePlay:
    """How ``side`` is played in ``campaign`` (``deadlines.side_play``), from its
    memberships: solo, its "ready" alone makes the turn due (``mark_side_ready``)."""
    players = players_by_side(campaign)
    return side_play(
        side,
        played=players[side or ""] > 0,
        others_play=any(key != side for key in players),
        teammates=players[side or ""] > 1,
    )


def due_campaigns(now: datetime) -> Any:
    """Active campaigns whose deadline has passed, with no claimed turn and no turn
    waiting for its battles (a turn is never advanced past one), earliest first."""
    waiting = Turn.objects.filter(campaign=OuterRef("pk"), status=Turn.Status.BATTLES_PENDING)
    return (
        Campaign.objects.filter(
            status=Campaign.Status.ACTIVE, next_deadline__lte=now, due_turn__isnull=True
        )
        .exclude(Exists(waiting))
        .order_by("next_deadline", "pk")
    )


# --- the sweep ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sweep:
    claimed: list[tuple[int, int]]  # (campaign id, turn number) claimed now
    reissued: list[tuple[int, int]]  # claims left too long, handed out again
    tabletop: list[int]  # battles past their deadline, to be fought by the rules
    # auto battles of a turn in progress still pending long after it began (their task
    # lost with a broker, say), handed out again
    stalled: list[int] = field(default_factory=list)


def sweep_due(*, now: datetime | None = None, enqueue: bool = True) -> Sweep:
    """Claim every due campaign's next turn; with ``enqueue``, hand each to a worker
    once the claim has committed. Also hands out again claims left too long, and the
    tabletop battles past their deadline in campaigns whose ``unentered_tabletop`` is
    ``auto``."""
    now = now or django_timezone.now()
    claimed: list[tuple[int, int]] = []
    while True:
        batch = _claim_batch(now, enqueue=enqueue)
        claimed += batch
        if len(batch) < SWEEP_BATCH:
            break
    reissued = _reissue_stale(now, enqueue=enqueue)
    tabletop = tabletop_past_deadline(now)
    stalled = stalled_auto_battles(now - STALE_CLAIM)
    if enqueue:
        for battle_id in tabletop + stalled:
            enqueue_battle(battle_id)
    return Sweep(claimed=claimed, reissued=reissued, tabletop=tabletop, stalled=stalled)


def claim_due_turn(
    *, campaign_id: int, now: datetime | None = None, enqueue: bool = True
) -> list[tuple[int, int]]:
    """The sweep of one campaign, sent when its last side became ready
    (``mark_side_ready``): claim its next turn if it is due and nobody claimed it, and
    hand it to a worker, as ``sweep_due`` would at its next run. The same claim, so a
    second delivery, a sweep at the same moment, or a campaign not due claims nothing."""
    return _claim_batch(now or django_timezone.now(), enqueue=enqueue, only=campaign_id)


def _claim_batch(now: datetime, *, enqueue: bool, only: int | None = None) -> list[tuple[int, int]]:
    """Claim the due campaigns' turns (``only``: that campaign's, if due), a batch."""
    claimed = []
    due = due_campaigns(now)
    if only is not None:
        due = due.filter(pk=only)
    with transaction.atomic():
        # skip_locked: a campaign another sweep (or a turn) holds is left to it.
        rows = list(
            due.select_for_update(skip_locked=True, of=("self",)).values_list(
                "pk", "turn", "seed", "next_deadline"
            )[:SWEEP_BATCH]
        )
        for campaign_id, turn, _seed, deadline in rows:
            number = turn + 1
            # The claim itself: only if nobody changed the deadline or claimed it since.
            won = Campaign.objects.filter(
                pk=campaign_id, turn=turn, next_deadline=deadline, due_turn__isnull=True
            ).update(due_turn=number, claimed_at=now, next_deadline=None)
            if not won:
                continue
            claimed.append((campaign_id, number))
        seeds = {campaign_id: seed for campaign_id, _, seed, _ in rows}
        # The turn is visible as queued; advance_turn fills this row in when it plays it.
        Turn.objects.bulk_create(
            Turn(
                campaign_id=campaign_id,
                number=number,
                status=Turn.Status.QUEUED,
                seed=derive_seed(seeds[campaign_id], "turn", number),
            )
            for campaign_id, number in claimed
        )
        if enqueue:
            for campaign_id, number in claimed:
                enqueue_turn(campaign_id, number)
    return claimed


def _reissue_stale(now: datetime, *, enqueue: bool) -> list[tuple[int, int]]:
    reissued: list[tuple[int, int]] = []
    stale = list(
        Campaign.objects.filter(
            status=Campaign.Status.ACTIVE,
            due_turn__isnull=False,
            claimed_at__lte=now - STALE_CLAIM,
        ).values_list("pk", "due_turn", "claimed_at")
    )
    with transaction.atomic():
        for campaign_id, number, claimed_at in stale:
            if number is not None and Campaign.objects.filter(
                pk=campaign_id, due_turn=number, claimed_at=claimed_at
            ).update(claimed_at=now):
                reissued.append((campaign_id, number))
        if enqueue:
            for campaign_id, number in reissued:
                enqueue_turn(campaign_id, number)
    return reissued


# --- playing a claimed turn ---------------------------------------------------------------

TRANSIENT_ERRORS = (OperationalError, InterfaceError)


def process_turn(*, campaign_id: int, turn_number: int, defer_battles: bool = False) -> bool:
    """Play turn ``turn_number`` of the campaign if it is still the next one; do nothing
    if it was played already (by another delivery, or the GM). True when it was played
    here. A permanent error marks the queued turn ``failed`` with the reason and is
    raised; a transient one (the database) is raised for the task to retry."""
    # Visible at once, outside the turn's transaction: a worker has the turn.
    Turn.objects.filter(
        campaign_id=campaign_id, number=turn_number, status=Turn.Status.QUEUED
    ).update(status=Turn.Status.ROLLING)
    try:
        advance_turn(
            campaign_id=campaign_id, expected_turn=turn_number, defer_battles=defer_battles
        )
    except TurnAlreadyPlayed as played:
        logger.info("turn %s of campaign %s: %s", turn_number, campaign_id, played)
        _release_claim(campaign_id, turn_number)
        return False
    except TurnRefused as refused:
        logger.info("turn %s of campaign %s refused: %s", turn_number, campaign_id, refused)
        _fail(campaign_id, turn_number, str(refused))
        return False
    except Campaign.DoesNotExist:
        logger.info("campaign %s is gone; its turn %s is dropped", campaign_id, turn_number)
        return False
    except TRANSIENT_ERRORS:
        raise
    except Exception as error:
        _fail(campaign_id, turn_number, f"{type(error).__name__}: {error}")
        raise
    return True


def _release_claim(campaign_id: int, number: int) -> None:
    """The claimed turn was played by another caller: the claim is spent."""
    with transaction.atomic():
        Turn.objects.filter(
            campaign_id=campaign_id,
            number=number,
            status__in=[Turn.Status.QUEUED, Turn.Status.ROLLING],
        ).delete()
        Campaign.objects.filter(pk=campaign_id, due_turn=number).update(
            due_turn=None, claimed_at=None
        )


def _fail(campaign_id: int, number: int, reason: str) -> None:
    """Keep the claimed turn as ``failed`` with the reason; it is not handed out again
    (the GM's "advance now" plays it, reusing the row)."""
    with transaction.atomic():
        Turn.objects.filter(
            campaign_id=campaign_id,
            number=number,
            status__in=[Turn.Status.QUEUED, Turn.Status.ROLLING],
        ).update(status=Turn.Status.FAILED, failure_reason=reason[:2000])
        Campaign.objects.filter(pk=campaign_id, due_turn=number).update(claimed_at=None)
