"""A reader's feeds, for a calendar and a feed reader that cannot sign in: the iCal feed of
their deadlines and the Atom feed of their side's turns.

Each URL carries the user's id and a token: an HMAC of the id and the account's password
hash under the secret key (``feed_token``). It is the user's alone, cannot be guessed or
made for anyone else, and changes -- the old links stop working -- when the password
changes. What a feed says is read through the fog of war's one door, as the user's pages
are (``open_campaign``): the turns as their side saw them.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import icalendar
from django.contrib.auth import get_user_model
from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path, reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape
from django.views.decorators.http import require_safe

from battles.models import Battle
from battles.services.reading import correction_mark_words, turn_corrections
from battles.web.lists import (
    battle_pieces,
    battle_reasons,
    battle_shares,
    battle_withdrawals,
    readable_battles,
)
from campaign.models import PLAYED_EVENT_TABLES, Campaign, GmAdjustment, Turn
from campaign.services.visibility import campaigns_for, is_game_master, open_campaign
from campaign.web import turnlog
from notifications import services

FEED_SALT = "korona.notifications.feed"
TURNS_IN_FEED = 50


def feed_token(user: Any) -> str:
    return salted_hmac(FEED_SALT, f"{user.pk}:{user.password}", algorithm="sha256").hexdigest()[:40]


def feed_urls(user: Any) -> dict[str, str]:
    token = feed_token(user)
    return {
        "calendar": services.absolute(reverse("feed-deadlines", args=[user.pk, token])),
        "turns": services.absolute(reverse("feed-turns", args=[user.pk, token])),
    }


def feed_user(user_id: int, token: str) -> Any:
    """The user the URL was made for; 404 for any other token (or no such user)."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not constant_time_compare(feed_token(user), token):
        raise Http404("no such feed")
    return user


# --- the calendar -------------------------------------------------------------------------


def deadlines_calendar(user: Any) -> bytes:
    """Every deadline ahead of the user: the next turn's orders in each campaign still
    played, and for the GM the tabletop results due."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Korona//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", f"Korona deadlines ({user.get_username()})")
    reminder = services.preference_of(user).reminder_hours
    campaigns = services.with_deadline_told(
        campaigns_for(user).filter(status=Campaign.Status.ACTIVE, next_deadline__isnull=False)
    ).annotate(last_changed=services.latest(GmAdjustment))
    for campaign in campaigns.order_by("next_deadline", "pk"):
        number = campaign.turn + 1
        deadline = campaign.next_deadline
        if deadline is None:  # filtered out above
            continue
        event = icalendar.Event()
        event.add("uid", f"korona-{campaign.pk}-turn-{number}@korona")
        event.add("dtstamp", _deadline_set(campaign))
        event.add("dtstart", campaign.next_deadline)
        event.add("dtend", deadline + timedelta(minutes=15))
        event.add("summary", f"{campaign.name}: orders for turn {number} due")
        orders = services.absolute(reverse("orders", args=[campaign.pk]))
        event.add("description", f"Orders: {orders}")
        event.add("url", orders)
        alarm = icalendar.Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"{campaign.name}: orders for turn {number} due")
        # When the reader's reminder email would come: never before half the turn has run.
        alarm.add("trigger", -services.reminder_before(campaign, reminder))
        event.add_component(alarm)
        calendar.add_component(event)
    if is_game_master(user):
        battles = Battle.objects.filter(
            status=Battle.Status.PENDING, mode="tabletop", deadline__isnull=False
        ).select_related("campaign", "area", "turn")
        for battle in battles.order_by("deadline", "pk"):
            if battle.deadline is None:  # filtered out above
                continue
            event = icalendar.Event()
            event.add("uid", f"korona-battle-{battle.pk}@korona")
            # Its deadline was set as its turn was played.
            event.add("dtstamp", battle.turn.created_at)
            event.add("dtstart", battle.deadline)
            event.add("dtend", battle.deadline + timedelta(minutes=15))
            event.add(
                "summary", f"{battle.campaign.name}: tabletop result due ({battle.area.name})"
            )
            event.add(
                "url", services.absolute(reverse("admin:battles_battle_change", args=[battle.pk]))
            )
            calendar.add_component(event)
    return calendar.to_ical()


def _deadline_set(campaign: Campaign) -> datetime:
    """When the campaign's next deadline was last set, or near enough, for the event's
    DTSTAMP (RFC 5545: when its information was last revised; not the deadline, a time
    to come, nor the time of the fetch, which a calendar would read as a change every
    time): the latest of the campaign's creation and last save (the GM's pause, resume
    or settings), the last turn played (the deadline counts from it) and the GM's last
    change (a new schedule is one)."""
    annotated = (getattr(campaign, "last_played", None), getattr(campaign, "last_changed", None))
    return max([campaign.created_at, campaign.updated_at, *(t for t in annotated if t)])


@require_safe
def deadlines(request: HttpRequest, user_id: int, token: str) -> HttpResponse:
    user = feed_user(user_id, token)
    answer = HttpResponse(deadlines_calendar(user), content_type="text/calendar; charset=utf-8")
    answer["Cache-Control"] = "private, no-store"
    return answer


# --- the turns ----------------------------------------------------------------------------


class TurnsFeed(Feed):
    """The turns of the user's campaigns, newest first, each as their side saw it."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, user_id: int, token: str) -> Any:
        return feed_user(user_id, token)

    def title(self, user: Any) -> str:
        return f"Korona turns ({user.get_username()})"

    def link(self, user: Any) -> str:
        return reverse("campaigns")

    def subtitle(self, user: Any) -> str:
        return "Every turn played in your campaigns, as you could see it."

    def items(self, user: Any) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = []
        for campaign in campaigns_for(user).order_by("pk"):
            view = open_campaign(user=user, campaign=campaign)
            names = {key: side.name for key, side in view.state.sides.items()}
            readable = readable_battles(view)
            reasons, withdrawals = battle_reasons(readable), battle_withdrawals(readable)
            # A result the GM corrected since the turn's notice went out: its entry is
            # written now, so it says so, as the turn's page does (on the campaign's clock).
            corrections = turn_corrections(view, readable)
            turns = (
                Turn.objects.filter(campaign=campaign, status=Turn.Status.DONE)
                .defer("start_state", "report", "report_text")
                .annotate(**PLAYED_EVENT_TABLES)
                .order_by("-number")[:TURNS_IN_FEED]
            )
            for turn in turns:
                entries.append(
                    {
                        "campaign": campaign,
                        "turn": turn,
                        "side": view.side or "gm",
                        "lines": turnlog.turn_summary(
                            view.records(turn.log, number=turn.number),
                            names,
                            reasons,
                            withdrawals,
                            battle_pieces(readable),
                            tables=turnlog.played_tables(turn, view.state.settings),
                            shares=battle_shares(readable),
                        )
                        + [
                            correction_mark_words(mark, campaign.timezone)
                            for mark in corrections.get(turn.number, [])
                        ],
                    }
                )
        entries.sort(key=lambda e: (e["turn"].finished_at, e["campaign"].pk), reverse=True)
        return entries[:TURNS_IN_FEED]

    def item_title(self, item: dict[str, Any]) -> str:
        return f"{item['campaign'].name}: turn {item['turn'].number}"

    def item_description(self, item: dict[str, Any]) -> str:
        # The summary is HTML to a feed reader: each line escaped, one list item each.
        lines = item["lines"] or [services.nothing_seen(item["side"])]
        return "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>"

    def item_link(self, item: dict[str, Any]) -> str:
        return reverse("turn", args=[item["campaign"].pk, item["turn"].number])

    def item_guid(self, item: dict[str, Any]) -> str:
        return f"korona:{item['campaign'].pk}:turn:{item['turn'].number}:{item['side']}"

    item_guid_is_permalink = False

    def item_pubdate(self, item: dict[str, Any]) -> Any:
        return item["turn"].finished_at

    def item_updateddate(self, item: dict[str, Any]) -> Any:
        return item["turn"].finished_at

    def __call__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        answer = super().__call__(request, *args, **kwargs)
        answer["Cache-Control"] = "private, no-store"
        return answer


urlpatterns = [
    path("feeds/<int:user_id>/<str:token>/deadlines.ics", deadlines, name="feed-deadlines"),
    path(
        "feeds/<int:user_id>/<str:token>/turns.atom", require_safe(TurnsFeed()), name="feed-turns"
    ),
]
