"""Korona's settings, read from the environment through the typed readers in config.env.

With no variables at all this is the embedded default: SQLite, no Redis, DEBUG off.
See README.md for the variables.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

from config.env import (
    read_bool,
    read_database,
    read_email_url,
    read_int,
    read_list,
    read_number,
    read_rate,
    read_redis_url,
    read_secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = read_bool(os.environ, "DEBUG")
KORONA_PRODUCTION = read_bool(os.environ, "KORONA_PRODUCTION")
SECRET_KEY = read_secret_key(os.environ, production=KORONA_PRODUCTION)
ALLOWED_HOSTS = read_list(os.environ, "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

DATABASES = {"default": read_database(os.environ, base_dir=BASE_DIR)}
# Keep a connection for the next request (opening one is a good part of a cheap page),
# checked before reuse so a restarted database costs one error-free reconnect.
DATABASES["default"]["CONN_MAX_AGE"] = read_number(
    os.environ, "KORONA_DB_CONN_MAX_AGE", default=60, minimum=0
)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
REDIS_URL = read_redis_url(os.environ)

INSTALLED_APPS = [
    # Korona's own commands that replace Django's (createsuperuser): first, since an
    # earlier app's command wins (config/management/commands/createsuperuser.py).
    "config",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_htmx",
    "template_partials",
    "simple_history",
    "campaign",
    "battles",
    "notifications",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A signed-out reader sent to sign in: htmx gets the sign-in page whole (HX-Redirect),
    # never swapped into a card; signing in leads back to the page, not a form's address.
    "config.signedout.SignedOutMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "config.busy.DatabaseBusyMiddleware",  # SQLite's write lock waited for too long: 503
    "config.methods.WrongMethodPageMiddleware",  # a page for a GET to a form's address
    "config.refusals.RefusalMiddleware",  # a refusal out of a view: 400 page / admin message
    # Last, as django-axes asks: it turns a locked-out login into its lockout answer.
    "axes.middleware.AxesMiddleware",
]

# django-axes first: it refuses a login after too many failed tries, before any password
# is checked (README.md: "Players' pages and the API").
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "config.auth.CachedModelBackend",  # ModelBackend, the user read through the cache
]
AXES_FAILURE_LIMIT = int(read_number(os.environ, "KORONA_LOGIN_FAILURES", default=5, minimum=1))
AXES_COOLOFF_TIME = 1  # hours
# A username is locked out of one address only, so a stranger's guesses lock only the
# stranger out, never the GM at home.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The reverse proxies in front of Korona whose X-Forwarded-For is believed (README.md,
# "Configuration"); the API's throttles and django-axes both read the client's address
# through config.proxies.client_ip.
KORONA_TRUSTED_PROXIES = read_int(os.environ, "KORONA_TRUSTED_PROXIES", default=0, maximum=10)
AXES_CLIENT_IP_CALLABLE = "config.proxies.client_ip"
AXES_RESET_ON_SUCCESS = True
# A username signs in typed in any letter case (config.auth), so its every spelling counts
# against one account's lockout.
AXES_USERNAME_CALLABLE = "config.auth.lockout_username"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# --- Content-Security-Policy (django-csp): scripts only from Korona's own static files (no
# inline script, no eval), nothing from another site. Inline styles are allowed: the
# pages and the server-drawn SVG map set colours in style attributes, and Swagger UI and
# the admin have inline styles; a style cannot run code. tests/browser/test_csp.py loads
# the pages, the admin and the API docs and fails on any violation.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],  # Swagger UI draws its icons as data: URLs
        "font-src": ["'self'"],
        "connect-src": ["'self'"],  # htmx, the map's poll, Swagger UI's requests
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Sessions are read from the cache and written through to the database: a page view
# needs no session query while the cache holds it.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaigns"
LOGOUT_REDIRECT_URL = "login"
# A form sent with a CSRF token no longer good (the reader signed out and in, maybe in
# another tab, since the page was drawn): a page in plain words, or for htmx the sentence
# the page shows in place (config.views.csrf_failure), never Django's raw 403.
CSRF_FAILURE_VIEW = "config.views.csrf_failure"

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
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Production serves hashed, compressed files from STATIC_ROOT (collectstatic);
    # development and tests serve them from the apps as they are.
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if KORONA_PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not KORONA_PRODUCTION
if not KORONA_PRODUCTION:
    # Development serves from the apps (finders); STATIC_ROOT exists only after collectstatic.
    warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Logging: to standard error, with DEBUG on or off. Every server error (a 500) is
# logged by django.request with its traceback; warnings of Korona and of the libraries
# too. Django's own default shows them only with DEBUG on (and mails them to ADMINS).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # Through the root's handler alone, whatever DEBUG is (no second copy, no mail).
        "django": {"handlers": [], "level": "WARNING", "propagate": True},
        # A 4xx is the client's mistake, logged at WARNING; only the 5xx are errors.
        "django.request": {"handlers": [], "level": "ERROR", "propagate": True},
    },
}

# How often an open map asks whether a turn has been played (campaign/web/maps.py), and how
# long a reader's answer (the campaign's stamp) is kept before the database is asked again.
KORONA_MAP_POLL_SECONDS = read_number(os.environ, "KORONA_MAP_POLL_SECONDS", default=15, minimum=1)
KORONA_STAMP_SECONDS = read_number(os.environ, "KORONA_STAMP_SECONDS", default=1, minimum=0)
# How often an orders page whose odds are done asks whether the side's orders have changed
# in another tab or by a teammate (campaign/web/orders.py, ``orders-watch``).
KORONA_ORDERS_WATCH_SECONDS = read_number(
    os.environ, "KORONA_ORDERS_WATCH_SECONDS", default=25, minimum=1
)

# --- The REST API (campaign/api) -------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.tokens.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON bodies within bounds: a deep or huge one is a 400, not a RecursionError.
    "DEFAULT_PARSER_CLASSES": [
        "campaign.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # DRF's own throttles read their rates once, at import; these read them per request.
    "DEFAULT_THROTTLE_CLASSES": [
        "campaign.api.throttles.AnonThrottle",
        "campaign.api.throttles.UserThrottle",
    ],
    # DRF's negotiation, with Accept */* (or none) answered without parsing the header.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "campaign.api.negotiation.ContentNegotiation",
    # A refusal (rules.refusals.Refusal) answers 400 with its problems, in one place.
    "EXCEPTION_HANDLER": "campaign.api.errors.exception_handler",
    "NUM_PROXIES": KORONA_TRUSTED_PROXIES,  # the throttles use config.proxies.client_ip
    "DEFAULT_THROTTLE_RATES": {
        "anon": read_rate(os.environ, "KORONA_API_ANON_RATE", default="60/minute"),
        "user": read_rate(os.environ, "KORONA_API_USER_RATE", default="1200/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Korona API",
    "DESCRIPTION": "A Korona campaign as one side (or the game master) may see it.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Production (KORONA_PRODUCTION=1): HTTPS only; `manage.py check --deploy` is clean --------
if KORONA_PRODUCTION:
    SECURE_SSL_REDIRECT = read_bool(os.environ, "KORONA_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# django-simple-history: the GM's reason for a change is kept whole on the history row.
SIMPLE_HISTORY_HISTORY_CHANGE_REASON_USE_TEXT_FIELD = True

# --- The cache: shared by every web process through Redis when there is one (the odds
# of planned attacks, the session); otherwise each process keeps its own.
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "korona",
            "TIMEOUT": 60 * 60 * 24,
        }
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "TIMEOUT": 60 * 60 * 24,
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    )
}

# --- Email (notifications/): EMAIL_URL as django-environ reads it, e.g.
# smtp+tls://user:password@smtp.example.com:587; without it, emails are printed (console).
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
globals().update(read_email_url(os.environ))
DEFAULT_FROM_EMAIL = os.environ.get("KORONA_FROM_EMAIL", "").strip() or "korona@localhost"
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The address players reach Korona at: the links in emails, webhooks and feeds.
KORONA_SITE_URL = os.environ.get("KORONA_SITE_URL", "").strip() or "http://127.0.0.1:8000"

# --- Celery: scheduled turns (config/celery.py, campaign/tasks.py) --------------------------
# With REDIS_URL, tasks go to Redis for separate `celery worker` and `celery beat`
# processes. Without it (the embedded default) every task runs at once, in the process
# that sends it: `manage.py run_scheduler` sweeps due campaigns in-process.
# The in-memory broker is named with a host: without one kombu warns "No hostname was
# supplied" each time a task is sent, eager or not.
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
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
    # Deadline reminders due, and notices whose send failed tried again (notifications/).
    "sweep-notices": {
        "task": "notifications.sweep",
        "schedule": KORONA_SWEEP_SECONDS,
        "options": {"expires": KORONA_SWEEP_SECONDS},
    },
}
# The odds of a planned attack (campaign/services/odds.py) are fought off the web
# request: by the Celery workers with REDIS_URL, else by a pool of KORONA_ODDS_WORKERS
# processes (default: one per core) beside the web server. "inline" (tests) fights them
# in the asking process at once.
KORONA_ODDS_BACKEND = "celery" if REDIS_URL else "pool"
KORONA_ODDS_WORKERS = read_int(
    os.environ, "KORONA_ODDS_WORKERS", default=os.cpu_count() or 1, minimum=1, maximum=256
)
# The admin's Balance shares its campaigns among this many processes (one per core by
# default) beside the web server (campaign/services/balance.py).
KORONA_BALANCE_WORKERS = read_int(
    os.environ, "KORONA_BALANCE_WORKERS", default=os.cpu_count() or 1, minimum=1, maximum=256
)
# Tests only: seconds a turn sleeps inside its transaction, so a test can kill it midway.
KORONA_TEST_TURN_DELAY = read_number(os.environ, "KORONA_TEST_TURN_DELAY", default=0)
