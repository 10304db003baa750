"""Every changelist of the GM's admin, in a fixed number of queries whatever the size of
the campaign (the Korona campaign, and the same with ten times its companies)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from battles.models import Battle
from campaign.admin_home import deadline_words
from campaign.models import AirGroup, Area, Campaign, Company, Link, Ship, Turn
from campaign.services.campaigns import set_paused
from campaign.services.turns import advance_turn
from tests.admin.conftest import (
    assert_refused,
    new_campaign,
    play_sunday_evenings,
    waiting_campaign,
)
from tests.campaign.conftest import korona_doc, with_more_companies

pytestmark = pytest.mark.django_db

# Every changelist starts with the user (the session comes from the cache), then (on each
# page with a "campaign" filter) the campaigns for that filter; the list itself is COUNT(*)
# of the filtered rows, COUNT(*) of all rows (the "N total" link) and one SELECT of the page,
# with its related rows joined (list_select_related) and its sums and counts annotated.
SESSION_AND_USER = 1
COUNTS_AND_PAGE = 3
CHANGELIST_QUERIES = {
    # No campaign filter; the pending battles are an annotated COUNT in the page query;
    # + the page's campaigns' sides (prefetched), which the ending names.
    "/admin/campaign/campaign/": SESSION_AND_USER + COUNTS_AND_PAGE + 1,
    # + the campaign filter, + the DISTINCT zones for the zone filter.
    "/admin/campaign/area/": SESSION_AND_USER + 1 + COUNTS_AND_PAGE + 1,
    "/admin/campaign/link/": SESSION_AND_USER + 1 + COUNTS_AND_PAGE,
    # Stands held and establishment are SUMs annotated on the page query.
    "/admin/campaign/company/": SESSION_AND_USER + 1 + COUNTS_AND_PAGE,
    "/admin/campaign/ship/": SESSION_AND_USER + 1 + COUNTS_AND_PAGE,
    "/admin/campaign/airgroup/": SESSION_AND_USER + 1 + COUNTS_AND_PAGE,
    # The battle count per turn is annotated.
    "/admin/campaign/turn/": SESSION_AND_USER + 1 + COUNTS_AND_PAGE,
    # + the DISTINCT turn numbers for the turn filter.
    "/admin/campaign/order/": SESSION_AND_USER + 1 + COUNTS_AND_PAGE + 1,
    "/admin/campaign/gmadjustment/": SESSION_AND_USER + 1 + COUNTS_AND_PAGE,
    # The turn, its campaign and the area joined; + the page's attacking companies, its
    # defending ones and its campaigns' sides, for who attacks whom on each row.
    "/admin/battles/battle/": SESSION_AND_USER + 1 + COUNTS_AND_PAGE + 3,
}


@pytest.mark.parametrize("times", [1, 10])
@pytest.mark.parametrize("url", list(CHANGELIST_QUERIES))
def test_changelist_takes_the_same_queries_however_many_companies(
    url: str, times: int, gm: Client, django_assert_num_queries: Any
) -> None:
    campaign = new_campaign(doc=with_more_companies(korona_doc(), times=times))
    advance_turn(campaign_id=campaign.pk)
    waiting_campaign("Korona 2")  # two pending battles
    with django_assert_num_queries(CHANGELIST_QUERIES[url]):
        response = gm.get(url)
    assert response.status_code == 200


@pytest.mark.parametrize("url", list(CHANGELIST_QUERIES))
def test_changelist_is_refused_to_a_player(url: str, player: Client) -> None:
    assert_refused(player.get(url))


def test_campaign_list_shows_turn_status_battles_waiting_and_winner(gm: Client) -> None:
    waiting_campaign("Korona 2")
    new_campaign("Korona 1")
    page = gm.get("/admin/campaign/campaign/").content.decode()
    assert "Create a campaign" in page
    rows = page.split("<tbody>")[1]
    # Korona 1: turn 0, active, no battles waiting; Korona 2: 2 pending tabletop battles.
    assert '<td class="field-battles_waiting">2</td>' in rows
    assert '<td class="field-battles_waiting">0</td>' in rows


def test_campaign_list_says_how_a_campaign_ended_as_the_players_read_it(gm: Client) -> None:
    """Not the engine's end_reason nor the winner's key: the players' sentence."""
    ended = new_campaign("Korona 1", turn_limit=1)
    advance_turn(campaign_id=ended.pk)
    ended.refresh_from_db()
    assert ended.status == Campaign.Status.FINISHED
    new_campaign("Korona 2")
    page = gm.get("/admin/campaign/campaign/").content.decode()
    rows = page.split("<tbody>")[1]
    said = "The Australians won: they held Korona when its one turn was up."
    assert f'<td class="field-ending_words">{said}</td>' in rows
    # Korona 2 goes on: said so ("-" read as a value missing).
    assert '<td class="field-ending_words">not yet: still being played</td>' in rows
    assert ended.end_reason not in rows
    assert "field-winner" not in page
    sorted_page = gm.get("/admin/campaign/campaign/?o=6").content.decode()
    assert sorted_page.count("field-ending_words") == 2  # sortable: the column's 6th


def test_the_campaign_page_says_an_active_or_paused_campaign_has_not_ended(
    gm: Client,
) -> None:
    """The walk read "Ending: -" on an active campaign's page."""
    from campaign.services.campaigns import set_paused

    campaign = new_campaign("Korona 1")
    url = f"/admin/campaign/campaign/{campaign.pk}/change/"
    page = gm.get(url).content.decode()
    assert "not yet: still being played" in page
    set_paused(campaign=campaign, paused=True, reason="holidays")
    assert "not yet: paused, still being played" in gm.get(url).content.decode()


def test_campaign_list_gives_each_next_deadline_as_the_campaign_page_does(
    gm: Client, gm_user: Any
) -> None:
    """On the campaign's own clock, as its page says it; a paused, an ended and an
    unscheduled campaign say so in a word."""
    scheduled = new_campaign("Korona 1")
    play_sunday_evenings(scheduled, gm_user)
    paused = new_campaign("Korona 2")
    play_sunday_evenings(paused, gm_user)
    set_paused(campaign=paused, paused=True, reason="holidays")
    ended = new_campaign("Korona 3", turn_limit=1)
    advance_turn(campaign_id=ended.pk)
    new_campaign("Korona 4")  # no schedule: the GM plays each turn
    scheduled.refresh_from_db()
    said = deadline_words(scheduled)
    assert said.startswith("Sun ") and said.endswith(("AEDT", "AEST"))
    page = gm.get("/admin/campaign/campaign/").content.decode()
    assert "<th" in page and ">Next deadline</a>" in page  # sortable
    shown = re.findall(r'<td class="field-deadline_shown">([^<]*)</td>', page)
    assert sorted(shown) == sorted([said, "paused", "ended", "none"])
    campaign_page = gm.get(f"/admin/campaign/campaign/{scheduled.pk}/change/").content.decode()
    assert said in campaign_page


def test_company_list_shows_stands_held_of_establishment(gm: Client) -> None:
    new_campaign()
    page = gm.get("/admin/campaign/company/?q=A+Company").content.decode()
    assert '<td class="field-stands">' in page
    assert "12/12" in page


def test_company_list_gives_kind_and_quality_in_one_column(gm: Client) -> None:
    """A supply company has no quality: two columns were one too many at 1280 px."""
    new_campaign()
    page = gm.get("/admin/campaign/company/").content.decode()
    assert '<td class="field-kind_words">fighting (trained)</td>' in page
    assert '<td class="field-kind_words">supply</td>' in page
    assert "field-quality" not in page


def test_company_list_says_supply_in_words(gm: Client) -> None:
    """Not the admin's "?" icon for a company with no roll (a walk-through)."""
    campaign = new_campaign()
    page = gm.get("/admin/campaign/company/").content.decode()
    assert "icon-unknown" not in page
    assert page.count("no roll yet") == 6 and page.count("not rolled: a supply company") == 2
    advance_turn(campaign_id=campaign.pk)
    rows = {c.name: c for c in Company.objects.filter(campaign=campaign, kind="fighting")}
    page = gm.get(f"/admin/campaign/company/{rows['A Company'].pk}/change/").content.decode()
    said = "yes" if rows["A Company"].in_supply else "no: this turn"
    assert f'<div class="readonly">{said}</div>' in page


def test_every_page_of_a_row_opens(gm: Client) -> None:
    waiting_campaign("Korona 2")
    for model in (Campaign, Area, Link, Company, Ship, AirGroup, Turn, Battle):
        row = model.objects.first()
        base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/{row.pk}"
        assert gm.get(f"{base}/change/").status_code == 200, model
        assert gm.get(f"{base}/history/").status_code == 200, model
    campaign = Campaign.objects.get()
    for page in ("settings", "rollback"):
        assert gm.get(f"/admin/campaign/campaign/{campaign.pk}/{page}/").status_code == 200
    for model in (Area, Company, Ship):
        row = model.objects.first()
        assert (
            gm.get(f"/admin/campaign/{model._meta.model_name}/{row.pk}/adjust/").status_code == 200
        )
    assert gm.get("/admin/campaign/order/add/").status_code == 200
    assert gm.get("/admin/campaign/campaign/create/").status_code == 200


def test_turn_list_says_a_turn_without_battles_had_none(gm: Client) -> None:
    """Not "0 of 0" battles with a result (a walk-through)."""
    waiting_campaign("Korona 2")
    quiet = new_campaign("Korona 1")
    Turn.objects.create(campaign=quiet, number=1, seed=1, status=Turn.Status.DONE)
    page = gm.get("/admin/campaign/turn/").content.decode()
    assert '<td class="field-battles">no battles</td>' in page
    assert '<td class="field-battles">0 of 2</td>' in page
    assert "0 of 0" not in page
