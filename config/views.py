from django.http import HttpRequest, HttpResponsePermanentRedirect, JsonResponse
from django.templatetags.static import static
from django.views.decorators.http import require_safe


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for load balancers and CI: answers without touching the database."""
    return JsonResponse({"ok": True})


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says (the admin's pages say
    nothing): the site's icon, from the static files."""
    return HttpResponsePermanentRedirect(static("campaign/favicon.svg"))
