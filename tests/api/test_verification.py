"""Dice anyone can verify: each turn's commitment is published before the turn, its seeds
after it, and ``python -m rules verify`` checks the API's TURN.json with no database."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from campaign.models import SPECTATOR, Campaign, Company, GmAdjustment, SeedCommitment, Turn
from campaign.services import commitments
from campaign.services.adjustments import AdjustmentRefused
from campaign.services.rollback import rollback_to_turn
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn, give_order
from rules.campaign import seeds
from rules.campaign.scenario import parse_scenario
from rules.campaign.turn import start_turn
from rules.campaign.verify import battle_words, fought_again, verify_turn
from tests.api.helpers import url
from tests.web.conftest import join, meeting_doc

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ("aussie", "japanese", "gm_user")


def aggressive_doc() -> dict[str, Any]:
    doc = meeting_doc()
    for company in doc["companies"]:
        company["standing_order"] = "aggressive"
    return doc


@pytest.fixture
def war(db: Any, aussie: Any, japanese: Any) -> Campaign:
    campaign = create_campaign(data=aggressive_doc(), name="Verified", seed=20261201)
    join(aussie, campaign, "australian")
    join(japanese, campaign, "japanese")
    return campaign


def run_verify(path: Path) -> subprocess.CompletedProcess[str]:
    # A fresh interpreter with no Django settings: the check needs the rules alone.
    return subprocess.run(
        [sys.executable, "-m", "rules", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


def turn_file(client: Any, campaign: Campaign, number: int) -> dict[str, Any]:
    response = client.get(url(campaign, f"turns/{number}/file/"))
    assert response.status_code == 200, response.content
    return json.loads(response.content)


def published(client: Any, campaign: Campaign) -> dict[int, dict[str, Any]]:
    response = client.get(url(campaign, "commitments/"))
    assert response.status_code == 200
    return {row["turn"]: row for row in response.json()["results"]}


def test_every_turn_verifies_from_the_apis_turn_json_alone(
    war: Campaign, token_client: Any, aussie: Any, japanese: Any, gm_user: Any, tmp_path: Path
) -> None:
    clients = {"aussie": token_client(aussie), "japanese": token_client(japanese)}
    clients["gm_user"] = token_client(gm_user)
    give_order(company=Company.objects.get(campaign=war, name="C Company (militia)"), kind="hold")
    for number in (1, 2, 3):
        # Before the turn: its commitment is public, its seeds are not.
        before = published(clients["aussie"], war)[number]
        assert before["revealed"] == {} and before["turn_seed"] is None
        assert len(before["commitment"]) == 64
        assert published(clients["japanese"], war)[number]["commitment"] == before["commitment"]
        advance_turn(campaign_id=war.pk)
        war.refresh_from_db()
        for who in VIEWS:
            data = turn_file(clients[who], war, number)
            assert data["commitment"]["turn"] == before["commitment"]
            path = tmp_path / f"turn-{number}-{who}.json"
            path.write_text(json.dumps(data))
            done = run_verify(path)
            assert done.returncode == 0, done.stdout + done.stderr
            assert done.stdout.startswith(f"verified: turn {number} is as published")
            if who == "gm_user":
                assert "the whole turn played again" in done.stdout
    # Turn 1's one order is checked, and counted in words.
    checked = verify_turn(turn_file(clients["gm_user"], war, 1)).checked
    assert "1 order against the moves the turn made" in checked
    assert "2 battles fought again from their seeds" in checked
    assert fought_again(1) == "1 battle fought again from its seed"  # not "their seeds"
    # A side is shown the public seeds and its own, never the other side's.
    data = turn_file(clients["aussie"], war, 1)
    assert set(data["revealed"]) == {"public", "australian"}
    assert data["turn_seed"] is None and data["start_state"] is None
    assert set(turn_file(clients["gm_user"], war, 1)["revealed"]) == {
        "public",
        "australian",
        "initiative",
        "japanese",
    }


@pytest.fixture
def files(war: Campaign, token_client: Any, aussie: Any, gm_user: Any) -> dict[str, Any]:
    give_order(company=Company.objects.get(campaign=war, name="C Company (militia)"), kind="hold")
    advance_turn(campaign_id=war.pk)
    return {
        "aussie": turn_file(token_client(aussie), war, 1),
        "gm": turn_file(token_client(gm_user), war, 1),
    }


def written(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "TURN.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("who", ["aussie", "gm"])
def test_a_single_die_altered_in_the_log_fails_and_names_its_record(
    files: dict[str, Any], who: str, tmp_path: Path
) -> None:
    data = copy.deepcopy(files[who])
    index, record = next(
        (i, r)
        for i, r in enumerate(data["log"])
        if r["kind"] == "supply" and r["side"] == "australian"
    )
    record["dice"][0] = record["dice"][0] % 6 + 1

    done = run_verify(written(tmp_path, data))

    assert done.returncode == 1
    assert done.stdout.startswith("NOT verified: turn 1")
    assert f"record {index + 1} (supply" in done.stdout and "but the seed gives" in done.stdout


def test_a_die_altered_in_a_battles_log_fails(files: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(files["aussie"])
    battle = data["battles"][0]
    record = next(r for r in battle["log"] if r.get("dice"))
    record["dice"][0] = record["dice"][0] % 6 + 1

    done = run_verify(written(tmp_path, data))

    assert done.returncode == 1
    assert f"{battle_words(battle['key'])}: record" in done.stdout
    assert battle["key"] not in done.stdout  # its key ("1:Korona") is no one's words


@pytest.mark.parametrize("who", ["aussie", "gm"])
def test_a_seed_that_does_not_match_the_commitment_fails(
    files: dict[str, Any], who: str, tmp_path: Path
) -> None:
    data = copy.deepcopy(files[who])
    data["revealed"]["public"]["seed"] += 1

    done = run_verify(written(tmp_path, data))

    assert done.returncode == 1
    assert "the public seed and salt do not match the public commitment" in done.stdout


def test_a_salt_or_commitment_altered_fails(files: dict[str, Any]) -> None:
    salted = copy.deepcopy(files["aussie"])
    salted["revealed"]["australian"]["salt"] = "0" * 64
    assert not verify_turn(salted).verified
    recommitted = copy.deepcopy(files["aussie"])
    recommitted["commitment"]["turn"] = "f" * 64
    verdict = verify_turn(recommitted)
    assert any("turn's commitment" in line for line in verdict.differences)


@pytest.mark.parametrize("who", ["aussie", "gm"])
def test_an_altered_order_fails(files: dict[str, Any], who: str, tmp_path: Path) -> None:
    data = copy.deepcopy(files[who])
    order = next(o for o in data["orders"] if o["company"] == "C Company (militia)")
    order.update(kind="withdraw", target="Port Murray")

    done = run_verify(written(tmp_path, data))

    assert done.returncode == 1
    assert "C Company (militia)" in done.stdout


def test_a_file_that_is_no_turn_json_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "TURN.json"
    path.write_text(json.dumps({"format": "something else"}))

    done = run_verify(path)

    assert done.returncode == 2
    assert "format must be 'korona-turn/1'" in done.stderr


def test_a_turn_not_played_has_no_turn_json_and_shows_no_seed(
    war: Campaign, token_client: Any, aussie: Any
) -> None:
    client = token_client(aussie)
    assert client.get(url(war, "turns/1/file/")).status_code == 404
    row = SeedCommitment.objects.get(campaign=war, number=1)
    # Neither the turn seed, its branches, the salts nor the campaign seed reach a player.
    secrets_of_turn = [str(row.seed), str(war.seed), *row.salts.values()]
    secrets_of_turn += [str(seeds.branch_seed(row.seed, b)) for b in row.salts]
    for path in ("", "commitments/", "turns/", "companies/", "battles/", "adjustments/"):
        body = client.get(url(war, path)).content.decode()
        assert not any(secret in body for secret in secrets_of_turn), path


def test_the_campaign_seed_never_reaches_a_player_while_it_runs(
    war: Campaign, token_client: Any, aussie: Any, login: Any
) -> None:
    advance_turn(campaign_id=war.pk)
    client = token_client(aussie)
    seed = str(war.seed)
    for path in ("", "commitments/", "turns/", "turns/1/", "turns/1/file/", "battles/"):
        assert seed not in client.get(url(war, path)).content.decode(), path
    browser = login(aussie)
    for page in ("", "orders/", "turns/", "turns/1/", "battles/", "timelapse/", "messages/"):
        answer = browser.get(f"/campaigns/{war.pk}/{page}")
        assert answer.status_code == 200 and seed not in answer.content.decode(), page
    assert "Verified" in browser.get(f"/campaigns/{war.pk}/turns/1/").content.decode()


def test_once_the_campaign_ends_everything_is_checked(
    db: Any, token_client: Any, aussie: Any, tmp_path: Path
) -> None:
    doc = aggressive_doc()
    doc.setdefault("settings", {})["turn_limit"] = 1
    short = create_campaign(data=doc, name="Short", seed=99)
    join(aussie, short, "australian")
    advance_turn(campaign_id=short.pk)
    short.refresh_from_db()
    assert short.status == Campaign.Status.FINISHED

    data = turn_file(token_client(aussie), short, 1)

    assert data["view"] == "everything" and set(data["revealed"]) == set(
        seeds.branches(["australian", "japanese"])
    )
    assert data["turn_seed"] == seeds.default_turn_seed(99, 1)
    done = run_verify(written(tmp_path, data))
    assert done.returncode == 0, done.stdout
    assert "the whole turn played again" in done.stdout
    assert "the turn seed is the campaign seed's for this turn" in done.stdout


def test_a_roll_back_gives_every_turn_it_undoes_whose_seeds_were_shown_a_new_seed(
    war: Campaign, token_client: Any, aussie: Any
) -> None:
    """Played again from the seed shown when it was played, a turn's dice would be known
    before its orders (section 6: no seed of a turn not yet played): each such turn gets
    a new seed, committed to at once, and the roll-back's public line says so. The turn
    not yet played (4) keeps its commitment: its seeds were never shown."""
    for _ in range(3):
        advance_turn(campaign_id=war.pk)
    before = {row.number: row for row in SeedCommitment.objects.filter(campaign=war)}
    assert sorted(before) == [1, 2, 3, 4]

    rollback_to_turn(campaign=war, number=2, reason="a typo in an order")

    after = {row.number: row for row in SeedCommitment.objects.filter(campaign=war)}
    for number in (2, 3):
        assert after[number].commitment != before[number].commitment
        assert after[number].seed != before[number].seed
        assert after[number].revealed_at is None and after[number].changes == 1
    for number in (1, 4):
        assert (after[number].commitment, after[number].seed, after[number].revealed_at) == (
            before[number].commitment,
            before[number].seed,
            before[number].revealed_at,
        )
    line = GmAdjustment.objects.get(campaign=war)
    assert line.what.endswith("turns 2 and 3 have new seeds (their dice had been shown)")
    shown = published(token_client(aussie), war)
    assert "revealed" not in shown[2] or not shown[2]["revealed"]
    assert shown[2]["commitment"] == after[2].commitment
    # Played again, turn 2 rolls from its new seed, and turn 3 is committed to before it.
    advance_turn(campaign_id=war.pk)
    assert Turn.objects.get(campaign=war, number=2).seed == after[2].seed
    assert SeedCommitment.objects.get(campaign=war, number=3).commitment == after[3].commitment


def test_after_a_roll_back_the_orders_page_shows_the_new_commitment_and_no_seed(
    war: Campaign, aussie: Any, login: Any
) -> None:
    advance_turn(campaign_id=war.pk)
    browser = login(aussie)
    before = browser.get(f"/campaigns/{war.pk}/turns/1/").content.decode()
    assert "Its seeds, shown now that the turn is played:" in before
    shown = SeedCommitment.objects.get(campaign=war, number=1)

    rollback_to_turn(campaign=war, number=1, reason="a typo in an order")
    orders = browser.get(f"/campaigns/{war.pk}/orders/").content.decode()
    assert "Its seeds, shown" not in orders
    assert str(shown.seed) not in orders
    for branch, salt in shown.salts.items():
        assert str(seeds.branch_seed(shown.seed, branch)) not in orders and salt not in orders
    assert SeedCommitment.objects.get(campaign=war, number=1).commitment in orders


def test_the_gm_replacing_a_seed_is_a_logged_break_with_a_reason(
    war: Campaign, token_client: Any, aussie: Any
) -> None:
    advance_turn(campaign_id=war.pk)
    before = SeedCommitment.objects.get(campaign=war, number=2)
    with pytest.raises(AdjustmentRefused, match="needs a reason"):
        commitments.change_turn_seed(campaign=war, reason=" ")
    assert SeedCommitment.objects.get(pk=before.pk).commitment == before.commitment

    commitments.change_turn_seed(campaign=war, reason="the dice server was down", seed=12345)

    after = SeedCommitment.objects.get(pk=before.pk)
    assert after.seed == 12345 and after.changes == 1
    assert after.commitment != before.commitment
    line = GmAdjustment.objects.get(campaign=war)
    assert before.commitment[:16] in line.what and line.reason == "the dice server was down"
    shown = published(token_client(aussie), war)[2]
    assert shown["seed_changes"] == 1 and shown["commitment"] == after.commitment
    logged = token_client(aussie).get(url(war, "adjustments/")).json()["results"]
    assert any("seed of turn 2 was replaced" in row["what"] for row in logged)
    # The turn is played from the new seed, and verifies (the GM's view notes the change).
    advance_turn(campaign_id=war.pk)
    assert Turn.objects.get(campaign=war, number=2).seed == 12345


def test_the_notification_line_carries_the_coming_commitment(war: Campaign) -> None:
    line = commitments.announcement(campaign=war)
    row = SeedCommitment.objects.get(campaign=war, number=1)
    assert line is not None and row.commitment in line and str(row.seed) not in line


def test_a_spectator_is_shown_the_public_seed_only_and_verifies_the_public_dice(
    war: Campaign, token_client: Any, django_user_model: Any, tmp_path: Path
) -> None:
    watcher = django_user_model.objects.create_user("watcher", password="a long password")
    join(watcher, war, SPECTATOR)
    advance_turn(campaign_id=war.pk)

    data = turn_file(token_client(watcher), war, 1)

    assert set(data["revealed"]) == {"public"} and data["orders"] == []
    assert verify_turn(data).verified


# --- the initiative under the fog: a side's own die, no tie, no enemy stream -------------


def tied_seed(doc: dict[str, Any]) -> int:
    """A campaign seed whose turn 1 ties its first initiative round (rolled again)."""
    state = parse_scenario(doc)
    for seed in range(500):
        plan = start_turn(state, seed=seeds.default_turn_seed(seed, 1))
        if sum(r["phase"] == "initiative" for r in plan.log) >= 2:
            return seed
    raise AssertionError("no tie in 500 seeds")


def test_a_sides_turn_json_after_a_tie_holds_only_its_own_die_and_verifies(
    db: Any, token_client: Any, aussie: Any, gm_user: Any, tmp_path: Path
) -> None:
    doc = aggressive_doc()
    tied = create_campaign(data=doc, name="Tied", seed=tied_seed(doc))
    join(aussie, tied, "australian")
    advance_turn(campaign_id=tied.pk)

    data = turn_file(token_client(aussie), tied, 1)
    gm = turn_file(token_client(gm_user), tied, 1)

    assert [r["outcome"] for r in gm["log"] if r["phase"] == "initiative"][0] == "tie"
    shown = [r for r in data["log"] if r["phase"] == "initiative"]
    assert len(shown) == 1 and shown[0]["outcome"] != "tie"
    record = shown[0]
    assert record["dice_streams"] == ["initiative/australian"] and len(record["dice"]) == 1
    assert set(record["rolls"]) == set(record["totals"]) == {"australian"}
    # Nothing of the Japanese dice or of the initiative seed is in the side's file.
    text = json.dumps(data)
    assert "japanese/" not in text and "initiative/japanese" not in text
    assert set(data["revealed"]) == {"public", "australian"}
    assert str(seeds.branch_seed(gm["turn_seed"], "initiative")) not in text
    # The side checks its own supply dice, the tables and the battles; its initiative die
    # waits for the end of the campaign, and says so.
    done = run_verify(written(tmp_path, data))
    assert done.returncode == 0, done.stdout
    assert "1 die was rolled from the initiative seed (your initiative die)" in done.stdout
    assert "so it cannot be checked until then" in done.stdout
    # The GM's file has the tied round too, and checks every die of it.
    verdict = verify_turn(gm)
    assert verdict.verified, verdict.lines()
    assert any("the whole turn played again" in line for line in verdict.checked)


def test_once_the_campaign_ends_a_tied_round_is_checked_and_an_altered_one_fails(
    db: Any, token_client: Any, aussie: Any
) -> None:
    doc = aggressive_doc()
    doc.setdefault("settings", {})["turn_limit"] = 1
    short = create_campaign(data=doc, name="Tied short", seed=tied_seed(doc))
    join(aussie, short, "australian")
    advance_turn(campaign_id=short.pk)

    data = turn_file(token_client(aussie), short, 1)

    assert "initiative" in data["revealed"]
    tie = next(r for r in data["log"] if r["phase"] == "initiative")
    assert tie["outcome"] == "tie" and tie["dice_streams"] == [
        "initiative/australian",
        "initiative/japanese",
    ]
    verdict = verify_turn(data)
    assert verdict.verified, verdict.lines()
    assert not any("cannot be checked" in note for note in verdict.notes)
    tie["dice"][1] = tie["dice"][1] % 6 + 1
    altered = verify_turn(data)
    assert not altered.verified
    assert any(
        "(initiative" in line and "initiative/japanese" in line for line in altered.differences
    )
