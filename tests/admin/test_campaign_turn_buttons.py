"""What the campaign's page and the campaigns list offer and ask about its turns, as a
game master walk-through found them wanting: an ended campaign offered "Advance turn now"
and Schedule, a paused one showed the deadline it had, the last turn's question did not
say the campaign ends, and the list's "Advance turn now" asked of no campaign by name."""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest.mock import patch

import pytest
from django.test import Client
from django.utils import timezone

from battles.models import Battle
from battles.services.results import fight_battle_now
from campaign.admin_home import deadline_words
from campaign.models import Campaign, Company, Membership, Order, Turn
from campaign.services.campaigns import set_paused
from campaign.services.deadlines import moment_words
from campaign.services.schedule import mark_side_ready
from campaign.services.turns import advance_turn, give_order
from tests.admin.conftest import (
    every_48_hours,
    new_campaign,
    opened,
    play_sunday_evenings,
    waiting_campaign,
)
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db

LIST = "/admin/campaign/campaign/"


def page_of(gm: Client, campaign: Campaign) -> str:
    return html.unescape(gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode())


def next_deadline_of(page: str) -> str:
    """The page's "Next deadline" line."""
    field = page.split('class="form-row field-next_deadline_words"')[1]
    return field.split('<div class="readonly">')[1].split("</div>")[0].strip()


def ended_campaign(name: str = "Korona 1") -> Campaign:
    """Played to its end: a campaign of one turn, that turn played."""
    campaign = new_campaign(name, turn_limit=1)
    advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED
    return campaign


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --- an ended campaign --------------------------------------------------------------------


def test_an_ended_campaign_offers_no_advance_nor_schedule_and_says_how_it_ended(
    gm: Client,
) -> None:
    campaign = ended_campaign()
    page = page_of(gm, campaign)
    assert 'value="Advance turn now"' not in page
    assert f"/admin/campaign/campaign/{campaign.pk}/schedule/" not in page
    assert "Replace seed" not in page
    # Nor Settings (they can no longer change: the page lists them), nor "Add another
    # Membership" (nobody can join it).
    assert f"/admin/campaign/campaign/{campaign.pk}/settings/" not in page
    # (Django's inline script offers "Add another" only below the formset's maximum.)
    assert 'name="memberships-MAX_NUM_FORMS" value="0"' in page
    # What may still be done: roll back (which reopens it), export it.
    for kept in ("rollback", "export"):
        assert f"/admin/campaign/campaign/{campaign.pk}/{kept}/" in page
    # The end sentence of the players' pages (campaign.web.ending.outcome), not a deadline
    # "once every player is ready".
    assert "none: the campaign has ended. " in page
    assert "won: they held Korona when its one turn was up." in page
    assert "once every player is ready" not in page


def test_an_ended_campaigns_settings_sent_anyway_change_nothing_and_say_why(
    gm: Client,
) -> None:
    """From a tab opened before the campaign ended, or typed by hand."""
    campaign = ended_campaign()
    before = Campaign.objects.get().settings
    for answer in (
        gm.get(f"/admin/campaign/campaign/{campaign.pk}/settings/", follow=True),
        gm.post(
            f"/admin/campaign/campaign/{campaign.pk}/settings/",
            {"reason": "bigger table", "table_width": "8"},
            follow=True,
        ),
    ):
        assert answer.redirect_chain[-1][0] == f"/admin/campaign/campaign/{campaign.pk}/change/"
        assert messages_of(answer) == [
            "Korona 1 has ended: its settings are kept as they were (its page lists them). "
            "Nothing was changed."
        ]
    assert Campaign.objects.get().settings == before


def test_an_ended_campaigns_players_sent_changed_anyway_are_refused_in_words(
    gm: Client, django_user_model: Any
) -> None:
    """Its page shows its players as they were, with nothing to add, change or delete;
    a form sent anyway (a tab opened before it ended) is refused, not silently dropped."""
    campaign = ended_campaign()
    aussie = django_user_model.objects.create_user("aussie", password="pw")
    late = django_user_model.objects.create_user("late", password="pw")
    kept = Membership.objects.create(campaign=campaign, user=aussie, side="australian")
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    form = opened(gm, page)
    prefix = "memberships"
    assert form[f"{prefix}-TOTAL_FORMS"] == "1"
    tries = [
        {  # a player added
            f"{prefix}-TOTAL_FORMS": "2",
            f"{prefix}-1-user": str(late.pk),
            f"{prefix}-1-side": "japanese",
        },
        {f"{prefix}-0-side": "japanese"},  # a side changed
        {f"{prefix}-0-DELETE": "on"},  # a player removed
    ]
    for change in tries:
        answer = gm.post(page, {**form, "name": campaign.name, **change})
        assert answer.status_code == 200
        said = html.unescape(answer.content.decode())
        assert (
            "Korona 1 has ended: nobody can join it, and its players keep the sides they "
            "played. Nothing was saved."
        ) in said
    assert list(Membership.objects.values_list("pk", "user__username", "side")) == [
        (kept.pk, "aussie", "australian")
    ]
    # The page as it is still saves (its name may change).
    assert gm.post(page, {**form, "name": "Korona 1 (1943)"}).status_code == 302
    assert Campaign.objects.get().name == "Korona 1 (1943)"


def test_an_ended_campaigns_page_links_its_story_which_the_game_master_reads(
    gm: Client,
) -> None:
    """The players' story of an ended campaign (its charts, turn by turn) had no link from
    the game master's page; a campaign still going has none (its story is not told yet)."""
    campaign = ended_campaign()
    link = f'<a href="/campaigns/{campaign.pk}/story/">Read its story</a>'
    assert link in page_of(gm, campaign)
    story = gm.get(f"/campaigns/{campaign.pk}/story/")
    assert story.status_code == 200
    assert "<svg" in story.content.decode()
    assert "/story/" not in page_of(gm, new_campaign("Korona 2"))


def test_a_campaign_reopened_by_a_roll_back_offers_advance_again(gm: Client) -> None:
    from campaign.services.rollback import rollback_to_turn

    campaign = ended_campaign()
    rollback_to_turn(campaign=campaign, number=1, reason="a mistake")
    page = page_of(gm, campaign)
    assert 'value="Advance turn now"' in page
    assert f"/admin/campaign/campaign/{campaign.pk}/schedule/" in page


def test_an_ended_campaign_lists_no_invitation_to_send(gm: Client, gm_user: Any) -> None:
    from notifications.invitations import invite_every_side

    campaign = new_campaign(turn_limit=1)
    links = invite_every_side(campaign=campaign, user=gm_user)
    advance_turn(campaign_id=campaign.pk)
    page = page_of(gm, campaign)
    assert "none: the campaign has ended, so nobody can join it" in page
    assert all(invitation.token not in page for _, invitation in links)
    assert "/admin/notifications/invitation/add/" not in page.split("Memberships")[0]


# --- a paused campaign --------------------------------------------------------------------


def test_a_paused_campaign_shows_no_deadline_and_says_what_resuming_does(
    gm: Client, gm_user: Any
) -> None:
    campaign = new_campaign()
    every_48_hours(campaign, gm_user)
    campaign.refresh_from_db()
    assert campaign.next_deadline is not None
    old = campaign.next_deadline
    set_paused(campaign=campaign, paused=True, reason="holidays")
    page = page_of(gm, campaign)
    said = next_deadline_of(page)
    assert said == "none while paused: resuming sets the next one, 48 hours on"
    # Its "Advance turn now" does not promise a deadline that resuming would move.
    assert "The next turn's deadline is then" not in page
    set_paused(campaign=campaign, paused=False)
    campaign.refresh_from_db()
    assert campaign.next_deadline != old
    assert next_deadline_of(page_of(gm, campaign)) == deadline_words(campaign)


def test_a_paused_campaign_says_since_when_and_the_gms_reason(gm: Client, gm_user: Any) -> None:
    """The GM's page said "Paused" and nothing more: the players' map says since when and
    why, and the GM, back after a week, had to open the log to remember."""
    campaign = new_campaign()
    assert "field-paused_words" not in page_of(gm, campaign)
    with patch("django.utils.timezone.now", return_value=datetime(2026, 12, 7, 1, tzinfo=UTC)):
        set_paused(campaign=campaign, paused=True, reason="Bob is on holiday")
    page = page_of(gm, campaign)
    field = page.split('class="form-row field-paused_words"')[1]
    said = field.split('<div class="readonly">')[1].split("</div>")[0].strip()
    assert said == (
        "since Mon 7 Dec 2026, 01:00 UTC; your reason, which every player reads: Bob is on holiday"
    )
    set_paused(campaign=campaign, paused=False)
    assert "field-paused_words" not in page_of(gm, campaign)


def test_a_paused_weekly_campaign_names_its_next_weekday(gm: Client, gm_user: Any) -> None:
    campaign = new_campaign()
    play_sunday_evenings(campaign, gm_user)
    set_paused(campaign=campaign, paused=True, reason="holidays")
    assert (
        "none while paused: resuming sets the next one, the first Sunday at 19:00 "
        "(Australia/Sydney) after it"
    ) in page_of(gm, campaign)


def test_a_paused_campaign_with_no_schedule_says_when_its_turns_are_played(
    gm: Client, django_user_model: Any
) -> None:
    campaign = new_campaign()
    user = django_user_model.objects.create_user("aussie", password="pw")
    Membership.objects.create(campaign=campaign, user=user, side="australian")
    set_paused(campaign=campaign, paused=True, reason="holidays")
    assert (
        "none while paused: once resumed, a turn is played when every player is ready, "
        'or when you press "Advance turn now"'
    ) in page_of(gm, campaign)


def test_a_paused_campaigns_advance_question_says_playing_does_not_resume_it(
    gm: Client,
) -> None:
    """The game master may play a turn by hand while the campaign is paused; the question
    did not say it was paused, nor that it stays paused. The page and the list's
    confirmation ask it alike; an active campaign's question says nothing of it."""
    paused, going = new_campaign("Korona 1"), new_campaign("Korona 2")
    set_paused(campaign=paused, paused=True, reason="holidays")
    said = (
        "Play turn 1 of Korona 1 now? The campaign is paused, and playing this turn does not "
        "resume it. Its dice are rolled at once"
    )
    assert said in page_of(gm, paused)
    assert "paused" not in page_of(gm, going).split('data-confirm="')[1].split('"')[0]
    listed = html.unescape(gm.post(LIST, chosen(gm, paused, going)).content.decode())
    assert said in listed
    assert listed.count("does not resume it") == 1
    gm.post(
        f"/admin/campaign/campaign/{paused.pk}/advance/",
        opened(gm, f"/admin/campaign/campaign/{paused.pk}/change/"),
    )
    paused.refresh_from_db()
    assert (paused.turn, paused.status) == (1, Campaign.Status.PAUSED)


# --- the last turn ------------------------------------------------------------------------


def test_the_last_turns_question_says_the_campaign_ends_and_its_winner_is_declared(
    gm: Client, gm_user: Any
) -> None:
    campaign = new_campaign(turn_limit=3)
    every_48_hours(campaign, gm_user)
    before = page_of(gm, campaign)
    assert "The next turn's deadline is then" in before and "last turn" not in before
    advance_turn(campaign_id=campaign.pk)
    advance_turn(campaign_id=campaign.pk)
    page = page_of(gm, campaign)
    assert (
        "Play turn 3 of Korona 1 now? Its dice are rolled at once and every player sees the "
        "result. It is the last turn (turn 3 of 3): the campaign ends after it, and whoever "
        'holds Korona then is declared the winner."'
    ) in page
    assert "The next turn's deadline is then" not in page


def test_the_last_turn_of_a_campaign_with_no_objective_says_nobody_wins(gm: Client) -> None:
    campaign = new_campaign(turn_limit=1, objective=None)
    assert (
        "It is the last turn (turn 1 of 1): the campaign ends after it, and nobody wins it "
        "(it has no objective to hold)."
    ) in page_of(gm, campaign)


# --- the list's "Advance turn now" --------------------------------------------------------


def chosen(gm: Client, *campaigns: Campaign, **more: str) -> dict[str, Any]:
    """The list as a tab shows it, with ``campaigns`` ticked and "Advance turn now"."""
    return {
        **opened(gm, LIST),
        "action": "advance_now",
        "_selected_action": [c.pk for c in campaigns],
        **more,
    }


def test_the_lists_advance_asks_each_campaigns_question_first_and_plays_nothing(
    gm: Client, django_user_model: Any
) -> None:
    first = new_campaign("Korona 1")
    second = new_campaign("Korona 2", battle_mode="tabletop")
    user = django_user_model.objects.create_user("aussie", password="pw")
    Membership.objects.create(campaign=second, user=user, side="australian")
    response = gm.post(LIST, chosen(gm, first, second))
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    # The campaign's page's own question, each (advance_question), not a copy.
    for campaign in (first, second):
        page_question = page_of(gm, campaign).split('data-confirm="')[1].split('"')[0]
        assert f"<li>{page_question}</li>" in page
    assert "Play turn 1 of Korona 2 now? Not ready yet: Australians" in page
    assert 'value="Yes, play them"' in page
    assert Turn.objects.count() == 0
    # Confirmed: the page's form sends the turns the list showed, and plays them.
    confirm = opened_from(response)
    answer = gm.post(LIST, confirm, follow=True)
    assert [c.turn for c in Campaign.objects.order_by("name")] == [1, 1]
    assert len(messages_of(answer)) == 2


def opened_from(response: Any) -> dict[str, Any]:
    """What the confirmation page's form sends: its hidden fields, lists kept."""
    import re

    found: dict[str, Any] = {}
    for tag in re.findall(r'<input type="hidden"[^>]*>', response.content.decode()):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and value and name.group(1) != "csrfmiddlewaretoken":
            found.setdefault(name.group(1), []).append(html.unescape(value.group(1)))
    return {k: v if len(v) > 1 else v[0] for k, v in found.items()}


def test_the_lists_advance_skips_an_ended_campaign_with_a_clear_message(gm: Client) -> None:
    ended = ended_campaign("Korona 1")
    going = new_campaign("Korona 2")
    response = gm.post(LIST, chosen(gm, ended, going))
    page = html.unescape(response.content.decode())
    assert "Korona 1 has ended: no more turns are played. It is skipped." in page
    assert "Play turn 2 of Korona 1" not in page
    confirm = opened_from(response)
    assert confirm["_selected_action"] == str(going.pk)
    gm.post(LIST, confirm)
    assert Campaign.objects.get(pk=going.pk).turn == 1
    # Sent for it all the same (another tab's form): skipped, said, nothing played.
    answer = gm.post(LIST, chosen(gm, ended, confirmed="yes"), follow=True)
    assert messages_of(answer) == ["Korona 1 has ended: no more turns are played. It was skipped."]
    assert Turn.objects.filter(campaign=ended).count() == 1


def test_the_lists_advance_with_only_ended_campaigns_offers_nothing_to_confirm(
    gm: Client,
) -> None:
    ended = ended_campaign()
    page = gm.post(LIST, chosen(gm, ended)).content.decode()
    assert "Yes, play" not in page and "nothing was played" in page


def test_the_lists_confirmation_keeps_the_turn_the_list_showed(gm: Client) -> None:
    """The stale-page protection the action had: the confirmation page sends on the turn
    the list's row showed, so a turn played meanwhile is not followed by another."""
    campaign = new_campaign()
    response = gm.post(LIST, chosen(gm, campaign))
    confirm = opened_from(response)
    assert confirm[f"seen_turn_{campaign.pk}"] == "0"
    advance_turn(campaign_id=campaign.pk)  # the schedule, or another tab, plays turn 1
    answer = gm.post(LIST, confirm, follow=True)
    assert Campaign.objects.get().turn == 1
    assert "nothing was played" in messages_of(answer)[0]


def test_the_lists_confirmation_names_a_campaign_moved_on_since_the_list(gm: Client) -> None:
    campaign = new_campaign()
    stale = chosen(gm, campaign)
    advance_turn(campaign_id=campaign.pk)
    page = html.unescape(gm.post(LIST, stale).content.decode())
    assert (
        "Korona 1: skipped, as your list showed turn 1 as its next, and it now stands before "
        "turn 2. Check it on the list as it is."
    ) in page
    assert "Yes, play" not in page


def test_the_lists_stale_confirmation_after_a_pause_and_a_resume_plays_nothing(
    gm: Client,
) -> None:
    """The list's action sent only the turn number: a campaign paused and resumed in
    another tab (the same turn next, active again) had its turn played by a confirmation
    page read before; now nothing is played, and the message says why."""
    campaign = new_campaign()
    confirm = opened_from(gm.post(LIST, chosen(gm, campaign)))
    assert confirm["confirmed"] == "yes"
    set_paused(campaign=campaign, paused=True, reason="holidays")
    set_paused(campaign=campaign, paused=False)

    answer = gm.post(LIST, confirm, follow=True)

    assert Campaign.objects.get().turn == 0
    assert not Turn.objects.exists()
    [said] = messages_of(answer)
    assert said.startswith(
        "Korona 1: nothing was played: a game master made 2 changes to it since your page "
        "showed it. Made meanwhile at "
    )
    assert "Campaign paused" in said and "(reason: holidays)" in said
    assert "Campaign resumed" in said and "(reason: no reason given)" in said


def test_a_player_getting_ready_since_the_confirmation_does_not_stop_the_gms_advance(
    gm: Client, django_user_model: Any
) -> None:
    """The player got ready after the GM's confirmation page was read: the turn is now due
    at once, its deadline moved to now. That was refused ("its next deadline has changed")
    though the turn the GM was asked to play is the same turn, its orders played as they
    stand, ready or not: it is played, once."""
    campaign = new_campaign()
    user = django_user_model.objects.create_user("aussie", password="pw")
    Membership.objects.create(campaign=campaign, user=user, side="australian")
    confirm = opened_from(gm.post(LIST, chosen(gm, campaign)))
    mark_side_ready(campaign=campaign, side="australian")
    campaign.refresh_from_db()
    assert campaign.next_deadline is not None  # due at once: the deadline moved

    answer = gm.post(LIST, confirm, follow=True)

    assert Campaign.objects.get().turn == 1
    (said,) = messages_of(answer)
    assert said.startswith("Korona 1: turn 1 played. Battles: none.")
    # The same page sent again plays nothing more.
    again = gm.post(LIST, confirm, follow=True)
    assert Campaign.objects.get().turn == 1
    assert "nothing was played" in messages_of(again)[0]


def test_a_player_getting_ready_since_the_page_does_not_stop_its_advance(
    gm: Client, django_user_model: Any
) -> None:
    """The campaign's page, on a schedule: the last side's "ready" moves the deadline to
    now (the scheduler would play the turn within seconds); the GM's press plays it."""
    campaign = new_campaign()
    every_48_hours(campaign, None)
    user = django_user_model.objects.create_user("aussie", password="pw")
    Membership.objects.create(campaign=campaign, user=user, side="australian")
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    sent = opened(gm, page)
    before = Campaign.objects.get().next_deadline
    mark_side_ready(campaign=campaign, side="australian")
    assert Campaign.objects.get().next_deadline != before

    gm.post(f"/admin/campaign/campaign/{campaign.pk}/advance/", sent)

    assert Campaign.objects.get().turn == 1
    assert Turn.objects.filter(campaign=campaign).count() == 1


def test_a_gm_change_made_since_the_page_stops_its_advance_and_is_named(
    gm: Client, django_user_model: Any
) -> None:
    """What the turn is played from changed in another tab (a company's stands; before,
    only the campaign's own row was compared, so it was played): nothing is played, the
    message names the change, who made it and when, and the page drawn again plays it."""
    from campaign.models import Company
    from campaign.services.adjustments import adjust_stands

    campaign = new_campaign()
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    sent = opened(gm, page)
    other = django_user_model.objects.create_superuser("second", "s@example.com", "pw")
    company = Company.objects.get(campaign=campaign, name="A Company")
    adjust_stands(company=company, unit_type="rifle_squad", held=5, reason="fever", user=other)

    answer = gm.post(f"/admin/campaign/campaign/{campaign.pk}/advance/", sent, follow=True)

    assert Campaign.objects.get().turn == 0 and not Turn.objects.exists()
    (said,) = messages_of(answer)
    assert said.startswith(
        "Korona 1: nothing was played: a game master made a change to it since your page "
        "showed it. Made meanwhile by second at "
    )
    assert "A Company: rifle squads from 9 to 5 (reason: fever). Check the page" in said
    # The page it lands on is drawn afresh: its button plays the turn.
    gm.post(f"/admin/campaign/campaign/{campaign.pk}/advance/", opened(gm, page))
    assert Campaign.objects.get().turn == 1


def test_a_settings_change_since_the_list_skips_the_campaign_and_names_it(gm: Client) -> None:
    """The settings as the question read them (tabletop or not, the last turn) changed:
    the list's confirmation skips the campaign, in the log's words."""
    from campaign.services.campaigns import update_settings
    from rules.campaign.scenario import settings_to_json

    campaign = new_campaign()
    stale = chosen(gm, campaign)
    settings = {**settings_to_json(campaign.get_settings()), "battle_mode": "tabletop"}
    update_settings(campaign=campaign, settings=settings, reason="our table is ready")
    page = html.unescape(gm.post(LIST, stale).content.decode())
    assert (
        "Korona 1: skipped, as a game master made a change to it since your list showed it. "
        "Made meanwhile at "
    ) in page
    assert "How battles are fought: fought on the table" in page
    assert "Yes, play" not in page


def test_the_lists_confirmation_skips_a_campaign_paused_and_resumed_since_the_list(
    gm: Client,
) -> None:
    campaign = new_campaign()
    stale = chosen(gm, campaign)
    set_paused(campaign=campaign, paused=True, reason="holidays")
    paused = html.unescape(gm.post(LIST, stale).content.decode())
    assert (
        "Korona 1: skipped, as your list showed it active, and it has been paused since. "
        "Check it on the list as it is."
    ) in paused
    set_paused(campaign=campaign, paused=False)
    page = html.unescape(gm.post(LIST, stale).content.decode())
    assert (
        "Korona 1: skipped, as a game master made 2 changes to it since your list showed it. "
        "Made meanwhile at "
    ) in page
    assert "Campaign resumed: no deadline." in page
    assert "Yes, play" not in page


def test_the_lists_confirmation_names_a_turn_waiting_for_its_battles(gm: Client) -> None:
    campaign, _ = waiting_campaign()
    page = html.unescape(gm.post(LIST, chosen(gm, campaign)).content.decode())
    assert (
        "Korona 1: skipped, as turn 1 waits for its battles' results: enter them from its page."
    ) in page


def test_the_lists_confirmation_names_the_sides_not_ready_as_they_are(
    gm: Client, django_user_model: Any
) -> None:
    campaign = new_campaign()
    for side in ("australian", "japanese"):
        user = django_user_model.objects.create_user(side, password="pw")
        Membership.objects.create(campaign=campaign, user=user, side=side)
    mark_side_ready(campaign=campaign, side="australian")
    page = html.unescape(gm.post(LIST, chosen(gm, campaign)).content.decode())
    assert "Play turn 1 of Korona 1 now? Not ready yet: Japanese (the orders given" in page
    assert 'value="Yes, play it"' in page


def test_a_paused_campaign_whose_turn_waits_for_its_battles_says_it_waits(
    gm: Client, django_user_model: Any
) -> None:
    campaign, _ = waiting_campaign()
    user = django_user_model.objects.create_user("aussie", password="pw")
    Membership.objects.create(campaign=campaign, user=user, side="australian")
    set_paused(campaign=campaign, paused=True, reason="holidays")
    assert next_deadline_of(page_of(gm, campaign)) == PAUSED_WAITING


PAUSED_WAITING = (
    "none: the turn waits for you to enter its battles' results, and the campaign is "
    'paused: no turn follows it until you resume the campaign or press "Advance turn now"'
)


def test_a_paused_scheduled_campaign_whose_turn_waits_says_so_not_what_resuming_does(
    gm: Client, gm_user: Any
) -> None:
    """A scheduled campaign, paused, its turn played by hand and waiting for its tabletop
    results: its page said "none while paused: resuming sets the next one, 48 hours on",
    of a turn that waits for the game master's results, not for a resume; the home page
    said only "after the tabletop results above"."""
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop")
    every_48_hours(campaign, gm_user)
    set_paused(campaign=campaign, paused=True, reason="holidays")
    advance_turn(campaign_id=campaign.pk)  # by hand: the pause allows it
    campaign.refresh_from_db()
    assert Turn.objects.get(campaign=campaign).status == Turn.Status.BATTLES_PENDING
    assert campaign.next_deadline is None  # no orders are due while the turn waits
    said = next_deadline_of(page_of(gm, campaign))
    assert said == PAUSED_WAITING and "resuming" not in said
    home = html.unescape(gm.get("/admin/").content.decode())
    assert (
        "after the tabletop results above, then none until you resume the campaign "
        "(it is paused)" in home
    )
    # Resumed, it still waits for its results, and says that alone.
    set_paused(campaign=campaign, paused=False)
    campaign.refresh_from_db()
    home = html.unescape(gm.get("/admin/").content.decode())
    assert "after the tabletop results above<" in home and "(it is paused)" not in home


def test_resuming_while_a_turn_waits_for_its_results_sets_no_deadline(
    gm: Client, gm_user: Any, django_user_model: Any
) -> None:
    """Resume counted a new deadline while the turn waited for the game master's results:
    nothing was played early (the sweep skips a waiting turn), but until the turn's end
    the GM's page, the list and the players' pages gave an ordinary deadline for orders
    nobody could give. Now none is set, the pages say the turn waits for the results, and
    the turn's end counts the next deadline."""
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop")
    every_48_hours(campaign, gm_user)
    aussie = django_user_model.objects.create_user("aussie", password="pw")
    Membership.objects.create(campaign=campaign, user=aussie, side="australian")
    set_paused(campaign=campaign, paused=True, reason="holidays")
    advance_turn(campaign_id=campaign.pk)  # by hand: the pause allows it
    set_paused(campaign=campaign, paused=False)

    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ACTIVE
    assert campaign.next_deadline is None
    # The battles' deadline is the one turn 1 was played with by hand, 48 hours on.
    (wanted,) = set(Battle.objects.filter(campaign=campaign).values_list("deadline", flat=True))
    assert next_deadline_of(page_of(gm, campaign)) == (
        "none: the turn is played once you enter its battles' results. Results wanted by "
        f"{moment_words(wanted, campaign.timezone)}: if none is entered by then, the campaign "
        "waits for your result, however long. The deadline for turn 2 will be 48 hours after "
        "turn 1 ends."
    )
    listed = gm.get(LIST).content.decode()
    assert '<td class="field-deadline_shown">none: waiting for your battle results</td>' in listed
    player = Client()
    player.force_login(aussie)
    map_page = html.unescape(player.get(f"/campaigns/{campaign.pk}/").content.decode())
    assert "the game master has entered their results" in map_page
    assert 'data-next-turn="deadline"' not in map_page

    for battle in Battle.objects.filter(campaign=campaign):
        fight_battle_now(battle_id=battle.pk)
    campaign.refresh_from_db()
    turn = Turn.objects.get(campaign=campaign)
    assert turn.status == Turn.Status.DONE
    assert campaign.next_deadline == turn.finished_at + timedelta(hours=48)


def test_a_deadline_kept_from_before_the_turn_began_is_not_shown_as_one(gm: Client) -> None:
    """A campaign row saved before resume stopped setting one: its page and list say the
    turn waits for the results, not the deadline the row still holds."""
    campaign, _ = waiting_campaign()
    Campaign.objects.filter(pk=campaign.pk).update(next_deadline=timezone.now())
    campaign.refresh_from_db()
    assert next_deadline_of(page_of(gm, campaign)) == (
        "none: the turn is played once you enter its battles' results"
    )
    listed = gm.get(LIST).content.decode()
    assert '<td class="field-deadline_shown">none: waiting for your battle results</td>' in listed


def test_a_turn_the_scheduler_claimed_since_the_page_is_played_once(
    gm: Client, django_user_model: Any
) -> None:
    """The last player got ready and the scheduler claimed the turn (its deadline
    cleared) before the GM pressed: the GM's press plays the turn the page asked about,
    and the scheduler's task, arriving after, plays nothing more."""
    from campaign.services.schedule import process_turn, sweep_due

    campaign = new_campaign()
    user = django_user_model.objects.create_user("aussie", password="pw")
    Membership.objects.create(campaign=campaign, user=user, side="australian")
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    sent = opened(gm, page)
    mark_side_ready(campaign=campaign, side="australian")
    assert sweep_due(enqueue=False).claimed == [(campaign.pk, 1)]

    gm.post(f"/admin/campaign/campaign/{campaign.pk}/advance/", sent)
    process_turn(campaign_id=campaign.pk, turn_number=1)

    assert Campaign.objects.get().turn == 1
    assert Turn.objects.filter(campaign=campaign).count() == 1


def test_the_campaigns_page_links_each_sides_orders_page_for_the_coming_turn(
    gm: Client,
) -> None:
    """A walk-through found no way from the admin to the orders page as a side sees it,
    the useful look before playing a turn: the campaign's page links one per side, and
    the GM opens each (an ended campaign has no coming turn, and no link)."""
    campaign = new_campaign()
    page = page_of(gm, campaign)
    assert "See the orders for turn 1 as each side's players do" in page
    for key, name in (("australian", "Australians"), ("japanese", "Japanese")):
        link = f"/campaigns/{campaign.pk}/orders/?side={key}"
        assert f'<a href="{link}">{name}</a>' in page
        opened = gm.get(link)
        assert opened.status_code == 200
        assert f"{name}" in opened.content.decode()
    assert "See the orders for turn" not in page_of(gm, ended_campaign("Korona 2"))


# --- who plays, and who took back "ready", since the page ----------------------------------


def two_players(campaign: Campaign, django_user_model: Any) -> Client:
    """The Australians' and the Japanese' players; the Australian player's browser."""
    for name, side in (("aussie", "australian"), ("nippon", "japanese")):
        user = django_user_model.objects.create_user(name, password="pw")
        Membership.objects.create(campaign=campaign, user=user, side=side)
    aussie = Client()
    aussie.force_login(django_user_model.objects.get(username="aussie"))
    return aussie


def test_a_side_taking_back_ready_since_the_page_stops_its_advance(
    gm: Client, django_user_model: Any
) -> None:
    """The page's question said only the Japanese were not ready; the Australian player
    then took back their "ready" (to change an order) in their own browser. The GM's
    press played the turn over a "not ready" they never saw; now nothing is played, the
    message says why, and the page drawn again plays it."""
    campaign = new_campaign()
    aussie = two_players(campaign, django_user_model)
    assert aussie.post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"}).status_code < 400
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    assert "Not ready yet: Japanese (" in html.unescape(page_of(gm, campaign))
    sent = opened(gm, page)
    assert aussie.post(f"/campaigns/{campaign.pk}/orders/unready/", {"turn": "1"}).status_code < 400

    answer = gm.post(f"/admin/campaign/campaign/{campaign.pk}/advance/", sent, follow=True)

    assert Campaign.objects.get().turn == 0
    assert messages_of(answer) == [
        "Korona 1: nothing was played: the Australians took back their \u201cready\u201d since "
        "your page showed it. Check the page as it is before you advance."
    ]
    gm.post(f"/admin/campaign/campaign/{campaign.pk}/advance/", opened(gm, page))
    assert Campaign.objects.get().turn == 1


def test_a_player_joining_or_leaving_since_the_page_stops_its_advance(
    gm: Client, django_user_model: Any
) -> None:
    """The campaign's page listed no Japanese player (the campaign AI plays them, always
    ready); a player then joined as the Japanese by an invitation, and the turn the GM
    pressed for was played with a side the page never showed them in. And one who left
    since (their account deleted) is named too."""
    campaign = new_campaign()
    leaver = django_user_model.objects.create_user("leaver", password="pw")
    Membership.objects.create(campaign=campaign, user=leaver, side="australian")
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    sent = opened(gm, page)
    joiner = django_user_model.objects.create_user("nippon", password="pw")
    Membership.objects.create(campaign=campaign, user=joiner, side="japanese")
    leaver.delete()

    answer = gm.post(f"/admin/campaign/campaign/{campaign.pk}/advance/", sent, follow=True)

    assert Campaign.objects.get().turn == 0
    assert messages_of(answer) == [
        "Korona 1: nothing was played: nippon joined it, playing the Japanese and a player "
        "left it since your page showed it. Check the page as it is before you advance."
    ]


def test_a_player_joining_since_the_lists_confirmation_stops_its_advance(
    gm: Client, django_user_model: Any
) -> None:
    """The list's confirmation page asks each campaign's question (who is not ready): a
    player joining after it was read stops that campaign's turn as on its own page."""
    campaign = new_campaign()
    confirm = opened_from(gm.post(LIST, chosen(gm, campaign)))
    joiner = django_user_model.objects.create_user("nippon", password="pw")
    Membership.objects.create(campaign=campaign, user=joiner, side="japanese")

    answer = gm.post(LIST, confirm, follow=True)

    assert Campaign.objects.get().turn == 0
    assert messages_of(answer) == [
        "Korona 1: nothing was played: nippon joined it, playing the Japanese since your "
        "page showed it. Check the page as it is before you advance."
    ]


def test_an_order_given_since_the_page_does_not_stop_its_advance(
    gm: Client, django_user_model: Any
) -> None:
    """No GM page shows the orders (its links open the sides' orders pages), and the
    question says they are played as they stand: one given since is played."""
    campaign = new_campaign()
    two_players(campaign, django_user_model)
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    sent = opened(gm, page)
    company = Company.objects.get(campaign=campaign, name="A Company")
    give_order(company=company, kind="hold", side="australian")
    assert Order.objects.filter(campaign=campaign).count() == 1

    gm.post(f"/admin/campaign/campaign/{campaign.pk}/advance/", sent)

    assert Campaign.objects.get().turn == 1


def test_a_paused_campaign_still_offers_advance_turn_now(
    gm: Client, django_user_model: Any
) -> None:
    """The pause says the game master "may still play one by hand": the campaign's page
    must then offer the button that does (a walk-through found only Resume there)."""
    campaign = new_campaign()
    set_paused(campaign=campaign, paused=True, reason="holidays")
    page = page_of(gm, campaign)
    assert 'value="Advance turn now"' in page
    assert "The campaign is paused, and playing this turn does not resume it." in page
    # Every side ready while paused: nothing plays it, so the button is the only way.
    for side in ("australian", "japanese"):
        user = django_user_model.objects.create_user(side, password="pw")
        Membership.objects.create(campaign=campaign, user=user, side=side)
        mark_side_ready(campaign=campaign, side=side)
    campaign.refresh_from_db()
    assert campaign.turn == 0
    assert 'value="Advance turn now"' in page_of(gm, campaign)
