"""Web speed: the map page and the API lists under load, beside a plain JsonResponse.

    python bench/web.py [--seconds 10] [--connections 8] [--workers 2]

Serves the project with gunicorn (sync workers) on a scratch database (a temporary SQLite
file unless DATABASE_URL is set: give it one you can spare) holding the Korona campaign
after two turns, signed in as the Australian player, and loads it with wrk (Debian's
``wrk``): first ``/healthz``, a plain ``JsonResponse`` view with no database work, as the
ceiling; then the map page as a browser reloads it (session and CSRF cookies, and the
page's ETag in If-None-Match: 304 while the campaign has not changed), the map page drawn
(the same without If-None-Match: the first view after a turn), the map's live poll while
nothing changed (204), and every list of the API (token). Prints p50 and p95 latency,
requests per second and the share of the ceiling for each; the targets: the map page at
more than half, every API list at 40% or more. A benchmark prints figures; it asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench-web.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# The bench measures the pages, not the throttle's limit: a rate it never reaches. Per
# second, not per minute: DRF's throttle keeps (and pickles, every request) the times of
# every request in its window, so a minute of this load (over 100,000 times) cost each
# API request more than the list itself, and the later targets ever more (the lists fell
# from 44% to 14% of the ceiling along the run). A second's window holds about as many
# as the shipped rate's (1200/minute) ever does.
os.environ.setdefault("KORONA_API_USER_RATE", "100000000/second")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.sessions.backends.cached_db import SessionStore  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils.crypto import get_random_string  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from campaign.models import Membership  # noqa: E402
from campaign.services.scenarios import create_campaign  # noqa: E402
from campaign.services.turns import advance_turn  # noqa: E402
from campaign.web.maps import map_stamp  # noqa: E402

KORONA = ROOT / "fixtures" / "scenarios" / "korona.json"
BIN = Path(sys.executable).parent
# wrk's own summary lacks p95: a small script prints the percentiles as JSON.
WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format('{"p50": %d, "p95": %d, "requests": %d, "seconds": %f}\\n',
    latency:percentile(50), latency:percentile(95), summary.requests,
    summary.duration / 1000000))
end
"""


@dataclass
class Figures:
    name: str
    rps: float
    p50_ms: float
    p95_ms: float
    requests: int
    bad: int


def prepare() -> tuple[int, str, str, str]:
    """Migrate, create the campaign after two turns and its player: (id, session, token,
    the map's stamp for its live poll)."""
    call_command("migrate", verbosity=0)
    doc = json.loads(KORONA.read_text())
    campaign = create_campaign(data=doc, name=f"Korona bench {time.time_ns()}", seed=11)
    for _ in range(2):
        advance_turn(campaign_id=campaign.pk)
    user = get_user_model().objects.create_user(f"bench-{time.time_ns()}", password=None)
    Membership.objects.create(user=user, campaign=campaign, side="australian")
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "config.auth.CachedModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    token = Token.objects.create(user=user)
    stamp = map_stamp(user=user, campaign_id=campaign.pk)
    return campaign.pk, session.session_key, token.key, stamp.token


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int, workers: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "config.wsgi:application",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
    )
    deadline = time.monotonic() + 120  # a loaded machine starts the workers slowly
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not answer /healthz within 120 s")


def check_page(url: str, headers: dict[str, str]) -> str:
    """One request first: a bench of an error page would measure the wrong thing. Gives
    the answer's ETag ("" if none)."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, etag = response.status, response.headers.get("ETag", "")
    except urllib.error.HTTPError as answer:  # urllib raises for a 304 too
        status, etag = answer.code, answer.headers.get("ETag", "")
    if status not in (200, 204, 304):
        raise SystemExit(f"{url} answered {status}, not 200")
    return etag


def run_wrk(
    name: str, url: str, headers: dict[str, str], *, seconds: int, connections: int
) -> Figures:
    check_page(url, headers)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT)
    command = ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "-s", script.name]
    for key, value in headers.items():
        command += ["-H", f"{key}: {value}"]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    os.unlink(script.name)
    summary = json.loads(output.strip().splitlines()[-1])
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return Figures(
        name=name,
        rps=summary["requests"] / summary["seconds"],
        p50_ms=summary["p50"] / 1000,
        p95_ms=summary["p95"] / 1000,
        requests=summary["requests"],
        bad=int(bad.group(1)) if bad else 0,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=10, help="load per target (10)")
    parser.add_argument("--connections", type=int, default=8, help="open connections (8)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("bench/web.py needs wrk: apt-get install wrk")

    campaign_id, session_key, token, stamp = prepare()
    port = free_port()
    server = start_gunicorn(port, args.workers)
    base = f"http://127.0.0.1:{port}"
    # As a browser sends them after its first page: the session and the CSRF cookie.
    cookie = {"Cookie": f"sessionid={session_key}; csrftoken={get_random_string(32)}"}
    map_url = f"{base}/campaigns/{campaign_id}/"
    # A reload sends back the ETag of the page the browser holds.
    reload = {**cookie, "If-None-Match": check_page(map_url, cookie)}
    targets = [
        ("ceiling: JsonResponse /healthz", f"{base}/healthz", cookie),
        ("map page (a reader reloading: 304)", map_url, reload),
        ("map page drawn (no ETag sent)", map_url, cookie),
        (
            "map live poll (nothing new)",
            f"{base}/campaigns/{campaign_id}/map/live/?seen={stamp}",
            cookie,
        ),
        *(
            (f"{name} API", f"{base}/api{path}", {"Authorization": f"Token {token}"})
            for name, path in [
                ("campaigns", "/campaigns/"),
                ("areas", f"/campaigns/{campaign_id}/areas/"),
                ("companies", f"/campaigns/{campaign_id}/companies/"),
                ("turns", f"/campaigns/{campaign_id}/turns/"),
                ("commitments", f"/campaigns/{campaign_id}/commitments/"),
                ("adjustments", f"/campaigns/{campaign_id}/adjustments/"),
                ("battles", f"/campaigns/{campaign_id}/battles/"),
                ("orders", f"/campaigns/{campaign_id}/orders/"),
            ]
        ),
    ]
    try:
        rows = [
            run_wrk(name, url, headers, seconds=args.seconds, connections=args.connections)
            for name, url, headers in targets
        ]
    finally:
        server.terminate()
        server.wait(timeout=30)

    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(
        f"gunicorn {args.workers} sync workers, wrk {args.connections} connections, "
        f"{args.seconds} s each, database {engine}"
    )
    ceiling, page = rows[0], rows[1]
    print(
        f"{'target':34} {'req/s':>9} {'ceiling':>8} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'requests':>9} {'non-2xx':>8}"
    )
    for row in rows:
        print(
            f"{row.name:34} {row.rps:9.0f} {row.rps / ceiling.rps:8.0%} {row.p50_ms:8.2f} "
            f"{row.p95_ms:8.2f} {row.requests:9d} {row.bad:8d}"
        )
    lists = [row for row in rows if row.name.endswith(" API")]
    worst = min(lists, key=lambda row: row.rps)
    verdict = "met" if worst.rps / ceiling.rps >= 0.4 else "missed"
    print(
        f"API lists at {worst.rps / ceiling.rps:.0%} of the ceiling at worst ({worst.name}; "
        f"target >= 40%: {verdict})"
    )
    share = page.rps / ceiling.rps
    verdict = "met" if share > 0.5 else "missed"
    print(f"map page at {share:.0%} of the ceiling's requests per second (target > 50%: {verdict})")


if __name__ == "__main__":
    main()
