"""The orders page's "Unready": a player takes back their side's "ready" while the other
side has not marked theirs (``planning.unmark_ready``). It answers with the page's own
ready panel, like "ready" does (``campaign.web.orders``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_POST

from campaign.services import planning
from campaign.services.planning import ReadyRefused, plan_side
from campaign.web.common import campaign_view, login_required
from campaign.web.orders import TEMPLATE, _context, _orders_url


@login_required
@require_POST
def unready(request: HttpRequest, campaign_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    error = None
    try:
        planning.unmark_ready(view=view)
    except ReadyRefused as refused:
        error = str(refused)
    side = view.side or next(iter(view.state.sides))
    if error is None and not request.htmx:
        return HttpResponseRedirect(_orders_url(view, side) + "#ready")
    context = _context(view, plan_side(view=view, side=side), ready_error=error)
    if not request.htmx:
        return render(request, TEMPLATE, context, status=409)
    return render(request, f"{TEMPLATE}#ready", context, status=422 if error else 200)


urlpatterns = [
    path("campaigns/<int:campaign_id>/orders/unready/", unready, name="orders-unready"),
]
