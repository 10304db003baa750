"""Suite-wide checks.

CI sets KORONA_REQUIRE_SERVICES=1: then the run stops at once, with a reason, unless
DATABASE_URL names a PostgreSQL that accepts a connection and REDIS_URL a Redis that
answers PING. Without it the services tests would skip, and CI would pass on SQLite.
"""

from __future__ import annotations

import os
from typing import Any

import psycopg
import pytest
import redis

from config.env import read_bool

POSTGRES_SCHEMES = ("postgres://", "postgresql://", "pgsql://")
SERVICES_EXIT_CODE = 3


def database_problem(url: str) -> str | None:
    if not url:
        return "DATABASE_URL is not set"
    if not url.startswith(POSTGRES_SCHEMES):
        return f"DATABASE_URL is not a PostgreSQL URL (scheme {url.split(':', 1)[0]!r})"
    try:
        # libpq does not know pgsql://, which django-environ accepts as an alias.
        conninfo = url.replace("pgsql://", "postgresql://", 1)
        with psycopg.connect(conninfo, connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as error:
        return f"PostgreSQL at DATABASE_URL refused a connection: {error}".strip()
    return None


def redis_problem(url: str) -> str | None:
    if not url:
        return "REDIS_URL is not set"
    try:
        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError) as error:
        return f"Redis at REDIS_URL did not answer PING: {error}"
    return None


def pytest_sessionstart(session: pytest.Session) -> None:
    if not read_bool(os.environ, "KORONA_REQUIRE_SERVICES"):
        return
    problems = [
        problem
        for problem in (
            database_problem(os.environ.get("DATABASE_URL", "").strip()),
            redis_problem(os.environ.get("REDIS_URL", "").strip()),
        )
        if problem
    ]
    if problems:
        pytest.exit(
            "KORONA_REQUIRE_SERVICES=1 but the services are not usable:\n  - "
            + "\n  - ".join(problems),
            returncode=SERVICES_EXIT_CODE,
        )


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Tests make many users; a real password hash costs a third of a second each."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def own_cache(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Each test gets an empty cache of its own, never the shared Redis one: a cached map
    or odds chunk from one test must not answer another (ids repeat across tests)."""
    from django.core.cache import cache

    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"}
    }
    # A test changes a campaign and reads the page at once: the map's stamp is asked of the
    # database every time (tests/web/test_map_etag.py tests the second it is kept for).
    settings.KORONA_STAMP_SECONDS = 0
    # The odds are fought in the asking process at once, as Celery's eager mode runs a
    # task (tests/campaign/test_odds.py drives the process pool, tests/scheduling a worker).
    settings.KORONA_ODDS_BACKEND = "inline"
    # A balance plays its campaigns in the test's own process (tests/campaign/test_balance.py
    # shares them among processes).
    settings.KORONA_BALANCE_WORKERS = 1
    # Inline, the page's 1,000 battles would be fought by every test that draws an orders
    # page with an attack (minutes each): 20 in chunks of 10 unless a test sets its own.
    from campaign.services import planning

    monkeypatch.setattr(planning, "ODDS_RUNS", 20)
    monkeypatch.setattr(planning, "ODDS_CHUNK", 10)
    cache.clear()
    yield
    cache.clear()
