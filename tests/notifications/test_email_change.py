"""A player changes their own email address on their account page (campaign.web.accounts,
notifications.addresses.change_email): with their password, to an address no other account
has (trimmed and in any case, as the sign-up compares them), refused in words that name
no account, a few addresses an hour; the notices and reset links then go to the new one."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from campaign.models import Campaign
from campaign.services.turns import advance_turn
from notifications import addresses
from notifications.addresses import ADDRESSES_REFUSED
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db

CHANGE = "/accounts/email/"
TAKEN = (
    "This email address cannot be used for your account: each account needs one of its "
    "own. If it is on another Korona account of yours, change that account's address "
    "first; otherwise give another."
)
TOO_MANY = (
    "You have given too many email addresses that cannot be used, so for an hour this "
    "page takes none. Try again later, or ask the game master."
)


def change(client: Client, email: str, password: str = PASSWORD, **more: Any) -> Any:
    return client.post(CHANGE, {"email": email, "password": password}, **more)


def refused(answer: Any) -> dict[str, list[str]]:
    assert answer.status_code == 400
    form = answer.context["email_form"]
    return {name: list(errors) for name, errors in form.errors.items()}


def email_of(user: Any) -> str:
    return str(get_user_model().objects.get(pk=user.pk).email)


def test_a_player_changes_their_address_with_their_password(aussie: Any, login: Any) -> None:
    client = login(aussie)
    page = client.get("/accounts/").content.decode()
    assert 'Korona emails you at <strong class="long-link">a@example.com</strong>' in page
    answer = change(client, "  Bluey@Example.COM ", follow=True)
    assert answer.redirect_chain == [("/accounts/", 302)]
    page = answer.content.decode()
    assert "Your email address is now Bluey@Example.COM: Korona&#x27;s emails go there." in page
    assert 'Korona emails you at <strong class="long-link">Bluey@Example.COM</strong>' in page
    assert email_of(aussie) == "Bluey@Example.COM"  # trimmed, as the sign-up keeps it


def test_the_campaign_menu_is_kept_through_the_change(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    client = login(aussie)
    query = f"?campaign={campaign.pk}"
    page = client.get(f"/accounts/{query}").content.decode()
    assert f'action="/accounts/email/{query}"' in page
    answer = client.post(f"{CHANGE}{query}", {"email": "new@example.com", "password": PASSWORD})
    assert answer.status_code == 302 and answer.url == f"/accounts/{query}"


def test_the_turn_notices_then_go_to_the_new_address(
    campaign: Campaign, aussie: Any, login: Any, django_capture_on_commit_callbacks: Any
) -> None:
    assert change(login(aussie), "bluey@example.com").status_code == 302
    mail.outbox.clear()  # the old address told of the change
    with django_capture_on_commit_callbacks(execute=True):
        advance_turn(campaign_id=campaign.pk)
    assert sorted(message.to[0] for message in mail.outbox) == [
        "bluey@example.com",
        "j@example.com",
    ]


def test_a_forgotten_password_link_then_goes_to_the_new_address_only(
    aussie: Any, login: Any
) -> None:
    assert change(login(aussie), "bluey@example.com").status_code == 302
    mail.outbox.clear()  # the old address told of the change
    for address in ("a@example.com", "bluey@example.com"):
        Client().post("/accounts/password/reset/", {"email": address})
    assert [message.to for message in mail.outbox] == [["bluey@example.com"]]


def test_the_old_address_is_told_of_the_change(aussie: Any, login: Any, settings: Any) -> None:
    settings.KORONA_SITE_URL = "http://korona.test"
    assert change(login(aussie), "bluey@example.com").status_code == 302
    (message,) = mail.outbox
    assert message.to == ["a@example.com"]
    assert message.subject == "Korona: your email address was changed"
    assert message.body == (
        "The email address of your Korona account aussie is now bluey@example.com: "
        "Korona's emails, and any link for a forgotten password, go there from now on.\n\n"
        "If you changed it, there is nothing to do. If you did not, someone else can sign "
        "in as you: tell your game master at once, who can give the account its address "
        "back and a new password.\n\nKorona: http://korona.test/accounts/login/\n"
    )


def test_a_mail_server_that_fails_leaves_the_change_made(
    aussie: Any, login: Any, monkeypatch: Any
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError("connection refused")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    assert change(login(aussie), "bluey@example.com").status_code == 302
    assert email_of(aussie) == "bluey@example.com"


def test_a_players_own_address_in_another_case_is_theirs(aussie: Any, login: Any) -> None:
    assert change(login(aussie), "A@EXAMPLE.COM").status_code == 302
    assert email_of(aussie) == "A@EXAMPLE.COM"
    assert mail.outbox == []  # the same address: nobody to tell


@pytest.mark.parametrize("given", ["j@example.com", " J@Example.COM "])
def test_an_address_another_account_has_is_refused_naming_nobody_and_changes_nothing(
    aussie: Any, japanese: Any, login: Any, given: str
) -> None:
    answer = change(login(aussie), given)
    assert refused(answer) == {"email": [TAKEN]}
    page = answer.content.decode()
    assert "japanese" not in page
    assert answer.context["email_form"].fields["email"].widget.attrs.get("autofocus")
    assert (email_of(aussie), email_of(japanese)) == ("a@example.com", "j@example.com")


def test_a_wrong_password_changes_nothing_and_says_nothing_of_the_address(
    aussie: Any, japanese: Any, login: Any
) -> None:
    client = login(aussie)
    for address in ("j@example.com", "free@example.com"):
        answer = change(client, address, password="not it")
        assert refused(answer) == {"password": ["That is not your password: nothing was changed."]}
        assert answer.context["email_form"].fields["password"].widget.attrs.get("autofocus")
    assert email_of(aussie) == "a@example.com"
    # Nor was the taken address counted against the player.
    assert not addresses.refused_too_often(f"account:{aussie.pk}")


@pytest.mark.parametrize(
    ("data", "errors"),
    [
        ({}, {"email": ["Give your new email address."], "password": ["Give your password."]}),
        (
            {"email": "not an address", "password": PASSWORD},
            {"email": ["That is not an email address: it looks like name@example.com."]},
        ),
        (
            {"email": "a@example.com", "password": PASSWORD},
            {"email": ["That is your address already: nothing to change."]},
        ),
        (
            {"email": "x" * 250 + "@example.com", "password": PASSWORD},
            {"email": ["Ensure this value has at most 254 characters (it has 262)."]},
        ),
    ],
)
def test_bad_input_is_refused_in_words_and_changes_nothing(
    aussie: Any, login: Any, data: dict[str, str], errors: dict[str, list[str]]
) -> None:
    answer = login(aussie).post(CHANGE, data)
    assert refused(answer) == errors
    assert email_of(aussie) == "a@example.com"


def test_a_few_taken_addresses_an_hour_then_none(
    aussie: Any, login: Any, django_user_model: Any
) -> None:
    taken = [f"taken{n}@example.com" for n in range(ADDRESSES_REFUSED)]
    for n, address in enumerate(taken):
        django_user_model.objects.create_user(f"other{n}", address, "pw")
    client = login(aussie)
    for address in taken[:-1]:
        assert refused(change(client, address)) == {"email": [TAKEN]}
        # The same one again (a password put right, say) is not another try.
        assert refused(change(client, address.upper())) == {"email": [TAKEN]}
    assert refused(change(client, taken[-1])) == {"email": [TAKEN]}
    # The hour's tries are spent: every address is refused, a free one too.
    assert refused(change(client, "free@example.com")) == {"email": [TOO_MANY]}
    assert email_of(aussie) == "a@example.com"


def test_an_address_taken_by_a_sign_up_at_the_same_moment_is_refused_in_words(
    aussie: Any, login: Any, django_user_model: Any, monkeypatch: Any
) -> None:
    """The checks pass (the other account is not made yet), then the database's index
    refuses the save: the refusal is the same, and nothing changes."""
    django_user_model.objects.create_user("quick", "mine@example.com", "pw")
    monkeypatch.setattr(addresses, "email_taken", lambda email, user=None: False)
    answer = change(login(aussie), "MINE@example.com")
    assert refused(answer) == {"email": [TAKEN]}
    assert email_of(aussie) == "a@example.com"


def test_signed_out_or_without_the_csrf_token_nothing_changes(aussie: Any) -> None:
    answer = Client().post(CHANGE, {"email": "new@example.com", "password": PASSWORD})
    assert answer.status_code == 302 and answer.url.startswith("/accounts/login/")
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(aussie)
    assert change(forged, "new@example.com").status_code == 403
    assert email_of(aussie) == "a@example.com"


def test_the_change_address_opened_by_itself_is_the_account_page(aussie: Any, login: Any) -> None:
    answer = login(aussie).get(CHANGE)
    assert answer.status_code == 302 and answer.url == "/accounts/"


def test_an_account_without_an_address_is_told_to_give_one_here(
    django_user_model: Any, login: Any
) -> None:
    user = django_user_model.objects.create_user("nomail", "", PASSWORD)
    client = login(user)
    page = client.get("/accounts/").content.decode()
    assert "Your account has no email address" in page and "Give one here." in page
    notices = client.get("/accounts/notices/").content.decode()
    assert 'give one on <a href="/accounts/#email">your account' in notices
    assert change(client, "found@example.com").status_code == 302
    assert email_of(user) == "found@example.com"
    assert mail.outbox == []  # no old address to tell
