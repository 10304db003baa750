"""The campaign's page in the GM's admin: create from a scenario, advance, pause and
resume, export, the settings and the roll-back, each through the admin's own views."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.utils import timezone

from battles.models import Battle
from battles.services.results import fight_battle_now
from campaign.models import (
    Campaign,
    Company,
    GmAdjustment,
    Membership,
    Order,
    SeedCommitment,
    Turn,
)
from campaign.services.deadlines import moment_words, next_deadline_after
from campaign.services.scenarios import export_campaign
from campaign.services.schedule import mark_side_ready, set_schedule
from campaign.services.snapshot import load_snapshot
from campaign.services.turns import advance_state, advance_turn, give_order
from rules.campaign.scenario import parse_scenario
from tests.admin.conftest import (
    SUNDAY_EVENINGS,
    assert_refused,
    meeting_doc,
    new_campaign,
    opened,
    play_sunday_evenings,
    pressed_pause,
    waiting_campaign,
)
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db

CREATE = "/admin/campaign/campaign/create/"


# The main choices as the create page offers them (each preset to the rulings' default).
CHOICES = {"battle_mode": "auto", "ruleset": "korona", "fog_of_war": "on", "kind": "none",
           "timezone": "UTC"}  # fmt: skip


def upload(doc: Any, name: str = "Korona 1", seed: str = "", **choices: Any) -> dict[str, Any]:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    file = io.BytesIO(text.encode("utf-8"))
    file.name = "scenario.json"
    return {"name": name, "seed": seed, "scenario": file, **CHOICES, **choices}


def url(campaign: Campaign, action: str) -> str:
    return f"/admin/campaign/campaign/{campaign.pk}/{action}/"


def change(campaign: Campaign) -> str:
    return f"/admin/campaign/campaign/{campaign.pk}/change/"


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --- create from a scenario file ----------------------------------------------------------


def test_create_from_scenario_creates_the_campaign(gm: Client) -> None:
    response = gm.post(CREATE, upload(korona_doc(), seed="7"))
    campaign = Campaign.objects.get(name="Korona 1")
    assert response.status_code == 302
    assert response.url == f"/admin/campaign/campaign/{campaign.pk}/change/"
    assert campaign.seed == 7
    assert Company.objects.filter(campaign=campaign).count() == 8


def test_creating_a_campaign_gives_an_invitation_link_per_side(gm: Client) -> None:
    """The GM's next step is named at once (a walk-through created a campaign and found
    no way to invite its players): one link per side, each a working invitation."""
    from notifications.models import Invitation

    page = gm.post(CREATE, upload(korona_doc(), seed="7"), follow=True).content.decode()
    campaign = Campaign.objects.get(name="Korona 1")
    invitations = {i.side: i for i in Invitation.objects.filter(campaign=campaign)}
    assert set(invitations) == {"australian", "japanese"}
    assert "Send each side its invitation link" in page
    for side, name in (("australian", "Australians"), ("japanese", "Japanese")):
        link = f"/invite/{invitations[side].token}/"
        # Text to copy, not a link to follow (following it would use it up).
        field = rf'<span class="copy-link"><textarea [^>]*>[^<]*{link}<'
        assert re.search(rf"{name}:</span> {field}", page)
        assert f'href="http://testserver{link}"' not in page and f'href="{link}"' not in page
        assert gm.get(link).status_code == 200


def test_create_from_a_bad_scenario_lists_every_problem_and_creates_nothing(
    gm: Client,
) -> None:
    doc = korona_doc()
    doc["links"].append(["Korona", "Kokoda"])
    doc["companies"][0]["side"] = "american"
    response = gm.post(CREATE, upload(doc))
    assert response.status_code == 200
    problems = list(response.context["form"].non_field_errors())
    assert len(problems) == 2
    assert any("Kokoda" in p for p in problems)
    assert any("american" in p for p in problems)
    page = response.content.decode()
    assert "Nothing was created: please correct the 2 problems below." in page
    assert Campaign.objects.count() == 0


def test_a_scenario_files_own_name_missing_is_the_files_problem_not_the_name_fields(
    gm: Client,
) -> None:
    """The file lacks its "name": said as the file's problem at the top, not on the
    campaign's Name box (filled in), where the GM would think the name was wrong."""
    response = gm.post(CREATE, upload({"hello": 1}, name="Tabletop test"))
    form = response.context["form"]
    assert "name" not in form.errors
    problems = list(form.non_field_errors())
    assert 'The file has no "name": add it' in " ".join(problems)
    page = response.content.decode()
    assert f"please correct the {len(problems)} problems below" in page
    assert Campaign.objects.count() == 0


def test_create_from_a_file_that_is_not_json_is_a_form_error(gm: Client) -> None:
    response = gm.post(CREATE, upload("{not json"))
    assert list(response.context["form"].errors["scenario"]) == [
        'This file is not a scenario: Korona reads the files that "Export scenario" makes, '
        "in JSON. This one stops making sense at line 1, character 2 (Expecting property "
        "name enclosed in double quotes): a character missing or too many there or just "
        "before, such as a comma, a quote or a bracket."
    ]
    assert Campaign.objects.count() == 0


def test_a_bad_scenario_says_each_fault_by_name_in_the_gms_words(gm: Client) -> None:
    """The walk-through's file: a company on an area the map lacks and one whose stands
    are a number. Each fault names its company, not its place in a list."""
    doc = korona_doc()
    doc["companies"][0]["area"] = "Atlantis"
    doc["companies"][1]["stands"] = 6
    first, second = (doc["companies"][i]["name"] for i in (0, 1))
    response = gm.post(CREATE, upload(doc))
    assert list(response.context["form"].non_field_errors()) == [
        f"{first}: its area is 'Atlantis', which is no area of the map: give an area's name "
        "as the file spells it.",
        f"{second}: its stands must be listed by kind, e.g. rifle squads: 6 "
        '(in the file, "stands": {"rifle_squad": 6}).',
    ]
    assert "companies[" not in response.content.decode()
    assert Campaign.objects.count() == 0


def test_a_refused_file_must_be_chosen_again_and_the_page_says_so(gm: Client) -> None:
    choose = "Choose the file again after fixing it: a browser does not keep a chosen file."
    doc = korona_doc()
    doc["companies"][0]["area"] = "Atlantis"
    assert choose in gm.post(CREATE, upload(doc)).content.decode()
    assert choose in gm.post(CREATE, upload("{not json")).content.decode()
    # No file chosen (the Korona scenario) and a bad name: no file to choose again.
    response = gm.post(CREATE, {"name": "", "kind": "manual"})
    assert response.context["form"].errors
    assert choose not in response.content.decode()


def test_create_with_a_name_taken_is_a_form_error(gm: Client) -> None:
    new_campaign("Korona 1")
    response = gm.post(CREATE, upload(korona_doc()))
    assert "exists already" in str(response.context["form"].errors["name"])
    assert Campaign.objects.count() == 1


def test_create_asks_the_main_choices_and_the_schedule_at_once(gm: Client) -> None:
    """No file: the Korona scenario that ships; the choices replace its settings."""
    data = {
        **CHOICES,
        "name": "Korona at the club",
        "battle_mode": "tabletop",
        "ruleset": "force_on_force",
        "fog_of_war": "",
        "combat_events": "on",
        "fog_of_war_cup": "on",
        "kind": "every_hours",
        "every_hours": "48",
    }
    del data["fog_of_war"]  # unticked
    response = gm.post(CREATE, data)
    assert response.status_code == 302, response.context["form"].errors
    campaign = Campaign.objects.get()
    settings = campaign.get_settings()
    assert (settings.battle_mode, settings.ruleset, settings.fog_of_war) == (
        "tabletop",
        "force_on_force",
        False,
    )
    assert settings.combat_events and settings.fog_of_war_cup
    assert settings.turn_limit == 20  # the rest as the scenario has it
    assert (campaign.schedule_kind, campaign.every_hours) == ("every_hours", 48)
    assert campaign.next_deadline is not None
    assert campaign.companies.count() == 8


def test_create_takes_a_time_zone_in_any_letter_case(gm: Client) -> None:
    data = {**CHOICES, "name": "Korona at the club", "kind": "every_hours", "every_hours": "48",
            "timezone": "australia/sydney"}  # fmt: skip
    response = gm.post(CREATE, data)
    assert response.status_code == 302, response.context["form"].errors
    assert Campaign.objects.get().timezone == "Australia/Sydney"


def test_create_with_no_schedule_keeps_the_time_zone(gm: Client) -> None:
    """With "Turns are played: none", Australia/Sydney was lost and every page of the
    campaign read UTC: the zone is the campaign's clock, deadlines or none."""
    response = gm.post(CREATE, {**CHOICES, "name": "Korona 1", "timezone": "Australia/Sydney"})
    assert response.status_code == 302, response.context["form"].errors
    campaign = Campaign.objects.get()
    assert (campaign.schedule_kind, campaign.timezone) == ("none", "Australia/Sydney")
    assert campaign.next_deadline is None


def test_create_offers_the_rulings_defaults(gm: Client) -> None:
    form = gm.get(CREATE).context["form"]
    initial = {name: form[name].value() for name in form.fields}
    assert initial["battle_mode"] == "auto" and initial["ruleset"] == "korona"
    assert initial["fog_of_war"] is True
    assert not initial["combat_events"] and not initial["fog_of_war_cup"]
    assert initial["kind"] == "none" and initial["timezone"] == "UTC"


def test_create_says_how_to_play_solo_how_long_it_lasts_and_what_the_zone_is(
    gm: Client,
) -> None:
    """A walk-through's GM, no programmer, found no word of solo play where they decide
    it, of the campaign's length and its end, nor of what the time zone is for (there
    was no deadline to read on it) or what an empty one means."""
    page = gm.get(CREATE).content.decode()
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert (
        "Playing solo: a side nobody joins is played by the campaign AI, always ready. After "
        "Create, join one side with its invitation link (from a private window, as a player: "
        'the game master plays no side) and send the other link to nobody. Your "ready" '
        "then plays the turn at once."
    ) in text
    assert (
        "Length: the Korona scenario lasts 20 turns (a scenario file may set its own; change "
        "it later under Settings). After the last turn the campaign ends and the side holding "
        "the objective (Korona, in the Korona scenario) wins; it ends sooner if a side loses "
        "its base or its last fighting company."
    ) in text
    assert (
        "The campaign's clock: its pages give every time on it, and a weekly turn's time is "
        "read on it, deadline or none. Where the group plays, as Region/City: Europe/Berlin, "
        "Australia/Sydney, America/New_York. It cannot be empty: UTC if unsure."
    ) in text


def test_create_quotes_the_fog_of_war_ruling_as_a_sentence(gm: Client) -> None:
    """The ruling was quoted as a list's item alone, a fragment ending in ";" ("enemy
    fighting companies in areas ... supply or orders;"): our words lead into it."""
    page = gm.get(CREATE).content.decode()
    start = page.index('id="setting-fog_of_war"')
    section = page[start : page.index("</fieldset>", start)]
    rule = " ".join(html.unescape(re.sub(r"<[^>]+>", "", section)).split())
    assert (
        "Korona's ruling: with fog of war on, a side knows enemy fighting companies in areas "
        "its own companies occupy or are linked to, each as a strength band "
        "(weak/average/strong), without name, stands, quality, supply or orders."
    ) in rule
    assert "orders;" not in rule


@pytest.mark.parametrize(
    ("schedule", "field", "message"),
    [
        ({"kind": "weekly"}, "weekday", "Give the weekday of the turn."),
        ({"kind": "every_hours"}, "every_hours", "Give the number of hours between two turns."),
        (
            {"kind": "every_hours", "every_hours": "24", "timezone": "Mars/Olympus"},
            "timezone",
            "'Mars/Olympus' is not a time zone: write it as Region/City, e.g. Europe/Berlin.",
        ),
        (  # a city alone, as a walk-through's GM typed it: the zone it is in, suggested
            {"kind": "every_hours", "every_hours": "24", "timezone": "new york"},
            "timezone",
            "'new york' is not a time zone: write it as Region/City. Did you mean "
            "America/New_York?",
        ),
        (  # the example's own city: the zone said once, not "e.g. Europe/Berlin. Did you
            # mean Europe/Berlin?" (a walk-through)
            {"kind": "every_hours", "every_hours": "24", "timezone": "berlin"},
            "timezone",
            "'berlin' is not a time zone: write it as Region/City. Did you mean Europe/Berlin?",
        ),
        (  # a folder of the time zone database, not a zone: was a 500 (IsADirectoryError)
            {"kind": "every_hours", "every_hours": "24", "timezone": "America"},
            "timezone",
            "'America' is not a time zone: write it as Region/City, e.g. Europe/Berlin.",
        ),
    ],
)
def test_create_with_a_bad_schedule_creates_nothing(
    gm: Client, schedule: dict[str, str], field: str, message: str
) -> None:
    response = gm.post(CREATE, {**CHOICES, "name": "Korona 1", **schedule})
    assert response.status_code == 200
    assert message in list(response.context["form"].errors[field])
    assert Campaign.objects.count() == 0


def test_a_refused_number_of_hours_gets_one_error_not_two(gm: Client) -> None:
    schedule = {"kind": "every_hours", "every_hours": "0", "timezone": "UTC"}
    response = gm.post(CREATE, {**CHOICES, "name": "Korona 1", **schedule})
    assert list(response.context["form"].errors["every_hours"]) == [
        "Give the hours between two turns as a whole number from 1 to 672."
    ]
    assert Campaign.objects.count() == 0


@pytest.mark.parametrize(
    ("schedule", "field", "wanted"),
    [  # a walk-through's "Every N hours: 5", "Turns are played" left on none
        ({"kind": "none", "every_hours": "5"}, "every_hours", "every N hours"),
        ({"kind": "none", "every_hours": "-5"}, "every_hours", "every N hours"),
        ({"kind": "none", "weekday": "4"}, "weekday", "weekly, on a weekday at a time"),
        (
            {"kind": "every_hours", "every_hours": "6", "time_of_day": "19:00"},
            "time_of_day",
            "weekly, on a weekday at a time",
        ),
    ],
)
def test_create_refuses_a_schedule_box_the_chosen_schedule_does_not_use(
    gm: Client, schedule: dict[str, str], field: str, wanted: str
) -> None:
    """A new campaign's boxes start empty: one filled in was meant, and ignoring it made a
    campaign with no schedule and no word of it. (The Schedule page, whose boxes show the
    schedule as it is, ignores them: test_schedule_admin.py.)"""
    response = gm.post(CREATE, {**CHOICES, "name": "Korona 1", **schedule})
    assert response.status_code == 200
    form = response.context["form"]
    chosen = dict(form.fields["kind"].choices)[schedule["kind"]]
    assert list(form.errors[field]) == [
        f'"Turns are played" is "{chosen}", which does not use this box: choose "{wanted}" '
        "there to use it, or empty this box."
    ]
    assert list(form.errors) == [field]
    assert Campaign.objects.count() == 0


def test_create_with_a_choice_the_scenario_refuses_creates_nothing(gm: Client) -> None:
    response = gm.post(CREATE, {**CHOICES, "name": "Korona 1", "ruleset": "chess"})
    assert list(response.context["form"].errors["ruleset"]) == ["Choose a rule set from the list."]
    assert Campaign.objects.count() == 0


def test_create_from_scenario_is_refused_to_a_player(player: Client) -> None:
    assert_refused(player.get(CREATE))
    assert_refused(player.post(CREATE, upload(korona_doc())))
    assert Campaign.objects.count() == 0


# --- advance, pause, resume, export -----------------------------------------------------


def test_advance_turn_now_plays_a_turn(gm: Client) -> None:
    campaign = new_campaign()
    response = gm.post(url(campaign, "advance"), opened(gm, change(campaign)), follow=True)
    campaign.refresh_from_db()
    assert campaign.turn == 1
    assert Turn.objects.get(campaign=campaign).status == Turn.Status.DONE
    turn = Turn.objects.get(campaign=campaign)
    assert messages_of(response) == [
        "Korona 1: turn 1 played. Battles: none. "
        f'<a href="/admin/campaign/turn/{turn.pk}/change/">Read turn 1\'s log</a>.'
    ]
    assert not Battle.objects.filter(campaign=campaign).exists()


def test_advance_turn_now_says_the_battles_fought_and_links_the_turns_log(gm: Client) -> None:
    """A walk-through read only "Korona: turn 1 played.": the message says how many
    battles were fought and links the turn's log in the admin."""
    campaign = new_campaign(doc=meeting_doc())
    response = gm.post(url(campaign, "advance"), opened(gm, change(campaign)), follow=True)
    turn = Turn.objects.get(campaign=campaign)
    fought = Battle.objects.filter(turn=turn).exclude(status=Battle.Status.PENDING).count()
    assert fought == Battle.objects.filter(turn=turn).count() > 0
    (said,) = messages_of(response)
    assert said.startswith(f"Korona 1: turn 1 played. Battles: {fought} fought. <a href=")
    log = re.search(r'<a href="([^"]+)">Read turn 1\'s log</a>', said)
    assert log and log.group(1) == f"/admin/campaign/turn/{turn.pk}/change/"
    page = gm.get(log.group(1)).content.decode()
    assert "Turn: Korona 1, turn 1" in page and "field-log_text" in page


def test_advance_turn_now_in_tabletop_mode_says_the_battles_waiting(gm: Client) -> None:
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop")
    response = gm.post(url(campaign, "advance"), opened(gm, change(campaign)), follow=True)
    turn = Turn.objects.get(campaign=campaign)
    waiting = Battle.objects.filter(turn=turn, status=Battle.Status.PENDING).count()
    assert waiting == Battle.objects.filter(turn=turn).count() > 0
    (said,) = messages_of(response)
    assert said.startswith(
        f"Korona 1: turn 1 begun. Battles: {waiting} waiting for your result from the table. "
        f'<a href="/admin/campaign/turn/{turn.pk}/change/">'
    )


def test_advance_turn_now_while_battles_wait_is_an_error_message(gm: Client) -> None:
    """From a page opened before the turn began (a waiting turn's page has no button)."""
    campaign, _ = waiting_campaign()
    stale = {"turn": "0", "state": advance_state(campaign)}
    response = gm.post(url(campaign, "advance"), stale, follow=True)
    (said,) = messages_of(response)
    assert said.startswith(
        "Turn 1 of Korona 1 is still waiting for its tabletop battles: nothing was played."
    )
    assert Turn.objects.filter(campaign=campaign).count() == 1


# The battles of waiting_campaign's turn 1, as the GM's email and admin name them.
WHO_ATTACKS_WHOM = {
    "1:Korona:1": "Korona: the Japanese 1st Company attacks the Australians&#x27; A Company",
    "1:Korona:2": "Korona: the Japanese 2nd Company attacks the Australians&#x27; B Company",
}


def test_advance_turn_now_in_the_list_while_battles_wait_links_each_result(gm: Client) -> None:
    """The walk-through's list action said only that the turn waited: the message links
    each waiting battle's result form, as the campaign's page does."""
    campaign, battles = waiting_campaign()
    response = gm.post(
        "/admin/campaign/campaign/",
        {
            **opened(gm, "/admin/campaign/campaign/"),
            "action": "advance_now",
            "_selected_action": [campaign.pk],
            "confirmed": "yes",
        },
        follow=True,
    )
    (said,) = messages_of(response)
    page = response.content.decode()
    for key, who in WHO_ATTACKS_WHOM.items():
        result = f"/admin/battles/battle/{battles[key].pk}/result/"
        assert f'<a href="{result}">enter the result of the battle at {who}</a>' in said
        assert f'<a href="{result}">' in page  # a link, not its escaped text
        assert gm.get(result).status_code == 200
    assert Turn.objects.filter(campaign=campaign).count() == 1


def test_advance_turn_needs_a_post(gm: Client) -> None:
    campaign = new_campaign()
    assert gm.get(url(campaign, "advance")).status_code == 405
    assert Turn.objects.count() == 0


def test_advance_turn_now_as_a_changelist_action(gm: Client) -> None:
    campaign = new_campaign()
    gm.post(
        "/admin/campaign/campaign/",
        {
            **opened(gm, "/admin/campaign/campaign/"),
            "action": "advance_now",
            "_selected_action": [campaign.pk],
            "confirmed": "yes",
        },
    )
    campaign.refresh_from_db()
    assert campaign.turn == 1


def test_advance_turn_now_is_refused_to_a_player(player: Client) -> None:
    campaign = new_campaign()
    assert_refused(player.post(url(campaign, "advance")))
    assert Turn.objects.count() == 0


def test_pause_and_resume(gm: Client) -> None:
    campaign = new_campaign()
    page = gm.get(url(campaign, "change")).content.decode()
    assert f'href="{url(campaign, "pause")}">Pause</a>' in page
    pressed_pause(gm, campaign, "pause")
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.PAUSED
    page = gm.get(url(campaign, "change")).content.decode()
    assert f'href="{url(campaign, "resume")}">Resume</a>' in page
    pressed_pause(gm, campaign, "resume")
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ACTIVE


def test_pausing_asks_for_a_reason_and_records_it_for_the_players(gm: Client) -> None:
    campaign = new_campaign()
    form = gm.get(url(campaign, "pause")).content.decode()
    assert "Every player and spectator reads the pause and your reason" in form
    response = pressed_pause(gm, campaign, "pause", "Christmas: back on the 4th", follow=True)
    assert messages_of(response) == [
        "Korona 1: Campaign paused: no turn is played until the game master resumes it (they "
        "may still play one by hand). Every player is told."
    ]
    [line] = GmAdjustment.objects.filter(campaign=campaign)
    assert line.reason == "Christmas: back on the 4th"
    assert line.user is not None and line.user.get_username() == "gm"
    assert line.details["kind"] == "pause"


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_pause_without_a_reason_is_refused_and_changes_nothing(gm: Client, reason: str) -> None:
    campaign = new_campaign()
    pause = url(campaign, "pause")
    response = gm.post(pause, {**opened(gm, pause), "reason": reason})
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "Give a reason for the pause: every player reads it." in page
    assert Campaign.objects.get().status == Campaign.Status.ACTIVE
    assert not GmAdjustment.objects.exists()


def test_resuming_needs_no_reason_and_says_the_new_deadline(gm: Client) -> None:
    campaign = new_campaign()
    set_schedule(campaign=campaign, kind="every_hours", every_hours=24, timezone="Australia/Sydney")
    pressed_pause(gm, campaign, "pause")
    form = html.unescape(gm.get(url(campaign, "resume")).content.decode())
    assert "Next deadline: none while paused: resuming sets the next one, 24 hours on." in form
    response = pressed_pause(gm, campaign, "resume", follow=True)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ACTIVE
    assert campaign.next_deadline is not None
    when = moment_words(campaign.next_deadline, "Australia/Sydney")
    assert messages_of(response) == [
        f"Korona 1: Campaign resumed: the next deadline is {when}. Every player is told."
    ]
    resumed = GmAdjustment.objects.order_by("pk").last()
    assert resumed is not None and resumed.reason == "no reason given"


def test_pause_and_resume_as_changelist_actions(gm: Client) -> None:
    campaign, other = new_campaign(), new_campaign(name="Korona 2")
    chosen = {"_selected_action": [campaign.pk, other.pk]}
    asked = gm.post("/admin/campaign/campaign/", {"action": "pause", **chosen})
    page = html.unescape(asked.content.decode())
    assert "Pause Korona 1 and Korona 2" in page
    assert Campaign.objects.filter(status=Campaign.Status.PAUSED).count() == 0
    confirmed = {"action": "pause", "confirmed": "yes", **chosen}
    refused = gm.post("/admin/campaign/campaign/", {**confirmed, "reason": ""})
    assert "Give a reason for the pause: every player reads it." in html.unescape(
        refused.content.decode()
    )
    assert Campaign.objects.filter(status=Campaign.Status.PAUSED).count() == 0
    gm.post("/admin/campaign/campaign/", {**confirmed, "reason": "summer holidays"})
    assert Campaign.objects.filter(status=Campaign.Status.PAUSED).count() == 2
    assert sorted(GmAdjustment.objects.values_list("campaign__name", "reason")) == [
        ("Korona 1", "summer holidays"),
        ("Korona 2", "summer holidays"),
    ]
    gm.post(
        "/admin/campaign/campaign/",
        {"action": "resume", "confirmed": "yes", "reason": "", **chosen},
    )
    assert Campaign.objects.filter(status=Campaign.Status.ACTIVE).count() == 2


def test_a_finished_campaign_is_neither_paused_nor_resumed(gm: Client) -> None:
    doc = korona_doc()
    doc.update(finished=True, winner="japanese", end_reason="base_taken")
    campaign = new_campaign(doc=doc)
    response = pressed_pause(gm, campaign, "pause", follow=True)
    assert messages_of(response) == ["Korona 1 has ended: it can be neither paused nor resumed."]
    assert Campaign.objects.get().status == Campaign.Status.FINISHED
    assert not GmAdjustment.objects.exists()


def test_pause_is_refused_to_a_player(player: Client) -> None:
    campaign = new_campaign()
    assert_refused(player.post(url(campaign, "pause")))
    assert_refused(player.post(url(campaign, "resume")))
    assert Campaign.objects.get().status == Campaign.Status.ACTIVE


def test_export_scenario_downloads_the_campaign(gm: Client) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    response = gm.get(url(campaign, "export"))
    assert response["Content-Type"] == "application/json"
    assert 'filename="Korona-1.json"' in response["Content-Disposition"]
    campaign.refresh_from_db()
    assert json.loads(response.content) == export_campaign(campaign=campaign)
    assert json.loads(response.content)["turn"] == 1


def test_export_is_refused_to_a_player(player: Client) -> None:
    assert_refused(player.get(url(new_campaign(), "export")))


# --- settings -----------------------------------------------------------------------------


def settings_post(campaign: Campaign, gm: Client, **changes: Any) -> dict[str, Any]:
    """The settings form as the page fills it in, with ``changes``."""
    form = gm.get(url(campaign, "settings")).context["form"]
    data = {name: field.initial for name, field in form.fields.items()}
    data = {k: v for k, v in data.items() if v is not False and v is not None}
    data["reason"] = "house rules"
    data.update(changes)
    return data


def test_settings_are_saved_and_logged_in_words(gm: Client) -> None:
    campaign = new_campaign()
    data = settings_post(campaign, gm, turn_limit=12, battle_mode="tabletop")
    data.pop("fog_of_war", None)  # unticked: off
    response = gm.post(url(campaign, "settings"), data)
    assert response.status_code == 302
    campaign.refresh_from_db()
    settings = campaign.get_settings()
    assert (settings.turn_limit, settings.battle_mode, settings.fog_of_war) == (
        12,
        "tabletop",
        False,
    )
    adjustment = GmAdjustment.objects.get()
    assert adjustment.what == (
        "Settings changed. How battles are fought: fought on the table (the game master "
        "enters each result) (before: fought by the rules at once). Fog of war: off (before: on). "
        "Campaign length, in turns: 12 (before: 20)."
    )
    assert adjustment.reason == "house rules"


NOTHING_CHANGED = "Nothing changed: no setting of Korona 1 differs from what is saved."


def test_settings_saved_unchanged_record_nothing(gm: Client) -> None:
    campaign = new_campaign()
    response = gm.post(url(campaign, "settings"), settings_post(campaign, gm), follow=True)
    assert messages_of(response) == [NOTHING_CHANGED]
    assert not GmAdjustment.objects.exists()


def test_settings_saved_unchanged_need_no_reason(gm: Client) -> None:
    """A walk-through pressed Save on the page as it opened: it was asked for a reason."""
    campaign = new_campaign()
    logged = LogEntry.objects.count()
    response = gm.post(
        url(campaign, "settings"), settings_post(campaign, gm, reason=""), follow=True
    )
    assert response.redirect_chain == [(url(campaign, "change"), 302)]
    assert messages_of(response) == [NOTHING_CHANGED]
    assert not GmAdjustment.objects.exists()
    assert LogEntry.objects.count() == logged  # nothing in Recent actions either


def test_a_settings_change_without_a_reason_is_refused_on_the_reason(gm: Client) -> None:
    campaign = new_campaign()
    before = Campaign.objects.get().settings
    response = gm.post(
        url(campaign, "settings"), settings_post(campaign, gm, turn_limit=12, reason="")
    )
    assert response.status_code == 200
    assert response.context["form"].errors["reason"] == ["Give a reason for this change."]
    assert Campaign.objects.get().settings == before
    assert not GmAdjustment.objects.exists()


def test_settings_problems_are_each_shown_on_their_field_and_nothing_changes(
    gm: Client,
) -> None:
    campaign = new_campaign()
    data = settings_post(
        campaign,
        gm,
        turn_limit=0,
        objective="Kokoda",
        aerial_table__5__track="",
        naval_table__2__side="",
    )
    before = Campaign.objects.get().settings
    response = gm.post(url(campaign, "settings"), data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "Give a whole number from 1 to 1000." in str(errors["turn_limit"])
    assert list(errors["objective"]) == ["Choose an area of the map, or none, from the list."]
    assert "Face 5: choose the track of the strafing." in str(errors["aerial_table__5__track"])
    assert "Face 2: choose the side this effect strikes." in str(errors["naval_table__2__side"])
    assert Campaign.objects.get().settings == before
    assert GmAdjustment.objects.count() == 0
    page = response.content.decode()
    assert "Nothing was saved: please correct the 4 problems below." in page
    assert '<a href="#setting-aerial_table">Aerial event table</a>' in page


# Django's own messages for a field (and the start of those that go on): none reaches
# the GM, who is told what to enter instead.
DJANGOS_WORDS = (
    "This field is required",
    "Select a valid choice",
    "is not one of the available choices",
    "Enter a whole number",
    "Enter a list of values",
    "Ensure this value",
    "Null characters are not allowed",
    "Enter a valid",
    "The submitted file",
    "No file was submitted",
)


def bad_value(field: Any) -> Any:
    """A value ``field`` refuses: no choice of its list, no number, too long a text."""
    from django import forms

    if isinstance(field, forms.MultipleChoiceField):
        return ["no such thing"]
    if isinstance(field, forms.ChoiceField):
        return "no such thing"
    if isinstance(field, forms.IntegerField):
        return "lots"
    if isinstance(field, forms.CharField) and field.max_length:
        return "x" * (field.max_length + 1)
    if isinstance(field, forms.CharField):
        return "a\x00b"
    return None


def djangos_words_in(errors: Any) -> list[str]:
    return [
        f"{name}: {error}"
        for name, listed in errors.items()
        for error in listed
        if any(words in error for words in DJANGOS_WORDS)
    ]


def test_every_settings_field_says_what_to_enter_not_djangos_words(gm: Client) -> None:
    """Each box of the settings page sent back with a value it refuses, then empty: every
    problem says what to give, not "Ensure this value has at most 500 characters" or
    "Select a valid choice. X is not one of the available choices."."""
    campaign = new_campaign()
    form = gm.get(url(campaign, "settings")).context["form"]
    # Not the hidden boxes the page fills: "seen", and "warned" (the warning about the
    # reason the page showed, never refused: an altered one asks again).
    hidden = ("seen", "warned")
    refused = {name: bad_value(field) for name, field in form.fields.items() if name not in hidden}
    refused = {name: value for name, value in refused.items() if value is not None}
    data = settings_post(campaign, gm, **refused)
    errors = gm.post(url(campaign, "settings"), data).context["form"].errors
    assert set(refused) <= set(errors), set(refused) - set(errors)
    assert djangos_words_in(errors) == []
    empty = {name: "" for name in form.fields if name != "seen"}
    errors = (
        gm.post(url(campaign, "settings"), settings_post(campaign, gm, **empty))
        .context["form"]
        .errors
    )
    # The reason is asked for once the settings are read and found changed (a save
    # that changes nothing needs none): test_a_settings_change_without_a_reason_...
    assert "turn_limit" in errors
    assert djangos_words_in(errors) == []


def test_every_create_field_says_what_to_enter_not_djangos_words(gm: Client) -> None:
    form = gm.get(CREATE).context["form"]
    refused = {name: bad_value(field) for name, field in form.fields.items()}
    refused = {name: value for name, value in refused.items() if value is not None}
    refused["kind"] = "weekly"  # the schedule then reads its weekday
    errors = gm.post(CREATE, refused).context["form"].errors
    assert {"name", "seed", "campaigns", "weekday", "ruleset", "battle_mode"} <= set(errors)
    assert djangos_words_in(errors) == []
    errors = gm.post(CREATE, {"name": "", "kind": "", "timezone": ""}).context["form"].errors
    assert {"name", "kind", "timezone"} <= set(errors)
    assert djangos_words_in(errors) == []


def test_a_campaign_length_the_turns_played_have_reached_is_refused(gm: Client) -> None:
    """The end phase ends a campaign after the turn that reaches its length: a length of
    the turns played or fewer would go on for another turn, so the next is the shortest."""
    campaign = new_campaign()
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    before = Campaign.objects.get().settings
    for short in (2, 3):
        response = gm.post(url(campaign, "settings"), settings_post(campaign, gm, turn_limit=short))
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert list(errors) == ["turn_limit"]
        assert errors["turn_limit"] == [
            "3 turns have been played: the campaign's length must be at least 4 (with 4, it "
            "ends after turn 4, the next)."
        ]
    assert Campaign.objects.get().settings == before
    assert GmAdjustment.objects.count() == 0
    response = gm.post(url(campaign, "settings"), settings_post(campaign, gm, turn_limit=4))
    assert response.status_code == 302
    advance_turn(campaign_id=campaign.pk)
    assert Campaign.objects.get().status == Campaign.Status.FINISHED


def test_a_problem_the_rules_find_is_shown_on_its_field(gm: Client) -> None:
    """The form lets the text through; the scenario check refuses its control character,
    and the page puts the problem on that face's words."""
    campaign = new_campaign()
    data = settings_post(campaign, gm, naval_table__6__text="a bell \x07 rings")
    response = gm.post(url(campaign, "settings"), data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["naval_table__6__text"]
    # In the GM's words from the problem's code (campaign.scenario_words), on its face:
    # not the checker's "must not hold the control character".
    assert list(errors["naval_table__6__text"]) == [
        "Face 6: what the players read must not hold an invisible control character "
        "(number 7): remove it."
    ]
    assert GmAdjustment.objects.count() == 0


def test_an_entry_keeps_only_the_fields_its_effect_takes(gm: Client) -> None:
    campaign = new_campaign()
    data = settings_post(
        campaign,
        gm,
        naval_table__1__effect="planes_lost",
        naval_table__1__count="2",
        naval_table__1__track="Korona track",  # planes_lost takes no track: dropped
        aerial_table__6__effect="none",  # takes no side: the side chosen is dropped
        aerial_table__6__text="",
    )
    assert gm.post(url(campaign, "settings"), data).status_code == 302
    settings = Campaign.objects.get().get_settings()
    assert settings.naval_table[1] == {
        "effect": "planes_lost",
        "side": "australian",
        "count": 2,
        "text": "An Australian convoy has fought off a Japanese attack.",
    }
    assert settings.aerial_table[6] == {"effect": "none"}


def test_the_gm_edits_the_combat_event_tables_one_row_a_face(gm: Client) -> None:
    campaign = new_campaign()
    data = settings_post(
        campaign,
        gm,
        combat_events="on",
        combat_event_table__6__effect="rally_own",
        combat_event_table__6__text="A brew-up steadies the men.",
    )
    assert gm.post(url(campaign, "settings"), data).status_code == 302
    settings = Campaign.objects.get().get_settings()
    assert settings.combat_events is True
    assert settings.combat_event_table[6] == {
        "effect": "rally_own",
        "text": "A brew-up steadies the men.",
    }


def test_a_combat_event_table_refuses_an_unknown_effect(gm: Client) -> None:
    campaign = new_campaign()
    data = settings_post(campaign, gm, japanese_event_table__2__effect="banzai_everyone")
    response = gm.post(url(campaign, "settings"), data)
    assert response.status_code == 200
    errors = str(response.context["form"].errors["japanese_event_table__2__effect"])
    assert "Choose face 2&#x27;s effect from the list." in errors
    assert GmAdjustment.objects.count() == 0


def test_settings_are_refused_to_a_player(player: Client) -> None:
    campaign = new_campaign()
    assert_refused(player.post(url(campaign, "settings"), {"turn_limit": 3, "reason": "x"}))
    assert Campaign.objects.get().get_settings().turn_limit == 20


# --- roll-back ----------------------------------------------------------------------------


def test_roll_back_restores_the_start_of_the_turn(gm: Client) -> None:
    campaign = new_campaign()
    for company in Company.objects.filter(campaign=campaign):
        company.standing_order = "aggressive"
        company.save()
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    turn_2 = Turn.objects.get(campaign=campaign, number=2)
    fought = Battle.objects.filter(campaign=campaign, turn__number=3).count()
    assert fought >= 2  # the preview's count is read from the battles, not pinned to them
    give_order(company=Company.objects.filter(campaign=campaign).first(), kind="hold")

    page = gm.get(url(campaign, "rollback"))
    # The latest turn is chosen, and the page says what rolling back to it undoes.
    assert page.context["form"]["number"].value() == 3
    assert page.context["preview"] == [
        f"Turn 3 (played), its {fought} battles: deleted.",
        "1 order given for turn 4 or later: deleted.",
        "Turn 3 has a new seed (its dice had been shown): drawn at random and committed to at "
        "once, so that no player knows the dice of a turn before giving its orders.",
        "The battles deleted are not fought again as they were: the turns played again roll "
        "new dice, so their moves, supply and battles may differ.",
    ]
    data = {
        **opened(gm, url(campaign, "rollback")),
        "number": 2,
        "reason": "wrong orders",
        "confirm": "on",
    }
    # Another turn than the page showed: its effects are shown first, nothing is changed.
    response = gm.post(url(campaign, "rollback"), data)
    assert response.status_code == 200
    assert response.context["preview"][-3] == "1 order given for turn 3 or later: deleted."
    assert response.context["preview"][-2].startswith("Turns 2 and 3 have new seeds")
    assert response.context["preview"][-1].startswith("The battles deleted are not fought")
    assert [line.split(" (")[0] for line in response.context["preview"][:-3]] == [
        "Turn 2",
        "Turn 3",
    ]
    assert "Nothing was rolled back yet" in response.content.decode()
    assert Campaign.objects.get().turn == 3
    response = gm.post(url(campaign, "rollback"), {**data, "previewed": 2})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.turn == 1
    assert campaign.status == Campaign.Status.ACTIVE
    assert load_snapshot(campaign=campaign) == parse_scenario(turn_2.start_state)
    assert list(Turn.objects.filter(campaign=campaign).values_list("number", flat=True)) == [1]
    assert not Battle.objects.filter(campaign=campaign, turn__number__gte=2).exists()
    assert not Order.objects.filter(campaign=campaign, turn_number__gt=2).exists()
    adjustment = GmAdjustment.objects.get()
    assert (adjustment.what, adjustment.reason, adjustment.before_turn) == (
        "Rolled back to the start of turn 2; turns 2 and 3 have new seeds (their dice had "
        "been shown)",
        "wrong orders",
        2,
    )
    # The campaign plays on from there, turn 2 from the new seed it was committed to.
    advance_turn(campaign_id=campaign.pk)
    assert Campaign.objects.get().turn == 2
    again = Turn.objects.get(campaign=campaign, number=2)
    assert again.seed != turn_2.seed
    assert again.seed == SeedCommitment.objects.get(campaign=campaign, number=2).seed


def test_a_roll_back_without_its_box_ticked_says_to_tick_it(gm: Client) -> None:
    """Not "This field is required." beside a checkbox (a walk-through)."""
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    data = {**opened(gm, url(campaign, "rollback")), "number": 1, "reason": "wrong orders"}

    response = gm.post(url(campaign, "rollback"), data)

    assert response.status_code == 200
    assert response.context["form"].errors["confirm"] == [
        "Tick this box to roll back: nothing was rolled back."
    ]
    assert Campaign.objects.get().turn == 1


def test_the_roll_back_preview_follows_the_choice_in_the_list(gm: Client) -> None:
    campaign = new_campaign()
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    page = gm.get(url(campaign, "rollback")).content.decode()
    # The list asks the page again for its choice's preview, with no inline script.
    assert f'hx-get="{url(campaign, "rollback")}"' in page
    assert 'hx-trigger="change"' in page and 'hx-select-oob="#id_previewed"' in page
    assert "<script>" not in page
    # What htmx sends when turn 1 is chosen: the preview of turn 1, and the hidden
    # "previewed" with it, so the next press rolls back to turn 1 at once.
    chosen = gm.get(url(campaign, "rollback"), {"number": "1"}, HTTP_HX_REQUEST="true")
    assert chosen.context["preview_title"] == "Rolling back to the start of turn 1 undoes"
    assert [line.split(" (")[0] for line in chosen.context["preview"][:3]] == [
        "Turn 1",
        "Turn 2",
        "Turn 3",
    ]
    fields = opened(gm, url(campaign, "rollback") + "?number=1")
    assert fields["previewed"] == "1"
    response = gm.post(
        url(campaign, "rollback"),
        {**fields, "number": 1, "reason": "wrong setup", "confirm": "on"},
    )
    assert response.status_code == 302
    assert Campaign.objects.get().turn == 0


@pytest.mark.parametrize("asked", ["9", "x", "", "99999999999999999999"])
def test_a_roll_back_preview_of_no_such_turn_shows_the_latest(gm: Client, asked: str) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    response = gm.get(url(campaign, "rollback"), {"number": asked})
    assert response.status_code == 200
    assert response.context["preview_title"] == "Rolling back to the start of turn 1 undoes"


def test_a_new_choice_sent_without_a_reason_still_shows_its_own_preview(gm: Client) -> None:
    """Without script: the first press, even with the form incomplete, shows the chosen
    turn's preview, says nothing was rolled back, and carries the choice as seen."""
    campaign = new_campaign()
    for _ in range(2):
        advance_turn(campaign_id=campaign.pk)
    fields = opened(gm, url(campaign, "rollback"))
    assert fields["previewed"] == "2"
    response = gm.post(url(campaign, "rollback"), {**fields, "number": 1})
    assert response.status_code == 200
    assert response.context["preview_title"] == "Rolling back to the start of turn 1 undoes"
    page = response.content.decode()
    assert "Nothing was rolled back yet: read what going back to turn 1 undoes" in page
    assert 'name="previewed" value="1"' in page
    assert Campaign.objects.get().turn == 2


def test_roll_back_needs_the_confirmation_and_a_reason(gm: Client) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    response = gm.post(
        url(campaign, "rollback"), {**opened(gm, url(campaign, "rollback")), "number": 1}
    )
    assert set(response.context["form"].errors) == {"reason", "confirm"}
    assert Campaign.objects.get().turn == 1


def test_roll_back_is_refused_to_a_player(player: Client) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    assert_refused(
        player.post(url(campaign, "rollback"), {"number": 1, "reason": "x", "confirm": "on"})
    )
    assert Campaign.objects.get().turn == 1


def test_the_gm_sets_the_battle_table_size_and_the_going_of_its_landforms(gm: Client) -> None:
    # Rulings section 4: the table "3 ft x 3 ft ... (setting: width and depth in feet)";
    # the going of each landform a setting with the rulings' as default (issue 13, 6, 8).
    campaign = new_campaign()
    form = settings_post(campaign, gm)
    assert (form["table_width_ft"], form["table_depth_ft"]) == (3, 3)
    going = {k: v for k, v in form.items() if k.startswith("landform_going__")}
    assert len(going) == 8  # every landform shown, at the rulings' going
    assert going["landform_going__mud_rocks_swamp"] == "rough"
    assert going["landform_going__steep_high_ridge"] == "bad"
    page = gm.get(url(campaign, "settings")).content.decode()
    assert "Going of each landform" in page and "mud/rocks/swamp" in page
    data = settings_post(
        campaign,
        gm,
        table_width_ft=4,
        table_depth_ft=2,
        landform_going__mud_rocks_swamp="bad",
    )
    assert gm.post(url(campaign, "settings"), data).status_code == 302
    settings = Campaign.objects.get().get_settings()
    assert (settings.table_width_ft, settings.table_depth_ft) == (4, 2)
    assert settings.landform_going == {"mud_rocks_swamp": "bad"}  # only the change is kept
    adjustment = GmAdjustment.objects.get()
    assert "Battle table width, in feet: 4 (before: 3)" in adjustment.what
    going_line = "Going of each landform: mud/rocks/swamp bad (before: as the rulings say)"
    assert going_line in adjustment.what
    # The page shows the changed going back, with the rulings' for the rest.
    again = settings_post(campaign, gm)
    assert again["landform_going__mud_rocks_swamp"] == "bad"
    assert again["landform_going__flat"] == "good"


def test_settings_saved_before_the_table_settings_existed_change_nothing_unasked(
    gm: Client,
) -> None:
    campaign = new_campaign()
    for key in ("table_width_ft", "table_depth_ft", "landform_going"):
        campaign.settings.pop(key, None)
    campaign.save()
    data = settings_post(campaign, gm, turn_limit=12)
    assert gm.post(url(campaign, "settings"), data).status_code == 302
    assert GmAdjustment.objects.get().what == (
        "Settings changed. Campaign length, in turns: 12 (before: 20)."
    )


@pytest.mark.parametrize(
    ("changes", "field", "problem"),
    [
        # The range in words, not "Ensure this value is less than or equal to 12."
        ({"table_width_ft": 13}, "table_width_ft", "Give a whole number from 1 to 12."),
        ({"table_depth_ft": 0}, "table_depth_ft", "Give a whole number from 1 to 12."),
        ({"table_width_ft": "wide"}, "table_width_ft", "Give a whole number from 1 to 12."),
        ({"landform_going__flat": "slow"}, "landform_going__flat", "Choose a going from the list."),
        ({"landform_going__hill": ""}, "landform_going__hill", "Choose a going from the list."),
    ],
)
def test_bad_table_settings_are_shown_and_nothing_changes(
    gm: Client, changes: dict[str, Any], field: str, problem: str
) -> None:
    campaign = new_campaign()
    before = Campaign.objects.get().settings
    response = gm.post(url(campaign, "settings"), settings_post(campaign, gm, **changes))
    assert response.status_code == 200
    assert problem in str(response.context["form"].errors[field])
    assert Campaign.objects.get().settings == before
    assert GmAdjustment.objects.count() == 0


def test_advance_turn_now_names_the_sides_not_ready_before_it_plays(
    gm: Client, django_user_model: Any
) -> None:
    """The GM's confirmation says whose orders may be unfinished, and that what they gave
    is played (a walk-through's GM could not tell whether a side's orders given but not
    marked ready would count); a side no player plays (the campaign AI's) is never among
    them."""
    campaign = new_campaign()
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    alone = "Play turn 1 of Korona 1 now? Its dice are rolled at once"
    assert alone in gm.get(page).content.decode()  # no player: nobody to wait for
    for side in ("australian", "japanese"):
        user = django_user_model.objects.create_user(side, password="pw")
        Membership.objects.create(campaign=campaign, user=user, side=side)
    mark_side_ready(campaign=campaign, side="australian")
    assert (
        "Play turn 1 of Korona 1 now? Not ready yet: Japanese (the orders given so far are "
        "played as they stand; a company given no order follows its standing order). Its dice "
        "are rolled at once" in gm.get(page).content.decode()
    )


def test_advance_turn_now_says_where_the_next_deadline_will_be(gm: Client, gm_user: Any) -> None:
    """A weekly schedule's deadline after "Advance turn now" is its next weekday and time,
    often the one already shown: a walk-through took it for a deadline not moved."""
    campaign = new_campaign()
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    assert "next turn&#x27;s deadline" not in gm.get(page).content.decode()  # no schedule
    play_sunday_evenings(campaign, gm_user)
    after = next_deadline_after(SUNDAY_EVENINGS, timezone.now())
    assert after is not None
    said = html.unescape(gm.get(page).content.decode())
    assert (
        f"The next turn's deadline is then {moment_words(after, 'Australia/Sydney')} "
        "(a turn every Sunday at 19:00 (Australia/Sydney), counted from the end of this one)."
    ) in said


def test_a_turn_waiting_for_its_battles_is_not_called_next_nor_waits_for_the_players(
    gm: Client, django_user_model: Any
) -> None:
    """Turn 1 has begun and waits for its tabletop results: the campaign's pages say so,
    and no side is "not ready" (its orders were in when it began)."""
    user = django_user_model.objects.create_user("aussie", password="pw")
    campaign, _ = waiting_campaign()
    Membership.objects.create(campaign=campaign, user=user, side="australian")
    change = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert "0 played; turn 1 waits for its battles&#x27; results" in change
    assert "next: turn 1" not in change
    listed = gm.get("/admin/campaign/campaign/").content.decode()
    assert "0 played; turn 1 waits for its battles&#x27; results" in listed
    home = gm.get("/admin/").content.decode()
    # It waits for the GM, not for a worker: "being played" read as something under way.
    assert "— (turn 1 began with the orders given; it waits for your results above)" in home
    assert "Not ready yet</span>" not in home and ">Australians</td>" not in home


def test_a_turn_waiting_for_its_results_offers_its_result_forms_not_advance(gm: Client) -> None:
    """Advancing is refused while a turn waits for its battles: the page does not offer
    it, and links each battle's result form instead."""
    campaign, battles = waiting_campaign()
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert "Advance turn now" not in page
    assert "none: the turn is played once you enter its battles&#x27; results" in page
    assert "Turn 1 waits for its battles' results</strong>" in page
    # Each battle by who attacks whom, as the GM's email names it: "battle 1 at Korona"
    # and "battle 2 at Korona" could not be told apart.
    for key, who in WHO_ATTACKS_WHOM.items():
        result = f"/admin/battles/battle/{battles[key].pk}/result/"
        assert f'<a href="{result}">Enter the result of the battle at {who}</a>' in page
        home = gm.get("/admin/").content.decode()
        assert f'<a href="{result}">Enter the result of the battle at {who}</a>' in home
    for battle in battles.values():
        fight_battle_now(battle_id=battle.pk)
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert 'value="Advance turn now"' in page and "waits for its battles" not in page


def test_advance_turn_now_in_tabletop_mode_says_the_battles_will_wait(gm: Client) -> None:
    campaign = new_campaign(battle_mode="tabletop")
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert "every player sees the result. Its battles then wait for you to enter" in page
    auto = new_campaign("Korona 2")
    assert (
        "Its battles then wait"
        not in gm.get(f"/admin/campaign/campaign/{auto.pk}/change/").content.decode()
    )


@pytest.mark.parametrize(
    ("unentered", "then"),
    [
        ("wait", "if none is entered by then, the campaign waits for your result, however long."),
        ("auto", "if none is entered by then, the computer fights it by the rules."),
    ],
)
def test_advance_turn_now_at_the_table_says_by_when_the_results_are_wanted(
    gm: Client, gm_user: Any, unentered: str, then: str
) -> None:
    """A walk's GM could not tell whether a tabletop result was due: the question says by
    when it is wanted and what the campaign's setting does then."""
    campaign = new_campaign(battle_mode="tabletop", unentered_tabletop=unentered)
    play_sunday_evenings(campaign, gm_user)
    wanted = next_deadline_after(SUNDAY_EVENINGS, timezone.now())
    assert wanted is not None
    said = html.unescape(gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode())
    assert (
        "Its battles then wait for you to enter their results, wanted by "
        f"{moment_words(wanted, 'Australia/Sydney')}: {then}"
    ) in said


def test_the_home_page_says_by_when_a_waiting_turns_results_are_wanted(
    gm: Client, gm_user: Any
) -> None:
    """The GM's campaign page gave the results' "wanted by" time and what follows it;
    the home page listed the battles to enter with neither."""
    campaign = new_campaign(battle_mode="tabletop", doc=meeting_doc())
    play_sunday_evenings(campaign, gm_user)
    advance_turn(campaign_id=campaign.pk)
    (wanted,) = {b.deadline for b in Battle.objects.filter(campaign=campaign)}
    assert wanted is not None
    home = html.unescape(gm.get("/admin/").content.decode())
    assert (
        "fight these at the table, then enter each result. Results wanted by "
        f"{moment_words(wanted, 'Australia/Sydney')}: if none is entered by then, the campaign "
        "waits for your result, however long."
    ) in home
    # With no schedule the battles have no deadline, and the home page gives none.
    waiting_campaign("Korona 2")
    home = html.unescape(gm.get("/admin/").content.decode())
    assert home.count("Results wanted by") == 1


def test_a_finished_campaigns_page_says_how_it_ended_as_the_players_read_it(gm: Client) -> None:
    """The players' sentence, not the engine's end_reason beside the winner's key."""
    campaign = new_campaign(turn_limit=1)
    advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    said = "The Australians won: they held Korona when its one turn was up."
    assert f'<div class="readonly">{said}</div>' in page
    assert campaign.end_reason not in page
    assert "field-winner" not in page and "field-end_reason" not in page
