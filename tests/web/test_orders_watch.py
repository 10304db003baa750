"""The orders page keeps up with the side's orders once its odds are done: its slow poll
(``orders-watch``) answers 204 while the turn and the side's orders are as the page drew
them, and otherwise the cards (and "Planned battles") that changed, or the notice of a
played turn. Before, once every area's odds were in, nothing polled: a teammate's order,
or one from the player's other tab, showed only after a reload."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from django.core.cache import cache

from campaign.models import Campaign
from campaign.services import planning
from campaign.services.turns import advance_turn, give_order
from tests.web.conftest import join

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


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


class Page:
    """An orders page as the browser holds it: its slow poll's address and its cards'
    ``drawn`` inputs, kept up to date with each answer, as htmx swaps them."""

    def __init__(self, client: Any, campaign: Campaign, query: str = "") -> None:
        self.client = client
        self.text = client.get(f"/campaigns/{campaign.pk}/orders/{query}").content.decode()
        self.drawn: dict[str, str] = {}
        self.watch = ""
        self.take(self.text)

    def take(self, answer: str) -> None:
        match = re.search(r'<div id="orders-watch" hx-get="([^"]+)"', answer)
        if match:
            self.watch = html.unescape(match.group(1))
        for value in re.findall(r'name="drawn" value="([^"]+)"', answer):
            self.drawn[value.split(".")[0]] = value

    def poll(self, **extra: Any) -> Any:
        # As hx-include adds the cards' inputs to the poll's own query.
        drawn = urlencode({"drawn": list(self.drawn.values())}, doseq=True)
        answer = self.client.get(f"{self.watch}&{drawn}", **HTMX, **extra)
        if answer.status_code == 200:
            self.take(answer.content.decode())
        return answer


def advance(campaign: Campaign, name: str, to: str = "Oivi") -> None:
    company = campaign.companies.get(name=name)
    give_order(company=company, kind="advance", target=campaign.areas.get(name=to))


def cards_in(answer: Any) -> set[int]:
    text = answer.content.decode()
    return {int(pk) for pk in re.findall(r'<article class="order-card" id="company-(\d+)"', text)}


def card_in(answer: Any, company: int) -> str:
    match = re.search(
        rf'<article class="order-card" id="company-{company}" hx-swap-oob="true">.*?</article>',
        answer.content.decode(),
        re.S,
    )
    assert match, f"no card of company {company}"
    return match.group(0)


def test_the_page_polls_its_orders_slowly_with_what_each_card_shows(
    campaign: Campaign, aussie: Any, login: Any, settings: Any
) -> None:
    settings.KORONA_ORDERS_WATCH_SECONDS = 7
    a = campaign.companies.get(name="A Company").pk
    oivi = campaign.areas.get(name="Oivi").pk
    advance(campaign, "A Company")
    page = Page(login(aussie), campaign)
    assert re.search(
        rf'<div id="orders-watch" hx-get="/campaigns/{campaign.pk}/orders/watch/\?'
        r'seen=1\.[0-9a-f]{32}" hx-trigger="every 7s" hx-include="\.drawn-order"',
        page.text,
    )
    assert page.drawn[str(a)] == f"{a}.advance:{oivi}.0.{oivi}"
    assert len(page.drawn) == campaign.companies.filter(side="australian").count()


def test_nothing_changed_is_204_in_one_query(
    campaign: Campaign, aussie: Any, login: Any, django_assert_num_queries: Any
) -> None:
    advance(campaign, "A Company")
    page = Page(login(aussie), campaign)
    # The stamp with the digest of the side's orders, which decides access too: 1,
    # whatever the campaign (the session and the user come from the cache).
    with django_assert_num_queries(1) as captured:
        assert page.poll().status_code == 204
    assert "digest" in captured.captured_queries[0]["sql"]
    # The enemy's orders are not the side's to know: they change nothing. (Its "ready" is
    # public and does: tests/web/test_orders_watch_token.py.)
    give_order(company=campaign.companies.get(name="1st Company"), kind="hold")
    assert page.poll().status_code == 204


def test_a_teammates_order_brings_the_cards_of_its_battle_and_planned_battles(
    campaign: Campaign, aussie: Any, teammate: Any, login: Any
) -> None:
    a = campaign.companies.get(name="A Company").pk
    b = campaign.companies.get(name="B Company").pk
    oivi = campaign.areas.get(name="Oivi").pk
    advance(campaign, "A Company")
    page = Page(login(aussie), campaign)
    assert 'class="area-odds-now polling"' not in page.text  # the odds are done
    login(teammate).post(f"/campaigns/{campaign.pk}/orders/{b}/", {"order": f"advance:{oivi}"})
    seen = page.watch
    answer = page.poll()
    assert answer.status_code == 200
    text = answer.content.decode()
    assert text.startswith('<div id="orders-watch"') and page.watch != seen  # a new token
    # B's card with its order and battle, A's whose battle B joined; no other card.
    assert cards_in(answer) == {a, b}
    assert "advance to Oivi" in card_in(answer, b) and "Battle at Oivi: B Company" in text
    assert '<section class="planned-battles" id="planned-battles" aria-labelledby' in text
    assert 'id="planned-battles" aria-labelledby="planned-heading" hx-swap-oob="true"' in text
    assert "into 2 battles" in text
    # The page as it now is: nothing new.
    assert page.poll().status_code == 204


def test_an_order_without_a_battle_brings_its_card_alone(
    campaign: Campaign, aussie: Any, teammate: Any, login: Any
) -> None:
    supply = campaign.companies.get(name="1st Supply Company").pk
    ridge = campaign.areas.get(name="Uberi Ridge").pk
    page = Page(login(aussie), campaign)
    login(teammate).post(
        f"/campaigns/{campaign.pk}/orders/{supply}/", {"order": f"advance:{ridge}"}
    )
    answer = page.poll()
    assert cards_in(answer) == {supply}
    assert "advance to Uberi Ridge" in card_in(answer, supply)
    assert 'id="planned-battles"' not in answer.content.decode()


def test_a_battle_taken_back_elsewhere_takes_its_cards_odds_away(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The gap this poll closes: the odds done, the card kept them for a battle gone."""
    a = campaign.companies.get(name="A Company").pk
    advance(campaign, "A Company")
    page = Page(login(aussie), campaign)
    assert f'id="odds-text-{a}"' in page.text
    login(aussie).post(f"/campaigns/{campaign.pk}/orders/{a}/", {"order": "hold"})  # another tab
    answer = page.poll()
    card = card_in(answer, a)
    assert "hold in Korona" in card and 'class="odds"' not in card
    assert "Your orders lead to no battle in Oivi now." in answer.content.decode()


def test_an_order_given_on_the_page_itself_draws_no_card_again(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    b = campaign.companies.get(name="B Company").pk
    oivi = campaign.areas.get(name="Oivi").pk
    page = Page(login(aussie), campaign)
    answer = page.client.post(
        f"/campaigns/{campaign.pk}/orders/{b}/", {"order": f"advance:{oivi}"}, **HTMX
    )
    # htmx swaps the card, with its drawn input, and the poll with the order's own token
    # (before, the token stayed old: the next poll drew nothing, at the cost of a full check).
    page.take(answer.content.decode())
    assert page.poll().status_code == 204


def test_a_played_turn_is_noticed_as_the_turn_poll_notices_it(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    page = Page(login(aussie), campaign)
    advance_turn(campaign_id=campaign.pk)
    answer = page.poll()
    assert answer.status_code == 200
    assert answer["HX-Retarget"] == "#turn-watch" and answer["HX-Reswap"] == "outerHTML"
    text = answer.content.decode()
    assert "turn 1 has been played since" in text and "Open the orders for turn 2" in text
    assert '<div id="orders-watch" hx-swap-oob="true"></div>' in text  # it stops polling


def test_the_gms_poll_follows_the_side_it_shows(
    campaign: Campaign, gm_user: Any, login: Any
) -> None:
    first = campaign.companies.get(name="1st Company").pk
    page = Page(login(gm_user), campaign, "?side=japanese")
    assert "side=japanese" in page.watch and str(first) in page.drawn
    give_order(company=campaign.companies.get(name="1st Company"), kind="hold")
    answer = page.poll()
    assert cards_in(answer) == {first} and "hold in Oivi" in card_in(answer, first)


def test_a_stranger_gets_nothing(
    campaign: Campaign, aussie: Any, outsider: Any, login: Any
) -> None:
    page = Page(login(aussie), campaign)
    page.client = login(outsider)
    assert page.poll().status_code == 404
    answer = login(aussie).get(f"/campaigns/{campaign.pk}/orders/watch/?seen=x", **HTMX)
    assert answer.status_code == 400  # no page's token
