"""``manage.py createsuperuser``, the README's way to add another game master: a username
another account has in another letter case, or an email address another account uses,
is refused in plain words and nothing is made (it ended in the unique indexes'
IntegrityError traceback: notifications migrations 0006 and 0009)."""

from __future__ import annotations

import builtins
import getpass
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command, get_commands
from django.core.management.base import CommandError

from config.management.commands import createsuperuser

pytestmark = pytest.mark.django_db
PASSWORD = "a long enough password 7"


@pytest.fixture(autouse=True)
def first_gm(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("gm", "gm@example.com", PASSWORD)


@pytest.fixture
def password_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)


def accounts() -> list[str]:
    return sorted(get_user_model().objects.values_list("username", flat=True))


def noinput(**options: Any) -> str:
    out = StringIO()
    call_command("createsuperuser", interactive=False, stdout=out, stderr=StringIO(), **options)
    return out.getvalue()


def test_ours_is_the_command_django_runs() -> None:
    assert get_commands()["createsuperuser"] == "config"


@pytest.mark.usefixtures("password_env")
def test_a_username_taken_in_another_case_is_refused_in_words() -> None:
    with pytest.raises(CommandError) as refused:
        noinput(username="GM", email="second@example.com")
    assert "that username is already taken, as 'gm'" in str(refused.value)
    assert accounts() == ["gm"]
    assert "Superuser created successfully." in noinput(username="gm2", email="b@example.com")
    assert accounts() == ["gm", "gm2"]


@pytest.mark.usefixtures("password_env")
def test_an_email_in_use_is_refused_from_an_option_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(CommandError) as refused:
        noinput(username="second", email=" GM@Example.com")
    assert "another account uses that email address" in str(refused.value)
    assert "Nothing was created." in str(refused.value)
    monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "second")
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "gm@EXAMPLE.com")
    with pytest.raises(CommandError, match="another account uses that email address"):
        noinput()
    assert accounts() == ["gm"]
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "second@example.com")
    noinput()
    assert accounts() == ["gm", "second"]


class Terminal(StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What the GM types at the prompts, in order (the password prompts apart)."""
    answers: list[str] = []
    monkeypatch.setattr(builtins, "input", lambda message="": answers.pop(0))
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": PASSWORD)
    yield answers
    assert answers == []  # every answer was asked for


def test_at_the_prompts_a_taken_name_or_address_is_asked_again(typed: list[str]) -> None:
    typed.extend(["Gm", "second", "GM@example.com", "second@example.com"])
    err = StringIO()
    call_command("createsuperuser", stdin=Terminal(), stdout=StringIO(), stderr=err)
    assert "that username is already taken, as 'gm'" in err.getvalue()
    assert "another account uses that email address" in err.getvalue()
    assert accounts() == ["gm", "second"]


def test_an_email_option_in_use_ends_the_prompts_before_any(typed: list[str]) -> None:
    with pytest.raises(CommandError, match="another account uses that email address"):
        call_command("createsuperuser", email="gm@example.com", stdin=Terminal(), stdout=StringIO())
    assert accounts() == ["gm"]


@pytest.mark.django_db(transaction=True)  # as the command runs: each save its own
@pytest.mark.usefixtures("password_env")
def test_taken_at_the_same_moment_is_refused_in_words_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check passes, another account takes the address before the save (forced
    here): the database's refusal is said in words, and nothing was made."""
    monkeypatch.setattr(createsuperuser, "email_taken", lambda email, **_: False)
    with pytest.raises(CommandError, match="Another account took that username or email"):
        noinput(username="second", email="GM@example.com")
    assert accounts() == ["gm"]
