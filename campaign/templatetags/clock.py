"""Moments on a player's pages on the campaign's clock, as its deadlines are shown."""

from __future__ import annotations

from datetime import datetime

from django import template

from campaign.models import Campaign
from campaign.services.deadlines import moment_words

register = template.Library()


@register.filter
def on_clock(moment: datetime | None, campaign: Campaign) -> str:
    """``{{ turn.finished_at|on_clock:campaign }}``: "Sun 6 Dec 2026, 19:07 AEDT", on the
    campaign's clock with its zone named, as the deadline beside it (not the server's
    UTC, unnamed); nothing for no moment."""
    if moment is None:
        return ""
    return moment_words(moment, campaign.timezone)
