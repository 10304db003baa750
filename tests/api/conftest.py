"""The API tests use the page tests' fixtures (the GM, the players, the campaigns), plus a
client that signs in with an API token and a clean throttle cache for every test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.web.conftest import *  # noqa: F403
from tests.web.conftest import (  # noqa: F401
    PASSWORD,
    aussie,
    big_campaign,
    campaign,
    gm_user,
    japanese,
    login,
    outsider,
    played,
)


@pytest.fixture(autouse=True)
def fresh_throttles() -> Iterator[None]:
    """Throttle counts live in the cache, keyed by user id; ids repeat between tests."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def token_client() -> Callable[[Any], APIClient]:
    def signed_in(user: Any) -> APIClient:
        client = APIClient()
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return signed_in
