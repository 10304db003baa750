"""The report pages: turn history, a turn's rolls, battle reports and battle sheets, under
fog of war, with their query counts pinned."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Battle
from battles.services.results import enter_battle_result
from battles.web.battleview import forces_of
from campaign.models import SPECTATOR, Campaign, Turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from campaign.web import reports, turnlog
from campaign.web.turnlog import record_words
from tests.admin.conftest import waiting_campaign
from tests.campaign.conftest import korona_doc
from tests.web.conftest import join, meeting_doc

Login = Callable[[Any], Client]


def urls(campaign: Campaign) -> list[str]:
    battle = Battle.objects.filter(campaign=campaign).order_by("id").first()
    assert battle is not None
    return [
        reverse("turns", args=[campaign.pk]),
        reverse("turn", args=[campaign.pk, 1]),
        reverse("battle", args=[campaign.pk, battle.pk]),
        reverse("battle-sheet", args=[campaign.pk, battle.pk]),
    ]


def text_of(response: Any) -> str:
    """The page's words, tags stripped, spaces squeezed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def records_of(campaign: Campaign, number: int) -> list[dict[str, Any]]:
    return Turn.objects.get(campaign=campaign, number=number).log


# --- who may open the pages -----------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_sign_in(played: Campaign, client: Client) -> None:
    for url in urls(played):
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("who", ["gm_user", "aussie", "japanese"])
def test_the_gm_and_both_sides_open_every_report_page(
    played: Campaign, login: Login, who: str, request: pytest.FixtureRequest
) -> None:
    client = login(request.getfixturevalue(who))
    for url in urls(played):
        assert client.get(url).status_code == 200, url


def test_a_stranger_gets_404_on_every_report_page(
    played: Campaign, login: Login, outsider: Any
) -> None:
    client = login(outsider)
    for url in urls(played):
        assert client.get(url).status_code == 404, url


def test_a_player_of_another_campaign_gets_404(
    played: Campaign, login: Login, django_user_model: Any
) -> None:
    other = create_campaign(data=korona_doc(), name="Another", seed=2)
    player = django_user_model.objects.create_user("elsewhere", "e@example.com", "x")
    join(player, other, "australian")
    client = login(player)
    for url in urls(played):
        assert client.get(url).status_code == 404, url


def test_a_turn_not_played_is_404(played: Campaign, login: Login, aussie: Any) -> None:
    assert login(aussie).get(reverse("turn", args=[played.pk, 9])).status_code == 404


# --- fog of war: one test per way it could leak ---------------------------------------------


def test_a_turn_page_leaves_out_the_enemys_supply_rolls(
    played: Campaign, login: Login, aussie: Any, japanese: Any
) -> None:
    supply = [r for r in records_of(played, 1) if r["kind"] == "supply"]
    mine = [record_words(r) for r in supply if r["side"] == "australian"]
    theirs = [record_words(r) for r in supply if r["side"] == "japanese"]
    assert mine and theirs
    seen_by_aussie = text_of(login(aussie).get(reverse("turn", args=[played.pk, 1])))
    assert all(text in seen_by_aussie for text in mine)
    assert not any(text in seen_by_aussie for text in theirs)
    assert "supply roll" in seen_by_aussie
    seen_by_japanese = text_of(login(japanese).get(reverse("turn", args=[played.pk, 1])))
    assert all(text in seen_by_japanese for text in theirs)
    assert not any(text in seen_by_japanese for text in mine)


def test_a_turn_page_leaves_out_the_enemys_orders_and_moves(
    played: Campaign, login: Login, aussie: Any
) -> None:
    moves = [r for r in records_of(played, 2) if r["phase"] == "movement"]
    theirs = [r for r in moves if r["side"] == "japanese"]
    assert theirs
    page = login(aussie).get(reverse("turn", args=[played.pk, 2])).content.decode()
    for record in theirs:
        assert turnlog.record_words(record) not in page
    assert any(turnlog.record_words(r) in page for r in moves if r["side"] == "australian")


def test_the_gm_reads_every_roll_of_a_turn(played: Campaign, login: Login, gm_user: Any) -> None:
    page = text_of(login(gm_user).get(reverse("turn", args=[played.pk, 1])))
    for record in records_of(played, 1):
        # A battle's result is put in words from its fields (test_battle_result_words).
        if record["kind"] != "battle_result":
            assert turnlog.record_words(record, SIDES) in page


def test_the_turn_list_shows_no_enemy_record(played: Campaign, login: Login, aussie: Any) -> None:
    page = text_of(login(aussie).get(reverse("turns", args=[played.pk])))
    for number in (1, 2):
        for record in records_of(played, number):
            if record["side"] == "japanese" and record["phase"] in ("supply", "movement"):
                assert record["text"] not in page


def test_a_battle_the_viewer_may_not_read_is_404(
    played: Campaign, login: Login, aussie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    battle = Battle.objects.filter(campaign=played).first()
    assert battle is not None
    client = login(aussie)
    for name in ("battle", "battle-sheet"):
        assert client.get(reverse(name, args=[played.pk, battle.pk])).status_code == 200
    monkeypatch.setattr("battles.web.pages.battle_open", lambda view, battle: False)
    for name in ("battle", "battle-sheet"):
        assert client.get(reverse(name, args=[played.pk, battle.pk])).status_code == 404


def test_a_battle_of_another_campaign_is_404_under_this_one(
    played: Campaign, login: Login, gm_user: Any
) -> None:
    other, battles = waiting_campaign("Elsewhere")
    stranger = next(iter(battles.values()))
    client = login(gm_user)
    assert client.get(reverse("battle", args=[played.pk, stranger.pk])).status_code == 404
    assert client.get(reverse("battle", args=[other.pk, stranger.pk])).status_code == 200


# --- the turn pages -----------------------------------------------------------------------


def test_turn_list_shows_each_turn_with_status_summary_and_battles(
    played: Campaign, login: Login, aussie: Any
) -> None:
    response = login(aussie).get(reverse("turns", args=[played.pk]))
    page = text_of(response)
    html = response.content.decode()
    assert "Turn 1" in page and "Turn 2" in page and "played" in page
    for record in records_of(played, 1):
        if record["kind"] == "battle_result":
            assert f"At Korona the {record['winner']}" not in page  # the side, not the role
    assert (
        "At Korona the Australians' A Company, defending, beat the Japanese 1st Company: the "
        "Japanese lost a third" in page
    )
    for battle in Battle.objects.filter(campaign=played):
        assert reverse("battle", args=[played.pk, battle.pk]) in html
    assert reverse("turn", args=[played.pk, 2]) in html


def test_turn_page_groups_rolls_by_phase_with_their_dice_and_links_battles(
    played: Campaign, login: Login, aussie: Any
) -> None:
    response = login(aussie).get(reverse("turn", args=[played.pk, 1]))
    html = response.content.decode()
    headings = re.findall(r'<h2 id="phase-\d+">([^<]+)</h2>', html)
    assert headings[:4] == ["1. Naval events", "2. Aerial events", "3. Supply", "4. Initiative"]
    naval = next(r for r in records_of(played, 1) if r["phase"] == "naval")
    assert f'title="d6: {naval["dice"][0]}">{naval["dice"][0]}</span>' in html
    for battle in Battle.objects.filter(turn__campaign=played, turn__number=1):
        assert reverse("battle", args=[played.pk, battle.pk]) in html


def test_a_turn_waiting_for_the_table_says_so(login: Login, aussie: Any) -> None:
    campaign, _ = waiting_campaign()
    join(aussie, campaign, "australian")
    client = login(aussie)
    page = text_of(client.get(reverse("turns", args=[campaign.pk])))
    assert "waiting for battles: 2 of 2 still to be fought" in page
    page = text_of(client.get(reverse("turn", args=[campaign.pk, 1])))
    assert "Waiting for its battles to be fought" in page


# --- the battle report ----------------------------------------------------------------------


def test_a_fought_battle_shows_terrain_forces_replay_log_and_outcome(
    played: Campaign, login: Login, japanese: Any
) -> None:
    battle = Battle.objects.filter(campaign=played, status="fought").order_by("id").first()
    assert battle is not None
    response = login(japanese).get(reverse("battle", args=[played.pk, battle.pk]))
    html = response.content.decode()
    page = text_of(response)
    assert html.count('<rect class="cell ') == 9
    assert html.count('class="stand ') == len(
        battle.log[[r["kind"] for r in battle.log].index("deploy")]["positions"]
    )
    frames = json.loads(re.search(r'id="replay-frames"[^>]*>(.*?)</script>', html, re.S)[1])
    assert frames[0]["phase"] == "deployment" and len(frames) > 5
    assert 'data-replay="next"' in html and "campaign/replay.js" in html
    role = {"attacker": "attacking", "defender": "defending"}[battle.result["winner"]]
    assert re.search(rf"The (Japanese|Australians') [^,]+, {role}, wins?: ", page)
    lost = {k: sum(v.values()) for k, v in battle.result["losses"].items()}
    present = {k: sum(v.values()) for k, v in battle.result["stands_present"].items()}
    assert f"lost {lost['attacker']} of {present['attacker']} stands" in page
    fire = next(r for r in battle.log if r["kind"] == "fire")
    assert " ".join(str(d) for d in fire["dice"]) in page
    assert "Turn 1" in page and "Set-up" in page
    assert reverse("battle-sheet", args=[played.pk, battle.pk]) in html


def test_a_players_battle_report_names_stands_by_their_side_not_their_role(
    played: Campaign, login: Login, aussie: Any
) -> None:
    """A player reads "Japanese rifle squad 1 fires at Australian rifle squad 4", not
    "attacker rifle squad 1": in the log, the replay's lines, the counters' names and the
    sheet's set-up positions."""
    battle = Battle.objects.filter(campaign=played, status="fought").order_by("id").first()
    assert battle is not None
    attacker = {"japanese": "Japanese", "australian": "Australian"}[battle.attacker_side]
    defender = {"japanese": "Japanese", "australian": "Australian"}[battle.defender_side]
    client = login(aussie)
    response = client.get(reverse("battle", args=[played.pk, battle.pk]))
    html = response.content.decode()
    log = " ".join(
        line.text for turn in response.context["log_turns"] for p in turn.phases for line in p.lines
    )
    frames = json.loads(re.search(r'id="replay-frames"[^>]*>(.*?)</script>', html, re.S)[1])
    replay = " ".join(line for frame in frames for line in frame["lines"])
    counters = " ".join(re.findall(r"<title>([^<]*)</title></g>", html))
    for words in (log, replay):
        assert f"{attacker} rifle squad " in words and f"{defender} rifle squad " in words
    assert f"{attacker} rifle squad 1" in counters and f"{defender} rifle squad 1" in counters
    sheet = text_of(client.get(reverse("battle-sheet", args=[played.pk, battle.pk])))
    assert f"{attacker} rifle squad 1" in sheet and f"{defender} rifle squad 1" in sheet
    for words in (log, replay, counters, text_of(response), sheet):
        assert not re.search(r"\b(attacker|defender) (rifle squad|commander|HMG|sniper)", words)


# Where a role is the role itself, and stays (docs/pages.md): the forces' headings
# ("Attacker: Japanese"), the table's edges and corners ("the defender's edge"), and the
# rules' own statements ("the defender on a tie", "the defender fields one rifle squad as a
# sniper", the turn page's "on an equal share the defender wins").
GENUINE_ROLES = re.compile(
    r"\b(Attacker|Defender): |\b(attacker|defender)'s\b|the defender on a tie"
    r"|the defender fields|on an equal share the defender wins"
)
ROLE_WORD = re.compile(r"\b(attacker|defender)s?\b", re.IGNORECASE)


@pytest.mark.parametrize("ruleset", ["korona", "force_on_force"])
def test_a_players_battle_pages_name_phases_and_results_by_side_not_role(
    ruleset: str, login: Login, aussie: Any, japanese: Any
) -> None:
    """A player reads "T2 Japanese fire", "The Australians win: ...", "The Japanese 1st
    Company, attacking, wins", never "attacker fire" or "defender wins": in the report
    (outcome, log, replay's steps and lines), the sheet and the turn's page, under either
    rule set. The records keep their roles (the command line prints them)."""
    doc = meeting_doc()
    doc["settings"] = {**doc.get("settings", {}), "ruleset": ruleset}
    campaign = create_campaign(data=doc, name=f"Korona {ruleset}", seed=13)
    advance_turn(campaign_id=campaign.pk)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    battles = list(Battle.objects.filter(campaign=campaign, status="fought"))
    assert battles and all(b.ruleset == ruleset for b in battles)
    # As stored: "attacker fire" (Korona), "attacker activation" (Force on Force).
    assert any(r["phase"].startswith("attacker ") for b in battles for r in b.log)
    for user in (aussie, japanese):
        client = login(user)
        pages = [text_of(client.get(reverse("turn", args=[campaign.pk, 1])))]
        for battle in battles:
            response = client.get(reverse("battle", args=[campaign.pk, battle.pk]))
            html = response.content.decode()
            frames = json.loads(re.search(r'id="replay-frames"[^>]*>(.*?)</script>', html, re.S)[1])
            pages.append(text_of(response))
            pages += [f"{frame['phase']}: {' '.join(frame['lines'])}" for frame in frames]
            pages.append(
                text_of(client.get(reverse("battle-sheet", args=[campaign.pk, battle.pk])))
            )
        words = " ".join(pages)
        assert re.search(r"\b(Japanese|Australian) (fire|activation)\b", words)
        # The battle's last line: "The Australians win: the Japanese lost a third ...".
        assert re.search(r"The (Japanese|Australians) win(: the| at the turn limit)", words)
        assert re.search(r", (attacking|defending), wins?: ", words)
        rest = GENUINE_ROLES.sub("", words)
        assert not ROLE_WORD.search(rest), [
            rest[m.start() - 60 : m.end()] for m in ROLE_WORD.finditer(rest)
        ][:3]


def test_a_pending_tabletop_battle_shows_forces_sheet_and_deadline(
    login: Login, aussie: Any
) -> None:
    campaign, battles = waiting_campaign()
    join(aussie, campaign, "australian")
    battle = battles["1:Korona:1"]
    due = datetime(2031, 5, 6, 18, 30, tzinfo=UTC)
    Battle.objects.filter(pk=battle.pk).update(deadline=due)
    response = login(aussie).get(reverse("battle", args=[campaign.pk, battle.pk]))
    html = response.content.decode()
    page = text_of(response)
    assert "Waiting for the game master to enter the result." in page
    assert (
        "The result is wanted by Tue 6 May 2031, 18:30 UTC: if none is entered by then, the "
        "campaign waits for the game master" in page
    )
    assert reverse("battle-sheet", args=[campaign.pk, battle.pk]) in html
    assert "A Company" in page and "1st Company" in page and "Rifle squad" in page
    assert "replay-frames" not in html
    assert html.count('<rect class="cell ') == 9  # the table, rolled from the seed


def test_a_pending_battles_deadline_is_on_the_campaigns_clock(login: Login, aussie: Any) -> None:
    """A walk-through: the GM's pages said the turn was due "19:00 Australia/Sydney"
    while the report and the sheet said "08:00 UTC" for the same moment."""
    campaign, battles = waiting_campaign()
    Campaign.objects.filter(pk=campaign.pk).update(timezone="Australia/Sydney")
    join(aussie, campaign, "australian")
    battle = battles["1:Korona:1"]
    Battle.objects.filter(pk=battle.pk).update(deadline=datetime(2031, 5, 6, 8, 0, tzinfo=UTC))
    client = login(aussie)
    report = text_of(client.get(reverse("battle", args=[campaign.pk, battle.pk])))
    sheet = text_of(client.get(reverse("battle-sheet", args=[campaign.pk, battle.pk])))
    assert "The result is wanted by Tue 6 May 2031, 18:00 AEST: if none is entered" in report
    assert "Result wanted by Tue 6 May 2031, 18:00 AEST: if none is entered" in sheet


def test_an_entered_tabletop_result_shows_outcome_and_losses_without_replay(
    login: Login, aussie: Any
) -> None:
    campaign, battles = waiting_campaign()
    join(aussie, campaign, "australian")
    battle = battles["1:Korona:1"]
    enter_battle_result(
        battle_id=battle.pk,
        winner="defender",
        losses={"attacker": {"rifle_squad": 4}, "defender": {"rifle_squad": 1}},
    )
    page = text_of(login(aussie).get(reverse("battle", args=[campaign.pk, battle.pk])))
    assert "The Australians' A Company, defending, wins: result entered by the game master" in page
    assert "Japanese lost 4 of 12 stands" in page and "Australians lost 1 of 12 stands" in page
    assert "there is no log to replay" in page


# --- the battle sheet -------------------------------------------------------------------------


def test_the_sheet_has_terrain_squares_forces_rules_and_support(login: Login, aussie: Any) -> None:
    campaign, battles = waiting_campaign()
    join(aussie, campaign, "australian")
    battle = battles["1:Korona:1"]
    response = login(aussie).get(reverse("battle-sheet", args=[campaign.pk, battle.pk]))
    html = response.content.decode()
    page = text_of(response)
    assert html.count('<rect class="cell ') == 9
    assert len(re.findall(r'<tr><th scope="row">[A-C][1-3]</th>', html)) == 9
    assert "Special rules in force" in page and "Impact fuse on" in page
    # One name for the weapon: the force tables' "Small mortar", the scenario's "knee
    # mortars" beside it (the sheet said "knee mortars" and listed "Small mortar").
    assert "Small mortar" in page
    assert (
        "Impact fuse on: the Japanese small mortars (knee mortars) can only pin troops in "
        "jungle or woods" in page
    )
    assert "Turn limit 12 turns" in page
    assert "Off-table support (zone 5)" in page and "none in zone 5" in page
    assert html.count('class="write-in"') >= 2
    assert "@media print" in html and "@page" in html
    assert re.search(r"Winner: Japanese ☐ (&nbsp;|\s)+Australians ☐", page)


def test_the_sheet_of_a_fought_battle_lists_set_up_positions(
    played: Campaign, login: Login, gm_user: Any
) -> None:
    battle = Battle.objects.filter(campaign=played, status="fought").order_by("id").first()
    assert battle is not None
    page = text_of(login(gm_user).get(reverse("battle-sheet", args=[played.pk, battle.pk])))
    deploy = next(r for r in battle.log if r["kind"] == "deploy")
    stand, (x, y) = next(iter(deploy["positions"].items()))
    assert "Set-up positions" in page
    assert re.search(rf"{x} {y} [A-C][1-3]", page)
    assert "Winner:" not in page


# --- query counts on 10x the companies --------------------------------------------------------
# Every page: the user (1; the session comes from the cache), the campaign row and the
# player's membership (2), the campaign snapshot (7: sides, areas, links, companies, their
# stands, ships, air), the turns' start states (the fog of war: 1); then the page's own,
# which do not grow with the companies.


def test_turn_list_queries_do_not_grow_with_companies(
    big_campaign: Campaign, login: Login, aussie: Any, django_assert_num_queries: Any
) -> None:
    client = login(aussie)
    url = reverse("turns", args=[big_campaign.pk])
    # + the turns, without their logs (1) + the records each turn is summed up from, out
    # of the logs (1) + the readable battles of every turn (1) + the GM's adjustments (1)
    with django_assert_num_queries(15):
        assert client.get(url).status_code == 200


def test_turn_page_queries_do_not_grow_with_companies(
    big_campaign: Campaign, login: Login, aussie: Any, django_assert_num_queries: Any
) -> None:
    client = login(aussie)
    url = reverse("turn", args=[big_campaign.pk, 1])
    # + the turn (1) + its readable battles (1) + the GM's adjustments (1) + its dice
    # commitment (1) + the battles of its TURN.json, for the check of its dice (1) + the
    # GM's corrections of its tabletop results (1)
    with django_assert_num_queries(17):
        assert client.get(url).status_code == 200


def test_battle_report_queries_do_not_grow_with_companies(
    big_campaign: Campaign, login: Login, aussie: Any, django_assert_num_queries: Any
) -> None:
    battle = Battle.objects.filter(campaign=big_campaign).order_by("id").first()
    assert battle is not None
    client = login(aussie)
    url = reverse("battle", args=[big_campaign.pk, battle.pk])
    # + the battle with its turn and area (1) + its attacking and defending companies (2)
    with django_assert_num_queries(14):
        assert client.get(url).status_code == 200
    sheet = reverse("battle-sheet", args=[big_campaign.pk, battle.pk])
    # The same, but the user: read on the page before, it comes from the cache.
    with django_assert_num_queries(13):
        assert client.get(sheet).status_code == 200


def test_the_defenders_sniper_is_hidden_from_the_attacker_until_the_battle_is_fought(
    login: Login, aussie: Any, japanese: Any
) -> None:
    """The sniper swap is the defender's own order (rulings section 4), and a side never
    knows the enemy's orders (section 6): until the battle is fought the attacker reads the
    defending force, and the sheet's special rules, without it."""
    campaign, battles = waiting_campaign()
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    battle = battles["1:Korona:1"]
    assert battle.defender_side == "australian"
    spec = dict(battle.spec)
    spec["defender"] = {**spec["defender"], "sniper": True}
    Battle.objects.filter(pk=battle.pk).update(spec=spec)
    told = ("one rifle squad fights as a sniper", "fields one rifle squad as a sniper")
    for name in ("battle", "battle-sheet"):
        address = reverse(name, args=[campaign.pk, battle.pk])
        own = text_of(login(aussie).get(address))
        enemy = text_of(login(japanese).get(address))
        assert "one rifle squad fights as a sniper" in own
        assert not any(words in enemy for words in told)
    sheet = text_of(login(aussie).get(reverse("battle-sheet", args=[campaign.pk, battle.pk])))
    assert "fields one rifle squad as a sniper" in sheet


def test_a_turn_page_links_the_next_turn_only_once_it_has_a_page(
    played: Campaign, login: Login, aussie: Any
) -> None:
    """Two turns played: turn 1 links turn 2, and turn 2 (the newest) links nothing
    (its "Turn 3" link used to lead to a 404)."""
    client = login(aussie)
    first = client.get(reverse("turn", args=[played.pk, 1])).content.decode()
    assert f'href="{reverse("turn", args=[played.pk, 2])}" rel="next"' in first
    newest = client.get(reverse("turn", args=[played.pk, 2])).content.decode()
    assert reverse("turn", args=[played.pk, 3]) not in newest
    assert client.get(reverse("turn", args=[played.pk, 3])).status_code == 404


def test_two_battles_in_one_area_are_listed_by_number_in_words(
    db: Any, aussie: Any, login: Any
) -> None:
    """'Battle reports: Korona, 1, Korona, 2' read as four things (a walk-through)."""
    campaign = create_campaign(data=meeting_doc(), name="Two battles", seed=3)
    join(aussie, campaign, "australian")
    advance_turn(campaign_id=campaign.pk)
    page = login(aussie).get(f"/campaigns/{campaign.pk}/turns/1/").content.decode()
    assert re.search(r">Korona \(battle 1\)</a>.*>Korona \(battle 2\)</a>", page, re.S), page
    assert ">Korona, 1<" not in page


def test_a_turns_battles_are_listed_with_the_comma_after_each_name(
    db: Any, aussie: Any, login: Any
) -> None:
    """'Korona (battle 1), Korona (battle 2)' on the turn's page and the turn list: the
    "waiting" note's template ended in a newline, which read 'Korona (battle 1) , Korona
    (battle 2)' in every turn with two battles (a walk-through)."""
    campaign = create_campaign(data=meeting_doc(), name="Two battles", seed=3)
    join(aussie, campaign, "australian")
    advance_turn(campaign_id=campaign.pk)
    client = login(aussie)
    for url in (reverse("turn", args=[campaign.pk, 1]), reverse("turns", args=[campaign.pk])):
        page = client.get(url).content.decode()
        assert re.search(r">Korona \(battle 1\)</a>, <a [^>]*>Korona \(battle 2\)</a>", page), url


def test_a_force_of_several_companies_says_whose_quality_it_fights_at() -> None:
    """Several companies in one battle fight at the quality of the strongest (our
    ruling, docs/campaign.md): the report says so, or the veteran company among them
    reads as if it fought as the force's trained."""
    side = {"quality": "trained", "stands": {"commander": 1, "rifle_squad": 6}}
    spec = {
        "attacker": {**side, "side": "japanese", "name": "1st Company"},
        "defender": {**side, "side": "australian", "name": "C Company and A Company"},
    }
    companies = {
        "attacker": [("1st Company", None)],
        "defender": [("C Company", None), ("A Company", None)],
    }
    names = {"japanese": "Japanese", "australian": "Australians"}
    forces = forces_of(spec, None, side_names=names, companies=companies)
    html = render_to_string("battles/_forces.html", {"forces": forces, "campaign": None})
    merged = "C Company, A Company, trained: several companies fight at the quality of the"
    assert merged + " one with the most stands" in html
    assert "1st Company, trained</p>" in html  # one company: nothing to explain


# --- an area whose battles were split -------------------------------------------------------


def _oivi_fought(first: str, second: str) -> list[dict[str, Any]]:
    """A and B Company attack Oivi (two battles); the records once the battles are won by
    ``first`` and ``second`` ("attacker" or "defender")."""
    from rules.campaign.state import Order
    from rules.campaign.turn import finish_turn
    from tests.campaign.builders import korona_state, scripted_turn, supply_dice

    state = korona_state()
    orders = {name: Order(name, "advance", "Oivi") for name in ("A Company", "B Company")}
    plan = scripted_turn(state, supply_dice(state), orders)
    assert [b.key for b in plan.battles] == ["1:Oivi:1", "1:Oivi:2"]
    won = {"1:Oivi:1": first, "1:Oivi:2": second}
    results = {key: {"winner": winner, "losses": {}} for key, winner in won.items()}
    return finish_turn(plan, results).log


SIDES = turnlog.Reading({"australian": "Australians", "japanese": "Japanese"})


def test_a_split_area_says_why_it_does_not_change_hands() -> None:
    """A walk-through read the Australians win at Oivi, then found Oivi still Japanese
    with A Company in it: the other battle there was the Japanese's."""
    records = _oivi_fought("attacker", "defender")
    (battles,) = [p for p in turnlog.turn_phases(records, reading=SIDES) if p.key == "battles"]
    last = battles.lines[-1]
    assert last.words == (
        "Oivi does not change hands: the Australians won one battle there and the Japanese "
        "the other, so both sides still have companies in Oivi. An area changes hands only "
        "when one side is left there alone."
    )
    assert (last.kind, last.side, last.dice) == ("standoff", None, [])
    assert last.words in turnlog.turn_summary(records, SIDES.side_names)


@pytest.mark.parametrize("winner", ["attacker", "defender"])
def test_an_area_one_side_won_every_battle_of_needs_no_such_line(winner: str) -> None:
    records = _oivi_fought(winner, winner)
    phases = turnlog.turn_phases(records, reading=SIDES)
    assert all(line.kind != "standoff" for phase in phases for line in phase.lines)
    assert not any("change hands" in words for words in turnlog.turn_summary(records, {}))


def test_the_sheet_names_its_campaign_and_says_a_battle_is_still_to_be_fought(
    login: Login, aussie: Any
) -> None:
    """A walk-through: the sheet of a battle waiting for the table said "fought at the
    table", and its title named the area alone ("Battle sheet: Korona")."""
    campaign, battles = waiting_campaign("Kokoda table")
    join(aussie, campaign, "australian")
    battle = battles["1:Korona:1"]
    client = login(aussie)
    sheet_url = reverse("battle-sheet", args=[campaign.pk, battle.pk])
    html = client.get(sheet_url).content.decode()
    sheet = text_of(client.get(sheet_url))
    report = text_of(client.get(reverse("battle", args=[campaign.pk, battle.pk])))
    title = "Battle sheet: Korona, in the campaign Kokoda table"
    assert f"<title>{title}" in html
    # The heading names the battle, its campaign on the line below (for a phone).
    assert (
        '<h1><span class="title">Battle sheet: Korona</span> '
        '<span class="detail">in the campaign Kokoda table</span></h1>'
    ) in html
    for page in (sheet, report):
        assert "· to be fought at the table ·" in page

    enter_battle_result(
        battle_id=battle.pk,
        winner="defender",
        losses={"attacker": {"rifle_squad": 4}, "defender": {"rifle_squad": 1}},
    )
    for url in (sheet_url, reverse("battle", args=[campaign.pk, battle.pk])):
        page = text_of(client.get(url))
        assert "· fought at the table ·" in page and "to be fought" not in page


def test_a_wooded_squares_words_are_drawn_over_its_trees_with_a_halo(
    played: Campaign, login: Login, gm_user: Any
) -> None:
    """A walk-through read "C3 flat" through the tree icons: every square's name and
    going are drawn after the woods (and the stands), each with a pale halo."""
    client = login(gm_user)
    woods = 0
    for battle in Battle.objects.filter(campaign=played):
        html = client.get(reverse("battle-sheet", args=[played.pk, battle.pk])).content.decode()
        trees, words = html.split('<g class="square-labels"', 1)
        woods += trees.count('<g class="woods"')
        assert len(re.findall(r'<text class="cell-label"', words)) == 9
        drawn = trees.split('<g class="squares">', 1)[1]  # the squares, woods and stands
        assert "cell-label" not in drawn and "cell-going" not in drawn
        halo = re.search(r"svg\.field \.cell-label, svg\.field \.cell-going \{[^}]*\}", html)
        assert halo is not None and "stroke: #fffdf7" in halo.group(0)
    assert woods > 0  # the played campaign's battles have woods to draw the words over


def test_a_pending_automatic_battle_says_once_that_the_rules_fight_it(
    login: Login, aussie: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A battle the rules fight, its turn's workers not done yet: the report read "to be
    fought by the rules", then "Waiting for the game master to enter the result. The rules
    will fight it shortly. No deadline is set: the game master enters the result once it
    has been fought.", and offered a sheet to set up a table nobody plays on."""
    campaign = create_campaign(data=meeting_doc(), name="Korona auto", seed=13)
    with django_capture_on_commit_callbacks(execute=False):  # no worker fights them
        advance_turn(campaign_id=campaign.pk, defer_battles=True)
    join(aussie, campaign, "australian")
    battle = Battle.objects.filter(campaign=campaign, status="pending", mode="auto").first()
    page = text_of(login(aussie).get(reverse("battle", args=[campaign.pk, battle.pk])))
    assert "to be fought by the rules" in page
    assert "Not fought yet: it is fought in a moment, with the rest of the turn." in page
    assert "game master" not in page and "set the table up" not in page
    assert page.count("rules fight") + page.count("fought by the rules") == 1


def test_a_pending_tabletop_battle_without_a_deadline_says_who_enters_it_once(
    login: Login, aussie: Any
) -> None:
    campaign, battles = waiting_campaign()
    join(aussie, campaign, "australian")
    battle = battles["1:Korona:1"]
    Battle.objects.filter(pk=battle.pk).update(deadline=None)
    page = text_of(login(aussie).get(reverse("battle", args=[campaign.pk, battle.pk])))
    assert "Waiting for the game master to enter the result. No deadline is set for it." in page
    assert page.count("enter the result") + page.count("enters the result") == 1


# --- the list of turns reads only the records it sums up ----------------------------------


def _every_kind_of_turn(aussie: Any, japanese: Any, watcher: Any) -> Campaign:
    """Korona with battles on turn 1 and both events every turn, three turns played, two
    players and a spectator."""
    campaign = create_campaign(data=meeting_doc(), name="Korona", seed=13)
    settings = campaign.get_settings()
    campaign.set_settings(replace(settings, naval_trigger=1, aerial_trigger=1))
    campaign.save(update_fields=["settings"])
    for _ in range(3):
        advance_turn(campaign_id=campaign.pk)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    join(watcher, campaign, SPECTATOR)
    return campaign


def _without_tokens(html: bytes) -> bytes:
    """A page without its CSRF tokens, which change on every request."""
    html = re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", html)
    return re.sub(rb'"X-CSRFToken": "[^"]+"', b"", html)


def test_the_list_of_turns_reads_the_same_from_its_records_as_from_whole_logs(
    aussie: Any,
    japanese: Any,
    outsider: Any,
    admin_client: Client,
    login: Login,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each reader's list of turns (each side's, a spectator's, the GM's) is byte for
    byte the page it was when it read every turn's whole log."""
    campaign = _every_kind_of_turn(aussie, japanese, outsider)
    url = reverse("turns", args=[campaign.pk])
    readers = {
        "australian": login(aussie),
        "japanese": login(japanese),
        "spectator": login(outsider),
        "gm": admin_client,
    }
    pages = {who: _without_tokens(client.get(url).content) for who, client in readers.items()}
    assert b"event" in pages["spectator"] and b"moved first" in pages["australian"]

    def whole_logs(campaign_id: int) -> dict[int, list[dict[str, Any]]]:
        return dict(Turn.objects.filter(campaign_id=campaign_id).values_list("id", "log"))

    monkeypatch.setattr(reports, "summary_records", whole_logs)
    before = {who: _without_tokens(client.get(url).content) for who, client in readers.items()}
    assert {who: hashlib.sha256(page).hexdigest() for who, page in pages.items()} == {
        who: hashlib.sha256(page).hexdigest() for who, page in before.items()
    }


def test_the_list_of_turns_reads_no_whole_turn_log(
    played: Campaign, login: Login, aussie: Any
) -> None:
    """A turn's whole log (every roll, supply check and move of it: after months of play,
    hundreds of kilobytes) is not read for the list, only the records it sums up."""
    with CaptureQueriesContext(connection) as queries:
        page = login(aussie).get(reverse("turns", args=[played.pk])).content.decode()
    reads = [q["sql"] for q in queries.captured_queries if "campaign_turn" in q["sql"]]
    selected = [sql[: sql.index(" FROM ")] for sql in reads]
    assert reads and [columns for columns in selected if '"log"' in columns] == []
    assert "moved first" in page
