"""``dev.py run`` as a newcomer starts it: a real process on a fresh SQLite database.

The first run prints the GM's account once and makes the Korona campaign; a second run on
the same database makes nothing; any stop signal ends runserver (with its autoreloader's
child) and the scheduler and frees the port.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def group_members(pgids: set[int]) -> list[int]:
    """Processes still alive (not zombies) in any of the process groups."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, pgid = fields[0], int(fields[2])
        if pgid in pgids and state != "Z":
            alive.append(int(entry.name))
    return alive


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def start(tmp_path: Path, port: int) -> tuple[subprocess.Popen[str], Path]:
    log = tmp_path / f"run-{port}.log"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
        "PYTHONUNBUFFERED": "1",
        # Where dev.py keeps the address it serves: not the checkout's file.
        "KORONA_SITE_URL_FILE": str(tmp_path / "served"),
    }
    for name in ("KORONA_PRODUCTION", "DJANGO_SETTINGS_MODULE", "REDIS_URL"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "dev.py"), "run", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not answers(port):
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.3)
    return process, log


def wait_for_server_child(process: subprocess.Popen[str]) -> set[int]:
    """The process groups of dev.py's children, once runserver has spawned its server."""
    deadline = time.monotonic() + 30
    while True:
        children = children_of(process.pid)
        grandchildren = [g for child in children for g in children_of(child)]
        if len(children) == 2 and grandchildren:
            return {os.getpgid(child) for child in children}
        assert time.monotonic() < deadline, (children, grandchildren)
        time.sleep(0.2)


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc")
def test_first_run_then_any_signal_stops_the_whole_group(tmp_path: Path) -> None:
    """Three runs on one database: SIGTERM, SIGHUP, then SIGINT each end every process of
    runserver (its autoreloader and the server it spawns) and the scheduler, and free the
    port; only the first run prints the GM's account and makes the campaign."""
    outputs = []
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        port = free_port()
        process, log = start(tmp_path, port)
        groups = wait_for_server_child(process)
        assert group_members(groups)
        process.send_signal(signum)
        assert process.wait(timeout=30) == 0, log.read_text()
        deadline = time.monotonic() + 10
        while group_members(groups) or answers(port):
            assert time.monotonic() < deadline, (group_members(groups), log.read_text())
            time.sleep(0.2)
        outputs.append((port, log.read_text()))

    (port, first), *later = outputs
    found = re.search(r"user gm\s+password (\S+)", first)
    assert found, first
    assert f"http://127.0.0.1:{port}/admin/" in first
    assert re.search(rf"Australians: http://127\.0\.0\.1:{port}/invite/\S+/", first)
    assert re.search(rf"Japanese: http://127\.0\.0\.1:{port}/invite/\S+/", first)
    assert "'Korona'" in first
    for _, output in later:  # the same database: nothing new, the password never again
        assert "First run" not in output
        assert found[1] not in output


def load_manage() -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location("manage_under_test", ROOT / "manage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_dev() -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("address", "url"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("8765", "http://127.0.0.1:8765"),
        ("0.0.0.0:8765", "http://127.0.0.1:8765"),
        ("[::]:9000", "http://127.0.0.1:9000"),
        ("[::1]:9000", "http://[::1]:9000"),
        ("korona.local:80", "http://korona.local:80"),
    ],
)
def test_the_links_name_the_address_dev_py_serves_on(address: str, url: str) -> None:
    """Invitations, feeds and emails are written with KORONA_SITE_URL: ``dev.py run
    ADDRESS`` sets it from the address (a walk-through on port 8765 found every link in
    the admin and the notices pointing at 8000)."""
    assert load_dev().site_url(address) == url  # type: ignore[attr-defined]


def test_dev_py_run_keeps_a_site_url_given_and_sets_one_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    dev = load_dev()
    monkeypatch.setattr(dev, "SERVED_SITE_URL", tmp_path / "served")
    seen = []

    def steps(_: object) -> int:
        seen.append(os.environ["KORONA_SITE_URL"])
        return 1  # stop before any server starts

    monkeypatch.setattr(dev, "run_steps", steps)
    # Set first, so that the teardown restores the variable however the run left it.
    monkeypatch.setenv("KORONA_SITE_URL", "unset below")
    monkeypatch.delenv("KORONA_SITE_URL")
    assert dev.command_run(["127.0.0.1:8765"]) == 1  # type: ignore[attr-defined]
    monkeypatch.setenv("KORONA_SITE_URL", "https://korona.example.com")
    assert dev.command_run(["127.0.0.1:8765"]) == 1  # type: ignore[attr-defined]
    assert seen == ["http://127.0.0.1:8765", "https://korona.example.com"]


def test_the_scheduler_dev_py_starts_and_the_commands_beside_it_link_to_its_address(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``dev.py run 127.0.0.1:8765``: runserver, the scheduler (which sends the emails of
    the turns it plays) and, in another terminal, ``manage.py run_campaign`` all write
    links to 8765; the commands run beside it linked to KORONA_SITE_URL's default, 8000."""
    dev = load_dev()
    served = tmp_path / "served"
    monkeypatch.setattr(dev, "SERVED_SITE_URL", served)
    monkeypatch.setattr(dev, "run_steps", lambda _: 0)
    monkeypatch.setattr(dev, "stop_group", lambda processes: None)
    monkeypatch.setattr(dev.signal, "signal", lambda *args: None)  # type: ignore[attr-defined]
    started: dict[str, str] = {}

    class Started:
        returncode = 0

        def poll(self) -> int:
            return 0  # ended at once: command_run stops

    def popen(command: list[str], **kwargs: Any) -> Started:
        assert "env" not in kwargs  # the child inherits this process's environment
        started[command[2]] = os.environ["KORONA_SITE_URL"]
        return Started()

    monkeypatch.setattr(dev.subprocess, "Popen", popen)  # type: ignore[attr-defined]
    monkeypatch.setenv("KORONA_SITE_URL", "")  # set but empty: no address given
    assert dev.command_run(["127.0.0.1:8765"]) == 0  # type: ignore[attr-defined]
    assert started == {
        "runserver": "http://127.0.0.1:8765",
        "run_scheduler": "http://127.0.0.1:8765",
    }
    # A command run later in another terminal, with no KORONA_SITE_URL: manage.py reads
    # the address the server was given.
    manage = load_manage()
    environ: dict[str, str] = {}
    manage.served_site_url(environ, served)  # type: ignore[attr-defined]
    assert environ == {"KORONA_SITE_URL": "http://127.0.0.1:8765"}
    # One given always wins; never served here, the settings' default stands.
    environ = {"KORONA_SITE_URL": "https://korona.example.com"}
    manage.served_site_url(environ, served)  # type: ignore[attr-defined]
    assert environ == {"KORONA_SITE_URL": "https://korona.example.com"}
    environ = {}
    manage.served_site_url(environ, tmp_path / "never")  # type: ignore[attr-defined]
    assert environ == {}


def test_manage_py_links_to_the_address_dev_py_served_on(tmp_path: Path) -> None:
    """The round trip in a real process: a copy of manage.py beside a served address
    gives the settings that address (KORONA_SITE_URL_FILE: the one there), and
    KORONA_SITE_URL given wins."""
    (tmp_path / "manage.py").write_text((ROOT / "manage.py").read_text())
    (tmp_path / ".korona-site-url").write_text("http://127.0.0.1:8765\n")
    script = (
        "import sys; sys.argv = ['manage.py', 'shell', '-c', "
        "'from notifications.services import absolute; print(absolute(\"/x/\"))']; "
        f"sys.path.insert(0, {str(ROOT)!r}); "
        "import runpy; runpy.run_path('manage.py', run_name='__main__')"
    )
    bare = {name: os.environ[name] for name in ("PATH", "HOME") if name in os.environ}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("http://127.0.0.1:9001\n")
    for env, expected in (
        ({"KORONA_SITE_URL_FILE": str(elsewhere)}, "http://127.0.0.1:9001/x/"),
        ({}, "http://127.0.0.1:8765/x/"),
        ({"KORONA_SITE_URL": "https://korona.example.com"}, "https://korona.example.com/x/"),
    ):
        result = subprocess.run(
            [sys.executable, "-c", script],
            env={**bare, **env},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip().splitlines()[-1] == expected
