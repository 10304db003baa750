"""Throttles that read their rates when a request comes, not when Django starts.

DRF's own throttles copy ``DEFAULT_THROTTLE_RATES`` into a class attribute at import, so
a changed setting (``override_settings`` in a test, say) is never seen. These read
``api_settings`` each time; DRF reloads it whenever ``REST_FRAMEWORK`` changes. A rate of
``None`` switches that throttle off. The address of a request is ``client_ip``'s, the
one django-axes counts failed sign-ins by.
"""

from __future__ import annotations

from typing import Any

from rest_framework import throttling
from rest_framework.settings import api_settings

from config.proxies import client_ip


class _LiveRate:
    scope: str | None

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope or "")
        return None if rate is None else str(rate)

    def get_ident(self, request: Any) -> str:
        """The client's address as django-axes reads it (``KORONA_TRUSTED_PROXIES``)."""
        return client_ip(request) or ""


class AnonThrottle(_LiveRate, throttling.AnonRateThrottle):
    """Requests without a signed-in user, counted per address (``KORONA_API_ANON_RATE``)."""


class UserThrottle(_LiveRate, throttling.UserRateThrottle):
    """Requests of a signed-in user, counted per user (``KORONA_API_USER_RATE``)."""


API_THROTTLES = [AnonThrottle, UserThrottle]
