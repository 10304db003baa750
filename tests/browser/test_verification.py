"""Dice a player can verify, in a real browser: the commitment on the orders page before
the turn, then on the turn's page the same commitment, the seeds shown to the player's
side and "Verified": the server runs ``python -m rules verify``'s check on the very
TURN.json the page links to (and the test downloads it and checks it offline too)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

from campaign.models import Membership, SeedCommitment
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a long password for the browser"
ROOT = Path(__file__).resolve().parents[2]


def test_a_player_sees_the_commitment_before_the_turn_and_verified_after(
    page: Any, live_server: Any, django_user_model: Any, shot: Any, tmp_path: Path
) -> None:
    cache.clear()
    campaign = create_campaign(data=meeting_doc(), name="Checked dice", seed=424242)
    aussie = django_user_model.objects.create_user("aussie", password=PASSWORD)
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    committed = SeedCommitment.objects.get(campaign=campaign, number=1)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "aussie")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()

    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/orders/")
    box = page.locator("#dice-commitment")
    assert "The dice of turn 1" in box.inner_text()
    assert box.locator("code.hash").first.text_content() == committed.commitment
    assert "fixed before any order was given" in box.inner_text()
    assert str(committed.seed) not in page.content()
    # The orders come first, the dice check after them: a phone opened on the seeds.
    first_order = page.locator(".order-card").first.bounding_box()
    assert first_order["y"] < page.locator("#ready").bounding_box()["y"]
    assert page.locator("#ready").bounding_box()["y"] < box.bounding_box()["y"]
    assert "{#" not in page.locator("main").inner_text()  # no template comment shows
    # The hash and the salts, and what they mean, are folded away for those who check.
    assert not box.locator("code.hash").first.is_visible()
    assert "seeds stay secret until the turn is played" not in box.inner_text()
    box.locator("summary", has_text="Check the dice yourself").click()
    assert box.locator("code.hash").first.is_visible()
    assert "seeds stay secret until the turn is played" in box.inner_text()
    shot("verify-1-commitment-before-desktop")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    assert box.locator("code.hash").first.is_visible()
    shot("verify-1-commitment-before-phone")
    page.set_viewport_size({"width": 1280, "height": 800})

    advance_turn(campaign_id=campaign.pk)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/turns/1/")
    box = page.locator("#dice-commitment")
    assert box.locator("code.hash").first.text_content() == committed.commitment
    verdict = box.locator(".verdict.verified")
    assert verdict.inner_text().startswith("Verified")  # in view, unfolded
    box.locator("summary", has_text="Check the dice yourself").click()
    assert "the public tables and the battles" in box.inner_text()
    assert "the Australian side's rolls" in box.inner_text()
    assert "Japanese" not in box.locator(".seeds").inner_text()  # never the enemy's seed
    shot("verify-2-verified-desktop")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    assert verdict.is_visible()
    shot("verify-3-verified-phone")

    # The linked TURN.json, downloaded as the player, checks offline too.
    with page.expect_download() as download:
        box.locator("a", has_text="download turn-1.json").click()
    path = tmp_path / "turn-1.json"
    download.value.save_as(str(path))
    assert json.loads(path.read_text())["commitment"]["turn"] == committed.commitment
    done = subprocess.run(
        [sys.executable, "-m", "rules", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.startswith("verified: turn 1"), done.stdout
