"""A game master without an email address is told, on the admin's home, that they get no
email when a battle waits for its tabletop result (README: "every staff user with an
email address"), with the way to give one: the first-run account ``gm`` had none, and a
walk-through waited for an email that never came."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

NOTICE = "You have no email address, so you will not be emailed when a battle waits"


def home_of(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.get("/admin/").content.decode()


def test_a_game_master_without_an_email_address_is_told_and_shown_where_to_give_one(
    django_user_model: Any,
) -> None:
    gm = django_user_model.objects.create_superuser("gm", "", "pw")
    page = home_of(gm)
    assert NOTICE in page
    assert f'<a href="/admin/auth/user/{gm.pk}/change/">give your email address</a>' in page
    client = Client()
    client.force_login(gm)
    assert 'name="email"' in client.get(f"/admin/auth/user/{gm.pk}/change/").content.decode()


def test_a_game_master_with_an_email_address_is_not(django_user_model: Any) -> None:
    gm = django_user_model.objects.create_superuser("gm", "gm@example.com", "pw")
    assert NOTICE not in home_of(gm)
