"""A campaign's schedule and its deadlines: pure functions of the schedule and a time
(no database), so the daylight-saving edges are tested on their own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from campaign.models import SPECTATOR
from rules.refusals import Refusal

SCHEDULE_KINDS = ("none", "every_hours", "weekly")


def time_zone(name: str) -> ZoneInfo | None:
    """The time zone of that IANA name, or None when it names none. Beside the errors
    ``ZoneInfo`` raises for a name it does not know (ZoneInfoNotFoundError, ValueError),
    a folder of the time zone database ('America') raises IsADirectoryError and a name
    too long for a file name raises OSError: typed into a form, each is a name refused."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


@cache
def _zone_names() -> dict[str, str]:
    """Every time zone name the database knows, by its lower-case spelling."""
    return {name.lower(): name for name in available_timezones()}


def time_zone_name(typed: str) -> str | None:
    """The time zone name ``typed`` stands for, in any letter case and spaces around it
    ('australia/sydney' -> 'Australia/Sydney', 'utc' -> 'UTC'), as the database spells
    it; None when it names no time zone. A name the file system finds on Linux only as
    spelled ('Australia/Sydney'), where a GM types it as they like."""
    name = typed.strip()
    if time_zone(name) is not None:
        return name
    return _zone_names().get(name.lower())


def time_zones_of_city(typed: str) -> list[str]:
    """The time zones a city typed alone stands for ('Sydney' -> ['Australia/Sydney'],
    'new york' -> ['America/New_York']), in any letter case, sorted; none for anything
    else. Only the canonical Region/City names (not 'Etc/...', nor the old 'US/...')."""
    city = "_".join(typed.split()).lower()
    if not city or "/" in city:
        return []
    return sorted(
        name
        for lower, name in _zone_names().items()
        if "/" in lower and lower.rsplit("/", 1)[1] == city and lower.split("/", 1)[0] in _REGIONS
    )


# The regions of the time zone database's canonical names ("Australia/Sydney").
_REGIONS = frozenset(
    ("africa", "america", "antarctica", "arctic", "asia", "atlantic", "australia", "europe")
    + ("indian", "pacific")
)


class ScheduleRefused(Refusal):
    """A schedule that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class Schedule:
    kind: str = "none"
    every_hours: int | None = None
    weekday: int | None = None  # 0 Monday .. 6 Sunday
    time_of_day: time | None = None
    timezone: str = "UTC"

    @classmethod
    def of(cls, campaign: Any) -> Schedule:
        """The schedule of a ``campaign.models.Campaign``."""
        return cls(
            kind=campaign.schedule_kind,
            every_hours=campaign.every_hours,
            weekday=campaign.weekday,
            time_of_day=campaign.time_of_day,
            timezone=campaign.timezone,
        )


def check_schedule(schedule: Schedule) -> Schedule:
    """The schedule if it can be used; ``ScheduleRefused`` naming the fault if not."""
    if schedule.kind not in SCHEDULE_KINDS:
        raise ScheduleRefused(f"{schedule.kind!r} is not a schedule ({', '.join(SCHEDULE_KINDS)})")
    if time_zone(schedule.timezone) is None:
        raise ScheduleRefused(f"{schedule.timezone!r} is not a time zone name")
    if schedule.kind == "every_hours" and (
        not isinstance(schedule.every_hours, int) or not 1 <= schedule.every_hours <= 24 * 28
    ):
        raise ScheduleRefused("every_hours must be a whole number of hours from 1 to 672")
    if schedule.kind == "weekly":
        if not isinstance(schedule.weekday, int) or not 0 <= schedule.weekday <= 6:
            raise ScheduleRefused("weekday must be 0 (Monday) to 6 (Sunday)")
        if not isinstance(schedule.time_of_day, time):
            raise ScheduleRefused("a weekly schedule needs a time of day")
    return schedule


WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def schedule_words(schedule: Schedule) -> str:
    """The schedule as the GM's pages and the players' log say it: "a turn every 48
    hours", "a turn every Friday at 18:00 (Europe/Berlin)"."""
    if schedule.kind == "every_hours":
        hours = schedule.every_hours
        return "a turn every hour" if hours == 1 else f"a turn every {hours} hours"
    if schedule.kind == "weekly" and schedule.weekday is not None and schedule.time_of_day:
        day = WEEKDAY_NAMES[schedule.weekday]
        return f"a turn every {day} at {schedule.time_of_day:%H:%M} ({schedule.timezone})"
    # Not the game master alone: with no deadline the turn is played as soon as every side
    # a player plays is ready (schedule.mark_side_ready), or when the GM presses.
    return "none: a turn is played once every side is ready, or when the game master plays it"


@dataclass(frozen=True, slots=True)
class SidePlay:
    """How the reader's side is played, for what the pages, the campaign list and the
    emails say about whose "ready" plays the turn (``side_play``)."""

    solo: bool  # the one side a player plays: the reader's "ready" plays the turn
    teammates: bool  # another player plays it too: their "ready" is the side's as well


def side_play(side: str | None, *, played: bool, others_play: bool, teammates: bool) -> SidePlay:
    """The one rule of "solo", whatever it is read from (the stamp's SQL, the campaign
    list's query, the orders page's plan, the memberships): the reader's ``side``, whether
    a player plays it (``played``), whether a player plays any other side (``others_play``:
    else every other side is the campaign AI's, always ready, so the side's "ready" alone
    makes the turn due: ``schedule.mark_side_ready``), and whether another player plays
    it too (``teammates``: a side's "ready" is the side's, whoever of its players marks
    it). Neither for the GM or a spectator (no side of their own), nor for a side no
    player plays."""
    if not side or side == SPECTATOR or not played:
        return SidePlay(solo=False, teammates=False)
    return SidePlay(solo=not others_play, teammates=teammates)


def no_deadline_words(
    number: int,
    *,
    solo: bool = False,
    teammates: bool = False,
    unplayed: bool = False,
    played_by: str | None = None,
) -> str:
    """When turn ``number`` is played with no deadline set, as the map, the campaign
    list and a player's email say it: once every side a player plays is ready, or when
    the GM plays it. ``solo``: for a player of the one side a player plays, every other
    side the campaign AI's (always ready), whose own "ready" plays it; ``teammates``:
    and others play that side too, whose "ready" plays it as well (``side_play``).
    ``unplayed``: no player plays any side, so no "ready" makes a turn due
    (``schedule.mark_side_ready``): only the game master's "Advance turn now" plays it.
    ``played_by``: the name of the one side a player plays, to a reader who is not its
    player (a spectator, the game master, the public log): the campaign AI's side is
    always ready, so "once every side is ready" meant when that side is. Which sides a
    player plays is public (the orders page's ready box says it)."""
    if unplayed:
        return (
            f'Turn {number} is played when the game master presses "Advance turn now" '
            '(no player plays a side, so no side\'s "ready" plays it).'
        )
    if solo and teammates:
        return (
            f"Turn {number} is played when you or a teammate marks your side's orders "
            "ready, or when the game master plays it."
        )
    if solo:
        return (
            f"Turn {number} is played when you mark your orders ready, or when the game "
            "master plays it."
        )
    if played_by:
        return (
            f"Turn {number} is played when the {played_by} mark their orders ready (the "
            "campaign AI plays the other side, always ready), or when the game master "
            "plays it."
        )
    return f"Turn {number} is played once every side is ready, or when the game master plays it."


def moment_words(moment: datetime, zone: str) -> str:
    """A moment on the clock of a time zone, with the zone's name: "Fri 11 Dec 2026,
    18:00 CET"."""
    local = moment.astimezone(time_zone(zone) or ZoneInfo("UTC"))
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} {local.tzname()}"


def same_schedule(before: Schedule, after: Schedule) -> bool:
    """Do the two play turns at the same times, shown on the same clock? Without a
    schedule the time zone shows nothing."""
    if before.kind == after.kind == "none":
        return True
    return before == after


def schedule_change_words(before: Schedule, after: Schedule) -> str:
    """The first sentence of a schedule change's public line."""
    if schedule_words(before) == schedule_words(after):
        # Only the clock the deadlines are shown on changed (every N hours).
        return (
            f"Schedule changed: {schedule_words(after)}, its deadlines now shown in "
            f"{after.timezone} time (before: {before.timezone})."
        )
    return f"Schedule changed: {schedule_words(after)} (before: {schedule_words(before)})."


def schedule_news(before: Schedule, after: Schedule) -> str:
    """A schedule change in a few words, for an email's subject: "New schedule: a turn
    every Thursday at 19:30 (Australia/Sydney)"; the whole line, with the schedule before
    and the next deadline, is the body's (``schedule_change_words``)."""
    if schedule_words(before) == schedule_words(after):
        return f"Deadlines now shown in {after.timezone} time"
    if after.kind == "none":
        return "No more deadlines: a turn is played once every side is ready"
    return f"New schedule: {schedule_words(after)}"


def schedule_of_json(data: Mapping[str, Any]) -> Schedule:
    """A schedule as a GM change's details keep it (``schedule._schedule_json``)."""
    clock = data.get("time_of_day")
    return Schedule(
        kind=str(data.get("kind") or "none"),
        every_hours=data.get("every_hours"),
        weekday=data.get("weekday"),
        time_of_day=time.fromisoformat(clock) if clock else None,
        timezone=str(data.get("timezone") or "UTC"),
    )


def next_deadline_after(schedule: Schedule, after: datetime) -> datetime | None:
    """The first deadline of ``schedule`` strictly after ``after`` (aware), in UTC.

    ``every_hours``: N hours of real time later, whatever the clocks do. ``weekly``: the
    weekday and time on the wall clock of the time zone. A wall time that does not exist
    (the hour skipped when clocks go forward) is read with the offset before the change,
    so 02:30 on that night is 03:30 summer time; a wall time that happens twice (clocks
    go back) is its first occurrence."""
    if after.tzinfo is None:
        raise ValueError("after must be an aware datetime")
    if schedule.kind == "none":
        return None
    if schedule.kind == "every_hours":
        assert schedule.every_hours is not None
        # In UTC: adding to a zoned datetime would add wall-clock hours.
        return after.astimezone(UTC) + timedelta(hours=schedule.every_hours)
    assert schedule.weekday is not None and schedule.time_of_day is not None
    zone = ZoneInfo(schedule.timezone)
    local_day = after.astimezone(zone).date()
    first = local_day + timedelta(days=(schedule.weekday - local_day.weekday()) % 7)
    for weeks in range(3):
        day = first + timedelta(weeks=weeks)
        wall = datetime.combine(day, schedule.time_of_day.replace(tzinfo=None), tzinfo=zone)
        deadline = wall.replace(fold=0).astimezone(UTC)
        if deadline > after:
            return deadline
    raise AssertionError("a weekly deadline is always within two weeks")  # pragma: no cover


def deadline_after_turn_words(schedule: Schedule, number: int, now: datetime) -> str:
    """When the deadline of turn ``number + 1`` will be, said while turn ``number`` waits
    for its battles' results: the turn's end counts it (``turns.complete_if_ready``:
    ``next_deadline_after(schedule, turn.finished_at)``), so a weekly schedule's is its
    first weekday and time after that end, the same one for turns played within a week
    (a walk-through read "counted from the end of turn 3" and found turns 2 to 5 all due
    on the same Friday). That one is known if the turn ends before it: the first after
    ``now``. "" with no schedule."""
    following = number + 1
    if schedule.kind == "every_hours" and schedule.every_hours:
        hours = schedule.every_hours
        after = "1 hour" if hours == 1 else f"{hours} hours"
        return f"The deadline for turn {following} will be {after} after turn {number} ends."
    if schedule.kind == "weekly" and schedule.weekday is not None and schedule.time_of_day:
        day = WEEKDAY_NAMES[schedule.weekday]
        first = f"{day} at {schedule.time_of_day:%H:%M} ({schedule.timezone})"
        soon = next_deadline_after(schedule, now)
        known = f": {moment_words(soon, schedule.timezone)} if it ends before then" if soon else ""
        return (
            f"The deadline for turn {following} will be the first {first} after turn {number} "
            f"ends{known}."
        )
    return ""


def unentered_words(unentered: str, *, gm: bool = False, paused: bool = False) -> str:
    """What becomes of a tabletop battle with no result entered by its deadline, by the
    campaign's ``unentered_tabletop`` setting, said after "Result wanted by ...:".
    ``auto``: the scheduler's sweep has the rules fight it
    (``battles.services.fighting.tabletop_past_deadline``); ``wait``: nothing, the turn
    waits however long (``schedule.due_campaigns`` never plays past it). A walk-through's
    sheet said "Result due by" beside a settings page saying the campaign waits for the
    result. ``gm``: in the game master's words. ``paused``: the campaign is paused, and the
    sweep fights none of a paused campaign's battles until the GM resumes it (a helper
    found the players' pages promising a fight that would not come)."""
    whose = "your" if gm else "the game master's"
    if unentered == "auto":
        fights = "if none is entered by then, the computer fights it by the rules"
        if paused:
            who = "you resume" if gm else "the game master resumes"
            fights += f" once {who} the campaign"
        return fights
    return f"if none is entered by then, the campaign waits for {whose} result, however long"


def turn_length(schedule: Schedule) -> timedelta | None:
    """The longest a turn of ``schedule`` lasts, from the deadline set to the deadline:
    N hours, or a week; None with no schedule."""
    if schedule.kind == "every_hours" and schedule.every_hours:
        return timedelta(hours=schedule.every_hours)
    if schedule.kind == "weekly":
        return timedelta(weeks=1)
    return None


def reminder_lead(
    *, hours: int, schedule: Schedule, deadline: datetime, told: datetime | None = None
) -> timedelta:
    """How long before ``deadline`` a reader's reminder comes (their email, their
    calendar's alarm): the ``hours`` they chose, but never before half the turn has run.

    The turn runs from when its deadline was set to the deadline: a turn of ``schedule``
    at most, less when the players were told of the deadline later (``told``: a turn
    played, whose email names the next deadline; the GM's new schedule, whose line names
    it), as a weekly turn played early. On a schedule shorter than ``hours`` the reminder
    would otherwise come right behind the email that named the deadline: two emails for
    one turn, the second telling nothing new, and an alarm set before its event existed."""
    wanted = timedelta(hours=hours)
    length = turn_length(schedule)
    begun = deadline - length if length is not None else told
    if told is not None and begun is not None:
        begun = max(begun, told)
    if begun is None:
        return wanted
    # To the minute: a deadline is set a moment before the line that tells of it is saved,
    # and an alarm "2 hours 59 minutes 59 seconds before" reads as a slip.
    half = timedelta(minutes=round((deadline - begun) / timedelta(minutes=2)))
    return max(min(wanted, half), timedelta(0))
