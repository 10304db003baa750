"""Browser tests: the real pages in headless Chromium through pytest-playwright.

Debian's ``chromium`` (installed by .ci/run), never a downloaded browser. Screenshots go
to ``test-artifacts/browser/``. Without /usr/bin/chromium the tests are skipped locally;
CI installs it, so there they always run.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

# The page tests' fixtures: the GM, the players and their campaigns.
from tests.web.conftest import aussie, gm_user, japanese, played  # noqa: F401

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"

# Playwright's sync API runs an event loop in the test thread; the test's own database
# work there is still synchronous, so Django's async-safety guard is told so.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if Path(CHROMIUM).exists() or os.environ.get("CI"):
        return  # in CI a missing browser must fail, not skip
    skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM} (.ci/run installs it)")
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


# How long an action or a wait may take before the test fails. Playwright's own 30 s (5 s
# for expect) is a busy 2-core CI machine's lot for a page that draws a map or a poll
# whose answer fights odds; a wait ends as soon as its condition holds, so a passing run
# is no slower. Waits that need longer (odds fought to the end) say so themselves.
PATIENCE_MS = 60_000
expect.set_options(timeout=PATIENCE_MS)


@pytest.fixture
def context(context: Any) -> Any:
    """pytest-playwright's context, every page of it patient (PATIENCE_MS)."""
    context.set_default_timeout(PATIENCE_MS)
    return context


@pytest.fixture
def shot(page: Any):
    """Save a screenshot of the page as a test artifact: ``shot("1-upload")``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def signed_in(page: Any, live_server: Any) -> Any:
    """Sign a user in to the live server by handing the browser a session cookie."""

    def as_user(user: Any) -> Any:
        client = Client()
        client.force_login(user)
        cookie = client.cookies["sessionid"]
        page.context.add_cookies(
            [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
        )
        return page

    return as_user
