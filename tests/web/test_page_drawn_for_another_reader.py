"""A page's polls after another player signed in in the same browser.

Player A's tab stays open; player B signs in in another tab. A's page kept polling with
B's session cookie and swapped B's facts (the Japanese side's companies, orders, odds)
into a page drawn for A. Now every page names the reader it was drawn for
(``X-Korona-Reader``, sent by htmx on each request, ``base.html``), and a poll from a
page drawn for another reader is answered with ``HX-Refresh`` and nothing of the view:
the page opens again whole, for the reader signed in now (``config.signedout``).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.test import Client

from campaign.models import Campaign, Order
from config.signedout import CHANGED, SIGNED_IN_AS, SIGNED_OUT, SIGNED_OUT_SINCE

pytestmark = pytest.mark.django_db

POLLS = [
    "orders/turn/?turn=1",
    "orders/watch/?seen=x",
    "orders/area/{area}/odds/",
    "map/live/",
    "map/live/?seen=x",
    "messages/latest/",
]


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def from_page_of(reader: Any, campaign: Campaign) -> dict[str, str]:
    """htmx's headers for a request from the orders page drawn for ``reader``."""
    return {
        "HTTP_HX_REQUEST": "true",
        "HTTP_HX_CURRENT_URL": f"http://testserver/campaigns/{campaign.pk}/orders/",
        "HTTP_X_KORONA_READER": str(reader.pk) if reader else "",
    }


def poll_of(campaign: Campaign, poll: str) -> str:
    area = campaign.areas.get(name="Korona")
    return f"/campaigns/{campaign.pk}/" + poll.format(area=area.pk)


def test_every_page_names_its_reader_in_htmxs_headers(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    for path in ("/campaigns/", f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/orders/"):
        page = login(aussie).get(path).content.decode()
        assert f'"X-Korona-Reader": "{aussie.pk}"' in page, path
    signed_out = Client().get("/accounts/login/").content.decode()
    assert '"X-Korona-Reader": ""' in signed_out


@pytest.mark.parametrize("poll", POLLS)
def test_a_poll_of_a_page_drawn_for_another_player_opens_the_page_again(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any, poll: str
) -> None:
    """The Australian's page, polling after the Japanese player signed in: nothing of
    the Japanese side comes back, only the order to open the page again."""
    client = login(japanese)
    answer = client.get(poll_of(campaign, poll), **from_page_of(aussie, campaign))
    assert answer.status_code == 204
    assert answer["HX-Refresh"] == "true"
    assert answer.content == b""
    assert "HX-Redirect" not in answer
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [
        SIGNED_IN_AS.format(name="japanese")
    ]


def test_the_page_opened_again_says_once_whom_it_is_for(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    client = login(japanese)
    for poll in POLLS:
        client.get(poll_of(campaign, poll), **from_page_of(aussie, campaign))
    page = client.get(f"/campaigns/{campaign.pk}/orders/").content.decode()
    said = SIGNED_IN_AS.format(name="japanese")
    assert page.count(said) == 1
    assert f'"X-Korona-Reader": "{client.session["_auth_user_id"]}"' in page


def test_a_page_drawn_signed_out_opens_again_for_whoever_signed_in(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    answer = login(aussie).get(poll_of(campaign, "map/live/"), **from_page_of(None, campaign))
    assert answer.status_code == 204
    assert answer["HX-Refresh"] == "true"


def test_a_poll_of_the_reader_it_was_drawn_for_is_answered_as_before(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    named = client.get(poll_of(campaign, "map/live/"), **from_page_of(aussie, campaign))
    unnamed = client.get(poll_of(campaign, "map/live/"), HTTP_HX_REQUEST="true")
    assert named.status_code == unnamed.status_code == 200
    assert "HX-Refresh" not in named
    assert named.content == unnamed.content
    assert b"live-map" in named.content


def test_a_page_whose_reader_signed_out_goes_to_sign_in_as_before(
    campaign: Campaign, aussie: Any
) -> None:
    answer = Client().get(poll_of(campaign, "map/live/"), **from_page_of(aussie, campaign))
    assert answer.status_code == 204
    assert answer["HX-Redirect"].startswith("/accounts/login/?next=")
    assert "HX-Refresh" not in answer
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [SIGNED_OUT]


def test_a_page_open_to_anyone_whose_reader_signed_out_opens_again(aussie: Any) -> None:
    """A page any reader may read (the sign-in page here) answered for nobody is not
    swapped into a page drawn for a player either."""
    answer = Client().get("/accounts/login/", HTTP_HX_REQUEST="true", HTTP_X_KORONA_READER="7")
    assert answer.status_code == 204
    assert answer["HX-Refresh"] == "true"
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [SIGNED_OUT_SINCE]


def test_an_order_from_a_page_drawn_for_another_player_saves_nothing(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    """Its CSRF token would fail first (signing in renews it); this client sends none
    checked, and the order is still refused, in the words ``not-saved.js`` shows."""
    company = campaign.companies.get(name="A Company")
    area = campaign.areas.get(name="Isura")
    answer = login(japanese).post(
        f"/campaigns/{campaign.pk}/orders/{company.pk}/",
        {"action": "give", "order": f"withdraw:{area.pk}", "turn": "1", "seen": "-"},
        **from_page_of(aussie, campaign),
    )
    assert answer.status_code == 403
    assert answer["Content-Type"].startswith("text/plain")
    assert answer.content.decode() == CHANGED
    assert not Order.objects.filter(campaign=campaign).exists()
