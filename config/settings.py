"""Korona's settings, read from the environment through the typed readers in config.env.

With no variables at all this is the embedded default: SQLite, no Redis, DEBUG off.
See README.md for the variables.
"""

from __future__ import annotations

import os
from pathlib import Path

from config.env import (
    read_bool,
    read_database,
    read_list,
    read_number,
    read_redis_url,
    read_secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = read_bool(os.environ, "DEBUG")
KORONA_PRODUCTION = read_bool(os.environ, "KORONA_PRODUCTION")
SECRET_KEY = read_secret_key(os.environ, production=KORONA_PRODUCTION)
ALLOWED_HOSTS = read_list(os.environ, "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

DATABASES = {"default": read_database(os.environ, base_dir=BASE_DIR)}
REDIS_URL = read_redis_url(os.environ)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "simple_history",
    "campaign",
    "battles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-simple-history: the GM's reason for a change is kept whole on the history row.
SIMPLE_HISTORY_HISTORY_CHANGE_REASON_USE_TEXT_FIELD = True

# --- Celery: scheduled turns (config/celery.py, campaign/tasks.py) --------------------------
# With REDIS_URL, tasks go to Redis for separate `celery worker` and `celery beat`
# processes. Without it (the embedded default) every task runs at once, in the process
# that sends it: `manage.py run_scheduler` sweeps due campaigns in-process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
# A task is acknowledged when it has finished, and given back if its worker dies, so a
# turn is never lost with a worker; playing it twice is refused by the turn service.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis gives an unacknowledged task to another worker after this many seconds.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": read_number(
        os.environ, "KORONA_VISIBILITY_TIMEOUT", default=3600, minimum=1
    ),
}
KORONA_TASK_QUEUE = os.environ.get("KORONA_TASK_QUEUE", "").strip() or "korona"
CELERY_TASK_DEFAULT_QUEUE = KORONA_TASK_QUEUE
KORONA_SWEEP_SECONDS = read_number(os.environ, "KORONA_SWEEP_SECONDS", default=30, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "sweep-due-campaigns": {
        "task": "campaign.sweep_due_campaigns",
        "schedule": KORONA_SWEEP_SECONDS,
        # A sweep older than the next one is pointless: drop it rather than pile up.
        "options": {"expires": KORONA_SWEEP_SECONDS},
    },
}
# Tests only: seconds a turn sleeps inside its transaction, so a test can kill it midway.
KORONA_TEST_TURN_DELAY = read_number(os.environ, "KORONA_TEST_TURN_DELAY", default=0)
