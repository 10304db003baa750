"""An htmx request from a reader who is signed out goes to the sign-in page whole.

A page's live parts (an order, "ready", the orders page's and the map's polls) ask with
htmx, which swaps the answer into the page. Signed out (the session expired, or ended in
another tab), a page's view answers with a redirect to the sign-in page, which the
browser's request follows silently: the whole sign-in page was swapped into a company's
card, and signing in there sent the player to the order's address (a POST's, so "This
address is not a page") with the order lost.

Here that redirect becomes ``HX-Redirect`` to the sign-in page, its ``next`` the page the
reader is on (``HX-Current-URL``, when it is this site's; else, for a poll, the page its
view names, and for a form sent, none), so htmx opens the sign-in page
in place of the whole page and signing in leads back to it. A form sent (not a poll)
leaves a message on the sign-in page saying nothing was saved; the orders page keeps the
choice in the browser and offers it again (``orders.js``).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url

NOT_SAVED = (
    "You were signed out, so what you just sent was not saved. Sign in to go back to the "
    "page and send it again."
)
SIGNED_OUT = "You were signed out. Sign in to go back to the page."


def _to_sign_in(response: HttpResponse) -> bool:
    if response.status_code not in (301, 302, 303, 307, 308) or "Location" not in response:
        return False
    return urlsplit(response["Location"]).path == resolve_url(settings.LOGIN_URL)


class SignedOutHtmxMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or not _to_sign_in(response):
            return response
        # The page the reader is on; None when the header names another site, or none.
        page = request.htmx.current_url_abs_path  # type: ignore[attr-defined]
        sent = request.method not in ("GET", "HEAD")
        messages.warning(request, NOT_SAVED if sent else SIGNED_OUT)
        if page:
            target = redirect_to_login(page)["Location"]
        elif sent:  # a form's address is no page to come back to
            target = resolve_url(settings.LOGIN_URL)
        else:  # the view's own choice (a poll's: the campaign's map)
            target = response["Location"]
        # No content: htmx opens the sign-in page in place of the whole page.
        return HttpResponse(status=204, headers={"HX-Redirect": target})
