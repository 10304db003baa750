"""The map page answers a browser that holds it as it stands with 304 (its ETag), and the
one query that decides it (``campaign_stamp``) lets in exactly whom ``campaigns_for``
lets in."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import reverse

from campaign.models import Area, Campaign
from campaign.services.adjustments import set_control
from campaign.services.turns import advance_turn
from campaign.services.visibility import campaign_stamp, campaigns_for
from tests.fog.crawl import normalise

pytestmark = pytest.mark.django_db


def reader(user: Any) -> Client:
    """A browser after its first page: signed in, with its CSRF cookie."""
    client = Client()
    client.force_login(user)
    client.cookies["csrftoken"] = "r" * 32
    return client


def map_url(campaign: Campaign) -> str:
    return reverse("campaign-map", args=[campaign.pk])


@pytest.mark.parametrize("who", ["gm_user", "aussie", "japanese", "outsider"])
def test_the_stamp_lets_in_whom_campaigns_for_lets_in(
    who: str, request: Any, campaign: Campaign, played: Campaign
) -> None:
    user = request.getfixturevalue(who)
    for row in (campaign, played):
        allowed = campaigns_for(user).filter(pk=row.pk).exists()
        assert (campaign_stamp(user=user, campaign_id=row.pk) is not None) is allowed


def test_the_stamp_refuses_the_signed_out_the_inactive_and_ids_that_name_nothing(
    campaign: Campaign, aussie: Any
) -> None:
    assert campaign_stamp(user=AnonymousUser(), campaign_id=campaign.pk) is None
    for impossible in (0, -1, 2**63, 10**30):
        assert campaign_stamp(user=aussie, campaign_id=impossible) is None
    aussie.is_active = False
    aussie.save()
    assert campaign_stamp(user=aussie, campaign_id=campaign.pk) is None


def test_the_stamp_reads_the_campaign_its_last_turn_and_last_adjustment(
    played: Campaign, gm_user: Any
) -> None:
    stamp = campaign_stamp(user=gm_user, campaign_id=played.pk)
    assert stamp is not None
    assert (stamp["turn"], stamp["status"], stamp["last_turn"]) == (2, "active", 2)
    assert stamp["last_turn_status"] == "done"
    assert stamp["last_adjustment"] is None
    assert stamp["updated_at"] == Campaign.objects.get(pk=played.pk).updated_at
    change = set_control(
        area=Area.objects.get(campaign=played, name="Oivi"),
        side=None,
        reason="a test",
        user=gm_user,
    )
    assert campaign_stamp(user=gm_user, campaign_id=played.pk)["last_adjustment"] == change.pk


def revalidate(client: Client, url: str, first: Any) -> Any:
    """The browser asking again for the page it holds (``first``), as on a reload."""
    return client.get(url, headers={"If-None-Match": first["ETag"]})


def test_a_reader_who_reloads_gets_not_modified_after_one_query(
    played: Campaign, aussie: Any, django_assert_num_queries: Any
) -> None:
    client = reader(aussie)
    first = client.get(map_url(played))
    assert first.status_code == 200 and first["ETag"]
    # The session and the user are read from the cache; the stamp (which decides access)
    # is the one query, and nothing is drawn.
    with django_assert_num_queries(1):
        again = revalidate(client, map_url(played), first)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


def test_the_same_state_gives_the_same_etag_and_the_same_page(
    played: Campaign, aussie: Any
) -> None:
    client = reader(aussie)
    first, second = client.get(map_url(played)), client.get(map_url(played))
    assert first["ETag"] == second["ETag"]
    # The same bytes but for the CSRF tokens, masked afresh for every answer.
    assert normalise(first.content) == normalise(second.content)


def test_a_played_turn_draws_the_page_again(played: Campaign, aussie: Any) -> None:
    client = reader(aussie)
    first = client.get(map_url(played))
    assert "Turn 2 played" in first.content.decode()
    advance_turn(campaign_id=played.pk)
    again = revalidate(client, map_url(played), first)
    assert again.status_code == 200
    assert "Turn 3 played" in again.content.decode()
    assert again["ETag"] != first["ETag"]


def test_an_upgrade_draws_the_page_again(
    played: Campaign, aussie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser holding the map from before an upgrade gets the new code's page, though
    the campaign has not changed since (a new link in the top bar must show at once)."""
    client = reader(aussie)
    first = client.get(map_url(played))
    assert revalidate(client, map_url(played), first).status_code == 304
    monkeypatch.setattr("config.release.release", lambda: "the next release")
    again = revalidate(client, map_url(played), first)
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert revalidate(client, map_url(played), again).status_code == 304


def test_a_gm_adjustment_draws_the_page_again(played: Campaign, aussie: Any, gm_user: Any) -> None:
    client = reader(aussie)
    first = client.get(map_url(played))
    oivi = Area.objects.get(campaign=played, name="Oivi")
    set_control(
        area=oivi,
        side="australian" if oivi.controller != "australian" else None,
        reason="the GM rules it",
        user=gm_user,
    )
    again = revalidate(client, map_url(played), first)
    assert again.status_code == 200
    assert again.content != first.content


def test_turning_the_fog_off_draws_the_page_again_with_every_company(
    played: Campaign, aussie: Any
) -> None:
    from campaign.services.campaigns import update_settings

    client = reader(aussie)
    hidden = "1st Company"  # out of the Australians' sight in the played campaign
    first = client.get(map_url(played))
    assert hidden not in first.content.decode()
    update_settings(
        campaign=played,
        settings={**played.settings, "fog_of_war": False},
        reason="the players agreed to play in the open",
    )
    again = revalidate(client, map_url(played), first)
    assert again.status_code == 200
    assert hidden in again.content.decode()


def test_one_sides_etag_never_answers_for_the_other_side(
    played: Campaign, aussie: Any, japanese: Any
) -> None:
    # The same CSRF cookie in both browsers: only the reader tells the pages apart.
    australian = reader(aussie).get(map_url(played))
    japanese_reader = reader(japanese)
    japanese_page = japanese_reader.get(map_url(played))
    assert australian["ETag"] != japanese_page["ETag"]
    again = revalidate(japanese_reader, map_url(played), australian)
    assert again.status_code == 200
    assert "aussie" not in again.content.decode()
    assert "japanese · Japanese" in again.content.decode()


def test_a_new_csrf_cookie_draws_the_page_again(played: Campaign, aussie: Any) -> None:
    """The page's forms carry a token of the CSRF cookie: a browser whose cookie changed
    (at sign-in) must not keep a page with a token of the old one."""
    client = reader(aussie)
    first = client.get(map_url(played))
    client.cookies["csrftoken"] = "n" * 32
    again = revalidate(client, map_url(played), first)
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]


def test_a_browser_without_its_csrf_cookie_gets_a_drawn_page_and_its_etag(
    played: Campaign, aussie: Any, django_assert_num_queries: Any
) -> None:
    client = Client()
    client.force_login(aussie)
    first = client.get(map_url(played))
    client.cookies.pop("csrftoken", None)
    # Drawn: the stamp, then opening the campaign (campaign, membership, the snapshot's 7,
    # the turns' start states for the fog of war); the user comes from the cache.
    with django_assert_num_queries(11):
        drawn = revalidate(client, map_url(played), first)
    assert drawn.status_code == 200
    # Its ETag is of the CSRF cookie the page made (and sets): the next reload is a 304.
    assert revalidate(client, map_url(played), drawn).status_code == 304


def test_a_page_with_messages_to_show_is_drawn_and_shows_them(
    played: Campaign, aussie: Any
) -> None:
    client = reader(aussie)
    first = client.get(map_url(played))
    storage = CookieStorage(HttpRequest())
    storage.add(constants.INFO, "Order given.")
    carrier = HttpResponse()
    storage.update(carrier)
    client.cookies["messages"] = carrier.cookies["messages"].value
    page = revalidate(client, map_url(played), first)
    assert page.status_code == 200
    assert "Order given." in page.content.decode()
    assert not page.has_header("ETag")  # a page with a message is not the page kept
    again = revalidate(client, map_url(played), first)
    assert again.status_code == 304  # the message was shown once


def test_a_player_moved_to_the_other_side_gets_the_other_sides_page(
    played: Campaign, aussie: Any
) -> None:
    from campaign.models import Membership

    client = reader(aussie)
    first = client.get(map_url(played))
    assert "aussie · Australians<" in first.content.decode()
    Membership.objects.filter(user=aussie, campaign=played).update(side="japanese")
    assert "aussie · Japanese" in revalidate(client, map_url(played), first).content.decode()


def test_the_stamp_names_the_readers_side(played: Campaign, aussie: Any, gm_user: Any) -> None:
    assert campaign_stamp(user=aussie, campaign_id=played.pk)["side"] == "australian"
    assert campaign_stamp(user=gm_user, campaign_id=played.pk)["side"] is None


def test_the_page_is_private_to_its_reader_and_asked_for_again(
    played: Campaign, aussie: Any
) -> None:
    client = reader(aussie)
    first = client.get(map_url(played))
    for response in (first, revalidate(client, map_url(played), first)):  # drawn, 304
        assert "private" in response["Cache-Control"]
        assert "no-cache" in response["Cache-Control"]
        assert "Cookie" in response["Vary"]


def test_a_revoked_membership_is_refused_at_once_whatever_the_browser_holds(
    played: Campaign, aussie: Any
) -> None:
    from campaign.models import Membership

    client = reader(aussie)
    first = client.get(map_url(played))
    Membership.objects.filter(user=aussie, campaign=played).delete()
    assert revalidate(client, map_url(played), first).status_code == 404


def test_a_stranger_with_a_readers_etag_is_refused(
    played: Campaign, aussie: Any, outsider: Any
) -> None:
    first = reader(aussie).get(map_url(played))
    assert revalidate(reader(outsider), map_url(played), first).status_code == 404


def test_the_stamp_is_kept_for_its_seconds_then_asked_again(
    played: Campaign, aussie: Any, settings: Any, django_assert_num_queries: Any
) -> None:
    from django.core.cache import cache

    settings.KORONA_STAMP_SECONDS = 1
    client = reader(aussie)
    first = client.get(map_url(played))
    advance_turn(campaign_id=played.pk)
    with django_assert_num_queries(0):  # the stamp, the session, the user: all kept
        assert revalidate(client, map_url(played), first).status_code == 304
    cache.delete(f"map-stamp:{played.pk}:{aussie.pk}")  # as its second runs out
    again = revalidate(client, map_url(played), first)
    assert again.status_code == 200
    assert "Turn 3 played" in again.content.decode()


def test_a_kept_refusal_is_still_a_refusal(played: Campaign, outsider: Any, settings: Any) -> None:
    settings.KORONA_STAMP_SECONDS = 1
    client = reader(outsider)
    assert client.get(map_url(played)).status_code == 404
    assert client.get(map_url(played)).status_code == 404
