"""``manage.py first_run``: a way in on a fresh database, and nothing anywhere else."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from campaign.models import Campaign
from notifications.models import Invitation

pytestmark = pytest.mark.django_db


def run(**options: Any) -> str:
    out = StringIO()
    call_command("first_run", stdout=out, **options)
    return out.getvalue()


def test_a_fresh_database_gets_the_gm_a_campaign_and_a_link_per_side(
    django_user_model: Any,
) -> None:
    output = run(address="0.0.0.0:8123")
    password = re.search(r"user gm\s+password (\S+)", output)[1]
    gm = django_user_model.objects.get()
    assert gm.username == "gm" and gm.is_superuser and gm.is_staff
    assert gm.check_password(password)
    assert password not in gm.password  # stored hashed only
    campaign = Campaign.objects.get()
    assert campaign.name == "Korona" and campaign.turn == 0
    links = {i.side: i.token for i in Invitation.objects.filter(campaign=campaign)}
    assert set(links) == {"australian", "japanese"}
    assert f"Australians: http://127.0.0.1:8123/invite/{links['australian']}/" in output
    assert "http://127.0.0.1:8123/admin/" in output

    assert run() == ""  # a second run: nothing new
    assert django_user_model.objects.count() == 1 and Campaign.objects.count() == 1


def test_a_database_with_a_user_is_left_alone(django_user_model: Any) -> None:
    django_user_model.objects.create_user("someone", "", "x")
    assert run() == ""
    assert not Campaign.objects.exists()


def test_never_in_production(settings: Any, django_user_model: Any) -> None:
    settings.KORONA_PRODUCTION = True
    assert run() == ""
    assert not django_user_model.objects.exists() and not Campaign.objects.exists()


def test_the_account_says_it_has_no_email_address(django_user_model: Any) -> None:
    output = run()
    assert django_user_model.objects.get().email == ""
    assert "The account has no email address, so it gets no email" in output


def test_the_way_to_give_an_email_address_is_the_admin_homes_link(
    django_user_model: Any, client: Any
) -> None:
    """It said "in the admin (top right: your account)", where there is no such link."""
    output = run()
    assert 'on the admin\'s home page (its link\n  "give your email address")' in output
    assert "top right: your account" not in output
    client.force_login(django_user_model.objects.get())
    home = client.get("/admin/").content.decode()
    assert ">give your email address</a>" in home


def test_the_account_takes_an_email_address_given(django_user_model: Any) -> None:
    output = run(email="gm@example.com")
    assert django_user_model.objects.get().email == "gm@example.com"
    assert "Its email address: gm@example.com" in output
    assert "no email address" not in output


def test_the_account_takes_an_email_address_from_the_environment(
    monkeypatch: Any, django_user_model: Any
) -> None:
    monkeypatch.setenv("KORONA_GM_EMAIL", "table@example.com")
    run()
    assert django_user_model.objects.get().email == "table@example.com"


def test_an_email_address_that_is_none_makes_nothing(django_user_model: Any) -> None:
    with pytest.raises(CommandError, match="not an email address: 'gm at home'"):
        run(email="gm at home")
    assert not django_user_model.objects.exists() and not Campaign.objects.exists()
