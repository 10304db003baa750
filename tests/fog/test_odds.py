"""The odds of a planned attack under fog of war (rulings section 6): a glimpsed enemy
company is known only by its area, kind and band, so twins that differ only in which
company it is, in its make-up or in the battle losses that shrank its establishment must
give the viewer the same odds, byte for byte (``planning.estimated_company``)."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from django.core.cache import cache
from django.test import Client

from campaign.models import Area, Company
from campaign.services import planning
from tests.fog import twins
from tests.fog.crawl import normalise, normalise_commitments
from tests.fog.twins import Hidden, Pair

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ALL_HOLD = {"1st Company": "hold", "2nd Company": "hold", "3rd Company": "hold"}
FULL = {"commander": 1, "rifle_squad": 9, "small_mortar": 1, "hmg": 1}
# 11 stands held of an establishment of 11: "strong", as the full 12 of 12 are. Battle
# losses with supply_replaces_battle_losses off shrink an establishment so; a scenario
# may also give a company fewer rifle squads.
SHRUNK = {"commander": 1, "rifle_squad": 8, "small_mortar": 1, "hmg": 1}


def _odds_seen(pair: Pair, index: int) -> tuple[Any, list[str]]:
    """What the viewer may know, and its odds of A Company's attack on Oivi polled to
    the end."""
    built = twins.build(pair, index)
    known = twins.knowledge(built.campaign, pair.viewer)
    client = Client()
    client.force_login(built.users[pair.viewer])
    a = Company.objects.get(campaign=built.campaign, name="A Company").pk
    oivi = Area.objects.get(campaign=built.campaign, name="Oivi").pk
    # What the page serves: the page itself, and its poll (the area's, which brings the
    # card's odds too), from a page out of date (A's card not shown fighting there: the
    # section and A's card drawn whole) and from the page as it is.
    page = f"/campaigns/{built.campaign.pk}/orders/"
    # And the page's slow poll: with the page's token and its cards' ``drawn`` as the
    # browser sends them (204: the token, compared in the page, the same in both twins),
    # and from a page that drew no card (every card drawn, its odds with it).
    drawn = re.findall(r'name="drawn" value="([^"]+)"', client.get(page).content.decode())
    watch = re.search(r'id="orders-watch" hx-get="([^"]+)"', client.get(page).content.decode())
    assert watch and drawn
    urls = [
        page,
        f"/campaigns/{built.campaign.pk}/orders/area/{oivi}/odds/",
        f"/campaigns/{built.campaign.pk}/orders/area/{oivi}/odds/?cards={a}",
        f"{html.unescape(watch.group(1))}&{urlencode({'drawn': drawn}, doseq=True)}",
        f"/campaigns/{built.campaign.pk}/orders/watch/?seen=1.0",
    ]
    answers: dict[str, bytes] = {}
    for poll in range(planning.ODDS_RUNS // planning.ODDS_CHUNK + 1):
        for number, url in enumerate(urls):
            response = client.get(url, **HTMX) if url != page else client.get(url)
            assert response.status_code == (204 if number == 3 else 200)
            answers[f"{poll} {url}"] = normalise(response.content)  # the forms' CSRF tokens
    # The page's dice commitment differs between twins by its salt alone (tests/fog/crawl).
    seen = normalise_commitments(answers, twins.commitment_digests(built.campaign))
    last = seen[f"{poll} {urls[2]}"].decode()
    assert "%" in last and f'id="odds-text-{a}"' in last  # the card's odds, to the end
    whole = seen[f"{poll} {urls[-1]}"].decode()
    assert "%" in whole and f'id="company-{a}" hx-swap-oob="true"' in whole
    return known, [body.decode() for body in seen.values()]


def _seen_by_both(pair: Pair) -> tuple[tuple[Any, list[str]], tuple[Any, list[str]]]:
    seen = []
    with twins.frozen_clock():
        for index in (0, 1):
            with twins.twin():
                seen.append(_odds_seen(pair, index))
    return seen[0], seen[1]


@pytest.fixture(autouse=True)
def quick_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    monkeypatch.setattr(planning, "ODDS_RUNS", 20)
    monkeypatch.setattr(planning, "ODDS_CHUNK", 10)


@pytest.mark.parametrize(
    "hidden",
    [
        # Battle losses off the establishment (or another make-up), the same band.
        Hidden(standing=ALL_HOLD, establishment={"1st Company": SHRUNK}),
        # Which company it is: a veteran 1st Company of 12 against a raw 3rd of 11.
        Hidden(
            standing=ALL_HOLD,
            establishment={"3rd Company": SHRUNK},
            quality={"3rd Company": "raw"},
            swap=("1st Company", "3rd Company"),
        ),
    ],
)
def test_a_glimpsed_companys_identity_and_losses_do_not_change_the_odds(hidden: Hidden) -> None:
    # Only one Japanese company in Oivi, the 2nd waits in Kilu (out of sight).
    pair = Pair(
        viewer="australian",
        turns=0,
        settings={"supply_replaces_battle_losses": False},
        starts={"2nd Company": "Kilu", "3rd Company": "Kilu"},
        orders=((("A Company", "advance", "Oivi"),),),
        twins=(Hidden(standing=ALL_HOLD), hidden),
    )
    (known, first), (known_too, second) = _seen_by_both(pair)
    assert known == known_too  # twins: nothing the viewer may know differs
    assert first == second
