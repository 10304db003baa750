"""Deleting a campaign from the GM's admin: a confirmation that says what goes with it,
then the campaign and everything in it gone, its players' links finding nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from battles.models import Battle
from campaign.models import Area, Campaign, Company, CompanyStands, Membership, Turn
from campaign.services.turns import advance_turn
from notifications.invitations import invite_every_side
from tests.admin.conftest import new_campaign, opened, waiting_campaign

pytestmark = pytest.mark.django_db


def delete_url(campaign: Campaign) -> str:
    return f"/admin/campaign/campaign/{campaign.pk}/delete/"


def with_players(campaign: Campaign, django_user_model: Any) -> Any:
    """alice plays the Australians, bob the Japanese; alice's client."""
    alice = django_user_model.objects.create_user("alice", "a@example.com", "pw")
    bob = django_user_model.objects.create_user("bob", "b@example.com", "pw")
    Membership.objects.create(campaign=campaign, user=alice, side="australian")
    Membership.objects.create(campaign=campaign, user=bob, side="japanese")
    client = Client()
    client.force_login(alice)
    return client


def test_the_delete_page_says_what_goes_with_the_campaign(
    gm: Client, django_user_model: Any
) -> None:
    """The walk-through's page refused: "your account doesn't have permission to delete
    ... air group, ship, battle, company, turn, area, order, link"."""
    campaign, _ = waiting_campaign()
    with_players(campaign, django_user_model)
    page = gm.get(delete_url(campaign)).content.decode()
    assert "permission" not in page
    assert "Deleting it deletes" in page
    assert "1 turn played" in page
    assert f"{Company.objects.filter(campaign=campaign).count()} companies" in page
    assert "2 battles (2 waiting for a result from the table)" in page
    assert "2 players&#x27; memberships: alice (Australians), bob (Japanese)" in page
    assert "Yes, delete it all" in page
    assert "Export scenario" in page


def test_deleting_a_campaign_deletes_everything_in_it_and_nothing_else(
    gm: Client, django_user_model: Any, gm_user: Any
) -> None:
    campaign, _ = waiting_campaign()
    other = new_campaign("Korona 2")
    advance_turn(campaign_id=other.pk)
    with_players(campaign, django_user_model)
    invite_every_side(campaign=campaign, user=gm_user, note="")
    kept = {
        model: model.objects.exclude(campaign=campaign).count()
        for model in (Turn, Company, Battle, Area)
    }
    response = gm.post(delete_url(campaign), opened(gm, delete_url(campaign)))
    assert response.status_code == 302
    assert response.url == "/admin/campaign/campaign/"
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    for model, count in kept.items():
        assert not model.objects.filter(campaign_id=campaign.pk).exists()
        assert model.objects.count() == count
    assert not Membership.objects.filter(campaign_id=campaign.pk).exists()
    assert django_user_model.objects.filter(username="alice").exists()  # accounts stay
    # Its rows' history goes too (named by id only, no foreign key to cascade on).
    assert not Campaign.history.filter(id=campaign.pk).exists()
    assert not Company.history.filter(campaign_id=campaign.pk).exists()
    assert not CompanyStands.history.exclude(company_id__in=Company.history.values("id")).exists()
    assert Campaign.history.filter(id=other.pk).exists()
    listed = gm.get(response.url).content.decode()
    assert "Korona 1 and everything in it were deleted." in listed


def test_a_campaign_changed_since_the_page_was_read_is_not_deleted(gm: Client) -> None:
    """The page said what goes; a turn played since would go unseen."""
    campaign = new_campaign()
    sent = opened(gm, delete_url(campaign))
    advance_turn(campaign_id=campaign.pk)
    response = gm.post(delete_url(campaign), sent, follow=True)
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    assert "Nothing was changed" in response.content.decode()


def test_a_second_click_after_deleting_says_so(gm: Client) -> None:
    campaign = new_campaign()
    sent = opened(gm, delete_url(campaign))
    gm.post(delete_url(campaign), sent)
    response = gm.post(delete_url(campaign), sent, follow=True)
    assert response.status_code == 200
    assert "Nothing was deleted: that campaign is not there" in response.content.decode()


def test_the_list_has_no_bulk_delete(gm: Client) -> None:
    new_campaign()
    page = gm.get("/admin/campaign/campaign/").content.decode()
    assert "delete_selected" not in page


def test_players_links_to_a_deleted_campaign_find_nothing(
    gm: Client, django_user_model: Any
) -> None:
    """Not found, never a server error: every page and API address of the campaign."""
    campaign, battles = waiting_campaign()
    alice = with_players(campaign, django_user_model)
    battle = next(iter(battles.values()))
    company = Company.objects.filter(campaign=campaign, side="australian").first()
    area = Area.objects.filter(campaign=campaign).first()
    assert company is not None and area is not None
    c = f"/campaigns/{campaign.pk}/"
    addresses = [
        c, f"{c}map/live/", f"{c}areas/{area.pk}/", f"{c}companies/{company.pk}/",
        f"{c}orders/", f"{c}turns/", f"{c}turns/1/", f"{c}turns/1/map/", f"{c}timelapse/",
        f"{c}battles/", f"{c}story/", f"{c}messages/", f"{c}messages/latest/",
        f"{c}battles/{battle.pk}/", f"{c}battles/{battle.pk}/sheet/",
        f"/api{c}", f"/api{c}turns/", f"/api{c}battles/", f"/api{c}orders/",
    ]  # fmt: skip
    assert alice.get(f"{c}turns/1/").status_code == 200
    gm.post(delete_url(campaign), opened(gm, delete_url(campaign)))
    for address in addresses:
        assert alice.get(address).status_code == 404, address
    assert "Korona 1" not in alice.get("/campaigns/").content.decode()
