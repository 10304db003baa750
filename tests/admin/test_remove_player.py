"""A player leaves a campaign: the GM removes them with a reason, the players read it in
the log, and a side left with no player is the campaign AI's from the coming turn, the
orders its player gave for it withdrawn. The walk-through ticked Delete on bob's row and
pressed Save: no question, no reason, nothing in the log, History's reason a bare "None",
and bob's order for the coming turn still played."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from campaign.models import Company, GmAdjustment, Membership, Order, SideReady, Turn
from campaign.services.adjustments import AdjustmentRefused
from campaign.services.members import remove_player
from campaign.services.rollback import rollback_preview, rollback_to_turn
from campaign.services.schedule import mark_side_ready
from campaign.services.turns import advance_turn, give_order
from campaign.services.visibility import open_campaign
from notifications.invitations import accept, invite
from tests.admin.conftest import new_campaign, waiting_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(django_user_model: Any) -> dict[str, Any]:
    return {
        name: django_user_model.objects.create_user(name, f"{name}@example.com", "pw")
        for name in ("alice", "bob", "kenji", "sue")
    }


def seated(campaign: Any, players: dict[str, Any], **sides: str) -> dict[str, Membership]:
    return {
        name: Membership.objects.create(campaign=campaign, user=players[name], side=side)
        for name, side in sides.items()
    }


def text(page: bytes) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.decode())))


def test_the_gm_removes_the_last_player_of_a_side_with_a_reason(
    gm: Client, players: dict[str, Any]
) -> None:
    campaign = new_campaign()
    rows = seated(campaign, players, alice="australian", bob="japanese")
    company = Company.objects.filter(campaign=campaign, side="japanese", kind="fighting").first()
    give_order(company=company, kind="hold", side="japanese")
    mark_side_ready(campaign=campaign, side="japanese", user=players["bob"])
    # The players' list offers a Remove link, and no Delete box that removes at Save.
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    removal = f"/admin/campaign/membership/{rows['bob'].pk}/delete/"
    assert f'href="{removal}"' in page and "memberships-0-DELETE" not in page
    asked = text(gm.get(removal).content)
    assert "bob is the only player of the Japanese." in asked
    assert "played by the campaign AI from the coming turn" in asked
    # No reason, or the box not ticked: nothing changes.
    for form in ({"reason": "", "confirm": "on"}, {"reason": "moved away"}):
        assert gm.post(removal, form).status_code == 200
        assert Membership.objects.filter(pk=rows["bob"].pk).exists()
    answer = gm.post(removal, {"reason": "moved to Perth", "confirm": "on"}, follow=True)
    assert answer.status_code == 200
    assert not Membership.objects.filter(pk=rows["bob"].pk).exists()
    said = (
        "The player bob no longer plays the Japanese: from turn 1 the campaign AI plays them, each "
        "company on its standing order."
    )
    assert said in text(answer.content)
    # The Australians read it, with the reason.
    log = open_campaign(user=players["alice"], campaign=campaign.pk).adjustments()
    assert [(row.what, row.reason) for row in log] == [(said, "moved to Perth")]
    # The side is played as one with no player: bob's order withdrawn, his mark gone.
    assert not Order.objects.filter(campaign=campaign).exists()
    assert not SideReady.objects.filter(campaign=campaign, side="japanese").exists()
    advance_turn(campaign_id=campaign.pk)
    assert Turn.objects.get(campaign=campaign, number=1).players == ["australian"]
    # The History's reason is never a bare "None", even of a save that asked none.
    type(campaign).objects.get(pk=campaign.pk).save()  # a save with no reason given
    history = gm.get(f"/admin/campaign/campaign/{campaign.pk}/history/").content.decode()
    assert "None" not in text(history.encode())


def test_a_teammates_side_keeps_its_orders_and_ready(players: dict[str, Any]) -> None:
    campaign = new_campaign()
    rows = seated(campaign, players, bob="japanese", kenji="japanese")
    company = Company.objects.filter(campaign=campaign, side="japanese", kind="fighting").first()
    give_order(company=company, kind="hold", side="japanese")
    line = remove_player(membership_id=rows["bob"].pk, reason="too busy")
    assert line.what == (
        "The player bob no longer plays the Japanese; the side's other players play on."
    )
    assert Order.objects.filter(campaign=campaign).count() == 1


def test_a_spectator_leaves_and_an_ended_campaign_keeps_its_players(
    players: dict[str, Any],
) -> None:
    campaign = new_campaign()
    rows = seated(campaign, players, sue="spectator", alice="australian")
    line = remove_player(membership_id=rows["sue"].pk, reason="asked to")
    assert line.what == "The spectator sue no longer follows Korona 1."
    with pytest.raises(AdjustmentRefused, match="reason"):
        remove_player(membership_id=rows["alice"].pk, reason=" ")
    campaign.status = campaign.Status.FINISHED
    campaign.save()
    with pytest.raises(AdjustmentRefused, match="has ended"):
        remove_player(membership_id=rows["alice"].pk, reason="tidy up")
    assert Membership.objects.filter(pk=rows["alice"].pk).exists()


def test_a_roll_back_keeps_a_players_leaving_in_the_log(players: dict[str, Any]) -> None:
    """Who plays is not part of a turn's start state: rolled back, bob is still gone, so
    the line saying so stays, as a schedule change's does."""
    campaign = new_campaign()
    rows = seated(campaign, players, alice="australian", bob="japanese")
    advance_turn(campaign_id=campaign.pk)
    advance_turn(campaign_id=campaign.pk)
    remove_player(membership_id=rows["bob"].pk, reason="moved to Perth")
    preview = " ".join(rollback_preview(campaign=campaign, number=2))
    assert "(moved to Perth): kept, as who plays is now" in preview
    rollback_to_turn(campaign=campaign, number=2, reason="a mistyped result")
    assert GmAdjustment.objects.filter(what__startswith="The player bob no longer plays").exists()


def test_a_removal_reason_naming_a_hidden_company_is_asked_first(
    gm: Client, players: dict[str, Any]
) -> None:
    """The reason goes to every reader's log word for word, as an Adjust reason does: one
    naming an enemy company a side cannot see is shown again with the warning, and the
    player stays until the GM ticks "Save it anyway" for it."""
    campaign = new_campaign()
    rows = seated(campaign, players, alice="australian", bob="japanese")
    removal = f"/admin/campaign/membership/{rows['bob'].pk}/delete/"
    reason = "bob's 3rd Company sat in Korona all game; he has left"
    asked = gm.post(removal, {"reason": reason, "confirm": "on"})
    assert asked.status_code == 200
    assert "names the Japanese 3rd Company" in text(asked.content)
    assert Membership.objects.filter(pk=rows["bob"].pk).exists()
    warned = re.search(r'name="warned" value="([^"]*)"', asked.content.decode())
    assert warned is not None
    sure = {"reason": reason, "confirm": "on", "reveal": "on", "warned": html.unescape(warned[1])}
    assert gm.post(removal, sure, follow=True).status_code == 200
    assert not Membership.objects.filter(pk=rows["bob"].pk).exists()


def test_a_spectators_removal_written_before_reads_without_capitalising_their_name(
    players: dict[str, Any],
) -> None:
    """A line written before read "sue no longer follows Korona 1 as a spectator.", which
    the log made a sentence as "Sue no longer follows ...": a username is its owner's
    spelling, so the line is said in today's words, the name inside it."""
    campaign = new_campaign()
    GmAdjustment.objects.create(
        campaign=campaign,
        before_turn=1,
        what="sue no longer follows Korona 1 as a spectator.",
        reason="asked to",
        details={"kind": "player", "player": "sue", "side": "spectator"},
    )
    seated(campaign, players, alice="australian")
    view = open_campaign(user=players["alice"], campaign=campaign)
    assert [row.what for row in view.adjustments()] == [
        "The spectator sue no longer follows Korona 1."
    ]
    client = Client()
    client.force_login(players["alice"])
    page = client.get(f"/campaigns/{campaign.pk}/turns/").content.decode()
    assert "The spectator sue no longer follows Korona 1." in page and "Sue" not in page


def test_an_ended_campaign_names_everyone_who_played_with_when_the_removed_left(
    gm: Client, players: dict[str, Any]
) -> None:
    """The ended campaign's page is its record: the players' list there has only those in
    it at the end, so bob and sue, removed along the way, were named nowhere but the log."""
    campaign = new_campaign()
    rows = seated(campaign, players, alice="australian", bob="japanese", kenji="japanese")
    Membership.objects.create(campaign=campaign, user=players["sue"], side="spectator")
    advance_turn(campaign_id=campaign.pk)
    remove_player(membership_id=rows["bob"].pk, reason="moved to Perth")
    remove_player(membership_id=Membership.objects.get(user=players["sue"]).pk, reason="asked to")
    page = f"/admin/campaign/campaign/{campaign.pk}/change/"
    assert "who played" not in text(gm.get(page).content).lower()  # the list below has it
    campaign.status = campaign.Status.FINISHED
    campaign.save()
    shown = text(gm.get(page).content)
    listed = re.search(r"Who played:? (.*?) Settings", shown)
    assert listed is not None, shown
    assert re.fullmatch(
        r"alice: played the Australians, to the end "
        r"kenji: played the Japanese, to the end "
        r"bob: played the Japanese until the game master removed them before turn 2 "
        r"\(\w{3} \d+ \w{3} \d{4}, \d\d:\d\d \w+\): moved to Perth "
        r"sue: followed it as a spectator until the game master removed them before turn 2 "
        r"\(.*?\): asked to ",
        listed[1] + " ",
    ), listed[1]


def test_a_player_removed_and_invited_back_is_named_once_with_when_they_came_back(
    gm: Client, players: dict[str, Any]
) -> None:
    """bob, removed and invited back, was listed twice: once as removed, once as playing
    to the end, as if two players."""
    campaign = new_campaign()
    rows = seated(campaign, players, alice="australian", bob="japanese")
    advance_turn(campaign_id=campaign.pk)
    remove_player(membership_id=rows["bob"].pk, reason="moved to Perth")
    advance_turn(campaign_id=campaign.pk)
    accept(invitation=invite(campaign=campaign, side="japanese"), user=players["bob"])
    campaign.status = campaign.Status.FINISHED
    campaign.save()
    shown = text(gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content)
    listed = re.search(r"Who played:? (.*?) Settings", shown)
    assert listed is not None, shown
    assert listed[1].count("bob") == 1, listed[1]
    assert re.fullmatch(
        r"alice: played the Australians, to the end "
        r"bob: played the Japanese until the game master removed them before turn 2 "
        r"\(.*?\): moved to Perth; then rejoined before turn 3 and played the Japanese, "
        r"to the end ",
        listed[1] + " ",
    ), listed[1]


def test_a_player_removed_twice_is_named_once_with_both_removals(
    gm: Client, players: dict[str, Any]
) -> None:
    campaign = new_campaign()
    rows = seated(campaign, players, alice="australian", bob="japanese")
    remove_player(membership_id=rows["bob"].pk, reason="moved to Perth")
    advance_turn(campaign_id=campaign.pk)
    back = accept(invitation=invite(campaign=campaign, side="spectator"), user=players["bob"])
    remove_player(membership_id=back.pk, reason="asked to")
    campaign.status = campaign.Status.FINISHED
    campaign.save()
    shown = text(gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content)
    listed = re.search(r"Who played:? (.*?) Settings", shown)
    assert listed is not None, shown
    assert re.fullmatch(
        r"alice: played the Australians, to the end "
        r"bob: played the Japanese until the game master removed them before turn 1 "
        r"\(.*?\): moved to Perth; then came back and followed it as a spectator until the "
        r"game master removed them again before turn 2 \(.*?\): asked to ",
        listed[1] + " ",
    ), listed[1]


def test_a_side_given_back_to_a_player_is_told_in_the_log_every_player_reads(
    players: dict[str, Any],
) -> None:
    """The walk's alice, removed before turn 4 and invited back before it, played turn 4;
    the Japanese read only "from turn 4 the campaign AI plays them", never that she was
    back."""
    campaign = new_campaign()
    rows = seated(campaign, players, alice="australian", kenji="japanese")
    advance_turn(campaign_id=campaign.pk)
    advance_turn(campaign_id=campaign.pk)
    remove_player(membership_id=rows["alice"].pk, reason="away for a fortnight")
    accept(invitation=invite(campaign=campaign, side="australian"), user=players["alice"])
    back = (
        "The player alice now plays the Australians: from turn 3 they give its orders, "
        "not the campaign AI. · They joined with the game master's invitation."
    )
    for reader in ("kenji", "alice"):
        client = Client()
        client.force_login(players[reader])
        assert back in text(client.get(f"/campaigns/{campaign.pk}/turns/").content), reader
    # Who plays is not part of a turn's start state: a roll-back keeps the line too.
    advance_turn(campaign_id=campaign.pk)
    rollback_to_turn(campaign=campaign, number=2, reason="a mistyped result")
    assert GmAdjustment.objects.filter(what__startswith="The player alice now plays").exists()


def test_a_join_is_told_only_when_it_takes_a_side_from_the_campaign_ai(
    players: dict[str, Any],
) -> None:
    """No line for the sides taken at the start, a teammate joining a side already
    played, or a spectator; one for a side the AI has played since the start."""
    campaign = new_campaign()
    accept(invitation=invite(campaign=campaign, side="australian"), user=players["alice"])
    advance_turn(campaign_id=campaign.pk)
    accept(invitation=invite(campaign=campaign, side="australian"), user=players["bob"])
    accept(invitation=invite(campaign=campaign, side="spectator"), user=players["sue"])
    assert not GmAdjustment.objects.filter(campaign=campaign).exists()
    accept(invitation=invite(campaign=campaign, side="japanese"), user=players["kenji"])
    assert list(GmAdjustment.objects.values_list("what", flat=True)) == [
        "The player kenji now plays the Japanese: from turn 2 they give its orders, not "
        "the campaign AI."
    ]


def test_a_side_taken_while_a_turn_waits_for_its_battles_is_the_players_from_the_next(
    players: dict[str, Any],
) -> None:
    """Turn 1 waits for its tabletop results: its orders are closed, so the player who
    joins gives the orders of turn 2, not of the turn under way."""
    campaign, _ = waiting_campaign()
    accept(invitation=invite(campaign=campaign, side="japanese"), user=players["kenji"])
    line = GmAdjustment.objects.get(campaign=campaign)
    assert line.what == (
        "The player kenji now plays the Japanese: from turn 2 they give its orders, not the "
        "campaign AI."
    )


def test_a_side_given_to_a_player_in_the_admin_is_told_as_an_invited_one_is(
    gm: Client, players: dict[str, Any]
) -> None:
    """Memberships → Add, and "Add another Membership" on the campaign's page, take a
    side from the campaign AI as an invitation does: the log says so, in its words."""
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    added = gm.post(
        "/admin/campaign/membership/add/",
        {"user": players["alice"].pk, "campaign": campaign.pk, "side": "australian"},
    )
    assert added.status_code == 302
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/")
    data: dict[str, Any] = {"name": campaign.name, "_save": "Save"}
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        data.update(
            {management.add_prefix(name): value for name, value in management.initial.items()}
        )
        for form in formset.formset.initial_forms:
            data.update({form.add_prefix(k): v for k, v in form.initial.items() if v is not None})
            data[form.add_prefix("id")] = form.instance.pk
    first_new = int(data["memberships-INITIAL_FORMS"])
    data["memberships-TOTAL_FORMS"] = str(first_new + 1)
    data[f"memberships-{first_new}-user"] = players["kenji"].pk
    data[f"memberships-{first_new}-side"] = "japanese"
    saved = gm.post(f"/admin/campaign/campaign/{campaign.pk}/change/", data)
    assert saved.status_code == 302, saved.context and saved.context["errors"]
    assert list(GmAdjustment.objects.order_by("id").values_list("what", "reason")) == [
        (
            f"The player {name} now plays the {side}: from turn 2 they give its orders, not "
            "the campaign AI.",
            "The game master put them in the campaign.",
        )
        for name, side in (("alice", "Australians"), ("kenji", "Japanese"))
    ]
    # Made by the GM: the GM's lists say so, not "-".
    assert set(GmAdjustment.objects.values_list("user__username", flat=True)) == {"gm"}


def test_a_join_line_names_the_player_in_the_gms_lists(gm: Client, players: dict[str, Any]) -> None:
    """The GM's list of changes and the campaign's page showed "-" as who made a join's
    line (no game master made it): they name the player who joined."""
    campaign = new_campaign()
    advance_turn(campaign_id=campaign.pk)
    accept(invitation=invite(campaign=campaign, side="japanese"), user=players["kenji"])
    line = GmAdjustment.objects.get(campaign=campaign)
    listed = gm.get("/admin/campaign/gmadjustment/")
    (row,) = re.findall(r"<tr>.*?</tr>", listed.content.decode().split("<tbody>")[1], re.S)
    assert "kenji, joining" in text(row.encode())
    assert "-</td>" not in row
    shown = gm.get(f"/admin/campaign/gmadjustment/{line.pk}/change/")
    assert "kenji, joining" in text(shown.content)
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/")
    assert "kenji, joining" in text(page.content)


def test_a_change_by_a_game_master_since_deleted_is_not_said_to_be_nobodys(
    gm: Client, django_user_model: Any
) -> None:
    """A change whose account is gone (a second GM deleted since: ``SET_NULL``) was listed
    as made by "nobody signed in (a command or a task)": the row cannot tell a deleted
    user from a command, so the list says either may have made it."""
    campaign = new_campaign()
    second = django_user_model.objects.create_superuser("second", "second@example.com", "pw-1")
    remove = Membership.objects.create(
        user=django_user_model.objects.create_user("alice", "a@example.com", "pw-long-1"),
        campaign=campaign,
        side="australian",
    )
    remove_player(membership_id=remove.pk, reason="moved away", user=second)
    second.delete()
    listed = gm.get("/admin/campaign/gmadjustment/")
    (row,) = re.findall(r"<tr>.*?</tr>", listed.content.decode().split("<tbody>")[1], re.S)
    assert "no account (a server command or job, or a user since deleted)" in text(row.encode())
    assert "nobody signed in" not in listed.content.decode()


def test_a_removal_reason_written_as_a_sentence_reads_without_a_stop_before_then(
    gm: Client, players: dict[str, Any]
) -> None:
    """The walk's "Alice is away for a fortnight; she will be back.; then rejoined"."""
    campaign = new_campaign()
    rows = seated(campaign, players, alice="australian", kenji="japanese")
    advance_turn(campaign_id=campaign.pk)
    remove_player(membership_id=rows["alice"].pk, reason="Away for a fortnight.")
    accept(invitation=invite(campaign=campaign, side="australian"), user=players["alice"])
    campaign.status = campaign.Status.FINISHED
    campaign.save()
    shown = text(gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content)
    assert re.search(
        r"alice: played the Australians until the game master removed them before turn 2 "
        r"\(.*?\): Away for a fortnight; then rejoined before turn 2 and played the "
        r"Australians, to the end ",
        shown,
    ), shown
