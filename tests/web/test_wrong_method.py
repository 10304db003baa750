"""A GET to a form's address is a page that says so, never an empty 405 (a walk-through
opened ``/campaigns/1/orders/5/`` from a bookmark: the browser showed "This page isn't
working"). Nothing changes; the status and its Allow header stay; the API keeps its own
answer."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign, Order


def test_opening_an_orders_address_shows_a_page_and_changes_nothing(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    company = campaign.companies.filter(side="australian").first()
    client = login(aussie)
    answer = client.get(f"/campaigns/{campaign.pk}/orders/{company.pk}/")
    assert answer.status_code == 405
    assert answer["Allow"] == "POST"
    page = answer.content.decode()
    assert "This address is not a page" in page
    assert f'href="/campaigns/{campaign.pk}/"' in page
    assert f'href="/campaigns/{campaign.pk}/orders/"' in page
    assert not Order.objects.filter(company=company).exists()


def test_outside_a_campaign_the_page_links_the_campaigns(aussie: Any, login: Any) -> None:
    answer = login(aussie).get("/accounts/token/revoke/")
    assert answer.status_code == 405
    assert "This address is not a page" in answer.content.decode()
    assert 'href="/campaigns/' not in answer.content.decode().replace('href="/campaigns/"', "")


def test_a_wrong_method_to_the_api_keeps_the_api_s_answer(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    answer = login(aussie).delete(f"/api/campaigns/{campaign.pk}/")
    assert answer.status_code == 405
    assert answer["Content-Type"].startswith("application/json")
    assert "This address is not a page" not in answer.content.decode()


def test_a_wrong_post_keeps_django_s_answer(campaign: Campaign, aussie: Any, login: Any) -> None:
    """Only a person's GET (or HEAD) gets the page: a POST to a page's address is a
    program's mistake, answered as before."""
    answer = login(aussie).post(f"/campaigns/{campaign.pk}/orders/turn/")
    assert answer.status_code == 405
    assert answer.content == b""
