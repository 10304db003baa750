"""The Celery app ``korona``: settings from Django's (``CELERY_*``), tasks from each app's
``tasks.py``. Run a worker with ``celery -A config worker`` and the schedule with
``celery -A config beat`` (README.md, "Scheduled turns")."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("korona")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
