"""An orders page left open while a turn is played (issue 15): its forms say which turn
they were drawn for, an order, a take-back, a "ready" or an "unready" from a page of a
turn that has passed is refused in words and changes nothing, and the page's poll says
that the turn has been played."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Campaign, Order, SideReady
from campaign.services import planning
from campaign.services.campaigns import update_settings
from campaign.services.turns import OrdersOutOfDate, advance_turn, give_order
from campaign.services.visibility import open_campaign

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def url(campaign: Campaign, *rest: Any) -> str:
    return "/".join([f"/campaigns/{campaign.pk}/orders", *(str(r) for r in rest)]) + "/"


def orders(campaign: Campaign) -> list[tuple[str, int, str, str | None]]:
    return sorted(
        Order.objects.filter(campaign=campaign).values_list(
            "company__name", "turn_number", "kind", "target__name"
        )
    )


def text(response: Any) -> str:
    """The answer's words, without tags."""
    return " ".join(re.sub(r"<[^>]+>", "", response.content.decode()).split())


def test_every_form_on_the_page_carries_its_turn(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    advance_turn(campaign_id=campaign.pk)
    html = login(aussie).get(url(campaign)).content.decode()
    forms = html.count(f'<form method="post" action="/campaigns/{campaign.pk}/orders/')
    assert forms >= 5  # an order per company, and "ready"
    assert html.count('<input type="hidden" name="turn" value="2">') == forms
    assert f'hx-get="/campaigns/{campaign.pk}/orders/turn/?turn=2"' in html


@pytest.mark.parametrize("htmx", [False, True])
def test_an_order_from_the_page_of_a_played_turn_is_refused_and_changes_nothing(
    campaign: Campaign, aussie: Any, login: Any, htmx: bool
) -> None:
    client = login(aussie)
    a = campaign.companies.get(name="A Company")
    oivi = campaign.areas.get(name="Oivi").pk
    give_order(company=a, kind="hold", side="australian")  # for turn 1
    advance_turn(campaign_id=campaign.pk)  # the page of turn 1 stays open
    before = orders(campaign)
    extra = HTMX if htmx else {}
    for data in (
        {"action": "give", "order": f"advance:{oivi}", "turn": "1"},
        {"action": "withdraw", "turn": "1"},
        # An edited value too: that the page is out of date says more than that it is bad.
        {"action": "give", "order": "advance:999999", "turn": "1"},
    ):
        answer = client.post(url(campaign, a.pk), data, **extra)
        assert answer.status_code == (422 if htmx else 409)
        words = text(answer)
        assert (
            "Not filed, nothing was changed: this page was for turn 1, and turn 1 has been "
            "played since: orders now go to turn 2." in words
        )
        assert "Open the orders for turn 2" in words
        if htmx:
            assert answer["HX-Retarget"] == "#turn-watch"
            # The rest of the open page was drawn for turn 1: its ready box and order
            # cards are swapped out of band, so no live button of turn 1 stays (a
            # walk-through saw "not ready yet" and "ready" buttons under the notice).
            html = answer.content.decode()
            assert '<section class="ready-box" id="ready" hx-swap-oob="true">' in html
            assert '<div class="order-cards" id="order-cards" hx-swap-oob="true"></div>' in html
            assert "<form" not in html and "are ready</button>" not in html
        else:  # the page as it is now: turn 2's, whole
            assert "Orders for turn 2" in words
            assert 'hx-swap-oob="true"' not in answer.content.decode()
        assert orders(campaign) == before  # no order for turn 2, turn 1's untouched
    # The same form, drawn for the coming turn, is filed.
    assert client.post(url(campaign, a.pk), {"order": "hold", "turn": "2"}).status_code == 302
    assert orders(campaign) == [*before, ("A Company", 2, "hold", None)]


def test_ready_and_unready_from_the_page_of_a_played_turn_are_refused(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    advance_turn(campaign_id=campaign.pk)
    answer = client.post(url(campaign, "ready"), {"turn": "1"}, **HTMX)
    assert answer.status_code == 422 and "this page was for turn 1" in text(answer)
    assert not SideReady.objects.filter(campaign=campaign).exists()
    assert client.post(url(campaign, "ready"), {"turn": "2"}).status_code == 302
    answer = client.post(url(campaign, "unready"), {"turn": "1"})
    assert answer.status_code == 409 and "this page was for turn 1" in text(answer)
    assert SideReady.objects.filter(campaign=campaign, turn_number=2).count() == 1


def test_a_form_with_a_turn_that_is_no_number_is_refused(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = campaign.companies.get(name="A Company")
    answer = login(aussie).post(url(campaign, a.pk), {"order": "hold", "turn": "seven"})
    assert answer.status_code == 422
    assert "this form&#x27;s turn number was changed or lost: open the orders page again" in (
        answer.content.decode()
    )
    assert "seven" not in answer.content.decode()
    assert orders(campaign) == []


def test_the_service_refuses_a_page_of_another_turn(campaign: Campaign, aussie: Any) -> None:
    view = open_campaign(user=aussie, campaign=campaign)
    a = campaign.companies.get(name="A Company")
    with pytest.raises(OrdersOutOfDate, match="this page was for turn 3, but the coming turn"):
        planning.order_company(view=view, company_id=a.pk, choice="hold", user=aussie, page_turn=3)
    for _ in range(2):
        advance_turn(campaign_id=campaign.pk)
    with pytest.raises(OrdersOutOfDate, match="turns 1 to 2 have been played"):
        planning.mark_ready(view=view, page_turn=1)
    assert orders(campaign) == [] and not SideReady.objects.exists()


def test_the_page_notices_when_its_turn_has_been_played(
    campaign: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    client = login(aussie)
    poll = f"{url(campaign, 'turn')}?turn=1"
    assert client.get(poll, **HTMX).status_code == 204
    advance_turn(campaign_id=campaign.pk)
    answer = client.get(poll, **HTMX)
    assert answer.status_code == 200
    words = text(answer)
    assert (
        "This page was for turn 1, and turn 1 has been played since: orders now go to turn 2."
        in words
    )
    assert f'href="/campaigns/{campaign.pk}/orders/"' in answer.content.decode()
    assert "Not filed" not in words
    assert client.get(f"{url(campaign, 'turn')}?turn=2", **HTMX).status_code == 204
    assert client.get(f"{url(campaign, 'turn')}?turn=x").status_code == 400
    # The GM's link keeps the side the page was for; a stranger learns nothing.
    gm = login(gm_user).get(f"{url(campaign, 'turn')}?turn=1&side=japanese", **HTMX)
    assert f'href="/campaigns/{campaign.pk}/orders/?side=japanese"' in gm.content.decode()


def test_the_played_turns_planned_battles_go_from_the_page_that_notices_it(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """A walk-through: once the other side's "ready" played the turn, the page said so
    but kept "Planned battles, as the turn will pair them" of the turn played, its odds
    still counting ("50 of 1000 fought..."), above the notice's emptied order cards."""
    client = login(aussie)
    a = campaign.companies.get(name="A Company")
    oivi = campaign.areas.get(name="Oivi").pk
    assert client.post(url(campaign, a.pk), {"order": f"advance:{oivi}", "turn": "1"})
    assert "Planned battles, as the turn will pair them" in text(client.get(url(campaign)))
    advance_turn(campaign_id=campaign.pk)
    html = client.get(f"{url(campaign, 'turn')}?turn=1", **HTMX).content.decode()
    assert '<section class="planned-battles" id="planned-battles" hx-swap-oob="true">' in html
    assert "Planned battles" not in html and "hx-get" not in html


def _last_turn_played(campaign: Campaign) -> None:
    """A one-turn campaign whose only turn is played while its orders page is open."""
    update_settings(
        campaign=campaign,
        settings={**campaign.settings, "turn_limit": 1},
        reason="a one-turn campaign",
    )
    advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED


def test_a_page_open_on_the_last_turn_says_the_campaign_has_ended(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """A solo walk-through: the player's "ready" played the last turn, and the page said
    "turn 4 has been played since: orders now go to turn 5", with "Open the orders for
    turn 5", a turn the ended campaign never plays."""
    client = login(aussie)
    _last_turn_played(campaign)
    answer = client.get(f"{url(campaign, 'turn')}?turn=1", **HTMX)
    assert answer.status_code == 200
    words = text(answer)
    assert (
        "This page was for turn 1, the last turn, and it has been played: the campaign has "
        "ended. The " in words
    )
    assert "won" in words and "Read the story of the campaign" in words
    assert f'href="/campaigns/{campaign.pk}/story/"' in answer.content.decode()
    assert "turn 2" not in words and "Open the orders" not in words
    assert "Read what happened in turn 1" in words  # the last turn's page, as before


@pytest.mark.parametrize("htmx", [False, True])
def test_an_order_from_the_last_turns_page_says_the_campaign_has_ended(
    campaign: Campaign, aussie: Any, login: Any, htmx: bool
) -> None:
    client = login(aussie)
    a = campaign.companies.get(name="A Company")
    _last_turn_played(campaign)
    answer = client.post(
        url(campaign, a.pk), {"order": "hold", "turn": "1"}, **(HTMX if htmx else {})
    )
    assert answer.status_code == (422 if htmx else 409)
    words = text(answer)
    assert "Not filed, nothing was changed: this page was for turn 1, the last turn" in words
    assert "the campaign has ended" in words and "turn 2" not in words
    assert orders(campaign) == []
