"""The admin's Balance button: a scenario's campaigns simulated in the background
(campaign.services.balance), the page polling their progress, then the figures."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.campaign.test_balance import short_doc


def upload(doc: Any) -> SimpleUploadedFile:
    return SimpleUploadedFile("korona.json", json.dumps(doc).encode(), "application/json")


@pytest.mark.django_db
def test_the_upload_page_has_a_balance_button(gm: Client) -> None:
    html = gm.get("/admin/campaign/campaign/create/").content.decode()
    assert 'value="Balance" formaction="/admin/campaign/campaign/balance/"' in html


@pytest.mark.django_db
def test_balance_runs_in_the_background_and_the_page_polls_its_progress(gm: Client) -> None:
    response = gm.post(
        "/admin/campaign/campaign/balance/", {"scenario": upload(short_doc()), "campaigns": 2}
    )
    assert response.status_code == 302
    job = response.url
    page = gm.get(job).content.decode()
    assert "2 campaigns of Korona" in page
    status: dict[str, Any] = {}
    for _ in range(600):
        status = gm.get(job + "?format=json").json()
        if status["finished"]:
            break
        assert 0 <= status["done"] <= status["total"] == 2
        time.sleep(0.1)
    assert status["finished"] and status["error"] is None
    assert status["result"]["campaigns"] == 2
    page = gm.get(job).content.decode()
    assert "Likely share (95% interval)" in page and "A campaign lasted" in page
    assert "<progress" not in page


@pytest.mark.django_db
def test_a_bad_scenario_lists_its_faults_and_starts_nothing(gm: Client) -> None:
    doc = short_doc()
    doc["companies"][0]["quality"] = "elite"
    response = gm.post(
        "/admin/campaign/campaign/balance/", {"scenario": upload(doc), "campaigns": 2}
    )
    assert response.status_code == 200
    page = response.content.decode()
    name = doc["companies"][0]["name"]
    assert (
        f"{name}: its quality must be one of raw, trained, veteran, not &#x27;elite&#x27;." in page
    )
    assert "companies[" not in page  # the GM's words, not the checker's places


@pytest.mark.django_db
def test_a_refused_file_must_be_chosen_again_and_the_balance_page_says_so(gm: Client) -> None:
    choose = "Choose the file again after fixing it: a browser does not keep a chosen file."
    doc = short_doc()
    doc["companies"][0]["area"] = "Atlantis"
    balance = "/admin/campaign/campaign/balance/"
    assert choose in gm.post(balance, {"scenario": upload(doc), "campaigns": 2}).content.decode()
    not_json = SimpleUploadedFile("korona.json", b"{no json", "application/json")
    assert choose in gm.post(balance, {"scenario": not_json, "campaigns": 2}).content.decode()
    # No file chosen (the Korona scenario) and a bad count: no file to choose again.
    response = gm.post(balance, {"campaigns": 0})
    assert response.context["form"].errors
    assert choose not in response.content.decode()


@pytest.mark.django_db
def test_a_bad_count_is_a_form_error(gm: Client) -> None:
    response = gm.post(
        "/admin/campaign/campaign/balance/", {"scenario": upload(short_doc()), "campaigns": 0}
    )
    assert response.status_code == 200
    assert "Give the number of campaigns to play as a whole number from 1 to 1000." in (
        response.content.decode()
    )


@pytest.mark.django_db
def test_an_unknown_job_is_404_and_players_are_kept_out(gm: Client, player: Client) -> None:
    gone = gm.get("/admin/campaign/campaign/balance/0123abcd/")
    assert gone.status_code == 404
    # A balance no longer kept says so in the admin's frame, not "There is nothing here";
    # the page's poll is told too, and stops (stale).
    page = gone.content.decode()
    assert "This balance is no longer kept" in page and "kept for 24 hours" in page
    assert "Balance a scenario" in page and "There is nothing here" not in page
    poll = gm.get("/admin/campaign/campaign/balance/0123abcd/?format=json")
    assert poll.status_code == 404 and poll.json()["stale"] is True
    assert "no longer kept" in poll.json()["detail"]
    response = player.get("/admin/campaign/campaign/balance/")
    assert response.status_code == 302 and "/admin/login/" in response.url


def finished(gm: Client, form: dict[str, Any]) -> str:
    response = gm.post("/admin/campaign/campaign/balance/", form)
    assert response.status_code == 302
    for _ in range(600):
        if gm.get(response.url + "?format=json").json()["finished"]:
            break
        time.sleep(0.1)
    return gm.get(response.url).content.decode()


@pytest.mark.django_db
def test_the_balance_result_is_a_table_in_words_and_percent(gm: Client) -> None:
    page = finished(gm, {"scenario": upload(short_doc()), "campaigns": 2, "seed": 7})
    assert "2 campaigns of Korona, the sensible AI on both sides, seed 7." in page
    assert "<caption>Who wins</caption>" in page
    assert '<th scope="col">Likely share (95% interval)</th>' in page
    assert '<th scope="row">The Australians</th><td>' in page
    assert re.search(r"<td>\d+%</td><td>\d+% to \d+%</td>", page)
    assert "<caption>How often each area changed hands</caption>" in page
    assert re.search(r'<th scope="row">Korona</th><td>(never|[\d.]+ times a campaign)</td>', page)
    assert "<pre" not in page and "changes of hands per campaign" not in page
    assert "Only 2 campaigns: too few to judge the scenario by." in page
    assert "Balance 100 or more for a fair picture." in page
    # Once, in the result (a walk-through read it twice: its script read the messages
    # area, then the page, which holds the warning styled as a message, again).
    assert page.count("too few to judge the scenario by") == 1


def test_a_balance_of_enough_campaigns_gives_no_warning() -> None:
    from campaign.admin import FEW_CAMPAIGNS, balance_tables, few_words

    assert few_words(FEW_CAMPAIGNS) == "" and balance_tables({"campaigns": 100})["few"] == ""
    assert few_words(1).startswith("One campaign: too few to judge the scenario by.")
    assert "what did not happen in it may still happen" in few_words(1)


@pytest.mark.django_db
def test_a_balance_without_a_seed_says_it_drew_one(gm: Client) -> None:
    page = finished(gm, {"scenario": upload(short_doc()), "campaigns": 1})
    assert "seed 0" not in page
    assert re.search(r"the sensible AI on both sides, a random seed \(\d+\)\.", page)


@pytest.mark.django_db
def test_the_top_of_the_form_counts_the_problems_it_lists_not_the_boxes(gm: Client) -> None:
    """Two faults of one file are both the form's own problems: "the 2 problems below",
    not "the problem below" (a count of the boxes with problems)."""
    doc = short_doc()
    doc["companies"][0]["quality"] = "elite"
    doc["companies"][1]["area"] = "Atlantis"
    response = gm.post(
        "/admin/campaign/campaign/balance/", {"scenario": upload(doc), "campaigns": 2}
    )
    assert len(response.context["form"].non_field_errors()) == 2
    page = response.content.decode()
    assert "Please correct the 2 problems below." in page
    assert "Please correct the problem below." not in page


@pytest.mark.django_db
def test_a_balance_under_way_says_about_how_long_is_left(gm: Client) -> None:
    from django.core.cache import cache

    now = time.time()
    cache.set(
        "korona:balance:0123abcd",
        {
            "job": "0123abcd",
            "scenario": "Korona",
            "done": 10,
            "total": 100,
            "seed": 0,
            "seed_drawn": False,
            "result": None,
            "lines": [],
            "error": None,
            "started": now - 100,
            "updated": now,
        },
    )
    page = gm.get("/admin/campaign/campaign/balance/0123abcd/").content.decode()
    assert "10 of 100 campaigns played… about 15 minutes left." in page
    status = gm.get("/admin/campaign/campaign/balance/0123abcd/?format=json").json()
    assert status["left"] == "about 15 minutes left"
