"""Odds a player can trust: every battle an area's orders lead to, as the turn pairs them,
and the chance the side takes the area (campaign/services/planning.py, web/areaodds.py)."""

from __future__ import annotations

import dataclasses
import html
import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Campaign
from campaign.services import planning
from campaign.services.scenarios import create_campaign
from campaign.services.turns import give_order
from campaign.services.visibility import open_campaign
from campaign.templatetags.odds import result_words
from campaign.web.areaodds import _who, area_odds
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join

HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    monkeypatch.setattr(planning, "ODDS_RUNS", 20)
    monkeypatch.setattr(planning, "ODDS_CHUNK", 10)


def order(campaign: Campaign, *names: str, to: str = "Oivi") -> None:
    target = campaign.areas.get(name=to)
    for name in names:
        company = campaign.companies.get(name=name)
        give_order(company=company, kind="advance", target=target, side="australian")


def areas(campaign: Campaign, user: Any) -> list[planning.AreaPlan]:
    view = open_campaign(user=user, campaign=campaign)
    return planning.planned_areas(planning.plan_side(view=view, side="australian"))


def finished(campaign: Campaign, user: Any) -> Any:
    view = open_campaign(user=user, campaign=campaign)
    (area,) = planning.planned_areas(planning.plan_side(view=view, side="australian"))
    item = area_odds(view, area)  # the tests fight them inline, at once
    assert item.finished
    return item


def test_one_company_alone_fights_both_defenders_in_one_battle(
    campaign: Campaign, aussie: Any
) -> None:
    order(campaign, "A Company")
    (oivi,) = areas(campaign, aussie)
    assert oivi.area == "Oivi" and oivi.attacking
    (attack,) = oivi.attacks
    assert attack.friends == ["A Company"]
    assert sorted(attack.enemies) == ["1st Company", "2nd Company"]
    item = finished(campaign, aussie)
    assert item.pairing == (
        "Your company going to Oivi and all the enemy companies there fight one battle; "
        "you take Oivi if you win it."
    )


def test_two_companies_are_paired_into_two_battles_shown_together(
    campaign: Campaign, aussie: Any
) -> None:
    order(campaign, "A Company", "B Company")
    (oivi,) = areas(campaign, aussie)
    assert [a.battle.key for a in oivi.attacks] == ["1:Oivi:1", "1:Oivi:2"]
    assert sorted(name for a in oivi.attacks for name in a.friends) == ["A Company", "B Company"]
    item = finished(campaign, aussie)
    assert item.pairing.startswith("The turn pairs the companies in Oivi strongest against ")
    assert "into 2 battles" in item.pairing and "only by winning both" in item.pairing
    # Win one, lose one: A Company stays in Oivi with the enemy, and Oivi stays theirs.
    assert item.pairing.endswith(
        ": each battle's winners stay in Oivi, and it changes hands only when one side is "
        "left there alone."
    )


def test_the_chance_to_take_the_area_is_winning_every_battle_there(
    campaign: Campaign, aussie: Any
) -> None:
    order(campaign, "A Company", "B Company")
    item = finished(campaign, aussie)
    shares = [b.progress.odds["attacker_win"] for b in item.battles]
    assert item.chance["p"] == pytest.approx(shares[0]["p"] * shares[1]["p"] * 100)
    assert item.chance["low"] == pytest.approx(shares[0]["low"] * shares[1]["low"] * 100)
    assert item.chance["high"] == pytest.approx(shares[0]["high"] * shares[1]["high"] * 100)


def test_a_defender_keeps_the_area_unless_it_loses_every_battle() -> None:
    def progress(p: float, low: float, high: float) -> Any:
        class Done:
            finished = True
            odds = {"attacker_win": {"p": p, "low": low, "high": high}}

        return Done()

    both = [progress(0.5, 0.4, 0.6), progress(0.2, 0.1, 0.3)]
    taken = planning.take_chance(both, attacking=True)
    assert taken == pytest.approx({"p": 10.0, "low": 4.0, "high": 18.0})
    kept = planning.take_chance(both, attacking=False)
    assert kept == pytest.approx({"p": 90.0, "low": 82.0, "high": 96.0})
    assert planning.take_chance([], attacking=True) is None


def test_the_orders_page_shows_the_planned_battles_without_naming_the_enemy(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    order(campaign, "A Company", "B Company")
    html = login(aussie).get(f"/campaigns/{campaign.pk}/orders/").content.decode()
    assert "Planned battles, as the turn will pair them" in html
    assert "strongest against strongest into 2 battles" in html
    section = html.split('class="planned-battles"', 1)[1].split("</section>", 1)[0]
    assert "A Company (" in section and "B Company (" in section
    assert "1st Company" not in section and "2nd Company" not in section
    assert "company:" in section  # "against a strong company: ..."


def test_the_section_polls_until_the_chance_is_in(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    order(campaign, "A Company", "B Company")
    oivi = campaign.areas.get(name="Oivi").pk
    client = login(aussie)
    ours = ",".join(str(campaign.companies.get(name=n).pk) for n in ("A Company", "B Company"))
    for _ in range(10):
        answer = client.get(
            f"/campaigns/{campaign.pk}/orders/area/{oivi}/odds/?cards={ours}", **HTMX
        )
        assert answer.status_code == 200
        if "chance you take Oivi: " in answer.content.decode() and "being" not in (
            answer.content.decode()
        ):
            break
    html = answer.content.decode()
    assert "load delay" not in html  # done: no more polling
    assert "1st Company" not in html and "2nd Company" not in html


def test_the_enemy_cannot_ask_for_a_sides_planned_battles(
    campaign: Campaign, aussie: Any, japanese: Any, outsider: Any, login: Any
) -> None:
    order(campaign, "A Company")
    oivi = campaign.areas.get(name="Oivi").pk
    path = f"/campaigns/{campaign.pk}/orders/area/{oivi}/odds/"
    assert login(japanese).get(path + "?side=australian").status_code == 404
    theirs = login(japanese).get(path, **HTMX).content.decode()
    assert "no battle in Oivi now" in theirs and "A Company" not in theirs
    # Naming the enemy's card in the poll tells nothing: it is left out, as a company
    # that does not exist is.
    a = campaign.companies.get(name="A Company").pk
    naming_a = login(japanese).get(f"{path}?cards={a}", **HTMX).content.decode()
    assert naming_a == theirs == login(japanese).get(f"{path}?cards=99999", **HTMX).content.decode()
    assert login(outsider).get(path).status_code == 404


def test_the_section_is_drawn_again_with_an_orders_answer(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The order's answer brings the section out of band, its odds from the read its cards
    had (it was fetched again a second after any submit, reading the odds anew)."""
    client = login(aussie)
    html = client.get(f"/campaigns/{campaign.pk}/orders/").content.decode()
    assert 'id="planned-battles"' in html and "submit from:body" not in html
    a = campaign.companies.get(name="A Company").pk
    oivi = campaign.areas.get(name="Oivi").pk
    again = client.post(
        f"/campaigns/{campaign.pk}/orders/{a}/", {"order": f"advance:{oivi}"}, **HTMX
    ).content.decode()
    section = again.split('<section class="planned-battles" id="planned-battles"', 1)[1]
    assert section.split(">", 1)[0].endswith('hx-swap-oob="true"')
    assert 'data-area="Oivi"' in section and "one battle" in section
    assert "1st Company" not in section


def test_the_gm_sees_the_enemy_by_name(campaign: Campaign, gm_user: Any, login: Any) -> None:
    order(campaign, "A Company")
    html = login(gm_user).get(f"/campaigns/{campaign.pk}/orders/?side=australian").content
    section = html.decode().split('id="planned-battles"', 1)[1].split("</section>", 1)[0]
    assert "1st Company (" in section and "2nd Company (" in section
    assert "Only an estimate" not in section  # the game master's odds are of the real enemy


def test_an_estimated_chance_says_what_it_leaves_out(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """A walk-through read "Chance you take Oivi: 78%", attacked, and lost to a company
    that came in unseen and a veteran enemy: beside the figure, what the estimate assumes."""
    order(campaign, "A Company")
    html = login(aussie).get(f"/campaigns/{campaign.pk}/orders/").content.decode()
    section = html.split('id="planned-battles"', 1)[1].split("</section>", 1)[0]
    caveat = section.split("chance you take Oivi", 1)[1]
    assert "Only an estimate: the enemy as you see it now" in caveat
    assert "Enemy companies out of your sight may join the battle" in caveat
    row = html.split(f'id="company-{campaign.companies.get(name="A Company").pk}"', 1)[1]
    card = row.split("</article>", 1)[0]  # in short: said in full once, above
    assert "Only an estimate, of the enemy as you see it now" in card
    assert "out of your sight" not in card and html.count("out of your sight may join") == 1


def test_unseen_enemies_are_counted_by_what_is_seen_of_them_never_by_name() -> None:
    """Three strong glimpses read "3 strong companies", not "a strong company and a
    strong company and a strong company"; the order never follows their names."""
    bands = {"1st": "strong", "2nd": "average", "3rd": "strong", "4th": "strong"}

    class Glimpses:
        sees_everything = False

        def company(self, name: str) -> None:
            return None

        def glimpse_of(self, name: str) -> Any:
            return SimpleNamespace(full=False, strength_band=bands[name])

    view: Any = Glimpses()
    assert _who(view, ["1st", "2nd", "3rd", "4th"], own=False) == (
        "an average company and 3 strong companies"
    )
    assert _who(view, ["4th", "3rd", "2nd", "1st"], own=False) == (
        "an average company and 3 strong companies"
    )
    assert _who(view, ["1st"], own=False) == "a strong company"


# --- a battle already certain: both sides stand in one area --------------------------------


@pytest.fixture
def standoff(db: Any, aussie: Any, japanese: Any) -> Campaign:
    """A and B Company and the Japanese 2nd Company all in Oivi, which the Australians
    hold (the 1st Company back in Kilu, C Company next door in Korona): every one of
    them is engaged and may not move, so the turn fights there whatever anyone orders."""
    doc = korona_doc()
    where = {
        "A Company": "Oivi",
        "B Company": "Oivi",
        "C Company (militia)": "Korona",
        "1st Company": "Kilu",
    }
    for company in doc["companies"]:
        company["area"] = where.get(company["name"], company["area"])
    for area in doc["areas"]:
        if area["name"] == "Oivi":
            area["controller"] = "australian"
    campaign = create_campaign(data=doc, name="Standoff", seed=1)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    return campaign


def test_a_battle_both_sides_already_stand_in_is_planned_without_any_order(
    standoff: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    (oivi,) = areas(standoff, aussie)
    (battle,) = oivi.attacks
    assert oivi.area == "Oivi" and not oivi.attacking  # the Australians hold it: they defend
    assert sorted(battle.friends) == ["A Company", "B Company"]
    assert battle.enemies == ["2nd Company"]
    html = login(aussie).get(f"/campaigns/{standoff.pk}/orders/").content.decode()
    section = html.split('class="planned-battles"', 1)[1].split("</section>", 1)[0]
    assert 'data-area="Oivi"' in section and "2nd Company" not in section
    for name in ("A Company", "B Company"):
        row = html.split(f'id="company-{standoff.companies.get(name=name).pk}"', 1)[1]
        assert "Battle at Oivi" in row.split("</article>", 1)[0]
    # The Japanese side sees its own attack there too, the Australians as glimpses.
    view = open_campaign(user=japanese, campaign=standoff)
    (theirs,) = planning.planned_areas(planning.plan_side(view=view, side="japanese"))
    (attack,) = theirs.attacks
    assert theirs.attacking and attack.friends == ["2nd Company"]
    page = login(japanese).get(f"/campaigns/{standoff.pk}/orders/").content.decode()
    section = page.split('class="planned-battles"', 1)[1].split("</section>", 1)[0]
    assert "A Company" not in section and "B Company" not in section


def test_a_company_ordered_into_its_sides_standoff_joins_that_battle(
    standoff: Campaign, aussie: Any, login: Any
) -> None:
    c = standoff.companies.get(name="C Company (militia)").pk
    answer = login(aussie).post(
        f"/campaigns/{standoff.pk}/orders/{c}/",
        {"action": "give", "order": f"advance:{standoff.areas.get(name='Oivi').pk}"},
        **HTMX,
    )
    # The rows of the companies already there come out of band: their battle changed.
    html = answer.content.decode()
    for name in ("A Company", "B Company"):
        pk = standoff.companies.get(name=name).pk
        assert f'id="company-{pk}" hx-swap-oob="true"' in html
    (oivi,) = areas(standoff, aussie)
    (battle,) = oivi.attacks
    assert sorted(battle.friends) == ["A Company", "B Company", "C Company (militia)"]
    view = open_campaign(user=aussie, campaign=standoff)
    plan = planning.plan_side(view=view, side="australian")
    keys = {row.company.name: row.attack.battle.key for row in plan.companies if row.attack}
    assert keys == dict.fromkeys(["A Company", "B Company", "C Company (militia)"], "1:Oivi")


def test_defending_ones_own_area_reads_as_held_and_odds_read_from_ones_own_side(
    standoff: Campaign, aussie: Any, login: Any
) -> None:
    """C Company ordered into Oivi, which the Australians hold with A and B there: the card
    says the side holds it, the line says who is there and who is going, and every odds
    figure reads "you win N%" (it read "the enemy wins" in the section and "attacker
    wins" on the card, the same number)."""
    order(standoff, "C Company (militia)")
    client = login(aussie)
    for _ in range(5):  # the tests fight the odds inline: a poll or two brings them all in
        html = client.get(f"/campaigns/{standoff.pk}/orders/").content.decode()
    item = finished(standoff, aussie)
    assert item.pairing.startswith("Your companies in Oivi and those going there ")
    (battle,) = item.battles
    ours = battle.progress.side_win
    assert ours["p"] == pytest.approx(100 - battle.progress.attacker_win["p"])
    assert ours["low"] == pytest.approx(100 - battle.progress.attacker_win["high"])
    words = result_words(battle.progress)  # one wording, both places (tested apart below)
    assert words.startswith("you win") and "enemy" not in words
    section = html.split('class="planned-battles"', 1)[1].split("</section>", 1)[0]
    assert words in section and "enemy wins" not in section
    for name in ("A Company", "B Company", "C Company (militia)"):
        row = html.split(f'id="company-{standoff.companies.get(name=name).pk}"', 1)[1]
        row = row.split("</article>", 1)[0]
        assert "; you hold the area and defend." in row and "the enemy holds it" not in row
        assert ") (" not in row  # no brackets side by side
        assert words.capitalize() in row and "attacker wins" not in row  # a sentence there


# --- a page open in two tabs, or a teammate's: the cards follow their battle ------------------


def poll_of(page: str, area: int) -> str:
    """The poll of the area on the page (its hx-get), as the browser asks for it."""
    match = re.search(rf'hx-get="([^"]*/orders/area/{area}/odds/[^"]*)"', page)
    assert match, f"no poll of area {area}"
    return html.unescape(match.group(1))


def card_in(answer: str, company: int) -> str:
    """The company's whole card in an answer, swapped out of band."""
    match = re.search(
        rf'<article class="order-card" id="company-{company}" hx-swap-oob="true">.*?</article>',
        answer,
        re.S,
    )
    assert match, f"no card of company {company}"
    return match.group(0)


@pytest.fixture
def two_fronts(db: Any, aussie: Any, japanese: Any) -> Campaign:
    """The Japanese 2nd Company holds Isura (C Company next door in Ioro): an
    Australian company in Korona may fight at Oivi or, withdrawing, at Isura."""
    doc = korona_doc()
    where = {"2nd Company": "Isura", "C Company (militia)": "Ioro"}
    for company in doc["companies"]:
        company["area"] = where.get(company["name"], company["area"])
    for area in doc["areas"]:
        if area["name"] == "Isura":
            area["controller"] = "japanese"
    campaign = create_campaign(data=doc, name="Two fronts", seed=1)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    return campaign


def test_a_battle_taken_back_in_another_tab_takes_its_cards_odds_away(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The area said "no battle there now" while A Company's card kept its odds and its
    advance until the page was reloaded. Now the poll draws "Planned battles" again in
    place and A's card as it stands (its order, no odds) out of band."""
    a = campaign.companies.get(name="A Company").pk
    oivi = campaign.areas.get(name="Oivi").pk
    order(campaign, "A Company")
    first, second = login(aussie), login(aussie)  # two tabs
    poll = poll_of(first.get(f"/campaigns/{campaign.pk}/orders/").content.decode(), oivi)
    assert poll.endswith(f"?cards={a}")
    second.post(f"/campaigns/{campaign.pk}/orders/{a}/", {"order": "hold"})
    answer = first.get(poll, **HTMX)
    assert answer["HX-Retarget"] == "#planned-battles" and answer["HX-Reswap"] == "outerHTML"
    text = answer.content.decode()
    assert text.lstrip().startswith('<section class="planned-battles" id="planned-battles"')
    assert "Your orders lead to no battle in Oivi now." in text
    assert f"/orders/area/{oivi}/odds/" not in text  # nothing polls there any more
    card = card_in(text, a)
    assert "hold in Korona" in card and 'class="odds"' not in card


def test_a_battle_moved_to_another_area_joins_that_areas_poll(
    two_fronts: Campaign, aussie: Any, login: Any
) -> None:
    a = two_fronts.companies.get(name="A Company").pk
    c = two_fronts.companies.get(name="C Company (militia)").pk
    oivi = two_fronts.areas.get(name="Oivi").pk
    isura = two_fronts.areas.get(name="Isura").pk
    order(two_fronts, "A Company")
    order(two_fronts, "C Company (militia)", to="Isura")
    first, second = login(aussie), login(aussie)
    page = first.get(f"/campaigns/{two_fronts.pk}/orders/").content.decode()
    assert poll_of(page, isura).endswith(f"?cards={c}")
    second.post(f"/campaigns/{two_fronts.pk}/orders/{a}/", {"order": f"withdraw:{isura}"})
    for poll in (poll_of(page, oivi), poll_of(page, isura)):  # whichever answers first
        text = first.get(poll, **HTMX).content.decode()
        # Isura polls for both cards now; A's card fights there, and C's battle, which A
        # joined, comes along (its card, or only its odds when Isura's poll answers).
        assert poll_of(text, isura).endswith(f"?cards={a},{c}")
        assert "Battle at Isura: A Company" in card_in(text, a)
        c_battle = re.search(rf'id="odds-now-{c}".*?</p>', text, re.S)
        assert c_battle and "A Company and C Company" in c_battle.group(0)
        assert f"/area/{oivi}/odds/" not in text
        assert ("no battle in Oivi now" in text) == (f"/area/{oivi}/" in poll)
    # Polled again with the page as it now is, the answer is the area's odds alone.
    again = first.get(poll_of(text, isura), **HTMX)
    assert "HX-Retarget" not in again and f'id="company-{a}"' not in again.content.decode()


def test_a_teammates_company_joining_the_battle_brings_its_card(
    campaign: Campaign, aussie: Any, login: Any, django_user_model: Any
) -> None:
    """A teammate orders B Company into Oivi: the player's page shows the two battles
    and B's card with its order and odds; A's card keeps its place (only its odds)."""
    teammate = django_user_model.objects.create_user("mate", password="a long password 1")
    join(teammate, campaign, "australian")
    a = campaign.companies.get(name="A Company").pk
    b = campaign.companies.get(name="B Company").pk
    oivi = campaign.areas.get(name="Oivi").pk
    order(campaign, "A Company")
    client = login(aussie)
    poll = poll_of(client.get(f"/campaigns/{campaign.pk}/orders/").content.decode(), oivi)
    login(teammate).post(f"/campaigns/{campaign.pk}/orders/{b}/", {"order": f"advance:{oivi}"})
    text = client.get(poll, **HTMX).content.decode()
    assert "into 2 battles" in text
    assert "advance to Oivi" in card_in(text, b) and "Battle at Oivi: B Company" in text
    assert f'id="company-{a}"' not in text and f'id="odds-text-{a}" hx-swap-oob' in text
    assert poll_of(text, oivi).endswith(f"?cards={a},{b}")


def test_the_game_master_looking_at_a_side_reads_that_side_not_you(
    campaign: Campaign, gm_user: Any, aussie: Any, login: Any
) -> None:
    """The GM plays no side: on the orders page looking at the Australians, "Your company
    ... you take Oivi if you win it" and "Chance you take Oivi" were addressed to a player.
    The side's own player still reads "you"."""
    order(campaign, "A Company")
    view = open_campaign(user=gm_user, campaign=campaign)
    (area,) = planning.planned_areas(planning.plan_side(view=view, side="australian"))
    item = area_odds(view, area)
    assert item.pairing == (
        "The Australians' company going to Oivi and all the enemy companies there fight one "
        "battle; the Australians take Oivi if they win it."
    )
    shown = html.unescape(
        login(gm_user).get(f"/campaigns/{campaign.pk}/orders/?side=australian").content.decode()
    )
    assert "If A Company arrives, chance the Australians take Oivi" in shown
    assert "chance you" not in shown.lower()
    assert "Your company going to Oivi" not in shown
    mine = html.unescape(login(aussie).get(f"/campaigns/{campaign.pk}/orders/").content.decode())
    assert "If A Company arrives, chance you take Oivi" in mine
    assert "Your company going to Oivi and all the enemy companies" in mine


YOU = re.compile(r"\byou (win|lose|defend|hold)\b")


def test_the_game_master_reads_the_side_in_every_odds_answer(
    standoff: Campaign, gm_user: Any, aussie: Any, login: Any
) -> None:
    """Looking at the Australians, the GM read "20 of 20 battles — you win 3%" and "you
    hold the area and defend" on the cards and under "Planned battles": the page, a
    card's answer to an order, the area's poll and the slow poll's answer now name the
    side ("the Australians win"). The side's player reads "you" as before."""
    order(standoff, "C Company (militia)")
    a = standoff.companies.get(name="A Company").pk
    oivi = standoff.areas.get(name="Oivi").pk
    gm = login(gm_user)
    orders = f"/campaigns/{standoff.pk}/orders/"
    finished(standoff, gm_user)  # every battle fought: the answers word the odds
    answers = {
        "page": gm.get(f"{orders}?side=australian"),
        "poll": gm.get(f"{orders}area/{oivi}/odds/?side=australian&cards={a}", **HTMX),
        "watch": gm.get(f"{orders}watch/?side=australian&seen=1.x", **HTMX),
        "order": gm.post(f"{orders}{a}/", {"action": "withdraw", "turn": 1}, **HTMX),
    }
    for name, answer in answers.items():
        text = html.unescape(answer.content.decode())
        assert answer.status_code == 200, (name, answer.status_code)
        assert re.search(r"The Australians (win|lose) .* battles fought out", text), name
        assert not YOU.search(text), (name, YOU.search(text))
    assert "the Australians hold the area and defend" in html.unescape(
        answers["page"].content.decode()
    )
    mine = html.unescape(login(aussie).get(orders).content.decode())
    assert re.search(r"You (win|lose) .* battles fought out", mine)
    assert "you hold the area and defend" in mine
    assert "the Australians win" not in mine and "the Australians lose" not in mine


def test_a_company_with_a_bracket_in_its_name_shares_it_with_its_stands(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The solo walk of 7 December 2026 read "C Company (militia) (12 stands)" under
    "Planned battles": brackets in a row."""
    korona = campaign.areas.get(name="Korona")
    campaign.companies.filter(name="C Company (militia)").update(area=korona)
    order(campaign, "C Company (militia)", "A Company")
    page = login(aussie).get(f"/campaigns/{campaign.pk}/orders/").content.decode()
    section = page.split('class="planned-battles"', 1)[1].split("</section>", 1)[0]
    assert re.search(r"C Company \(militia, \d+ stands\)", section), section
    assert ") (" not in section
    assert re.search(r"A Company \(\d+ stands\)", section)


@pytest.mark.parametrize("mode", ["tabletop", "auto"])
def test_odds_in_a_campaign_fought_on_the_table_say_the_computer_fought_them(
    campaign: Campaign, aussie: Any, login: Any, mode: str
) -> None:
    """A walk-through of a campaign fought on the table read "you win 15% of 1,000 battles
    fought out" with nothing to say the computer fought them, not the players' table."""
    campaign.set_settings(dataclasses.replace(campaign.get_settings(), battle_mode=mode))
    campaign.save()
    order(campaign, "A Company")
    html = login(aussie).get(f"/campaigns/{campaign.pk}/orders/").content.decode()
    said = "Fought out by the computer, by the rules; at the table, the dice rolled and the "
    section = html.split('id="planned-battles"', 1)[1].split("</section>", 1)[0]
    row = html.split(f'id="company-{campaign.companies.get(name="A Company").pk}"', 1)[1]
    card = row.split("</article>", 1)[0]
    assert (said in section, said in card) == (mode == "tabletop",) * 2
