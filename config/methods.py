"""A page, not an empty answer, for an address opened with the wrong method.

Django answers a GET to a form's address (``/campaigns/1/orders/5/`` is where an order
is sent, not a page) with 405 and an empty body, which a browser shows as "This page
isn't working". A person who followed a bookmark, refreshed after a form, or typed the
address gets a page saying what the address is for, with a way back. The API and
anything with a body of its own keep their answer; the status and its Allow header stay.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CAMPAIGN_PATH = re.compile(r"^/campaigns/(\d+)/")


class WrongMethodPageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code != 405
            or response.content
            or request.path.startswith("/api/")
            or request.method not in ("GET", "HEAD")
        ):
            return response
        found = CAMPAIGN_PATH.match(request.path)
        page = render(
            request,
            "405.html",
            {"campaign_path": found[0] if found else None},
            status=405,
        )
        if "Allow" in response:
            page["Allow"] = response["Allow"]
        return page
