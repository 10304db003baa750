"""The deadlines of a schedule: pure functions of the schedule and a time."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from campaign.services.deadlines import (
    Schedule,
    ScheduleRefused,
    check_schedule,
    next_deadline_after,
    reminder_lead,
)

BERLIN = ZoneInfo("Europe/Berlin")
# 2026: clocks go forward in Berlin on Sunday 29 March (02:00 -> 03:00), back on Sunday
# 25 October (03:00 -> 02:00).


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def weekly(weekday: int, hour: int, minute: int = 0, zone: str = "Europe/Berlin") -> Schedule:
    return Schedule(kind="weekly", weekday=weekday, time_of_day=time(hour, minute), timezone=zone)


def test_no_schedule_has_no_deadline() -> None:
    assert next_deadline_after(Schedule(), utc(2026, 1, 1)) is None


def test_every_n_hours_is_real_time_even_across_a_clock_change() -> None:
    schedule = Schedule(kind="every_hours", every_hours=24, timezone="Europe/Berlin")
    before_change = datetime(2026, 3, 28, 12, 0, tzinfo=BERLIN)
    deadline = next_deadline_after(schedule, before_change)
    assert deadline - before_change == timedelta(hours=24)
    assert deadline.astimezone(BERLIN).hour == 13  # the wall clock moved, the hours did not


def test_weekly_is_the_next_such_weekday_and_wall_time() -> None:
    # Wednesday 4 March 2026, 10:00 UTC; Fridays at 18:00 Berlin (UTC+1 in winter).
    assert next_deadline_after(weekly(4, 18), utc(2026, 3, 4, 10)) == utc(2026, 3, 6, 17)


def test_weekly_later_on_the_same_day_is_that_day() -> None:
    assert next_deadline_after(weekly(2, 18), utc(2026, 3, 4, 10)) == utc(2026, 3, 4, 17)


def test_weekly_at_the_deadline_itself_is_a_week_later() -> None:
    assert next_deadline_after(weekly(2, 18), utc(2026, 3, 4, 17)) == utc(2026, 3, 11, 17)


def test_weekly_keeps_the_wall_time_across_the_spring_change() -> None:
    # Sunday 18:00 Berlin: UTC+1 on 22 March, UTC+2 on 29 March.
    first = next_deadline_after(weekly(6, 18), utc(2026, 3, 22, 12))
    second = next_deadline_after(weekly(6, 18), first)
    assert (first, second) == (utc(2026, 3, 22, 17), utc(2026, 3, 29, 16))
    assert second.astimezone(BERLIN).hour == 18


def test_a_wall_time_skipped_by_the_clocks_is_read_with_the_winter_offset() -> None:
    # 02:30 does not exist on 29 March 2026 in Berlin: 01:30 UTC, i.e. 03:30 summer time.
    deadline = next_deadline_after(weekly(6, 2, 30), utc(2026, 3, 28, 12))
    assert deadline == utc(2026, 3, 29, 1, 30)
    assert deadline.astimezone(BERLIN).time() == time(3, 30)


def test_a_wall_time_that_happens_twice_is_its_first_occurrence() -> None:
    # 02:30 happens twice on 25 October 2026 in Berlin: first at 00:30 UTC (summer time).
    assert next_deadline_after(weekly(6, 2, 30), utc(2026, 10, 24, 12)) == utc(2026, 10, 25, 0, 30)


def test_just_after_the_first_of_two_wall_times_is_the_next_week() -> None:
    # The deadline is a moment, not a wall time: it does not fire again an hour later.
    after_first = utc(2026, 10, 25, 0, 31)
    assert next_deadline_after(weekly(6, 2, 30), after_first) == utc(2026, 11, 1, 1, 30)


def test_weekly_in_utc_and_in_a_zone_east_of_the_date_line() -> None:
    assert next_deadline_after(weekly(0, 0, 0, "UTC"), utc(2026, 3, 4)) == utc(2026, 3, 9)
    # Monday 09:00 in Port Moresby (UTC+10) is Sunday 23:00 UTC.
    moresby = weekly(0, 9, 0, "Pacific/Port_Moresby")
    assert next_deadline_after(moresby, utc(2026, 3, 4)) == utc(2026, 3, 8, 23)


def test_a_naive_time_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        next_deadline_after(weekly(0, 9), datetime(2026, 3, 4))


@pytest.mark.parametrize(
    ("schedule", "message"),
    [
        (Schedule(kind="daily"), "is not a schedule"),
        (Schedule(kind="every_hours", every_hours=0), "every_hours"),
        (Schedule(kind="every_hours"), "every_hours"),
        (Schedule(kind="weekly", weekday=7, time_of_day=time(9)), "weekday"),
        (Schedule(kind="weekly", weekday=1), "time of day"),
        (
            Schedule(kind="weekly", weekday=1, time_of_day=time(9), timezone="Mars/Olympus"),
            "not a time zone",
        ),
        (Schedule(timezone="../etc/passwd"), "not a time zone"),
        # A folder of the time zone database, and a name too long for a file: OSErrors.
        (Schedule(timezone="America"), "not a time zone"),
        (Schedule(timezone="a" * 300), "not a time zone"),
    ],
)
def test_a_schedule_that_cannot_be_used_is_refused(schedule: Schedule, message: str) -> None:
    with pytest.raises(ScheduleRefused, match=message):
        check_schedule(schedule)


# --- when a reminder comes ------------------------------------------------------------------


def every(hours: int) -> Schedule:
    return Schedule(kind="every_hours", every_hours=hours)


def test_a_reminder_comes_the_hours_the_player_chose_on_a_turn_twice_as_long() -> None:
    deadline = utc(2026, 12, 11, 18)
    assert reminder_lead(hours=12, schedule=every(48), deadline=deadline) == timedelta(hours=12)
    assert reminder_lead(hours=12, schedule=every(24), deadline=deadline) == timedelta(hours=12)
    assert reminder_lead(hours=2, schedule=every(6), deadline=deadline) == timedelta(hours=2)


def test_on_a_turn_shorter_than_the_reminder_it_comes_halfway_through_the_turn() -> None:
    """A turn every 6 hours and the default 12: a reminder 12 hours before the deadline
    came at once, right behind the turn's email that named that deadline."""
    deadline = utc(2026, 12, 11, 18)
    assert reminder_lead(hours=12, schedule=every(6), deadline=deadline) == timedelta(hours=3)
    assert reminder_lead(hours=1, schedule=every(1), deadline=deadline) == timedelta(minutes=30)
    assert reminder_lead(hours=168, schedule=weekly(4, 18), deadline=deadline) == timedelta(
        hours=84
    )


def test_a_deadline_told_late_counts_its_turn_from_then() -> None:
    """A weekly turn played early, two hours before the weekly time: its email named a
    deadline two hours away, so the reminder comes an hour after it, not at once."""
    deadline = utc(2026, 12, 11, 17)
    told = deadline - timedelta(hours=2)
    lead = reminder_lead(hours=12, schedule=weekly(4, 18), deadline=deadline, told=told)
    assert lead == timedelta(hours=1)
    # Told before the turn began (the last turn, played long ago): the turn counts.
    long_ago = deadline - timedelta(days=30)
    assert reminder_lead(
        hours=12, schedule=every(6), deadline=deadline, told=long_ago
    ) == timedelta(hours=3)


def test_with_no_schedule_and_nothing_told_the_players_hours_hold() -> None:
    deadline = utc(2026, 12, 11, 17)
    assert reminder_lead(hours=12, schedule=Schedule(), deadline=deadline) == timedelta(hours=12)
