"""The configured services are the ones the suite really talks to.

In CI, tests/conftest.py has already stopped the run if PostgreSQL or Redis is missing,
so nothing here skips there.
"""

from __future__ import annotations

import os
import uuid

import pytest
import redis
from django.conf import settings
from django.db import connection

from config.env import read_database

pytestmark = pytest.mark.services


def expected_vendor() -> str:
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return "sqlite"
    if url.startswith(("postgres://", "postgresql://", "pgsql://")):
        return "postgresql"
    pytest.skip(f"no expectation for DATABASE_URL scheme {url.split(':', 1)[0]!r}")


@pytest.mark.django_db
def test_database_is_the_one_database_url_names() -> None:
    assert connection.vendor == expected_vendor()
    if connection.vendor == "postgresql":
        named = read_database(os.environ, base_dir=settings.BASE_DIR)
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_database(), inet_server_port()")
            name, port = cursor.fetchone()
        # pytest-django runs against test_<name> on the server the URL names.
        assert name == f"test_{named['NAME']}"
        assert port == (named["PORT"] or 5432)


def test_redis_round_trips_a_key() -> None:
    if settings.REDIS_URL is None:
        pytest.skip("REDIS_URL is not set: the embedded default runs without Redis")
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
    key = f"korona:test:{uuid.uuid4()}"
    try:
        client.set(key, "Korona", ex=60)
        assert client.get(key) == b"Korona"
    finally:
        client.delete(key)
        client.close()
