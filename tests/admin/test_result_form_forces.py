"""A tabletop battle's result form and its page in the GM's admin: each force named by
its companies ("A Company, B Company and C Company (militia)"), the companies listed
with their stands, and the way to the battle sheet to print."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from battles.models import Battle
from battles.services.results import fight_battle_now
from battles.web.forces import stands_words
from campaign.services.turns import advance_turn
from tests.admin.conftest import new_campaign
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db

FULL = "1 commander, 1 forward observer, 9 rifle squads and 1 small mortar"


def three_defenders(ruleset: str) -> Battle:
    """1st Company attacks A, B and C Company (militia), together in Korona. The Korona
    rule set's spec lists each company's stands; Force on Force's names them only."""
    doc = korona_doc()
    for company in doc["companies"]:
        if company["name"] in ("1st Company", "B Company", "C Company (militia)"):
            company["area"] = "Korona"
    campaign = new_campaign(doc=doc, battle_mode="tabletop", ruleset=ruleset)
    advance_turn(campaign_id=campaign.pk)
    return Battle.objects.get(campaign=campaign)


@pytest.mark.parametrize("ruleset", ["korona", "force_on_force"])
def test_the_result_form_names_each_force_by_its_companies_and_lists_them(
    gm: Client, ruleset: str
) -> None:
    battle = three_defenders(ruleset)
    page = gm.get(f"/admin/battles/battle/{battle.pk}/result/").content.decode()
    # "Defender (B Company and C Company (militia) and A Company)" was the walk-through's.
    assert "Defender (A Company, B Company and C Company (militia)): rifle squads lost" in page
    assert " and B Company and " not in page
    # The winner's list names each side as the campaign does, as the lines above it
    # ("(Australian)" under "Defending, the Australians" was a walk-through's).
    assert "defender: A Company, B Company and C Company (militia) (Australians)" in page
    assert "attacker: 1st Company (Japanese)" in page
    assert "(Australian)" not in page
    assert "<h2>In this battle</h2>" in page
    for name in ("A Company", "B Company", "C Company (militia)"):
        assert f"<li>Defending, the Australians: {name}: {FULL}</li>" in page
    japanese = "1st Company: 1 commander, 9 rifle squads, 1 HMG and 1 small mortar"
    assert f"<li>Attacking, the Japanese: {japanese}" in page
    sheet = f"/admin/battles/battle/{battle.pk}/sheet/"
    assert f'<a href="{sheet}" target="_blank" rel="noopener">The battle sheet' in page
    assert gm.get(sheet).status_code == 302


def test_the_battles_page_lists_the_companies_and_their_stands(gm: Client) -> None:
    battle = three_defenders("korona")
    page = gm.get(f"/admin/battles/battle/{battle.pk}/change/").content.decode()
    assert "<label>Defending companies, stands at the start:</label>" in page
    assert f"<div>C Company (militia): {FULL}</div>" in page
    assert "<div>1st Company: 1 commander, 9 rifle squads, 1 HMG and 1 small mortar" in page


def test_a_fought_battles_page_says_its_companies_started_so_and_what_each_force_lost(
    gm: Client,
) -> None:
    """A walk-through read a fought battle's companies, listed as they came to the table,
    as the forces after it: the page says they are the starting stands, and gives each
    force's losses and what it had left, as the players' battle report does."""
    battle = three_defenders("korona")
    pending = gm.get(f"/admin/battles/battle/{battle.pk}/change/").content.decode()
    assert "<label>Defending force after the battle:</label>" in pending
    # Each force after it, its status and its result.
    assert pending.count('<div class="readonly">not fought yet</div>') == 4
    fight_battle_now(battle_id=battle.pk)
    battle.refresh_from_db()
    assert battle.result is not None
    page = html.unescape(gm.get(f"/admin/battles/battle/{battle.pk}/change/").content.decode())
    assert "<label>Defending companies, stands at the start:</label>" in page
    assert f"<div>C Company (militia): {FULL}</div>" in page  # as it came to the table
    for role in ("attacker", "defender"):
        present = battle.result["stands_present"][role]
        lost = battle.result["losses"][role]
        left = {t: n - lost.get(t, 0) for t, n in present.items() if n - lost.get(t, 0)}
        acting = "Attacking" if role == "attacker" else "Defending"
        said = (
            f"lost {stands_words({t: n for t, n in lost.items() if n})}; left: {stands_words(left)}"
        )
        assert f"<label>{acting} force after the battle:</label>" in page
        assert f'<div class="readonly">{said}</div>' in page
    assert any(battle.result["losses"][role] for role in ("attacker", "defender"))


def test_the_fight_button_is_a_pill_as_the_tools_beside_it(gm: Client) -> None:
    """The walk-through found "Fight it now (auto)" a square button among round pills:
    the page loads the tools' style (campaign/admin-tools.css) with no inline style."""
    battle = three_defenders("korona")
    page = gm.get(f"/admin/battles/battle/{battle.pk}/change/").content.decode()
    assert "/static/campaign/admin-tools.css" in page
    assert 'style="display:inline"' not in page
