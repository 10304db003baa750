from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import Client

from config.env import (
    DEVELOPMENT_SECRET_KEY,
    read_bool,
    read_database,
    read_int,
    read_list,
    read_rate,
    read_redis_url,
    read_secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("value", ["1", "true", "True", "YES", "on", " 1 "])
def test_debug_words_for_true_turn_it_on(value: str) -> None:
    assert read_bool({"DEBUG": value}, "DEBUG") is True


@pytest.mark.parametrize("value", ["0", "false", "False", "no", "off", ""])
def test_debug_words_for_false_turn_it_off(value: str) -> None:
    assert read_bool({"DEBUG": value}, "DEBUG") is False


def test_debug_is_off_when_unset() -> None:
    assert read_bool({}, "DEBUG") is False


@pytest.mark.parametrize("value", ["2", "ture", "enabled", "debug"])
def test_bad_debug_value_is_refused_with_its_name_and_value(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=rf"DEBUG='{value}' is not a boolean"):
        read_bool({"DEBUG": value}, "DEBUG")


def test_sqlite_beside_the_code_when_database_url_unset(tmp_path: Path) -> None:
    database = read_database({}, base_dir=tmp_path)
    assert database == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": tmp_path / "korona.sqlite3",
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 60.0,
            "init_command": "PRAGMA journal_mode=WAL",
        },
    }


@pytest.mark.parametrize("url", ["", "sqlite:////tmp/korona.sqlite3"])
def test_sqlite_writers_wait_for_the_lock_from_the_start(tmp_path: Path, url: str) -> None:
    """Concurrent writers on SQLite queue for the write lock at BEGIN (IMMEDIATE), for up
    to KORONA_SQLITE_TIMEOUT seconds, instead of failing with "database is locked"."""
    env = {"DATABASE_URL": url, "KORONA_SQLITE_TIMEOUT": "12"}
    options = read_database(env, base_dir=tmp_path)["OPTIONS"]
    assert (options["transaction_mode"], options["timeout"]) == ("IMMEDIATE", 12.0)
    with pytest.raises(ImproperlyConfigured, match="KORONA_SQLITE_TIMEOUT"):
        read_database({"KORONA_SQLITE_TIMEOUT": "0"}, base_dir=tmp_path)


def test_postgres_gets_no_sqlite_options(tmp_path: Path) -> None:
    database = read_database({"DATABASE_URL": "postgres://db/korona"}, base_dir=tmp_path)
    assert "transaction_mode" not in database.get("OPTIONS", {})


def test_a_write_that_waited_too_long_for_sqlite_is_a_503_not_a_500() -> None:
    from django.db import OperationalError
    from django.test import RequestFactory

    from config.busy import DatabaseBusyMiddleware

    def locked(request: Any) -> Any:
        raise OperationalError("database is locked")

    middleware = DatabaseBusyMiddleware(locked)
    for path, kind in (("/admin/x/", "text/plain"), ("/api/campaigns/1/ready/", "application")):
        request = RequestFactory().post(path)
        response = middleware.process_exception(request, OperationalError("database is locked"))
        assert response.status_code == 503
        assert response["Retry-After"] == "5"
        assert response["Content-Type"].startswith(kind)
        assert b"Nothing was changed" in response.content
    other = middleware.process_exception(RequestFactory().get("/"), OperationalError("no table"))
    assert other is None


def test_postgres_database_url_is_parsed(tmp_path: Path) -> None:
    env = {"DATABASE_URL": "postgres://korona:secret@db.example:5433/korona"}
    database = read_database(env, base_dir=tmp_path)
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == (
        "korona",
        "korona",
        "secret",
    )
    assert (database["HOST"], database["PORT"]) == ("db.example", 5433)


@pytest.mark.parametrize("url", ["postgress://db/korona", "db.example/korona"])
def test_database_url_with_unknown_scheme_is_refused(tmp_path: Path, url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL has an unknown scheme"):
        read_database({"DATABASE_URL": url}, base_dir=tmp_path)


def test_database_url_with_bad_port_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL is not a usable"):
        read_database({"DATABASE_URL": "postgres://db:port/korona"}, base_dir=tmp_path)


def test_development_secret_key_outside_production() -> None:
    assert read_secret_key({}, production=False) == DEVELOPMENT_SECRET_KEY


def test_secret_key_from_the_environment_wins() -> None:
    assert read_secret_key({"SECRET_KEY": "s3cret"}, production=True) == "s3cret"


def test_production_without_secret_key_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        read_secret_key({"SECRET_KEY": " "}, production=True)


def test_allowed_hosts_default_and_from_environment() -> None:
    default = ["localhost", "127.0.0.1", "[::1]"]
    assert read_list({}, "ALLOWED_HOSTS", default=default) == default
    env = {"ALLOWED_HOSTS": "korona.example, www.korona.example"}
    assert read_list(env, "ALLOWED_HOSTS", default=default) == [
        "korona.example",
        "www.korona.example",
    ]


def test_allowed_hosts_with_an_empty_item_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="empty item"):
        read_list({"ALLOWED_HOSTS": "korona.example,,"}, "ALLOWED_HOSTS", default=[])


def test_redis_url_is_none_when_unset_and_checked_when_set() -> None:
    assert read_redis_url({}) is None
    assert read_redis_url({"REDIS_URL": "redis://127.0.0.1:6379/0"}) == "redis://127.0.0.1:6379/0"
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must start with"):
        read_redis_url({"REDIS_URL": "127.0.0.1:6379"})


def run_bare(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Python with ``args`` and only what a bare shell has, plus ``env``: the embedded
    default must need no variables at all."""
    bare = {name: os.environ[name] for name in ("PATH", "HOME") if name in os.environ}
    return subprocess.run(
        [sys.executable, *args],
        env={**bare, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_settings_in_subprocess(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'debug': s.DEBUG, 'engine': s.DATABASES['default']['ENGINE'], "
        "'name': str(s.DATABASES['default']['NAME']), 'redis': s.REDIS_URL}))"
    )
    return run_bare(["-c", script], env)


def test_settings_load_with_no_environment_as_the_embedded_default() -> None:
    result = run_settings_in_subprocess({})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "debug": False,
        "engine": "django.db.backends.sqlite3",
        "name": str(BASE_DIR / "korona.sqlite3"),
        "redis": None,
    }


def test_sending_a_task_on_the_embedded_default_logs_no_warning() -> None:
    """Without Redis every task runs at once, but Celery still takes a producer from its
    broker, the in-memory one; a broker URL without a host made kombu warn "No hostname
    was supplied" on the console of every ``dev.py run`` and ``dev.py demo``."""
    script = (
        "import django; django.setup(); "
        "from config.celery import app; "
        "producer = app.producer_pool.acquire(block=True); producer.release(); print('sent')"
    )
    result = run_bare(["-c", script], {})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "sent"
    assert result.stderr == ""


def test_settings_refuse_to_load_with_a_bad_debug_value() -> None:
    result = run_settings_in_subprocess({"DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_healthz_answers_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True}


def test_system_checks_pass() -> None:
    call_command("check", fail_level="WARNING")


def test_read_number_reads_a_number_and_refuses_anything_else() -> None:
    from django.core.exceptions import ImproperlyConfigured

    from config.env import read_number

    assert read_number({}, "X", default=30) == 30
    assert read_number({"X": " 2.5 "}, "X", default=30) == 2.5
    for bad in ("soon", "nan", "-1"):
        with pytest.raises(ImproperlyConfigured, match="X="):
            read_number({"X": bad}, "X", default=30)


def test_the_front_door_leads_to_the_players_list_of_campaigns(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert response.url == "/campaigns/"


PRODUCTION = {
    "KORONA_PRODUCTION": "1",
    "SECRET_KEY": "x7!Jq2#pLr9@vT4$wN8^zB1&kD6*mF3(hS5)gC0-yA2+eU7=oI9_uR4~tW1]nQ8",
    "ALLOWED_HOSTS": "korona.example.com",
}


def test_production_settings_pass_the_deploy_checks_with_no_warnings() -> None:
    result = run_bare(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_settings_send_plain_http_to_https_and_keep_cookies_secure() -> None:
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0]))"
    )
    result = run_bare(["-c", script], PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [True, True, True, True]


@pytest.mark.parametrize("value", ["60/minute", "5/s", "1200/min", "100/day", " 10/hour "])
def test_a_throttle_rate_is_requests_per_period(value: str) -> None:
    assert read_rate({"R": value}, "R", default="1/s") == value.strip()


def test_an_unset_throttle_rate_is_the_default() -> None:
    assert read_rate({}, "R", default="60/minute") == "60/minute"


@pytest.mark.parametrize("value", ["fast", "60", "60/fortnight", "0/minute", "-1/s", "x/minute"])
def test_a_throttle_rate_that_cannot_be_read_stops_django(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="is not a rate"):
        read_rate({"R": value}, "R", default="1/s")


# --- whole numbers; the trusted proxies -------------------------------------------------


def test_read_int_reads_a_whole_number_within_bounds() -> None:
    assert read_int({}, "N", default=0, maximum=10) == 0
    assert read_int({"N": " 2 "}, "N", default=0, maximum=10) == 2
    for bad, reason in [
        ("1.5", "is not a whole number"),
        ("two", "is not a whole number"),
        ("-1", "must be from 0 to 10"),
        ("11", "must be from 0 to 10"),
    ]:
        with pytest.raises(ImproperlyConfigured, match=f"N='{bad}' {reason}"):
            read_int({"N": bad}, "N", default=0, maximum=10)


def test_trusted_proxies_default_to_none_and_reach_drf_and_axes() -> None:
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.KORONA_TRUSTED_PROXIES, s.REST_FRAMEWORK['NUM_PROXIES'], "
        "s.AXES_CLIENT_IP_CALLABLE, s.AXES_LOCKOUT_PARAMETERS]))"
    )
    lockout = [["username", "ip_address"]]
    result = run_bare(["-c", script], {})
    assert json.loads(result.stdout) == [0, 0, "config.proxies.client_ip", lockout]
    result = run_bare(["-c", script], {"KORONA_TRUSTED_PROXIES": "2"})
    assert json.loads(result.stdout) == [2, 2, "config.proxies.client_ip", lockout]
    result = run_bare(["-c", script], {"KORONA_TRUSTED_PROXIES": "one"})
    assert result.returncode != 0
    assert "KORONA_TRUSTED_PROXIES='one' is not a whole number" in result.stderr


# --- server errors are logged with their traceback, DEBUG on or off ---------------------

BOOM = """
import django
from django.conf import settings
django.setup()
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import include, path

def boom(request):
    raise ZeroDivisionError("the view went wrong")

def fine(request):
    return HttpResponse("fine")

# The project's URLs too: the friendly 404 page links the campaigns and the admin.
urlpatterns = [path("boom/", boom), path("fine/", fine), path("", include("config.urls"))]
settings.ALLOWED_HOSTS.append("testserver")
with override_settings(ROOT_URLCONF="__main__"):
    client = Client(raise_request_exception=False)
    print(client.get("/fine/").status_code, client.get("/nothing/").status_code,
          client.get("/boom/").status_code)
"""


@pytest.mark.parametrize("debug", ["0", "1"])
def test_a_server_error_is_logged_with_its_traceback_to_stderr(debug: str) -> None:
    result = run_bare(["-c", BOOM], {"DEBUG": debug})
    assert result.stdout.split() == ["200", "404", "500"], result.stderr
    assert "ERROR django.request: Internal Server Error: /boom/" in result.stderr
    assert "Traceback (most recent call last):" in result.stderr
    assert "ZeroDivisionError: the view went wrong" in result.stderr
    assert result.stderr.count("Internal Server Error") == 1  # once, not once per handler
    assert "/nothing/" not in result.stderr  # a 404 is no server error
