"""Sign in, sign out, memberships and django-axes against password guessing."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client

from campaign.models import Membership
from campaign.services.visibility import (
    NotAMember,
    campaigns_for,
    open_campaign,
    sides_of,
    viewer_for,
)
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def sign_in(client: Client, username: str, password: str) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_the_login_page_signs_a_player_in_and_sends_them_to_their_campaigns(aussie: Any) -> None:
    client = Client()
    assert client.get("/accounts/login/").status_code == 200
    response = sign_in(client, "aussie", PASSWORD)
    assert response.status_code == 302
    assert response.url == "/campaigns/"
    assert client.session["_auth_user_id"] == str(aussie.pk)


def test_a_wrong_password_is_refused_with_a_message_and_no_session(aussie: Any) -> None:
    client = Client()
    response = sign_in(client, "aussie", "not it")
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_sign_out_is_a_post_and_ends_the_session(aussie: Any, login: Any) -> None:
    client = login(aussie)
    page = client.get("/accounts/logout/")  # a link cannot sign you out: it gets a page
    assert page.status_code == 200 and b"Sign out?" in page.content
    assert "_auth_user_id" in client.session
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/"
    assert "_auth_user_id" not in client.session


def test_too_many_wrong_passwords_lock_the_account_even_against_the_right_one(
    aussie: Any, settings: Any
) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "aussie", "guess")
    response = sign_in(client, "aussie", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_limits_own_wrong_password_is_answered_with_the_lock_and_says_so(
    aussie: Any, settings: Any
) -> None:
    """The walk: with KORONA_LOGIN_FAILURES=5 the 5th wrong password was already answered
    "Too many failed sign-ins", while the words read "after too many wrong passwords".
    The one before is an ordinary refusal; the limit's own says it is the one that locks."""
    settings.AXES_FAILURE_LIMIT = 5
    client = Client()
    for _ in range(4):
        refused = sign_in(client, "aussie", "guess")
    assert refused.status_code == 200
    assert "Too many failed sign-ins" not in refused.content.decode()
    locked = sign_in(client, "aussie", "guess")
    assert locked.status_code == 429
    assert (
        "This account is locked for an hour from this address: the 5th wrong password in a "
        "row locks it, and is answered with this page." in locked.content.decode()
    )


def test_a_lockout_is_per_username_so_other_players_still_sign_in(
    aussie: Any, japanese: Any, settings: Any
) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "aussie", "guess")
    assert sign_in(Client(), "japanese", PASSWORD).status_code == 302


def test_one_failure_fewer_than_the_limit_still_lets_the_right_password_in(
    aussie: Any, settings: Any
) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        sign_in(client, "aussie", "guess")
    assert sign_in(client, "aussie", PASSWORD).status_code == 302


# --- memberships and who sees what ---------------------------------------------------------


def test_a_player_plays_one_side_per_campaign(campaign: Any, aussie: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(user=aussie, campaign=campaign, side="japanese")


def test_a_membership_for_a_side_the_campaign_lacks_is_invalid(
    campaign: Any, outsider: Any
) -> None:
    campaign.sides.filter(key="japanese").delete()
    with pytest.raises(ValidationError, match="not a side of this campaign"):
        Membership(user=outsider, campaign=campaign, side="japanese").full_clean()


def test_the_gm_sees_every_campaign_as_the_game_master(campaign: Any, gm_user: Any) -> None:
    assert list(campaigns_for(gm_user)) == [campaign]
    assert viewer_for(user=gm_user, campaign=campaign).game_master


def test_a_player_sees_only_their_campaigns_as_their_side(
    campaign: Any, played: Any, aussie: Any, outsider: Any
) -> None:
    Membership.objects.filter(user=aussie, campaign=played).delete()
    assert list(campaigns_for(aussie)) == [campaign]
    assert viewer_for(user=aussie, campaign=campaign).side == "australian"
    assert sides_of(aussie) == {campaign.pk: "australian"}
    with pytest.raises(NotAMember):
        open_campaign(user=aussie, campaign=played)
    assert list(campaigns_for(outsider)) == []


def test_an_inactive_user_or_an_anonymous_one_sees_nothing(campaign: Any, aussie: Any) -> None:
    from django.contrib.auth.models import AnonymousUser

    aussie.is_active = False
    aussie.save()
    for user in (aussie, AnonymousUser()):
        assert list(campaigns_for(user)) == []
        with pytest.raises(NotAMember):
            viewer_for(user=user, campaign=campaign)


def test_a_missing_campaign_is_refused_like_a_strangers_one(aussie: Any) -> None:
    with pytest.raises(NotAMember):
        open_campaign(user=aussie, campaign=999_999)


def test_opening_a_campaign_takes_ten_queries_whatever_its_size(
    big_campaign: Any, aussie: Any, django_assert_num_queries: Any
) -> None:
    # The campaign row, the membership, then the snapshot: sides, areas, links, stand
    # counts, companies, ships, air groups; and for a player under the fog of war the
    # turns' start states (what the side saw between turns).
    with django_assert_num_queries(10):
        view = open_campaign(user=aussie, campaign=big_campaign.pk)
    assert len(view.state.companies) == 80


def test_a_players_view_hides_enemies_out_of_sight_and_glimpses_those_in_sight(
    played: Any, aussie: Any
) -> None:
    view = open_campaign(user=aussie, campaign=played)
    hidden = set(view.state.companies) - {c.name for c in view.companies}
    assert hidden and all(view.state.companies[name].side == "japanese" for name in hidden)
    for name in hidden:
        assert view.company(name) is None
        assert view.company_id(name) is None
        assert view.company_by_id(view.ids.companies[name]) is None
    glimpse = next(c for c in view.companies if c.side == "japanese")
    assert glimpse.stands is None and glimpse.quality is None and glimpse.in_supply is None


def test_a_players_orders_are_their_sides_only(played: Any, aussie: Any, gm_user: Any) -> None:
    from campaign.models import Company, Order

    for company in Company.objects.filter(campaign=played):
        Order.objects.create(
            campaign=played, company=company, turn_number=played.turn + 1, kind="hold"
        )
    sides = set(
        open_campaign(user=aussie, campaign=played).orders().values_list("company__side", flat=True)
    )
    assert sides == {"australian"}
    assert open_campaign(user=gm_user, campaign=played).orders().count() == Order.objects.count()


def test_everything_is_revealed_once_the_campaign_ends(played: Any, aussie: Any) -> None:
    played.status = "finished"
    played.save()
    view = open_campaign(user=aussie, campaign=played)
    assert view.sees_everything
    assert len(view.companies) == len(view.state.companies)
    assert all(c.full for c in view.companies)
