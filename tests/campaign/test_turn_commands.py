"""manage.py advance_turn and run_campaign."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from battles.models import Battle
from campaign.models import Campaign, Company, Turn
from campaign.services.scenarios import create_campaign
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db


def new_campaign(
    name: str = "Korona 1", seed: int = 7, *, meeting: bool = False, **settings: Any
) -> Campaign:
    """A Korona campaign; ``meeting`` puts the Japanese of Oivi in Korona, so that two
    battles are fought there on turn 1."""
    doc = korona_doc()
    if meeting:
        for company in doc["companies"]:
            if company["name"] in ("1st Company", "2nd Company"):
                company["area"] = "Korona"
    campaign = create_campaign(data=doc, name=name, seed=seed)
    if settings:
        campaign.set_settings(replace(campaign.get_settings(), **settings))
        campaign.save(update_fields=["settings"])
    return campaign


def command(name: str, *args: str) -> str:
    out = io.StringIO()
    call_command(name, *args, stdout=out)
    return out.getvalue()


def words_of(turn: Turn) -> str:
    """What advance_turn prints for a turn: a heading, then every record but the event
    checks that found nothing."""
    lines = [f"== {turn.campaign.name}, turn {turn.number}: {turn.status}"]
    lines += [
        f"  {record['text']}"
        for record in turn.log
        if record["kind"] != "event_check" or record["outcome"] == "event"
    ]
    return "\n".join(lines) + "\n"


# --- advance_turn -----------------------------------------------------------------------------


@pytest.mark.parametrize("ref", ["id", "name"])
def test_advance_turn_plays_a_turn_and_prints_its_words(ref: str) -> None:
    campaign = new_campaign()
    out = command("advance_turn", str(campaign.pk) if ref == "id" else "Korona 1")

    turn = Turn.objects.get(campaign=campaign)
    assert (turn.number, turn.status) == (1, Turn.Status.DONE)
    assert out == words_of(turn)
    assert out.startswith("== Korona 1, turn 1: done\n")
    assert "  initiative: " in out
    assert "nothing happens" not in out


def test_advance_turn_prints_json_with_the_turn_its_report_log_and_battles() -> None:
    campaign = new_campaign(meeting=True)
    payload = json.loads(command("advance_turn", "Korona 1", "--json"))

    turn = Turn.objects.get(campaign=campaign)
    assert payload["campaign"] == "Korona 1"
    assert (payload["turn"], payload["status"]) == (1, "done")
    assert payload["report"] == turn.report
    assert payload["report"]["turn"] == 1
    assert payload["log"] == turn.log
    battles = Battle.objects.filter(campaign=campaign).order_by("id")
    assert payload["battles"] == [
        {"key": b.key, "mode": "auto", "status": "fought", "winner": b.result["winner"]}
        for b in battles
    ]
    assert sorted(b["key"] for b in payload["battles"]) == ["1:Korona:1", "1:Korona:2"]


def test_advance_turn_says_which_tabletop_battles_it_waits_for() -> None:
    campaign = new_campaign(meeting=True, battle_mode="tabletop")
    out = command("advance_turn", "Korona 1")

    assert out.startswith("== Korona 1, turn 1: battles_pending\n")
    waiting = "  waiting for the tabletop result of the battle at Korona\n"
    assert out.count(waiting) == 2
    assert Campaign.objects.get(pk=campaign.pk).turn == 0

    with pytest.raises(CommandError, match="^turn 1 of Korona 1 is still waiting"):
        command("advance_turn", "Korona 1")


@pytest.mark.parametrize("ref", ["Nowhere", "999"])
def test_advance_turn_refuses_an_unknown_campaign(ref: str) -> None:
    new_campaign()
    with pytest.raises(CommandError, match=f"^there is no campaign '{ref}'$"):
        command("advance_turn", ref)
    assert Turn.objects.count() == 0


def test_advance_turn_refuses_a_finished_campaign_with_the_reason() -> None:
    campaign = new_campaign(turn_limit=1)
    command("advance_turn", "Korona 1")
    assert Campaign.objects.get(pk=campaign.pk).status == Campaign.Status.FINISHED

    with pytest.raises(CommandError, match="^Korona 1 has ended: no more turns are played$"):
        command("advance_turn", "Korona 1")
    assert Turn.objects.count() == 1


# --- run_campaign -----------------------------------------------------------------------------


def test_run_campaign_plays_to_the_end_and_names_the_winner() -> None:
    campaign = new_campaign()
    out = command("run_campaign", "Korona 1", "--turns", "50", "--standing-order", "aggressive")

    campaign = Campaign.objects.get(pk=campaign.pk)
    assert campaign.status == Campaign.Status.FINISHED
    assert set(Company.objects.values_list("standing_order", flat=True)) == {"aggressive"}
    # The sentence the players' pages read (campaign.web.ending), not the engine's words.
    ending = (
        "Korona 1 ended after turn 13. The Japanese won: they held Korona when the "
        "Australians lost their base, Port Murray, and had no fighting companies left.\n"
    )
    assert out.endswith(ending)
    assert campaign.end_reason not in out.splitlines()[-1]
    turns = list(Turn.objects.filter(campaign=campaign).order_by("number"))
    assert [t.number for t in turns] == list(range(1, campaign.turn + 1))
    assert out == "".join(words_of(t) for t in turns) + ending


def test_run_campaign_quiet_prints_only_the_ending() -> None:
    new_campaign()
    out = command("run_campaign", "Korona 1", "--turns", "50", "--standing-order", "aggressive")
    other = new_campaign("Korona 2")
    quiet = command(
        "run_campaign", "Korona 2", "--turns", "50", "--standing-order", "aggressive", "--quiet"
    )
    other = Campaign.objects.get(pk=other.pk)
    assert quiet.startswith(f"Korona 2 ended after turn {other.turn}. The ")
    assert quiet.count("\n") == 1
    # The same seed: the same campaign, whatever its name.
    assert out.splitlines()[-1] == quiet.strip().replace("Korona 2", "Korona 1")


def test_run_campaign_says_the_turn_limit_as_the_pages_do() -> None:
    new_campaign(turn_limit=2)
    out = command("run_campaign", "Korona 1", "--turns", "5", "--quiet")
    assert out == (
        "Korona 1 ended after turn 2. The Australians won: they held Korona when the 2 turns "
        "were up.\n"
    )


def test_run_campaign_stops_after_the_turns_asked_for() -> None:
    campaign = new_campaign()
    out = command("run_campaign", str(campaign.pk), "--turns", "2", "--quiet")
    assert out == "Korona 1: 2 turns played, still going.\n"
    assert Campaign.objects.get(pk=campaign.pk).turn == 2


def test_run_campaign_prints_json_turns_and_ending() -> None:
    campaign = new_campaign()
    payload = json.loads(command("run_campaign", "Korona 1", "--turns", "3", "--json"))
    assert [t["turn"] for t in payload["turns"]] == [1, 2, 3]
    assert {t["status"] for t in payload["turns"]} == {"done"}
    assert payload["turns"][0]["log"] == Turn.objects.get(campaign=campaign, number=1).log
    assert payload["ending"] == {
        "campaign": "Korona 1",
        "turns_played": 3,
        "finished": False,
        "winner": None,
        "end_reason": "",
        "outcome": "",
    }


def test_run_campaign_prints_json_with_the_players_sentence() -> None:
    new_campaign(turn_limit=2)
    ending = json.loads(command("run_campaign", "Korona 1", "--turns", "5", "--json"))["ending"]
    assert ending["outcome"] == "The Australians won: they held Korona when the 2 turns were up."
    assert ending["winner"] == "australian"


@pytest.mark.parametrize("turns", ["0", "-1"])
def test_run_campaign_needs_at_least_one_turn(turns: str) -> None:
    campaign = new_campaign()
    with pytest.raises(CommandError, match="^--turns must be at least 1$"):
        command("run_campaign", "Korona 1", "--turns", turns)
    assert Campaign.objects.get(pk=campaign.pk).turn == 0
    assert Turn.objects.count() == 0


def test_run_campaign_refuses_a_finished_campaign() -> None:
    new_campaign(turn_limit=1)
    command("advance_turn", "Korona 1")
    with pytest.raises(CommandError, match="^Korona 1 has ended"):
        command("run_campaign", "Korona 1", "--turns", "3")


def test_run_campaign_refuses_an_unknown_campaign() -> None:
    with pytest.raises(CommandError, match="^there is no campaign 'Nowhere'$"):
        command("run_campaign", "Nowhere", "--turns", "3")
