"""The API's one mapping of a refusal: a 400 with its problems.

Every refusal the rules or the services raise is a ``rules.refusals.Refusal``; a view lets
it rise and this handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``) answers
``{"detail": message, "problems": [{"path": ..., "message": ..., "code": ...}, ...]}`` with
400 (``code``: what kind of fault, ``rules.refusals.Code``); an order write whose turn was
played between the request's read and its write (``OrdersOutOfDate``), or that names
another turn than the coming one (``OrderForAnotherTurn``), with 409, in the
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
from rules.refusals import Problem, Refusal


class OrderForAnotherTurn(Refusal):
    """An order write that names the turn it is for (``turn_number`` or ``turn``), and
    names another than the coming one: refused (409) and nothing changed, as the orders
    page refuses a form drawn for a turn since played (``OrdersOutOfDate``), in words a
    client's author reads."""

    def __init__(self, *, stated: int, coming: int, ready: bool = False) -> None:
        if stated < coming:
            played = (
                f"turn {stated} has been played"
                if coming == stated + 1
                else f"turns {stated} to {coming - 1} have been played"
            )
        else:
            played = f"turn {stated} is not open for orders yet"
        if ready:  # ``POST ready/`` naming its turn, as an order may
            words = (
                f"This ready is for turn {stated}, but {played}: the coming turn is turn "
                f"{coming}. Nothing was changed: read its orders, then mark it ready."
            )
        else:
            words = (
                f"This order is for turn {stated}, but {played}: orders now go to turn "
                f"{coming}. Nothing was changed: send it for turn {coming} if you still "
                "want it."
            )
        super().__init__([Problem("turn_number", words)])


# What the request read, as ``OrdersOutOfDate.said`` takes it ("... turn 4, and turn 4
# has been played since: orders now go to turn 5").
REQUEST_READ = "this request read the orders of"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, OrdersOutOfDate):  # a turn played between the read and the write
        words = f"{exc.said(asked=REQUEST_READ)}. Nothing was changed: look again and choose."
        return Response(Refusal(words).as_json(), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, OrderForAnotherTurn):  # a client's turn_number, not the coming one
        return Response(exc.as_json(), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, OrderChangedMeanwhile):  # an If-Match the order no longer matches
        return Response(exc.as_json(), status=status.HTTP_412_PRECONDITION_FAILED)
    if isinstance(exc, Refusal):
        return Response(exc.as_json(), status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
