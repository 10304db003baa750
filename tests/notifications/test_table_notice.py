"""A turn that stops to wait for its battles at the table tells the players who fight
them, once: until the walk of 7 December 2026 only the GM was told ("battles wait for
you"), and a player whose company had to fight at the table heard nothing until the turn
was played."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from battles.models import Battle
from campaign.models import SPECTATOR, Campaign, Membership, Turn
from campaign.services.deadlines import moment_words
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import set_schedule
from campaign.services.turns import advance_turn
from notifications import services
from notifications.models import Kind, Notice, Preference
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db


def at_the_table(name: str = "Table", mode: str = "tabletop") -> Campaign:
    """Korona's meeting: turn 1 brings two battles at Korona, fought at the table."""
    campaign = create_campaign(data=meeting_doc(), name=name, seed=3)
    campaign.set_settings(replace(campaign.get_settings(), battle_mode=mode))
    campaign.save(update_fields=["settings"])
    return campaign


def to(address: str) -> list[Any]:
    return [message for message in mail.outbox if message.to == [address]]


def test_the_players_who_fight_at_the_table_are_told_once_and_nobody_else(
    gm_user: Any,
    aussie: Any,
    japanese: Any,
    outsider: Any,
    django_user_model: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = at_the_table()
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "pw")
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    Membership.objects.create(user=japanese, campaign=campaign, side="japanese")
    Membership.objects.create(user=watcher, campaign=campaign, side=SPECTATOR)
    with django_capture_on_commit_callbacks(execute=True):
        advance_turn(campaign_id=campaign.pk)
    turn = Turn.objects.get(campaign=campaign, number=1)
    assert turn.status == Turn.Status.BATTLES_PENDING
    (ours,) = to(aussie.email)
    (theirs,) = to(japanese.email)
    assert to(watcher.email) == [] and to(outsider.email) == []
    assert len(to(gm_user.email)) == 1  # the GM's own, "battles wait for you"
    assert ours.subject == "[Table] Your 2 battles wait for the table"
    body = ours.body.split("\n--\n")[0]  # not the footer's links
    assert body.startswith(
        "Turn 1 of Table waits for its battles at the table: the game master enters each "
        "result. Orders for turn 2 open when the game master has entered the results.\n"
    )
    battles = list(Battle.objects.filter(campaign=campaign).order_by("id"))
    assert (
        "- Korona (battle 1): The Japanese 1st Company attacked the Australians' A Company.\n"
        "  Still to be fought on the table: the game master enters its result.\n"
        "  The battle sheet: "
        f"http://korona.test/campaigns/{campaign.pk}/battles/{battles[0].pk}/sheet/\n"
    ) in body
    assert "- Korona (battle 2): The Japanese 2nd Company attacked the Australians' B Company." in (
        body
    )
    assert f"The turn so far: http://korona.test/campaigns/{campaign.pk}/turns/1/" in body
    assert "japanese" not in body and "australian" not in body  # names, never keys
    assert "Stop these emails (when a battle waits for its tabletop result)" in ours.body
    # The Japanese are told of the same battles, as they read them.
    assert "- Korona (battle 1): The Japanese 1st Company attacked" in theirs.body

    # Told once: the task again (a second delivery, a second scheduler) sends nothing.
    assert services.turn_notices(turn_id=turn.pk) == 0
    assert len(mail.outbox) == 3
    assert Notice.objects.filter(kind=Kind.BATTLE_WAITING, user=aussie).count() == 1


def test_one_battle_is_named_in_the_subject_with_its_deadline(
    aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = at_the_table()
    set_schedule(
        campaign=campaign,
        kind="every_hours",
        every_hours=10,
        timezone="Australia/Sydney",
        now=timezone.now(),
    )
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    with django_capture_on_commit_callbacks(execute=True):
        advance_turn(campaign_id=campaign.pk)
    turn = Turn.objects.get(campaign=campaign, number=1)
    first, second = Battle.objects.filter(campaign=campaign).order_by("id")
    assert first.deadline is not None
    # One battle still waits when the notice is written (a queue behind).
    Notice.objects.filter(user=aussie).delete()
    mail.outbox.clear()
    Battle.objects.filter(pk=second.pk).update(mode="auto")
    assert services.turn_notices(turn_id=turn.pk) == 1
    (message,) = to(aussie.email)
    assert message.subject == "[Table] Your battle at Korona (battle 1) waits for the table"
    due = moment_words(first.deadline, "Australia/Sydney")
    assert (
        "  Still to be fought on the table: the game master enters its result, wanted by "
        f"{due}: if none is entered by then, the campaign waits for the game master's "
        "result, however long.\n"
    ) in message.body
    assert "Korona (battle 2)" not in message.body


def test_a_player_who_turned_the_notice_off_is_not_told(
    aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = at_the_table()
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    Membership.objects.create(user=japanese, campaign=campaign, side="japanese")
    Preference.objects.create(user=aussie, battle_waiting=False)
    with django_capture_on_commit_callbacks(execute=True):
        advance_turn(campaign_id=campaign.pk)
    assert to(aussie.email) == []
    assert len(to(japanese.email)) == 1


def test_battles_fought_by_the_rules_tell_the_players_nothing_until_the_turn_is_played(
    aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = at_the_table(mode="auto")
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    with django_capture_on_commit_callbacks(execute=True):
        advance_turn(campaign_id=campaign.pk, defer_battles=True)
    # The workers fight them at once (tasks run in-process): the turn's own email only.
    assert [m.subject for m in to(aussie.email)] == ["[Table] Turn 1 played"]
    assert not Notice.objects.filter(kind=Kind.BATTLE_WAITING).exists()
