"""Two silent failures of the players' pages (walk-through of 7 December 2026).

- Signed out (the session expired, or ended in another tab), an htmx request (an order,
  "ready", a poll) was redirected to the sign-in page, whose whole page htmx swapped into
  the company's card; signing in there led to the order's address ("This address is not a
  page") and the order was lost. Now it is answered with ``HX-Redirect`` to the sign-in
  page, whose ``next`` is the page the reader is on (``config.signedout``).
- A form whose CSRF token is no longer good (the player signed out and in in another tab)
  got a bare 403 (htmx: nothing on screen) or Django's raw "CSRF verification failed". Now
  it is a plain-words page, or for htmx the sentence alone, which the page shows in place
  (``config.views.csrf_failure``; ``not-saved.js``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.test import Client

from campaign.models import Campaign, Order, SideReady
from config.signedout import NOT_SAVED, SIGNED_OUT
from config.views import CHANGED, NO_COOKIE

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def page_of(campaign: Campaign, host: str = "testserver") -> dict[str, str]:
    """htmx's headers for a request sent from the campaign's orders page."""
    return {**HTMX, "HTTP_HX_CURRENT_URL": f"http://{host}/campaigns/{campaign.pk}/orders/"}


def a_company(campaign: Campaign) -> Any:
    return campaign.companies.get(name="A Company")


def give(client: Client, campaign: Campaign, **headers: Any) -> Any:
    company = a_company(campaign)
    area = campaign.areas.get(name="Isura")
    return client.post(
        f"/campaigns/{campaign.pk}/orders/{company.pk}/",
        {"action": "give", "order": f"withdraw:{area.pk}", "turn": "1", "seen": "-"},
        **headers,
    )


def test_an_order_sent_signed_out_with_htmx_opens_the_sign_in_page_whole(
    campaign: Campaign,
) -> None:
    client = Client()
    answer = give(client, campaign, **page_of(campaign))
    orders_page = quote(f"/campaigns/{campaign.pk}/orders/", safe="/")
    assert answer.status_code == 204
    assert answer["HX-Redirect"] == f"/accounts/login/?next={orders_page}"
    assert answer.content == b""  # no page to swap into the card
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [NOT_SAVED]
    assert not Order.objects.filter(campaign=campaign).exists()
    # The sign-in page says why, once.
    sign_in = client.get(answer["HX-Redirect"])
    assert NOT_SAVED in sign_in.content.decode()
    assert f'name="next" value="/campaigns/{campaign.pk}/orders/"' in sign_in.content.decode()


def test_ready_sent_signed_out_with_htmx_opens_the_sign_in_page_whole(campaign: Campaign) -> None:
    answer = Client().post(
        f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"}, **page_of(campaign)
    )
    assert answer["HX-Redirect"].startswith("/accounts/login/?next=")
    assert not SideReady.objects.exists()


@pytest.mark.parametrize(
    "poll",
    [
        "orders/turn/?turn=1",
        "orders/watch/?seen=x",
        "orders/area/1/odds/",
        "map/live/",
        "messages/latest/",
    ],
)
def test_a_poll_signed_out_opens_the_sign_in_page_whole(campaign: Campaign, poll: str) -> None:
    answer = Client().get(f"/campaigns/{campaign.pk}/{poll}", **page_of(campaign))
    orders_page = quote(f"/campaigns/{campaign.pk}/orders/", safe="/")
    assert answer.status_code == 204
    assert answer["HX-Redirect"] == f"/accounts/login/?next={orders_page}"
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [SIGNED_OUT]


def test_the_page_says_once_that_its_polls_found_the_reader_signed_out(
    campaign: Campaign,
) -> None:
    client = Client()
    for poll in ("orders/turn/?turn=1", "orders/watch/?seen=x", "orders/turn/?turn=1"):
        client.get(f"/campaigns/{campaign.pk}/{poll}", **page_of(campaign))
    give(client, campaign, **page_of(campaign))
    sign_in = client.get("/accounts/login/").content.decode()
    assert sign_in.count(SIGNED_OUT) == 1
    assert sign_in.count(NOT_SAVED) == 1


def test_another_sites_page_is_not_where_signing_in_leads(campaign: Campaign) -> None:
    answer = give(Client(), campaign, **page_of(campaign, host="elsewhere.example"))
    assert answer["HX-Redirect"] == "/accounts/login/"


def test_an_order_sent_signed_out_without_script_leads_back_to_its_page(
    campaign: Campaign,
) -> None:
    """Not to the form's address, whose page says "This address is not a page"."""
    client = Client()
    orders_page = f"/campaigns/{campaign.pk}/orders/"
    answer = give(client, campaign, HTTP_REFERER=f"http://testserver{orders_page}")
    assert answer.status_code == 302
    assert answer["Location"] == f"/accounts/login/?next={quote(orders_page, safe='/')}"
    assert "HX-Redirect" not in answer
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [NOT_SAVED]
    assert not Order.objects.filter(campaign=campaign).exists()


def test_signed_out_without_script_or_page_is_sent_to_sign_in_as_before(
    campaign: Campaign,
) -> None:
    company = a_company(campaign)
    answer = give(Client(), campaign)  # no Referer: the form's address, as before
    assert answer.status_code == 302
    assert answer["Location"] == (
        f"/accounts/login/?next={quote(f'/campaigns/{campaign.pk}/orders/{company.pk}/', safe='/')}"
    )
    page = Client().get(f"/campaigns/{campaign.pk}/orders/")  # a page opened signed out
    assert page["Location"] == (
        f"/accounts/login/?next={quote(f'/campaigns/{campaign.pk}/orders/', safe='/')}"
    )
    assert [str(m) for m in get_messages(page.wsgi_request)] == []


def test_a_signed_in_htmx_order_is_answered_as_before(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    answer = give(login(aussie), campaign, **page_of(campaign))
    assert answer.status_code == 200
    assert "HX-Redirect" not in answer
    assert Order.objects.filter(campaign=campaign).count() == 1


def test_signing_out_lands_on_the_sign_in_page_as_before(aussie: Any, login: Any) -> None:
    client = login(aussie)
    answer = client.post("/accounts/logout/", HTTP_REFERER="http://testserver/campaigns/")
    assert answer["Location"] == "/accounts/login/"
    assert [str(m) for m in get_messages(answer.wsgi_request)] == ["You are signed out."]


def stale_tab(user: Any) -> tuple[Client, str]:
    """A tab signed in as ``user`` whose page holds a token of a CSRF cookie since renewed
    (the player signed out and in in another tab)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/campaigns/")  # the page drawn: its cookie and a token of it
    old = client.cookies["csrftoken"].value
    client.cookies["csrftoken"] = "n" * 32  # signing in again renewed the cookie
    return client, old


@pytest.mark.parametrize("htmx", [False, True])
def test_an_order_with_a_token_no_longer_good_says_nothing_was_saved(
    campaign: Campaign, aussie: Any, htmx: bool
) -> None:
    client, old = stale_tab(aussie)
    company = a_company(campaign)
    area = campaign.areas.get(name="Isura")
    answer = client.post(
        f"/campaigns/{campaign.pk}/orders/{company.pk}/",
        {"action": "give", "order": f"withdraw:{area.pk}", "turn": "1", "seen": "-"},
        HTTP_X_CSRFTOKEN=old,
        HTTP_REFERER=f"http://testserver/campaigns/{campaign.pk}/orders/",
        **(HTMX if htmx else {}),
    )
    assert answer.status_code == 403
    assert not Order.objects.filter(campaign=campaign).exists()
    body = answer.content.decode()
    if htmx:  # the sentence alone, for the page to show where the form is
        assert answer["Content-Type"].startswith("text/plain")
        assert body == CHANGED
    else:
        assert "CSRF verification failed" not in body
        assert "This page was out of date: nothing was saved" in body
        assert CHANGED in body
        assert f'<a href="/campaigns/{campaign.pk}/orders/">Back to the page</a>' in body


def test_the_page_links_back_only_to_this_sites_pages(campaign: Campaign, aussie: Any) -> None:
    client, old = stale_tab(aussie)
    answer = client.post(
        f"/campaigns/{campaign.pk}/orders/ready/",
        {"turn": "1", "csrfmiddlewaretoken": old},
        HTTP_REFERER="https://elsewhere.example/campaigns/1/orders/",
    )
    assert answer.status_code == 403
    assert "Back to the page" not in answer.content.decode()
    assert not SideReady.objects.exists()


def test_a_browser_sending_no_cookie_is_told_to_allow_cookies(campaign: Campaign) -> None:
    answer = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x"})
    assert answer.status_code == 403
    assert NO_COOKIE in answer.content.decode()
