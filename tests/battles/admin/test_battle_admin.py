"""Battles in the GM's admin: the result form, fighting a tabletop battle by the rules
after all, the report in words and the battle sheet."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from battles.models import Battle
from battles.web import battleview
from battles.web.forces import battle_place, battle_words
from campaign.models import Campaign, Turn
from campaign.services.turns import advance_turn
from rules import rulesets
from rules.narrate import stand_sides
from tests.admin.conftest import (
    assert_refused,
    entered,
    meeting_doc,
    new_campaign,
    waiting_campaign,
)

pytestmark = pytest.mark.django_db


def url(battle: Battle, action: str) -> str:
    return f"/admin/battles/battle/{battle.pk}/{action}/"


def test_result_form_has_a_field_per_unit_type_present(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    form = gm.get(url(battle, "result")).context["form"]
    expected = {
        f"{key}__{unit}" for key in ("attacker", "defender") for unit in battle.spec[key]["stands"]
    }
    assert set(form.fields) == {"winner", "checked"} | expected


def test_the_battles_list_says_who_attacks_whom(gm: Client) -> None:
    """The walk-through's list read "battle 1 at Korona", "battle 2 at Korona": each row
    now names its forces, as the GM's email does."""
    _, battles = waiting_campaign()
    page = gm.get("/admin/battles/battle/").content.decode()
    rows = [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r'<th class="field-battle_shown">(.*?)</th>', page, flags=re.S)
    ]
    # One form for every row ("B Company (Australians)" beside "the Australians' C
    # Company (militia)" was the walk-through's), after "At": the area, not the campaign.
    assert rows == [
        "At Korona: the Japanese 1st Company attacks the Australians&#x27; A Company",
        "At Korona: the Japanese 2nd Company attacks the Australians&#x27; B Company",
    ]


def test_the_battles_and_turns_lists_show_the_latest_turn_first(gm: Client) -> None:
    """After months of turns the latest are what the GM looks for (a walk-through found
    this week's battles on the list's last page): the latest turn's battles first, each
    turn's in their own order; the latest turn first."""
    waiting_campaign("Older")
    waiting_campaign("Newer")  # its turn 1 played after the Older one's
    page = gm.get("/admin/battles/battle/").content.decode()
    shown = re.findall(r'<td class="field-campaign[^"]*">(.*?)</td>', page, flags=re.S)
    assert [re.sub(r"<[^>]+>", "", cell) for cell in shown] == ["Newer"] * 2 + ["Older"] * 2
    turns = gm.get("/admin/campaign/turn/").content.decode()
    assert turns.index("Newer, turn 1") < turns.index("Older, turn 1")


def test_entering_both_results_completes_the_turn(gm: Client) -> None:
    campaign, battles = waiting_campaign()
    for key, winner in (("1:Korona:1", "defender"), ("1:Korona:2", "attacker")):
        battle = battles[key]
        data = {"winner": winner}
        for side in ("attacker", "defender"):
            for unit in battle.spec[side]["stands"]:
                data[f"{side}__{unit}"] = 0
        data["attacker__rifle_squad"] = 2
        response = entered(gm, url(battle, "result"), data)
        assert response.status_code == 302
    first = Battle.objects.get(pk=battles["1:Korona:1"].pk)
    assert first.status == Battle.Status.ENTERED
    assert first.result["losses"] == {"attacker": {"rifle_squad": 2}, "defender": {}}
    assert Turn.objects.get(campaign=campaign).status == Turn.Status.DONE
    assert Campaign.objects.get().turn == 1


def test_a_result_entered_names_the_battle_still_waiting_and_links_its_form(
    gm: Client,
) -> None:
    _, battles = waiting_campaign()
    first, second = battles["1:Korona:1"], battles["1:Korona:2"]
    form = gm.get(url(first, "result")).context["form"]
    attacker, defender = first.spec["attacker"], first.spec["defender"]
    assert dict(form.fields["winner"].choices) == {
        "": "choose the winner",
        "attacker": f"attacker: {attacker['name']} (Japanese)",
        "defender": f"defender: {defender['name']} (Australians)",
    }
    data = {"winner": "defender"}
    for side in ("attacker", "defender"):
        for unit in first.spec[side]["stands"]:
            data[f"{side}__{unit}"] = 0
    page = entered(gm, url(first, "result"), data, follow=True).content.decode()
    # Each battle by who attacks whom, as the Battles list names it, not "battle 1 at
    # Korona" and "battle 2 at Korona".
    assert (
        "Result entered for the battle at Korona: the Japanese 1st Company attacks the "
        "Australians&#x27; A Company. Still waiting in this turn: At Korona: the Japanese "
        "2nd Company attacks the Australians&#x27; B Company "
        f'(<a href="{url(second, "result")}">enter its result</a>).'
    ) in page
    assert "battle 1 at" not in page and "battle 2 at" not in page


def test_the_result_page_names_the_battle_by_who_attacks_whom(gm: Client) -> None:
    """Its title and its breadcrumbs read "battle 1 at Korona", where the Battles list
    names it by its forces."""
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    page = gm.get(url(battle, "result")).content.decode()
    named = "At Korona: the Japanese 1st Company attacks the Australians&#x27; A Company"
    place = "Korona: the Japanese 1st Company attacks the Australians&#x27; A Company"
    assert f"<h1>Result of the battle at {place}</h1>" in page
    crumbs = page.split('<div class="breadcrumbs">')[1].split("</div>")[0]
    assert f'<a href="{url(battle, "change")}">{named}</a>' in crumbs
    assert f"Result of the battle at {place}" in crumbs
    assert "battle 1 at" not in page
    # Its page and its report name it so too.
    for action, title in (("change", f"Battle: {named}"), ("report", f"Report: {named}")):
        shown = gm.get(url(battle, action)).content.decode()
        assert f"<h1>{title}</h1>" in shown and "battle 1 at" not in shown


def test_a_result_losing_more_stands_than_present_is_refused(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    data = {"winner": "attacker"}
    for side in ("attacker", "defender"):
        for unit in battle.spec[side]["stands"]:
            data[f"{side}__{unit}"] = 0
    present = battle.spec["defender"]["stands"]["rifle_squad"]
    data["defender__rifle_squad"] = present + 1
    response = gm.post(url(battle, "result"), data)
    assert response.status_code == 200
    # Beside its box, with any other box's error (tests/admin/test_result_form_bounds.py).
    errors = response.context["form"].errors
    assert errors["defender__rifle_squad"] == [
        f"The defender had only {present} rifle squads: it cannot have lost more."
    ]
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.PENDING


def test_empty_loss_boxes_count_as_none_lost(gm: Client) -> None:
    """Only the losses there were are typed in; the other boxes may stay empty."""
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    data = {"winner": "defender", "attacker__rifle_squad": "2"}
    for side in ("attacker", "defender"):
        for unit in battle.spec[side]["stands"]:
            data.setdefault(f"{side}__{unit}", "")
    response = entered(gm, url(battle, "result"), data)
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.status == Battle.Status.ENTERED
    assert battle.result["losses"] == {"attacker": {"rifle_squad": 2}, "defender": {}}


def test_a_result_needs_a_winner(gm: Client) -> None:
    _, battles = waiting_campaign()
    response = gm.post(url(battles["1:Korona:1"], "result"), {"winner": "nobody"})
    assert "winner" in response.context["form"].errors
    # The top of the form says so too (a field's error alone used to leave it silent).
    assert "Please correct the problem below." in response.content.decode()
    empty = gm.post(url(battles["1:Korona:1"], "result"), {"winner": ""})
    assert "Please correct the problem below." in empty.content.decode()


def test_result_entry_is_refused_to_a_player(player: Client) -> None:
    _, battles = waiting_campaign()
    assert_refused(player.post(url(battles["1:Korona:1"], "result"), {"winner": "attacker"}))
    assert Battle.objects.get(pk=battles["1:Korona:1"].pk).status == Battle.Status.PENDING


def test_a_fought_battle_takes_no_result(gm: Client) -> None:
    campaign = new_campaign(doc=meeting_doc())
    advance_turn(campaign_id=campaign.pk)
    battle = Battle.objects.filter(campaign=campaign).first()
    response = gm.get(url(battle, "result"), follow=True)
    assert "This battle already has its result (fought by the rules)." in [
        str(m) for m in response.context["messages"]
    ]


def test_fight_it_now_lets_the_rules_fight_a_tabletop_battle(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    response = gm.post(url(battle, "fight"))
    assert response.status_code == 302
    battle.refresh_from_db()
    assert (battle.mode, battle.status) == ("auto", Battle.Status.FOUGHT)
    assert battle.log


def test_a_fought_battles_result_names_each_side_not_its_role(gm: Client) -> None:
    """The GM reads the result as every other page says it: "The Australians, defending,
    win (...); the Japanese, attacking, lost ..., the Australians lost ...", not "The
    defender wins; the attacker lost"."""
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    gm.post(url(battle, "fight"))
    battle.refresh_from_db()
    winner = battle.result["winner"]
    page = gm.get(url(battle, "change")).content.decode()
    result = re.search(r'<div class="readonly">(The [^<]*)</div>', page)
    assert result is not None
    text = result[1]
    won = "Japanese, attacking" if winner == "attacker" else "Australians, defending"
    lost = "Australians, defending," if winner == "attacker" else "Japanese, attacking,"
    assert text.startswith(f"The {won}, win ("), text
    assert f"the {lost} lost " in text, text
    assert "attacker lost" not in text and "defender lost" not in text
    assert "wins" not in text


def test_fight_it_now_is_refused_to_a_player(player: Client) -> None:
    _, battles = waiting_campaign()
    assert_refused(player.post(url(battles["1:Korona:1"], "fight")))
    assert Battle.objects.get(pk=battles["1:Korona:1"].pk).status == Battle.Status.PENDING


def test_report_shows_the_log_in_words(gm: Client) -> None:
    campaign = new_campaign(doc=meeting_doc())
    advance_turn(campaign_id=campaign.pk)
    battle = Battle.objects.filter(campaign=campaign).first()
    response = gm.get(url(battle, "report"))
    assert response.status_code == 200
    # Every record, in order, in the words of the players' battle page.
    table = battleview.table_of(battle.spec, battle.seed, battle.log, battle.result)
    lines = [
        line.text for turn in response.context["log_turns"] for p in turn.phases for line in p.lines
    ]
    sides = stand_sides(battle.spec)
    piece = rulesets.piece(battle.ruleset)
    assert lines == [battleview.line_of(r, table, sides, piece) for r in battle.log]
    assert escape(lines[-1]) in response.content.decode()
    # Stands by their side, as the players' page names them; never by their role.
    text = " ".join(lines)
    assert "Japanese rifle squad" in text and "Australian rifle squad" in text
    assert "attacker rifle squad" not in text and "defender rifle squad" not in text


def test_report_and_sheet_are_refused_to_a_player(player: Client) -> None:
    _, battles = waiting_campaign()
    assert_refused(player.get(url(battles["1:Korona:1"], "report")))
    assert_refused(player.get(url(battles["1:Korona:1"], "sheet")))


def test_battle_sheet_is_the_full_sheet_with_the_defenders_sniper(gm: Client) -> None:
    """The GM's "Battle sheet" is the players' sheet seen as the game master: the
    terrain squares, the table's size, the turn limit, the off-table support, and the
    defender's sniper, which the attacker's players do not see before the battle."""
    campaign, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    Battle.objects.filter(pk=battle.pk).update(
        spec={**battle.spec, "defender": {**battle.spec["defender"], "sniper": True}}
    )
    response = gm.get(url(battle, "sheet"))
    assert response.status_code == 302
    assert response.url == reverse("battle-sheet", args=[campaign.pk, battle.pk])
    page = gm.get(response.url).content.decode()
    assert battle.spec["attacker"]["name"] in page
    assert battle.spec["defender"]["name"] in page
    assert "rifle squad" in page.lower() and "rifle_squad" not in page
    assert len(re.findall(r'<tr><th scope="row">[A-C][1-3]</th>', page)) == 9
    assert "The squares: a 3 × 3 ft table in 1 ft squares" in page  # not "Squares (3 × 3 ft)"
    assert "<dt>Turn limit</dt><dd>12 turns;" in page
    assert "Off-table support (zone 5)" in page
    assert "one rifle squad fights as a sniper" in page
    assert f"Seed {battle.seed}." in page


def test_battle_page_is_read_only_with_its_tools(gm: Client) -> None:
    _, battles = waiting_campaign()
    page = gm.get(url(battles["1:Korona:1"], "change")).content.decode()
    assert "Enter result" in page and "Fight it now (auto)" in page
    assert 'name="_save"' not in page
    # Each side by its name, as every other page says it: "Australians", not "Australian".
    assert re.search(r"Attacker side:</label>\s*<div class=\"readonly\">Japanese</div>", page)
    assert re.search(r"Defender side:</label>\s*<div class=\"readonly\">Australians</div>", page)


def test_a_result_against_the_end_condition_is_a_form_error(gm: Client) -> None:
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    data = {"winner": "attacker"}
    for side in ("attacker", "defender"):
        for unit, count in battle.spec[side]["stands"].items():
            data[f"{side}__{unit}"] = count if side == "attacker" else 0
    response = gm.post(url(battle, "result"), data)
    assert response.status_code == 200
    (error,) = response.context["form"].non_field_errors()
    assert error.startswith("The attacker cannot have won: it lost")
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.PENDING


def test_a_result_entered_names_every_battle_of_the_turn_still_waiting(gm: Client) -> None:
    _, battles = waiting_campaign()
    first, second = battles["1:Korona:1"], battles["1:Korona:2"]
    third = Battle.objects.get(pk=second.pk)
    third.pk, third.key = None, "1:Korona:3"
    third.save()
    data = {"winner": "defender"}
    page = entered(gm, url(first, "result"), data, follow=True).content.decode()
    assert (
        escape(
            f"Result entered for the battle at {battle_place(first)}. Still waiting in this turn: "
            f"{battle_words(second)}"
        )
        in page
    )
    for waiting in (second, third):
        assert f'<a href="{url(waiting, "result")}">enter its result</a>' in page


def test_the_result_form_says_how_a_forces_losses_are_shared(gm: Client) -> None:
    _, battles = waiting_campaign()
    page = gm.get(url(battles["1:Korona:1"], "result")).content.decode()
    assert "a sniper lost counts as a rifle squad" in page
    assert "each stand is taken from the company holding the most of its type" in page


def test_the_result_that_ends_the_campaign_says_it_has_ended_and_how(gm: Client) -> None:
    """The last result of a walk-through's campaign read only "... The turn is complete."
    while every page said the campaign had ended: the message says it too, as they do."""
    campaign = new_campaign(doc=meeting_doc(), battle_mode="tabletop", turn_limit=1)
    advance_turn(campaign_id=campaign.pk)
    first, second = Battle.objects.filter(campaign=campaign).order_by("key")
    entered(gm, url(first, "result"), {"winner": "defender"})
    page = entered(gm, url(second, "result"), {"winner": "defender"}, follow=True).content.decode()
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED
    assert (
        escape(
            f"Result entered for the battle at {battle_place(second)}. The turn is complete. "
            "Korona 1 has "
            "ended after 1 turn. The Australians won: they held Korona when its one turn was up."
        )
        in page
    )


def test_a_result_that_completes_a_turn_of_a_campaign_going_on_says_no_end(gm: Client) -> None:
    _, battles = waiting_campaign()
    entered(gm, url(battles["1:Korona:1"], "result"), {"winner": "defender"})
    second = battles["1:Korona:2"]
    page = entered(gm, url(second, "result"), {"winner": "defender"}, follow=True).content.decode()
    done = f"Result entered for the battle at {battle_place(second)}. The turn is complete."
    assert escape(done) + "<" in page
    assert "has ended" not in page


def test_the_battles_list_links_a_waiting_battles_result_form(gm: Client) -> None:
    """A row waiting for its tabletop result says so with the way to enter it, as the
    home page does (the list said only "not fought yet")."""
    _, battles = waiting_campaign()
    battle = battles["1:Korona:1"]
    result = reverse("admin:battles_battle_result", args=[battle.pk])
    page = gm.get("/admin/battles/battle/").content.decode()
    assert f'not fought yet: <a href="{result}">enter its result</a>' in page
    gm.post(f"/admin/battles/battle/{battle.pk}/fight/")
    page = gm.get("/admin/battles/battle/").content.decode()
    assert result not in page
    battle.refresh_from_db()
    side = battle.attacker_side if battle.winner == "attacker" else battle.defender_side
    won = {"australian": "the Australians won", "japanese": "the Japanese won"}[side]
    assert f"fought by the rules: {won}" in page


def test_the_battles_list_says_who_won_each_battle(gm: Client) -> None:
    """A walk-through's GM read "fought by the rules" on every row and opened each battle
    to learn who had won: the row says it, by the side's name, an entered result too."""
    _, battles = waiting_campaign()
    entered(gm, url(battles["1:Korona:1"], "result"), {"winner": "defender"})
    entered(gm, url(battles["1:Korona:2"], "result"), {"winner": "attacker"})
    page = gm.get("/admin/battles/battle/").content.decode()
    cells = re.findall(r'<td class="field-status_shown">([^<]*)</td>', page)
    names = {"australian": "Australians", "japanese": "Japanese"}
    expected = []
    for key, winner in (("1:Korona:1", "defender"), ("1:Korona:2", "attacker")):
        battle = battles[key]
        side = battle.defender_side if winner == "defender" else battle.attacker_side
        expected.append(f"fought at the table: the {names[side]} won")
    assert sorted(cells) == sorted(expected)
