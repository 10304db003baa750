"""Bad scenario input through each door, the admin's upload, the command and the service:
a clear error naming the field, nothing written, never a traceback. The bounds are the
scenario checker's (rules.campaign.scenario), so every door refuses the same things."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import URLResolver, get_resolver

from campaign.models import Campaign, GmAdjustment
from campaign.services.scenarios import create_campaign
from rules.campaign.scenario import ScenarioError
from tests.admin.conftest import new_campaign
from tests.admin.test_campaign_admin import CREATE, upload, url
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db

DEEP = '{"name": ' + "[" * 100_000 + "]" * 100_000 + "}"


def long_names() -> dict[str, Any]:
    doc = korona_doc()
    doc["companies"][0]["name"] = "x" * 300
    doc["ships"][0]["name"] = "y" * 10_000_000
    doc["sides"][0]["name"] = "Aus\x00tralians"
    return doc


def test_the_admin_refuses_deeply_nested_json(gm: Client) -> None:
    response = gm.post(CREATE, upload(DEEP))
    assert response.status_code == 200
    assert str(response.context["form"].errors["scenario"]) == (
        '<ul class="errorlist" id="id_scenario_error"><li>This file is nested too deep to be a '
        "scenario: more than 16 brackets and braces inside one another.</li></ul>"
    )
    assert Campaign.objects.count() == 0


def test_the_admin_refuses_long_names_and_nul_bytes(gm: Client) -> None:
    response = gm.post(CREATE, upload(long_names()))
    assert response.status_code == 200
    page = response.content.decode()
    assert len(page) < 200_000  # the ten-megabyte name is not echoed back
    problems = list(response.context["form"].errors["scenario"]) + list(
        response.context["form"].non_field_errors()
    )
    assert problems == ["The file is larger than 2000000 bytes."]
    doc = long_names()
    doc["ships"][0]["name"] = "y" * 30_000
    response = gm.post(CREATE, upload(doc))
    assert list(response.context["form"].errors["scenario"]) == [
        "The 1st ship in the file: its name is longer than 20,000 characters, more than any "
        "text of a scenario."
    ]
    doc = long_names()
    doc["ships"][0]["name"] = "Lakatoi"
    response = gm.post(CREATE, upload(doc))
    assert list(response.context["form"].errors["scenario"]) == [
        "The 1st side in the file: its name holds a NUL character (code 0), which Korona "
        "cannot store: remove it."
    ]
    doc["sides"][0]["name"] = "Australians"
    response = gm.post(CREATE, upload(doc))
    assert list(response.context["form"].non_field_errors()) == [
        "The 1st company in the file: its name must be at most 100 characters, not 300: shorten it."
    ]
    assert Campaign.objects.count() == 0


def test_the_admin_refuses_a_turn_limit_of_ten_to_the_thirty(gm: Client) -> None:
    doc = korona_doc()
    doc["settings"] = {"turn_limit": 10**30}
    response = gm.post(CREATE, upload(doc))
    assert list(response.context["form"].non_field_errors()) == [
        # In the GM's words (scenario_words), not the checker's "settings.turn_limit: ...".
        f"The setting Campaign length, in turns: must be from 1 to 1000, not {10**30}."
    ]
    assert Campaign.objects.count() == 0


def test_the_admins_settings_refuse_huge_and_unknown_values_each_on_its_field(gm: Client) -> None:
    campaign = new_campaign()
    page = gm.get(url(campaign, "settings"))
    data = {f.name: f.value() for f in page.context["form"] if f.value() not in (None, False)}
    data["naval_table__3__text"] = "x" * 100_000
    data["naval_table__4__effect"] = "sink_everything"
    data["aerial_table__1__count"] = str(10**30)
    data["reason"] = "testing"
    response = gm.post(url(campaign, "settings"), data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors["naval_table__3__text"]) == [
        "face 3: what the players read must be at most 500 characters: shorten it."
    ]
    assert list(errors["naval_table__4__effect"]) == ["Choose face 4's effect from the list."]
    assert list(errors["aerial_table__1__count"]) == [
        "face 1: give the Buffalos lost as a whole number from 1 to 100 (a side never has "
        "more than 100 planes)"
    ]
    before = campaign.settings
    campaign.refresh_from_db()
    assert campaign.settings == before
    assert not GmAdjustment.objects.exists()


@pytest.mark.parametrize("count", ["0", "-3", "101", "two"])
def test_an_event_tables_count_out_of_range_says_its_limit_in_words(gm: Client, count: str) -> None:
    """Not Django's "Ensure this value is less than or equal to 100.": the field counts
    the Buffalos the face takes from the RAAF, and why it stops at 100."""
    campaign = new_campaign()
    page = gm.get(url(campaign, "settings"))
    data = {f.name: f.value() for f in page.context["form"] if f.value() not in (None, False)}
    data["naval_table__2__count"] = count
    data["reason"] = "testing"
    response = gm.post(url(campaign, "settings"), data)
    assert response.status_code == 200
    assert list(response.context["form"].errors["naval_table__2__count"]) == [
        "face 2: give the Buffalos lost as a whole number from 1 to 100 (a side never has "
        "more than 100 planes)"
    ]
    assert "Ensure this value" not in response.content.decode()


def test_the_admins_settings_refuse_a_turn_limit_of_ten_to_the_thirty(gm: Client) -> None:
    campaign = new_campaign()
    page = gm.get(url(campaign, "settings"))
    data = {f.name: f.value() for f in page.context["form"] if f.value() not in (None, False)}
    data["turn_limit"] = str(10**30)
    data["reason"] = "testing"
    response = gm.post(url(campaign, "settings"), data)
    assert response.status_code == 200
    assert "Give a whole number from 1 to 1000." in str(
        response.context["form"].errors["turn_limit"]
    )
    before = campaign.settings
    campaign.refresh_from_db()
    assert campaign.settings == before
    assert not GmAdjustment.objects.exists()


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_command_refuses_deep_json(tmp_path: Path) -> None:
    path = write(tmp_path, DEEP)
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 problem; no campaign created"):
        call_command("create_campaign", "--scenario", path, "--name", "Deep", stderr=err)
    assert err.getvalue() == f"{path}: nested more than 16 deep\n"
    assert Campaign.objects.count() == 0


def test_the_command_refuses_a_zone_of_ten_to_the_thirty(tmp_path: Path) -> None:
    doc = korona_doc()
    doc["areas"][0]["zone"] = 10**30
    path = write(tmp_path, json.dumps(doc))
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("create_campaign", "--scenario", path, "--name", "Big", stderr=err)
    assert err.getvalue() == f"areas[0] (Port Murray).zone: must be from 0 to 100, not {10**30}\n"
    assert Campaign.objects.count() == 0


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("n" * 201, "the campaign's name must be at most 200 characters, not 201"),
        ("Kor\x00ona", "the campaign's name must not hold the control character '\\x00'"),
        ("   ", "a campaign needs a name"),
    ],
)
def test_the_campaigns_name_is_checked_by_the_service(name: str, problem: str) -> None:
    with pytest.raises(ValueError) as caught:
        create_campaign(data=korona_doc(), name=name)
    assert str(caught.value) == problem
    assert Campaign.objects.count() == 0


def test_the_service_refuses_a_deep_document_without_a_traceback() -> None:
    nested: Any = "x"
    for _ in range(5000):
        nested = [nested]
    doc = korona_doc()
    doc["name"] = nested
    with pytest.raises(ScenarioError) as caught:
        create_campaign(data=doc, name="Deep")
    [problem] = caught.value.problems
    assert problem.endswith("is nested more than 16 deep")
    assert Campaign.objects.count() == 0


# --- every admin address, with ids that are none and hostile queries: no 5xx ---------------


def admin_routes() -> list[str]:
    found: list[str] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            route = str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + route)
            elif not route.startswith("^"):
                found.append(prefix + route)

    for pattern in get_resolver().url_patterns:
        if str(pattern.pattern) == "admin/":
            walk(pattern.url_patterns, "/admin/")
    return found


def test_every_admin_address_answers_bad_ids_and_queries_without_a_server_error(
    gm: Client,
) -> None:
    new_campaign()
    gm.raise_request_exception = False
    hostile = "?q=%00&o=999&p=" + str(10**30) + "&campaign__id__exact=" + str(10**30)
    routes = admin_routes()
    assert len(routes) > 50
    failures = []
    for route in routes:
        for value, query in [("1", hostile), ("x%00", ""), (str(10**30), ""), ("-1", "")]:
            address = re.sub(r"<(?:\w+:)?\w+>", value, route) + query
            answer = gm.get(address)
            if answer.status_code >= 500:
                failures.append((address, answer.status_code))
    assert failures == []


# --- a changelist action on rows that are none: a message, nothing done ---------------------


@pytest.mark.parametrize("selected", [["x"], ["\x00"], [str(10**30)], ["1", "x"]])
@pytest.mark.parametrize(
    ("address", "action"),
    [
        ("/admin/campaign/campaign/", "pause"),
        ("/admin/campaign/campaign/", "advance_now"),
        ("/admin/campaign/company/", "standing_order_hold"),
        ("/admin/campaign/order/", "cancel_order"),
        ("/admin/auth/user/", "delete_selected"),
    ],
)
def test_an_action_on_rows_that_are_none_is_refused_not_a_server_error(
    gm: Client, address: str, action: str, selected: list[str]
) -> None:
    # Django's admin filters the rows by pk__in=the posted values unchecked: 'x' was a
    # ValueError, 10**30 an OverflowError on SQLite, both 500s.
    campaign = new_campaign()
    gm.raise_request_exception = False
    answer = gm.post(address, {"action": action, "_selected_action": selected}, follow=True)
    assert answer.status_code == 200
    said = [str(m) for m in answer.context["messages"]]
    assert said == [
        "Nothing was done: the rows chosen are not rows of this list. Reload the page and "
        "choose again."
    ]
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ACTIVE
    assert Campaign.objects.count() == 1
