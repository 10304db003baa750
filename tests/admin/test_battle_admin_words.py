"""The GM's list and page of battles in plain words (the solo walk of 7 December 2026):
the list had a column headed "battles are" ("fought by the rules at once") beside a
status that said it again ("fought by the rules: the Japanese won"), the page a field
"Battles are:"; and its result said only "the loser withdrew" where the players' report
says why ("withdrew from a hopeless position: they had 11 stands ...")."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from battles.models import Battle
from tests.admin.conftest import waiting_campaign

pytestmark = pytest.mark.django_db


def words(page: bytes) -> str:
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", page.decode()).split()))


def withdrawn() -> Battle:
    """A battle the attackers (the Japanese) left from a hopeless position."""
    _, battles = waiting_campaign()
    battle = next(iter(battles.values()))
    battle.status = Battle.Status.FOUGHT
    battle.mode = "auto"
    battle.result = {
        "winner": "defender",
        "reason": "withdrew",
        "withdrawal": "hopeless",
        "fit_to_fight": [11, 35],
        "losses": {"attacker": {"rifle": 2}, "defender": {}},
        "ruleset": "korona",
    }
    battle.save()
    return battle


def test_the_battles_list_says_how_fought_once(gm: Client) -> None:
    battle = withdrawn()
    page = words(gm.get("/admin/battles/battle/").content)
    assert "battles are" not in page.lower()
    assert "fought by the rules at once" not in page
    assert "fought by the rules: the" in page  # the status says it
    # The filter, under a heading in words, keeps its address (?mode=).
    assert "By how fought" in page and "By mode" not in page
    link = f'href="/admin/battles/battle/{battle.pk}/change/'
    assert link in gm.get("/admin/battles/battle/?mode=auto").content.decode()
    assert link not in gm.get("/admin/battles/battle/?mode=tabletop").content.decode()


def test_the_battle_page_says_how_fought_and_why_the_loser_withdrew(gm: Client) -> None:
    battle = withdrawn()
    page = words(gm.get(f"/admin/battles/battle/{battle.pk}/change/").content)
    assert "Battles are" not in page
    assert "How fought: by the rules, at once" in page
    why = (
        "win (the Japanese withdrew from a hopeless position: they had 11 stands fit to "
        "fight against 35, more than three times as many)"
    )
    assert why in page
    assert why in words(gm.get(f"/admin/battles/battle/{battle.pk}/report/").content)


def test_the_battle_page_gives_a_defeat_by_losses_its_count(gm: Client) -> None:
    """It said "the loser lost a third of its stands" for 4 of 10, where the players'
    pages say "the Japanese lost a third or more of their stands (4 of 10)"."""
    battle = withdrawn()
    battle.result = {
        "winner": "defender",
        "reason": "a_third_lost",
        "losses": {"attacker": {"rifle_squad": 4}, "defender": {}},
        "stands_present": {"attacker": {"rifle_squad": 10}, "defender": {"rifle_squad": 9}},
        "ruleset": "korona",
    }
    battle.save()
    page = words(gm.get(f"/admin/battles/battle/{battle.pk}/change/").content)
    assert "win (the Japanese lost a third or more of their stands (4 of 10))" in page
    assert "the loser lost a third of its stands" not in page
