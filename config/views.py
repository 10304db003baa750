from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for load balancers and CI: answers without touching the database."""
    return JsonResponse({"ok": True})
