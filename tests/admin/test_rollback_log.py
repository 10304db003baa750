"""After a roll-back the public log tells what is true of the campaign: the GM changes the
roll-back undid leave it, and the roll-back's own line, with its reason, says so."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, Company, CompanyStands, GmAdjustment, Membership, SideReady
from campaign.services.adjustments import adjust_stands, set_control
from campaign.services.campaigns import set_paused
from campaign.services.rollback import rollback_preview, rollback_to_turn
from campaign.services.schedule import mark_side_ready
from campaign.services.turns import advance_turn, set_standing_order
from campaign.services.visibility import open_campaign
from tests.admin.conftest import new_campaign, waiting_campaign

pytestmark = pytest.mark.django_db


def players_log(campaign: Any, user: Any) -> list[tuple[int, str, str]]:
    return [
        (row.before_turn, row.what, row.reason)
        for row in open_campaign(user=user, campaign=campaign.pk).adjustments()
    ]


@pytest.fixture
def australian(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("aussie", "a@example.com", "pw")


def test_changes_made_after_the_roll_back_point_leave_the_public_log(
    australian: Any, client: Any
) -> None:
    campaign = new_campaign()
    Membership.objects.create(campaign=campaign, user=australian, side="australian")
    company = Company.objects.get(campaign=campaign, name="A Company")
    advance_turn(campaign_id=campaign.pk)
    set_control(area=campaign.areas.get(name="Oivi"), side="australian", reason="kept")
    at_two = CompanyStands.objects.get(company=company, unit_type="rifle_squad").held
    advance_turn(campaign_id=campaign.pk)
    full = CompanyStands.objects.get(company=company, unit_type="rifle_squad").held
    adjust_stands(company=company, unit_type="rifle_squad", held=full - 1, reason="a typo")
    advance_turn(campaign_id=campaign.pk)  # turn 3, with the stand adjusted away

    rollback_to_turn(campaign=campaign, number=2, reason="the typo cost a stand")
    rifles = CompanyStands.objects.get(
        company__campaign=campaign, company__name="A Company", unit_type="rifle_squad"
    )
    assert rifles.held == at_two  # as turn 2 began: the stand adjusted away before 3 is back
    advance_turn(campaign_id=campaign.pk)  # turn 2 played again
    log = players_log(campaign, australian)
    assert log == [
        (2, "Oivi: held by the Japanese side, now by the Australian side", "kept"),
        (
            2,
            "Rolled back to the start of turn 2; the game master's change made since undone "
            "with it; "
            "turns 2 and 3 have new seeds (their dice had been shown)",
            "the typo cost a stand",
        ),
    ]
    # The GM keeps what was undone, in the roll-back's details; the players never see it.
    rollback = GmAdjustment.objects.get(what__startswith="Rolled back")
    (undone,) = rollback.details["undone"]
    assert (undone["what"], undone["reason"], undone["before_turn"]) == (
        f"A Company: rifle squads from {full} to {full - 1}",
        "a typo",
        3,
    )
    client.force_login(australian)
    answer = client.get(f"/api/campaigns/{campaign.pk}/adjustments/").json()
    rows = answer["results"] if isinstance(answer, dict) else answer
    assert [row["reason"] for row in rows] == ["kept", "the typo cost a stand"]


def test_a_change_made_while_the_turn_waited_for_its_battles_goes_with_it() -> None:
    campaign, _ = waiting_campaign()
    area = campaign.areas.get(name="Port Murray")
    set_control(area=area, side="japanese", reason="during the battles")
    assert GmAdjustment.objects.get().details["during_turn"] == 1
    rollback_to_turn(campaign=campaign, number=1, reason="start again")
    area.refresh_from_db()
    assert area.controller == "australian"
    assert list(GmAdjustment.objects.values_list("what", "reason")) == [
        (
            "Rolled back to the start of turn 1; the game master's change made since undone "
            "with it",
            "start again",
        )
    ]


def test_changes_made_before_the_turn_began_stay() -> None:
    campaign = new_campaign()
    area = campaign.areas.get(name="Oivi")
    advance_turn(campaign_id=campaign.pk)
    set_control(area=area, side="australian", reason="before turn 2")
    advance_turn(campaign_id=campaign.pk)
    rollback_to_turn(campaign=campaign, number=2, reason="again")
    area.refresh_from_db()
    assert area.controller == "australian"
    assert list(GmAdjustment.objects.values_list("reason", flat=True)) == ["before turn 2", "again"]
    assert GmAdjustment.objects.get(reason="again").what == (
        "Rolled back to the start of turn 2; turn 2 has a new seed (its dice had been shown)"
    )


# --- the sides' ready marks and the turn's dice -----------------------------------------------


def test_a_roll_back_unmarks_the_sides_ready_and_says_so_first(django_user_model: Any) -> None:
    """Kept, the marks of a turn rolled back to would read "every side is ready" with
    nothing left to play it (the trigger was spent when the last side marked), and no
    player could take a mark back. The preview names them and the replay's known dice."""
    campaign = new_campaign()
    for side in ("australian", "japanese"):
        user = django_user_model.objects.create_user(side, password="pw")
        Membership.objects.create(campaign=campaign, user=user, side=side)
    for side in ("australian", "japanese"):
        mark_side_ready(campaign=campaign, side=side)
    advance_turn(campaign_id=campaign.pk)  # turn 1, every side ready for it
    mark_side_ready(campaign=campaign, side="japanese")  # ready for turn 2 already

    preview = rollback_preview(campaign=campaign, number=1)
    assert (
        "Marked ready for turn 1: Australians and Japanese. Unmarked: each side marks its "
        "orders ready again."
    ) in preview
    assert any(
        line.startswith("Turn 1 has a new seed (its dice had been shown)") for line in preview
    )

    rollback_to_turn(campaign=campaign, number=1, reason="a wrong order")
    assert not SideReady.objects.filter(campaign=campaign).exists()
    assert not mark_side_ready(campaign=campaign, side="australian")
    assert mark_side_ready(campaign=campaign, side="japanese")  # due again, as the first time


def test_a_roll_back_preview_names_no_marks_or_seeds_that_are_not_there() -> None:
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    advance_turn(campaign_id=campaign.pk)
    preview = rollback_preview(campaign=campaign, number=2)
    assert not any(line.startswith("Marked ready") for line in preview)
    assert any(line.startswith("Turn 2 has a new seed") for line in preview)


def test_the_gm_reads_a_roll_back_in_words_with_who_made_each_undone_change(
    gm: Any, gm_user: Any
) -> None:
    gm_user.first_name, gm_user.last_name = "Grace", "Marshal"
    gm_user.save()
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    set_control(
        area=campaign.areas.get(name="Oivi"), side="australian", reason="kept", user=gm_user
    )
    advance_turn(campaign_id=campaign.pk)
    rollback_to_turn(campaign=campaign, number=1, reason="start again", user=gm_user)
    line = GmAdjustment.objects.get(details__to_turn=1)

    page = gm.get(f"/admin/campaign/gmadjustment/{line.pk}/change/").content.decode()
    assert "What the roll-back undid" in page
    assert "Back to the start of turn 1." in page
    assert "Turns 1 to 2 were undone (2 turns had been played)." in page
    assert "New seeds for turns 1 and 2 (their dice had been shown)." in page
    assert (
        "Oivi: held by the Japanese side, now by the Australian side. Reason: kept. "
        "By Grace Marshal, before turn 2." in page
    )
    # The stored form is folded away under a plain label, never the first thing read.
    assert "Technical detail: the change as stored" in page
    assert "The change as stored (before and after)" not in page
    assert page.index("What the roll-back undid") < page.index("Technical detail")


def test_a_roll_back_preview_says_the_standing_orders_it_puts_back() -> None:
    """Standing orders set since the turn began go back with it (its start state), and
    the preview says so: a walk-through's GM set a side aggressive, rolled back to fix a
    table result, and found it sensible again with no word of it."""
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    advance_turn(campaign_id=campaign.pk)
    for name in ("B Company", "A Company"):
        set_standing_order(company=campaign.companies.get(name=name), standing_order="aggressive")
    set_standing_order(
        company=campaign.companies.get(name="1st Company"), standing_order="sensible"
    )
    advance_turn(campaign_id=campaign.pk)
    preview = rollback_preview(campaign=campaign, number=2)
    assert (
        "Standing order aggressive of A Company and B Company, set since turn 2 began: back "
        "to hold." in preview
    )
    assert "Standing order sensible of 1st Company, set since turn 2 began: back to hold." in (
        preview
    )
    # Set before turn 3 began: a roll-back to it keeps them, so says nothing of them.
    assert not any(
        "Standing order" in line for line in rollback_preview(campaign=campaign, number=3)
    )
    rollback_to_turn(campaign=campaign, number=2, reason="a wrong result")
    assert campaign.companies.get(name="A Company").standing_order == "hold"


def test_a_roll_back_keeps_a_paused_campaign_paused_and_says_so_first() -> None:
    """The walk-through: a paused campaign rolled back came out active, its deadline
    running, and the preview had not said so. Paused by the GM for a reason the mistake
    does not undo, it stays paused."""
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    advance_turn(campaign_id=campaign.pk)
    set_paused(campaign=campaign, paused=True, reason="holidays")
    preview = rollback_preview(campaign=campaign, number=2)
    assert "The campaign is paused: it stays paused." in " ".join(preview)
    rollback_to_turn(campaign=campaign, number=2, reason="a mistyped result")
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.PAUSED and campaign.turn == 1
    set_paused(campaign=campaign, paused=False)
    advance_turn(campaign_id=campaign.pk)
    rollback_to_turn(campaign=campaign, number=2, reason="once more")
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ACTIVE
    preview = " ".join(rollback_preview(campaign=campaign, number=1))
    assert "The campaign is paused" not in preview
    # The pause and the resume since turn 1 began are kept, and said so.
    assert "a roll-back neither pauses nor resumes the campaign" in preview


def test_a_roll_back_preview_says_its_tabletop_battles_are_fought_again() -> None:
    """The walk-through: a GM rolled back to fix a mistyped tabletop result and found new
    dice, and the battle the table had fought gone; nothing had said so."""
    campaign, _ = waiting_campaign()
    preview = " ".join(rollback_preview(campaign=campaign, number=1))
    assert "the turns played again roll new dice" in preview
    assert "A tabletop battle of the turn played again needs its result entered again" in (preview)
    quiet = new_campaign("Korona 2")
    advance_turn(campaign_id=quiet.pk)
    assert "new dice" not in " ".join(rollback_preview(campaign=quiet, number=1))
