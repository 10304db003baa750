"""Concurrent writes on the embedded default, a SQLite file, through a live server.

Two GMs press "Advance turn now" at the same moment: on two campaigns both turns are
played (the second write waits for the first), on one campaign one turn is played and
the other click is told why it played nothing. Never a 500 "database is locked".
Each turn is slowed down (KORONA_TEST_TURN_DELAY) inside its transaction, so the two
requests overlap for certain.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
SETUP = """
from django.contrib.auth import get_user_model
from campaign.services.scenarios import create_campaign
from tests.campaign.conftest import korona_doc
get_user_model().objects.create_superuser("gm", "gm@example.com", "pw")
get_user_model().objects.create_superuser("gm2", "gm2@example.com", "pw")
for name in ("Korona 1", "Korona 2", "Korona 3"):
    print("campaign", create_campaign(data=korona_doc(), name=name, seed=1).pk)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, tmp_path: Path) -> None:
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'korona.sqlite3'}",
            "KORONA_TEST_TURN_DELAY": "1.5",
            "DEBUG": "0",
            "PYTHONPATH": str(ROOT),
        }
        self.env.pop("REDIS_URL", None)
        self.log = tmp_path / "server.log"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        return done.stdout

    def start(self) -> None:
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                requests.get(f"{self.base}/admin/login/", timeout=2)
                return
            except requests.ConnectionError:
                time.sleep(0.2)
        raise AssertionError(f"the server did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, list[int]]]:
    """One server for the module: the first test plays on two campaigns, the second on
    the third."""
    live = Server(tmp_path_factory.mktemp("sqlite"))
    live.manage("migrate", "--verbosity", "0")
    out = live.manage("shell", "-c", SETUP)
    ids = [int(pk) for pk in re.findall(r"^campaign (\d+)$", out, re.M)]
    live.start()
    try:
        yield live, ids
    finally:
        live.stop()


def signed_in(server: Server, username: str) -> requests.Session:
    session = requests.Session()
    login = f"{server.base}/admin/login/"
    session.get(login, timeout=10)
    response = session.post(
        login,
        data={
            "username": username,
            "password": "pw",
            "csrfmiddlewaretoken": session.cookies["csrftoken"],
            "next": "/admin/",
        },
        headers={"Referer": login},
        timeout=10,
        allow_redirects=False,
    )
    assert response.status_code == 302, response.text[:500]
    return session


def advance_form(session: requests.Session, server: Server, pk: int) -> dict[str, str]:
    """Open the campaign's admin page (a tab) and read the "Advance turn now" form."""
    page = session.get(f"{server.base}/admin/campaign/campaign/{pk}/change/", timeout=10).text
    form = re.search(r'<form[^>]*action="[^"]*/advance/"[^>]*>(.*?)</form>', page, re.S)
    assert form is not None
    return dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1)))


def press_together(server: Server, clicks: list[tuple[requests.Session, int]]) -> list[Any]:
    forms = [advance_form(session, server, pk) for session, pk in clicks]
    barrier = threading.Barrier(len(clicks))
    answers: list[Any] = [None] * len(clicks)

    def press(index: int) -> None:
        session, pk = clicks[index]
        url = f"{server.base}/admin/campaign/campaign/{pk}/advance/"
        barrier.wait()
        answers[index] = session.post(url, data=forms[index], headers={"Referer": url}, timeout=120)

    threads = [threading.Thread(target=press, args=(i,)) for i in range(len(clicks))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def turns_of(server: Server, pk: int) -> int:
    query = f"from campaign.models import Campaign; print(Campaign.objects.get(pk={pk}).turn)"
    return int(server.manage("shell", "-c", query).split()[-1])


def test_two_campaigns_advanced_at_once_both_play_their_turn(
    server: tuple[Server, list[int]],
) -> None:
    live, (first, second, _) = server
    answers = press_together(
        live, [(signed_in(live, "gm"), first), (signed_in(live, "gm2"), second)]
    )
    assert [a.status_code for a in answers] == [200, 200], live.log.read_text()[-3000:]
    assert "Korona 1: turn 1 played." in answers[0].text
    assert "Korona 2: turn 1 played." in answers[1].text
    assert (turns_of(live, first), turns_of(live, second)) == (1, 1)


def test_one_campaign_advanced_twice_at_once_plays_one_turn_and_says_why(
    server: tuple[Server, list[int]],
) -> None:
    live, (_, _, third) = server
    answers = press_together(
        live, [(signed_in(live, "gm"), third), (signed_in(live, "gm2"), third)]
    )
    assert [a.status_code for a in answers] == [200, 200], live.log.read_text()[-3000:]
    texts = sorted(answers, key=lambda a: "turn 1 played" not in a.text)
    assert "Korona 3: turn 1 played." in texts[0].text
    stale = "Korona 3: nothing was played: your page was for turn 1, and turn 1 has been"
    assert stale in texts[1].text
    assert turns_of(live, third) == 1
