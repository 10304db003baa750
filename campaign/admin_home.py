"""The GM's home page (the admin index): what needs the GM now, above the usual list.

Turns waiting for tabletop results (each battle to enter, with its link), failed turns
with their reason, and for each campaign still being played the sides not ready yet and
the next deadline, soonest first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse

from battles.models import Battle
from battles.web.forces import battle_place, battle_words
from campaign.models import SPECTATOR, Campaign, Membership, SideReady, Turn
from campaign.services.deadlines import moment_words, unentered_words
from campaign.services.turns import played_sides
from campaign.web.maps import local_deadline
from notifications.invitations import waiting_invitations


@dataclass
class Waiting:
    campaign: Campaign
    turn: int
    battles: list[tuple[str, str]]  # (battle_place, the "Enter result" address)
    # "Results wanted by ...: if none is entered by then, ...", as the campaign's page
    # says it; "" for battles with no deadline (no schedule when the turn began).
    wanted: str = ""


@dataclass
class Failed:
    campaign: Campaign
    turn: int
    reason: str
    url: str


@dataclass
class Coming:
    campaign: Campaign
    url: str
    deadline: datetime | None
    deadline_text: str  # in the campaign's own time zone, as every page writes it
    not_ready: list[str] = field(default_factory=list)  # sides a player plays
    by_ai: list[str] = field(default_factory=list)  # sides no player plays: always ready
    paused: bool = False
    waiting: bool = False  # its turn waits for tabletop results
    invited: int = 0  # invitations a player may still use


def deadline_words(campaign: Campaign) -> str:
    """The campaign's next deadline as the players' pages write it, in the campaign's
    own time zone ("Wed 9 Dec 2026, 19:00 Europe/Berlin"); "" for none."""
    found = local_deadline(campaign)
    return "" if found is None else found.text


def _results_to_enter(turn: Turn) -> Waiting:
    """Each battle named by who attacks whom, as the GM's email names it: "battle 1 at
    Korona" and "battle 2 at Korona" could not be told apart; and by when their results
    are wanted, the soonest deadline, as the campaign's page says it."""
    pending = (
        Battle.objects.filter(turn=turn, status=Battle.Status.PENDING)
        .select_related("area", "campaign")
        .prefetch_related("attackers", "defenders", "campaign__sides")
        .order_by("pk")
    )
    campaign = turn.campaign
    deadlines = [b.deadline for b in pending if b.mode == "tabletop" and b.deadline]
    wanted = ""
    if deadlines:
        unentered = unentered_words(
            campaign.get_settings().unentered_tabletop,
            gm=True,
            paused=campaign.status == Campaign.Status.PAUSED,
        )
        when = moment_words(min(deadlines), campaign.timezone)
        wanted = f"Results wanted by {when}: {unentered}."
    return Waiting(
        campaign=campaign,
        turn=turn.number,
        battles=[
            (battle_place(b), reverse("admin:battles_battle_result", args=[b.pk])) for b in pending
        ],
        wanted=wanted,
    )


def results_to_enter(campaign: Campaign) -> Waiting | None:
    """The campaign's turn waiting for its battles' results, each battle with the way to
    its result form; None when no turn waits (the campaign's page offers "Advance turn
    now" then, and these links instead while a turn waits)."""
    turn = (
        Turn.objects.filter(campaign=campaign, status=Turn.Status.BATTLES_PENDING)
        .select_related("campaign")
        .first()
    )
    return None if turn is None else _results_to_enter(turn)


def needs_attention() -> dict[str, Any]:
    waiting = [
        _results_to_enter(turn)
        for turn in Turn.objects.filter(status=Turn.Status.BATTLES_PENDING)
        .select_related("campaign")
        .order_by("created_at")
    ]
    failed = [
        Failed(
            campaign=turn.campaign,
            turn=turn.number,
            reason=turn.failure_reason or "no reason was recorded",
            url=reverse("admin:campaign_turn_change", args=[turn.pk]),
        )
        for turn in Turn.objects.filter(status=Turn.Status.FAILED)
        .exclude(campaign__status=Campaign.Status.FINISHED)
        .select_related("campaign")
        .order_by("-created_at")
    ]
    coming = []
    waiting_ids = {item.campaign.pk for item in waiting}
    campaigns = Campaign.objects.exclude(status=Campaign.Status.FINISHED).prefetch_related("sides")
    played = set(
        Membership.objects.filter(campaign__in=campaigns)
        .exclude(side=SPECTATOR)
        .values_list("campaign_id", "side")
    )
    invited = Counter(waiting_invitations(campaigns).values_list("campaign_id", flat=True))
    for campaign in campaigns:
        ready = _ready(campaign)
        coming.append(
            Coming(
                campaign=campaign,
                url=reverse("admin:campaign_campaign_change", args=[campaign.pk]),
                deadline=campaign.next_deadline,
                deadline_text=deadline_words(campaign),
                # A turn waiting for its results began with the orders it had: no side
                # is waited for.
                not_ready=[]
                if campaign.pk in waiting_ids
                else [
                    s.name
                    for s in campaign.sides.all()
                    if (campaign.pk, s.key) in played and s.key not in ready
                ],
                by_ai=[s.name for s in campaign.sides.all() if (campaign.pk, s.key) not in played],
                paused=campaign.status == Campaign.Status.PAUSED,
                waiting=campaign.pk in waiting_ids,
                invited=invited[campaign.pk],
            )
        )
    coming.sort(key=lambda c: (c.deadline is None, c.deadline or datetime.max, c.campaign.name))
    return {"waiting": waiting, "failed": failed, "coming": coming}


def _ready(campaign: Campaign) -> set[str]:
    """The sides marked ready for the campaign's coming turn."""
    marks = SideReady.objects.filter(campaign=campaign, turn_number=campaign.turn + 1)
    return set(marks.values_list("side", flat=True))


def sides_not_ready(campaign: Campaign) -> list[str]:
    """The names of the sides a player plays that have not marked the coming turn ready
    (the GM's "Advance turn now" says them before it plays the turn)."""
    played = played_sides(campaign)
    ready = _ready(campaign)
    return [s.name for s in campaign.sides.all() if s.key in played - ready]


def no_email(user: Any) -> str:
    """Where a game master without an email address gives one (their own account's page
    in the admin), "" when they have one: battles waiting for their tabletop results are
    emailed to every staff user with an email address, and to no one else."""
    return "" if user.email else reverse("admin:auth_user_change", args=[user.pk])


def _names_now(model: Any, keys: set[Any]) -> dict[Any, str]:
    """The rows of ``model`` still there among ``keys``, each by the name the GM's pages
    give it now. A battle's log entry keeps the name it had when it was written ("1:
    battle 1 at Korona", its ``__str__``), where every GM page now says "At Korona: the
    Japanese 1st Company attacks the Australians' A Company" (``battle_words``); other
    rows are named as they were. One query per kind of row (a battle's forces and its
    campaign's sides, prefetched, three more)."""
    rows = model._default_manager.filter(pk__in=keys)
    if model is not Battle:
        return {key: "" for key in rows.values_list("pk", flat=True)}
    battles = rows.select_related("area", "campaign").prefetch_related(
        "attackers", "defenders", "campaign__sides"
    )
    return {battle.pk: battle_words(battle) for battle in battles}


def recent_actions(user: Any, count: int = 10) -> list[LogEntry]:
    """The GM's latest actions for "Recent actions", newest first, each marked ``gone``
    when its row is no more (a roll-back deletes the battles of the turns it undoes):
    its link would land on Django's "Battle with ID “5” doesn’t exist" (a walk-through).
    A row still there is listed by its name now (``_names_now``); one gone keeps the name
    the log kept. One query for the entries, one per kind of row they name."""
    entries = list(LogEntry.objects.filter(user_id=user.pk).select_related("content_type")[:count])
    rows: dict[Any, list[tuple[LogEntry, Any]]] = {}
    for entry in entries:
        entry.gone = False  # type: ignore[attr-defined]
        model = entry.content_type.model_class() if entry.content_type else None
        if model is None or entry.is_deletion():
            continue  # shown without a link already
        try:
            key = model._meta.pk.to_python(entry.object_id)
        except ValidationError:
            entry.gone = True  # type: ignore[attr-defined]
        else:
            rows.setdefault(model, []).append((entry, key))
    for model, named in rows.items():
        there = _names_now(model, {key for _, key in named})
        for entry, key in named:
            entry.gone = key not in there  # type: ignore[attr-defined]
            if there.get(key):
                entry.object_repr = there[key]
    return entries


def install(site: admin.AdminSite) -> None:
    """The site's index page gets ``attention`` in its context."""
    index = site.index

    def index_with_attention(
        request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> TemplateResponse:
        context = dict(extra_context or {})
        if request.user.is_active and request.user.is_staff:
            context["attention"] = needs_attention()
            context["no_email"] = no_email(request.user)
            context["recent_actions"] = recent_actions(request.user)
        return index(request, context)

    site.index = index_with_attention  # type: ignore[method-assign]
    # The GM's words, not Django's ("Django administration" confused a walk-through).
    site.site_header = "Korona: the game master's desk"
    site.site_title = "Korona: game master"
    site.index_title = "What needs you, and every campaign"
