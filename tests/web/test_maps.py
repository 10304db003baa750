"""The map pages: the campaign list, the map and its live poll, an area, a company.

Who gets in (GM, each side, strangers, the signed-out), what each sees, one test per
way the pages could leak what the fog of war hides, and the pinned query counts."""

from __future__ import annotations

import dataclasses
import html
import re
from datetime import UTC, datetime
from typing import Any
from unittest.mock import patch

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Battle
from campaign.models import SPECTATOR, Area, Campaign, Company, Turn
from campaign.services.adjustments import set_control
from campaign.services.campaigns import set_paused
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import set_schedule
from campaign.services.turns import advance_turn
from campaign.services.visibility import campaign_stamp, open_campaign
from campaign.web.maps import MapStamp, map_stamp
from campaign.web.turnlog import record_words
from rules.campaign import visibility as fog
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join, whole_json_read

pytestmark = pytest.mark.django_db


def company(campaign: Campaign, name: str) -> Company:
    return Company.objects.get(campaign=campaign, name=name)


def area(campaign: Campaign, name: str) -> Area:
    return Area.objects.get(campaign=campaign, name=name)


def map_url(campaign: Campaign) -> str:
    return reverse("campaign-map", args=[campaign.pk])


def area_url(campaign: Campaign, name: str) -> str:
    return reverse("area", args=[campaign.pk, area(campaign, name).pk])


def company_url(campaign: Campaign, name: str) -> str:
    return reverse("company", args=[campaign.pk, company(campaign, name).pk])


def live_url(campaign: Campaign, seen: str = "") -> str:
    return f"{reverse('campaign-map-live', args=[campaign.pk])}?seen={seen}"


def text(response: Any) -> str:
    return response.content.decode()


def svg_of(page: str) -> str:
    return page[page.index("<svg") : page.index("</svg>") + 6]


def list_of(page: str) -> str:
    """The list of areas and forces below the map."""
    return page[page.index("Areas and forces") :]


def mentions(page: str, name: str, campaign: Campaign) -> bool:
    """Does the page name this company (not merely a longer name that holds it, as "1st
    Supply Company" holds "Supply Company")?"""
    longer = Company.objects.filter(campaign=campaign, name__contains=name).exclude(name=name)
    return page.count(name) > sum(page.count(other.name) for other in longer)


def in_sight(user: Any, campaign: Campaign) -> tuple[list[str], list[str]]:
    """(names of enemy companies glimpsed, names of enemy companies hidden) for a user."""
    view = open_campaign(user=user, campaign=campaign)
    glimpsed = [name for name in view.state.companies if view.glimpse_of(name) is not None]
    hidden = [
        name
        for name in view.state.companies
        if view.company(name) is None and view.glimpse_of(name) is None
    ]
    return glimpsed, hidden


def glimpse_url(user: Any, campaign: Campaign, name: str) -> str:
    """The page of the user's glimpse of the company ``name`` (by its handle)."""
    seen = open_campaign(user=user, campaign=campaign).glimpse_of(name)
    assert seen is not None and seen.glimpse is not None, name
    return reverse("glimpse", args=[campaign.pk, seen.glimpse])


# --- who gets in ------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["map", "area", "company"])
def test_the_signed_out_are_sent_to_the_login_page(played: Campaign, page: str) -> None:
    url = {
        "map": map_url(played),
        "area": area_url(played, "Korona"),
        "company": company_url(played, "A Company"),
    }[page]
    response = Client().get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_signed_out_are_sent_from_the_campaign_list_to_the_login_page(db: Any) -> None:
    response = Client().get(reverse("campaigns"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={reverse('campaigns')}"


@pytest.mark.parametrize("page", ["map", "area", "company", "live"])
def test_a_stranger_gets_404_everywhere(
    played: Campaign, outsider: Any, login: Any, page: str
) -> None:
    url = {
        "map": map_url(played),
        "area": area_url(played, "Korona"),
        "company": company_url(played, "A Company"),
        "live": live_url(played),
    }[page]
    assert login(outsider).get(url).status_code == 404


@pytest.mark.parametrize("who", ["gm_user", "aussie", "japanese"])
@pytest.mark.parametrize("page", ["map", "area", "own company"])
def test_the_gm_and_both_sides_open_the_pages(
    played: Campaign, login: Any, request: Any, who: str, page: str
) -> None:
    user = request.getfixturevalue(who)
    own = "1st Company" if who == "japanese" else "A Company"
    url = {
        "map": map_url(played),
        "area": area_url(played, "Korona"),
        "own company": company_url(played, own),
    }[page]
    response = login(user).get(url)
    assert response.status_code == 200
    assert "Korona played" in text(response)


def test_a_campaign_that_does_not_exist_is_404(gm_user: Any, login: Any) -> None:
    assert login(gm_user).get(reverse("campaign-map", args=[999])).status_code == 404


def test_an_area_or_company_of_another_campaign_is_404(
    played: Campaign, campaign: Campaign, gm_user: Any, login: Any
) -> None:
    client = login(gm_user)
    other_area = area(campaign, "Korona").pk
    other_company = company(campaign, "A Company").pk
    assert client.get(reverse("area", args=[played.pk, other_area])).status_code == 404
    assert client.get(reverse("company", args=[played.pk, other_company])).status_code == 404


# --- the campaign list -------------------------------------------------------------------


def test_the_list_shows_a_players_campaigns_with_their_side(
    played: Campaign, aussie: Any, login: Any
) -> None:
    create_campaign(data=korona_doc(), name="Someone else's", seed=2)
    page = text(login(aussie).get(reverse("campaigns")))
    assert "Korona played" in page
    assert "Someone else&#x27;s" not in page and "Someone else's" not in page
    entry = page[page.index(f'data-campaign="{played.pk}"') :]
    assert "Australian" in entry[: entry.index("</li>")]
    assert "2 played" in entry[: entry.index("</li>")]
    assert reverse("campaign-map", args=[played.pk]) in page


def test_the_list_says_the_next_turn_and_the_side_as_the_map_does(
    played: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    """The walk-through: the list said "no deadline: the GM plays each turn" and "Your
    side: Australian" where the map says the turn is played once every side is ready,
    and every page calls the side "Australians"."""
    assert played.next_deadline is None
    client = login(aussie)
    page = " ".join(text(client.get(reverse("campaigns"))).split())
    said = " ".join(text(client.get(reverse("campaign-map", args=[played.pk]))).split())
    line = "Turn 3 is played once every side is ready, or when the game master plays it."
    assert line in said and line in page
    assert "the game master plays each turn" not in page
    entry = page[page.index(f'data-campaign="{played.pk}"') :]
    assert re.search(r"Your side</dt>\s*<dd>\s*<span[^>]*>Australians</span>", entry)
    gm_page = " ".join(text(login(gm_user).get(reverse("campaigns"))).split())
    assert line in gm_page and "game master" in gm_page


def test_a_solo_player_reads_that_their_ready_plays_the_next_turn(
    aussie: Any, japanese: Any, gm_user: Any, login: Any
) -> None:
    """Every other side played by the campaign AI (always ready): the map and the list
    say the reader's own "ready" plays the turn, not "once every side is ready"; the GM,
    who marks nothing ready, and a campaign of two players keep every side's words."""
    solo = create_campaign(data=korona_doc(), name="Korona solo", seed=1)
    join(aussie, solo, "australian")
    two = create_campaign(data=korona_doc(), name="Korona for two", seed=2)
    join(aussie, two, "australian")
    join(japanese, two, "japanese")
    alone = "Turn 1 is played when you mark your orders ready, or when the game master plays it."
    every = "Turn 1 is played once every side is ready, or when the game master plays it."
    client = login(aussie)
    listed = " ".join(text(client.get(reverse("campaigns"))).split())
    solo_entry = listed[listed.index(f'data-campaign="{solo.pk}"') :]
    two_entry = listed[listed.index(f'data-campaign="{two.pk}"') :]
    assert alone in solo_entry[: solo_entry.index("</li>")]
    assert every in two_entry[: two_entry.index("</li>")]
    assert alone in " ".join(text(client.get(reverse("campaign-map", args=[solo.pk]))).split())
    assert every in " ".join(text(client.get(reverse("campaign-map", args=[two.pk]))).split())
    gm = login(gm_user)
    theirs = (  # the GM's and a spectator's: the campaign AI's side is always ready
        "Turn 1 is played when the Australians mark their orders ready (the campaign AI "
        "plays the other side, always ready), or when the game master plays it."
    )
    assert theirs in " ".join(text(gm.get(reverse("campaign-map", args=[solo.pk]))).split())
    gm_list = " ".join(text(gm.get(reverse("campaigns"))).split())
    assert alone not in gm_list

    # A second player joins: the map's stamp changes (no page kept under the old one, no
    # 304 with the solo words), and the map says every side's words.
    def token() -> str:
        stamp = campaign_stamp(user=aussie, campaign_id=solo.pk)
        assert stamp is not None
        return MapStamp(**stamp).token

    before = token()
    join(japanese, solo, "japanese")
    assert token() != before
    assert every in " ".join(text(client.get(reverse("campaign-map", args=[solo.pk]))).split())


def test_a_player_with_a_teammate_against_the_ai_reads_that_either_ready_plays_the_turn(
    aussie: Any, outsider: Any, login: Any
) -> None:
    """Two players on the Australians, the Japanese the campaign AI's: the map and the
    list said "when you mark your orders ready", and the teammate's "ready" (the side's)
    plays the turn too. Now they say so, and a teammate joining redraws the map (its
    stamp changes; the list reads it in the same query, test_campaign_list_queries)."""
    team = create_campaign(data=korona_doc(), name="Korona, two Australians", seed=1)
    join(aussie, team, "australian")
    alone = "Turn 1 is played when you mark your orders ready, or when the game master plays it."
    both = (
        "Turn 1 is played when you or a teammate marks your side's orders ready, or when "
        "the game master plays it."
    )
    client = login(aussie)
    map_url = reverse("campaign-map", args=[team.pk])
    assert alone in " ".join(text(client.get(map_url)).split())

    def token() -> str:
        stamp = campaign_stamp(user=aussie, campaign_id=team.pk)
        assert stamp is not None
        return MapStamp(**stamp).token

    before = token()
    join(outsider, team, "australian")  # the teammate
    assert token() != before
    page = html.unescape(" ".join(text(client.get(map_url)).split()))
    assert both in page and alone not in page
    listed = html.unescape(" ".join(text(client.get(reverse("campaigns"))).split()))
    assert both in listed and alone not in listed


def test_the_gm_sees_every_campaign_and_plays_no_side(
    played: Campaign, gm_user: Any, login: Any
) -> None:
    create_campaign(data=korona_doc(), name="Another", seed=2)
    page = text(login(gm_user).get(reverse("campaigns")))
    assert "Korona played" in page and "Another" in page
    assert "game master" in page


def test_an_outsider_has_an_empty_list(played: Campaign, outsider: Any, login: Any) -> None:
    page = text(login(outsider).get(reverse("campaigns")))
    assert "Korona played" not in page
    assert "not in any campaign yet" in page


def test_the_list_shows_the_deadline_in_the_campaigns_time_zone_and_a_countdown(
    played: Campaign, aussie: Any, login: Any
) -> None:
    played.next_deadline = datetime(2031, 7, 5, 18, 0, tzinfo=UTC)
    played.timezone = "Europe/Berlin"
    played.save()
    page = text(login(aussie).get(reverse("campaigns")))
    assert "Sat 5 Jul 2031, 20:00 CEST, Europe/Berlin time" in page
    assert 'data-countdown="2031-07-05T20:00:00+02:00"' in page


def test_the_list_shows_the_winner_once_the_campaign_has_ended(
    played: Campaign, aussie: Any, login: Any
) -> None:
    played.status = Campaign.Status.FINISHED
    played.winner = "japanese"
    played.end_reason = "the Japanese hold Korona"
    played.save()
    page = text(login(aussie).get(reverse("campaigns")))
    assert "Outcome" in page and "ended" in page
    # A campaign that ended before its causes were kept: the reason as written then.
    assert "The Japanese won. Why it ended: the Japanese hold Korona." in page


# --- the map -----------------------------------------------------------------------------


def test_the_maps_played_turn_links_to_what_happened_in_it(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """ "Turn 2 played" above the map leads to that turn's page: the map showed the
    companies moved and nothing said where to read why (a walk-through)."""
    page = login(aussie).get(map_url(played)).content.decode()
    turn = reverse("turn", args=[played.pk, 2])
    assert re.search(rf'data-turn="2"><a href="{turn}">Turn 2 played</a>', page), page


def test_the_map_shows_the_turn_and_every_area_with_links_to_their_pages(
    played: Campaign, aussie: Any, login: Any
) -> None:
    page = text(login(aussie).get(map_url(played)))
    assert 'data-turn="2"' in page and "Turn 2 played" in page
    for row in Area.objects.filter(campaign=played):
        assert reverse("area", args=[played.pk, row.pk]) in svg_of(page)
        assert reverse("area", args=[played.pk, row.pk]) in list_of(page)
    assert "Korona track" in page and "southern track" in page  # the legend


def test_an_areas_control_known_only_from_when_it_was_last_seen_is_drawn_hatched(
    played: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    view = open_campaign(user=aussie, campaign=played)
    page = text(login(aussie).get(map_url(played)))
    fills = {
        name: fill for fill, name in re.findall(r'fill="([^"]+)" data-area="([^"]+)"', svg_of(page))
    }
    seen = {name for name in view.state.areas if view.last_seen(name) is not None}
    assert seen and seen != set(view.state.areas), "the played campaign has both kinds"
    for name, area in view.state.areas.items():
        hatched = fills[name].startswith("url(#glimpse-")
        assert hatched == (name in seen and area.controller is not None), name
    assert "hatched, the tag dashed with a ?: held by that side when you last saw it" in page
    # The GM sees every area as it is: nothing hatched, and no such line in the legend.
    gm_page = text(login(gm_user).get(map_url(played)))
    assert not re.search(r'fill="url\(#glimpse-[^"]*" data-area', svg_of(gm_page))
    assert "hatched, the tag dashed" not in gm_page


def test_a_side_knows_who_holds_its_own_base_with_none_of_its_companies_near(
    aussie: Any, gm_user: Any, login: Any
) -> None:
    """The walk-through: with no Australian company in or next to Port Murray, the map
    drew the Australians' own base hatched, "AUS?", as if they did not know who holds
    it. A side's base is always in its sight for who holds it (docs/campaign.md), the
    enemy's is not; a GM's change to it is read in full."""
    doc = korona_doc()
    for row in doc["companies"]:
        if row["name"] == "1st Supply Company":
            row["area"] = "Isura"
    campaign = create_campaign(data=doc, name="Far from home", seed=3)
    join(aussie, campaign, "australian")
    view = open_campaign(user=aussie, campaign=campaign)
    assert "Port Murray" not in fog.watched_areas(view.state, "australian")
    assert view.last_seen("Port Murray") is None
    assert view.last_seen("Kilu") is not None  # the enemy's base: only as last seen
    page = text(login(aussie).get(map_url(campaign)))
    fills = dict(
        (name, fill) for fill, name in re.findall(r'fill="([^"]+)" data-area="([^"]+)"', page)
    )
    assert not fills["Port Murray"].startswith("url(#glimpse-")
    assert fills["Kilu"].startswith("url(#glimpse-")
    set_control(area=area(campaign, "Port Murray"), side=None, reason="a test")
    view = open_campaign(user=aussie, campaign=campaign)
    assert view.state.areas["Port Murray"].controller is None
    assert "Port Murray: held by the Australian side, now by nobody" in [
        row.what for row in view.adjustments()
    ]


def test_the_map_lists_own_companies_in_full_below_the_map(
    played: Campaign, aussie: Any, login: Any
) -> None:
    listing = list_of(text(login(aussie).get(map_url(played))))
    b = company(played, "B Company")
    held = sum(s.held for s in b.stand_counts.all())
    full = sum(s.establishment for s in b.stand_counts.all())
    assert f"B Company</a>: {held}/{full} stands, trained, out of supply" in listing
    assert reverse("company", args=[played.pk, b.pk]) in listing


def test_the_gm_sees_every_company_on_the_map(played: Campaign, gm_user: Any, login: Any) -> None:
    page = text(login(gm_user).get(map_url(played)))
    for row in Company.objects.filter(campaign=played):
        assert row.name in list_of(page)
        assert reverse("company", args=[played.pk, row.pk]) in svg_of(page)


def test_the_map_shows_ships_and_aircraft(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    played.ships.filter(name="IJN Uesugi").update(present=False)
    page = text(login(aussie).get(map_url(played)))
    assert "HMAS Pitcairn in port" in svg_of(page)
    assert "IJN Uesugi away" in svg_of(page)
    assert "Ship IJN Uesugi: away (known to both sides)" in list_of(page)
    # A kind with none is left out ("0 Hurricane-bombers" read as a count to watch).
    assert "✈ 3 Buffalos<" in svg_of(page) and "Hurricane" not in svg_of(page)
    # The enemy's ships and planes are public (rulings section 6), also where its area is
    # out of sight: the list says so, so they do not read as a leak.
    theirs = list_of(text(login(japanese).get(map_url(played))))
    assert "Ship HMAS Pitcairn: in port (known to both sides)" in theirs
    assert "✈ Australian air: 3 Buffalos (known to both sides)" in theirs


def test_the_map_counts_down_to_the_deadline_with_the_time_as_text(
    played: Campaign, aussie: Any, login: Any
) -> None:
    played.next_deadline = datetime(2031, 7, 5, 18, 0, tzinfo=UTC)
    played.save()
    page = text(login(aussie).get(map_url(played)))
    assert "Sat 5 Jul 2031, 18:00 UTC" in page
    assert 'data-countdown="2031-07-05T18:00:00+00:00"' in page
    assert "campaign/map.js" in page


def test_a_finished_campaign_names_its_winner_on_the_map(
    played: Campaign, aussie: Any, login: Any
) -> None:
    Campaign.objects.filter(pk=played.pk).update(
        status="finished", winner="japanese", end_reason="Korona taken"
    )
    page = text(login(aussie).get(map_url(played)))
    assert "The campaign has ended. The Japanese won. Why it ended: Korona taken." in page


def test_a_turn_waiting_for_its_battles_is_said_on_the_map(
    played: Campaign, aussie: Any, login: Any
) -> None:
    Turn.objects.create(campaign=played, number=3, seed=1, status=Turn.Status.BATTLES_PENDING)
    page = text(login(aussie).get(map_url(played)))
    assert "The battles of turn 3 are being fought: the turn ends with them." in page
    assert "when the game master plays it" not in page  # one line, about turn 3


def test_a_tabletop_turn_waiting_for_results_says_so_in_one_line(
    played: Campaign, aussie: Any, login: Any
) -> None:
    settings = played.get_settings()
    played.set_settings(dataclasses.replace(settings, battle_mode="tabletop"))
    played.save()
    Turn.objects.create(campaign=played, number=3, seed=1, status=Turn.Status.BATTLES_PENDING)
    page = text(login(aussie).get(map_url(played)))
    assert (
        "Turn 3 waits for its battles to be fought on the table: it ends when the game master has "
        "entered their results." in page
    )
    assert "when the game master plays it" not in page and "being fought:" not in page


def test_a_paused_campaign_counts_down_to_nothing(
    played: Campaign, aussie: Any, login: Any
) -> None:
    played.next_deadline = datetime(2031, 7, 5, 18, 0, tzinfo=UTC)
    played.status = Campaign.Status.PAUSED
    played.save()
    client = login(aussie)
    page = text(client.get(map_url(played)))
    # The game master may still play a turn by hand while it is paused (advance_turn).
    paused = (
        "The game master has paused the campaign: no turn is played when every side is ready "
        "until they resume it; they may still play one by hand."
    )
    assert paused in page
    assert "data-countdown" not in page and "2031" not in page
    listed = text(client.get("/campaigns/"))
    assert "none until the game master resumes the campaign or plays one by hand" in listed
    assert "data-countdown" not in listed


def test_a_paused_solo_campaign_on_a_schedule_says_what_the_pause_holds_back(
    aussie: Any, login: Any
) -> None:
    """Paused, neither its schedule nor the solo player's "ready" plays a turn; the game
    master still may, by hand (advance_turn plays it whatever the pause)."""
    solo = create_campaign(data=korona_doc(), name="Korona solo, paused", seed=1)
    join(aussie, solo, "australian")
    set_schedule(campaign=solo, kind="every_hours", every_hours=24, timezone="UTC")
    set_paused(campaign=solo, paused=True, reason="holidays")
    page = " ".join(text(login(aussie).get(map_url(solo))).split())
    assert (
        "The game master has paused the campaign: no turn is played on its schedule or when "
        "your orders are ready until they resume it; they may still play one by hand." in page
    )


def test_a_paused_map_says_since_when_and_why_to_every_reader(
    played: Campaign, aussie: Any, django_user_model: Any, login: Any
) -> None:
    """The GM's pause, on the campaign's clock, with the reason the GM gave: a player and
    a spectator read the same; resumed, the map says it no more."""
    fan = django_user_model.objects.create_user("fan")
    join(fan, played, SPECTATOR)
    Campaign.objects.filter(pk=played.pk).update(timezone="Australia/Sydney")
    played.refresh_from_db()
    with patch("django.utils.timezone.now", return_value=datetime(2026, 12, 20, 9, tzinfo=UTC)):
        set_paused(campaign=played, paused=True, reason="Christmas <3: back on 4 January")
    for reader in (aussie, fan):
        response = login(reader).get(map_url(played))
        page = " ".join(text(response).split())
        assert (
            'Paused since <time datetime="2026-12-20T20:00:00+11:00">Sun 20 Dec 2026, 20:00 '
            "AEDT</time>. The game master's reason: <q>Christmas &lt;3: back on 4 January</q>"
        ) in page
    set_paused(campaign=played, paused=False)
    assert "Paused since" not in text(login(aussie).get(map_url(played)))


# --- the live map --------------------------------------------------------------------------


def test_the_map_polls_its_live_endpoint_with_the_state_it_was_drawn_from(
    played: Campaign, aussie: Any, login: Any, settings: Any
) -> None:
    settings.KORONA_MAP_POLL_SECONDS = 7
    page = text(login(aussie).get(map_url(played)))
    token = map_stamp(user=aussie, campaign_id=played.pk).token
    assert f'hx-get="{live_url(played, token)}"' in page
    assert 'hx-trigger="every 7s"' in page


def test_the_live_map_answers_204_while_nothing_has_changed(
    played: Campaign, aussie: Any, login: Any
) -> None:
    token = map_stamp(user=aussie, campaign_id=played.pk).token
    response = login(aussie).get(live_url(played, token), HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert response.content == b""


def test_the_live_map_sends_the_new_map_once_a_turn_is_played(
    played: Campaign, aussie: Any, login: Any
) -> None:
    token = map_stamp(user=aussie, campaign_id=played.pk).token
    advance_turn(campaign_id=played.pk)
    response = login(aussie).get(live_url(played, token), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    fragment = text(response)
    assert fragment.startswith('\n<div id="live-map"') or fragment.startswith('<div id="live-map"')
    assert 'data-turn="3"' in fragment
    assert "<html" not in fragment  # the live part only
    new_token = map_stamp(user=aussie, campaign_id=played.pk).token
    assert new_token != token and live_url(played, new_token) in fragment


@pytest.mark.parametrize("change", ["pause", "deadline", "adjustment"])
def test_the_live_map_is_redrawn_when_the_gm_changes_the_campaign(
    played: Campaign, aussie: Any, gm_user: Any, login: Any, change: str
) -> None:
    token = map_stamp(user=aussie, campaign_id=played.pk).token
    if change == "pause":
        Campaign.objects.filter(pk=played.pk).update(status="paused")
    elif change == "deadline":
        Campaign.objects.filter(pk=played.pk).update(next_deadline=datetime(2031, 1, 1, tzinfo=UTC))
    else:
        set_control(area=area(played, "Erida"), side="japanese", reason="a raid", user=gm_user)
    assert login(aussie).get(live_url(played, token)).status_code == 200


def test_the_signed_out_live_map_sends_the_page_to_login(played: Campaign) -> None:
    response = Client().get(live_url(played, "x"), HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert response["HX-Redirect"].startswith(reverse("login"))
    assert Client().get(live_url(played, "x")).status_code == 302  # not from htmx


# --- an area -----------------------------------------------------------------------------


def test_an_area_page_shows_the_area_its_links_and_its_battles(
    played: Campaign, aussie: Any, login: Any
) -> None:
    page = text(login(aussie).get(area_url(played, "Korona")))
    assert "<h1>Korona</h1>" in page
    assert "Korona track" in page and "light woods, plains" in page and "airstrip" in page
    assert "the Japanese" in page  # it holds Korona after turn 2
    for neighbour in ("Isura", "Oivi"):
        assert area_url(played, neighbour) in page
    battles = Battle.objects.filter(campaign=played, area__name="Korona")
    assert battles.count() == 3
    for battle in battles:
        assert reverse("battle", args=[played.pk, battle.pk]) in page
    assert "the Japanese attacked the Australians (A Company): Japanese won" in page
    assert "Australians held" in page


def test_an_area_page_lists_ships_and_aircraft_at_their_port(
    played: Campaign, aussie: Any, login: Any
) -> None:
    page = text(login(aussie).get(area_url(played, "Port Murray")))
    assert "HMAS Pitcairn" in page and "Australian air: 3 Buffalos (known to both sides)" in page
    assert "Hurricane" not in page
    assert "base of the Australians" in page


def test_an_areas_battles_of_one_turn_are_told_apart(
    played: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    """The walk-through: Korona's page listed turn 4's two battles as two identical
    lines. Each says its number in the turn and the reader's companies that fought it;
    the enemy's are not named there, beside the glimpses of those in the area now (the
    GM reads every side's)."""
    page = text(login(aussie).get(area_url(played, "Korona")))
    section = page[page.index("Battles fought here") :]
    lines = [
        " ".join(html.unescape(re.sub(r"<[^>]+>", "", line)).split())
        for line in re.findall(r"<li>(.*?)</li>", section, flags=re.S)
    ]
    first = [line for line in lines if line.startswith("Turn 1")]
    assert len(first) == 2, lines
    assert len(set(lines)) == len(lines), lines
    assert first[0].startswith("Turn 1, battle 1: the ") and first[1].startswith("Turn 1, battle 2")
    for battle in Battle.objects.filter(campaign=played, turn__number=1, area__name="Korona"):
        own = {c.name for c in (*battle.attackers.all(), *battle.defenders.all())}
        own = {name for name in own if company(played, name).side == "australian"}
        line = next(line for line in first if f"battle {battle.key.split(':')[2]}:" in line)
        assert own and all(name in line for name in own), (line, own)
        assert "the Japanese attacked" in line or "attacked the Japanese:" in line, line
    gm_page = text(login(gm_user).get(area_url(played, "Korona")))
    assert "the Japanese (1st Company) attacked" in gm_page or "(1st Company):" in gm_page


# --- a company ---------------------------------------------------------------------------


def test_an_own_company_page_shows_everything_about_it(
    played: Campaign, aussie: Any, login: Any
) -> None:
    b = company(played, "B Company")
    page = text(login(aussie).get(company_url(played, "B Company")))
    assert "<h1>B Company</h1>" in page
    assert "trained" in page and "out of supply" in page
    # Its standing order, by what it does given no order (never the order's key).
    assert (
        "<dd>hold: what it does when you give it no order; only the game master can change it"
        " · <a" in page
    ), b.standing_order
    for stands in b.stand_counts.all():
        row = f'<tr data-unit="{stands.unit_type}">'
        assert row in page and f'<td class="num">{stands.held}</td>' in page
    # Its battle losses stay on its establishment, for supply to replace.
    assert any(stands.held < stands.establishment for stands in b.stand_counts.all())
    assert reverse("orders", args=[played.pk]) in page  # it may be given orders


def test_a_company_page_charts_its_stands_turn_by_turn(
    played: Campaign, aussie: Any, login: Any
) -> None:
    page = text(login(aussie).get(company_url(played, "A Company")))
    chart = page[page.index('<svg xmlns="http://www.w3.org/2000/svg" class="stands-chart"') :]
    bars = re.findall(r'data-turn="(\d+)" data-held="(\d+)" data-full="(\d+)"', chart)
    # The start (12 of 12), after turn 1 (as turn 2 began: stands lost for good lower the
    # establishment too), now.
    assert [turn for turn, _, _ in bars] == ["0", "1", "2"]
    assert bars[0][1:] == ("12", "12")
    begun = next(
        c
        for c in Turn.objects.get(campaign=played, number=2).start_state["companies"]
        if c["name"] == "A Company"
    )
    full = begun.get("establishment") or begun["stands"]
    assert bars[1][1:] == (str(sum(begun["stands"].values())), str(sum(full.values())))
    a = company(played, "A Company")
    assert bars[2][1:] == (
        str(sum(s.held for s in a.stand_counts.all())),
        str(sum(s.establishment for s in a.stand_counts.all())),
    )


def test_a_company_page_lists_its_supply_rolls_and_its_battles(
    played: Campaign, aussie: Any, login: Any
) -> None:
    page = text(login(aussie).get(company_url(played, "A Company")))
    rolls = page[page.index("<h2>Supply rolls</h2>") : page.index("<h2>Orders, moves")]
    assert rolls.count('data-kind="supply"') == 2  # turns 1 and 2
    logs = [r for t in Turn.objects.filter(campaign=played).order_by("number") for r in t.log]
    supply = next(r for r in logs if r["kind"] == "supply" and r["company"] == "A Company")
    words = record_words(supply)
    assert words.startswith("A Company: supply roll ") and words in rolls
    losses = [r["text"] for r in logs if r["kind"] == "losses" and r["company"] == "A Company"]
    # Each a battle's, its company named with its side, as on the turn pages.
    named = [line.replace("A Company ", "The Australians&#x27; A Company ", 1) for line in losses]
    assert losses and all(line in page for line in named)


# --- fog of war: every way these pages could leak ------------------------------------------


def test_leak_hidden_enemy_company_page_is_404(played: Campaign, aussie: Any, login: Any) -> None:
    _, hidden = in_sight(aussie, played)
    assert hidden  # 3rd Company and the supply company in Kilu
    client = login(aussie)
    for name in hidden:
        assert client.get(company_url(played, name)).status_code == 404


def test_leak_glimpsed_enemy_in_the_map_svg_is_only_its_band(
    played: Campaign, aussie: Any, login: Any
) -> None:
    glimpsed, hidden = in_sight(aussie, played)
    svg = svg_of(text(login(aussie).get(map_url(played))))
    chips = re.findall(r'<a href="[^"]*" class="chip glimpse"[^>]*>(.*?)</a>', svg)
    assert len(chips) == len(glimpsed)
    for chip in chips:
        words = re.sub(r"<[^>]+>", " ", chip).split()
        assert words[-1] in ("weak", "average", "strong")
        assert not re.search(r"\d+/\d+", chip)
        assert "veteran" not in chip and "supply" not in chip
    for name in glimpsed + hidden:
        assert not mentions(svg, name, played)
    assert "veteran" not in svg and "V ✓" not in svg and "V ✗" not in svg
    for name in glimpsed + hidden:
        assert reverse("company", args=[played.pk, company(played, name).pk]) not in svg
    # Each glimpse's chip links its page by its handle.
    for name in glimpsed:
        assert f'href="{glimpse_url(aussie, played, name)}" class="chip glimpse"' in svg


def test_leak_glimpsed_enemy_in_the_list_below_the_map_is_only_its_band(
    played: Campaign, aussie: Any, login: Any
) -> None:
    glimpsed, hidden = in_sight(aussie, played)
    listing = list_of(text(login(aussie).get(map_url(played))))
    for name in glimpsed + hidden:
        assert not mentions(listing, name, played)
    assert "veteran" not in listing  # only Japanese companies are veterans
    entries = re.findall(r'<li class="side-japanese">(.*?)</li>', listing, re.S)
    assert len(entries) == len(glimpsed)
    for entry in entries:
        assert re.search(r"in sight: (weak|average|strong)$", entry.strip())
        assert re.search(r'href="/campaigns/\d+/glimpses/\d+-\d+/"', entry)


def test_leak_glimpsed_enemy_on_the_area_page_is_only_its_band(
    played: Campaign, aussie: Any, login: Any
) -> None:
    glimpsed, hidden = in_sight(aussie, played)
    page = text(login(aussie).get(area_url(played, "Korona")))
    for name in glimpsed + hidden:
        assert not mentions(page, name, played)
    assert "veteran" not in page
    assert "a Japanese fighting company</a> in sight:" in page
    assert 'class="side-japanese"' in page


def test_leak_area_page_lists_no_enemy_out_of_sight(
    played: Campaign, aussie: Any, login: Any
) -> None:
    page = text(login(aussie).get(area_url(played, "Kilu")))
    assert "side-japanese" not in page  # two Japanese companies there, out of sight
    assert "none that you can see" in page


def test_leak_glimpsed_enemy_company_page_shows_only_side_kind_area_and_band(
    played: Campaign, aussie: Any, login: Any
) -> None:
    glimpsed, _ = in_sight(aussie, played)
    client = login(aussie)
    for name in glimpsed:
        row = company(played, name)
        # Its id would tell which company it is: not found, as one out of sight.
        assert client.get(company_url(played, name)).status_code == 404
        page = text(client.get(glimpse_url(aussie, played, name)))
        assert "A Japanese fighting company" in page
        assert not mentions(page, name, played)
        assert "veteran" not in page and "trained" not in page
        assert "<svg" not in page  # no history, not even from start_state
        assert "supply roll" not in page and "in supply" not in page
        assert not re.search(r"\b\d+/\d+\b", page)
        assert "rifle" not in page.lower() and "hmg" not in page.lower()
        assert row.area.name in page


def test_leak_enemy_supply_rolls_never_reach_a_company_page(
    played: Campaign, aussie: Any, japanese: Any, gm_user: Any, login: Any
) -> None:
    # The Japanese see A Company (in Isura, next to their companies in Korona) only as a
    # glimpse: none of its supply rolls.
    japanese_glimpses, _ = in_sight(japanese, played)
    assert "A Company" in japanese_glimpses
    page = text(login(japanese).get(glimpse_url(japanese, played, "A Company")))
    assert "supply roll" not in page and "Port Murray" not in page
    # The Australians' own company page holds no Japanese roll.
    own = text(login(aussie).get(company_url(played, "A Company")))
    for name in ("1st Company", "2nd Company", "3rd Company"):
        assert f"{name}: supply roll" not in own
    # The GM reads the rolls of either side.
    gm = text(login(gm_user).get(company_url(played, "2nd Company")))
    assert "2nd Company: supply roll" in gm


def test_leak_live_fragment_keeps_the_fog(played: Campaign, aussie: Any, login: Any) -> None:
    glimpsed, hidden = in_sight(aussie, played)
    fragment = text(login(aussie).get(live_url(played, "stale"), HTTP_HX_REQUEST="true"))
    assert 'id="live-map"' in fragment
    for name in glimpsed + hidden:
        assert not mentions(fragment, name, played)
    assert "veteran" not in svg_of(fragment) and "veteran" not in list_of(fragment)


def test_leak_live_fragment_of_another_campaign_is_404(
    played: Campaign, aussie: Any, login: Any
) -> None:
    other = create_campaign(data=korona_doc(), name="Not yours", seed=5)
    assert login(aussie).get(live_url(other, "x")).status_code == 404


def test_everyone_sees_everything_once_the_campaign_has_ended(
    played: Campaign, aussie: Any, login: Any
) -> None:
    Campaign.objects.filter(pk=played.pk).update(status="finished", winner="japanese")
    page = text(login(aussie).get(company_url(played, "2nd Company")))
    assert "<h1>2nd Company</h1>" in page and "veteran" in page and "<svg" in page


# --- query counts (big_campaign: 80 companies; the counts do not grow with them) ----------


def test_campaign_list_queries(big_campaign: Campaign, aussie: Any, login: Any, dnq: Any) -> None:
    client = login(aussie)
    # user (the session comes from the cache), the campaigns, the memberships (sides_of)
    with dnq(3):
        assert client.get(reverse("campaigns")).status_code == 200


@pytest.mark.parametrize(("who", "count"), [("gm_user", 10), ("aussie", 12)])
def test_map_queries(
    big_campaign: Campaign, login: Any, request: Any, dnq: Any, who: str, count: int
) -> None:
    client = login(request.getfixturevalue(who))
    # user, campaign row, membership (players only), the snapshot's 7 (sides,
    # areas, links, stands, companies, ships, air), the stamp (campaign + last turn +
    # last adjustment, one query), the turns' start states (players under the fog of war)
    with dnq(count):
        assert client.get(map_url(big_campaign)).status_code == 200


def test_live_poll_queries_when_nothing_changed(
    big_campaign: Campaign, aussie: Any, login: Any, dnq: Any
) -> None:
    client = login(aussie)
    token = map_stamp(user=aussie, campaign_id=big_campaign.pk).token
    # user, the stamp (membership, campaign, last turn, last adjustment: one query)
    with dnq(2):
        assert client.get(live_url(big_campaign, token)).status_code == 204


def test_live_poll_queries_when_a_turn_was_played(
    big_campaign: Campaign, aussie: Any, login: Any, dnq: Any
) -> None:
    client = login(aussie)
    # user, the stamp, then the map: campaign row, membership, the snapshot's 7, the
    # turns' start states (the fog of war: what the side saw between turns)
    with dnq(12):
        assert client.get(live_url(big_campaign, "old")).status_code == 200


def test_area_page_queries(big_campaign: Campaign, aussie: Any, login: Any, dnq: Any) -> None:
    client = login(aussie)
    url = area_url(big_campaign, "Korona")
    # user, campaign row, membership, the snapshot's 7, the area's battles (with their
    # turns), the turns' start states (the fog of war)
    with dnq(12):
        assert client.get(url).status_code == 200


def test_area_page_reads_no_battles_result_log_or_whole_spec(
    played: Campaign, aussie: Any, login: Any
) -> None:
    """Its battle lines show who attacked whom, with which companies, and who won: the
    winner column and the forces' companies and names out of the spec, not every
    battle's result and log (some 50 KB a battle) nor its whole spec."""
    korona = Battle.objects.filter(campaign=played).values_list("area__name", flat=True)[0]
    client = login(aussie)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(area_url(played, korona))
    assert page.status_code == 200 and "attacked the" in page.content.decode()
    reads = [q["sql"] for q in queries.captured_queries if '"battles_battle"' in q["sql"]]
    assert len(reads) == 1
    assert '"battles_battle"."winner"' in reads[0]
    assert whole_json_read(reads[0], "battles_battle", ("spec", "result", "log")) == []
    assert '"battles_battle"."result"' not in reads[0]
    assert '"battles_battle"."log"' not in reads[0]


def test_company_page_queries(big_campaign: Campaign, aussie: Any, login: Any, dnq: Any) -> None:
    client = login(aussie)
    url = company_url(big_campaign, "A Company")
    # user, campaign row, membership, the snapshot's 7, the turns' start states (the fog
    # of war), the readable battles' keys (to link them), the turns (start states and logs)
    with dnq(13):
        assert client.get(url).status_code == 200


def test_glimpsed_company_page_queries(
    big_campaign: Campaign, aussie: Any, login: Any, dnq: Any
) -> None:
    glimpsed, _ = in_sight(aussie, big_campaign)
    client = login(aussie)
    url = glimpse_url(aussie, big_campaign, glimpsed[0])
    # user, campaign row, membership, the snapshot's 7, the turns' start states (the fog
    # of war); no turn logs are read
    with dnq(11):
        assert client.get(url).status_code == 200


@pytest.fixture
def dnq(django_assert_num_queries: Any) -> Any:
    return django_assert_num_queries


def test_a_glimpse_is_named_with_the_right_article_for_either_side(
    played: Campaign, japanese: Any, login: Any
) -> None:
    """Through the naming helper: the Japanese player read "a Australian fighting
    company" on the map (a walk-through); the map, the area and the glimpse's page."""
    client = login(japanese)
    page = text(client.get(f"/campaigns/{played.pk}/"))
    assert "an Australian fighting company</a> in sight:" in page
    assert "a Australian" not in page
    handle = re.search(r'href="(/campaigns/\d+/glimpses/[^"]+/)">an Australian', page)
    assert handle, page
    glimpse = text(client.get(handle[1]))
    assert "An Australian fighting company" in glimpse
    area = re.search(r'href="(/campaigns/\d+/areas/\d+/)"', glimpse)
    assert area, glimpse
    assert "an Australian fighting company</a> in sight:" in text(client.get(area[1]))


def test_the_map_with_its_links_is_a_named_group_not_an_image(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """role="img" makes an element's children presentational: the area and company links
    inside the map would be hidden from a screen reader (axe: nested-interactive)."""
    svg = svg_of(text(login(aussie).get(map_url(campaign))))
    opening = svg[: svg.index(">") + 1]
    assert 'role="group"' in opening and 'aria-labelledby="map-title"' in opening
    assert '<title id="map-title">' in svg and "<a href=" in svg


def test_a_spectator_of_a_solo_campaign_reads_whose_ready_plays_the_turn(
    aussie: Any, django_user_model: Any, login: Any
) -> None:
    """A spectator read "Turn 1 is played once every side is ready": the Japanese are
    the campaign AI's, always ready, so the Australians' "ready" plays it. Which sides a
    player plays is public (the orders page's ready box says it); paused, the same."""
    solo = create_campaign(data=korona_doc(), name="Korona solo", seed=1)
    join(aussie, solo, "australian")
    fan = django_user_model.objects.create_user("fan")
    join(fan, solo, SPECTATOR)
    page = " ".join(text(login(fan).get(map_url(solo))).split())
    assert (
        "Turn 1 is played when the Australians mark their orders ready (the campaign AI "
        "plays the other side, always ready), or when the game master plays it." in page
    )
    assert "once every side is ready" not in page
    listed = " ".join(text(login(fan).get(reverse("campaigns"))).split())
    assert "Turn 1 is played when the Australians mark their orders ready" in listed
    set_paused(campaign=solo, paused=True, reason="holidays")
    page = " ".join(text(login(fan).get(map_url(solo))).split())
    assert (
        "The game master has paused the campaign: no turn is played when the Australians "
        "are ready until they resume it; they may still play one by hand." in page
    )


def test_a_deadline_says_whose_ready_plays_the_turn_sooner(
    aussie: Any, japanese: Any, django_user_model: Any, login: Any
) -> None:
    """A solo player read "Turn 8 is played at the deadline: ... in 2d 13:12:43" and
    would have waited days for a turn their own "ready" plays at once (the walk of 7
    December 2026): the map and the campaigns list say who plays it sooner, each reader
    in their own terms."""
    solo = create_campaign(data=korona_doc(), name="Korona solo", seed=1)
    join(aussie, solo, "australian")
    fan = django_user_model.objects.create_user("fan")
    join(fan, solo, SPECTATOR)
    set_schedule(campaign=solo, kind="every_hours", every_hours=48, timezone="UTC")
    mine = " ".join(text(login(aussie).get(map_url(solo))).split())
    assert "Turn 1 is played at the deadline:" in mine
    assert "Or sooner, when you mark your orders ready." in mine
    listed = " ".join(text(login(aussie).get(reverse("campaigns"))).split())
    assert "Or sooner, when you mark your orders ready." in listed
    theirs = " ".join(text(login(fan).get(map_url(solo))).split())
    assert "Or sooner, when the Australians mark their orders ready." in theirs
    join(japanese, solo, "japanese")
    both = " ".join(text(login(aussie).get(map_url(solo))).split())
    assert "Or sooner, once every side is ready." in both
    # No player on any side: no "ready" plays it, only the deadline or the GM.
    alone = create_campaign(data=korona_doc(), name="Korona unplayed", seed=2)
    join(fan, alone, SPECTATOR)
    set_schedule(campaign=alone, kind="every_hours", every_hours=48, timezone="UTC")
    page = " ".join(text(login(fan).get(map_url(alone))).split())
    assert "Turn 1 is played at the deadline:" in page and "Or sooner" not in page
