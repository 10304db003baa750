"""The GM's "Replace seed" page: a logged break in the chain of committed seeds."""

from __future__ import annotations

from django.test import Client

from campaign.models import GmAdjustment, SeedCommitment
from campaign.services.turns import advance_turn
from tests.admin.conftest import assert_refused, new_campaign, opened
from tests.admin.test_campaign_admin import url


def test_the_gm_replaces_the_coming_turns_seed_with_a_reason(gm: Client) -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    before = SeedCommitment.objects.get(campaign=campaign, number=2)

    page = gm.get(url(campaign, "seed")).content.decode()
    assert "Replace the seed of turn 2" in page
    response = gm.post(
        url(campaign, "seed"),
        {
            **opened(gm, url(campaign, "seed")),
            "seed": "",
            "reason": "a player saw the seed",
            "confirm": "on",
        },
    )

    assert response.status_code == 302
    after = SeedCommitment.objects.get(pk=before.pk)
    assert (after.changes, after.revealed_at) == (1, None)
    assert after.seed != before.seed and after.commitment != before.commitment
    line = GmAdjustment.objects.get(campaign=campaign)
    assert line.what.startswith("The seed of turn 2 was replaced")
    assert (line.reason, line.before_turn) == ("a player saw the seed", 2)


def test_replacing_a_seed_needs_a_reason_and_the_confirmation(gm: Client) -> None:
    campaign = new_campaign()
    before = SeedCommitment.objects.get(campaign=campaign, number=1)

    response = gm.post(
        url(campaign, "seed"), {**opened(gm, url(campaign, "seed")), "seed": "5", "reason": ""}
    )

    assert set(response.context["form"].errors) == {"reason", "confirm"}
    # The box unticked says what to do, not "This field is required." (a walk-through).
    assert response.context["form"].errors["confirm"] == [
        "Tick this box to replace the seed: nothing was replaced."
    ]
    assert SeedCommitment.objects.get(pk=before.pk).commitment == before.commitment
    assert not GmAdjustment.objects.exists()


def test_replacing_a_seed_is_refused_to_a_player(player: Client) -> None:
    campaign = new_campaign()
    before = SeedCommitment.objects.get(campaign=campaign, number=1)
    assert_refused(player.post(url(campaign, "seed"), {"reason": "x", "confirm": "on"}))
    assert SeedCommitment.objects.get(pk=before.pk).seed == before.seed


def test_a_seed_page_opened_before_a_turn_was_played_replaces_nothing(gm: Client) -> None:
    """The page said "Replace the seed of turn 2"; turn 2 was played from another tab
    meanwhile: the seed of turn 3, which the GM never saw named, is not replaced."""
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    page = opened(gm, url(campaign, "seed"))
    advance_turn(campaign_id=campaign.pk)
    before = SeedCommitment.objects.get(campaign=campaign, number=3)

    response = gm.post(
        url(campaign, "seed"),
        {**page, "seed": "12345", "reason": "dice looked wrong in turn 2", "confirm": "on"},
        follow=True,
    )

    assert "Nothing was changed" in response.content.decode()
    assert SeedCommitment.objects.get(pk=before.pk).commitment == before.commitment
    assert not GmAdjustment.objects.exists()
