"""Two game masters saving the same username, email address or player at the same moment
(config.adminpages.RefusedIfTakenMeanwhile): each form's checks pass before the other
saves, so the database's unique index is what stops the second. Its page answers the form
again with the checks' own words, not a 500, and keeps nothing of its save.

The race is forced: the other game master's row is made after this form's checks, just
before its save (``other_saves_first``), in this page's transaction (SQLite, PostgreSQL),
and on PostgreSQL also from another connection, committed, as a second GM's page would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client

from campaign.admin import CampaignAdmin, MembershipAdmin
from campaign.models import Campaign, Membership
from notifications.admin import PreferenceAdmin
from notifications.models import Preference
from notifications.useradmin import OwnAddressUserAdmin
from tests.admin.conftest import new_campaign

pytestmark = pytest.mark.django_db

ADD = "/admin/auth/user/add/"
PASSWORD = "a long jungle password"


def other_saves_first(monkeypatch: Any, model_admin: type, make: Callable[[], Any]) -> list[Any]:
    """The first save of ``model_admin``'s page finds ``make``'s row made just before it,
    after its form's and its inlines' checks passed; what ``make`` made is in the list
    returned."""
    save_model = model_admin.save_model
    made: list[Any] = []

    def after_the_checks(self: Any, request: Any, obj: Any, form: Any, change: bool) -> Any:
        if not made:
            made.append(make())
        return save_model(self, request, obj, form, change)

    monkeypatch.setattr(model_admin, "save_model", after_the_checks)
    return made


def new_account(username: str, email: str) -> dict[str, str]:
    return {
        "username": username,
        "email": email,
        "password1": PASSWORD,
        "password2": PASSWORD,
        "_save": "Save",
    }


def errors_of(answer: Any) -> dict[str, list[str]]:
    assert answer.status_code == 200, answer
    return {name: list(errors) for name, errors in answer.context["adminform"].form.errors.items()}


def accounts() -> dict[str, str]:
    return dict(get_user_model().objects.values_list("username", "email"))


@pytest.mark.parametrize(
    ("other", "field", "words"),
    [
        (
            ("kenji", "JIM@example.com"),
            "email",
            "That email address is already used by the account kenji: each account needs "
            "its own, or a forgotten password cannot be reset by email.",
        ),
        (
            ("Jim", "kenji@example.com"),
            "username",
            "That username is already used by the account Jim, letter case aside: each "
            "account needs its own, as a player signs in with it typed in any case.",
        ),
    ],
)
def test_users_add_meets_another_account_made_meanwhile_and_says_so(
    gm: Client, monkeypatch: Any, other: tuple[str, str], field: str, words: str
) -> None:
    before = accounts()
    made = other_saves_first(
        monkeypatch,
        OwnAddressUserAdmin,
        lambda: get_user_model().objects.create_user(*other, password="pw"),
    )
    answer = gm.post(ADD, new_account("jim", "jim@example.com"))
    assert made, "the other account was made"
    assert errors_of(answer) == {field: [words]}
    assert accounts() == {**before, other[0]: other[1]}


def _change_data(gm: Client, user: Any) -> dict[str, Any]:
    form = gm.get(f"/admin/auth/user/{user.pk}/change/").context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None
        and name not in ("password", "groups", "user_permissions", "date_joined", "last_login")
    }
    data["date_joined_0"], data["date_joined_1"] = user.date_joined.strftime(
        "%Y-%m-%d %H:%M:%S"
    ).split()
    return data


@pytest.mark.parametrize(
    ("change", "other", "field", "words"),
    [
        (
            {"email": "new@example.com"},
            ("kenji", "NEW@example.com"),
            "email",
            "That email address is already used by the account kenji: each account needs "
            "its own, or a forgotten password cannot be reset by email.",
        ),
        (
            {"username": "hiro"},
            ("HIRO", "h@example.com"),
            "username",
            "That username is already used by the account HIRO, letter case aside: each "
            "account needs its own, as a player signs in with it typed in any case.",
        ),
    ],
)
def test_a_users_page_meets_another_account_changed_meanwhile_and_says_so(
    gm: Client,
    monkeypatch: Any,
    change: dict[str, str],
    other: tuple[str, str],
    field: str,
    words: str,
) -> None:
    player = get_user_model().objects.create_user("player", "p@example.com", "pw")
    data = _change_data(gm, player)
    before = accounts()
    other_saves_first(
        monkeypatch,
        OwnAddressUserAdmin,
        lambda: get_user_model().objects.create_user(*other, password="pw"),
    )
    answer = gm.post(f"/admin/auth/user/{player.pk}/change/", {**data, **change})
    assert errors_of(answer) == {field: [words]}
    assert accounts() == {**before, other[0]: other[1]}


def test_the_users_page_refuses_a_username_another_has_in_another_case(gm: Client) -> None:
    """Not only in a race: a rename to "GM" beside the account gm, which Django's change
    form let through and the database's index now refuses."""
    player = get_user_model().objects.create_user("player", "p@example.com", "pw")
    answer = gm.post(
        f"/admin/auth/user/{player.pk}/change/", {**_change_data(gm, player), "username": "GM"}
    )
    assert errors_of(answer) == {
        "username": [
            "That username is already used by the account gm, letter case aside: each "
            "account needs its own, as a player signs in with it typed in any case."
        ]
    }
    player.refresh_from_db()
    assert player.username == "player"
    # Its own name in another case is its own.
    answer = gm.post(
        f"/admin/auth/user/{player.pk}/change/", {**_change_data(gm, player), "username": "Player"}
    )
    assert answer.status_code == 302
    player.refresh_from_db()
    assert player.username == "Player"


def _memberships() -> set[tuple[int, int, str]]:
    return set(Membership.objects.values_list("campaign_id", "user_id", "side"))


def test_memberships_add_meets_the_same_player_added_meanwhile_and_says_so(
    gm: Client, monkeypatch: Any
) -> None:
    campaign = new_campaign()
    player = get_user_model().objects.create_user("player", "p@example.com", "pw")
    other_saves_first(
        monkeypatch,
        MembershipAdmin,
        lambda: Membership.objects.create(campaign=campaign, user=player, side="japanese"),
    )
    answer = gm.post(
        "/admin/campaign/membership/add/",
        {"user": player.pk, "campaign": campaign.pk, "side": "australian", "_save": "Save"},
    )
    assert errors_of(answer) == {
        "user": [
            "player is in Korona 1 already, as the Japanese: a player plays one side in a "
            "campaign, so change that membership instead."
        ]
    }
    assert _memberships() == {(campaign.pk, player.pk, "japanese")}


def test_memberships_add_refuses_a_player_in_the_campaign_already_by_name(gm: Client) -> None:
    campaign = new_campaign()
    player = get_user_model().objects.create_user("player", "p@example.com", "pw")
    mine = Membership.objects.create(campaign=campaign, user=player, side="spectator")
    answer = gm.post(
        "/admin/campaign/membership/add/",
        {"user": player.pk, "campaign": campaign.pk, "side": "australian", "_save": "Save"},
    )
    assert errors_of(answer) == {
        "user": [
            "player is in Korona 1 already, as a spectator: a player plays one side in a "
            "campaign, so change that membership instead."
        ]
    }
    # Its own membership, changed, is no clash.
    answer = gm.post(
        f"/admin/campaign/membership/{mine.pk}/change/",
        {"user": player.pk, "campaign": campaign.pk, "side": "australian", "_save": "Save"},
    )
    assert answer.status_code == 302
    assert _memberships() == {(campaign.pk, player.pk, "australian")}


def _players_page(gm: Client, campaign: Campaign, player: Any) -> dict[str, Any]:
    """The campaign's page as opened, with its name changed and ``player`` added to its
    players as the Australians."""
    page = gm.get(f"/admin/campaign/campaign/{campaign.pk}/change/")
    data: dict[str, Any] = {"name": "Korona renamed", "_save": "Save"}
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        data.update(
            {management.add_prefix(name): value for name, value in management.initial.items()}
        )
    data["memberships-TOTAL_FORMS"] = "1"
    data["memberships-0-user"] = player.pk
    data["memberships-0-side"] = "australian"
    return data


def _refused_players(answer: Any) -> list[Any]:
    assert answer.status_code == 200, answer
    return [
        error
        for formset in answer.context["inline_admin_formsets"]
        for error in formset.formset.errors
        if error
    ]


IN_ALREADY = [
    {
        "user": [
            "player is in this campaign already, as the Japanese, put there since this "
            "page was opened: open the page again to see it."
        ]
    }
]


def test_a_campaigns_players_refuse_one_put_in_since_the_page_was_opened(gm: Client) -> None:
    """Not a race: a page left open while the player was added (Memberships → Add), its
    row not on the page, so only the database's index stopped it (a 500)."""
    campaign = new_campaign()
    player = get_user_model().objects.create_user("player", "p@example.com", "pw")
    data = _players_page(gm, campaign, player)
    Membership.objects.create(campaign=campaign, user=player, side="japanese")
    answer = gm.post(f"/admin/campaign/campaign/{campaign.pk}/change/", data)
    assert _refused_players(answer) == IN_ALREADY
    assert _memberships() == {(campaign.pk, player.pk, "japanese")}
    assert Campaign.objects.get(pk=campaign.pk).name == "Korona 1"


def test_a_campaigns_players_meet_the_same_player_added_meanwhile_and_nothing_is_kept(
    gm: Client, monkeypatch: Any
) -> None:
    campaign = new_campaign()
    player = get_user_model().objects.create_user("player", "p@example.com", "pw")
    data = _players_page(gm, campaign, player)
    made = other_saves_first(
        monkeypatch,
        CampaignAdmin,
        lambda: Membership.objects.create(campaign=campaign, user=player, side="japanese"),
    )
    answer = gm.post(f"/admin/campaign/campaign/{campaign.pk}/change/", data)
    assert made
    assert _refused_players(answer) == IN_ALREADY
    assert _memberships() == {(campaign.pk, player.pk, "japanese")}
    # The campaign's own change, saved before its players broke the index, is undone too.
    assert Campaign.objects.get(pk=campaign.pk).name == "Korona 1"


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite's admin page holds the one write lock from its start, "
    "so another connection's save waits for it (and the test database is one in-memory "
    "connection that threads cannot share)",
)
@pytest.mark.django_db(transaction=True)
def test_a_second_game_masters_account_committed_meanwhile_is_refused_in_words(
    monkeypatch: Any,
) -> None:
    users = get_user_model().objects
    gm_user = users.create_superuser("gm", "gm@example.com", "pw")
    gm = Client()
    gm.force_login(gm_user)

    def in_another_connection() -> None:
        def other_gm() -> None:
            try:
                users.create_user("kenji", "Jim@Example.com", password="pw")
            finally:
                connections.close_all()

        thread = threading.Thread(target=other_gm)
        thread.start()
        thread.join(timeout=30)
        assert not thread.is_alive()

    other_saves_first(monkeypatch, OwnAddressUserAdmin, in_another_connection)
    answer = gm.post(ADD, new_account("jim", "jim@example.com"))
    assert errors_of(answer) == {
        "email": [
            "That email address is already used by the account kenji: each account needs "
            "its own, or a forgotten password cannot be reset by email."
        ]
    }
    assert accounts() == {"gm": "gm@example.com", "kenji": "Jim@example.com"}


def _preferences() -> set[tuple[int, int]]:
    return set(Preference.objects.values_list("user_id", "reminder_hours"))


PREFERENCE_TAKEN = "player has notice settings already (one row each): change that row instead."


def test_preferences_add_meets_the_same_players_settings_made_meanwhile(
    gm: Client, monkeypatch: Any
) -> None:
    """Two GMs adding notice settings for one player at the same moment: the second save
    broke the one-per-player index, a 500. Its page says the player has settings now."""
    player = get_user_model().objects.create_user("player", "p@example.com", "pw")
    made = other_saves_first(
        monkeypatch,
        PreferenceAdmin,
        lambda: Preference.objects.create(user=player, reminder_hours=24),
    )
    answer = gm.post(
        "/admin/notifications/preference/add/",
        {"user": player.pk, "email": "on", "reminder_hours": "6", "time_zone": "", "_save": "Save"},
    )
    assert made, "the other settings were made"
    assert errors_of(answer) == {"user": [PREFERENCE_TAKEN]}
    assert _preferences() == {(player.pk, 24)}
