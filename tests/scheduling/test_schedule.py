"""Schedules, sides ready, the sweep and the idempotent turn (campaign.services.schedule),
on the database (SQLite, and PostgreSQL when DATABASE_URL names one)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from battles.models import Battle
from battles.services.results import fight_pending_battle, resolve_unentered
from campaign.models import SPECTATOR, Campaign, Membership, SideReady, Turn
from campaign.services import schedule
from campaign.services.campaigns import set_paused
from campaign.services.deadlines import ScheduleRefused
from campaign.services.schedule import (
    due_campaigns,
    mark_side_ready,
    process_turn,
    set_schedule,
    sweep_due,
)
from campaign.services.turns import advance_turn
from campaign.tasks import claim_due_turn
from config import enqueue
from config.celery import app as celery_app
from rules.campaign import turn as rules
from rules.dice import derive_seed
from tests.campaign.test_services_turns import (
    database_state,
    meeting_doc,
    new_campaign,
    reload,
    turn_logs,
)

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)


def scheduled(name: str = "Korona 1", seed: int = 1, **kwargs: Any) -> Campaign:
    """A campaign every 24 hours whose first deadline has just passed."""
    campaign = new_campaign(name, seed, **kwargs)
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, now=NOW - timedelta(days=1))
    return reload(campaign)


def turn_rows(campaign: Campaign) -> list[tuple[int, str]]:
    return list(Turn.objects.filter(campaign=campaign).values_list("number", "status"))


def clean_run(seed: int = 1, turns: int = 1, **kwargs: Any) -> Campaign:
    """The reference: the same campaign, its turns played by advance_turn alone."""
    campaign = new_campaign("Clean", seed, **kwargs)
    for _ in range(turns):
        advance_turn(campaign_id=campaign.pk)
    return campaign


def same_as(campaign: Campaign, clean: Campaign) -> None:
    assert database_state(campaign) == database_state(clean)
    assert turn_logs(campaign) == turn_logs(clean)
    assert list(
        Battle.objects.filter(campaign=campaign).values_list("key", "status", "result")
    ) == list(Battle.objects.filter(campaign=clean).values_list("key", "status", "result"))


# --- schedules ----------------------------------------------------------------------------


def test_set_schedule_stores_it_and_the_next_deadline() -> None:
    campaign = new_campaign()
    set_schedule(
        campaign=campaign,
        kind="weekly",
        weekday=4,
        time_of_day=time(18),
        timezone="Europe/Berlin",
        now=NOW,
    )
    row = reload(campaign)
    assert (row.schedule_kind, row.weekday, row.time_of_day, row.timezone) == (
        "weekly",
        4,
        time(18),
        "Europe/Berlin",
    )
    assert row.next_deadline == datetime(2026, 3, 6, 17, tzinfo=UTC)

    set_schedule(campaign=campaign, kind="none")
    assert (reload(campaign).schedule_kind, reload(campaign).next_deadline) == ("none", None)


def test_a_bad_schedule_changes_nothing() -> None:
    campaign = new_campaign()
    with pytest.raises(ScheduleRefused, match="not a time zone"):
        set_schedule(campaign=campaign, kind="every_hours", every_hours=6, timezone="Nowhere/X")
    assert reload(campaign).schedule_kind == "none"


def test_due_campaigns_are_active_past_their_deadline_and_not_waiting() -> None:
    due = scheduled("Due")
    later = new_campaign("Later")
    set_schedule(campaign=later, kind="every_hours", every_hours=1, now=NOW)
    paused = scheduled("Paused")
    set_paused(campaign=paused, paused=True, reason="holidays")
    unscheduled = new_campaign("Unscheduled")
    waiting = scheduled("Waiting", doc=meeting_doc(), battle_mode="tabletop")
    advance_turn(campaign_id=waiting.pk)
    Campaign.objects.filter(pk=waiting.pk).update(next_deadline=NOW - timedelta(hours=1))

    assert list(due_campaigns(NOW)) == [due]
    assert unscheduled not in due_campaigns(NOW)


def test_resuming_counts_the_next_deadline_from_now() -> None:
    campaign = scheduled()
    set_paused(campaign=campaign, paused=True, reason="holidays")
    set_paused(campaign=campaign, paused=False)
    assert reload(campaign).next_deadline > timezone.now() + timedelta(hours=23)


# --- the sweep ----------------------------------------------------------------------------


def test_the_sweep_claims_a_due_turn_once_and_queues_it() -> None:
    campaign = scheduled(seed=3)

    first = sweep_due(now=NOW, enqueue=False)
    second = sweep_due(now=NOW, enqueue=False)

    assert first.claimed == [(campaign.pk, 1)]
    assert second.claimed == []
    row = reload(campaign)
    assert (row.due_turn, row.claimed_at, row.next_deadline) == (1, NOW, None)
    queued = Turn.objects.get(campaign=campaign)
    assert (queued.number, queued.status, queued.seed) == (1, "queued", derive_seed(3, "turn", 1))


def test_a_claim_left_too_long_is_handed_out_again_once() -> None:
    campaign = scheduled()
    sweep_due(now=NOW, enqueue=False)
    later = NOW + schedule.STALE_CLAIM + timedelta(seconds=1)

    assert sweep_due(now=NOW + timedelta(minutes=1), enqueue=False).reissued == []
    assert sweep_due(now=later, enqueue=False).reissued == [(campaign.pk, 1)]
    assert sweep_due(now=later, enqueue=False).reissued == []


def test_the_sweep_sends_each_claimed_turn_to_a_worker_after_commit(
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = scheduled()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        sweep_due(now=NOW)
    # tasks run eagerly here: the turn is played (and its notices sent, notifications/)
    assert [c for c in callbacks if c.__qualname__.startswith("enqueue_turn.")] == callbacks[:1]
    assert len(callbacks) == 2
    assert turn_rows(campaign) == [(1, "done")]
    assert reload(campaign).due_turn is None


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL: SQLite has no row locks"
)
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_claim_each_turn_once() -> None:
    campaigns = [scheduled(f"Korona {n}", seed=n) for n in range(20)]
    start = threading.Barrier(2)
    results: list[list[tuple[int, int]]] = []

    def sweep() -> None:
        try:
            start.wait()
            results.append(sweep_due(now=NOW, enqueue=False).claimed)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    claims = sorted(results[0] + results[1])
    assert claims == sorted((c.pk, 1) for c in campaigns)
    assert Turn.objects.count() == 20


# --- playing a claimed turn ---------------------------------------------------------------


def test_process_turn_plays_the_claimed_turn_as_advance_turn_would() -> None:
    campaign = scheduled(seed=5, aggressive=True)
    sweep_due(now=NOW, enqueue=False)

    assert process_turn(campaign_id=campaign.pk, turn_number=1)

    row = reload(campaign)
    assert (row.turn, row.due_turn, row.claimed_at) == (1, None, None)
    turn = Turn.objects.get(campaign=campaign)
    assert row.next_deadline == turn.finished_at + timedelta(hours=24)
    same_as(campaign, clean_run(seed=5, aggressive=True))


def test_a_turn_delivered_twice_is_played_once() -> None:
    campaign = scheduled(seed=5, aggressive=True)
    sweep_due(now=NOW, enqueue=False)
    process_turn(campaign_id=campaign.pk, turn_number=1)
    after_one = database_state(campaign)

    assert not process_turn(campaign_id=campaign.pk, turn_number=1)

    assert database_state(campaign) == after_one
    assert turn_rows(campaign) == [(1, "done")]


def test_a_turn_the_gm_played_first_is_not_played_again() -> None:
    campaign = scheduled(seed=5, aggressive=True)
    sweep_due(now=NOW, enqueue=False)
    advance_turn(campaign_id=campaign.pk, expected_turn=1)  # "Advance turn now"

    assert not process_turn(campaign_id=campaign.pk, turn_number=1)

    assert turn_rows(campaign) == [(1, "done")]
    assert reload(campaign).due_turn is None
    same_as(campaign, clean_run(seed=5, aggressive=True))


def test_a_claimed_turn_of_a_campaign_that_ended_meanwhile_fails_with_the_reason() -> None:
    campaign = scheduled()
    sweep_due(now=NOW, enqueue=False)
    Campaign.objects.filter(pk=campaign.pk).update(
        status="finished", winner="japanese", end_reason="the GM ended it"
    )

    assert not process_turn(campaign_id=campaign.pk, turn_number=1)

    turn = Turn.objects.get(campaign=campaign)
    assert (turn.status, turn.failure_reason) == (
        "failed",
        "Korona 1 has ended: no more turns are played",
    )


def test_a_turn_that_breaks_is_failed_with_the_reason_and_the_gm_can_play_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    campaign = scheduled(seed=5)
    sweep_due(now=NOW, enqueue=False)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a rule broke")

    with monkeypatch.context() as patch:
        patch.setattr(rules, "start_turn", broken)
        with pytest.raises(RuntimeError):
            process_turn(campaign_id=campaign.pk, turn_number=1)

    turn = Turn.objects.get(campaign=campaign)
    assert (turn.status, turn.failure_reason) == ("failed", "RuntimeError: a rule broke")
    assert sweep_due(now=NOW + timedelta(hours=1), enqueue=False) == schedule.Sweep([], [], [])
    advance_turn(campaign_id=campaign.pk)
    assert turn_rows(campaign) == [(1, "done")]
    same_as(campaign, clean_run(seed=5))


# --- sides ready ----------------------------------------------------------------------------


def players(campaign: Campaign, *sides: str) -> None:
    """A player for each of ``sides`` (the others are played by the campaign AI)."""
    for side in sides:
        user = get_user_model().objects.create_user(f"{side}-{campaign.pk}", password="pw")
        Membership.objects.create(campaign=campaign, user=user, side=side)


def test_the_turn_is_due_at_once_when_every_side_is_ready() -> None:
    campaign = new_campaign()
    players(campaign, "australian", "japanese")
    set_schedule(campaign=campaign, kind="every_hours", every_hours=48, now=NOW)

    assert not mark_side_ready(campaign=campaign, side="japanese", now=NOW)
    assert not mark_side_ready(campaign=campaign, side="japanese", now=NOW)  # once is enough
    assert list(due_campaigns(NOW)) == []
    assert mark_side_ready(campaign=campaign, side="australian", now=NOW)

    assert list(due_campaigns(NOW)) == [campaign]
    assert SideReady.objects.filter(campaign=campaign, turn_number=1).count() == 2
    assert sweep_due(now=NOW, enqueue=False).claimed == [(campaign.pk, 1)]


def test_a_solo_players_ready_plays_the_turn_the_campaign_ai_is_always_ready() -> None:
    """A side no player plays is played by the campaign AI: the turn waits only for the
    sides a player plays. With no schedule, the solo player's "ready" is what plays it."""
    campaign = new_campaign()
    players(campaign, "australian")
    assert mark_side_ready(campaign=campaign, side="australian", now=NOW)
    assert list(due_campaigns(NOW)) == [campaign]
    assert sweep_due(now=NOW, enqueue=False).claimed == [(campaign.pk, 1)]


def test_a_spectator_is_no_player_to_wait_for() -> None:
    campaign = new_campaign()
    players(campaign, "japanese")
    viewer = get_user_model().objects.create_user("onlooker", password="pw")
    Membership.objects.create(campaign=campaign, user=viewer, side=SPECTATOR)
    assert mark_side_ready(campaign=campaign, side="japanese", now=NOW)


def test_an_unscheduled_campaign_is_played_when_every_side_is_ready() -> None:
    campaign = new_campaign()
    players(campaign, "australian", "japanese")
    mark_side_ready(campaign=campaign, side="japanese", now=NOW)
    mark_side_ready(campaign=campaign, side="australian", now=NOW)
    sweep_due(now=NOW, enqueue=False)
    process_turn(campaign_id=campaign.pk, turn_number=1)
    assert reload(campaign).next_deadline is None  # no schedule: no further deadline


def sent_tasks(monkeypatch: Any) -> list[tuple[str, tuple[Any, ...]]]:
    """The tasks sent to a broker (``config.enqueue``), by name and arguments, none run."""
    sent: list[tuple[str, tuple[Any, ...]]] = []
    celery_app.conf.task_always_eager = False  # the autouse eager_tasks puts it back
    monkeypatch.setattr(enqueue, "_send", lambda name, *args, **_: sent.append((name, args)))
    return sent


def test_the_last_side_ready_sends_its_turn_to_be_claimed_once_it_commits(
    monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The turn was due at once but waited for beat's next sweep, up to 30 s: "played
    within seconds" was as long as the sweep's period."""
    campaign = new_campaign()
    players(campaign, "australian", "japanese")
    set_schedule(campaign=campaign, kind="every_hours", every_hours=48, now=NOW)
    sent = sent_tasks(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        mark_side_ready(campaign=campaign, side="japanese", now=NOW)
    assert sent == []  # the Australians are not ready: nothing is due
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        mark_side_ready(campaign=campaign, side="australian", now=NOW)
        assert sent == []  # not before the "ready" has committed
    assert len(callbacks) == 1
    assert sent == [("campaign.claim_due_turn", (campaign.pk,))]


def test_without_a_broker_the_ready_plays_no_turn_in_its_request(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The embedded default runs a task where it is sent: the "ready" sends none, and the
    embedded scheduler, which looks every second, plays the turn (test_run_scheduler)."""
    campaign = new_campaign()
    players(campaign, "australian")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert mark_side_ready(campaign=campaign, side="australian", now=NOW)
    assert callbacks == []
    assert turn_rows(campaign) == []
    assert list(due_campaigns(NOW)) == [campaign]


def test_a_due_turn_claimed_twice_and_swept_is_played_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Two "ready" presses sending the claim twice, and beat's sweep beside them."""
    campaign = new_campaign()
    players(campaign, "australian")
    mark_side_ready(campaign=campaign, side="australian", now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        assert claim_due_turn.apply(args=(campaign.pk,)).get() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert claim_due_turn.apply(args=(campaign.pk,)).get() == 0
        assert sweep_due(now=NOW).claimed == []
    assert turn_rows(campaign) == [(1, "done")]
    assert reload(campaign).turn == 1
    same_as(campaign, clean_run())


def test_a_turn_not_due_is_not_claimed() -> None:
    campaign = new_campaign()
    players(campaign, "australian", "japanese")
    set_schedule(campaign=campaign, kind="every_hours", every_hours=48, now=NOW)
    mark_side_ready(campaign=campaign, side="japanese", now=NOW)
    assert schedule.claim_due_turn(campaign_id=campaign.pk, now=NOW, enqueue=False) == []
    other = scheduled("Other")  # due, but not the campaign asked for
    assert schedule.claim_due_turn(campaign_id=campaign.pk, now=NOW, enqueue=False) == []
    assert turn_rows(campaign) == [] and reload(other).due_turn is None


def test_a_side_that_is_not_in_the_campaign_is_refused() -> None:
    with pytest.raises(ValueError, match="is not a side"):
        mark_side_ready(campaign=new_campaign(), side="american")


# --- battles as tasks, tabletop deadlines -----------------------------------------------------


def test_deferred_battles_wait_then_the_last_one_completes_the_turn() -> None:
    campaign = new_campaign(doc=meeting_doc())
    report = advance_turn(campaign_id=campaign.pk, defer_battles=True)

    assert turn_rows(campaign) == [(1, "battles_pending")]
    battles = list(Battle.objects.filter(campaign=campaign).order_by("id"))
    assert [(b.mode, b.status) for b in battles] == [("auto", "pending")] * 2
    assert not report.done
    assert fight_pending_battle(battle_id=battles[0].pk) is not None
    assert turn_rows(campaign) == [(1, "battles_pending")]
    assert fight_pending_battle(battle_id=battles[0].pk) is None  # delivered twice
    assert fight_pending_battle(battle_id=battles[1].pk).done

    same_as(campaign, clean_run(doc=meeting_doc()))


def test_deferred_battles_whose_tasks_were_lost_are_handed_out_again() -> None:
    campaign = new_campaign(doc=meeting_doc())
    advance_turn(campaign_id=campaign.pk, defer_battles=True)  # its tasks never sent
    battles = sorted(Battle.objects.filter(campaign=campaign).values_list("pk", flat=True))

    assert sweep_due(enqueue=False).stalled == []
    later = timezone.now() + schedule.STALE_CLAIM + timedelta(seconds=1)
    assert sorted(sweep_due(now=later, enqueue=False).stalled) == battles


def test_deferred_battles_are_sent_to_workers_after_commit(
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = new_campaign(doc=meeting_doc())
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        advance_turn(campaign_id=campaign.pk, defer_battles=True)
    battles = [c for c in callbacks if c.__qualname__.startswith("enqueue_battle.")]
    assert len(battles) == 2  # the rest: the turn's notices (notifications/), each commit
    same_as(campaign, clean_run(doc=meeting_doc()))


def tabletop_scheduled(unentered: str) -> Campaign:
    campaign = scheduled(doc=meeting_doc(), battle_mode="tabletop", unentered_tabletop=unentered)
    sweep_due(now=NOW, enqueue=False)
    process_turn(campaign_id=campaign.pk, turn_number=1)
    return campaign


def test_a_tabletop_battle_is_due_by_the_next_deadline() -> None:
    campaign = tabletop_scheduled("wait")
    assert turn_rows(campaign) == [(1, "battles_pending")]
    deadlines = set(Battle.objects.filter(campaign=campaign).values_list("deadline", flat=True))
    (deadline,) = deadlines
    assert timedelta(hours=23) < deadline - timezone.now() <= timedelta(hours=24)


def test_a_turn_waiting_for_the_table_is_never_advanced_past_it() -> None:
    campaign = tabletop_scheduled("wait")
    waiting = database_state(campaign)
    much_later = timezone.now() + timedelta(days=30)

    assert sweep_due(now=much_later, enqueue=False) == schedule.Sweep([], [], [])
    assert not process_turn(campaign_id=campaign.pk, turn_number=1)
    assert not process_turn(campaign_id=campaign.pk, turn_number=2)
    assert database_state(campaign) == waiting


def test_an_unentered_tabletop_battle_is_fought_by_the_rules_when_the_setting_says_auto(
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = tabletop_scheduled("auto")
    battles = sorted(Battle.objects.filter(campaign=campaign).values_list("pk", flat=True))
    much_later = timezone.now() + timedelta(days=2)

    assert resolve_unentered(battle_id=battles[0]) is False  # before its deadline
    assert sorted(sweep_due(now=much_later, enqueue=False).tabletop) == battles
    for battle_id in battles:
        assert resolve_unentered(battle_id=battle_id, now=much_later)

    assert turn_rows(campaign) == [(1, "done")]
    assert set(Battle.objects.filter(campaign=campaign).values_list("mode", "status")) == {
        ("auto", "fought")
    }
    assert reload(campaign).next_deadline > timezone.now()
