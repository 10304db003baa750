"""The orders page's cards say each company's standing order (the walk-through: the page
said "Companies without an order follow their standing orders" and never which), in the
words of the company's page (``campaign.web.maps.standing_words``): a player never reads
the campaign AI's ``sensible``, which on a side with a player holds; the game master
reads it, and whether the company's side has a player."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest

from campaign.models import Campaign, Company
from campaign.services.scenarios import create_campaign
from campaign.services.turns import give_order
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    """The words of ``html``, a tag a space, none before a punctuation mark."""
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    return unescape(re.sub(r" ([,.:;)])", r"\1", text))


def cards(response: Any) -> dict[str, str]:
    """Each order card's words, by its company's name."""
    assert response.status_code == 200
    html = response.content.decode()
    found = {}
    for card in re.findall(r'<article class="order-card".*?</article>', html, flags=re.S):
        heading = re.search(r"<h2>(.*?)</h2>", card, flags=re.S)
        assert heading is not None
        found[text_of(heading[1])] = text_of(card)
    return found


def words(response: Any) -> str:
    return text_of(response.content.decode())


@pytest.fixture
def standing(campaign: Campaign) -> Campaign:
    rows = Company.objects.filter(campaign=campaign)
    rows.filter(name="A Company").update(standing_order="sensible")
    rows.filter(name="B Company").update(standing_order="aggressive")
    rows.filter(name="1st Supply Company").update(standing_order="hold")
    rows.filter(side="japanese").update(standing_order="aggressive")
    return campaign


def test_each_card_says_its_companys_standing_order_in_a_players_words(
    standing: Campaign, aussie: Any, login: Any
) -> None:
    page = login(aussie).get(f"/campaigns/{standing.pk}/orders/")
    shown = cards(page)
    said = ": what it does in any turn you give it no order; only the game master can change it."
    # The campaign AI's order, on a side a player plays: it holds, and says so. Nobody
    # set it (the walk-through read "set by the game master"): it is the default.
    default = "Standing order: hold (the default while you play this side)"
    assert default + said in shown["A Company"]
    assert "no order given, so it holds in Korona." in shown["A Company"]
    assert "Standing order: advance towards the enemy by itself" + said in shown["B Company"]
    assert "Standing order: hold" + said in shown["1st Supply Company"]
    assert "default" not in shown["1st Supply Company"]  # the GM's hold is not the default
    assert "set by the game master" not in words(page)
    # Only the reader's own companies have cards: nothing of the enemy's standing orders.
    own = Company.objects.filter(campaign=standing, side="australian").count()
    assert len(shown) == own
    assert words(page).count("Standing order:") == own
    assert "sensible" not in words(page) and "campaign AI's choice" not in words(page)


def test_a_card_with_an_order_says_its_standing_order_comes_back_if_taken_back(
    standing: Campaign, aussie: Any, login: Any
) -> None:
    give_order(company=Company.objects.get(campaign=standing, name="B Company"), kind="hold")
    shown = cards(login(aussie).get(f"/campaigns/{standing.pk}/orders/"))
    assert (
        "Standing order: advance towards the enemy by itself: what it does if you take back "
        "this order, and in any turn you give it no order; only the game master can change it."
    ) in shown["B Company"]


def test_the_page_says_a_company_given_no_order_follows_the_standing_order_on_its_card(
    standing: Campaign, aussie: Any, login: Any
) -> None:
    page = words(login(aussie).get(f"/campaigns/{standing.pk}/orders/"))
    assert "Companies without an order follow their standing orders" not in page
    assert (
        "A company given no order follows its standing order: its card says which, and "
        "what that does this turn." in page
    )


def test_the_game_master_reads_the_campaign_ais_standing_order_and_who_plays_the_side(
    db: Any, aussie: Any, gm_user: Any, login: Any
) -> None:
    # The Australians have a player; the Japanese, none: the campaign AI plays them.
    campaign = create_campaign(data=korona_doc(standing_order=None), name="Korona", seed=1)
    join(aussie, campaign, "australian")
    gm = login(gm_user)
    australian = cards(gm.get(f"/campaigns/{campaign.pk}/orders/?side=australian"))
    said = (
        ": what it does in any turn it is given no order; you may change it in the admin's "
        "list of companies."
    )
    assert (
        "Standing order: sensible (its side has a player, so it holds)" + said
        in (australian["A Company"])
    )
    japanese = cards(gm.get(f"/campaigns/{campaign.pk}/orders/?side=japanese"))
    assert (
        "Standing order: sensible (its side has no player: the campaign AI chooses)" + said
        in japanese["1st Company"]
    )


def test_the_game_master_reads_who_moves_a_company_given_no_order(
    db: Any, aussie: Any, gm_user: Any, login: Any
) -> None:
    """The solo walk: the GM's card for the campaign AI's side read "no order given, so
    it holds in Korona while its side has a player; a side with none is played by the
    campaign AI", though the page knows the side has none."""
    campaign = create_campaign(data=korona_doc(standing_order=None), name="Korona", seed=1)
    join(aussie, campaign, "australian")
    gm = login(gm_user)
    japanese = cards(gm.get(f"/campaigns/{campaign.pk}/orders/?side=japanese"))
    assert (
        "no order given: the campaign AI chooses its move when the turn is played."
        in japanese["1st Company"]
    )
    assert "holds in" not in japanese["1st Company"]
    australian = cards(gm.get(f"/campaigns/{campaign.pk}/orders/?side=australian"))
    assert (
        "no order given, so it holds in Korona: its side has a player, and the campaign AI "
        "plays only a side with none." in australian["A Company"]
    )
    for card in (*japanese.values(), *australian.values()):
        assert "while its side has a player" not in card
