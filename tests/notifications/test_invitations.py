"""The GM's invitation: a link that gives a side, once, until it expires."""

from __future__ import annotations

import html
import math
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from campaign.models import Campaign, Membership
from campaign.services.scenarios import create_campaign
from notifications.invitations import InvitationRefused, accept, invitation_url, invite
from notifications.models import Invitation
from tests.campaign.conftest import korona_doc

pytestmark = pytest.mark.django_db


def path_of(invitation: Invitation) -> str:
    return invitation_url(invitation).removeprefix("http://korona.test")


NEW = {
    "username": "newcomer",
    "email": "n@example.com",
    "password1": "a long password for tests",
    "password2": "a long password for tests",
}


def test_a_new_player_makes_an_account_and_joins_the_side(campaign: Campaign) -> None:
    invitation = invite(campaign=campaign, side="japanese")
    client = Client()
    page = client.get(path_of(invitation))
    assert page.status_code == 200 and "play <strong>the Japanese</strong>" in page.content.decode()
    answer = client.post(path_of(invitation), NEW)
    assert answer.status_code == 302 and answer.url == f"/campaigns/{campaign.pk}/"
    user = get_user_model().objects.get(username="newcomer")
    assert Membership.objects.get(campaign=campaign, user=user).side == "japanese"
    assert client.get(f"/campaigns/{campaign.pk}/").status_code == 200  # signed in
    invitation.refresh_from_db()
    assert invitation.used_by == user and invitation.used_at is not None


def test_a_signed_in_player_joins_with_one_click(
    campaign: Campaign, outsider: Any, login: Any
) -> None:
    invitation = invite(campaign=campaign, side="australian")
    answer = login(outsider).post(path_of(invitation))
    assert answer.status_code == 302
    assert Membership.objects.get(campaign=campaign, user=outsider).side == "australian"


def test_an_invitation_works_once(campaign: Campaign, outsider: Any, login: Any) -> None:
    invitation = invite(campaign=campaign, side="australian")
    login(outsider).post(path_of(invitation))
    again = Client().post(path_of(invitation), NEW)
    assert again.status_code == 404
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_an_expired_or_made_up_invitation_does_nothing(campaign: Campaign) -> None:
    invitation = invite(campaign=campaign, side="australian")
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert Client().get(path_of(invitation)).status_code == 404
    assert Client().post(path_of(invitation), NEW).status_code == 404
    assert Client().get("/invite/not-a-token/").status_code == 404
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_a_member_cannot_take_a_second_side(campaign: Campaign, aussie: Any, login: Any) -> None:
    invitation = invite(campaign=campaign, side="japanese")
    answer = login(aussie).post(path_of(invitation))
    assert answer.status_code == 409
    page = answer.content.decode()
    # The walk read "you play the Australian side of Korona already." (lower case, the
    # side's key capitalised) above the same "Join" button, which could only be refused
    # again.
    assert f"You play the Australians in {campaign.name} already." in page
    assert "Australian side" not in page
    assert "Join as the" not in page and "<form" not in page.split("<main", 1)[-1]
    assert Membership.objects.get(campaign=campaign, user=aussie).side == "australian"
    invitation.refresh_from_db()
    assert invitation.used_at is None  # still there for whom it was meant


def test_a_spectator_invited_to_a_side_is_told_whom_to_ask(
    campaign: Campaign, outsider: Any, login: Any
) -> None:
    """The walk's alice, a spectator, read "you play the Spectator side of Korona
    already.": a spectator plays no side, and being made a player is a natural wish."""
    Membership.objects.create(user=outsider, campaign=campaign, side="spectator")
    invitation = invite(campaign=campaign, side="japanese")
    answer = login(outsider).post(path_of(invitation))
    assert answer.status_code == 409
    page = answer.content.decode()
    assert (
        f"You follow {campaign.name} as a spectator: one account is in a campaign once, so "
        "ask the game master to give you this side instead." in page
    )
    assert "Spectator side" not in page and "Join as the" not in page
    assert Membership.objects.get(campaign=campaign, user=outsider).side == "spectator"


def test_bad_account_details_make_no_account_and_spend_nothing(campaign: Campaign) -> None:
    invitation = invite(campaign=campaign, side="japanese")
    answer = Client().post(path_of(invitation), {**NEW, "password2": "something else"})
    assert answer.status_code == 400
    assert not get_user_model().objects.filter(username="newcomer").exists()
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_no_invitation_to_a_side_the_campaign_lacks_and_none_for_the_gm(
    campaign: Campaign, gm_user: Any
) -> None:
    with pytest.raises(InvitationRefused, match="not a side"):
        invite(campaign=campaign, side="american")
    with pytest.raises(InvitationRefused, match="game master"):
        accept(invitation=invite(campaign=campaign, side="japanese"), user=gm_user)


def test_tokens_are_random_and_long(campaign: Campaign) -> None:
    tokens = {invite(campaign=campaign, side="japanese").token for _ in range(20)}
    assert len(tokens) == 20 and all(len(token) >= 32 for token in tokens)


def test_codes_have_no_look_alike_characters_and_as_much_chance(campaign: Campaign) -> None:
    """A link read off a phone or a printout mixed O and 0, l and 1: a code has none of
    them, in one case, and is no easier to guess than the 24 random bytes it had."""
    tokens = [invite(campaign=campaign, side="japanese").token for _ in range(50)]
    used = set("".join(tokens))
    assert not used & set("0Oo1lIi"), used
    assert used <= set("23456789abcdefghjkmnpqrstuvwxyz")
    assert all(len(token) == 40 for token in tokens)
    assert 40 * math.log2(31) >= 24 * 8


def test_a_code_typed_in_capitals_opens_its_invitation_an_old_one_only_as_written(
    campaign: Campaign,
) -> None:
    """Today's codes are in one case, so one typed in capitals is read. Codes made before
    (mixed case, 32 characters) keep working, exactly: two of them may differ only in
    case, so another case is another code."""
    invitation = invite(campaign=campaign, side="japanese")
    typed = path_of(invitation).replace(invitation.token, invitation.token.upper())
    page = Client().get(typed)
    assert page.status_code == 200 and "play <strong>the Japanese</strong>" in page.content.decode()
    old = "Ab3_xO0l1I-zzzzzzzzzzzzzzzzzzzzz"
    before = invite(campaign=campaign, side="australian")
    Invitation.objects.filter(pk=before.pk).update(token=old)
    assert Client().get(f"/invite/{old.lower()}/").status_code == 404
    assert Client().get(f"/invite/{old.upper()}/").status_code == 404
    assert Client().get(f"/invite/{old}/").status_code == 200
    assert Client().post(typed, NEW).status_code == 302
    invitation.refresh_from_db()
    assert invitation.used_by is not None


def test_the_gm_makes_an_invitation_in_the_admin(
    campaign: Campaign, django_user_model: Any, login: Any
) -> None:
    boss = django_user_model.objects.create_superuser("boss", "b@example.com", "a long password")
    client = login(boss)
    answer = client.post(
        "/admin/notifications/invitation/add/",
        {"campaign": campaign.pk, "side": "japanese", "note": "for Kenji"},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    invitation = Invitation.objects.get()
    assert invitation.created_by == boss and invitation.expires_at > timezone.now()
    page = client.get(f"/admin/notifications/invitation/{invitation.pk}/change/").content.decode()
    assert invitation_url(invitation) in page


def test_the_admin_shows_an_invitation_link_as_text_to_copy_not_a_link(
    campaign: Campaign, django_user_model: Any, login: Any
) -> None:
    """A GM who clicked the live link landed on "Join as the Japanese", a click from using
    up the player's invitation: a read-only field with a Copy button (a script file)."""
    client = login(django_user_model.objects.create_superuser("boss", "b@x.com", "pw"))
    invitation = invite(campaign=campaign, side="japanese", note="for Kenji")
    url = invitation_url(invitation)
    for address in (
        "/admin/notifications/invitation/",
        f"/admin/notifications/invitation/{invitation.pk}/change/",
    ):
        page = client.get(address).content.decode()
        assert re.search(rf"<textarea readonly [^>]*>{url}</textarea>", page)
        assert "data-copy hidden>Copy</button>" in page
        assert f'href="{url}"' not in page
        assert "/static/campaign/copy-link.js" in page
        assert "/static/campaign/admin-copy.css" in page


def test_a_spent_invitation_offers_no_link_to_copy(
    campaign: Campaign, django_user_model: Any, login: Any
) -> None:
    """A used or expired invitation's row said nothing of it but in its time column,
    which a phone's list hides, and offered its dead link to copy like a live one."""
    client = login(django_user_model.objects.create_superuser("boss", "b@x.com", "pw"))
    used = invite(campaign=campaign, side="japanese", note="for Kenji")
    kenji = django_user_model.objects.create_user("kenji", "k@x.com", "a long password")
    Invitation.objects.filter(pk=used.pk).update(used_by=kenji, used_at=timezone.now())
    expired = invite(campaign=campaign, side="australian", note="for Bill")
    Invitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(1))
    live = invite(campaign=campaign, side="australian", note="for Jim")
    page = client.get("/admin/notifications/invitation/").content.decode()
    assert "used by kenji: nothing to send" in page
    assert "expired: add a new invitation to send" in page
    assert invitation_url(used) not in page and invitation_url(expired) not in page
    assert re.search(rf"<textarea readonly [^>]*>{invitation_url(live)}</textarea>", page)


def test_the_admin_refuses_an_invitation_to_an_ended_campaign(
    campaign: Campaign, django_user_model: Any, login: Any
) -> None:
    """Its link would open on "its campaign has ended": a walk-through's game master added
    one and had a dead link to send. Refused on the campaign, nothing made; the service
    refuses it too."""
    client = login(django_user_model.objects.create_superuser("boss", "b@x.com", "pw"))
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.FINISHED)
    campaign.refresh_from_db()
    answer = client.post(
        "/admin/notifications/invitation/add/",
        {"campaign": campaign.pk, "side": "japanese", "note": "for Kenji"},
    )
    assert answer.status_code == 200
    assert list(answer.context["adminform"].form.errors["campaign"]) == [
        f"{campaign.name} has ended: nobody can join it, so an invitation to it could not be used"
    ]
    assert not Invitation.objects.exists()
    with pytest.raises(InvitationRefused, match="has ended"):
        invite(campaign=campaign, side="japanese")


def test_the_admins_add_forms_list_only_campaigns_that_can_take_players(
    campaign: Campaign, django_user_model: Any, login: Any
) -> None:
    """Invitations → Add and Memberships → Add listed an ended campaign, which saving then
    refused: they list only the campaigns still going (paused ones too), and one sent
    anyway is refused in words, nothing made."""
    from campaign.services.scenarios import create_campaign
    from tests.campaign.conftest import korona_doc

    client = login(django_user_model.objects.create_superuser("boss", "b@x.com", "pw"))
    ended = create_campaign(data=korona_doc(), name="Korona ended", seed=1)
    paused = create_campaign(data=korona_doc(), name="Korona paused", seed=1)
    Campaign.objects.filter(pk=ended.pk).update(status=Campaign.Status.FINISHED)
    Campaign.objects.filter(pk=paused.pk).update(status=Campaign.Status.PAUSED)
    player = django_user_model.objects.create_user("kenji", "k@x.com", "pw")
    for model, refused in (
        ("notifications/invitation", "so an invitation to it could not be used"),
        ("campaign/membership", "and its players keep the sides they played"),
    ):
        page = client.get(f"/admin/{model}/add/").content.decode()
        offered = re.findall(
            r'<option value="(\d+)"', page.split('name="campaign"')[1].split("</select>")[0]
        )
        assert sorted(int(pk) for pk in offered) == sorted([campaign.pk, paused.pk])
        answer = client.post(
            f"/admin/{model}/add/",
            {"campaign": ended.pk, "side": "japanese", "note": "", "user": player.pk},
        )
        assert answer.status_code == 200
        assert list(answer.context["adminform"].form.errors["campaign"]) == [
            f"Korona ended has ended: nobody can join it, {refused}"
        ]
    assert not Invitation.objects.exists()
    assert not Membership.objects.filter(campaign=ended).exists()


def test_an_invitation_whose_campaign_ended_is_not_listed_as_waiting(
    campaign: Campaign, django_user_model: Any, login: Any
) -> None:
    from notifications.invitations import waiting_invitations

    client = login(django_user_model.objects.create_superuser("boss", "b@x.com", "pw"))
    invitation = invite(campaign=campaign, side="japanese", note="for Kenji")
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.FINISHED)
    assert not waiting_invitations([campaign.pk]).exists()
    page = client.get("/admin/notifications/invitation/").content.decode()
    assert "its campaign has ended: nothing to send" in page
    assert invitation_url(invitation) not in page


def test_back_on_the_page_after_joining_says_you_have_joined_with_a_link(
    campaign: Campaign,
) -> None:
    """A walk-through joined, pressed Back and read "This invitation does not work. It
    was used already ... Ask the game master for a new one"."""
    invitation = invite(campaign=campaign, side="australian")
    client = Client()
    client.post(path_of(invitation), NEW)
    answer = client.get(path_of(invitation))
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "You have joined" in page and "does not work" not in page
    assert "you play <strong>the Australians</strong> in <strong>" in page
    assert f'href="/campaigns/{campaign.pk}/"' in page


def test_anyone_else_back_on_a_used_invitation_still_reads_that_it_does_not_work(
    campaign: Campaign, outsider: Any, login: Any
) -> None:
    invitation = invite(campaign=campaign, side="australian")
    Client().post(path_of(invitation), NEW)
    for client in (Client(), login(outsider)):
        answer = client.get(path_of(invitation))
        assert answer.status_code == 404
        page = answer.content.decode()
        assert "This invitation does not work" in page and "You have joined" not in page
    assert Invitation.objects.get().used_by.username == "newcomer"


def focused(html: str) -> list[str]:
    """The ids of the fields with ``autofocus``, in the page's order."""
    tags = re.findall(r"<input\b[^>]*>", html)
    return [re.search(r'\bid="([^"]+)"', tag)[1] for tag in tags if " autofocus" in tag]


def test_a_refused_sign_up_puts_the_focus_on_the_first_field_refused(
    campaign: Campaign, aussie: Any
) -> None:
    """The walk-through: the sign-up form refused a taken email and left the focus on
    Username. The first field with an error has ``autofocus``, and no other."""
    invitation = invite(campaign=campaign, side="japanese")
    client = Client()
    assert focused(client.get(path_of(invitation)).content.decode()) == ["id_username"]
    taken = client.post(path_of(invitation), {**NEW, "email": aussie.email})
    assert taken.status_code == 400
    assert focused(taken.content.decode()) == ["id_email"]
    mismatched = client.post(path_of(invitation), {**NEW, "password2": "another password"})
    assert focused(mismatched.content.decode()) == ["id_password2"]
    both = client.post(path_of(invitation), {**NEW, "username": "", "email": aussie.email})
    assert focused(both.content.decode()) == ["id_username"]


def test_the_gm_invites_a_spectator_who_joins_as_one(
    campaign: Campaign, django_user_model: Any, login: Any
) -> None:
    """The walk-through: docs/pages.md promised an invitation to "spectator", but the
    admin's Add form offered only the two sides."""
    boss = django_user_model.objects.create_superuser("boss", "b@example.com", "a long password")
    client = login(boss)
    form = client.get("/admin/notifications/invitation/add/").content.decode()
    assert '<option value="spectator">Spectator (no side)</option>' in form
    answer = client.post(
        "/admin/notifications/invitation/add/",
        {"campaign": campaign.pk, "side": "spectator", "note": "for Alice"},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    invitation = Invitation.objects.get()
    assert str(invitation) == f"Invitation to watch {campaign}"
    newcomer = Client()
    page = newcomer.get(path_of(invitation)).content.decode()
    assert f"invites you to follow <strong>{campaign.name}</strong> as a spectator" in page
    assert "Make my account and join as a spectator" in page and "the spectators" not in page
    joined = newcomer.post(path_of(invitation), NEW, follow=True)
    assert joined.redirect_chain[0][1] == 302
    # The map's welcome: the walk of 7 December 2026 read "Welcome: you play the
    # spectators (no side) in Korona.", though a spectator plays nothing.
    welcome = [str(m) for m in joined.context["messages"]]
    assert welcome == [f"Welcome: you follow {campaign.name} as a spectator."]
    user = get_user_model().objects.get(username="newcomer")
    assert Membership.objects.get(campaign=campaign, user=user).side == "spectator"
    back = newcomer.get(path_of(invitation)).content.decode()
    assert f"you follow <strong>{campaign.name}</strong> as a spectator" in back


# What a solo invitation says: the other side is the campaign AI's, and the invitee's
# "ready" plays the turn at once (which sides a player plays is public: docs/campaign.md).
SOLO = (
    "Nobody plays the Australians yet: the campaign AI plays them, always ready. Once you "
    'join, your "ready" plays each turn at once.'
)


@pytest.fixture
def unplayed() -> Campaign:
    """A campaign nobody has joined yet (``campaign`` has a player on each side)."""
    return create_campaign(data=korona_doc(), name="Korona solo", seed=1)


def invitation_text(invitation: Invitation) -> str:
    page = Client().get(path_of(invitation)).content.decode()
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())


def test_an_invitation_to_a_campaign_played_solo_says_the_campaign_ai_plays_the_other_side(
    unplayed: Campaign,
) -> None:
    assert SOLO in invitation_text(invite(campaign=unplayed, side="japanese"))


def test_an_invitation_says_nothing_of_the_campaign_ai_once_the_other_side_has_a_player(
    campaign: Campaign, unplayed: Campaign, outsider: Any
) -> None:
    Membership.objects.filter(campaign=campaign, side="japanese").delete()
    text = invitation_text(invite(campaign=campaign, side="japanese"))
    assert "You are invited" in text
    assert "campaign AI" not in text and "at once" not in text
    # A spectator plays no side: the campaign AI still plays the Australians.
    Membership.objects.create(campaign=unplayed, user=outsider, side="spectator")
    assert SOLO in invitation_text(invite(campaign=unplayed, side="japanese"))


def test_a_solo_invitation_with_a_teammate_says_either_ready_plays_the_turn(
    unplayed: Campaign, outsider: Any
) -> None:
    Membership.objects.create(campaign=unplayed, user=outsider, side="japanese")
    text = invitation_text(invite(campaign=unplayed, side="japanese"))
    assert (
        "Nobody plays the Australians yet: the campaign AI plays them, always ready. Once you "
        'join, your "ready" or a teammate\'s plays each turn at once.'
    ) in text


def test_a_paused_solo_campaign_says_its_turns_wait_for_the_game_master(
    unplayed: Campaign,
) -> None:
    Campaign.objects.filter(pk=unplayed.pk).update(status=Campaign.Status.PAUSED)
    text = invitation_text(invite(campaign=unplayed, side="japanese"))
    assert (
        "Nobody plays the Australians yet: the campaign AI plays them, always ready. The "
        'campaign is paused: once the game master resumes it, your "ready" plays each turn '
        "at once."
    ) in text


def test_a_spectators_invitation_says_nothing_of_the_ready(unplayed: Campaign) -> None:
    text = invitation_text(invite(campaign=unplayed, side="spectator"))
    assert "You are invited" in text and "at once" not in text
