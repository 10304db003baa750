"""A campaign's messages: the GM's announcements, the public board between the sides and
each side's own channel, shown on ``/campaigns/<id>/messages/`` and notified.

Who reads what (the fog of war covers messages too, rulings 6): announcements and the
public board are for everyone in the campaign; a side's channel is for that side and
the GM only, never the enemy -- not its messages, not how many there are. Who writes:
the GM announces; anyone in the campaign writes on the public board; a side's players
(and the GM) write in its channel.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages as flash
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.http import require_GET, require_http_methods

from campaign.services.fogwords import hidden_in_text
from campaign.services.visibility import CampaignView
from campaign.web.common import campaign_view, login_required, page_context
from campaign.web.maps import signed_in_or_sent_to_login
from config.enqueue import enqueue_message_notices
from notifications.models import Message
from rules.refusals import Refusal

MAX_LENGTH = 2000
Channel = Message.Channel


class MessageRefused(Refusal):
    """A message that may not be written (where, or what); says why."""


def readable(view: CampaignView) -> QuerySet[Message]:
    rows = Message.objects.filter(campaign=view.campaign).select_related("author")
    if view.game_master:
        return rows
    return rows.filter(~Q(channel=Channel.SIDE) | Q(side=view.side))


def channels_for(view: CampaignView) -> list[tuple[str, str, str]]:
    """(channel, side, title) of every board the viewer reads, in the page's order."""
    sides = view.state.sides
    boards: list[tuple[str, str, str]] = [
        (Channel.ANNOUNCEMENT, "", "Announcements from the game master")
    ]
    boards.append((Channel.PUBLIC, "", "The public board, between the sides"))
    own = list(sides) if view.game_master else [view.side or ""]
    for side in own:
        if side in sides:
            label = f"Channel of the {sides[side].name}: only they and the game master read it"
            boards.append((Channel.SIDE, side, label))
    return boards


def board_words(channel: str, side: str, side_names: dict[str, str]) -> str:
    """Where a message was written, as a sentence continues "aus (Australians) ..." on
    the map page: a short place, not the board's heading (which also says who reads it)."""
    if channel == Channel.ANNOUNCEMENT:
        return "in the game master's announcements"
    if channel == Channel.SIDE:
        return f"in the channel of the {side_names.get(side, side)}"
    return "on the public board"


def may_write(view: CampaignView, channel: str, side: str) -> bool:
    if view.campaign.status == "finished" and channel != Channel.PUBLIC:
        return view.game_master
    if channel == Channel.ANNOUNCEMENT:
        return view.game_master
    if channel == Channel.PUBLIC:
        return view.game_master or view.side in view.state.sides  # spectators read only
    if channel == Channel.SIDE:
        return side in view.state.sides and (view.game_master or side == view.side)
    return False


def post(*, view: CampaignView, user: Any, channel: str, side: str, text: str) -> Message:
    """Write a message; ``MessageRefused`` with the reason (nothing written)."""
    text = (text or "").strip()
    if channel not in Channel.values:
        raise MessageRefused(f"{channel!r} is not a board of this campaign")
    side = side if channel == Channel.SIDE else ""
    if not may_write(view, channel, side):
        raise MessageRefused(
            "only the game master writes announcements"
            if channel == Channel.ANNOUNCEMENT
            else "that channel is not yours to write in"
        )
    if not text:
        raise MessageRefused("the message is empty")
    if len(text) > MAX_LENGTH:
        raise MessageRefused(f"a message is at most {MAX_LENGTH} characters ({len(text)} given)")
    if "\x00" in text:  # PostgreSQL stores none in a text column
        raise MessageRefused("a message must not hold a NUL character")
    with transaction.atomic():
        message = Message.objects.create(
            campaign=view.campaign,
            channel=channel,
            side=side,
            author=user,
            author_side="" if view.game_master else (view.side or ""),
            text=text,
        )
        enqueue_message_notices(message.pk)
    return message


class RevealAsked(MessageRefused):
    """The GM's message names what the fog of war hides from some of its readers, and
    the GM has not ticked "Post it anyway" for this very warning: nothing is posted."""


def asked_first(request: HttpRequest, view: CampaignView, channel: str, side: str) -> None:
    """The GM's own words reach players as written, as a change's reason does: an
    announcement or the public board every side and spectator, a side's channel that
    side. Naming a company or a position the fog hides from one of them asks first
    (``campaign.services.fogwords``); the GM posts it by ticking the box for the warning
    the page showed (``warned`` carries it)."""
    read_by = [side] if channel == Channel.SIDE else None
    found = hidden_in_text(
        campaign=view.campaign, text=request.POST.get("text", ""), read_by=read_by
    )
    if not found:
        return
    warning = (
        f"this message names {'; '.join(item.words() for item in found)}, and its readers "
        'read it as written: change it, or tick "Post it anyway" and press Post again'
    )
    if request.POST.get("reveal") and request.POST.get("warned") == warning:
        return
    raise RevealAsked(warning)


def author_words(message: Message, side_names: dict[str, str]) -> str:
    name = message.author.get_username() if message.author else "someone gone"
    if not message.author_side:
        return f"{name} (game master)"
    return f"{name} ({side_names.get(message.author_side, message.author_side)})"


@login_required
@require_http_methods(["GET", "POST"])
def messages_page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    names = {key: side.name for key, side in view.state.sides.items()}
    errors: dict[tuple[str, str], str] = {}
    drafts: dict[tuple[str, str], str] = {}
    asked: dict[tuple[str, str], str] = {}
    if request.method == "POST":
        channel = request.POST.get("channel", "")
        side = request.POST.get("side", "")
        try:
            if view.game_master:
                asked_first(request, view, channel, side)
            post(
                view=view,
                user=request.user,
                channel=channel,
                side=side,
                text=request.POST.get("text", ""),
            )
        except RevealAsked as warning:
            errors[(channel, side)] = str(warning)
            asked[(channel, side)] = str(warning)
            drafts[(channel, side)] = request.POST.get("text", "")[: MAX_LENGTH * 2]
        except MessageRefused as refused:
            errors[(channel, side)] = str(refused)
            drafts[(channel, side)] = request.POST.get("text", "")[: MAX_LENGTH * 2]
        else:
            flash.success(request, "Your message is posted.")
            return HttpResponseRedirect(
                reverse("messages", args=[view.campaign.pk]) + f"#board-{channel}-{side}"
            )
    rows = list(readable(view).order_by("-created_at", "-id")[:500])
    boards = []
    for channel, side, title in channels_for(view):
        boards.append(
            {
                "channel": channel,
                "side": side,
                "title": title,
                "anchor": f"board-{channel}-{side}",
                "rows": [
                    {"message": m, "author": author_words(m, names)}
                    for m in rows
                    if m.channel == channel and m.side == side
                ],
                "writable": may_write(view, channel, side),
                "error": errors.get((channel, side)),
                "draft": drafts.get((channel, side), ""),
                "warned": asked.get((channel, side), ""),
            }
        )
    shown = {(board["channel"], board["side"]) for board in boards}
    stray = next((error for key, error in errors.items() if key not in shown), None)
    return render(
        request,
        "notifications/messages.html",
        page_context(view, boards=boards, max_length=MAX_LENGTH, stray_error=stray),
        status=400 if errors else 200,
    )


LATEST_SHOWN = 3  # messages on the map page; the rest are a link away


@signed_in_or_sent_to_login  # polled from the map: signed out, the whole page goes
@require_GET
def latest_messages(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The newest messages the reader may read, and how many there are, for the map page
    (which loads this by htmx: the map page is cached until a turn is played, the
    messages are not). Through ``readable``: a side's channel is its own and the GM's."""
    view = campaign_view(request, campaign_id)
    names = {key: side.name for key, side in view.state.sides.items()}
    rows = readable(view).order_by("-created_at", "-id")
    latest = [
        {
            "message": m,
            "author": author_words(m, names),
            "board": board_words(m.channel, m.side, names),
            "anchor": f"board-{m.channel}-{m.side}",
        }
        for m in rows[:LATEST_SHOWN]
    ]
    return render(
        request,
        "notifications/_latest.html",
        {
            "campaign": view.campaign,
            "latest": latest,
            "count": rows.count(),
            "where_to_write": where_to_write(view),
        },
    )


def where_to_write(view: CampaignView) -> str:
    """The map's empty messages box: the boards this reader writes on, as ``may_write``
    allows them (a spectator writes on none; an ended campaign's sides, the public board
    only)."""
    if view.game_master:
        return "Write an announcement, on the public board, or in a side's channel."
    if not may_write(view, Channel.PUBLIC, ""):
        return "Spectators read the game master's announcements and the public board."
    if may_write(view, Channel.SIDE, view.side or ""):
        return (
            "Write on the public board, which everyone in the campaign reads, or on your "
            "side's own channel."
        )
    return "Write on the public board, which everyone in the campaign reads."


urlpatterns = [
    path("campaigns/<int:campaign_id>/messages/", messages_page, name="messages"),
    path("campaigns/<int:campaign_id>/messages/latest/", latest_messages, name="messages-latest"),
]
