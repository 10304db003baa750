"""Scheduling tests run their tasks in-process (eagerly) unless a test starts a real
worker (tests/scheduling/test_exactly_once.py), whatever REDIS_URL says."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from config.celery import app as celery_app


@pytest.fixture(autouse=True)
def eager_tasks() -> Iterator[None]:
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before
