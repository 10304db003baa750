"""What the invitation's sign-up, the sign-in and the reset pages tell of who has an
account (notifications.invitations' docstring has the ruling): the sign-up's refusal of
an address asserts no account and names none, points its owner to the ways in, and is
given on one invitation for a few addresses an hour, not a list; signing in is refused
in the same words whether the username exists or not."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client

from campaign.models import Campaign, Membership
from campaign.services.scenarios import create_campaign
from notifications.addresses import ADDRESSES_REFUSED
from notifications.invitations import TOO_MANY_REFUSED, invite
from tests.campaign.conftest import korona_doc
from tests.notifications.test_invitations import NEW, path_of
from tests.notifications.test_one_account_per_address import TAKEN
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _refused(answer: Any) -> list[str]:
    assert answer.status_code == 400
    return list(answer.context["form"].errors.get("email", []))


def test_a_taken_address_is_refused_in_words_that_assert_no_account_and_name_none(
    campaign: Campaign, aussie: Any
) -> None:
    invitation = invite(campaign=campaign, side="japanese")
    answer = Client().post(path_of(invitation), {**NEW, "email": "a@example.com"})
    assert _refused(answer) == [TAKEN]
    page = answer.content.decode()
    for telling in ("aussie", "Australian", "already used", "another account", "has an account"):
        assert telling not in page
    # The ways in the refusal points to, above it: sign in and come back, and the reset
    # mail (which names the account, for a player who forgot the username too).
    path = path_of(invitation)
    assert f'href="/accounts/login/?next={path}">Sign in</a>' in page
    assert 'href="/accounts/password/reset/">forgotten its password or username?</a>' in page


def test_a_returning_player_signs_in_from_the_invitation_and_joins_a_second_campaign(
    campaign: Campaign, aussie: Any
) -> None:
    """A player of one campaign (aussie plays the Australians in ``campaign``) invited to
    another, who first tried to make an account with their address."""
    second = create_campaign(data=korona_doc(), name="Second", seed=2)
    invitation = invite(campaign=second, side="japanese")
    client = Client()
    assert _refused(client.post(path_of(invitation), {**NEW, "email": "a@example.com"})) == [TAKEN]
    signed_in = client.post(
        f"/accounts/login/?next={path_of(invitation)}",
        {"username": "aussie", "password": PASSWORD, "next": path_of(invitation)},
    )
    assert signed_in.status_code == 302 and signed_in.url == path_of(invitation)
    joined = client.post(path_of(invitation))
    assert joined.status_code == 302 and joined.url == f"/campaigns/{second.pk}/"
    assert Membership.objects.get(campaign=second, user=aussie).side == "japanese"
    assert Membership.objects.get(campaign=campaign, user=aussie).side == "australian"


def test_the_reset_mail_names_the_account_for_a_player_who_forgot_the_username(
    aussie: Any,
) -> None:
    Client().post("/accounts/password/reset/", {"email": "A@example.com"})
    [message] = mail.outbox
    assert message.to == ["a@example.com"] and "Korona account aussie" in message.body


def _taken_addresses(django_user_model: Any, count: int) -> list[str]:
    for number in range(count):
        django_user_model.objects.create_user(f"player{number}", f"p{number}@example.com", "pw")
    return [f"p{number}@example.com" for number in range(count)]


def test_one_invitation_refuses_a_few_addresses_an_hour_then_makes_no_account_at_all(
    campaign: Campaign, django_user_model: Any
) -> None:
    invitation = invite(campaign=campaign, side="japanese")
    client = Client()
    taken = _taken_addresses(django_user_model, ADDRESSES_REFUSED + 1)
    for address in taken[:ADDRESSES_REFUSED]:
        assert _refused(client.post(path_of(invitation), {**NEW, "email": address})) == [TAKEN]
    # Past the limit a taken address and a free one are refused alike: neither says
    # whether an account has it.
    for address in (taken[-1], NEW["email"]):
        answer = client.post(path_of(invitation), {**NEW, "email": address})
        assert _refused(answer) == [TOO_MANY_REFUSED]
    assert not get_user_model().objects.filter(username="newcomer").exists()
    invitation.refresh_from_db()
    assert invitation.used_at is None
    # Another invitation is not held back, and neither is this one after the hour.
    other = invite(campaign=campaign, side="australian")
    assert Client().post(path_of(other), NEW).status_code == 302
    cache.clear()  # the hour over
    answer = Client().post(path_of(invitation), {**NEW, "username": "later", "email": "l@x.org"})
    assert answer.status_code == 302


def test_the_same_address_sent_again_counts_once(
    campaign: Campaign, django_user_model: Any
) -> None:
    """A player who sends the form again with the same address (a password put right, a
    typo in the username) is not trying another address."""
    invitation = invite(campaign=campaign, side="japanese")
    [address] = _taken_addresses(django_user_model, 1)
    for _ in range(ADDRESSES_REFUSED + 2):
        answer = Client().post(path_of(invitation), {**NEW, "email": f" {address.upper()}"})
        assert _refused(answer) == [TAKEN]
    assert Client().post(path_of(invitation), NEW).status_code == 302


def _sign_in_pages(username: str) -> list[tuple[int, str]]:
    """Each answer to wrong passwords for ``username``, up to django-axes' lock and past
    it, less the page's CSRF token (in the form and in htmx's headers, new on each page)
    and the username given."""
    client = Client()
    answers = [
        client.post("/accounts/login/", {"username": username, "password": "wrong one"})
        for _ in range(settings.AXES_FAILURE_LIMIT + 1)
    ]
    return [
        (
            answer.status_code,
            re.sub(r"[A-Za-z0-9]{64}", "TOKEN", answer.content.decode()).replace(username, "N"),
        )
        for answer in answers
    ]


def test_signing_in_is_refused_alike_whether_the_username_exists_or_not(aussie: Any) -> None:
    known, unknown = _sign_in_pages("aussie"), _sign_in_pages("nobody")
    assert known == unknown
    assert [status for status, _ in known] == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429] * 2
