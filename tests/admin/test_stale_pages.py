"""A GM action sends back what its page showed; from a stale page (a second tab, or a
turn played meanwhile) it says so and plays or changes nothing.

Each test opens the page twice, as two tabs would (two GETs), then submits from both
(two POSTs)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from battles.models import Battle
from battles.web.forces import battle_place
from campaign.models import Area, Campaign, Company, CompanyStands, GmAdjustment, Ship, Turn
from campaign.services.rollback import rollback_to_turn
from campaign.services.turns import advance_turn
from tests.admin.conftest import entered, new_campaign, opened, pressed_pause, waiting_campaign

pytestmark = pytest.mark.django_db


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def campaign_url(campaign: Campaign, action: str) -> str:
    return f"/admin/campaign/campaign/{campaign.pk}/{action}/"


def aggressive_campaign() -> Campaign:
    campaign = new_campaign()
    Company.objects.filter(campaign=campaign).update(standing_order="aggressive")
    return campaign


# --- Advance turn now ---------------------------------------------------------------------


def test_advance_from_a_stale_tab_plays_nothing(gm: Client) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    advance_turn(campaign_id=campaign.pk)  # both tabs show turn 2
    page = campaign_url(campaign, "change")
    first, second = opened(gm, page), opened(gm, page)
    assert first["turn"] == second["turn"] == "2"

    gm.post(campaign_url(campaign, "advance"), first, follow=True)
    response = gm.post(campaign_url(campaign, "advance"), second, follow=True)

    assert Campaign.objects.get().turn == 3
    assert list(Turn.objects.values_list("number", flat=True)) == [1, 2, 3]
    assert messages_of(response) == [
        "Korona 1: nothing was played: your page was for turn 3, and turn 3 has been "
        "played since. Check the page as it is before you advance."
    ]


@pytest.mark.parametrize(
    ("shown", "now", "since"), [("active", "paused", "paused"), ("paused", "active", "resumed")]
)
def test_advance_from_a_page_opened_before_a_pause_plays_nothing(
    gm: Client, shown: str, now: str, since: str
) -> None:
    """Paused (or resumed) in another tab: the button's question said otherwise (a paused
    campaign's says so), so nothing is played (a walk-through's turn was)."""
    campaign = new_campaign()
    Campaign.objects.filter(pk=campaign.pk).update(status=shown)
    stale = opened(gm, campaign_url(campaign, "change"))
    assert stale["state"].startswith(f"{shown}.")
    pressed_pause(gm, campaign, "pause" if now == "paused" else "resume", follow=True)
    assert Campaign.objects.get().status == now

    response = gm.post(campaign_url(campaign, "advance"), stale, follow=True)

    assert Campaign.objects.get().turn == 0
    assert messages_of(response) == [
        f"Korona 1: nothing was played: your page showed it {shown}, and it has been {since} "
        "since. Check the page as it is before you advance."
    ]
    # The page as it is plays the turn, paused or not.
    gm.post(campaign_url(campaign, "advance"), opened(gm, campaign_url(campaign, "change")))
    assert Campaign.objects.get().turn == 1


def test_advance_from_a_page_opened_before_a_pause_and_a_resume_plays_nothing(gm: Client) -> None:
    """Paused and resumed in another tab: the same turn is next and the campaign active
    again, but it is not the campaign the page showed, so nothing is played."""
    campaign = new_campaign()
    stale = opened(gm, campaign_url(campaign, "change"))
    pressed_pause(gm, campaign, "pause", "a player away", follow=True)
    pressed_pause(gm, campaign, "resume", follow=True)

    response = gm.post(campaign_url(campaign, "advance"), stale, follow=True)

    assert Campaign.objects.get().turn == 0
    # Each is a GM change in the log: the message names both, with their reasons.
    [said] = messages_of(response)
    assert said.startswith(
        "Korona 1: nothing was played: a game master made 2 changes to it since your page "
        "showed it. Made meanwhile by gm at "
    )
    assert "Campaign paused: no turn is played until the game master resumes it" in said
    assert "(reason: a player away)" in said
    assert "Campaign resumed: no deadline." in said
    assert said.endswith("Check the page as it is before you advance.")


def test_advance_from_a_page_without_the_campaign_it_showed_plays_nothing(gm: Client) -> None:
    campaign = new_campaign()
    response = gm.post(campaign_url(campaign, "advance"), {"turn": "0"}, follow=True)
    assert Campaign.objects.get().turn == 0
    assert messages_of(response) == [
        "Korona 1: nothing was played: the page did not say how it showed the campaign. "
        "Reload it and press again."
    ]


def test_advance_from_a_page_opened_before_several_turns_names_them(gm: Client) -> None:
    campaign = new_campaign()
    stale = opened(gm, campaign_url(campaign, "change"))  # turn 1 next
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)

    response = gm.post(campaign_url(campaign, "advance"), stale, follow=True)

    assert Campaign.objects.get().turn == 3
    assert messages_of(response) == [
        "Korona 1: nothing was played: your page was for turn 1, and turns 1 to 3 have "
        "been played since. Check the page as it is before you advance."
    ]


def test_advance_from_a_page_opened_before_a_roll_back_says_it_went_back(gm: Client) -> None:
    """Not "turns 4-2 have been played since": the campaign went back."""
    campaign = new_campaign()
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    stale = opened(gm, campaign_url(campaign, "change"))
    assert stale["turn"] == "3"  # turn 4 next
    rollback_to_turn(campaign=campaign, number=2, reason="wrong setup")

    response = gm.post(campaign_url(campaign, "advance"), stale, follow=True)

    assert Campaign.objects.get().turn == 1
    assert list(Turn.objects.values_list("number", flat=True)) == [1]
    assert messages_of(response) == [
        "Korona 1: nothing was played: your page was for turn 4, and the campaign was "
        "rolled back since: turn 2 is now the next to play. Check the page as it is "
        "before you advance."
    ]


def test_advance_without_the_turn_seen_plays_nothing(gm: Client) -> None:
    campaign = new_campaign()
    response = gm.post(campaign_url(campaign, "advance"), follow=True)
    assert Campaign.objects.get().turn == 0
    assert "nothing was played: the page did not say which turn" in messages_of(response)[0]


def test_advance_from_a_stale_changelist_plays_nothing(gm: Client) -> None:
    campaign = new_campaign()
    other = new_campaign("Korona 2")
    changelist = "/admin/campaign/campaign/"
    first, second = opened(gm, changelist), opened(gm, changelist)
    assert first[f"seen_turn_{campaign.pk}"] == "0"
    for tab in (first, second):
        response = gm.post(
            changelist,
            {
                **tab,
                "action": "advance_now",
                "_selected_action": [campaign.pk, other.pk],
                "confirmed": "yes",  # as its confirmation page sends it, the list's turns kept
            },
            follow=True,
        )
    assert (Campaign.objects.get(pk=campaign.pk).turn, Campaign.objects.get(pk=other.pk).turn) == (
        1,
        1,
    )
    assert Turn.objects.count() == 2
    said = messages_of(response)
    assert len(said) == 2 and all("nothing was played" in line for line in said)


# --- Roll back ----------------------------------------------------------------------------


def test_roll_back_from_a_stale_tab_changes_nothing(gm: Client) -> None:
    campaign = aggressive_campaign()
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    page = campaign_url(campaign, "rollback")
    first, second = opened(gm, page), opened(gm, page)
    assert first == second and first["seen"]

    gm.post(page, {**first, "number": 3, "reason": "wrong orders", "confirm": "on"}, follow=True)
    replayed = advance_turn(campaign_id=campaign.pk).turn  # turn 3 played again
    response = gm.post(
        page, {**second, "number": 3, "reason": "wrong orders", "confirm": "on"}, follow=True
    )

    assert Turn.objects.get(campaign=campaign, number=3).pk == replayed.pk
    assert Campaign.objects.get().turn == 3
    assert GmAdjustment.objects.count() == 1
    (said,) = messages_of(response)
    assert said.startswith(
        "Nothing was changed: another change by a game master was made to Korona 1"
    )
    # The page it sends the GM back to is fresh: submitting from it works.
    fresh = opened(gm, page)
    gm.post(page, {**fresh, "number": 3, "reason": "again", "confirm": "on"})
    assert Campaign.objects.get().turn == 2


@pytest.mark.parametrize("action", ["rollback", "seed"])
def test_a_stale_confirmation_comes_back_unticked(gm: Client, action: str) -> None:
    """A roll-back or a new seed confirms what the page showed; refused as stale, the page
    comes back with the GM's entries but the box unticked, so the next press acts only
    once the GM has read the page again and ticked it anew (kept ticked, one more press
    rolled back what another tab's change had altered unseen)."""
    campaign = aggressive_campaign()
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    page = campaign_url(campaign, action)
    entries = {"reason": "wrong orders", "confirm": "on"}
    if action == "rollback":
        entries["number"] = "3"
    first, second = opened(gm, page), opened(gm, page)
    gm.post(page, {**first, **entries, "reason": "the other tab"}, follow=True)
    if action == "rollback":
        advance_turn(campaign_id=campaign.pk)  # turn 3 played again: it may be chosen
    adjustments = GmAdjustment.objects.count()
    response = gm.post(page, {**second, **entries}, follow=True)
    assert GmAdjustment.objects.count() == adjustments  # refused: nothing changed
    (said,) = messages_of(response)
    assert "tick the box again and press" in said
    form = response.context["form"]
    assert form["reason"].value() == "wrong orders" and not form["confirm"].value()
    assert "confirm" not in form.errors  # asked for in the message, not an error
    # Pressed again without ticking: nothing happens.
    again = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    gm.post(page, again, follow=True)
    assert GmAdjustment.objects.count() == adjustments
    gm.post(page, {**again, "confirm": "on"}, follow=True)
    assert GmAdjustment.objects.count() == adjustments + 1


def test_roll_back_after_a_turn_was_played_changes_nothing(gm: Client) -> None:
    campaign = aggressive_campaign()
    advance_turn(campaign_id=campaign.pk)
    page = campaign_url(campaign, "rollback")
    tab = opened(gm, page)
    advance_turn(campaign_id=campaign.pk)  # the schedule plays turn 2 meanwhile
    response = gm.post(page, {**tab, "number": 1, "reason": "r", "confirm": "on"}, follow=True)
    assert Campaign.objects.get().turn == 2
    assert (
        "the page showed 1 turn played (next: turn 2); Korona 1 has 2 turns played (next: "
        "turn 3): turns were played or rolled back since."
    ) in messages_of(response)[0]


def test_a_roll_back_in_another_tab_is_counted_as_the_campaign_page_counts(gm: Client) -> None:
    """The walk-through: after "Korona is back at the start of turn 3" in one tab, the
    other said "the page showed turn 3, and Korona is at turn 2 now", one lower than the
    success message and the campaign page ("2 played; next: turn 3")."""
    campaign = aggressive_campaign()
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    schedule = campaign_url(campaign, "schedule")
    stale = opened(gm, schedule)
    rollback = campaign_url(campaign, "rollback")
    done = gm.post(
        rollback,
        {**opened(gm, rollback), "number": 3, "reason": "wrong orders", "confirm": "on"},
        follow=True,
    )
    assert messages_of(done) == ["Korona 1 is back at the start of turn 3."]
    changes = GmAdjustment.objects.count()

    response = gm.post(schedule, {**stale, "kind": "every_hours", "every_hours": 24,
                                  "timezone": "UTC", "reason": "faster"}, follow=True)  # fmt: skip

    assert GmAdjustment.objects.count() == changes
    assert Campaign.objects.get().schedule_kind == "none"
    (said,) = messages_of(response)
    assert said.startswith(
        "Nothing was changed: the page showed 3 turns played (next: turn 4); Korona 1 has 2 "
        "turns played (next: turn 3): turns were played or rolled back since."
    )
    assert "2 played; next: turn 3" in gm.get(campaign_url(campaign, "change")).content.decode()


# --- Adjust -------------------------------------------------------------------------------


def test_stands_adjusted_from_a_stale_tab_change_nothing(gm: Client) -> None:
    company = Company.objects.get(campaign=new_campaign(), name="A Company")
    rifles = CompanyStands.objects.get(company=company, unit_type="rifle_squad")
    full = rifles.held
    page = f"/admin/campaign/company/{company.pk}/adjust/"
    first, second = opened(gm, page), opened(gm, page)

    gm.post(
        page,
        {**first, "unit_type": "rifle_squad", "held": full - 1, "reason": "one lost"},
        follow=True,
    )
    response = gm.post(
        page,
        {**second, "unit_type": "rifle_squad", "held": full - 2, "reason": "two lost"},
        follow=True,
    )

    rifles.refresh_from_db()
    assert rifles.held == full - 1
    assert list(GmAdjustment.objects.values_list("reason", flat=True)) == ["one lost"]
    (said,) = messages_of(response)
    assert said.startswith(
        "Nothing was changed: another change by a game master was made to Korona 1 since the "
        "page was opened. Made meanwhile by gm at "
    )
    assert said.endswith(
        ": A Company: rifle squads from 9 to 8 (reason: one lost). Your entries are kept "
        "below: check them, then press Save again to apply them."
    )
    # Shown again with the GM's entries and the campaign as it is now: Save applies them.
    again = response.context["form"]
    assert (again["held"].value(), again["reason"].value()) == (str(full - 2), "two lost")
    gm.post(page, {**dict(again.data.items())})
    rifles.refresh_from_db()
    assert rifles.held == full - 2


def test_control_set_after_a_turn_was_played_changes_nothing(gm: Client) -> None:
    campaign = new_campaign()
    area = Area.objects.get(campaign=campaign, name="Korona")
    page = f"/admin/campaign/area/{area.pk}/adjust/"
    tab = opened(gm, page)
    advance_turn(campaign_id=campaign.pk)
    before = Area.objects.get(pk=area.pk).controller
    response = gm.post(page, {**tab, "controller": "japanese", "reason": "r"}, follow=True)
    assert Area.objects.get(pk=area.pk).controller == before
    assert not GmAdjustment.objects.exists()
    assert (
        "the page showed 0 turns played (next: turn 1); Korona 1 has 1 turn played (next: turn 2)"
    ) in messages_of(response)[0]


def test_ship_adjusted_without_the_page_seen_changes_nothing(gm: Client) -> None:
    ship = Ship.objects.filter(campaign=new_campaign()).first()
    response = gm.post(f"/admin/campaign/ship/{ship.pk}/adjust/", {"reason": "storm"})
    assert "the page did not say what it showed" in str(response.context["form"].errors)
    ship.refresh_from_db()
    assert ship.present and not GmAdjustment.objects.exists()


# --- Fight it now, Enter result -----------------------------------------------------------


def battle_url(battle: Battle, action: str) -> str:
    return f"/admin/battles/battle/{battle.pk}/{action}/"


def result_data(battle: Battle, winner: str) -> dict[str, Any]:
    data: dict[str, Any] = {"winner": winner}
    for side in ("attacker", "defender"):
        for unit in battle.spec[side]["stands"]:
            data[f"{side}__{unit}"] = 0
    return data


def test_fight_now_from_a_stale_tab_fights_nothing(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    first, second = (opened(gm, battle_url(battle, "change")) for _ in range(2))
    gm.post(battle_url(battle, "fight"), first, follow=True)
    fought = Battle.objects.get(pk=battle.pk)
    response = gm.post(battle_url(battle, "fight"), second, follow=True)
    again = Battle.objects.get(pk=battle.pk)
    assert (again.result, again.log, again.status) == (fought.result, fought.log, "fought")
    assert messages_of(response) == [
        f"Nothing was fought: the battle at {battle_place(battle)} already has its result "
        "(fought by the rules since the page was opened). It is shown below as it is."
    ]


def test_a_result_entered_from_a_stale_tab_changes_nothing(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    opened(gm, battle_url(battle, "result"))
    opened(gm, battle_url(battle, "result"))
    entered(gm, battle_url(battle, "result"), result_data(battle, "defender"), follow=True)
    response = gm.post(battle_url(battle, "result"), result_data(battle, "attacker"), follow=True)
    assert Battle.objects.get(pk=battle.pk).result["winner"] == "defender"
    assert messages_of(response) == [
        f"Nothing was entered: the battle at {battle_place(battle)} already has its result "
        "(entered since the page was opened). It is shown below as it is."
    ]


@pytest.mark.parametrize("action", ["fight", "result"])
def test_a_battle_rolled_back_since_the_page_was_opened_says_so(gm: Client, action: str) -> None:
    campaign, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    opened(gm, battle_url(battle, "change"))
    rollback_to_turn(campaign=campaign, number=1, reason="wrong setup")
    advance_turn(campaign_id=campaign.pk)  # turn 1 again: new battles, new rows
    data = result_data(battle, "defender") if action == "result" else {}
    response = gm.post(battle_url(battle, action), data, follow=True)
    assert response.status_code == 200
    done = "fought" if action == "fight" else "entered"
    assert messages_of(response) == [
        f"Nothing was {done}: this battle no longer exists (its turn was rolled back since "
        "the page was opened). The battles as they are now are listed below."
    ]
    assert not Battle.objects.exclude(status=Battle.Status.PENDING).exists()


# --- Settings -----------------------------------------------------------------------------


def test_settings_saved_from_a_stale_tab_change_nothing(gm: Client) -> None:
    from tests.admin.test_campaign_admin import settings_post

    campaign = new_campaign()
    page = campaign_url(campaign, "settings")
    first = settings_post(campaign, gm, turn_limit=12)
    second = settings_post(campaign, gm, turn_limit=15)
    gm.post(page, first, follow=True)
    response = gm.post(page, second, follow=True)
    assert Campaign.objects.get().get_settings().turn_limit == 12
    assert GmAdjustment.objects.count() == 1
    assert messages_of(response)[0].startswith(
        "Nothing was changed: another change by a game master was made to Korona 1"
    )


def test_settings_from_a_stale_tab_come_back_with_the_entries_and_the_change_named(
    gm: Client,
) -> None:
    """The walk-through's two tabs: the second's Save changed nothing and came back with
    the GM's typing gone, on a very long page, without saying what the other change was."""
    from tests.admin.test_campaign_admin import settings_post

    campaign = new_campaign()
    page = campaign_url(campaign, "settings")
    first = settings_post(campaign, gm, table_width_ft=8, reason="a bigger table")
    second = settings_post(campaign, gm, table_width_ft=5, turn_limit=15, reason="our club's")
    gm.post(page, first, follow=True)
    response = gm.post(page, second)

    assert response.status_code == 200  # the form again, not a fresh page
    settings = Campaign.objects.get().get_settings()
    assert (settings.table_width_ft, settings.turn_limit) == (8, 20)
    assert GmAdjustment.objects.count() == 1
    (said,) = messages_of(response)
    # When, on the campaign's clock: today's date, whatever day the test runs (it pinned
    # the day it was written, and failed from the next).
    assert re.match(
        r"Nothing was changed: another change by a game master was made to Korona 1 since the "
        r"page was opened\. Made meanwhile by gm at \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC",
        said,
    )
    assert (
        ": Settings changed. Battle table width, in feet: 8 (before: 3) (reason: a bigger "
        "table). Your entries are kept below and what the other change touched is marked (a "
        "conflict where you changed it too): check them, then press Save again to apply them."
    ) in said
    form = response.context["form"]
    assert (form["table_width_ft"].value(), form["turn_limit"].value()) == ("5", "15")
    assert form["reason"].value() == "our club's"
    conflict = (
        "Conflict: changed meanwhile by gm (3 → 8) and by you here. The page keeps your "
        "entry: check which to keep before saving."
    )
    assert form.changed_meanwhile == {"table_width_ft": conflict}
    html = response.content.decode()
    assert 'changed-meanwhile meanwhile-conflict" id="setting-table_width_ft"' in html
    assert conflict in html
    assert html.count("changed-meanwhile") == 1  # turn_limit: the GM's own, unmarked

    # Saved again as shown: the GM's entries apply, over the change they have now seen.
    resent = opened_form(response)
    assert resent["seen"] != second["seen"]
    assert gm.post(page, {**second, "seen": resent["seen"]}).status_code == 302
    settings = Campaign.objects.get().get_settings()
    assert (settings.table_width_ft, settings.turn_limit) == (5, 15)
    assert GmAdjustment.objects.count() == 2


def test_two_tabs_each_changing_a_setting_keep_both_changes(gm: Client) -> None:
    """The second tab's form shown again carried the first tab's old value of the setting
    it had not touched: its second Save, with nothing changed, undid the first tab's."""
    from tests.admin.test_campaign_admin import settings_post

    campaign = new_campaign()
    page = campaign_url(campaign, "settings")
    first = settings_post(campaign, gm, table_width_ft=8, reason="a bigger table")
    second = settings_post(campaign, gm, turn_limit=15, reason="a longer campaign")
    assert gm.post(page, first).status_code == 302
    response = gm.post(page, second)
    assert response.status_code == 200
    form = response.context["form"]
    assert (form["table_width_ft"].value(), form["turn_limit"].value()) == ("8", "15")
    assert form.changed_meanwhile == {
        "table_width_ft": "Changed meanwhile by gm: 3 → 8. The page now shows it (your own "
        "entries are kept)."
    }
    assert not form.conflicts
    assert "meanwhile-conflict" not in response.content.decode()

    # Saved again as shown, nothing changed: both tabs' changes stand.
    assert gm.post(page, dict(form.data.lists()) | {"seen": form.data["seen"]}).status_code == 302
    settings = Campaign.objects.get().get_settings()
    assert (settings.table_width_ft, settings.turn_limit) == (8, 15)


def test_two_tabs_changing_one_face_each_of_a_table_keep_both(gm: Client) -> None:
    """An event table's faces are merged one by one: the face the GM did not change
    takes the other tab's entry, theirs is kept."""
    from tests.admin.test_campaign_admin import settings_post

    campaign = new_campaign()
    page = campaign_url(campaign, "settings")
    first = settings_post(campaign, gm, naval_table__1__text="The first tab's words.")
    second = settings_post(campaign, gm, naval_table__2__text="The second tab's words.")
    assert gm.post(page, first).status_code == 302
    form = gm.post(page, second).context["form"]
    assert not form.conflicts
    assert form["naval_table__1__text"].value() == "The first tab's words."
    assert gm.post(page, dict(form.data.lists()) | {"seen": form.data["seen"]}).status_code == 302
    table = Campaign.objects.get().settings["naval_table"]
    assert (table["1"]["text"], table["2"]["text"]) == (
        "The first tab's words.",
        "The second tab's words.",
    )


def test_a_setting_changed_in_both_tabs_is_a_conflict_and_keeps_the_entry(gm: Client) -> None:
    from tests.admin.test_campaign_admin import settings_post

    campaign = new_campaign()
    page = campaign_url(campaign, "settings")
    first = settings_post(campaign, gm, table_width_ft=8, turn_limit=12)
    second = settings_post(campaign, gm, table_width_ft=5)
    gm.post(page, first)
    response = gm.post(page, second)
    form = response.context["form"]
    assert (form["table_width_ft"].value(), form["turn_limit"].value()) == ("5", "12")
    assert form.conflicts == {"table_width_ft"}
    assert form.changed_meanwhile["table_width_ft"] == (
        "Conflict: changed meanwhile by gm (3 → 8) and by you here. The page keeps your "
        "entry: check which to keep before saving."
    )
    html = response.content.decode()
    assert 'changed-meanwhile meanwhile-conflict" id="setting-table_width_ft"' in html
    assert "a conflict where you changed it too" in messages_of(response)[-1]


def opened_form(response: Any) -> dict[str, str]:
    """The hidden fields of a page already answered (``opened`` reads them with a GET)."""
    import html as html_module
    import re

    found = {}
    for tag in re.findall(r'<input type="hidden"[^>]*>', response.content.decode()):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and value and name.group(1) != "csrfmiddlewaretoken":
            found[name.group(1)] = html_module.unescape(value.group(1))
    return found


def test_a_settings_page_shown_again_is_refused_once_more_after_a_later_change(
    gm: Client,
) -> None:
    """The page shown again carries the campaign as the refusal read it: a change made
    after it (a third tab) refuses it again, never overwritten unseen."""
    from tests.admin.test_campaign_admin import settings_post

    campaign = new_campaign()
    page = campaign_url(campaign, "settings")
    first = settings_post(campaign, gm, table_width_ft=8)
    second = settings_post(campaign, gm, table_width_ft=5)
    gm.post(page, first)
    shown = opened_form(gm.post(page, second))
    third = settings_post(campaign, gm, turn_limit=12)
    gm.post(page, third)
    response = gm.post(page, {**second, "seen": shown["seen"]})
    assert response.status_code == 200
    settings = Campaign.objects.get().get_settings()
    assert (settings.table_width_ft, settings.turn_limit) == (8, 12)
    form = response.context["form"]
    assert form.changed_meanwhile == {
        "turn_limit": "Changed meanwhile by gm: 20 → 12. The page now shows it (your own "
        "entries are kept)."
    }
    assert form["turn_limit"].value() == "12"
