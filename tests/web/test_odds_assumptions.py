"""The orders page's estimate says what it assumes, and words its edge cases naturally
(campaign/templatetags/odds.py, campaign/services/planning.py).

A walk-through ordered A and C Company to join B Company in Oivi and read "Chance you take
Oivi: 100% (likely 100–100%)"; A and C then failed their supply rolls (out of supply, a
company does not advance), B fought alone and lost. The odds assume that every company
advancing there arrives: the page now says so, naming exactly those whose move waits on
a supply roll, and never writes a range as one value."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string

from campaign.models import Campaign
from campaign.services import planning
from campaign.services.scenarios import create_campaign
from campaign.services.turns import give_order
from campaign.templatetags.odds import likely, percent, win_words
from rules.campaign.planning import Tally, odds_of
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    monkeypatch.setattr(planning, "ODDS_RUNS", 20)
    monkeypatch.setattr(planning, "ODDS_CHUNK", 10)


def order(campaign: Campaign, *names: str, to: str = "Oivi", side: str = "australian") -> None:
    target = campaign.areas.get(name=to)
    for name in names:
        company = campaign.companies.get(name=name)
        give_order(company=company, kind="advance", target=target, side=side)


def made(where: dict[str, str], aussie: Any, japanese: Any, oivi: str = "japanese") -> Campaign:
    doc = korona_doc()
    for company in doc["companies"]:
        company["area"] = where.get(company["name"], company["area"])
    for area in doc["areas"]:
        if area["name"] == "Oivi":
            area["controller"] = oivi
    campaign = create_campaign(data=doc, name="Korona", seed=1)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    return campaign


def page(client: Any, campaign: Campaign) -> str:
    return html.unescape(client.get(f"/campaigns/{campaign.pk}/orders/").content.decode())


def section(text: str) -> str:
    return text.split('class="planned-battles"', 1)[1].split("</section>", 1)[0]


def card(text: str, campaign: Campaign, name: str) -> str:
    pk = campaign.companies.get(name=name).pk
    return text.split(f'id="company-{pk}"', 1)[1].split("</article>", 1)[0]


# --- what the estimate assumes of the side's supply rolls ---------------------------------


def test_two_companies_from_different_areas_are_named_with_each_roll_and_the_chance_of_both(
    aussie: Any, japanese: Any, login: Any
) -> None:
    """A Company from Korona (4 or more: distance 4 to Port Murray) and C Company from
    Munara (distance 4, -1 on a bastard of a track: 5 or more) both advance into Oivi:
    the odds hold only if both pass, a chance of 1/2 x 1/3 = 1 in 6 (the walk-through of 7
    December 2026 read "the dice give both 1 time in 6" as the turn's own dice, told)."""
    campaign = made({"C Company (militia)": "Munara"}, aussie, japanese)
    order(campaign, "A Company", "C Company (militia)")
    text = page(login(aussie), campaign)
    assert (
        "These odds assume A Company and C Company (militia) arrive: each advances only if "
        "its supply roll at the start of the turn puts it in supply (4 or more on the d6 for "
        "A Company, 5 or more for C Company (militia); a chance of 1 in 6 that both pass); out "
        "of supply, a company stays where it is, and the battles there are fought without it: "
        "these odds do not cover that, which is worse for you."
    ) in section(text)
    # The card in short (each need is under "Planned battles"): the chance that both
    # pass, not each company's need (a phone's card grew four lines with them).
    for name in ("A Company", "C Company (militia)"):
        said = card(text, campaign, name)
        assert (
            "Only if A Company and C Company (militia) pass their supply rolls and arrive "
            '(a chance of 1 in 6 that both pass): "Planned battles" says more.'
        ) in said
        assert "for C Company (militia)" not in said
    # B Company has no order and no battle: nothing on its card.
    assert 'class="supply-caveat"' not in card(text, campaign, "B Company")


def test_one_company_alone_in_the_area_is_told_it_only_stays_where_it_is(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """With no other company of the side in the area's battles, a failed roll means no
    battle at all: nothing is fought without it."""
    order(campaign, "A Company")
    text = page(login(aussie), campaign)
    assert (
        "These odds assume A Company arrives: it advances only if its supply roll at the start "
        "of the turn puts it in supply (4 or more on the d6; a chance of 1 in 2); out of "
        "supply, it stays where it is."
    ) in section(text)
    assert "fought without it" not in section(text)


def test_the_same_need_is_said_once_for_each(campaign: Campaign, aussie: Any, login: Any) -> None:
    order(campaign, "A Company", "B Company")
    text = page(login(aussie), campaign)
    assert (
        "These odds assume A Company and B Company arrive: each advances only if its supply "
        "roll at the start of the turn puts it in supply (4 or more on the d6 each; a chance "
        "of 1 in 4 that both pass)"
    ) in section(text)
    assert "pass their supply rolls (4 or more on the d6 each) and arrive" in card(
        text, campaign, "B Company"
    )


def test_a_company_already_there_is_not_said_to_wait_on_its_roll(
    aussie: Any, japanese: Any, login: Any
) -> None:
    """A and B Company stand in Oivi with the Japanese 2nd Company (engaged: they fight
    there whatever their supply); C Company advances from Korona. Only C's arrival waits
    on a roll."""
    campaign = made(
        {"A Company": "Oivi", "B Company": "Oivi", "C Company (militia)": "Korona"},
        aussie,
        japanese,
        oivi="australian",
    )
    campaign.companies.filter(name="1st Company").update(area=campaign.areas.get(name="Kilu"))
    order(campaign, "C Company (militia)")
    text = page(login(aussie), campaign)
    assert (
        "These odds assume C Company (militia) arrives: it advances only if its supply roll "
        "at the start of the turn puts it in supply (4 or more on the d6; a chance of 1 in 2); "
        "out of supply, it stays where it is, and the battles there are fought without it: these "
        "odds do not cover that, which is worse for you."
    ) in section(text)
    for name in ("A Company", "B Company"):
        assert f"assume {name}" not in text and f"if {name}" not in text
    assert (
        "Only if C Company (militia) passes its supply roll (4 or more on the d6) and arrives"
        in card(text, campaign, "A Company")
    )


def test_no_caveat_where_no_company_waits_on_a_roll(
    campaign: Campaign, japanese: Any, login: Any
) -> None:
    """The Japanese 1st Company advances from Oivi, one zone from its base: any die puts
    it in supply, so the odds assume nothing of a roll, and the page says nothing more."""
    order(campaign, "1st Company", to="Korona", side="japanese")
    text = page(login(japanese), campaign)
    assert "Planned battles" in text and "Chance you take Korona" in section(text)
    assert 'class="supply-caveat"' not in text and "These odds assume" not in text


def test_a_standoff_without_orders_assumes_no_roll(aussie: Any, japanese: Any, login: Any) -> None:
    campaign = made(
        {"A Company": "Oivi", "1st Company": "Kilu"}, aussie, japanese, oivi="australian"
    )
    text = page(login(aussie), campaign)
    assert "Chance you keep Oivi" in section(text)
    assert 'class="supply-caveat"' not in text


@pytest.mark.parametrize("banzai", [False, True])
def test_a_banzai_win_leaves_the_advance_to_no_roll(
    banzai: bool, aussie: Any, japanese: Any, login: Any
) -> None:
    """The Japanese 3rd Company advances from Korona into Isura, where the Australians all
    stand (2 or more: distance 2 to Kilu). After a Banzai! win it is in supply whatever
    its die: no roll is assumed."""
    where = {"3rd Company": "Korona", "A Company": "Isura", "B Company": "Isura"}
    campaign = made(where, aussie, japanese)
    campaign.companies.filter(name="3rd Company").update(banzai=banzai)
    order(campaign, "3rd Company", to="Isura", side="japanese")
    text = page(login(japanese), campaign)
    said = "These odds assume 3rd Company arrives" in section(text)
    assert said is not banzai
    # The headline names the arrival it assumes, only when it waits on a roll.
    headline = "If 3rd Company arrives, chance" if not banzai else "Chance"
    assert f"{headline} you take Isura" in section(text)
    if not banzai:
        assert "(2 or more on the d6; a chance of 5 in 6)" in section(text)


def test_a_ship_away_that_blocks_supply_is_read_as_the_turn_reads_it(
    aussie: Any, japanese: Any, login: Any
) -> None:
    """With "a ship away blocks supply" and the Australians' ship away, no die puts A
    Company in supply: it cannot arrive, and the words said it needed a 4."""
    campaign = made({}, aussie, japanese)
    campaign.ships.filter(side="australian").update(present=False)
    settings = campaign.get_settings()
    campaign.set_settings(replace(settings, ship_absence_blocks_supply=True))
    campaign.save(update_fields=["settings"])
    order(campaign, "A Company")
    text = page(login(aussie), campaign)
    assert "(no die can do it; as things stand, no die can)" in section(text)
    assert "4 or more" not in section(text)


# --- the share and its range, at the edges ------------------------------------------------


def progress(wins: int, runs: int = 1000, *, attacking: bool = True) -> Any:
    tally = Tally(runs=runs, wins={"attacker": wins, "defender": runs - wins})
    attack = SimpleNamespace(attacking=attacking, runs=runs, side="australian")
    return planning.OddsProgress(attack=attack, odds=odds_of(tally))  # type: ignore[arg-type]


PLAYER = SimpleNamespace(addressed=lambda side: "you")  # CampaignView.addressed
GM = SimpleNamespace(addressed=lambda side: "the Australians")


def odds_words(done: Any, view: Any = PLAYER) -> str:
    return render_to_string("campaign/_odds_words.html", {"progress": done, "view": view}).strip()


def test_every_battle_won_reads_as_such_never_likely_100_to_100() -> None:
    done = progress(1000)
    assert done.side_win["low"] > 99.5  # rounded, both ends would read 100
    words = odds_words(done)
    assert words == "You win every one of 1,000 battles fought out: 100% (likely 99–100%)."
    assert "100–100" not in words
    assert odds_words(done, GM).startswith("The Australians win every one of 1,000 battles")


def test_every_battle_lost_reads_as_such() -> None:
    words = odds_words(progress(0))
    assert words == "You lose every one of 1,000 battles fought out: 0% (likely 0–1%)."
    assert odds_words(progress(0), GM).startswith("The Australians lose every one of 1,000")


def test_finished_odds_read_as_a_result_not_a_count() -> None:
    """A walk-through read "1000 of 1000 battles — you win 89%" once the odds were in: a
    count where the reader wanted the answer."""
    words = odds_words(progress(890))
    assert words.startswith("You win 89% of 1,000 battles fought out (likely ")
    assert words.endswith(").") and "1000 of 1000" not in words
    assert odds_words(progress(890), GM).startswith("The Australians win 89% of 1,000 battles")


def test_odds_being_fought_keep_their_progress_with_thousands_separated() -> None:
    tally = Tally(runs=350, wins={"attacker": 217, "defender": 133})
    attack = SimpleNamespace(attacking=True, runs=1000, side="australian")
    running = planning.OddsProgress(attack=attack, odds=odds_of(tally))  # type: ignore[arg-type]
    words = odds_words(running)
    # The share first, then the count: "350 of 1,000 battles — you win 47%" was hard to
    # read (the solo walk of 7 December 2026).
    assert re.fullmatch(
        r"So far you win 62% \(likely \d+–\d+%\), 350 of 1,000 battles fought…", words
    )
    assert odds_words(running, GM).startswith("So far the Australians win 62% (likely ")


def test_defending_reads_the_defenders_share() -> None:
    assert win_words(progress(0, attacking=False)).startswith("so far you win every one: 100%")


def test_a_share_that_rounds_to_100_or_0_is_not_said_to_be_certain() -> None:
    assert percent(99.7) == "over 99%"
    assert percent(0.3) == "under 1%"
    assert percent(100.0) == "100%" and percent(0.0) == "0%"
    assert percent(62.5) == "63%"  # half up, as floatformat rounds
    assert win_words(progress(998)).startswith("so far you win over 99% (likely 99–100%")


def test_a_range_is_rounded_as_before_unless_it_would_read_as_one_value() -> None:
    assert likely({"low": 59.4, "high": 65.6}) == "likely 59–66%"
    assert likely({"low": 99.62, "high": 100.0}) == "likely 99–100%"
    assert likely({"low": 0.0, "high": 0.38}) == "likely 0–1%"
    assert likely({"low": 42.6, "high": 43.4}) == "likely 42–44%"


def test_the_chance_to_take_an_area_is_never_likely_100_to_100() -> None:
    item = SimpleNamespace(
        plan=SimpleNamespace(area="Oivi", area_id=1, attacking=True, attacks=[]),
        chance={"p": 100.0, "low": 99.617, "high": 100.0},
        who="you",
    )
    words = render_to_string("campaign/_area_odds.html#chance", {"item": item})
    assert html.unescape(words) == "<strong>Chance you take Oivi: 100%</strong> (likely 99–100%)"


# --- the headline says the arrival it assumes ---------------------------------------------


def test_the_chance_to_take_an_area_names_the_arrivals_it_assumes_first(
    aussie: Any, japanese: Any, login: Any
) -> None:
    """A walk-through read "Chance you take Oivi: 78%" as the chance of the orders given;
    only the words below it said that the figure assumes both companies arrive. The
    headline itself now says so, before the figure."""
    campaign = made({"C Company (militia)": "Munara"}, aussie, japanese)
    order(campaign, "A Company", "C Company (militia)")
    said = section(page(login(aussie), campaign))
    assert "If both A Company and C Company (militia) arrive, chance you take Oivi: " in said
    assert "Chance you take Oivi" not in said


def test_one_arrival_assumed_is_named_in_the_headline(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    order(campaign, "A Company")
    said = section(page(login(aussie), campaign))
    assert "If A Company arrives, chance you take Oivi: " in said
    assert "Chance you take Oivi" not in said
