"""Pinned query counts of every API list on ``big_campaign`` (10x the companies of Korona):
none may grow with the companies, the areas, the turns or the battles.

Every request signed in by session costs 1 query: the user (the session is read from the
cache). Opening a
campaign (``open_campaign``) costs 10 for a player: the campaign row, the player's
membership, the snapshot's 7 (sides, areas, links, companies, stand counts, ships, air
groups), and the turns' start states (the fog of war: what the side saw). A page
costs 2 more: the count and the rows. Every read of a campaign reads its stamp first
(1 query), and keeps the opened campaign under it for the reader's side; the lists that
follow from the stamp alone (areas, companies, turns, adjustments) are kept whole for
their reader. Asked again, a kept list costs the stamp, another list the stamp and its
page.

The lists that change without the stamp (campaigns, orders, battles, commitments) are kept
too, under a digest of their rows read afresh by every request: one query (for the
campaign lists, with the stamp). A miss builds the answer in one transaction (here a
savepoint and its release, inside the test's), reading the digest again, the campaign
opened afresh and the page. Asked again, they cost that one query."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, Company, Order
from tests.api.helpers import url

pytestmark = pytest.mark.django_db

SIGNED_IN = 1
OPEN_CAMPAIGN = 10
PAGE = 2
STAMP = 1
KEPT = {"areas/", "companies/", "turns/"}
DIGESTED = {"battles/", "orders/", "commitments/"}
SNAPSHOT = 2  # the savepoint of the transaction a digested list is built in, and its release
DIGEST = 1
# Read whole through the CampaignView, then paged: one query for the rows, no count.
READ_WHOLE = {"adjustments/", "commitments/"}


def test_campaign_list_queries(
    big_campaign: Campaign, aussie: Any, login: Any, django_assert_num_queries: Any
) -> None:
    client = login(aussie)
    # signed in, the digest of the player's campaigns, then in one transaction the digest
    # again, the player's sides in every campaign (one query) and the page
    with django_assert_num_queries(SIGNED_IN + DIGEST + SNAPSHOT + DIGEST + 1 + PAGE):
        response = client.get("/api/campaigns/")
    assert response.status_code == 200
    # Asked again with nothing changed: the digest alone.
    with django_assert_num_queries(DIGEST):
        assert client.get("/api/campaigns/").json() == response.json()


@pytest.mark.parametrize(
    "rest",
    ["areas/", "companies/", "turns/", "adjustments/", "battles/", "orders/", "commitments/"],
)
def test_campaign_lists_queries(
    big_campaign: Campaign,
    aussie: Any,
    login: Any,
    django_assert_num_queries: Any,
    rest: str,
) -> None:
    _orders_for_every_company(big_campaign)
    client = login(aussie)
    # signed in, the campaign opened, and the page: areas come from the snapshot, companies
    # from their CompanyView, battles with their turn and area joined, orders with their
    # company, target and giver joined.
    # A digested list: its stamp and digest, then in one transaction the same again, the
    # campaign opened afresh and the page.
    first = SIGNED_IN + STAMP + OPEN_CAMPAIGN + (1 if rest in READ_WHOLE else PAGE)
    if rest in DIGESTED:
        first += SNAPSHOT + STAMP
    with django_assert_num_queries(first):
        response = client.get(url(big_campaign, rest))
    assert response.status_code == 200
    assert response.json()["count"] > 0 or rest == "adjustments/"
    # Asked again with nothing changed (the user, read for the request before, comes
    # from the cache): a kept list costs the stamp (a digested one with its digest).
    with django_assert_num_queries(STAMP):
        assert client.get(url(big_campaign, rest)).json() == response.json()


def test_company_list_filtered_on_hidden_fields_queries(
    big_campaign: Campaign, aussie: Any, login: Any, django_assert_num_queries: Any
) -> None:
    client = login(aussie)
    with django_assert_num_queries(SIGNED_IN + STAMP + OPEN_CAMPAIGN + PAGE):
        response = client.get(url(big_campaign, "companies/?quality=trained&strength_band=strong"))
    assert response.json()["count"] > 0


def _orders_for_every_company(campaign: Campaign) -> None:
    """A hold order for each Australian company, so the order list has rows to page."""
    Order.objects.bulk_create(
        Order(campaign=campaign, company=company, turn_number=campaign.turn + 1, kind="hold")
        for company in Company.objects.filter(campaign=campaign, side="australian")
    )
