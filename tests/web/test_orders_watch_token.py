"""The slow poll's token (``orders-watch``) kept as the page is: an order's (and a
"ready"'s) own answer brings the new token, so the next poll is a 204 rather than one
full check that finds nothing; and the token covers which sides are ready and orders
closing (the deadline passed, the turn started), so the ready box follows a teammate and
the enemy, and a page left open across the deadline notices."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from campaign.models import Campaign, Order, Turn
from campaign.services import planning
from tests.web.conftest import join
from tests.web.test_orders_watch import HTMX, Page, advance

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    monkeypatch.setattr(planning, "ODDS_RUNS", 20)
    monkeypatch.setattr(planning, "ODDS_CHUNK", 10)


@pytest.fixture
def teammate(django_user_model: Any, campaign: Campaign) -> Any:
    mate = django_user_model.objects.create_user("mate", password="a long password 1")
    join(mate, campaign, "australian")
    return mate


def ready_box(text: str) -> str:
    match = re.search(r'<section class="ready-box" id="ready"[^>]*>.*?</section>', text, re.S)
    assert match, "no ready box"
    return match.group(0)


def test_an_orders_own_answer_brings_the_new_token(
    campaign: Campaign, aussie: Any, login: Any, django_assert_num_queries: Any
) -> None:
    b = campaign.companies.get(name="B Company").pk
    oivi = campaign.areas.get(name="Oivi").pk
    page = Page(login(aussie), campaign)
    seen = page.watch
    answer = page.client.post(
        f"/campaigns/{campaign.pk}/orders/{b}/", {"order": f"advance:{oivi}", "turn": "1"}, **HTMX
    )
    text = answer.content.decode()
    # Out of band: the poll with its token as the order left it (htmx swaps it in).
    assert re.search(r'<div id="orders-watch" hx-get="[^"]+"[^>]*hx-swap-oob="true"', text)
    page.take(text)
    assert page.watch != seen
    with django_assert_num_queries(1):
        assert page.poll().status_code == 204  # no full check that finds nothing


def test_ready_and_unready_answers_bring_the_new_token(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    page = Page(login(aussie), campaign)
    answer = page.client.post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"}, **HTMX)
    page.take(answer.content.decode())
    assert page.poll().status_code == 204
    answer = page.client.post(f"/campaigns/{campaign.pk}/orders/unready/", {"turn": "1"}, **HTMX)
    page.take(answer.content.decode())
    assert page.poll().status_code == 204


def test_a_teammates_ready_brings_the_ready_box(
    campaign: Campaign, aussie: Any, teammate: Any, login: Any, django_assert_num_queries: Any
) -> None:
    page = Page(login(aussie), campaign)
    assert "My orders for turn 1 are ready" in ready_box(page.text)
    login(teammate).post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"})
    answer = page.poll()
    assert answer.status_code == 200
    box = ready_box(answer.content.decode())
    assert 'hx-swap-oob="true"' in box and "Your side's orders are marked ready" in box
    assert "My orders for turn 1 are ready" not in box
    with django_assert_num_queries(1):  # the token's one query, ready in it
        assert page.poll().status_code == 204


def test_a_page_open_across_the_deadline_notices(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(
        next_deadline=timezone.now() + timedelta(seconds=2)
    )
    page = Page(login(aussie), campaign)
    assert page.poll().status_code == 204
    Campaign.objects.filter(pk=campaign.pk).update(
        next_deadline=timezone.now() - timedelta(seconds=1)
    )
    answer = page.poll()
    assert answer.status_code == 200
    assert "The turn is due now" in ready_box(answer.content.decode())
    assert page.poll().status_code == 204


def test_a_turn_started_closes_the_pages_orders(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = campaign.companies.get(name="A Company").pk
    advance(campaign, "A Company")
    page = Page(login(aussie), campaign)
    Turn.objects.create(campaign=campaign, number=1, seed=1, status=Turn.Status.BATTLES_PENDING)
    answer = page.poll()
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "Orders for turn 2 are not open yet" in ready_box(text)
    # Every card again, without its form; the poll stops (the turn poll goes on).
    card = re.search(rf'<article class="order-card" id="company-{a}".*?</article>', text, re.S)
    assert card and "<form" not in card.group(0)
    assert 'id="orders-watch"' not in text


def test_the_enemys_ready_brings_the_ready_box(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any, django_assert_num_queries: Any
) -> None:
    """Which sides are ready is public (rulings section 6) and the ready box lists them:
    the token left out the enemy's "ready" (until its last one brought the deadline to
    now), so a page left open said "Japanese: not ready yet" of a side that was."""
    page = Page(login(aussie), campaign)
    assert "Japanese: not ready yet" in ready_box(page.text)
    enemy = login(japanese)
    enemy.post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"})
    answer = page.poll()
    assert answer.status_code == 200
    box = ready_box(answer.content.decode())
    assert 'hx-swap-oob="true"' in box and "Japanese: <strong>ready</strong>" in box
    assert "Australians: not ready yet" in box
    with django_assert_num_queries(1):  # the token's one query, every side's ready in it
        assert page.poll().status_code == 204
    enemy.post(f"/campaigns/{campaign.pk}/orders/unready/", {"turn": "1"})
    answer = page.poll()
    assert answer.status_code == 200
    assert "Japanese: not ready yet" in ready_box(answer.content.decode())
    with django_assert_num_queries(1):
        assert page.poll().status_code == 204


def test_the_enemys_ready_goes_in_the_token_as_the_page_shows_it(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    """Only that the enemy is ready, not when or how often: marked, taken back and marked
    again between two polls, the page shows what it showed, and the poll says so."""
    enemy = login(japanese)
    enemy.post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"})
    page = Page(login(aussie), campaign)
    enemy.post(f"/campaigns/{campaign.pk}/orders/unready/", {"turn": "1"})
    enemy.post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"})
    assert page.poll().status_code == 204


def test_the_enemys_orders_leave_the_token(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    page = Page(login(aussie), campaign)
    first = campaign.companies.get(name="1st Company").pk
    answer = login(japanese).post(
        f"/campaigns/{campaign.pk}/orders/{first}/", {"order": "hold", "turn": "1"}
    )
    assert answer.status_code == 302
    assert Order.objects.filter(company_id=first, turn_number=1).exists()  # given
    assert page.poll().status_code == 204


@pytest.mark.parametrize(
    ("query", "status", "area_status"), [("?side=japanese", 403, 404), ("?side=martians", 400, 404)]
)
def test_a_side_refused_is_refused_alike_by_the_page_and_its_polls(
    campaign: Campaign, aussie: Any, login: Any, query: str, status: int, area_status: int
) -> None:
    client = login(aussie)
    base = f"/campaigns/{campaign.pk}/orders/"
    oivi = campaign.areas.get(name="Oivi").pk
    assert client.get(base + query).status_code == status
    assert client.get(f"{base}turn/{query}&turn=7", **HTMX).status_code == status
    assert client.get(f"{base}watch/{query}&seen=1.x", **HTMX).status_code == status
    assert client.get(f"{base}watch/{query}&seen=7.x", **HTMX).status_code == status
    assert client.get(f"{base}area/{oivi}/odds/{query}", **HTMX).status_code == area_status
