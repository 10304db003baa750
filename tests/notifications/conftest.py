"""The notice tests use the page tests' fixtures (the GM, the players, the campaigns),
an email outbox of Django's test runner (``mail.outbox``), tasks run in-process, and a
local webhook server on 127.0.0.1 that keeps what it was posted."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from config.celery import app as celery_app
from tests.web.conftest import *  # noqa: F403
from tests.web.conftest import (  # noqa: F401
    PASSWORD,
    aussie,
    campaign,
    gm_user,
    japanese,
    login,
    outsider,
    played,
)


@pytest.fixture(autouse=True)
def eager_tasks(settings: Any) -> Iterator[None]:
    settings.KORONA_SITE_URL = "http://korona.test"
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


class Hooked:
    """A webhook endpoint: every JSON body posted to it, in order; ``answer`` is the
    HTTP status it gives."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.answer = 204
        hooked = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                hooked.posts.append(json.loads(self.rfile.read(length)))
                self.send_response(hooked.answer)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hook_server() -> Iterator[Hooked]:
    server = Hooked()
    yield server
    server.close()
