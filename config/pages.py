"""What every page view of the apps shares: the door to a campaign and the page context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest

from campaign.models import Campaign
from campaign.services.visibility import (
    MAX_ID,
    CampaignView,
    NotAMember,
    campaign_sides,
    open_campaign,
)

__all__ = [
    "account_menu",
    "campaign_view",
    "htmx",
    "login_required",
    "menu_query",
    "page_context",
]

# Up to this many campaigns are listed in the top bar of a page outside any campaign when
# none is named; a longer list is the campaign list's (the "Korona" link).
MENU_CAMPAIGNS = 5


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


@dataclass(frozen=True, slots=True)
class CampaignMenu:
    """What base.html's campaign menu reads of a ``CampaignView`` (its campaign, the
    reader's side, whether they are the game master), for a page outside any campaign."""

    campaign: Campaign
    side: str | None
    side_name: str | None = None  # as CampaignView.side_name: "Australians"

    @property
    def game_master(self) -> bool:
        return self.side is None


def named_campaign(request: HttpRequest) -> int | None:
    """The campaign the reader came from: ``?campaign=<id>``, which the top bar's links to
    the account pages carry from a campaign's page."""
    raw = request.GET.get("campaign", "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 19:
        return None
    number = int(raw)
    return number if 0 < number <= MAX_ID else None


def menu_query(request: HttpRequest) -> str:
    """``?campaign=<id>`` to keep the campaign menu on the next account page, or ""."""
    named = named_campaign(request)
    return "" if named is None else f"?campaign={named}"


def account_menu(request: HttpRequest) -> dict[str, Any]:
    """The top bar's campaign menu on a page outside any campaign (the account pages), so
    a player who opens one is not cut off from their campaign: the campaign they came
    from, else their only one. With several and none named, ``menu_campaigns`` lists them
    (up to ``MENU_CAMPAIGNS``). Only campaigns the user may open: one they are not in is
    ignored, as if not named, so the page tells nothing of it."""
    named = named_campaign(request)
    rows = [] if named is None else campaign_sides(request.user, campaign_id=named)
    if not rows:
        rows = campaign_sides(request.user, limit=MENU_CAMPAIGNS + 1)
    if len(rows) == 1:
        campaign, side, side_name = rows[0]
        return {
            "menu": CampaignMenu(campaign=campaign, side=side, side_name=side_name),
            "menu_query": f"?campaign={campaign.pk}",
        }
    listed = [campaign for campaign, _, _ in rows] if len(rows) <= MENU_CAMPAIGNS else []
    return {"menu": None, "menu_campaigns": listed, "menu_query": ""}
