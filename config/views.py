from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.http import require_safe

from config.signedout import CHANGED, referring_page


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for load balancers and CI: answers without touching the database."""
    return JsonResponse({"ok": True})


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says (the admin's pages say
    nothing): the site's icon, from the static files."""
    return HttpResponsePermanentRedirect(static("campaign/favicon.svg"))


# Why a form was refused for its CSRF token, in the reader's words. Every form carries a
# token of the browser's CSRF cookie, which signing in renews: a page drawn before the
# reader signed out and in (in another tab, say) sends one no longer good (CHANGED,
# config.signedout, which says the same to a page drawn for another reader).
NO_COOKIE = (
    "Your browser sent no cookie from Korona, which it needs to tell that this "
    "page is yours. Allow cookies for this site, then reload the page and send it again."
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: nothing was saved, said so. An htmx request gets the sentence
    alone (403, plain text), which the page shows where the form is (``not-saved.js``);
    a form sent without script gets a page with a link back to the page it came from.
    Neither says anything of the campaign: the reader may be another user by now."""
    words = NO_COOKIE if reason == REASON_NO_CSRF_COOKIE else CHANGED
    if request.headers.get("HX-Request") == "true":
        return HttpResponse(words, status=403, content_type="text/plain; charset=utf-8")
    context = {"words": words, "back": referring_page(request)}
    return render(request, "403_csrf.html", context, status=403)
