"""A write that waited its whole turn for SQLite's lock is refused clearly, never a 500.

On SQLite one transaction writes at a time; the others wait (``config.env.sqlite_options``:
the write lock is taken when a transaction begins, for up to KORONA_SQLITE_TIMEOUT
seconds). Should that wait run out, the request's transaction was rolled back whole and
nothing changed: the answer is 503 with the reason and a Retry-After, not a server error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

BUSY = (
    "The database is busy with another change (a turn being played, say) and this request "
    "waited too long for it. Nothing was changed: try again in a moment."
)
RETRY_AFTER_SECONDS = 5


def database_busy(error: BaseException) -> bool:
    text = str(error).lower()
    return isinstance(error, OperationalError) and (
        "database is locked" in text or "database table is locked" in text
    )


class DatabaseBusyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_busy(exception):
            return None
        logger.warning("%s %s: %s", request.method, request.path, exception)
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": BUSY}, status=503)
        else:
            response = HttpResponse(BUSY, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
