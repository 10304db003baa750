"""Moments on a player's pages on the campaign's clock, as its deadlines are shown."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone

from campaign.models import Campaign
from campaign.services.deadlines import (
    Schedule,
    deadline_after_turn_words,
    moment_words,
    unentered_words,
)

register = template.Library()


@register.filter
def on_clock(moment: datetime | None, campaign: Campaign) -> str:
    """``{{ turn.finished_at|on_clock:campaign }}``: "Sun 6 Dec 2026, 19:07 AEDT", on the
    campaign's clock with its zone named, as the deadline beside it (not the server's
    UTC, unnamed); nothing for no moment."""
    if moment is None:
        return ""
    return moment_words(moment, campaign.timezone)


@register.filter
def deadline_after_turn(campaign: Campaign, number: int) -> str:
    """``{{ campaign|deadline_after_turn:plan.waiting }}``: when the next turn's deadline
    will be, while turn ``number`` waits for its battles' results; "" with no schedule."""
    return deadline_after_turn_words(Schedule.of(campaign), int(number), timezone.now())


@register.filter
def unentered_tabletop(campaign: Campaign) -> str:
    """``{{ campaign|unentered_tabletop }}``: "wait" or "auto", the campaign's setting for
    a tabletop battle with no result at its deadline."""
    return campaign.get_settings().unentered_tabletop


@register.filter
def if_unentered(campaign: Campaign) -> str:
    """``{{ campaign|if_unentered }}``: "if none is entered by then, ...", what becomes of
    a tabletop battle of the campaign with no result at its deadline."""
    return unentered_words(
        campaign.get_settings().unentered_tabletop,
        paused=campaign.status == Campaign.Status.PAUSED,
    )
