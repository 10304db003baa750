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
from campaign.services.turns import OrdersOutOfDate
from campaign.web.common import campaign_view, htmx, login_required
from campaign.web.orders import (
    TEMPLATE,
    _context,
    _orders_url,
    _out_of_date,
    fresh_watch,
    page_turn,
    ready_context,
)
from rules.campaign.turn import OrderError


@login_required
@require_POST
def unready(request: HttpRequest, campaign_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    error = None
    side = view.side or next(iter(view.state.sides))
    try:
        planning.unmark_ready(view=view, page_turn=page_turn(request), user=request.user)
    except OrdersOutOfDate as moved:
        return _out_of_date(request, view, side, moved)
    except (ReadyRefused, OrderError) as refused:
        error = str(refused)
    if error is None and not htmx(request):
        return HttpResponseRedirect(_orders_url(view, side) + "#ready")
    if not htmx(request):
        plan = plan_side(view=view, side=side)
        return render(request, TEMPLATE, _context(view, plan, ready_error=error), status=409)
    watch = fresh_watch(request, view, side)  # "ready" is in the slow poll's token
    plan = plan_side(view=view, side=side)
    # The ready box, and the live region below it filled out of band (it stays in the page):
    # no card, so no odds read.
    context = ready_context(view, plan, ready_error=error, watch=watch)
    return render(request, f"{TEMPLATE}#ready_answer", context, status=422 if error else 200)


urlpatterns = [
    path("campaigns/<int:campaign_id>/orders/unready/", unready, name="orders-unready"),
]
