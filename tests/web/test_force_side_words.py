"""A force named with its side, by its companies in name order: "the Japanese 1st
Company, 2nd Company and 3rd Company attack the Australians' C Company (militia)". The
walk-through read "C Company (militia) (Australians)" in the GM's Battles list and the
turn logs, and the attackers in the rules' order (strongest first): "1st Company, 3rd
Company and 2nd Company"; then the players' turn log "B Company (Australians)" beside "the
Australians' C Company (militia)": every force is now named in the second form."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from campaign.models import Campaign
from campaign.services.turns import advance_turn
from campaign.web import turnlog
from rules import names
from tests.admin.conftest import new_campaign
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join

SAID = (
    "the Japanese 1st Company, 2nd Company and 3rd Company attack the Australians' "
    "C Company (militia)"
)


def text_of(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def militia_attacked(db: Any) -> Campaign:
    """The three Japanese companies in Isura with C Company (militia), 2nd Company the
    weakest (the rules list it last: "1st Company and 3rd Company and 2nd Company"): a
    tabletop battle waits there after turn 1."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["name"] in ("1st Company", "2nd Company", "3rd Company"):
            company["area"] = "Isura"
        if company["name"] == "2nd Company":
            company["stands"]["rifle_squad"] = 6
    campaign = new_campaign(doc=doc, battle_mode="tabletop")
    advance_turn(campaign_id=campaign.pk)
    return campaign


def test_names_sorts_companies_by_name_with_numbers_by_value() -> None:
    assert names.by_name(["3rd Company", "10th Company", "B Company", "2nd Company"]) == [
        "2nd Company",
        "3rd Company",
        "10th Company",
        "B Company",
    ]


def test_every_force_is_named_with_its_side_before_it_brackets_or_not() -> None:
    assert names.force_of_side("A Company", "Australians") == "the Australians' A Company"
    assert names.force_of_side("1st Company", "Japanese", "defending") == (
        "the Japanese 1st Company, defending,"
    )
    assert names.force_of_side("A Company and C Company (militia)", "Australians") == (
        "the Australians' A Company and C Company (militia)"
    )
    assert names.force_of_side("C Company (militia)", "Australians", "attacking") == (
        "the Australians' C Company (militia), attacking,"
    )


def test_the_battles_list_and_turn_log_name_the_militia_with_one_bracket(
    militia_attacked: Campaign, django_user_model: Any
) -> None:
    battle = Battle.objects.get(campaign=militia_attacked)
    # The rules' own order, strongest first, stays in the spec (replays compare it).
    assert battle.spec["attacker"]["name"] == "1st Company and 3rd Company and 2nd Company"
    gm = Client()
    gm.force_login(django_user_model.objects.create_superuser("desk", "d@example.com", "pw"))
    listing = text_of(gm.get("/admin/battles/battle/").content.decode())
    # The admin names every force after its side (the walk-through read both forms in
    # one list): "the Japanese 1st Company, ... attack the Australians' C Company".
    assert f"At Isura: {SAID}" in listing
    assert "(militia) (" not in listing
    log = text_of(gm.get(f"/admin/campaign/turn/{battle.turn_id}/change/").content.decode())
    assert f"Battle at Isura: {SAID}" in log
    assert "(militia) (" not in log


def test_the_battle_sheet_names_each_force_after_its_side_without_nested_brackets(
    militia_attacked: Campaign, aussie: Any
) -> None:
    join(aussie, militia_attacked, "australian")
    client = Client()
    client.force_login(aussie)
    battle = Battle.objects.get(campaign=militia_attacked)
    sheet = client.get(reverse("battle-sheet", args=[militia_attacked.pk, battle.pk]))
    words = text_of(sheet.content.decode())
    assert (
        "The Japanese 1st Company, 2nd Company and 3rd Company attack the Australians' "
        "C Company (militia)."
    ) in words
    assert "(C Company (militia))" not in words


def result_record(winner: str) -> dict[str, Any]:
    return {
        "phase": "battles",
        "kind": "battle_result",
        "target": "Isura",
        "battle": "1:Isura",
        "winner": winner,
        "attacker_side": "japanese",
        "defender_side": "australian",
    }


def battle_record() -> dict[str, Any]:
    return {
        "phase": "battles",
        "kind": "battle",
        "target": "Isura",
        "battle": "1:Isura",
        "attacker_side": "japanese",
        "defender_side": "australian",
        "attackers": ["1st Company", "3rd Company", "2nd Company"],
        "defenders": ["C Company (militia)"],
    }


@pytest.mark.parametrize(
    ("winner", "said"),
    [
        (
            "attacker",
            "At Isura the Japanese 1st Company, 2nd Company and 3rd Company, attacking, beat "
            "the Australians' C Company (militia): the Australians lost a third or more of "
            "their stands (5 of 12).",
        ),
        (
            "defender",
            "At Isura the Australians' C Company (militia), defending, beat the Japanese 1st "
            "Company, 2nd Company and 3rd Company: the Japanese lost a third or more of their "
            "stands (5 of 12).",
        ),
    ],
)
def test_a_battle_result_names_the_militia_with_one_bracket(winner: str, said: str) -> None:
    summary = turnlog.turn_summary(
        [battle_record(), result_record(winner)],
        {"australian": "Australians", "japanese": "Japanese"},
        {"1:Isura": "a_third_lost"},
        shares={"1:Isura": "5 of 12"},
    )
    assert summary == [said]
