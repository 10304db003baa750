"""An order from an out-of-date tab: each card's form carries what the page saw of its
company's order (``seen``), and an order given or taken back from a page that no longer
shows the company's order as it stands is refused in words and changes nothing, with
the card drawn again as it stands now. Two tabs are two GETs, then two POSTs."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from campaign.models import Campaign, Order
from tests.web.test_orders import HTMX, area_id, card, company, orders_of, url
from tests.web.test_orders import text_of as tagless

STALE = (
    "A Company's order was changed meanwhile (now: advance to Oivi). Nothing was changed: "
    "look again and choose."
)


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def text_of(response: Any) -> str:
    """The page's words as a reader reads them ("A Company's", not its escaped quote)."""
    return unescape(tagless(response))


def form_of(html: str, company_id: int) -> dict[str, str]:
    """The hidden fields of the company's order form, as the page drew them."""
    form = re.search(r"<form.*?</form>", card(html, company_id), re.S)
    assert form, f"no order form on company {company_id}'s card"
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0))
    return dict(fields)


def two_tabs(client: Client, campaign: Campaign, company_id: int) -> tuple[dict, dict]:
    """The orders page opened twice, before either gives an order: each tab's form."""
    first = client.get(url(campaign)).content.decode()
    second = client.get(url(campaign)).content.decode()
    return form_of(first, company_id), form_of(second, company_id)


def advance(campaign: Campaign) -> dict[str, str]:
    return {"action": "give", "order": f"advance:{area_id(campaign, 'Oivi')}"}


def withdraw(campaign: Campaign) -> dict[str, str]:
    return {"action": "give", "order": f"withdraw:{area_id(campaign, 'Isura')}"}


def test_each_card_carries_what_the_page_saw_of_its_order(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    assert form_of(client.get(url(campaign)).content.decode(), a)["seen"] == "-"
    client.post(url(campaign, a), {**advance(campaign), "sniper": "on"})
    seen = form_of(client.get(url(campaign)).content.decode(), a)["seen"]
    assert seen == f"advance:{area_id(campaign, 'Oivi')}.1"


def test_an_order_from_a_tab_drawn_before_another_order_is_refused(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    first, second = two_tabs(client, campaign, a)
    assert client.post(url(campaign, a), {**first, **advance(campaign)}, **HTMX).status_code == 200

    answer = client.post(url(campaign, a), {**second, **withdraw(campaign)}, **HTMX)
    assert answer.status_code == 422
    assert orders_of(campaign) == {("A Company", "advance", "Oivi")}
    row = card(answer.content.decode(), a)
    assert STALE in text_of(answer)
    assert 'role="alert"' in row and "Refused:" not in row
    # The card as it stands now: its order, and a form that may change it.
    assert "<strong>advance to Oivi</strong>" in row
    assert form_of(row, a)["seen"] == f"advance:{area_id(campaign, 'Oivi')}.0"


def test_the_same_refusal_without_javascript(campaign: Campaign, aussie: Any, login: Any) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    first, second = two_tabs(client, campaign, a)
    assert client.post(url(campaign, a), {**first, **advance(campaign)}).status_code == 302

    answer = client.post(url(campaign, a), {**second, **withdraw(campaign)})
    assert answer.status_code == 422
    assert orders_of(campaign) == {("A Company", "advance", "Oivi")}
    assert STALE in text_of(answer)
    page = answer.content.decode()
    assert "<strong>advance to Oivi</strong>" in card(page, a)
    # Choosing again from the page the refusal drew is taken.
    again = client.post(url(campaign, a), {**form_of(page, a), **withdraw(campaign)})
    assert again.status_code == 302
    assert orders_of(campaign) == {("A Company", "withdraw", "Isura")}


def test_taking_back_from_an_out_of_date_tab_is_refused(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    client.post(url(campaign, a), withdraw(campaign))
    first, second = two_tabs(client, campaign, a)
    client.post(url(campaign, a), {**first, **advance(campaign)}, **HTMX)

    answer = client.post(url(campaign, a), {**second, "action": "withdraw"}, **HTMX)
    assert answer.status_code == 422
    assert STALE in text_of(answer)
    assert orders_of(campaign) == {("A Company", "advance", "Oivi")}


def test_a_teammates_order_taken_back_is_named_too(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    client.post(url(campaign, a), advance(campaign))
    first, second = two_tabs(client, campaign, a)
    client.post(url(campaign, a), {**first, "action": "withdraw"}, **HTMX)

    answer = client.post(url(campaign, a), {**second, **withdraw(campaign)}, **HTMX)
    assert answer.status_code == 422
    assert "A Company's order was changed meanwhile (now: no order given)." in text_of(answer)
    assert not Order.objects.filter(campaign=campaign).exists()


def test_one_tab_changes_the_same_order_twice_with_each_answers_token(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    form = form_of(client.get(url(campaign)).content.decode(), a)
    answer = client.post(url(campaign, a), {**form, **advance(campaign)}, **HTMX)
    assert answer.status_code == 200
    form = form_of(answer.content.decode(), a)  # the answer's card: the order it drew
    again = client.post(url(campaign, a), {**form, **withdraw(campaign)}, **HTMX)
    assert again.status_code == 200
    assert orders_of(campaign) == {("A Company", "withdraw", "Isura")}


def test_another_companys_order_does_not_make_a_card_out_of_date(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a, b = company(campaign, "A Company").pk, company(campaign, "B Company").pk
    client = login(aussie)
    page = client.get(url(campaign)).content.decode()
    client.post(url(campaign, b), {**form_of(page, b), **advance(campaign)}, **HTMX)
    answer = client.post(url(campaign, a), {**form_of(page, a), **withdraw(campaign)}, **HTMX)
    assert answer.status_code == 200
    assert orders_of(campaign) == {
        ("A Company", "withdraw", "Isura"),
        ("B Company", "advance", "Oivi"),
    }


def test_a_post_that_does_not_say_what_it_saw_is_taken_as_before(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """A script's post, without ``seen``: the order replaces the company's, as it did."""
    a = company(campaign, "A Company").pk
    client = login(aussie)
    client.post(url(campaign, a), advance(campaign))
    assert client.post(url(campaign, a), withdraw(campaign)).status_code == 302
    assert orders_of(campaign) == {("A Company", "withdraw", "Isura")}


def test_a_token_that_is_no_order_is_refused_plainly(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    answer = client.post(url(campaign, a), {**advance(campaign), "seen": "<script>"}, **HTMX)
    assert answer.status_code == 422
    assert "A Company's order was changed meanwhile (now: no order given)." in text_of(answer)
    assert "&lt;script&gt;" not in answer.content.decode()
    assert not Order.objects.filter(campaign=campaign).exists()


def test_the_same_order_from_an_out_of_date_tab_is_taken_as_given(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """Nothing would change: the card answers as for any order given, with its token."""
    a = company(campaign, "A Company").pk
    client = login(aussie)
    first, second = two_tabs(client, campaign, a)
    client.post(url(campaign, a), {**first, **advance(campaign)}, **HTMX)

    answer = client.post(url(campaign, a), {**second, **advance(campaign)}, **HTMX)
    assert answer.status_code == 200
    row = card(answer.content.decode(), a)
    assert "<strong>advance to Oivi</strong>" in row and 'role="alert"' not in row
    assert form_of(row, a)["seen"] == f"advance:{area_id(campaign, 'Oivi')}.0"
    assert orders_of(campaign) == {("A Company", "advance", "Oivi")}


def test_the_same_order_from_an_out_of_date_page_without_javascript(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    first, second = two_tabs(client, campaign, a)
    client.post(url(campaign, a), {**first, **advance(campaign)})

    answer = client.post(url(campaign, a), {**second, **advance(campaign)})
    assert answer.status_code == 302
    assert orders_of(campaign) == {("A Company", "advance", "Oivi")}


@pytest.mark.parametrize("headers", [HTMX, {}], ids=["htmx", "no-js"])
def test_taking_back_from_an_out_of_date_tab_an_order_already_taken_back_is_taken(
    campaign: Campaign, aussie: Any, login: Any, headers: dict[str, str]
) -> None:
    a = company(campaign, "A Company").pk
    client = login(aussie)
    client.post(url(campaign, a), advance(campaign))
    first, second = two_tabs(client, campaign, a)
    client.post(url(campaign, a), {**first, "action": "withdraw"}, **headers)

    answer = client.post(url(campaign, a), {**second, "action": "withdraw"}, **headers)
    assert answer.status_code == (200 if headers else 302)
    if headers:
        row = card(answer.content.decode(), a)
        assert "no order given" in row and 'role="alert"' not in row
        assert form_of(row, a)["seen"] == "-"
    assert not Order.objects.filter(campaign=campaign).exists()


def test_the_card_and_the_refusal_word_the_order_alike(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """One helper words both (``turns.order_in_words``): the refusal's "now: ..." is
    what the card it draws says of the order."""
    a = company(campaign, "A Company").pk
    client = login(aussie)
    for order in ({"order": "hold", "sniper": "on"}, withdraw(campaign)):
        first, second = two_tabs(client, campaign, a)
        client.post(url(campaign, a), {**first, "action": "give", **order}, **HTMX)
        answer = client.post(url(campaign, a), {**second, **advance(campaign)}, **HTMX)
        now = re.search(r"\(now: (.*?)\)\. Nothing", text_of(answer))
        current = re.search(r'<p class="current">(.*?)</p>', card(answer.content.decode(), a), re.S)
        assert now and current
        assert " ".join(unescape(re.sub(r"<[^>]+>", "", current.group(1))).split()) == (
            f"Turn 1: {now.group(1)}"
        )
