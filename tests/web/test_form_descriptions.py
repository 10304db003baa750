"""Every player-facing form says what each field wants, and every field's
``aria-describedby`` points at an element on the page (a screen reader reads nothing for
an id that is not there): the sign-up of an invitation, the sign-in, the password pages,
the email settings; each shown fresh and with its errors."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.password_validation import password_validators_help_texts
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from campaign.models import Campaign
from notifications.invitations import invitation_url, invite

pytestmark = pytest.mark.django_db


class _Described(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.described_by: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        for target in (found.get("aria-describedby") or "").split():
            self.described_by.append((str(found.get("name") or tag), target))


def dangling(html: str) -> list[tuple[str, str]]:
    """Each (field, id) whose ``aria-describedby`` names an id the page lacks."""
    page = _Described()
    page.feed(html)
    return [(field, target) for field, target in page.described_by if target not in page.ids]


def described(html: str) -> list[tuple[str, str]]:
    page = _Described()
    page.feed(html)
    return page.described_by


def invitation_path(campaign: Campaign) -> str:
    return invitation_url(invite(campaign=campaign, side="japanese")).removeprefix(
        "http://korona.test"
    )


def reset_path(client: Client, user: Any) -> str:
    """The reset link's page (Django moves the token into the session, then redirects)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    answer = client.get(reverse("password_reset_confirm", args=[uid, token]))
    assert answer.status_code == 302
    return str(answer.url)


BAD_SIGN_UP = {"username": "", "email": "nope", "password1": "123", "password2": "456"}
BAD_PASSWORDS = {"old_password": "wrong", "new_password1": "123", "new_password2": "456"}


@pytest.mark.parametrize("errors", [False, True], ids=["fresh", "with-errors"])
def test_every_aria_describedby_on_the_invitations_sign_up_exists(
    campaign: Campaign, errors: bool
) -> None:
    path = invitation_path(campaign)
    client = Client()
    answer = client.post(path, BAD_SIGN_UP) if errors else client.get(path)
    html = answer.content.decode()
    assert answer.status_code == (400 if errors else 200)
    assert described(html), "the sign-up's fields have no description"
    assert dangling(html) == []


def test_the_sign_up_shows_the_password_rules_before_any_is_broken(campaign: Campaign) -> None:
    """Each of the validators' rules, each in its own sentence, described for the
    password field, before a player has typed anything."""
    html = Client().get(invitation_path(campaign)).content.decode()
    rules = html.split('id="id_password1_helptext"')[1].split("</ul>")[0]
    for rule in password_validators_help_texts():
        assert f"<li>{rule}</li>" in rules.replace("&#x27;", "'")
    assert ("password1", "id_password1_helptext") in described(html)


def test_the_sign_up_and_password_change_word_their_fields_as_the_pages_do(
    campaign: Campaign, aussie: Any, login: Callable[[Any], Client]
) -> None:
    """Not Django's "Required. 150 characters or fewer." nor "Enter the same password as
    before, for verification.": the second password is "The same again", as on the
    reset page."""
    sign_up = Client().get(invitation_path(campaign)).content.decode()
    change = login(aussie).get(reverse("password-change")).content.decode()
    assert "Up to 150 characters: letters, digits and @ . + - _ only." in sign_up
    assert '<label for="id_password2">The same again</label>' in sign_up
    assert '<label for="id_new_password2">The same again</label>' in change
    for html in (sign_up, change):
        assert "Required." not in html and "for verification" not in html


@pytest.mark.parametrize(
    "page",
    ["account", "notice-preferences", "password-change"],
)
@pytest.mark.parametrize("who", ["aussie", "gm_user"])
def test_every_aria_describedby_on_the_account_pages_exists(
    request: pytest.FixtureRequest, login: Callable[[Any], Client], page: str, who: str
) -> None:
    html = login(request.getfixturevalue(who)).get(reverse(page)).content.decode()
    assert dangling(html) == []


def test_every_aria_describedby_on_the_password_change_with_errors_exists(
    aussie: Any, login: Callable[[Any], Client]
) -> None:
    answer = login(aussie).post(reverse("password-change"), BAD_PASSWORDS)
    html = answer.content.decode()
    assert answer.status_code == 200 and 'aria-invalid="true"' in html
    assert dangling(html) == []


def test_the_password_change_shows_the_password_rules(
    aussie: Any, login: Callable[[Any], Client]
) -> None:
    html = login(aussie).get(reverse("password-change")).content.decode()
    assert ("new_password1", "id_new_password1_helptext") in described(html)
    rules = html.split('id="id_new_password1_helptext"')[1].split("</ul>")[0]
    for rule in password_validators_help_texts():
        assert f"<li>{rule}</li>" in rules.replace("&#x27;", "'")


def test_every_aria_describedby_on_the_email_settings_with_errors_exists(
    aussie: Any, login: Callable[[Any], Client]
) -> None:
    answer = login(aussie).post(
        reverse("notice-preferences"), {"email": "on", "reminder_hours": "0", "time_zone": "Mars"}
    )
    html = answer.content.decode()
    assert answer.status_code == 400 and 'aria-invalid="true"' in html
    assert dangling(html) == []


@pytest.mark.parametrize("errors", [False, True], ids=["fresh", "with-errors"])
def test_every_aria_describedby_on_the_sign_in_and_reset_pages_exists(
    aussie: Any, errors: bool
) -> None:
    client = Client()
    pages = [reverse("login"), reverse("password_reset"), reset_path(client, aussie)]
    for path in pages:
        if errors:
            answer = client.post(
                path, {"username": "aussie", "password": "x", "email": "x", **BAD_PASSWORDS}
            )
        else:
            answer = client.get(path)
        assert answer.status_code in (200, 400), (path, answer.status_code)
        assert dangling(answer.content.decode()) == [], path


def test_the_reset_page_shows_each_password_rule_apart_and_describes_the_field(
    aussie: Any,
) -> None:
    """Not the rules' sentences run together ("information.Your password must")."""
    client = Client()
    html = client.get(reset_path(client, aussie)).content.decode()
    assert ("new_password1", "id_new_password1_helptext") in described(html)
    rules = html.split('id="id_new_password1_helptext"')[1].split("</ul>")[0]
    for rule in password_validators_help_texts():
        assert f"<li>{rule}</li>" in rules.replace("&#x27;", "'")
