#!/usr/bin/env python3
"""Korona's one entry point for developers; needs nothing but Python 3.11+.

    python3 dev.py run                serve Korona on http://127.0.0.1:8000/ and play
                                      due turns (SQLite, no Redis, no setup)
    python3 dev.py demo [--seed N]    play a demo Korona campaign to its end, in words
    python3 dev.py test [ARGS...]     ruff (lint, format check), the import contracts,
                                      mypy, the length and complexity of rules/'
                                      functions, then pytest ARGS

Both first make sure ``.venv`` exists and holds ``pip install -e '.[test]'`` for the
current pyproject.toml, then re-run this script with the venv's Python. Standard
library only: this file runs before any dependency is installed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import subprocess
import sys
import time
import venv
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_BIN = VENV / "bin"
VENV_PYTHON = VENV_BIN / "python"
# The pyproject.toml hash of the last successful install; a different hash reinstalls.
INSTALL_STAMP = VENV / "korona-pyproject.sha256"

DEMO_SCENARIO = "fixtures/scenarios/korona.json"
# The address ``dev.py run`` serves on, kept for the commands run beside it in another
# terminal (manage.py reads it when KORONA_SITE_URL is not set: ``served_site_url``), so
# their emails link to the server too. KORONA_SITE_URL_FILE puts it elsewhere (the tests
# that run dev.py leave the checkout's alone).
SERVED_SITE_URL = Path(os.environ.get("KORONA_SITE_URL_FILE") or ROOT / ".korona-site-url")


def pyproject_digest() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_venv() -> None:
    """Create .venv if missing and reinstall the project when pyproject.toml changed."""
    if not VENV_PYTHON.exists():
        print(f"dev.py: creating {VENV.relative_to(ROOT)}", flush=True)
        venv.create(VENV, with_pip=True, clear=True)
    digest = pyproject_digest()
    if INSTALL_STAMP.exists() and INSTALL_STAMP.read_text().strip() == digest:
        return
    print("dev.py: installing korona[test] into .venv", flush=True)
    subprocess.run(
        [str(VENV_PYTHON), "-m", "pip", "install", "--quiet", "-e", ".[test]"],
        cwd=ROOT,
        check=True,
    )
    INSTALL_STAMP.write_text(digest + "\n")


def running_in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def run_steps(steps: Sequence[tuple[str, list[str]]]) -> int:
    """Run each step in order; stop at the first that fails and say which it was."""
    for name, command in steps:
        print(f"==> {name}: {' '.join(command)}", flush=True)
        code = subprocess.run(command, cwd=ROOT).returncode
        if code != 0:
            print(f"dev.py: step '{name}' failed with exit code {code}", file=sys.stderr)
            return code
    return 0


class Stop(Exception):
    """A signal asked ``dev.py run`` to stop."""


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def stop_group(processes: Sequence[subprocess.Popen[bytes]], timeout: float = 10) -> None:
    """Stop each child's whole process group (runserver's autoreloader runs the server in
    a child of its own): SIGINT first, SIGKILL for a group still alive after ``timeout``."""

    def signal_groups(signum: int) -> None:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):  # the group is gone already
                os.killpg(process.pid, signum)

    signal_groups(signal.SIGINT)
    deadline = time.monotonic() + timeout
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
    signal_groups(signal.SIGKILL)  # the leader gone, a grandchild may still hold the port
    for process in processes:
        process.wait()


def site_url(address: str) -> str:
    """The address runserver is given (``PORT``, ``HOST:PORT``) as a URL for links; a
    server on every interface (0.0.0.0, ::) is named by 127.0.0.1, this machine."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def command_run(args: list[str]) -> int:
    """The product on the embedded default: the web server and the scheduler (which
    plays the turns of campaigns whose deadline has passed, in-process), side by side
    until Ctrl-C (or SIGTERM, SIGHUP) stops both, each with its whole process group.
    ``ADDRESS`` (default 127.0.0.1:8000) is runserver's. On a fresh database the first
    run makes the GM's account and a ready campaign (``manage.py first_run``)."""
    manage = [sys.executable, "manage.py"]
    address = args[0] if args else "127.0.0.1:8000"
    # The links Korona writes (invitations, feeds, emails) name the address it serves on,
    # unless KORONA_SITE_URL already says where players reach it (set but empty, it does
    # not: the settings would take the default).
    if not os.environ.get("KORONA_SITE_URL", "").strip():
        os.environ["KORONA_SITE_URL"] = site_url(address)
    # The children (first_run, runserver, the scheduler and the emails it sends) inherit
    # it; a command run later in another terminal reads it from here.
    SERVED_SITE_URL.write_text(os.environ["KORONA_SITE_URL"].strip() + "\n", encoding="utf-8")
    code = run_steps(
        [
            ("migrate", [*manage, "migrate", "--noinput", "-v", "0"]),
            ("first run", [*manage, "first_run", "--address", address]),
        ]
    )
    if code:
        return code

    def stop(signum: int, frame: object) -> None:
        raise Stop(signum)

    for signum in STOP_SIGNALS:
        signal.signal(signum, stop)
    site = os.environ["KORONA_SITE_URL"].rstrip("/")
    print(f"dev.py: serving {site}/ (admin at {site}/admin/); Ctrl-C stops", flush=True)
    processes: list[subprocess.Popen[bytes]] = []
    stopped = False
    try:
        # Each child leads a process group of its own, so stopping it reaches its children.
        for command in ([*manage, "runserver", address], [*manage, "run_scheduler"]):
            processes.append(subprocess.Popen(command, cwd=ROOT, start_new_session=True))
        while all(process.poll() is None for process in processes):
            time.sleep(0.5)
    except Stop:
        stopped = True
    finally:
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)
        stop_group(processes)
    if stopped:
        return 0
    failed = [p.returncode for p in processes if p.returncode not in (0, -signal.SIGINT)]
    return failed[0] if failed else 0


def command_demo(args: list[str]) -> int:
    """A whole Korona campaign on the embedded SQLite database, both sides on aggressive
    standing orders, every turn's rolls in words."""
    manage = [sys.executable, "manage.py"]
    name = f"Korona demo {datetime.now():%Y-%m-%d %H:%M:%S}"
    return run_steps(
        [
            ("migrate", [*manage, "migrate", "--noinput", "-v", "0"]),
            (
                "create campaign",
                [*manage, "create_campaign", "--scenario", DEMO_SCENARIO, "--name", name, *args],
            ),
            (
                "play the campaign",
                [*manage, "run_campaign", name, "--turns", "20", "--standing-order", "aggressive"],
            ),
        ]
    )


def command_test(args: list[str]) -> int:
    return run_steps(
        [
            ("ruff", [str(VENV_BIN / "ruff"), "check", "."]),
            ("ruff format", [str(VENV_BIN / "ruff"), "format", "--check", "."]),
            ("import contracts", [str(VENV_BIN / "lint-imports")]),
            ("mypy", [str(VENV_BIN / "mypy")]),  # [tool.mypy] in pyproject.toml
            # No function in rules/ over 60 lines or over cyclomatic complexity 15 (radon).
            ("complexity", [sys.executable, str(ROOT / "tools/complexity.py"), "rules"]),
            ("pytest", [sys.executable, "-m", "pytest", *args]),
        ]
    )


COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "run": command_run,
    "demo": command_demo,
    "test": command_test,
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        ensure_venv()
    except subprocess.CalledProcessError as error:
        print(f"dev.py: installing into .venv failed (exit {error.returncode})", file=sys.stderr)
        return 1
    if not running_in_venv():
        os.execv(VENV_PYTHON, [str(VENV_PYTHON), str(Path(__file__).resolve()), *argv])
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
