"""A turn or an area sent as a number that ``str.isdigit`` takes but is no plain number
(a superscript '²', another script's digit '٢', 5,000 digits) is refused in words and
changes nothing: it never reaches a 500, nor files an order for a turn nobody typed."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from campaign.models import Campaign, Order, SideReady
from campaign.services.turns import advance_turn, give_order
from config.numbers import whole_number

pytestmark = pytest.mark.django_db
ODD = ["²", "٢", "1²", "9" * 5000, " 1", "-1", ""]


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


@pytest.fixture
def gm(django_user_model: Any) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("boss", "b@example.com", "pw"))
    return client


@pytest.mark.parametrize(
    ("raw", "number"),
    [("1", 1), ("007", 7), ("999999999999", 999_999_999_999)]
    + [(odd, None) for odd in [*ODD, "1" * 13, "1.0", "+1", "1_0", None]],
)
def test_whole_number_takes_only_plain_ascii_digits(raw: Any, number: int | None) -> None:
    assert whole_number(raw) == number


@pytest.mark.parametrize("odd", ODD)
def test_the_orders_poll_refuses_an_odd_turn(
    campaign: Campaign, aussie: Any, login: Any, odd: str
) -> None:
    answer = login(aussie).get(f"/campaigns/{campaign.pk}/orders/turn/", {"turn": odd})
    assert answer.status_code == 400
    assert answer.content == b"turn: a turn number"


@pytest.mark.parametrize("odd", ODD[:4])
@pytest.mark.parametrize(
    ("form", "refusal"),
    [
        (
            {"order": "hold", "turn": "{odd}"},
            "turn number was changed or lost: open the orders page",
        ),
        (
            {"order": "advance:{odd}", "turn": "1"},
            "Refused: that is not an order this company can be given: choose hold, or an "
            "area linked to",
        ),
    ],
    ids=["turn", "area"],
)
def test_an_order_with_an_odd_turn_or_area_is_refused(
    campaign: Campaign, aussie: Any, login: Any, odd: str, form: dict[str, str], refusal: str
) -> None:
    a = campaign.companies.get(name="A Company")
    data = {key: value.format(odd=odd) for key, value in form.items()}
    answer = login(aussie).post(f"/campaigns/{campaign.pk}/orders/{a.pk}/", data)
    assert answer.status_code == 422
    assert refusal in answer.content.decode()
    assert not Order.objects.exists()


@pytest.mark.parametrize("odd", ODD[:4])
def test_unready_from_a_page_of_an_odd_turn_is_refused(
    campaign: Campaign, aussie: Any, login: Any, odd: str
) -> None:
    client = login(aussie)
    assert client.post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"}).status_code < 400
    answer = client.post(f"/campaigns/{campaign.pk}/orders/unready/", {"turn": odd})
    assert answer.status_code < 500
    assert "turn number was changed or lost: open the orders page again" in answer.content.decode()
    assert SideReady.objects.filter(campaign=campaign, turn_number=1).exists()


@pytest.mark.parametrize("odd", ODD[:4])
def test_the_gm_advance_button_with_an_odd_turn_plays_nothing(
    campaign: Campaign, gm: Client, odd: str
) -> None:
    answer = gm.post(
        f"/admin/campaign/campaign/{campaign.pk}/advance/", {f"seen_turn_{campaign.pk}": odd}
    )
    assert answer.status_code == 302
    campaign.refresh_from_db()
    assert campaign.turn == 0


@pytest.mark.parametrize("odd", ODD[:4])
def test_the_gm_roll_back_with_an_odd_preview_rolls_nothing_back(
    campaign: Campaign, gm: Client, odd: str
) -> None:
    give_order(company=campaign.companies.get(name="A Company"), kind="hold", side="australian")
    advance_turn(campaign_id=campaign.pk)
    advance_turn(campaign_id=campaign.pk)
    answer = gm.post(
        f"/admin/campaign/campaign/{campaign.pk}/rollback/", {"number": "2", "previewed": odd}
    )
    assert answer.status_code == 200
    campaign.refresh_from_db()
    assert campaign.turn == 2
