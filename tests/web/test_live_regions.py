"""Live regions that htmx keeps: the map's redraw, the odds of the orders page (polls) and
its ready line (the ready and unready buttons' answers).

A screen reader announces a change inside a live region (``aria-live``, ``role=status``)
that was already in the page; one swapped in anew, with its words, it need not announce.
So no live region may sit inside what a poll replaces, and a poll's answer fills the
page's live region out of band (``hx-swap-oob="innerHTML"``): the region stays, only its
contents change."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core.cache import cache
from django.utils.text import capfirst

from campaign.models import Campaign
from campaign.services import odds, planning
from campaign.services.turns import advance_turn, give_order
from campaign.web.maps import map_stamp

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
LIVE_ROLES = {"status", "log", "timer", "marquee"}  # each polite by nature (an alert is read
# when it is put in the page, so a swapped-in one is fine)


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    parent: Element | None = None
    content: list[Element | str] = field(default_factory=list)  # in the page's order

    @property
    def children(self) -> list[Element]:
        return [c for c in self.content if isinstance(c, Element)]

    def walk(self) -> list[Element]:
        return [self, *(e for child in self.children for e in child.walk())]

    def words(self) -> str:
        text = "".join(c if isinstance(c, str) else c.words() for c in self.content)
        return " ".join(text.split())

    @property
    def live(self) -> bool:
        return self.attrs.get("aria-live", "off") != "off" or self.attrs.get("role") in LIVE_ROLES


class TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Element("#root", {})
        self.at = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs}, self.at)
        self.at.content.append(element)
        if tag not in VOID:
            self.at = element

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.at.content.append(Element(tag, {k: v or "" for k, v in attrs}, self.at))

    def handle_endtag(self, tag: str) -> None:
        at: Element | None = self.at
        while at is not None and at.tag != tag:
            at = at.parent
        if at is not None and at.parent is not None:
            self.at = at.parent

    def handle_data(self, data: str) -> None:
        self.at.content.append(data)


def tree(html: str) -> Element:
    builder = TreeBuilder()
    builder.feed(html)
    return builder.root


def by_id(root: Element, ident: str) -> Element | None:
    return next((e for e in root.walk() if e.attrs.get("id") == ident), None)


def swapped_by(root: Element, swaps: Callable[[Element], bool]) -> list[tuple[Element, str]]:
    """(the element swapped, how) for each element of the page that ``swaps`` says
    swaps something with htmx: its ``hx-target``, or itself."""
    swapped = []
    for element in root.walk():
        if not swaps(element):
            continue
        target = element.attrs.get("hx-target", "")
        swapped_element = by_id(root, target[1:]) if target.startswith("#") else element
        assert swapped_element is not None, target
        swapped.append((swapped_element, element.attrs.get("hx-swap", "innerHTML")))
    return swapped


def replaced_by_polls(root: Element) -> list[tuple[Element, str]]:
    """What the page's polls swap: (the element swapped, how), for each element that asks
    by itself (``hx-trigger`` "every ..." or "load ...")."""

    def polls(element: Element) -> bool:
        trigger = element.attrs.get("hx-trigger", "")
        return "hx-get" in element.attrs and ("every" in trigger or "load" in trigger)

    return swapped_by(root, polls)


def live_regions_replaced(root: Element) -> list[str]:
    """The live regions a poll of the page would replace, by id or tag (none, rightly)."""
    found = []
    for element, swap in replaced_by_polls(root):
        inside = element.walk() if swap == "outerHTML" else element.walk()[1:]
        found += [e.attrs.get("id") or e.tag for e in inside if e.live]
    return found


def check_poll_answer(page: Element, answer: str) -> list[Element]:
    """A poll's answer replaces no live region: its own part holds none, and each part it
    sends out of band either fills the contents of a live region of the page, which
    stays, or replaces a part of the page that holds none. Returns the parts that fill a
    live region."""
    sent = tree(answer)
    out_of_band = [e for e in sent.walk() if "hx-swap-oob" in e.attrs]
    for element in sent.walk():
        if element.live:
            assert "hx-swap-oob" in element.attrs, ("a live region swapped in anew", element)
    filled = []
    for part in out_of_band:
        region = by_id(page, part.attrs.get("id", ""))
        assert region is not None, part.attrs
        if part.attrs["hx-swap-oob"] == "innerHTML":
            assert region.live, part.attrs
            filled.append(part)
        else:
            assert part.attrs["hx-swap-oob"] in ("true", "outerHTML"), part.attrs
            assert not [e for e in region.walk() if e.live], ("a live region replaced", part)
    return filled


# --- the map's redraw ---------------------------------------------------------------------


def map_url(campaign: Campaign) -> str:
    return f"/campaigns/{campaign.pk}/"


def live_url(campaign: Campaign, seen: str) -> str:
    return f"/campaigns/{campaign.pk}/map/live/?seen={seen}"


@pytest.mark.parametrize("status", ["active", "paused"])
def test_the_maps_redraw_replaces_no_live_region(
    played: Campaign, aussie: Any, login: Any, status: str
) -> None:
    Campaign.objects.filter(pk=played.pk).update(status=status)
    client = login(aussie)
    page = tree(client.get(map_url(played)).content.decode())
    assert [e for e, _ in replaced_by_polls(page) if e.attrs.get("id") == "live-map"]
    assert live_regions_replaced(page) == []
    # The page's live region for the redraw: outside the map the poll replaces, empty
    # until a redraw fills it.
    news = by_id(page, "map-news")
    assert news is not None and news.live and news.words() == ""
    live_map = by_id(page, "live-map")
    assert live_map is not None and news not in live_map.walk()


def test_the_maps_redraw_says_what_changed_in_the_regions_that_stays(
    played: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    page = tree(client.get(map_url(played)).content.decode())
    stamp = map_stamp(user=aussie, campaign_id=played.pk)
    assert stamp is not None
    token = stamp.token
    advance_turn(campaign_id=played.pk)
    answer = client.get(live_url(played, token), **HTMX).content.decode()
    (news,) = check_poll_answer(page, answer)
    assert news.attrs["id"] == "map-news"
    words = news.words()
    assert words.startswith("The map has been redrawn. Turn 3 played. Turn 4 is played"), words
    assert "aria-live" not in answer.split('id="map-news"')[0]


# --- the odds of the orders page ------------------------------------------------------------


@pytest.fixture
def odds_pending(monkeypatch: pytest.MonkeyPatch) -> list[odds.OddsJob]:
    """The workers have not got to the odds: the polls go on (the test fights them)."""
    cache.clear()
    monkeypatch.setattr(planning, "ODDS_RUNS", 20)
    monkeypatch.setattr(planning, "ODDS_CHUNK", 10)
    asked: list[odds.OddsJob] = []
    monkeypatch.setattr(odds, "request", lambda job, seen=None: asked.append(job))
    return asked


def test_the_odds_polls_replace_no_live_region(
    campaign: Campaign, aussie: Any, login: Any, odds_pending: list[odds.OddsJob]
) -> None:
    a = campaign.companies.get(name="A Company")
    oivi = campaign.areas.get(name="Oivi")
    give_order(company=a, kind="advance", target=oivi, side="australian")
    client = login(aussie)
    page = tree(client.get(f"/campaigns/{campaign.pk}/orders/").content.decode())
    polled = {e.attrs.get("id") for e, _ in replaced_by_polls(page)}
    # One poll for the battle, its area's: the card does not poll by itself.
    assert f"area-odds-now-{oivi.pk}" in polled and f"odds-now-{a.pk}" not in polled
    assert live_regions_replaced(page) == []
    # The company's odds and the area's chance, each in a region that stays.
    for region in (f"odds-text-{a.pk}", f"take-chance-{oivi.pk}"):
        element = by_id(page, region)
        assert element is not None and element.live, region

    (job,) = {j.key: j for j in odds_pending}.values()
    for index in range(2):
        assert odds.fight_chunk(job, index)
        answer = client.get(
            f"/campaigns/{campaign.pk}/orders/area/{oivi.pk}/odds/?cards={a.pk}", **HTMX
        )
        chance, words = check_poll_answer(page, answer.content.decode())
        assert chance.attrs["id"] == f"take-chance-{oivi.pk}"
        assert chance.words().startswith("If A Company arrives, chance you take Oivi: ")
        assert words.attrs["id"] == f"odds-text-{a.pk}"
        said = words.words()
        if index == 0:  # under way: how far; done, the result
            # Win or lose: the odds' seed comes from the campaign's id, which the database
            # gives (on PostgreSQL a run's tenth chunk lost all of its first 10 battles).
            assert re.match(r"So far you (win|lose) .*, 10 of 20 battles fought…", said), said
        else:
            assert re.match(r"You (win|lose) .*of 20 battles fought out", said), said


def _battle_lines(root: Element, area: int) -> dict[str, str]:
    """Each battle under "Planned battles" in the area: who fights it ("A Company (12
    stands) against …"), and the words of its odds."""
    now = by_id(root, f"area-odds-now-{area}")
    assert now is not None
    return dict(e.words().split(": ", 1) for e in now.walk() if e.tag == "li")


def test_a_battles_odds_read_the_same_on_its_card_and_in_the_planned_battles(
    campaign: Campaign, aussie: Any, login: Any, odds_pending: list[odds.OddsJob]
) -> None:
    """The planned battles said "being fought…" and "you win 45% (likely 24–68%), 10 of
    20 fought…" while the company's card said "0 of 20 battles fought so far…" and "10 of
    20 battles — you win 45% (likely 24–68%)…": one battle's odds in two wordings. Now
    one partial words both, on the page and in the poll's answer."""
    a = campaign.companies.get(name="A Company")
    oivi = campaign.areas.get(name="Oivi")
    give_order(company=a, kind="advance", target=oivi, side="australian")
    client = login(aussie)
    orders = f"/campaigns/{campaign.pk}/orders/"
    for fought in (0, 10, 20):
        if fought:
            (job,) = {j.key: j for j in odds_pending}.values()
            assert odds.fight_chunk(job, fought // 10 - 1)
        page = tree(client.get(orders).content.decode())
        card = by_id(page, f"odds-text-{a.pk}")
        assert card is not None
        # Under way, how far; done, the result.
        said = r"You (win|lose) " if fought == 20 else f"(So far you|{fought} of 20 battles)"
        assert re.match(said, card.words()), card.words()
        if fought == 10:
            assert card.words().endswith(", 10 of 20 battles fought…"), card.words()
        assert [capfirst(w) for w in _battle_lines(page, oivi.pk).values()] == [card.words()]
        poll = f"{orders}area/{oivi.pk}/odds/?cards={a.pk}"
        polled = tree(client.get(poll, **HTMX).content.decode())
        words = by_id(polled, f"odds-text-{a.pk}")
        assert words is not None and words.words() == card.words()
        assert [capfirst(w) for w in _battle_lines(polled, oivi.pk).values()] == [card.words()]


@pytest.fixture
def chunks_landing(
    monkeypatch: pytest.MonkeyPatch, odds_pending: list[odds.OddsJob]
) -> list[odds.OddsJob]:
    """A worker's chunk lands just before every read of the cache: two reads of one
    estimate in one answer see different counts."""
    monkeypatch.setattr(planning, "ODDS_RUNS", 100)
    real = odds.fought

    def fought(job: odds.OddsJob) -> odds.Fought:
        missing = real(job).missing
        if missing:
            odds.fight_chunk(job, missing[0])
        return real(job)

    monkeypatch.setattr(odds, "fought", fought)
    return odds_pending


def test_one_answer_shows_one_count_of_an_estimate_in_every_place(
    campaign: Campaign, aussie: Any, login: Any, chunks_landing: list[odds.OddsJob]
) -> None:
    """Mid-way, a player read "550 of 1000 battles fought so far" on a card and "600 of
    1000" under "Planned battles" for the same battle: the card and the area each read
    the cache, at their own moment. The page, an order's answer and the area's poll now
    read each estimate once, for its card and its line alike."""
    a = campaign.companies.get(name="A Company")
    b = campaign.companies.get(name="B Company")
    oivi = campaign.areas.get(name="Oivi").pk
    give_order(company=a, kind="advance", target=campaign.areas.get(pk=oivi), side="australian")
    client = login(aussie)
    orders = f"/campaigns/{campaign.pk}/orders/"
    answers = [
        (client.get(orders), [a]),
        # B joins: two battles, B's card, A's out of band, the section out of band.
        (client.post(f"{orders}{b.pk}/", {"order": f"advance:{oivi}"}, **HTMX), [a, b]),
        (client.get(f"{orders}area/{oivi}/odds/?cards={a.pk},{b.pk}", **HTMX), [a, b]),
        (client.get(f"{orders}area/{oivi}/odds/?cards={b.pk},{a.pk}", **HTMX), [a, b]),
    ]
    for answer, companies in answers:
        root = tree(answer.content.decode())
        lines = _battle_lines(root, oivi)
        assert len(lines) == len(companies)
        for company in companies:
            (line,) = [words for who, words in lines.items() if who.startswith(company.name)]
            assert re.search(r"(, \d+ of 100 battles fought…$| of 100 battles fought out)", line), (
                line
            )
            card = by_id(root, f"odds-text-{company.pk}")
            # The card's sentence starts with them; the line, after a colon, does not.
            said = capfirst(line)
            assert card is not None and card.words() == said, (card and card.words(), said)


def test_a_page_out_of_date_gets_planned_battles_whole(
    campaign: Campaign, aussie: Any, login: Any, odds_pending: list[odds.OddsJob]
) -> None:
    """Its order changed elsewhere: the poll (which asked for the area's growing part)
    is told to put its answer in place of the whole of "Planned battles", which it brings
    drawn anew (its live regions with it, as an order's answer does)."""
    a = campaign.companies.get(name="A Company")
    oivi = campaign.areas.get(name="Oivi")
    client = login(aussie)
    area_poll = client.get(
        f"/campaigns/{campaign.pk}/orders/area/{oivi.pk}/odds/?cards={a.pk}", **HTMX
    )
    assert area_poll["HX-Retarget"] == "#planned-battles"
    assert area_poll["HX-Reswap"] == "outerHTML"
    assert 'id="planned-battles"' in area_poll.content.decode()


# --- the orders page's ready line -------------------------------------------------------------


def replaced_by_forms(root: Element) -> list[tuple[Element, str]]:
    """What the page's htmx forms swap with their answer: (the element swapped, how)."""
    return swapped_by(root, lambda element: "hx-post" in element.attrs)


def test_ready_and_unready_fill_the_ready_line_in_the_region_that_stays(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    """The last side's "ready" says "Every side is ready: turn 1 is being played now" in a
    status region; the button's answer replaces the ready box, so the region sits outside
    it, in the page from the start (empty), and the answer fills it out of band."""
    assert login(japanese).post(f"/campaigns/{campaign.pk}/orders/ready/").status_code == 302
    client = login(aussie)
    page = tree(client.get(f"/campaigns/{campaign.pk}/orders/").content.decode())
    status = by_id(page, "ready-status")
    assert status is not None and status.live and status.words() == ""
    ready_box = by_id(page, "ready")
    assert ready_box is not None and status not in ready_box.walk()
    swapped = replaced_by_forms(page)
    assert (ready_box, "outerHTML") in swapped
    for element, swap in swapped:
        inside = element.walk() if swap == "outerHTML" else element.walk()[1:]
        assert not [e for e in inside if e.live], element.attrs.get("id")

    answer = client.post(f"/campaigns/{campaign.pk}/orders/ready/", {"turn": "1"}, **HTMX)
    (words,) = check_poll_answer(page, answer.content.decode())
    assert words.attrs["id"] == "ready-status"
    assert words.words().startswith("Every side is ready: turn 1 is being played now.")
    # Drawn again, the page has the words in the same region.
    again = by_id(
        tree(client.get(f"/campaigns/{campaign.pk}/orders/").content.decode()), "ready-status"
    )
    assert again is not None and again.live and again.words() == words.words()


def test_unready_empties_the_ready_line(campaign: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    page = tree(client.get(f"/campaigns/{campaign.pk}/orders/").content.decode())
    for action in ("ready", "unready"):
        answer = client.post(f"/campaigns/{campaign.pk}/orders/{action}/", {"turn": "1"}, **HTMX)
        assert answer.status_code == 200, action
        (words,) = check_poll_answer(page, answer.content.decode())
        assert words.attrs["id"] == "ready-status" and words.words() == "", action
