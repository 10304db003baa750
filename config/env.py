"""Typed readers for Korona's environment variables.

Each reader takes the environment as a mapping, so the tests can hand it one, and
raises ImproperlyConfigured on a value it cannot use instead of guessing: a typo in
``DEBUG`` must not quietly turn debugging on (or off) in production.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})

# Only for development and tests: KORONA_PRODUCTION=1 refuses to start without SECRET_KEY.
DEVELOPMENT_SECRET_KEY = "django-insecure-korona-development-key-never-use-in-production"

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def read_bool(env: Mapping[str, str], name: str, *, default: bool = False) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off`` (any case); unset means ``default``."""
    if name not in env:
        return default
    word = env[name].strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={env[name]!r} is not a boolean: use 1/true/yes/on or 0/false/no/off"
    )


def read_number(env: Mapping[str, str], name: str, *, default: float, minimum: float = 0) -> float:
    """A number of at least ``minimum``; unset or blank means ``default``."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None
    if not value >= minimum:  # also refuses nan
        raise ImproperlyConfigured(f"{name}={raw!r} must be at least {minimum:g}")
    return value


def read_int(
    env: Mapping[str, str], name: str, *, default: int, minimum: int = 0, maximum: int
) -> int:
    """A whole number from ``minimum`` to ``maximum``; unset or blank means ``default``."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None
    if not minimum <= value <= maximum:
        raise ImproperlyConfigured(f"{name}={raw!r} must be from {minimum} to {maximum}")
    return value


RATE_PERIODS = ("s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day")


def read_rate(env: Mapping[str, str], name: str, *, default: str) -> str:
    """A throttle rate as DRF reads it, "<requests>/<period>" (``60/minute``, ``5/s``)."""
    raw = env.get(name, "").strip() or default
    count, _, period = raw.partition("/")
    if not count.isdigit() or int(count) < 1 or period not in RATE_PERIODS:
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not a rate: give requests per period, e.g. 60/minute "
            f"(periods: {', '.join(RATE_PERIODS)})"
        )
    return raw


def read_list(env: Mapping[str, str], name: str, *, default: list[str]) -> list[str]:
    """A comma-separated list; unset or blank means ``default``."""
    raw = env.get(name, "").strip()
    if not raw:
        return list(default)
    items = [item.strip() for item in raw.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(f"{name}={raw!r} has an empty item")
    return items


def read_secret_key(env: Mapping[str, str], *, production: bool) -> str:
    key = env.get("SECRET_KEY", "").strip()
    if key:
        return key
    if production:
        raise ImproperlyConfigured("SECRET_KEY must be set when KORONA_PRODUCTION is on")
    return DEVELOPMENT_SECRET_KEY


# SQLite, the embedded default, takes one writer at a time. Every transaction asks for the
# write lock when it begins (IMMEDIATE), so a second writer waits for the first (up to
# KORONA_SQLITE_TIMEOUT seconds) instead of failing with "database is locked" when it
# tries to upgrade a read lock midway; WAL lets pages read while a turn is written.
SQLITE_TIMEOUT = 60.0
SQLITE_INIT = "PRAGMA journal_mode=WAL"


def sqlite_options(env: Mapping[str, str]) -> dict[str, Any]:
    timeout = read_number(env, "KORONA_SQLITE_TIMEOUT", default=SQLITE_TIMEOUT, minimum=1)
    return {"transaction_mode": "IMMEDIATE", "timeout": timeout, "init_command": SQLITE_INIT}


def read_database(env: Mapping[str, str], *, base_dir: Path) -> dict[str, Any]:
    """``DATABASE_URL`` parsed by django-environ; unset means SQLite beside the code.
    A SQLite database gets the options for concurrent writers (``sqlite_options``)."""
    url = env.get("DATABASE_URL", "").strip()
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": base_dir / "korona.sqlite3",
            "OPTIONS": sqlite_options(env),
        }
    # django-environ would take an unknown scheme as the dotted path of a custom backend.
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme not in environ.Env.DB_SCHEMES:
        raise ImproperlyConfigured(
            f"DATABASE_URL has an unknown scheme {scheme!r}: use e.g. postgres://user@host/korona"
        )
    try:
        config = environ.Env.db_url_config(url)
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a usable database URL: {error}") from error
    if config.get("ENGINE") == "django.db.backends.sqlite3":
        config["OPTIONS"] = {**sqlite_options(env), **config.get("OPTIONS", {})}
    return config


def read_redis_url(env: Mapping[str, str]) -> str | None:
    """``REDIS_URL``, or None when unset: the embedded default runs without Redis."""
    url = env.get("REDIS_URL", "").strip()
    if not url:
        return None
    if not url.startswith(REDIS_SCHEMES):
        raise ImproperlyConfigured(
            f"REDIS_URL must start with one of {', '.join(REDIS_SCHEMES)}, not {url!r}"
        )
    return url


def read_email_url(env: Mapping[str, str]) -> dict[str, Any]:
    """``EMAIL_URL`` as django-environ reads it (``smtp+tls://user:password@host:587``)
    into Django's EMAIL_* settings; unset or blank gives none (the caller's default)."""
    raw = env.get("EMAIL_URL", "").strip()
    if not raw:
        return {}
    scheme = raw.split("://", 1)[0] if "://" in raw else ""
    if scheme not in environ.Env.EMAIL_SCHEMES:
        raise ImproperlyConfigured(
            f"EMAIL_URL has scheme {scheme!r}: use one of {', '.join(environ.Env.EMAIL_SCHEMES)} "
            "(for example smtp+tls://user:password@smtp.example.com:587)"
        )
    config = environ.Env.email_url_config(raw)
    if scheme == "filemail":
        # django-environ drops the leading "/" of the path: filemail:///srv/korona/mail
        # would write under srv/korona/mail in each process's own working directory.
        parts = urlsplit(raw)
        if parts.netloc or not parts.path.strip("/"):
            raise ImproperlyConfigured(
                f"EMAIL_URL {raw!r} names no absolute directory for the emails: "
                "write it as filemail:///srv/korona/mail (three slashes, then the path)"
            )
        config["EMAIL_FILE_PATH"] = "/" + parts.path.lstrip("/")
    return {key: value for key, value in config.items() if value not in (None, "")}
