"""The API's one mapping of a refusal: a 400 with its problems.

Every refusal the rules or the services raise is a ``rules.refusals.Refusal``; a view lets
it rise and this handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``) answers
``{"detail": message, "problems": [{"path": ..., "message": ..., "code": ...}, ...]}`` with
400 (``code``: what kind of fault, ``rules.refusals.Code``); an order write whose turn was
played between the request's read and its write (``OrdersOutOfDate``) with 409, in the
API's words (the service's are the orders page's); an order the company no longer has
(``If-Match``: ``OrderChangedMeanwhile``) with 412. Every other exception is DRF's to
answer as usual.
"""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaign.services.turns import OrderChangedMeanwhile, OrdersOutOfDate
from rules.refusals import Refusal

# What the request read, as ``OrdersOutOfDate.said`` takes it ("... turn 4, and turn 4
# has been played since: orders now go to turn 5").
REQUEST_READ = "this request read the orders of"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, OrdersOutOfDate):  # a turn played between the read and the write
        words = f"{exc.said(asked=REQUEST_READ)}. Nothing was changed: look again and choose."
        return Response(Refusal(words).as_json(), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, OrderChangedMeanwhile):  # an If-Match the order no longer matches
        return Response(exc.as_json(), status=status.HTTP_412_PRECONDITION_FAILED)
    if isinstance(exc, Refusal):
        return Response(exc.as_json(), status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
