"""A request from a reader who is signed out goes to the sign-in page whole, and signing
in leads back to the page it came from.

A page's live parts (an order, "ready", the orders page's and the map's polls) ask with
htmx, which swaps the answer into the page. Signed out (the session expired, or ended in
another tab), a page's view answers with a redirect to the sign-in page, which the
browser's request follows silently: the whole sign-in page was swapped into a company's
card, and signing in there sent the player to the order's address (a POST's, so "This
address is not a page") with the order lost.

Here that redirect becomes ``HX-Redirect`` to the sign-in page, its ``next`` the page the
reader is on (``HX-Current-URL``, when it is this site's; else, for a poll, the page its
view names, and for a form sent, none), so htmx opens the sign-in page in place of the
whole page. A form sent without script (a plain POST) is sent to the sign-in page as
before, but its ``next`` is the page it was sent from (``Referer``, when it is this
site's), not the form's address. A form sent (not a poll) leaves a message on the
sign-in page saying nothing was saved; the orders page keeps an order's choice in the
browser and offers it again to the same reader, never to another (``orders.js``).

Signed in as someone else: a page names the reader it was drawn for, and htmx sends that
on each of its requests (``X-Korona-Reader``: the account's id, empty when drawn for
nobody signed in; ``base.html``). A tab left open by one player keeps polling after
another signs in in the same browser, with the new session's cookie: its poll would
swap the new reader's facts (another side's companies, orders, odds) into a page drawn
for the first. A poll from a page drawn for another reader is not asked of its view at
all: it is answered 204 with ``HX-Refresh``, so the page opens again whole, for the
reader now signed in, who is told why once. A form sent from such a page saves nothing
and gets the CSRF refusal's sentence (``CHANGED``, as ``config.views.csrf_failure``),
which ``not-saved.js`` shows where the form is: signing in renews the CSRF cookie, so
the form's token fails first anyway; this is the same answer should it not. Signed out
since, the reader goes to sign in as above.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.contrib.messages.storage.base import BaseStorage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils.http import url_has_allowed_host_and_scheme

NOT_SAVED = (
    "You were signed out, so what you just sent was not saved. Sign in to go back to the "
    "page and send it again."
)
SIGNED_OUT = "You were signed out. Sign in to go back to the page."
# A form sent from a page drawn before the reader's sign-in changed: its CSRF token is no
# longer good (config.views.csrf_failure), or the page names another reader.
CHANGED = (
    "Your sign-in changed since this page was opened (you signed out or in, "
    "maybe in another tab). Reload the page, then send it again."
)
SIGNED_IN_AS = (
    "This page was open for another account. This browser is now signed in as {name} "
    "(maybe in another tab), so the page has been opened again for {name}."
)
SIGNED_OUT_SINCE = "You were signed out since this page was opened, so it has been opened again."
READER_HEADER = "X-Korona-Reader"


def _reader_mark(request: HttpRequest) -> str:
    """Who a page is drawn for, as it names them in ``X-Korona-Reader``: the account's id,
    or nothing for a reader not signed in."""
    user = getattr(request, "user", None)
    return str(user.pk) if user is not None and user.is_authenticated else ""


def _drawn_for_another(request: HttpRequest) -> bool:
    """Whether an htmx request comes from a page drawn for another reader than the one
    signed in now. A request naming nobody (a page drawn before pages named their
    reader, the API, the admin) is not one."""
    drawn_for = request.headers.get(READER_HEADER)
    if drawn_for is None or not getattr(request, "htmx", False):
        return False
    return drawn_for != _reader_mark(request)


def referring_page(request: HttpRequest) -> str | None:
    """The page a form was sent from (its path and query, from ``Referer``), if it is one
    of this site's pages."""
    back = request.headers.get("referer", "")
    if not back or not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    parts = urlsplit(back)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _to_sign_in(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether the answer sends a signed-out reader to sign in before they may go on (as
    ``login_required`` does, naming where: ``next``); signing out, which also lands on
    the sign-in page, is not one."""
    if response.status_code not in (301, 302, 303, 307, 308) or "Location" not in response:
        return False
    where = urlsplit(response["Location"])
    return (
        where.path == resolve_url(settings.LOGIN_URL)
        and "next" in parse_qs(where.query)
        and not request.user.is_authenticated
    )


def _say_once(request: HttpRequest, words: str) -> None:
    """The message for the sign-in page, unless it waits there already: the page's polls
    (the orders page has up to three) may each find the reader signed out before the
    browser has left the page."""
    waiting = messages.get_messages(request)
    already = any(message.message == words for message in waiting)
    if isinstance(waiting, BaseStorage):
        waiting.used = False  # looked at, not shown: they stay for the sign-in page
    if not already:
        messages.warning(request, words)


class SignedOutMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        another = _drawn_for_another(request)
        if another and request.user.is_authenticated:
            # Never asked of the view: its answer would be the new reader's.
            return _open_again(request)
        response = self.get_response(request)
        if not _to_sign_in(request, response):
            # Signed out since, polling a view anyone may read: the page is drawn again
            # for nobody, never left showing its first reader's facts under new ones.
            polled = request.method in ("GET", "HEAD")
            return _open_again(request) if another and polled else response
        sent = request.method not in ("GET", "HEAD")
        if not getattr(request, "htmx", False):
            if not sent or (page := referring_page(request)) is None:
                return response
            # A form sent without script: back to its page after signing in, not to the
            # form's address (no page: "This address is not a page").
            _say_once(request, NOT_SAVED)
            return redirect_to_login(page)
        # The page the reader is on; None when the header names another site, or none.
        page = request.htmx.current_url_abs_path  # type: ignore[attr-defined]
        _say_once(request, NOT_SAVED if sent else SIGNED_OUT)
        if page:
            target = redirect_to_login(page)["Location"]
        elif sent:  # a form's address is no page to come back to
            target = resolve_url(settings.LOGIN_URL)
        else:  # the view's own choice (a poll's: the campaign's map)
            target = response["Location"]
        # No content: htmx opens the sign-in page in place of the whole page.
        return HttpResponse(status=204, headers={"HX-Redirect": target})


def _open_again(request: HttpRequest) -> HttpResponse:
    """The answer to a request from a page drawn for another reader: a poll opens the page
    again whole, for the reader now (htmx: ``HX-Refresh``); a form sent is refused, saving
    nothing, with the CSRF refusal's sentence, which the page shows where the form is."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(CHANGED, status=403, content_type="text/plain; charset=utf-8")
    if request.user.is_authenticated:
        name = request.user.get_username()
        _say_once(request, SIGNED_IN_AS.format(name=name))
    else:
        _say_once(request, SIGNED_OUT_SINCE)
    return HttpResponse(status=204, headers={"HX-Refresh": "true"})
