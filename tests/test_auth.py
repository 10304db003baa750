"""The signed-in user is read through the cache (config.auth), and dropped from it the
moment the user is saved or deleted."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_second_page_reads_the_user_from_the_cache(
    django_user_model: Any, django_assert_num_queries: Any
) -> None:
    user = django_user_model.objects.create_user("reader", password="a long password here")
    client = signed_in(user)
    client.get(reverse("campaigns"))
    # the campaigns and the memberships; neither the session nor the user
    with django_assert_num_queries(2):
        assert client.get(reverse("campaigns")).status_code == 200


def test_a_deactivated_user_is_signed_out_at_once(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("reader", password="a long password here")
    client = signed_in(user)
    assert client.get(reverse("campaigns")).status_code == 200
    user.is_active = False
    user.save()
    response = client.get(reverse("campaigns"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_new_password_ends_the_other_sessions_at_once(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("reader", password="a long password here")
    elsewhere = signed_in(user)
    assert elsewhere.get(reverse("campaigns")).status_code == 200
    user.set_password("another long password")
    user.save()
    assert elsewhere.get(reverse("campaigns")).status_code == 302


def test_a_deleted_user_is_forgotten(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("reader", password="a long password here")
    client = signed_in(user)
    assert client.get(reverse("campaigns")).status_code == 200
    user.delete()
    assert client.get(reverse("campaigns")).status_code == 302


def test_a_staff_flag_given_in_the_admin_takes_effect_at_once(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("reader", password="a long password here")
    client = signed_in(user)
    assert client.get("/admin/").status_code == 302
    user.is_staff = True
    user.is_superuser = True
    user.save()
    assert client.get("/admin/").status_code == 200
