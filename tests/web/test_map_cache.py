"""The drawn map page is kept per reader until the campaign changes, and the one query
that decides it (``campaign_stamp``) lets in exactly whom ``campaigns_for`` lets in."""

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


def test_a_reader_who_reloads_gets_the_kept_page_after_one_query(
    played: Campaign, aussie: Any, django_assert_num_queries: Any
) -> None:
    client = reader(aussie)
    first = client.get(map_url(played))
    # The session and the user are read from the cache; the stamp (which decides access)
    # is the one query, and the page comes from the cache.
    with django_assert_num_queries(1):
        again = client.get(map_url(played))
    assert again.status_code == 200
    assert again.content == first.content


def test_a_played_turn_draws_the_page_again(played: Campaign, aussie: Any) -> None:
    client = reader(aussie)
    assert "Turn 2 played" in client.get(map_url(played)).content.decode()
    advance_turn(campaign_id=played.pk)
    assert "Turn 3 played" in client.get(map_url(played)).content.decode()


def test_a_gm_adjustment_draws_the_page_again(played: Campaign, aussie: Any, gm_user: Any) -> None:
    client = reader(aussie)
    before = client.get(map_url(played)).content
    oivi = Area.objects.get(campaign=played, name="Oivi")
    set_control(
        area=oivi,
        side="australian" if oivi.controller != "australian" else None,
        reason="the GM rules it",
        user=gm_user,
    )
    assert client.get(map_url(played)).content != before


def test_turning_the_fog_off_draws_the_page_again_with_every_company(
    played: Campaign, aussie: Any
) -> None:
    from campaign.services.campaigns import update_settings

    client = reader(aussie)
    hidden = "1st Company"  # out of the Australians' sight in the played campaign
    assert hidden not in client.get(map_url(played)).content.decode()
    update_settings(
        campaign=played,
        settings={**played.settings, "fog_of_war": False},
        reason="the players agreed to play in the open",
    )
    assert hidden in client.get(map_url(played)).content.decode()


def test_one_side_never_gets_the_other_sides_kept_page(
    played: Campaign, aussie: Any, japanese: Any
) -> None:
    australian = reader(aussie).get(map_url(played)).content.decode()
    japanese_page = reader(japanese).get(map_url(played)).content.decode()
    assert "aussie" in australian and "aussie" not in japanese_page
    assert "Japanese" in japanese_page and "japanese · Japanese" not in australian


def test_a_browser_without_its_csrf_cookie_gets_a_drawn_page(
    played: Campaign, aussie: Any, django_assert_num_queries: Any
) -> None:
    client = Client()
    client.force_login(aussie)
    client.get(map_url(played))
    client.cookies.pop("csrftoken", None)
    # Drawn again: the stamp, then opening the campaign (campaign, membership, the
    # snapshot's 7, the turns' start states for the fog of war); the user comes from the
    # cache.
    with django_assert_num_queries(11):
        client.get(map_url(played))


def test_a_page_with_messages_to_show_is_drawn_and_shows_them(
    played: Campaign, aussie: Any
) -> None:
    client = reader(aussie)
    client.get(map_url(played))
    storage = CookieStorage(HttpRequest())
    storage.add(constants.INFO, "Order given.")
    carrier = HttpResponse()
    storage.update(carrier)
    client.cookies["messages"] = carrier.cookies["messages"].value
    page = client.get(map_url(played))
    assert "Order given." in page.content.decode()
    assert "Order given." not in client.get(map_url(played)).content.decode()  # shown once


def test_a_player_moved_to_the_other_side_gets_the_other_sides_page(
    played: Campaign, aussie: Any
) -> None:
    from campaign.models import Membership

    client = reader(aussie)
    assert "aussie · Australian" in client.get(map_url(played)).content.decode()
    Membership.objects.filter(user=aussie, campaign=played).update(side="japanese")
    assert "aussie · Japanese" in client.get(map_url(played)).content.decode()


def test_the_stamp_names_the_readers_side(played: Campaign, aussie: Any, gm_user: Any) -> None:
    assert campaign_stamp(user=aussie, campaign_id=played.pk)["side"] == "australian"
    assert campaign_stamp(user=gm_user, campaign_id=played.pk)["side"] is None


def test_a_kept_page_is_marked_private_to_its_reader(played: Campaign, aussie: Any) -> None:
    client = reader(aussie)
    for response in (client.get(map_url(played)), client.get(map_url(played))):  # drawn, kept
        assert "private" in response["Cache-Control"]
        assert "Cookie" in response["Vary"]


def test_the_stamp_is_kept_for_its_seconds_then_asked_again(
    played: Campaign, aussie: Any, settings: Any, django_assert_num_queries: Any
) -> None:
    from django.core.cache import cache

    settings.KORONA_STAMP_SECONDS = 1
    client = reader(aussie)
    assert "Turn 2 played" in client.get(map_url(played)).content.decode()
    advance_turn(campaign_id=played.pk)
    with django_assert_num_queries(0):  # the stamp, the session, the user: all kept
        assert "Turn 2 played" in client.get(map_url(played)).content.decode()
    cache.delete(f"map-stamp:{played.pk}:{aussie.pk}")  # as its second runs out
    assert "Turn 3 played" in client.get(map_url(played)).content.decode()


def test_a_kept_refusal_is_still_a_refusal(played: Campaign, outsider: Any, settings: Any) -> None:
    settings.KORONA_STAMP_SECONDS = 1
    client = reader(outsider)
    assert client.get(map_url(played)).status_code == 404
    assert client.get(map_url(played)).status_code == 404
