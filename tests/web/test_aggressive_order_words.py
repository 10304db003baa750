"""An order the aggressive standing order gave, in a player's words: what it made the
company do and why (rules/campaign/phases/movement.py ``standing_order``). The turn log
once said "C Company withdraws from Korona to Isura (no order given: its standing order
advances it by itself)" of a company that fell back out of supply."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Company, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from campaign.web.turnlog import Reading, gm_record_words, record_words, turn_phases
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join

SOURCE = "standing order (aggressive)"


def supply(company: str, verdict: str) -> dict[str, Any]:
    return {
        "phase": "supply",
        "kind": "supply",
        "company": company,
        "side": "australian",
        "dice": [1],
        "outcome": verdict,
        "text": f"{company}: supply roll 1 against distance 3 to Port Murray: {verdict}",
    }


def order(company: str, kind: str, *, moved_from: str | None = "Korona") -> dict[str, Any]:
    record: dict[str, Any] = {
        "phase": "movement",
        "kind": "order",
        "company": company,
        "side": "australian",
        "order": kind,
        "source": SOURCE,
    }
    if kind == "hold":
        record.update(outcome="hold", target="Korona")
    else:
        record.update(outcome="moved", target="Isura", **{"from": moved_from})
    return record


def text_of(response: Any) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def words(records: list[dict[str, Any]]) -> list[str]:
    return [line.words for phase in turn_phases(records) for line in phase.lines]


@pytest.mark.parametrize(
    ("verdict", "kind", "said"),
    [
        (
            "out of supply",
            "withdraw",
            "C Company withdraws from Korona to Isura (no order given: its aggressive "
            "standing order withdraws it, out of supply)",
        ),
        (
            "in supply",
            "advance",
            "C Company advances from Korona to Isura (no order given: its aggressive "
            "standing order advances it toward the enemy's base)",
        ),
        (
            "in supply",
            "hold",
            "C Company holds in Korona (no order given: its aggressive standing order "
            "would advance it, but it is engaged by the enemy or has no area nearer the "
            "enemy's base to go to)",
        ),
        (
            "out of supply",
            "hold",
            "C Company holds in Korona (no order given: its aggressive standing order "
            "would withdraw it, out of supply, but it is engaged by the enemy or has no "
            "area nearer its base to go to)",
        ),
    ],
)
def test_a_fighting_company_on_the_aggressive_order_says_what_its_supply_made_it_do(
    verdict: str, kind: str, said: str
) -> None:
    assert words([supply("C Company", verdict), order("C Company", kind)])[-1] == said


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        (
            "advance",
            "S Company advances from Korona to Isura (no order given: its aggressive "
            "standing order has it follow its side's foremost fighting company)",
        ),
        (
            "withdraw",
            "S Company withdraws from Korona to Isura (no order given: its aggressive "
            "standing order has it follow its side's foremost fighting company)",
        ),
        (
            "hold",
            "S Company holds in Korona (no order given: its aggressive standing order has "
            "it follow its side's foremost fighting company: it stays where it is)",
        ),
    ],
)
def test_a_supply_company_on_the_aggressive_order_follows_its_front(kind: str, said: str) -> None:
    # A supply company rolls no supply: the turn's records have no roll for it.
    assert words([supply("C Company", "in supply"), order("S Company", kind)])[-1] == said


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("withdraw", "C Company withdraws from Korona to Isura (no order given: its "
         "aggressive standing order withdraws it)"),
        ("advance", "C Company advances from Korona to Isura (no order given: its "
         "aggressive standing order advances it)"),
        ("hold", "C Company holds in Korona (no order given: its aggressive standing "
         "order holds it)"),
    ],
)  # fmt: skip
def test_without_the_turns_records_the_words_say_only_what_it_did(kind: str, said: str) -> None:
    assert record_words(order("C Company", kind)) == said
    assert "advances it" not in record_words(order("C Company", "withdraw"))


def test_a_refused_aggressive_order_names_the_standing_order_for_the_game_master() -> None:
    refused = {
        **order("C Company", "advance"),
        "outcome": "refused",
        "text": "C Company's order to advance to Isura is refused: it is engaged; it holds",
    }
    assert gm_record_words(refused, Reading(supply={})) == (
        "C Company's order to advance to Isura is refused: it is engaged; it holds "
        "(no order given: its standing order is aggressive)"
    )


def test_the_turn_and_company_pages_say_why_an_aggressive_company_withdrew(
    db: Any, aussie: Any, gm_user: Any, login: Any
) -> None:
    """A campaign played on the aggressive standing order to a turn where an Australian
    company out of supply falls back: its player's turn page, its company page and the
    game master's say so, and no page says a withdrawal advances it."""
    campaign = create_campaign(data=korona_doc(standing_order="aggressive"), name="K", seed=1)
    join(aussie, campaign, "australian")
    withdrawn = None
    while withdrawn is None and campaign.turn < 6:
        advance_turn(campaign_id=campaign.pk)
        campaign.refresh_from_db()
        log = Turn.objects.get(campaign=campaign, number=campaign.turn).log
        withdrawn = next(
            (r for r in log if r["kind"] == "order" and r["order"] == "withdraw"
             and r["side"] == "australian" and r["source"] == SOURCE),
            None,
        )  # fmt: skip
    assert withdrawn is not None, "no Australian company fell back in six turns"
    rolled = next(r for r in log if r["kind"] == "supply" and r["company"] == withdrawn["company"])
    assert rolled["outcome"] == "out of supply"
    said = (
        f"{withdrawn['company']} withdraws from {withdrawn['from']} to {withdrawn['target']} "
        "(no order given: its aggressive standing order withdraws it, out of supply)"
    )
    company = Company.objects.get(campaign=campaign, name=withdrawn["company"])
    for client in (login(aussie), login(gm_user)):
        turn = text_of(client.get(reverse("turn", args=[campaign.pk, campaign.turn])))
        assert said in turn
        assert "advances it by itself" not in turn
        page = text_of(client.get(reverse("company", args=[campaign.pk, company.pk])))
        assert said in page
