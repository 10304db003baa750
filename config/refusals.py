"""The pages' and the admin's one mapping of a refusal (``rules.refusals.Refusal``).

A page's view shows the refusals it expects in its own form (a field's error, a notice on
the page). One that rises out of a view is answered here, never as a 500:

- in the admin, a change sent from a page of the admin: the reason as an error message
  on that page, which the GM is sent back to (nothing was changed);
- everywhere else (and an admin page opened directly): a 400 page listing the problems.

The API's views are DRF's: ``campaign.api.errors`` answers there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from rules.refusals import Refusal

logger = logging.getLogger(__name__)


def sentence(refusal: BaseException | str) -> str:
    """A refusal as the GM's forms and messages say it: a sentence, capitalised, with its
    full stop ("a campaign named 'Korona' exists already" -> "A campaign named 'Korona'
    exists already."), as the forms' own words are. The services word a refusal as a
    clause, which the API and the commands build on; only its reader's page makes it a
    sentence."""
    text = str(refusal).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _page_back(request: HttpRequest) -> str | None:
    """The admin page the request came from, if it is one of this site's admin pages."""
    back = request.headers.get("referer", "")
    if not back or not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    admin_root = request.build_absolute_uri(reverse("admin:index"))
    if not back.startswith(admin_root) or back == request.build_absolute_uri():
        return None
    return back


class RefusalMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Refusal):
            return None
        logger.info("%s %s refused: %s", request.method, request.path, exception)
        if request.path.startswith(reverse("admin:index")) and request.method == "POST":
            back = _page_back(request)
            if back is not None:
                messages.error(request, sentence(exception))
                return HttpResponseRedirect(back)
        context = {"refusal": exception, "problems": exception.problems}
        return render(request, "refused.html", context, status=400)
