"""One notice per player and turn, with a real Redis broker and real Celery workers: the
turn's task delivered twice, two beats sweeping at once, and the notice task itself
delivered again, give each player one email. The workers print their emails (the
console backend of the embedded default), so their logs show what was really sent.
Needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL), like tests/scheduling."""

from __future__ import annotations

import time
from typing import Any

from campaign.models import Membership, Turn
from campaign.services.schedule import sweep_due
from campaign.tasks import process_campaign_turn, sweep_due_campaigns
from notifications.models import Notice
from notifications.tasks import turn_notices
from tests.scheduling.test_exactly_once import (  # noqa: F401 - the fixture
    Workers,
    pytestmark,
    scheduled_campaign,
    turn_status,
    wait_for,
    workers,
)
from tests.scheduling.test_schedule import NOW


def test_a_turn_played_through_duplicates_and_two_beats_is_told_once(
    workers: Workers,  # noqa: F811 - the fixture imported above
    django_user_model: Any,
) -> None:
    campaign = scheduled_campaign()
    for name, side in (("aussie", "australian"), ("japanese", "japanese")):
        user = django_user_model.objects.create_user(name, f"{name}@example.com", "a long one")
        Membership.objects.create(user=user, campaign=campaign, side=side)
    assert sweep_due(now=NOW, enqueue=False).claimed == [(campaign.pk, 1)]
    workers.send(process_campaign_turn, campaign.pk, 1)
    workers.send(process_campaign_turn, campaign.pk, 1)  # delivered twice
    workers.send(sweep_due_campaigns)  # a beat
    workers.send(sweep_due_campaigns)  # and a second one
    workers.start()
    workers.start()

    wait_for("turn 1 done", lambda: turn_status(campaign) == "done", workers)
    turn = Turn.objects.get(campaign=campaign, number=1)
    wait_for("the notices", lambda: Notice.objects.filter(status="sent").count() == 2, workers)
    workers.send(turn_notices, turn.pk)  # the notice task itself, delivered again
    workers.send(turn_notices, turn.pk)
    wait_for("the queue to drain", workers.drained, workers)
    time.sleep(1)

    logs = workers.logs()
    for name in ("aussie", "japanese"):
        assert logs.count(f"To: {name}@example.com") == 1, logs
    assert list(Notice.objects.values_list("user__username", "turn", "status").order_by("id")) in (
        [("aussie", 1, "sent"), ("japanese", 1, "sent")],
        [("japanese", 1, "sent"), ("aussie", 1, "sent")],
    )
