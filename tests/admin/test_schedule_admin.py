"""The GM sets a campaign's schedule on its admin page."""

from __future__ import annotations

from datetime import time
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, GmAdjustment, Membership
from campaign.services.rollback import rollback_preview, rollback_to_turn
from campaign.services.turns import advance_turn
from campaign.web.maps import local_deadline
from tests.admin.conftest import new_campaign, opened, waiting_campaign

pytestmark = pytest.mark.django_db


def schedule_url(campaign: Campaign) -> str:
    return reverse("admin:campaign_campaign_schedule", args=[campaign.pk])


def submitted(gm: Client, campaign: Campaign, form: dict[str, str], **kwargs: Any) -> Any:
    """The schedule page opened, then sent with ``form`` and a reason."""
    url = schedule_url(campaign)
    return gm.post(url, {**opened(gm, url), "reason": "a turn a day suits us", **form}, **kwargs)


def test_the_gm_sets_a_weekly_schedule(gm: Client) -> None:
    campaign = new_campaign()
    response = submitted(
        gm,
        campaign,
        {"kind": "weekly", "weekday": "4", "time_of_day": "18:00", "timezone": "Europe/Berlin"},
        follow=True,
    )
    assert response.status_code == 200
    row = Campaign.objects.get(pk=campaign.pk)
    assert (row.schedule_kind, row.weekday, row.time_of_day, row.timezone) == (
        "weekly",
        4,
        time(18),
        "Europe/Berlin",
    )
    assert row.next_deadline is not None
    page = gm.get(reverse("admin:campaign_campaign_change", args=[campaign.pk])).content.decode()
    assert "a turn every Friday at 18:00 (Europe/Berlin)" in page


@pytest.mark.parametrize(
    ("hours", "words"), [(1, "a turn every hour"), (48, "a turn every 48 hours")]
)
def test_an_hourly_schedule_is_said_in_words(gm: Client, hours: int, words: str) -> None:
    campaign = new_campaign()
    form = {"kind": "every_hours", "every_hours": str(hours), "timezone": "UTC"}
    assert submitted(gm, campaign, form).status_code == 302
    page = gm.get(reverse("admin:campaign_campaign_change", args=[campaign.pk])).content.decode()
    assert f"{words}<" in page and "every 1 hours" not in page


def test_an_unknown_time_zone_is_refused_and_nothing_changes(gm: Client) -> None:
    campaign = new_campaign()
    response = submitted(
        gm, campaign, {"kind": "every_hours", "every_hours": "12", "timezone": "Mars/X"}
    )
    assert response.status_code == 200
    assert "is not a time zone: write it as Region/City" in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("australia/sydney", "Australia/Sydney"),
        (" AMERICA/NEW_YORK ", "America/New_York"),
        ("utc", "UTC"),
    ],  # fmt: skip
)
def test_a_time_zone_is_taken_in_any_letter_case(gm: Client, typed: str, kept: str) -> None:
    """The walk-through typed "australia/sydney" and read "not a time zone"; the
    campaign keeps the name as the time zone database spells it."""
    campaign = new_campaign()
    form = {"kind": "weekly", "weekday": "6", "time_of_day": "19:00", "timezone": typed}
    assert submitted(gm, campaign, form).status_code == 302
    row = Campaign.objects.get(pk=campaign.pk)
    assert (row.schedule_kind, row.timezone) == ("weekly", kept)
    page = gm.get(reverse("admin:campaign_campaign_change", args=[campaign.pk])).content.decode()
    assert f"a turn every Sunday at 19:00 ({kept})" in page


def test_every_hours_needs_the_hours(gm: Client) -> None:
    campaign = new_campaign()
    response = submitted(gm, campaign, {"kind": "every_hours", "timezone": "UTC"})
    assert "Give the number of hours" in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"


def test_a_player_may_not_set_the_schedule(player: Client) -> None:
    campaign = new_campaign()
    response = player.post(schedule_url(campaign), {"kind": "every_hours", "every_hours": "1"})
    assert response.status_code in (302, 403)
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"


def test_a_schedule_change_is_in_the_public_log_in_words_with_the_next_deadline(
    gm: Client,
) -> None:
    campaign = new_campaign()
    form = {"kind": "weekly", "weekday": "4", "time_of_day": "18:00", "timezone": "Europe/Berlin"}
    assert submitted(gm, campaign, form).status_code == 302
    (line,) = GmAdjustment.objects.filter(campaign=campaign)
    deadline = Campaign.objects.get(pk=campaign.pk).next_deadline
    assert deadline is not None
    when = deadline.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Berlin"))
    assert line.what == (
        "Schedule changed: a turn every Friday at 18:00 (Europe/Berlin) (before: none: a turn "
        "is played once every side is ready, or when the game master plays it). Next deadline: "
        f"Fri {when.day} {when:%b %Y}, 18:00 {when.tzname()}."
    )
    assert line.reason == "a turn a day suits us" and line.before_turn == 1
    # The players read it on the turns page, as every GM change.
    page = gm.get(reverse("turns", args=[campaign.pk])).content.decode()
    assert "a turn every Friday at 18:00 (Europe/Berlin)" in page


NOTHING_CHANGED = "Nothing changed: the schedule of Korona 1 is the one already saved."


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.mark.parametrize("reason", ["a turn a day suits us", "", "   "])
def test_a_schedule_saved_unchanged_records_nothing_and_keeps_the_deadline(
    gm: Client, reason: str
) -> None:
    """A walk-through pressed Save on the page as it opened: it was asked for a reason,
    and Recent actions logged "nothing was changed". As on the settings page: no reason
    asked, nothing logged, nobody told."""
    campaign = new_campaign()
    form = {"kind": "every_hours", "every_hours": "24", "timezone": "UTC"}
    submitted(gm, campaign, form)
    deadline = Campaign.objects.get(pk=campaign.pk).next_deadline
    logged = LogEntry.objects.count()
    history = Campaign.history.filter(id=campaign.pk).count()
    response = submitted(gm, campaign, {**form, "reason": reason}, follow=True)
    change = reverse("admin:campaign_campaign_change", args=[campaign.pk])
    assert response.redirect_chain == [(change, 302)]
    assert messages_of(response) == [NOTHING_CHANGED]
    assert GmAdjustment.objects.filter(campaign=campaign).count() == 1
    assert Campaign.objects.get(pk=campaign.pk).next_deadline == deadline
    assert LogEntry.objects.count() == logged  # nothing in Recent actions either
    assert Campaign.history.filter(id=campaign.pk).count() == history


def test_no_schedule_saved_again_in_another_time_zone_needs_no_reason(gm: Client) -> None:
    """Without a schedule the time zone shows nothing (``same_schedule``): no change."""
    campaign = new_campaign()
    form = {"kind": "none", "timezone": "Europe/Berlin", "reason": ""}
    response = submitted(gm, campaign, form, follow=True)
    assert messages_of(response) == [NOTHING_CHANGED]
    assert not GmAdjustment.objects.exists()


def test_a_schedule_change_from_a_stale_page_changes_nothing(gm: Client) -> None:
    campaign = new_campaign()
    url = schedule_url(campaign)
    first, second = opened(gm, url), opened(gm, url)
    assert first["seen"]
    gm.post(
        url,
        {**first, "reason": "r", "kind": "every_hours", "every_hours": "24", "timezone": "UTC"},
        follow=True,
    )
    response = gm.post(
        url,
        {**second, "reason": "r", "kind": "every_hours", "every_hours": "6", "timezone": "UTC"},
        follow=True,
    )
    messages = [str(m) for m in response.context["messages"]]
    assert messages[0].startswith("Nothing was changed: another change by a game master was made")
    assert Campaign.objects.get(pk=campaign.pk).every_hours == 24
    assert GmAdjustment.objects.filter(campaign=campaign).count() == 1
    # The change made meanwhile is named, and the form comes back with the GM's entries,
    # its boxes that change touched marked.
    assert (
        ": Schedule changed: a turn every 24 hours (before: none: a turn is played " in messages[0]
    )
    form = response.context["form"]
    assert form["every_hours"].value() == "6"
    assert form.changed_meanwhile == {
        "kind": "Conflict: changed meanwhile by gm (none: once every side is ready, or when "
        "the game master plays it → every N hours) and by you here. The page keeps your "
        "entry: check which to keep before saving.",
        "every_hours": "Conflict: changed meanwhile by gm (none → 24) and by you here. The "
        "page keeps your entry: check which to keep before saving.",
    }
    assert response.content.decode().count('<p class="meanwhile">') == 2
    # Saved again from it: the GM's entries apply.
    gm.post(url, dict(form.data.items()))
    assert Campaign.objects.get(pk=campaign.pk).every_hours == 6
    assert GmAdjustment.objects.filter(campaign=campaign).count() == 2


def test_two_tabs_changing_the_schedule_keep_what_each_changed(gm: Client) -> None:
    """The second tab changed only the time zone; shown again after the first tab's
    new schedule, its boxes it had not changed take that schedule, so its second Save
    keeps both (it put back "none")."""
    campaign = new_campaign()
    url = schedule_url(campaign)
    first, second = opened(gm, url), opened(gm, url)
    gm.post(
        url, {**first, "reason": "r", "kind": "every_hours", "every_hours": "24", "timezone": "UTC"}
    )
    shown = {"kind": "none", "every_hours": "", "time_of_day": "", "timezone": "UTC"}
    response = gm.post(url, {**second, **shown, "reason": "r", "timezone": "Australia/Sydney"})
    form = response.context["form"]
    assert (form["kind"].value(), form["every_hours"].value()) == ("every_hours", "24")
    assert form["timezone"].value() == "Australia/Sydney"
    assert not form.conflicts
    assert gm.post(url, dict(form.data.items())).status_code == 302
    row = Campaign.objects.get(pk=campaign.pk)
    assert (row.schedule_kind, row.every_hours, row.timezone) == (
        "every_hours",
        24,
        "Australia/Sydney",
    )


@pytest.mark.parametrize("reason", [None, "", "   "])
def test_a_schedule_change_needs_a_reason(gm: Client, reason: str | None) -> None:
    campaign = new_campaign()
    url = schedule_url(campaign)
    form = {"kind": "every_hours", "every_hours": "24", "timezone": "UTC"}
    if reason is not None:
        form["reason"] = reason
    logged = LogEntry.objects.count()
    response = gm.post(url, {**opened(gm, url), **form})
    assert response.status_code == 200
    assert response.context["form"].errors["reason"] == ["Give a reason for this change."]
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"
    assert not GmAdjustment.objects.exists()
    assert LogEntry.objects.count() == logged


def test_a_roll_back_keeps_the_schedule_and_its_line(gm: Client) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    submitted(gm, campaign, {"kind": "every_hours", "every_hours": "24", "timezone": "UTC"})
    rollback_to_turn(campaign=campaign, number=1, reason="a mistake")
    assert Campaign.objects.get(pk=campaign.pk).every_hours == 24
    assert GmAdjustment.objects.filter(what__startswith="Schedule changed").count() == 1


def test_a_schedule_change_made_while_a_turn_waits_comes_before_it_once_rolled_back(
    gm: Client,
) -> None:
    """Made while turn 1 waited for its tabletop battles, the change read "during turn 1";
    rolled back to the start of turn 1, it is kept and comes before the turn played
    again, and the preview says it is kept."""
    campaign, _ = waiting_campaign()
    submitted(gm, campaign, {"kind": "every_hours", "every_hours": "48", "timezone": "UTC"})
    line = GmAdjustment.objects.get(what__startswith="Schedule changed")
    assert line.details["during_turn"] == 1
    preview = rollback_preview(campaign=campaign, number=1)
    assert any(p.startswith(f'Your change "{line.what}"') and "kept" in p for p in preview)
    rollback_to_turn(campaign=campaign, number=1, reason="a wrong result")
    line.refresh_from_db()
    assert line.before_turn == 1 and "during_turn" not in line.details


def test_a_bad_time_is_one_problem_with_one_message(gm: Client) -> None:
    campaign = new_campaign()
    form = {"kind": "weekly", "weekday": "4", "time_of_day": "25:99", "timezone": "UTC"}
    response = submitted(gm, campaign, form)
    assert response.status_code == 200
    # What to write, not Django's "Enter a valid time." (a walk-through).
    said = ["Give the time as HH:MM, e.g. 19:00."]
    assert response.context["form"].errors == {"time_of_day": said}
    create = gm.post("/admin/campaign/campaign/create/", {"name": "New", **form})
    assert create.context["form"].errors["time_of_day"] == said
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"


def test_a_folder_of_the_time_zone_database_is_refused_not_a_server_error(gm: Client) -> None:
    # ZoneInfo("Australia") raises IsADirectoryError, which was a 500.
    campaign = new_campaign()
    form = {"kind": "weekly", "weekday": "4", "time_of_day": "18:00", "timezone": "Australia"}
    response = submitted(gm, campaign, form)
    assert response.status_code == 200
    assert response.context["form"].errors["timezone"] == [
        "'Australia' is not a time zone: write it as Region/City, e.g. Europe/Berlin."
    ]
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"
    assert not GmAdjustment.objects.exists()


@pytest.mark.parametrize(
    ("form", "kind"),
    [
        ({"kind": "none", "every_hours": "-5", "time_of_day": "25:99"}, "none"),
        ({"kind": "weekly", "weekday": "4", "time_of_day": "18:00", "every_hours": "-5"}, "weekly"),
        (
            {"kind": "every_hours", "every_hours": "6", "weekday": "9", "time_of_day": "x"},
            "every_hours",
        ),
    ],
)
def test_boxes_the_chosen_schedule_does_not_use_are_ignored(
    gm: Client, form: dict[str, str], kind: str
) -> None:
    campaign = new_campaign()
    campaign.schedule_kind = "every_hours" if kind == "none" else "none"
    campaign.every_hours = 24 if kind == "none" else None
    campaign.save()
    assert submitted(gm, campaign, {**form, "timezone": "UTC"}).status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == kind


def test_the_deadline_is_written_one_way_on_every_gm_page(gm: Client) -> None:
    """In the campaign's own time zone, as the players' pages write it: the campaign's
    page and the home page alike (not "Dec. 9, 2026, 6 p.m." in UTC unlabelled), and
    the schedule page shows its time as 18:00, not 18:00:00."""
    campaign = new_campaign()
    weekly = {"kind": "weekly", "weekday": "4", "time_of_day": "18:00", "timezone": "Europe/Berlin"}
    submitted(gm, campaign, weekly)
    row = Campaign.objects.get(pk=campaign.pk)
    local = local_deadline(row)
    assert (
        local is not None and local.text.startswith("Fri ") and local.text.endswith("18:00 CET")
    )  # the zone's abbreviation, as every other time of the pages
    page = gm.get(reverse("admin:campaign_campaign_change", args=[campaign.pk])).content.decode()
    home = gm.get("/admin/").content.decode()
    assert local.text in page and local.text in home
    form = gm.get(schedule_url(campaign)).content.decode()
    assert 'value="18:00"' in form and "18:00:00" not in form


def test_a_schedule_refused_with_no_reason_says_both_at_once(gm: Client) -> None:
    """Hours out of range and no reason: both said on the first Save, not the reason
    only once the hours are right (a walk-through)."""
    campaign = new_campaign()
    form = {"kind": "every_hours", "every_hours": "0", "timezone": "UTC", "reason": ""}
    response = submitted(gm, campaign, form)
    errors = response.context["form"].errors
    assert errors["every_hours"] == [
        "Give the hours between two turns as a whole number from 1 to 672."
    ]
    assert errors["reason"] == ["Give a reason for this change."]
    assert "Please correct the 2 problems below." in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).schedule_kind == "none"


def test_a_schedule_set_while_a_turn_waits_gives_no_deadline_until_its_end(gm: Client) -> None:
    """Set while turn 1 waited for its tabletop results, a schedule counted a deadline
    from then, which the line (told to every player) gave for orders nobody could give:
    the turn's end counts it, as after a resume. Its line says so, and the turn's end
    sets the deadline."""
    from battles.services.results import fight_battle_now

    campaign, battles = waiting_campaign()
    submitted(gm, campaign, {"kind": "every_hours", "every_hours": "48", "timezone": "UTC"})
    assert Campaign.objects.get(pk=campaign.pk).next_deadline is None
    line = GmAdjustment.objects.get(what__startswith="Schedule changed")
    assert line.what == (
        "Schedule changed: a turn every 48 hours (before: none: a turn is played once every "
        "side is ready, or when the game master plays it). No deadline while turn 1 waits for "
        "its battles' results: the next counts from its end."
    )
    for battle in battles.values():
        fight_battle_now(battle_id=battle.pk)
    assert Campaign.objects.get(pk=campaign.pk).next_deadline is not None


def test_a_schedule_taken_away_says_every_side_ready_plays_the_turn(
    gm: Client, django_user_model: Any
) -> None:
    """ "No deadline: the next turn is played when the game master plays it" left out
    the players' "ready", which plays it too, as the map says. With no player at all,
    no "ready" plays it: the line says the game master's "Advance turn now" does."""
    campaign = new_campaign()
    submitted(gm, campaign, {"kind": "every_hours", "every_hours": "48", "timezone": "UTC"})
    submitted(gm, campaign, {"kind": "none", "timezone": "UTC"})
    line = GmAdjustment.objects.filter(what__startswith="Schedule changed").latest("pk")
    assert line.what.endswith(
        'No deadline: Turn 1 is played when the game master presses "Advance turn now" (no '
        'player plays a side, so no side\'s "ready" plays it).'
    )
    player = django_user_model.objects.create_user("alice", "alice@example.com", "pw-long-1")
    Membership.objects.create(user=player, campaign=campaign, side="australian")
    submitted(gm, campaign, {"kind": "every_hours", "every_hours": "48", "timezone": "UTC"})
    submitted(gm, campaign, {"kind": "none", "timezone": "UTC"})
    line = GmAdjustment.objects.filter(what__startswith="Schedule changed").latest("pk")
    # Played solo: the campaign AI's side is always ready, so the Australians' "ready"
    # alone plays it, as the map says to a spectator (it read "once every side is ready").
    assert line.what.endswith(
        "No deadline: Turn 1 is played when the Australians mark their orders ready (the "
        "campaign AI plays the other side, always ready), or when the game master plays it."
    )
    bob = django_user_model.objects.create_user("bob", "bob@example.com", "pw-long-1")
    Membership.objects.create(user=bob, campaign=campaign, side="japanese")
    submitted(gm, campaign, {"kind": "every_hours", "every_hours": "48", "timezone": "UTC"})
    submitted(gm, campaign, {"kind": "none", "timezone": "UTC"})
    line = GmAdjustment.objects.filter(what__startswith="Schedule changed").latest("pk")
    assert line.what.endswith(
        "No deadline: Turn 1 is played once every side is ready, or when the game master plays it."
    )


def test_no_schedule_is_said_as_played_once_every_side_is_ready(gm: Client) -> None:
    """The walk-through: the create and Schedule pages, and the players' log of a schedule
    change, said "none: the game master plays each turn", but with no deadline the turn is
    played as soon as every side a player plays is ready (or when the GM presses)."""
    campaign = new_campaign()
    for page in ("/admin/campaign/campaign/create/", schedule_url(campaign)):
        text = gm.get(page).content.decode()
        assert "plays each turn" not in text
        assert "none: once every side is ready, or when the game master plays it" in text
    submitted(gm, campaign, {"kind": "every_hours", "every_hours": "36", "timezone": "UTC"})
    line = GmAdjustment.objects.get(what__startswith="Schedule changed")
    assert "(before: none: a turn is played once every side is ready, or when the game " in (
        line.what
    )
    page = gm.get(reverse("turns", args=[campaign.pk])).content.decode()
    assert "plays each turn" not in page
