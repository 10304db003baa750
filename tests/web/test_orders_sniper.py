"""The sniper option of an order (rulings section 4) on the orders page and in the API
(the admin's order form: tests/admin/test_orders_admin.py): saved with the order, fed to
the turn, and never shown to the enemy."""

from __future__ import annotations

import re
from typing import Any

import pytest

from battles.models import Battle
from campaign.models import Campaign, Company, Order
from campaign.services.turns import advance_turn, give_order
from tests.admin.conftest import meeting_doc, new_campaign
from tests.api.helpers import company_id
from tests.api.helpers import url as api_url
from tests.web.conftest import join

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
JSON = "application/json"


def page(campaign: Campaign, *rest: Any) -> str:
    return "/".join([f"/campaigns/{campaign.pk}/orders", *(str(r) for r in rest)]) + "/"


def company(campaign: Campaign, name: str) -> Company:
    return Company.objects.get(campaign=campaign, name=name)


def test_the_orders_page_offers_the_sniper_to_fighting_companies_only(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    html = login(aussie).get(page(campaign)).content.decode()
    assert html.count('name="sniper"') == 3  # A, B and C Company; not the supply company


def test_the_sniper_box_says_one_sniper_a_battle(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """Two companies defending together both ticked it and one sniper was fielded, as
    docs/campaign.md ("Snipers") rules: the box says so."""
    html = login(aussie).get(page(campaign)).content.decode()
    boxes = re.findall(r'<label class="sniper-choice">(.*?)</label>', html, re.S)
    assert len(boxes) == 3
    assert all("one sniper a battle, however many companies defend together" in b for b in boxes)


def test_a_sniper_given_on_the_page_is_saved_and_shown(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    response = client.post(page(campaign, a), {"order": "hold", "sniper": "on"}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "a sniper if it defends" in html and 'name="sniper" checked' in html
    assert Order.objects.get().sniper is True
    client.post(page(campaign, a), {"order": "hold"}, **HTMX)  # unticked: none
    assert Order.objects.get().sniper is False


def test_the_enemy_never_sees_a_sniper_order(campaign: Campaign, japanese: Any, login: Any) -> None:
    client = login(japanese)

    def seen() -> str:  # the page without its per-request CSRF tokens
        return re.sub(r"[A-Za-z0-9]{64}", "", client.get(page(campaign)).content.decode())

    before_page = seen()
    before_api = client.get(api_url(campaign, "orders/")).content
    give_order(company=company(campaign, "A Company"), kind="hold", sniper=True, side="australian")
    assert seen() == before_page
    assert client.get(api_url(campaign, "orders/")).content == before_api


def test_the_api_takes_and_gives_the_sniper_option(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    body = {"company": company_id(played, "C Company (militia)"), "kind": "hold", "sniper": True}
    response = client.post(api_url(played, "orders/"), body, JSON)
    assert response.status_code == 201, response.content
    assert response.json()["sniper"] is True
    order = Order.objects.get()
    assert order.sniper is True
    # PATCH keeps it unless given; PUT without it sets it back to no.
    detail = api_url(played, f"orders/{order.pk}/")
    assert client.patch(detail, {"kind": "hold"}, JSON).json()["sniper"] is True
    assert client.patch(detail, {"sniper": False}, JSON).json()["sniper"] is False
    client.patch(detail, {"sniper": True}, JSON)
    assert client.put(detail, {"kind": "hold"}, JSON).json()["sniper"] is False
    bad = client.patch(detail, {"sniper": "perhaps"}, JSON)
    assert bad.status_code == 400 and list(bad.json()) == ["sniper"]


@pytest.mark.parametrize("sniper", [True, False])
def test_the_turn_fights_the_battle_with_the_players_choice(
    sniper: bool, django_user_model: Any
) -> None:
    campaign = new_campaign(doc=meeting_doc())
    player = django_user_model.objects.create_user("aussie2", password="pw")
    join(player, campaign, "australian")
    for name in ("A Company", "B Company"):
        give_order(company=company(campaign, name), kind="hold", sniper=sniper)
    advance_turn(campaign_id=campaign.pk)
    specs = [b.spec for b in Battle.objects.filter(campaign=campaign)]
    assert specs and all(spec["defender"]["sniper"] is sniper for spec in specs)


def test_a_spectator_leaves_the_sides_to_the_ai(django_user_model: Any) -> None:
    from campaign.models import SPECTATOR, Membership
    from campaign.services.turns import played_sides

    campaign = new_campaign()
    watcher = django_user_model.objects.create_user("watcher", password="pw")
    Membership.objects.create(user=watcher, campaign=campaign, side=SPECTATOR)
    assert played_sides(campaign) == set()
    join(watcher, new_campaign("Korona 2"), "japanese")
    assert played_sides(campaign) == set()
