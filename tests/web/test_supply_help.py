"""Supply explained where a player meets it (a walk-through: "+1 (supply company)" in the
rolls, a supply company moved to Uberi Ridge that helped nobody, a company "out of supply
(3 turns running)" losing stands with no hint what to do): "How supply works" on the
orders and company pages, with the campaign's own numbers, and each fighting company's
coming roll as things stand."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from campaign.models import Campaign
from rules import names
from rules.campaign.state import Settings
from rules.campaign.turn import LOSS_ORDER, REGAIN_ORDER

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&minus;", "−").split())


def help_words(html: str) -> str:
    match = re.search(r'<details class="supply-help".*?</details>', html, re.S)
    assert match, "no supply help on the page"
    return words(match.group(0))


def orders_page(client: Client, campaign: Campaign) -> str:
    answer = client.get(f"/campaigns/{campaign.pk}/orders/")
    assert answer.status_code == 200
    return answer.content.decode()


def company_page(client: Client, campaign: Campaign, name: str) -> str:
    company = campaign.companies.get(name=name)
    answer = client.get(f"/campaigns/{campaign.pk}/companies/{company.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()


def expected_statements(settings: Settings) -> list[str]:
    """What the help must say, from the rules' own settings and orders of stands."""
    return [
        f"{settings.supply_company_bonus:+d} when a supply company of its side is in its "
        "area or in an area linked to it as the turn starts",
        f"−{settings.rough_track_penalty} in Erida, Kerna and Munara",
        f"From its {names.ordinal(settings.out_of_supply_turns_before_losses)} turn out of "
        "supply in a row it loses half its die (rounded down) in stands, "
        f"{names.unit(LOSS_ORDER[0], 2)} first",
        f"the {names.unit(REGAIN_ORDER[0])} first, never above its full strength",
        f"Airdrop: Australian companies in zone {settings.airdrop_zone} (Oivi) count "
        f"{settings.airdrop_base} as their base",
    ]


def test_the_help_gives_the_rules_numbers_on_the_orders_and_company_pages(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    for html in (orders_page(client, campaign), company_page(client, campaign, "A Company")):
        said = help_words(html)
        for statement in expected_statements(Settings()):
            assert statement in said
        # The Banzai! is the Japanese's rule: not the Australians' help.
        assert "Banzai" not in said


def test_the_help_follows_the_campaigns_settings(
    campaign: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    """Another campaign's settings, other numbers: none of them is written in the page."""
    settings = replace(
        campaign.get_settings(),
        supply_company_bonus=2,
        rough_track_penalty=3,
        out_of_supply_turns_before_losses=3,
    )
    campaign.set_settings(settings)
    campaign.save(update_fields=["settings"])
    said = help_words(orders_page(login(aussie), campaign))
    for statement in expected_statements(settings):
        assert statement in said
    japanese_help = help_words(orders_page(login(japanese), campaign))
    assert "Banzai!: a Japanese company that won a battle is in supply" in japanese_help
    assert "Airdrop" not in japanese_help


def test_each_card_gives_the_coming_roll_and_a_supply_company_only_helps_next_to_it(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """The walk-through's move: the 1st Supply Company to Uberi Ridge does nothing for C
    Company in Isura (not linked); in Ioro, linked to Isura, it adds its +1."""
    client = login(aussie)
    c_company = campaign.companies.get(name="C Company (militia)")
    supply = campaign.companies.filter(name="1st Supply Company")

    def coming_roll() -> str:
        cache.clear()
        html = orders_page(client, campaign)
        card = re.search(rf'id="company-{c_company.pk}".*?</article>', html, re.S)
        assert card
        line = re.search(r'<p class="next-supply">.*?</p>', card.group(0), re.S)
        assert line
        return words(line.group(0))

    assert coming_roll().startswith(
        "Turn 1's supply roll, as things stand: 3 or more on the d6 puts it in supply "
        "(distance 3 to Port Murray)."
    )
    supply.update(area=campaign.areas.get(name="Uberi Ridge"))
    assert "3 or more on the d6 puts it in supply (distance 3 to Port Murray)." in coming_roll()
    supply.update(area=campaign.areas.get(name="Ioro"))
    # The solo walk of 7 December 2026 read "(distance 4 to Port Murray, +1 (supply
    # company))" as a distance of 5: the +1 is the die's.
    assert (
        "2 or more on the d6 puts it in supply (distance 3 to Port Murray, the die +1 for "
        "the supply company)."
    ) in coming_roll()


def test_a_company_out_of_supply_is_told_another_failure_costs_stands(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    a_company = campaign.companies.filter(name="A Company")
    a_company.update(in_supply=False, turns_out_of_supply=1)
    said = words(company_page(client, campaign, "A Company"))
    assert "Out of supply this time, it loses half the die in stands." in said
    cache.clear()
    a_company.update(in_supply=True, turns_out_of_supply=0)
    said = words(company_page(client, campaign, "A Company"))
    assert "4 or more on the d6 puts it in supply" in said
    assert "Out of supply this time" not in said


def test_an_enemy_glimpse_has_no_supply_help(played: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    html = client.get(f"/campaigns/{played.pk}/").content.decode()
    handle = re.search(r"/glimpses/([0-9]+-[0-9]+)/", html)
    assert handle, "the played campaign shows the Australians a glimpse"
    glimpse = client.get(f"/campaigns/{played.pk}/glimpses/{handle.group(1)}/").content.decode()
    assert '<details class="supply-help"' not in glimpse
    assert '<p class="next-supply"' not in glimpse


def card_roll(client: Client, campaign: Campaign, name: str) -> str:
    """The coming-roll line of a company's card on the orders page, in words."""
    cache.clear()
    company = campaign.companies.get(name=name)
    card = re.search(
        rf'id="company-{company.pk}".*?</article>', orders_page(client, campaign), re.S
    )
    assert card
    line = re.search(r'<p class="next-supply">.*?</p>', card.group(0), re.S)
    assert line
    return unescape(words(line.group(0)))


def test_the_coming_roll_reads_a_banzai_win_as_the_turn_does(
    campaign: Campaign, japanese: Any, login: Any
) -> None:
    """A Japanese company that won a battle is in supply whatever its die (the supply
    phase's Banzai!); the card said it needed its roll."""
    client = login(japanese)
    # Far from its base (in Kilu, 1st Company needs no die at all).
    campaign.companies.filter(name="1st Company").update(area=campaign.areas.get(name="Korona"))
    before = card_roll(client, campaign, "1st Company")
    assert "or more on the d6 puts it in supply" in before
    campaign.companies.filter(name="1st Company").update(banzai=True)
    after = card_roll(client, campaign, "1st Company")
    assert after.startswith(
        "Turn 1's supply roll, as things stand: in supply whatever the die (Banzai!: it won a "
        "battle last turn)"
    )
    assert "or more on the d6" not in after
    # The solo walk: "in supply whatever the die (Banzai!: ...) (distance 2 to Kilu, the
    # die +1 for the supply company)": the die's modifier, after "whatever the die".
    assert "distance" not in after and "the die +1" not in after


def test_a_roll_no_die_can_fail_says_even_a_1_does_it(
    campaign: Campaign, japanese: Any, login: Any
) -> None:
    """In Kilu, its base, the 1st Company's worst die puts it in supply: the distance
    says why, and the die's modifier no longer follows "whatever the die" bare."""
    client = login(japanese)
    said = card_roll(client, campaign, "1st Company")
    assert said.startswith(
        "Turn 1's supply roll, as things stand: in supply whatever the die: even a 1 does it "
        "(distance "
    )


def test_the_coming_roll_reads_a_ship_away_as_the_turn_does(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    """With "a ship away blocks supply", no die puts the side's companies in supply while
    its ship is away (the supply phase's rule); the card said a die would."""
    client = login(aussie)
    campaign.ships.filter(side="australian").update(present=False)
    assert "or more on the d6 puts it in supply" in card_roll(client, campaign, "A Company")
    campaign.set_settings(replace(campaign.get_settings(), ship_absence_blocks_supply=True))
    campaign.save(update_fields=["settings"])
    said = card_roll(client, campaign, "A Company")
    assert "no die can put it in supply: its side's ship is away." in said
    assert "or more on the d6" not in said and "distance" not in said
