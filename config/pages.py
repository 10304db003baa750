"""What every page view of the apps shares: the door to a campaign and the page context."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest

from campaign.services.visibility import CampaignView, NotAMember, open_campaign

__all__ = ["campaign_view", "htmx", "login_required", "page_context"]


def htmx(request: HttpRequest) -> bool:
    """Whether htmx sent the request (django-htmx's middleware sets ``request.htmx``)."""
    return bool(request.htmx)  # type: ignore[attr-defined]


def campaign_view(request: HttpRequest, campaign_id: int) -> CampaignView:
    """The campaign as the signed-in user may see it; 404 if they may not see it at all
    (a stranger cannot tell a campaign they are not in from one that does not exist)."""
    try:
        return open_campaign(user=request.user, campaign=campaign_id)
    except NotAMember as refused:
        raise Http404("no such campaign") from refused


def page_context(view: CampaignView, **extra: Any) -> dict[str, Any]:
    """The context base.html needs for a campaign's navigation, plus the page's own."""
    return {"view": view, "campaign": view.campaign, **extra}
