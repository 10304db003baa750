"""Notices: a turn played, the end, battles waiting, deadlines, GM adjustments; each sent
once, in the words the reader's side may read."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import timedelta
from typing import Any
from unittest.mock import patch

import pytest
from django.core import mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from battles.web.lists import battle_reasons, battle_shares, readable_battles
from campaign.models import Area, Campaign, Company, Membership, SideReady, Turn
from campaign.services.adjustments import ReasonMissing, adjust_stands
from campaign.services.campaigns import set_paused
from campaign.services.deadlines import Schedule
from campaign.services.rollback import rollback_to_turn
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import change_schedule, set_schedule, sweep_due
from campaign.services.turns import advance_turn, give_order
from campaign.services.visibility import open_campaign
from campaign.tasks import process_campaign_turn
from campaign.web import turnlog
from notifications import services
from notifications.feeds import feed_token
from notifications.models import Notice, Preference, Webhook
from notifications.tasks import turn_notices
from tests.campaign.conftest import korona_doc
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db


def play(campaign: Campaign, capture: Any) -> Turn:
    with capture(execute=True):
        advance_turn(campaign_id=campaign.pk)
    return Turn.objects.filter(campaign=campaign).order_by("-number").first()


def to(address: str) -> list[Any]:
    return [message for message in mail.outbox if message.to == [address]]


def summary_of(user: Any, campaign: Campaign, turn: Turn) -> list[str]:
    view = open_campaign(user=user, campaign=campaign)
    names = {key: side.name for key, side in view.state.sides.items()}
    readable = readable_battles(view, turn=turn)
    return turnlog.turn_summary(
        view.records(turn.log, number=turn.number),
        names,
        battle_reasons(readable),
        shares=battle_shares(readable),
    )


# --- a turn played ------------------------------------------------------------------------


def test_each_player_is_emailed_their_sides_summary_of_a_turn(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    turn = play(campaign, django_capture_on_commit_callbacks)

    assert sorted(m.to[0] for m in mail.outbox) == ["a@example.com", "j@example.com"]
    for user in (aussie, japanese):
        (message,) = to(user.email)
        assert message.subject == "[Korona] Turn 1 played"
        lines = [line[2:] for line in message.body.splitlines() if line.startswith("- ")]
        assert lines == summary_of(user, campaign, turn)
        assert f"http://korona.test/campaigns/{campaign.pk}/turns/1/" in message.body
    assert Notice.objects.filter(kind="turn_played", status="sent").count() == 2


def test_a_turn_email_names_no_enemy_company_the_side_does_not_see(
    played: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    turn = play(played, django_capture_on_commit_callbacks)
    (message,) = to(aussie.email)
    view = open_campaign(user=aussie, campaign=played)
    hidden = set(view.state.companies) - {c.name for c in view.companies}
    assert hidden  # the 1st and 3rd Companies, the Japanese supply: out of sight
    for name in hidden:
        assert name not in message.body, name
    assert turn.number == 3


def test_a_turn_email_and_feed_tell_the_control_the_side_saw_change(
    aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any, client: Any
) -> None:
    """The summary reads the turn's records with the turn's fog boundaries, as the turn
    page does: the A Company taking Oivi (in the Australians' sight before and after the
    turn) is told. Read without the turn's number, no area counted as in sight and the
    control record was left out of the email, the webhook and the feed."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["name"] in ("1st Company", "2nd Company"):
            company["area"] = "Kilu"  # Oivi stands empty, Japanese-held
    # Seed 2: the A Company is in supply on turn 1 and may advance.
    campaign = create_campaign(data=doc, name="Korona", seed=2)
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    Membership.objects.create(user=japanese, campaign=campaign, side="japanese")
    oivi = Area.objects.get(campaign=campaign, name="Oivi")
    a_company = Company.objects.get(campaign=campaign, name="A Company")
    give_order(company=a_company, kind="advance", target=oivi, side="australian")
    turn = play(campaign, django_capture_on_commit_callbacks)
    control = [r for r in turn.log if r.get("phase") == "control" and r["target"] == "Oivi"]
    assert control and control[0]["side"] == "australian"

    (message,) = to(aussie.email)
    lines = [line[2:] for line in message.body.splitlines() if line.startswith("- ")]
    # Worded as an area ("take control of Oivi" read like the whole campaign's end where
    # the campaign shares an area's name).
    taken = "The Australians take the area of Oivi from the Japanese."
    assert taken in lines and control[0]["text"] not in lines
    assert lines == summary_of(aussie, campaign, turn)
    feed = client.get(reverse("feed-turns", args=[aussie.pk, feed_token(aussie)]))
    (entry,) = ET.fromstring(feed.content).findall("{http://www.w3.org/2005/Atom}entry")
    summary = entry.find("{http://www.w3.org/2005/Atom}summary").text
    assert f"<li>{escape(taken)}</li>" in summary


def test_a_turn_that_rolls_back_sends_nothing(
    campaign: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        advance_turn(campaign_id=campaign.pk)
        raise RuntimeError("the database went away")
    assert mail.outbox == []
    assert not Notice.objects.exists()
    assert not Turn.objects.filter(campaign=campaign).exists()


def test_a_turn_played_through_a_redelivered_task_and_a_second_scheduler_is_told_once(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    now = timezone.now()
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, now=now - timedelta(days=2))
    with django_capture_on_commit_callbacks(execute=True):
        first = sweep_due(now=now)  # the scheduler: claims turn 1, its task plays it
        second = sweep_due(now=now)  # a second scheduler at the same moment
    assert first.claimed == [(campaign.pk, 1)] and second.claimed == []
    with django_capture_on_commit_callbacks(execute=True):
        assert process_campaign_turn.apply(args=(campaign.pk, 1)).get() is False  # redelivered
    turn = Turn.objects.get(campaign=campaign, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_notices.apply(args=(turn.pk,)).get() == 0  # the notice task, redelivered
        assert turn_notices.apply(args=(turn.pk,)).get() == 0

    assert sorted(m.to[0] for m in mail.outbox) == ["a@example.com", "j@example.com"]
    assert Notice.objects.filter(kind="turn_played").count() == 2


def test_two_deliveries_racing_past_the_check_still_send_once(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    """The unique key, not the look-up before it, is what keeps a notice single."""
    turn = play(campaign, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    monkeypatch.setattr(services, "_told", lambda key: False)  # both passed the look-up
    assert services.turn_notices(turn_id=turn.pk) == 0
    assert mail.outbox == []


def test_a_turn_played_again_after_a_roll_back_is_told_again_once(
    campaign: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    """What the players were told of the turn is undone by the roll-back: its replay is
    news (a new turn row), told once like any turn."""
    play(campaign, django_capture_on_commit_callbacks)
    first = sorted(m.to[0] for m in mail.outbox if "Turn 1 played" in m.subject)
    assert first  # the players were told the first time
    rollback_to_turn(campaign=campaign, number=1, reason="a wrong order")
    mail.outbox.clear()
    replayed = play(campaign, django_capture_on_commit_callbacks)
    assert sorted(m.to[0] for m in mail.outbox if "Turn 1 played" in m.subject) == first
    mail.outbox.clear()
    assert services.turn_notices(turn_id=replayed.pk) == 0  # a retried task tells no one
    assert mail.outbox == []


def test_a_failed_send_is_kept_and_sent_again_later(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    real = services.send_email

    def refused(notice: Notice) -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(services, "send_email", refused)
    play(campaign, django_capture_on_commit_callbacks)
    assert mail.outbox == []
    failed = Notice.objects.filter(status="failed")
    assert failed.count() == 2
    assert "connection refused" in failed.first().error
    monkeypatch.setattr(services, "send_email", real)
    assert services.retry_failed() == 2
    assert services.retry_failed() == 0
    assert len(mail.outbox) == 2
    assert set(Notice.objects.values_list("status", "attempts")) == {("sent", 2)}


# --- preferences and unsubscribing ----------------------------------------------------------


def test_a_player_who_turned_turn_emails_off_gets_none(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    Preference.objects.create(user=aussie, turn_played=False)
    play(campaign, django_capture_on_commit_callbacks)
    assert to(aussie.email) == []
    assert len(to("j@example.com")) == 1


def test_every_email_has_a_one_click_unsubscribe_that_needs_no_sign_in(
    campaign: Campaign, aussie: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    play(campaign, django_capture_on_commit_callbacks)
    (message,) = to(aussie.email)
    link = re.search(r"Stop these emails \(when a turn was played\): (\S+)", message.body)[1]
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    answer = client.get(link.removeprefix("http://korona.test"))
    assert answer.status_code == 200
    assert "no more email when a turn was played" in answer.content.decode()
    assert services.preference_of(aussie).turn_played is False
    assert services.preference_of(aussie).email is True
    mail.outbox.clear()
    play(campaign, django_capture_on_commit_callbacks)
    assert to(aussie.email) == [] and len(to("j@example.com")) == 1


def test_the_mail_programs_one_click_post_and_the_undo(aussie: Any, client: Any) -> None:
    token = services.unsubscribe_token(aussie, "all")
    answer = client.post(f"/notices/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    assert services.preference_of(aussie).email is False
    client.post(f"/notices/unsubscribe/{token}/", {"undo": "1"})
    assert services.preference_of(aussie).email is True


def test_an_unsubscribe_token_not_made_here_changes_nothing(
    aussie: Any, japanese: Any, client: Any
) -> None:
    token = services.unsubscribe_token(aussie, "turn_played")
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for bad in (forged, "nonsense", token.replace(":", "")):
        assert client.get(f"/notices/unsubscribe/{bad}/").status_code == 404
    assert not Preference.objects.exists()
    # A token is one user's: another's differs, and names its own user only.
    assert services.unsubscribe_token(japanese, "turn_played") != token
    assert services.read_unsubscribe_token(token) == (aussie.pk, "turn_played")


def test_the_preferences_page_saves_and_refuses_bad_input(aussie: Any, login: Any) -> None:
    client = login(aussie)
    assert client.get("/accounts/notices/").status_code == 200
    bad = client.post(
        "/accounts/notices/", {"email": "on", "reminder_hours": "0", "time_zone": "Mars/Olympus"}
    )
    assert bad.status_code == 400
    assert bad.context["form"].errors["reminder_hours"] == ["Between 1 and 168 hours (a week)."]
    assert "is not a time zone" in bad.content.decode()
    assert not Preference.objects.exists()
    good = client.post(
        "/accounts/notices/",
        {"email": "on", "deadline": "on", "reminder_hours": "6", "time_zone": "Australia/Sydney"},
    )
    assert good.status_code == 302
    saved = Preference.objects.get(user=aussie)
    assert (saved.turn_played, saved.deadline, saved.reminder_hours) == (False, True, 6)
    assert saved.time_zone == "Australia/Sydney"


def test_the_time_zone_is_taken_in_any_letter_case(aussie: Any, login: Any) -> None:
    client = login(aussie)
    sent = {"email": "on", "reminder_hours": "6", "time_zone": "australia/SYDNEY"}
    assert client.post("/accounts/notices/", sent).status_code == 302
    assert Preference.objects.get(user=aussie).time_zone == "Australia/Sydney"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("Sydney", "Australia/Sydney"), ("tokyo", "Asia/Tokyo"), ("new york", "America/New_York")],
)
def test_a_city_alone_is_refused_with_the_time_zone_it_is_in(
    aussie: Any, login: Any, typed: str, meant: str
) -> None:
    """A player typed "Sydney" and read only "use a name such as Europe/Berlin or
    Australia/Sydney", where the GM's Schedule and Create forms name the zone meant."""
    client = login(aussie)
    client.post("/accounts/notices/", {"reminder_hours": "6", "time_zone": "UTC"})
    bad = client.post("/accounts/notices/", {"reminder_hours": "12", "time_zone": typed})
    assert bad.status_code == 400
    assert bad.context["form"].errors["time_zone"] == [
        f"{typed!r} is not a time zone: write it as Region/City. Did you mean {meant}?"
    ]
    saved = Preference.objects.get(user=aussie)
    assert (saved.time_zone, saved.reminder_hours) == ("UTC", 6)
    assert (
        client.post("/accounts/notices/", {"reminder_hours": "12", "time_zone": meant}).status_code
        == 302
    )


@pytest.mark.parametrize("zone", ["America", "Europe", "Etc"])
def test_a_folder_of_the_time_zone_database_is_not_a_time_zone(
    aussie: Any, login: Any, zone: str
) -> None:
    # ZoneInfo("America") raises IsADirectoryError, which was a 500.
    client = login(aussie)
    client.post("/accounts/notices/", {"reminder_hours": "6", "time_zone": "UTC"})
    bad = client.post("/accounts/notices/", {"reminder_hours": "12", "time_zone": zone})
    assert bad.status_code == 400
    assert bad.context["form"].errors["time_zone"] == [
        f"{zone!r} is not a time zone: use a name such as Europe/Berlin or Australia/Sydney."
    ]
    saved = Preference.objects.get(user=aussie)
    assert (saved.time_zone, saved.reminder_hours) == ("UTC", 6)


# --- the clock of an email's times ---------------------------------------------------------


def sydney_weekly(campaign: Campaign) -> None:
    """Friday 19:00 on the Sydney clock, as the walk's "Owen Stanley 1942"."""
    set_schedule(
        campaign=campaign,
        kind="weekly",
        weekday=4,
        time_of_day=__import__("datetime").time(19, 0),
        timezone="Australia/Sydney",
        now=timezone.now(),
    )


def deadline_on(campaign: Campaign, zone: str) -> str:
    campaign.refresh_from_db()
    return due_words(campaign.next_deadline, zone)


def test_a_turn_email_gives_the_deadline_on_the_campaigns_clock_unless_the_player_chose_one(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The walk's alice: her campaign's pages said "Fri 11 Dec 2026, 19:00 AEDT", her
    email "08:00 UTC", as her notice settings' zone defaulted to UTC. With no zone of
    their own a player reads the campaign's clock; one who chose Berlin reads Berlin's."""
    sydney_weekly(campaign)
    Preference.objects.create(user=japanese, time_zone="Europe/Berlin")
    play(campaign, django_capture_on_commit_callbacks)
    sydney, berlin = (
        deadline_on(campaign, "Australia/Sydney"),
        deadline_on(campaign, "Europe/Berlin"),
    )
    assert sydney.endswith(" 19:00 AEDT") and berlin.endswith(" CET")
    (to_alice,) = to(aussie.email)
    (to_japanese,) = to(japanese.email)
    assert f"Orders for turn 2 are due by {sydney}." in to_alice.body
    assert f"Orders for turn 2 are due by {berlin}." in to_japanese.body
    assert "UTC" not in to_alice.body and "UTC" not in to_japanese.body


def test_a_player_who_saved_settings_without_a_zone_reads_the_campaigns_clock(
    campaign: Campaign, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A row saved with everything default (an unsubscribe writes one) keeps no zone."""
    services.unsubscribe(user_id=aussie.pk, kind="message")
    assert Preference.objects.get(user=aussie).time_zone == ""
    sydney_weekly(campaign)
    play(campaign, django_capture_on_commit_callbacks)
    (message,) = to(aussie.email)
    assert f"due by {deadline_on(campaign, 'Australia/Sydney')}." in message.body


def test_webhooks_give_the_deadline_on_the_campaigns_clock(
    campaign: Campaign, hook_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Both the group's channel and a side's: read by every player alike, so on the
    clock the campaign's pages give, not UTC."""
    sydney_weekly(campaign)
    Webhook.objects.create(campaign=campaign, url=hook_server.url)
    Webhook.objects.create(campaign=campaign, url=hook_server.url, side="australian")
    play(campaign, django_capture_on_commit_callbacks)
    sydney = deadline_on(campaign, "Australia/Sydney")
    assert len(hook_server.posts) == 2
    for posted in hook_server.posts:
        assert f"due by {sydney}." in posted["content"], posted["content"]
        assert "UTC" not in posted["content"]


def test_the_notice_settings_keep_an_empty_zone_as_the_campaigns_clock(
    aussie: Any, login: Any
) -> None:
    client = login(aussie)
    page = client.get("/accounts/notices/")
    assert page.context["form"]["time_zone"].value() == ""
    assert "Empty: each campaign&#x27;s own clock" in page.content.decode()
    Preference.objects.create(user=aussie, time_zone="Europe/Berlin")
    client.post("/accounts/notices/", {"email": "on", "reminder_hours": "6", "time_zone": " "})
    assert Preference.objects.get(user=aussie).time_zone == ""


# --- deadlines ----------------------------------------------------------------------------


def test_a_reminder_goes_to_sides_not_ready_once_in_their_own_time_zone(
    campaign: Campaign, aussie: Any, japanese: Any
) -> None:
    now = timezone.now().replace(microsecond=0)
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, now=now)
    SideReady.objects.create(campaign=campaign, side="japanese", turn_number=1)
    Preference.objects.create(user=aussie, time_zone="Australia/Sydney")
    assert services.deadline_reminders(now=now + timedelta(hours=12)) == 1
    assert services.deadline_reminders(now=now + timedelta(hours=13)) == 0
    (message,) = mail.outbox
    assert message.to == ["a@example.com"]
    deadline = (now + timedelta(hours=24)).astimezone(
        __import__("zoneinfo").ZoneInfo("Australia/Sydney")
    )
    assert f"{deadline:%H:%M} AE" in message.body  # AEST or AEDT


def test_a_reminder_gives_the_deadline_on_the_campaigns_clock_by_default(
    campaign: Campaign, aussie: Any
) -> None:
    now = timezone.now().replace(microsecond=0)
    set_schedule(
        campaign=campaign, kind="every_hours", every_hours=24, timezone="Australia/Sydney", now=now
    )
    SideReady.objects.create(campaign=campaign, side="japanese", turn_number=1)
    assert services.deadline_reminders(now=now + timedelta(hours=12)) == 1
    (message,) = mail.outbox
    sydney = deadline_on(campaign, "Australia/Sydney")
    assert f"due {sydney}" in message.subject and f"due by {sydney}." in message.body
    assert "UTC" not in message.body


def test_no_reminder_before_the_hours_the_player_chose(campaign: Campaign, aussie: Any) -> None:
    now = timezone.now()
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, now=now)
    Preference.objects.create(user=aussie, reminder_hours=2)
    # the Japanese player, 12 hours before
    assert services.deadline_reminders(now=now + timedelta(hours=12)) == 1
    assert to(aussie.email) == []
    assert services.deadline_reminders(now=now + timedelta(hours=22, minutes=1)) == 1
    assert len(to(aussie.email)) == 1


def test_a_campaign_resumed_after_a_pause_reminds_again_of_its_new_deadline(
    campaign: Campaign, aussie: Any, japanese: Any
) -> None:
    """The walk of a group's server: both players were reminded of turn 3's deadline, the
    GM paused the campaign and resumed it later, which set a new deadline; the sweep
    then kept quiet, as if the stale reminder were still true, and neither player was
    told of the deadline that would play the turn."""
    start = timezone.now().replace(microsecond=0)
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, now=start)
    assert services.deadline_reminders(now=start + timedelta(hours=12)) == 2
    set_paused(campaign=campaign, paused=True, reason="holidays")
    three_days_on = start + timedelta(days=3)
    with patch("django.utils.timezone.now", return_value=three_days_on):
        set_paused(campaign=campaign, paused=False)
    new_deadline = deadline_on(campaign, "UTC")
    assert services.deadline_reminders(now=three_days_on + timedelta(hours=12)) == 2
    assert services.deadline_reminders(now=three_days_on + timedelta(hours=13)) == 0
    for address in (aussie.email, japanese.email):
        first, again = to(address)
        assert f"due by {new_deadline}." in again.body
        assert f"due by {new_deadline}." not in first.body


def test_a_turn_every_6_hours_sends_no_reminder_right_behind_the_turns_email(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The turn's email names the next deadline, 6 hours on; a reminder 12 hours before it
    (the default) came at the next sweep, a second email for the same turn telling nothing
    new. It comes halfway through the turn, to a side not ready by then."""
    set_schedule(campaign=campaign, kind="every_hours", every_hours=6)
    turn = play(campaign, django_capture_on_commit_callbacks)
    campaign.refresh_from_db()
    assert campaign.next_deadline == turn.finished_at + timedelta(hours=6)
    assert len(to(aussie.email)) == 1  # "Turn 1 played", naming the deadline
    assert services.deadline_reminders(now=turn.finished_at + timedelta(minutes=1)) == 0
    assert services.deadline_reminders(now=turn.finished_at + timedelta(hours=2, minutes=59)) == 0
    SideReady.objects.create(campaign=campaign, side="japanese", turn_number=2)
    assert services.deadline_reminders(now=turn.finished_at + timedelta(hours=3)) == 1
    first, reminder = to(aussie.email)
    assert "Turn 1 played" in first.subject and "due" in reminder.subject
    assert to(japanese.email)[1:] == []  # ready: no reminder


def test_the_notices_page_says_when_a_short_turns_reminder_comes(aussie: Any, login: Any) -> None:
    page = login(aussie).get("/accounts/notices/").content.decode()
    assert "On a turn shorter than twice that, halfway through the turn instead" in page
    assert "The calendar&#x27;s alarm comes then too." in page


def test_a_deadline_the_gms_new_schedule_names_is_not_reminded_of_at_once(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The GM changes the schedule to a weekly time three hours away: each player's email
    of the change names the deadline; the reminder comes halfway to it, not with it."""
    now = timezone.now().replace(second=0, microsecond=0)
    soon = now + timedelta(hours=3)
    with django_capture_on_commit_callbacks(execute=True):
        change_schedule(
            campaign=campaign,
            schedule=Schedule("weekly", None, soon.weekday(), soon.time(), "UTC"),
            reason="a game night",
            now=now,
        )
    campaign.refresh_from_db()
    assert campaign.next_deadline == soon
    told = len(mail.outbox)
    assert services.deadline_reminders(now=now + timedelta(minutes=1)) == 0
    assert services.deadline_reminders(now=now + timedelta(hours=1, minutes=35)) == 2
    assert len(mail.outbox) == told + 2


# --- the GM: battles waiting, adjustments --------------------------------------------------


def test_the_gm_is_told_once_when_a_turn_waits_for_tabletop_battles(
    db: Any, gm_user: Any, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from dataclasses import replace

    campaign = create_campaign(data=meeting_doc(), name="Table", seed=3)
    campaign.set_settings(replace(campaign.get_settings(), battle_mode="tabletop"))
    campaign.save(update_fields=["settings"])
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    play(campaign, django_capture_on_commit_callbacks)
    # The player is told of their side's battles in their own words (test_table_notice).
    (message,) = to(gm_user.email)
    assert [m.subject for m in to(aussie.email)] == ["[Table] Your 2 battles wait for the table"]
    assert message.subject == "[Table] Turn 1: battles wait for you"
    assert message.body.count("enter the result: http://korona.test/admin/battles/battle/") == 2


def test_the_battles_waiting_email_names_the_companies_and_sides_not_their_keys(
    db: Any, gm_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Each battle as the GM's battle page says it: the companies, each side by its
    name in the campaign, never the sides' keys ("japanese attack australian")."""
    from dataclasses import replace

    campaign = create_campaign(data=meeting_doc(), name="Table", seed=3)
    campaign.set_settings(replace(campaign.get_settings(), battle_mode="tabletop"))
    campaign.save(update_fields=["settings"])
    play(campaign, django_capture_on_commit_callbacks)
    (message,) = mail.outbox
    lines = [line for line in message.body.splitlines() if line.startswith("- ")]
    assert lines == [
        "- At Korona: the Japanese 1st Company attacks the Australians' A Company",
        "- At Korona: the Japanese 2nd Company attacks the Australians' B Company",
    ]
    words = message.body.split("\n--\n")[0]  # not the footer's links
    assert "japanese" not in words and "australian" not in words


def tabletop_table(*, zone: str) -> Campaign:
    """Two tabletop battles on turn 1, a schedule on ``zone``'s clock."""
    from dataclasses import replace

    campaign = create_campaign(data=meeting_doc(), name="Table", seed=3)
    campaign.set_settings(replace(campaign.get_settings(), battle_mode="tabletop"))
    campaign.save(update_fields=["settings"])
    set_schedule(
        campaign=campaign, kind="every_hours", every_hours=10, timezone=zone, now=timezone.now()
    )
    return campaign


def due_words(moment: Any, zone: str) -> str:
    from zoneinfo import ZoneInfo

    local = moment.astimezone(ZoneInfo(zone))
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} {local.tzname()}"


def test_the_battles_waiting_email_gives_each_due_time_on_the_campaigns_clock_as_the_admin(
    db: Any, gm_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The admin gives a battle's deadline on the campaign's clock ("Wed 9 Dec 2026, 07:38
    AEDT"): so does the email, the GM's own zone beside it when they chose one (UTC
    here), not instead of it; a GM who chose none reads the campaign's clock alone."""
    from battles.models import Battle

    campaign = tabletop_table(zone="Australia/Sydney")
    play(campaign, django_capture_on_commit_callbacks)
    (message,) = to(gm_user.email)
    (deadline,) = {b.deadline for b in Battle.objects.filter(campaign=campaign)}
    sydney, utc = due_words(deadline, "Australia/Sydney"), due_words(deadline, "UTC")
    assert sydney.endswith(("AEST", "AEDT"))
    assert message.body.count(f"wanted by {sydney}\n") == 2, message.body
    assert "your time" not in message.body and "UTC" not in message.body

    Preference.objects.create(user=gm_user, time_zone="UTC")
    mail.outbox.clear()
    rollback_to_turn(campaign=campaign, number=1, reason="the table wants another go")
    play(campaign, django_capture_on_commit_callbacks)
    (message,) = to(gm_user.email)
    (deadline,) = {b.deadline for b in Battle.objects.filter(campaign=campaign, turn__number=1)}
    sydney, utc = due_words(deadline, "Australia/Sydney"), due_words(deadline, "UTC")
    assert message.body.count(f"wanted by {sydney} (your time: {utc})") == 2, message.body


def test_the_battles_waiting_email_puts_the_gms_chosen_zone_beside_the_campaigns(
    db: Any, gm_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A GM in Sydney running a campaign on UTC: the admin's UTC first, their own after."""
    from battles.models import Battle

    Preference.objects.create(user=gm_user, time_zone="Australia/Sydney")
    campaign = tabletop_table(zone="UTC")
    play(campaign, django_capture_on_commit_callbacks)
    (message,) = to(gm_user.email)
    (deadline,) = {b.deadline for b in Battle.objects.filter(campaign=campaign)}
    sydney, utc = due_words(deadline, "Australia/Sydney"), due_words(deadline, "UTC")
    assert message.body.count(f"wanted by {utc} (your time: {sydney})") == 2, message.body


@pytest.mark.parametrize("gm_zone", ["Australia/Sydney", "Australia/Melbourne"])
def test_the_battles_waiting_email_gives_one_clock_when_the_gms_reads_the_same(
    db: Any, gm_user: Any, django_capture_on_commit_callbacks: Any, gm_zone: str
) -> None:
    """The GM's zone is the campaign's, or another giving the same time and name
    (Melbourne keeps Sydney's clock): the time once, nothing in brackets."""
    from battles.models import Battle

    Preference.objects.create(user=gm_user, time_zone=gm_zone)
    campaign = tabletop_table(zone="Australia/Sydney")
    play(campaign, django_capture_on_commit_callbacks)
    (message,) = to(gm_user.email)
    (deadline,) = {b.deadline for b in Battle.objects.filter(campaign=campaign)}
    assert message.body.count(f"wanted by {due_words(deadline, 'Australia/Sydney')}\n") == 2
    assert "your time" not in message.body and "UTC" not in message.body


def test_the_battles_waiting_words_of_a_known_deadline(
    db: Any, gm_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The reported case: due at 20:38 UTC on Tuesday 8 December 2026, which is 07:38 on
    Wednesday in Sydney (summer time)."""
    from datetime import UTC, datetime

    from battles.models import Battle

    campaign = tabletop_table(zone="Australia/Sydney")
    turn = play(campaign, django_capture_on_commit_callbacks)
    battles = list(Battle.objects.filter(campaign=campaign).order_by("id"))
    for battle in battles:
        battle.deadline = datetime(2026, 12, 8, 20, 38, tzinfo=UTC)
    words = services.battles_waiting_words(campaign, turn, battles, zone="UTC")
    assert "wanted by Wed 9 Dec 2026, 07:38 AEDT (your time: Tue 8 Dec 2026, 20:38 UTC)" in (
        words.body
    )
    # What the campaign's setting does with a result not entered by then, as the battles'
    # pages and the GM's campaign page say it ("due by" read as if the result were due).
    assert words.body.endswith(
        "\n\nIf none is entered by then, the campaign waits for your result, however long."
    )


def test_the_battles_waiting_words_of_a_paused_campaign_say_it_is_fought_once_resumed(
    db: Any, gm_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The scheduler's sweep fights no battle of a paused campaign: the GM's email said
    "the computer fights it by the rules" at a deadline that would pass with none fought."""
    from dataclasses import replace

    from battles.models import Battle

    campaign = tabletop_table(zone="Australia/Sydney")
    campaign.set_settings(replace(campaign.get_settings(), unentered_tabletop="auto"))
    campaign.save(update_fields=["settings"])
    turn = play(campaign, django_capture_on_commit_callbacks)
    campaign.status = Campaign.Status.PAUSED
    battles = list(Battle.objects.filter(campaign=campaign).order_by("id"))
    words = services.battles_waiting_words(campaign, turn, battles)
    assert words.body.endswith(
        "\n\nIf none is entered by then, the computer fights it by the rules once you resume "
        "the campaign."
    )


def test_a_gm_adjustment_is_told_with_enemy_numbers_withheld(
    played: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    second = Company.objects.get(campaign=played, name="2nd Company")
    stands = second.stand_counts.first()
    with django_capture_on_commit_callbacks(execute=True):
        adjust_stands(company=second, unit_type=stands.unit_type, held=0, reason="lost at sea")
    (theirs,) = to(japanese.email)
    (ours,) = to(aussie.email)
    assert "2nd Company" in theirs.body and "lost at sea" in theirs.body
    assert "stands adjusted" in ours.body and "lost at sea" in ours.body
    assert stands.unit_type not in ours.body and " 0" not in ours.body


def test_a_schedule_change_is_told_to_every_player(
    campaign: Campaign, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        change_schedule(
            campaign=campaign,
            schedule=Schedule(kind="every_hours", every_hours=48),
            reason="slower, for the holidays",
        )
    for user in (aussie, japanese):
        (message,) = to(user.email)
        assert message.subject == "[Korona] New schedule: a turn every 48 hours"
        assert "Next deadline: " in message.body and "slower, for the holidays" in message.body


def test_a_schedule_saved_unchanged_without_a_reason_tells_nobody(
    campaign: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    set_schedule(campaign=campaign, kind="every_hours", every_hours=48)
    with django_capture_on_commit_callbacks(execute=True):
        done = change_schedule(
            campaign=campaign, schedule=Schedule(kind="every_hours", every_hours=48), reason=""
        )
    assert done is None
    assert mail.outbox == []
    assert not Notice.objects.exists()


def test_a_schedule_change_without_a_reason_is_refused_and_tells_nobody(
    campaign: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(ReasonMissing, match="needs a reason"),
    ):
        change_schedule(
            campaign=campaign, schedule=Schedule(kind="every_hours", every_hours=48), reason=" "
        )
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"
    assert mail.outbox == []
    assert not Notice.objects.exists()


# --- webhooks -----------------------------------------------------------------------------


def test_the_groups_webhook_gets_only_public_news_and_a_sides_hook_its_summary(
    played: Campaign, aussie: Any, hook_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    Webhook.objects.create(campaign=played, url=hook_server.url)
    Webhook.objects.create(campaign=played, url=hook_server.url, side="australian")
    turn = play(played, django_capture_on_commit_callbacks)
    public, australian = hook_server.posts
    assert public["content"].startswith(f"**[Korona played] Turn {turn.number} played**")
    assert public["allowed_mentions"] == {"parse": []}
    for line in summary_of(aussie, played, turn):
        assert line in australian["content"]
        assert line not in public["content"]
    assert Notice.objects.filter(webhook__isnull=False, status="sent").count() == 2


def test_a_webhook_that_answers_an_error_is_kept_failed(
    campaign: Campaign, hook_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    hook_server.answer = 500
    Webhook.objects.create(campaign=campaign, url=hook_server.url)
    play(campaign, django_capture_on_commit_callbacks)
    notice = Notice.objects.get(webhook__isnull=False)
    assert notice.status == "failed" and "500" in notice.error
    hook_server.answer = 204
    assert services.retry_failed() == 1
    assert len(hook_server.posts) == 2


def test_the_end_of_the_campaign_is_told_with_the_winner(
    db: Any, aussie: Any, japanese: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from dataclasses import replace

    campaign = create_campaign(data=meeting_doc(), name="Short", seed=5)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=1))
    campaign.save(update_fields=["settings"])
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    play(campaign, django_capture_on_commit_callbacks)
    campaign.refresh_from_db()
    assert campaign.status == "finished"
    (end,) = [m for m in to(aussie.email) if "has ended" in m.subject]
    assert "won" in end.subject


def test_the_end_email_says_why_in_the_pages_words_never_the_engines(
    db: Any, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The map, the list and the story say why from the end causes
    (``campaign.web.ending``); the email and the group's channel say it the same way,
    never "(the turn limit (1) is reached)"."""
    from dataclasses import replace

    from campaign.web.ending import outcome

    campaign = create_campaign(data=meeting_doc(), name="Short", seed=5)
    campaign.set_settings(replace(campaign.get_settings(), turn_limit=1))
    campaign.save(update_fields=["settings"])
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    hook = Webhook.objects.create(campaign=campaign, url="http://127.0.0.1:9/")
    play(campaign, django_capture_on_commit_callbacks)
    campaign.refresh_from_db()
    assert campaign.end_causes == [{"kind": "turn_limit", "side": None, "area": None, "turns": 1}]
    names = {"australian": "Australians", "japanese": "Japanese"}
    said = outcome(campaign, campaign.get_settings(), names)
    assert said.endswith("held Korona when its one turn was up.")
    (end,) = [m for m in to(aussie.email) if "has ended" in m.subject]
    assert end.body.splitlines()[0] == f"Short has ended after 1 turn. {said}"
    channel = services.public_turn_words(campaign, Turn.objects.get(campaign=campaign))
    assert channel.body.splitlines()[0] == f"Short has ended after 1 turn. {said}"
    for words in (end.body, channel.body, Notice.objects.get(webhook=hook).body):
        assert campaign.end_reason not in words and "turn limit" not in words
        assert "((" not in words and "))" not in words


# --- the next turn's line, as the campaign stands when a notice is written -------------------


def tabletop_after_one_turn(capture: Any, aussie: Any, hook: Any) -> tuple[Campaign, Turn]:
    """Turn 1 played, its battles fought by the rules (its notices kept back, as a busy
    queue keeps them); then the battles fought on the table, and turn 2 begun by the GM
    and waiting for its results."""
    from dataclasses import replace

    campaign = create_campaign(data=meeting_doc(), name="Table", seed=3)
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    Webhook.objects.create(campaign=campaign, url=hook.url)
    with capture(execute=False):
        advance_turn(campaign_id=campaign.pk)
    first = Turn.objects.get(campaign=campaign, number=1)
    assert first.status == Turn.Status.DONE
    campaign.refresh_from_db()
    campaign.set_settings(replace(campaign.get_settings(), battle_mode="tabletop"))
    campaign.save(update_fields=["settings"])
    with capture(execute=False):
        advance_turn(campaign_id=campaign.pk)
    assert Turn.objects.get(campaign=campaign, number=2).status == Turn.Status.BATTLES_PENDING
    return campaign, first


def test_a_turns_notice_written_while_the_next_waits_for_its_battles_says_so(
    db: Any, gm_user: Any, aussie: Any, hook_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The next turn began waiting for its tabletop results before turn 1's notices went
    out: the turn has no deadline then (its end counts the next), and the notices said
    the "no deadline" words, "Turn 2 is played when you mark your orders ready, or when
    the game master plays it", of a turn already under way whose orders were closed. They
    say what is happening, as the map does."""
    campaign, first = tabletop_after_one_turn(
        django_capture_on_commit_callbacks, aussie, hook_server
    )
    assert Campaign.objects.get(pk=campaign.pk).next_deadline is None

    turn_notices(turn_id=first.pk)

    (email,) = to(aussie.email)
    (posted,) = hook_server.posts
    waits = (
        "Turn 2 waits for its battles to be fought on the table: it ends when the game "
        "master has entered their results."
    )
    for said in (email.body, posted["content"]):
        assert waits in said
        assert "is played when" not in said and "is played once" not in said


def test_a_turns_notice_written_while_the_campaign_is_paused_says_so(
    campaign: Campaign, aussie: Any, hook_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The GM played a turn by hand while the campaign was paused: the notices said "Turn
    2 is played once every side is ready", which a pause holds back."""
    Webhook.objects.create(campaign=campaign, url=hook_server.url)
    set_paused(campaign=campaign, paused=True, reason="holidays")

    play(campaign, django_capture_on_commit_callbacks)

    (email,) = to(aussie.email)
    (posted,) = hook_server.posts
    for said in (email.body, posted["content"]):
        assert "The game master has paused the campaign: no turn is played when " in said
        assert "until they resume it; they may still play one by hand." in said
        assert "is played once every side is ready" not in said
