"""The players' map pages: their campaigns, a campaign's map (live), an area, a company.

Every page reads the campaign through a ``CampaignView`` (``campaign_view``), the one
place that applies the fog of war; the drawing is ``campaign.web.mapdraw``. The map
polls ``campaign-map-live`` (``KORONA_MAP_POLL_SECONDS``, default 15): it answers 204
while the campaign stands as the page drew it, and the new map once a turn has been
played (or the campaign paused, resumed, ended, or adjusted by the GM).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import wraps
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.cache import get_conditional_response
from django.utils.crypto import salted_hmac
from django.utils.safestring import SafeString
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_cookie

from battles.web.lists import area_battle_lines
from campaign.models import SPECTATOR, Campaign, GmAdjustment, Membership, Side, Turn
from campaign.services.deadlines import moment_words, no_deadline_words, side_play, time_zone
from campaign.services.visibility import (
    CampaignView,
    campaign_stamp,
    campaigns_for,
    is_game_master,
    sides_of,
)
from campaign.web import ending, turnlog
from campaign.web.common import campaign_view, login_required, page_context
from campaign.web.mapdraw import (
    CONTESTED_MARK,
    LAST_SEEN_MARK,
    NOBODY_COLOUR,
    NOBODY_INK,
    NOBODY_TAG,
    NOBODY_TINT,
    QUALITIES,
    SIDE_COLOURS,
    SIDE_TINTS,
    SUPPLY_MARK_WORDS,
    MapArea,
    StandsPoint,
    TrackStyle,
    contested_areas,
    draw_map,
    draw_stands_chart,
    focus_across,
    map_areas,
    sample_chip,
    side_tag,
    supply_word,
    track_styles,
    unit_colours,
    unit_label,
    unit_order,
)
from campaign.web.supplyhelp import next_roll, supply_rules
from config import release as code
from rules.campaign.state import SIDE_KEYS, Settings
from rules.campaign.visibility import STRONG_FROM, WEAK_BELOW, CompanyView

POLL_SECONDS = 15


def poll_seconds() -> int:
    """How often an open map asks whether a turn has been played (a setting, so the
    browser tests can make it quick)."""
    return max(1, int(getattr(settings, "KORONA_MAP_POLL_SECONDS", POLL_SECONDS)))


# --- what the pages say about a campaign's clock ---------------------------------------


@dataclass(frozen=True, slots=True)
class Deadline:
    """The next deadline as the pages write it: in the campaign's own time zone (the one
    its schedule uses), its abbreviation named as every other time of the pages names it
    (``moment_words``), and as an ISO time for the countdown."""

    when: datetime
    text: str  # "Sat 14 Jun 2025, 20:00 CEST"
    iso: str
    # The zone's full name, said once where a player reads the campaign's clock (the
    # map's and the campaign list's deadline): "Europe/Berlin"; "" where the
    # abbreviation is the name ("UTC").
    zone: str = ""


def local_deadline(campaign: Campaign) -> Deadline | None:
    if campaign.next_deadline is None:
        return None
    zone = time_zone(campaign.timezone or "UTC") or ZoneInfo("UTC")
    local = campaign.next_deadline.astimezone(zone)
    return Deadline(
        when=campaign.next_deadline,
        text=moment_words(campaign.next_deadline, zone.key),
        iso=local.isoformat(),
        zone="" if zone.key == local.tzname() else zone.key,
    )


def campaign_status(campaign: Campaign) -> str:
    if campaign.status == Campaign.Status.FINISHED:
        return "ended"
    if campaign.status == Campaign.Status.PAUSED:
        return "paused by the game master"
    if campaign.due_turn:
        return f"turn {campaign.due_turn} being played"
    return "active"


@dataclass(frozen=True, slots=True)
class PauseNote:
    """Since when, and why, a campaign is paused, as its pages say it: the GM's pause
    (``set_paused``) on the campaign's clock, and the GM's reason, which every reader
    reads word for word in the log too."""

    since: str  # "Mon 7 Dec 2026, 12:00 AEDT"
    iso: str
    reason: str


def pause_note(campaign: Campaign) -> PauseNote | None:
    """The pause a paused campaign's map says: its last pause's line in the log (one
    query). None when it is not paused, or was paused before pauses had a line."""
    if campaign.status != Campaign.Status.PAUSED:
        return None
    row = (
        GmAdjustment.objects.filter(campaign=campaign, details__kind="pause")
        .order_by("-pk")
        .values_list("created_at", "reason")
        .first()
    )
    return None if row is None else paused_since(campaign, *row)


def paused_since(campaign: Campaign, when: datetime | None, reason: str | None) -> PauseNote | None:
    """The pause a paused campaign's pages say, from its last pause's line (``when`` it
    was made, the GM's ``reason``); None when it is not paused or has no such line."""
    if campaign.status != Campaign.Status.PAUSED or when is None:
        return None
    zone = time_zone(campaign.timezone or "UTC") or ZoneInfo("UTC")
    return PauseNote(
        since=moment_words(when, zone.key),
        iso=when.astimezone(zone).isoformat(),
        reason=reason or "",
    )


def winner_name(campaign: Campaign) -> str:
    if campaign.status != Campaign.Status.FINISHED:
        return ""
    return campaign.get_winner_display() if campaign.winner else "nobody"


@dataclass(frozen=True, slots=True)
class MapStamp:
    """What the map was drawn from: when any of it changes, the map is drawn again."""

    turn: int
    status: str
    next_deadline: datetime | None
    last_turn: int | None
    last_turn_status: str | None
    last_adjustment: int | None
    # Saving a turn's snapshot, the settings (fog of war among them) or a rollback
    # touches the campaign row: a change the other fields could miss.
    updated_at: datetime | None = None
    side: str | None = None  # the reader's side (None: the GM); moving a player redraws
    # The reader plays the one side a player plays (campaign_stamp): a player joining or
    # leaving another side redraws the next-turn line; so does a teammate joining or
    # leaving the reader's side (``teammates``), whose "ready" counts too.
    solo: bool | None = None
    teammates: bool | None = None
    # The sides a player plays, sorted, joined by commas (public: the ready box says
    # which sides the campaign AI plays): what a sensible company does with no order
    # follows it (the API's ``with_no_order``). For a player it changes with ``solo``.
    # None: not read (the campaign list's line), so not known to be none.
    played: str | None = ""

    @property
    def played_sides(self) -> frozenset[str]:
        return frozenset((self.played or "").split(",")) - {""}

    @property
    def unplayed(self) -> bool:
        """Read, and no player plays any side: no "ready" makes a turn due."""
        return self.played is not None and not self.played_sides

    @property
    def token(self) -> str:
        deadline = int(self.next_deadline.timestamp()) if self.next_deadline else ""
        updated = int(self.updated_at.timestamp() * 1_000_000) if self.updated_at else 0
        return (
            f"{self.turn}.{self.status}.{self.last_turn or 0}.{self.last_turn_status or ''}."
            f"{deadline}.{self.last_adjustment or 0}.{updated}.{self.side or 'gm'}"
            f"{'.solo' if self.solo else ''}{'.team' if self.solo and self.teammates else ''}"
            f".{'-'.join(sorted(self.played_sides))}"  # no comma: the token goes in URLs
        )


@dataclass(frozen=True, slots=True)
class NextTurn:
    """What the map's header says of the next turn: one line, true in every state."""

    state: str  # ended, paused, playing, battles, failed, deadline, by-gm
    # "" for "ended"; for "deadline" only whose "ready" plays it sooner (the page writes
    # the deadline itself), "" when no ready does
    words: str
    # Paused while a turn waits for its battles: the words say that turn first (the
    # campaigns list then shows them rather than its own words for a pause).
    waits: bool = False


def played_by_one(
    campaign: Campaign, stamp: MapStamp, side_names: Mapping[str, str] | None = None
) -> str | None:
    """The name of the one side a player plays, to a reader who is not its player (a
    spectator, the GM): the other side is the campaign AI's, always ready, so that
    side's "ready" plays the turn. None otherwise (the side's own player reads it in
    solo terms). ``side_names``: each side's name by key; read from the campaign when
    not given, and only then."""
    played = stamp.played_sides
    if stamp.solo or len(played) != 1:
        return None
    (key,) = played
    names = (
        side_names if side_names is not None else dict(campaign.sides.values_list("key", "name"))
    )
    return names.get(key, key)


def next_turn(
    campaign: Campaign, stamp: MapStamp, side_names: Mapping[str, str] | None = None
) -> NextTurn:
    """The next turn's line on the map, from the campaign and its last turn: once ended
    nothing is played; paused, no turn but one the GM plays by hand until the GM resumes
    it (a deadline that was set is not counted down); a turn being played, waiting for
    its battles or failed is that turn, not the one after it. With no deadline, in solo
    terms when the stamp says the reader is the one player (``solo``: every other side
    the campaign AI's, always ready); to any other reader of such a campaign, naming the
    side whose "ready" plays it (``played_by_one``)."""
    number, status = stamp.last_turn, stamp.last_turn_status
    if campaign.status == Campaign.Status.FINISHED:
        return NextTurn("ended", "")
    if campaign.status == Campaign.Status.PAUSED:
        if status == Turn.Status.BATTLES_PENDING:
            # The pause holds back the turn after it, not this one's results.
            return NextTurn(
                "paused",
                f"{_battles_words(campaign, number)} {_paused_waiting_words(number)}",
                waits=True,
            )
        return NextTurn("paused", _paused_words(campaign, stamp, side_names))
    if status in (Turn.Status.QUEUED, Turn.Status.ROLLING) or campaign.due_turn:
        playing = campaign.due_turn or number
        return NextTurn("playing", f"Turn {playing} is being played now.")
    if status == Turn.Status.BATTLES_PENDING:
        return NextTurn("battles", _battles_words(campaign, number))
    if status == Turn.Status.FAILED:
        return NextTurn(
            "failed", f"Turn {number} could not be played; it waits for the game master."
        )
    if campaign.next_deadline is not None:
        return NextTurn("deadline", _sooner_words(campaign, stamp, side_names))
    words = no_deadline_words(
        campaign.turn + 1,
        solo=bool(stamp.solo),
        teammates=bool(stamp.teammates),
        unplayed=stamp.unplayed,
        played_by=played_by_one(campaign, stamp, side_names),
    )
    return NextTurn("by-gm", words)


def _sooner_words(
    campaign: Campaign, stamp: MapStamp, side_names: Mapping[str, str] | None = None
) -> str:
    """Whose "ready" plays the turn before its deadline (``schedule.mark_side_ready``),
    said after the deadline: a solo player read "played at the deadline" and waited days
    for a turn their own "ready" plays at once (the walk of 7 December 2026). Nothing
    when no player plays a side: then only the deadline or the GM plays it."""
    if stamp.unplayed:
        return ""
    if stamp.solo and stamp.teammates:
        return "Or sooner, when you or a teammate marks your side's orders ready."
    if stamp.solo:
        return "Or sooner, when you mark your orders ready."
    played_by = played_by_one(campaign, stamp, side_names)
    if played_by:
        return f"Or sooner, when the {played_by} mark their orders ready."
    return "Or sooner, once every side is ready."


def _battles_words(campaign: Campaign, number: int | None) -> str:
    """A turn waiting for its battles: at the table, for the game master's results, or
    on a schedule whose campaign says so (``unentered_tabletop``), for the rules to
    fight at their deadline those still without one."""
    settings = campaign.get_settings()
    if settings.battle_mode == "tabletop":
        fought = (
            ", or when the computer has fought by the rules those still without one at their "
            "deadline"
            if settings.unentered_tabletop == "auto" and campaign.schedule_kind != "none"
            else ""
        )
        return (
            f"Turn {number} waits for its battles to be fought on the table: it ends when "
            f"the game master has entered their results{fought}."
        )
    return f"The battles of turn {number} are being fought: the turn ends with them."


def _paused_waiting_words(number: int | None) -> str:
    """What a pause holds back while a turn waits for its battles: the turn after it
    (the results may still come in), until the game master resumes the campaign."""
    following = f"turn {number + 1}" if number is not None else "the next turn"
    return (
        f"The game master has paused the campaign: {following} is not played until they "
        "resume it, though they may play it by hand."
    )


def _paused_words(
    campaign: Campaign, stamp: MapStamp, side_names: Mapping[str, str] | None = None
) -> str:
    """What a pause holds back: the turns its schedule (if it has one) and its players'
    "ready" would play; not the GM's, who may play one by hand whatever the pause
    (``advance_turn``). In solo terms as ``no_deadline_words``. With no player on any
    side no "ready" plays a turn, paused or not: only the schedule, if there is one."""
    if stamp.unplayed:
        if campaign.schedule_kind == "none":
            return (
                "The game master has paused the campaign: a turn is played only when they "
                "play one by hand (no player plays a side)."
            )
        return (
            "The game master has paused the campaign: no turn is played on its schedule "
            "until they resume it; they may still play one by hand."
        )
    if stamp.solo and stamp.teammates:
        ready = "your side's orders are"
    elif stamp.solo:
        ready = "your orders are"
    elif one := played_by_one(campaign, stamp, side_names):
        ready = f"the {one} are"
    else:
        ready = "every side is"
    return (
        "The game master has paused the campaign: no turn is played "
        + ("on its schedule or " if campaign.schedule_kind != "none" else "")
        + f"when {ready} ready until they resume it; they may still play one by hand."
    )


def stamp_seconds() -> int:
    """How long a reader's stamp is kept (``KORONA_STAMP_SECONDS``; 0: asked every time)."""
    return max(0, int(getattr(settings, "KORONA_STAMP_SECONDS", 0)))


def map_stamp(*, user: Any, campaign_id: int) -> MapStamp | None:
    """The campaign's stamp, or None if the user may not see it: one query
    (``campaign.services.visibility.campaign_stamp``), kept for the reader for
    ``KORONA_STAMP_SECONDS`` (a second by default). A map under load then asks the
    database once a second per reader, and a played turn or a revoked membership shows
    at most that much later (the map polls every 15 seconds anyway).

    Kept because it holds the map page above half the ceiling of bench/web.py: asked
    every time, the stamp query (the one query of a 304) brought the reload from 64% to
    44% of the ceiling (CPU time per request, in process, on this 2-core machine)."""
    seconds = stamp_seconds()
    key = f"map-stamp:{campaign_id}:{getattr(user, 'pk', None)}"
    if seconds and (kept := cache.get(key)) is not None:
        return kept or None  # False: kept "may not see it"
    row = campaign_stamp(user=user, campaign_id=campaign_id)
    stamp = None if row is None else MapStamp(**row)
    if seconds:
        cache.set(key, stamp or False, seconds)
    return stamp


# --- the campaign list ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CampaignEntry:
    campaign: Campaign
    side: str | None  # the user's side; None for the GM
    side_name: str  # as every other page names it: "Australians"
    deadline: Deadline | None
    status: str
    winner: str
    next_turn: NextTurn  # in the map's words (``next_turn``)
    # Paused (and no turn waiting for its battles): what the list says instead.
    paused_words: str
    pause: PauseNote | None  # paused: since when and why (``paused_since``)
    length: ending.Length | None  # the coming turn of how many; None once ended
    outcome: str  # who won and why, once ended (``ending.outcome``)
    # A player's own side's lot once ended ("Your side won."); "" for the GM, a
    # spectator, and while the campaign is played.
    verdict: str = ""


def verdict_of(campaign: Campaign, side: str | None, sides: Mapping[str, str]) -> str:
    """Whether the reader's side won a finished campaign, in words: "Your side won.",
    "Your side lost." (another side won), "Nobody won."; "" for a
    reader with no side (the GM, a spectator) or while it is played."""
    if campaign.status != Campaign.Status.FINISHED or side not in sides:
        return ""
    if campaign.winner == side:
        return "Your side won."
    return "Your side lost." if campaign.winner else "Nobody won."


def outcome_after(
    campaign: Campaign, rules_settings: Settings, side: str | None, sides: Mapping[str, str]
) -> str:
    """What the campaign list says after the reader's verdict (``verdict_of``): who won
    and why (``ending.outcome``), but only why when the verdict already says who won,
    their own side or nobody. "Your side won. The Australians won: they held Korona"
    said the winner twice."""
    if verdict_of(campaign, side, sides) and campaign.winner in (side, None, ""):
        return ending.why(campaign, rules_settings, sides)
    return ending.outcome(campaign, rules_settings, sides)


def _listed(user: Any) -> QuerySet[Campaign]:
    """The campaigns of the list, each with what the map's next-turn line reads (its
    last turn and that turn's status) and the name of the side the user plays there,
    in the same query, with the name of each of its sides (``<key>_name``), by which a
    finished one's outcome is told."""
    last = Turn.objects.filter(campaign=OuterRef("pk")).order_by("-number")
    played = Membership.objects.filter(campaign=OuterRef(OuterRef("pk")), user=user)
    side = Side.objects.filter(campaign=OuterRef("pk"), key=Subquery(played.values("side")[:1]))
    # A side played by someone, other than the user's own (``deadlines.side_play``).
    others = (
        Membership.objects.filter(campaign=OuterRef("pk"))
        .exclude(side=SPECTATOR)
        .exclude(side=Subquery(played.values("side")[:1]))
    )
    # The last pause's line: a paused campaign's "since when and why" (``paused_since``).
    pause = GmAdjustment.objects.filter(campaign=OuterRef("pk"), details__kind="pause").order_by(
        "-pk"
    )
    # Anyone playing a side at all: with nobody, no "ready" plays a turn.
    players = Membership.objects.filter(campaign=OuterRef("pk")).exclude(side=SPECTATOR)
    # Another player of the user's own side (``deadlines.side_play``).
    teammates = (
        Membership.objects.filter(campaign=OuterRef("pk"), side=Subquery(played.values("side")[:1]))
        .exclude(side=SPECTATOR)
        .exclude(user=user)
    )
    return campaigns_for(user).annotate(
        last_turn=Subquery(last.values("number")[:1]),
        last_turn_status=Subquery(last.values("status")[:1]),
        side_name=Subquery(side.values("name")[:1]),
        others_play=Exists(others),
        teammates=Exists(teammates),
        anyone_plays=Exists(players),
        # The first and last side a player plays: the same when one side alone is
        # played, whose "ready" plays the turn (``played_by_one``).
        first_played=Subquery(players.order_by("side").values("side")[:1]),
        last_played=Subquery(players.order_by("-side").values("side")[:1]),
        paused_at=Subquery(pause.values("created_at")[:1]),
        pause_reason=Subquery(pause.values("reason")[:1]),
        **{
            f"{key}_name": Subquery(
                Side.objects.filter(campaign=OuterRef("pk"), key=key).values("name")[:1]
            )
            for key in SIDE_KEYS
        },
    )


def _next_turn_of(row: Any, side: str | None) -> NextTurn:
    """The map's next-turn line for a row of ``_listed``, read by the player of ``side``
    (None: the GM), in solo terms when no one else plays a side."""
    # The user plays their side (``_listed`` found their membership of it).
    play = side_play(side, played=True, others_play=row.others_play, teammates=row.teammates)
    stamp = MapStamp(
        turn=row.turn,
        status=row.status,
        next_deadline=row.next_deadline,
        last_turn=row.last_turn,
        last_turn_status=row.last_turn_status,
        last_adjustment=None,
        solo=play.solo,
        teammates=play.teammates,
        # Which sides are played is read only when one side alone is (its "ready" plays
        # the turn): "" when none is (only the GM's button plays a turn), None (not
        # read) when both are.
        played=_one_played(row),
    )
    names = {key: name for key in SIDE_KEYS if (name := getattr(row, f"{key}_name", None))}
    return next_turn(row, stamp, names)


def _one_played(row: Any) -> str | None:
    """The row's played sides as a stamp has them, when at most one is: "" (none),
    "australian" (one); None, not read, when more are."""
    if not row.anyone_plays:
        return ""
    first, last = getattr(row, "first_played", None), getattr(row, "last_played", None)
    return first if first is not None and first == last else None


def _paused_list_words(row: Any) -> str:
    """A paused campaign's next turn on the list, shorter than the map's line: the GM
    may play one by hand; resuming plays the next only if a schedule or a player's
    "ready" would."""
    if not row.anyone_plays and row.schedule_kind == "none":
        return "none until the game master plays one by hand (no player plays a side)"
    return "none until the game master resumes the campaign or plays one by hand"


@login_required
@require_safe
def campaigns(request: HttpRequest) -> HttpResponse:
    sides = sides_of(request.user)
    entries = []
    for row in _listed(request.user):
        settings = row.get_settings()
        names = {key: name for key in SIDE_KEYS if (name := getattr(row, f"{key}_name"))}
        entries.append(
            CampaignEntry(
                campaign=row,
                side=sides.get(row.pk),
                side_name=getattr(row, "side_name", None)
                or str(sides.get(row.pk, "")).capitalize(),
                deadline=local_deadline(row),
                status=campaign_status(row),
                winner=winner_name(row),
                next_turn=_next_turn_of(row, sides.get(row.pk)),
                paused_words=_paused_list_words(row),
                pause=paused_since(
                    row, getattr(row, "paused_at", None), getattr(row, "pause_reason", None)
                ),
                length=ending.length_of(row, settings, getattr(row, "last_turn_status", None)),
                outcome=outcome_after(row, settings, sides.get(row.pk), names),
                verdict=verdict_of(row, sides.get(row.pk), names),
            )
        )
    # Those being played first, then those that have ended (the walk of 7 December 2026
    # found them mixed): each group in the list's own order.
    over = {entry.campaign.pk for entry in entries if entry.campaign.status == "finished"}
    return render(
        request,
        "campaign/campaigns.html",
        {
            "entries": entries,
            "groups": [
                ("Being played", [e for e in entries if e.campaign.pk not in over]),
                ("Ended", [e for e in entries if e.campaign.pk in over]),
            ],
            "game_master": is_game_master(request.user),
        },
    )


# --- the map ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SampleChip:
    """A chip drawn in the legend: in the colours of the side it stands for."""

    chip: SafeString
    side_name: str  # "Australians"
    own: bool  # a company seen in full (the reader's own; for the GM, every side's)


def standing_words(order: str | None, *, played: bool, game_master: bool = False) -> str:
    """What a company given no order does, in words, never its key: the one sentence the
    player's company page, the GM's and the admin's list of companies read, so they
    agree. ``sensible`` is the campaign AI's, which plays only a side no player plays
    (``rules.campaign.phases.movement``): on a side a player plays, the company holds.
    ``played``: a player plays the company's side. The GM also reads which it is, by the
    word of the action that sets it, first: "hold (sensible: its side has a player)" read
    as "hold is sensible"."""
    if game_master and order == "sensible":
        if played:
            return "sensible (its side has a player, so it holds)"
        return "sensible (its side has no player: the campaign AI chooses)"
    if order == "aggressive":
        return "advance towards the enemy by itself"
    if order == "sensible" and not played:
        return "the campaign AI's choice"
    if order == "sensible" and not game_master:
        # Nobody chose it: it is every company's default, and a player reading "hold"
        # alone took it for the GM's choice (the walk-through).
        return "hold (the default while you play this side)"
    return "hold"


@dataclass(frozen=True, slots=True)
class HolderKey:
    """A line of the legend on who holds an area: the tint's swatch and the words of the
    area's tag, in their colour ("AUS": held by the Australians)."""

    name: str  # "the Australians", "nobody"
    colour: str
    tint: str
    tag: str
    ink: str  # the tag's colour: its border and words


@dataclass(frozen=True, slots=True)
class Legend:
    tracks: list[TrackStyle]
    holders: list[HolderKey]  # each side's
    nobody: HolderKey
    features: list[tuple[str, str]]  # glyph, words
    chips: list[SampleChip]
    supply_marks: list[tuple[str, str]]  # mark, words
    qualities: list[str]
    weak_below: int
    strong_from: int
    last_seen_mark: str = "?"  # after the tag of control as last seen: "AUS?"
    last_seen: bool = False  # some area's control is only as the reader last saw it
    contested_mark: str = CONTESTED_MARK  # after the tag of a contested area
    contested: bool = False  # some area has both sides' fighting companies the reader sees
    battles: str = ""  # a past turn's map: what its battle marks are ("a battle of the turn")
    # What a hatched area means to the reader: a side's player last saw it so; a
    # spectator, who sees no area while the campaign is played, reads the start's holder.
    last_seen_words: str = ""
    # Some area may be drawn as held now (a solid tag): never on a spectator's map while
    # the campaign is played, whose legend explained "AUS held by the Australians" for
    # tags it never shows (the solo walk of 7 December 2026).
    solid: bool = True

    @property
    def holder_keys(self) -> list[HolderKey]:
        """The solid tags' lines ("AUS held by the Australians", "none held by nobody"),
        none where the map draws no solid tag."""
        return [*self.holders, self.nobody] if self.solid else []


# "Your own areas too": a walk-through's player took their side's rear areas, hatched,
# for areas the map said were lost (rulings 6: any area out of sight, "even one it held").
PLAYER_LAST_SEEN = (
    "held by that side when you last saw it (out of your companies' sight since: your own "
    "areas too, which the enemy may have taken unseen)"
)
SPECTATOR_LAST_SEEN = (
    "held by that side at the start: a spectator sees who holds an area only once the "
    "campaign has ended"
)


def legend_chips(view: CampaignView) -> list[SampleChip]:
    """The chips the legend explains, each in its side's own colours: the reader's side
    in full and each other side as a glimpse; for the GM (who sees every company in
    full) each side in full; for a spectator none (no company is on their map while the
    campaign is played)."""
    sides = view.state.sides.values()
    if view.sees_everything:
        return [SampleChip(sample_chip(s.key, glimpse=False), s.name, True) for s in sides]
    if view.spectating:
        return []
    own = [
        SampleChip(sample_chip(s.key, glimpse=False), s.name, True)
        for s in sides
        if s.key == view.side
    ]
    enemies = [
        SampleChip(sample_chip(s.key, glimpse=True), s.name, False)
        for s in sides
        if s.key != view.side
    ]
    return own + enemies


def legend(view: CampaignView, areas: list[MapArea] | None = None) -> Legend:
    """The map's legend; given the map's rows (``map_areas``), from what they draw."""
    if areas is None:
        contested = bool(contested_areas(view.companies))
    else:
        contested = any(row.contested for row in areas)
    return Legend(
        tracks=list(track_styles(view.state).values()),
        holders=[
            HolderKey(
                f"the {side.name}",
                SIDE_COLOURS.get(side.key, ""),
                SIDE_TINTS.get(side.key, ""),
                side_tag(side.key),
                SIDE_COLOURS.get(side.key, NOBODY_INK),
            )
            for side in view.state.sides.values()
        ],
        nobody=HolderKey("nobody", NOBODY_COLOUR, NOBODY_TINT, NOBODY_TAG, NOBODY_INK),
        last_seen_mark=LAST_SEEN_MARK,
        features=[
            ("⚓", "port"),
            ("✈", "airfield or airstrip"),
            ("★", "HQ"),
            ("⌂", "a side's base"),
        ],
        chips=legend_chips(view),
        supply_marks=list(SUPPLY_MARK_WORDS.items()),
        qualities=list(QUALITIES),
        weak_below=round(WEAK_BELOW * 100),
        strong_from=round(STRONG_FROM * 100),
        last_seen=any(view.last_seen(name) is not None for name in view.state.areas),
        contested=contested,
        last_seen_words=SPECTATOR_LAST_SEEN if view.spectating else PLAYER_LAST_SEEN,
        solid=not view.spectating,
    )


def map_context(request: HttpRequest, view: CampaignView, stamp: MapStamp) -> dict[str, Any]:
    areas = map_areas(view)
    live = reverse("campaign-map-live", args=[view.campaign.pk])
    length = ending.length_of(view.campaign, view.state.settings, stamp.last_turn_status)
    return page_context(
        view,
        areas=areas,
        svg=draw_map(view, areas, title=map_title(view, length)),
        focus_across=focus_across(view, areas),
        legend=legend(view, areas),
        stamp=stamp,
        deadline=local_deadline(view.campaign),
        next_turn=next_turn(view.campaign, stamp, side_names_of(view)),
        pause=pause_note(view.campaign),
        winner=winner_name(view.campaign),
        outcome=ending.outcome(view.campaign, view.state.settings, side_names_of(view)),
        length=length,
        how_won=ending.how_won(view.state.settings, player=view.side in view.state.sides),
        poll_url=f"{live}?{urlencode({'seen': stamp.token})}",
        poll_seconds=poll_seconds(),
        side_names=side_names_of(view),
    )


def map_title(view: CampaignView, length: ending.Length | None) -> str | None:
    """The map's title while a turn waits for its battles: the map shows its companies
    where they moved to, not as they stood after the last turn played (None: the
    drawing's own title, "after turn N")."""
    if length is None or not length.waiting:
        return None
    return f"Map of {view.campaign.name} during turn {length.number}, waiting for its battles"


def side_names_of(view: CampaignView) -> dict[str, str]:
    return {side.key: side.name for side in view.state.sides.values()}


def _stamp_or_404(request: HttpRequest, campaign_id: int) -> MapStamp:
    stamp = map_stamp(user=request.user, campaign_id=campaign_id)
    if stamp is None:
        raise Http404("no such campaign")
    return stamp


def map_etag(request: HttpRequest, stamp: MapStamp) -> str | None:
    """The map page's ETag, or None when the page must not be revalidated.

    A digest of what the page is drawn from and nothing the reader may not know: the
    stamp (which the page itself prints, in its poll's address), the reader as the page
    names them (id, name, staff or not), their CSRF secret (the page's forms carry a
    token of it: a browser whose cookie changed, as at sign-in, gets a page drawn
    afresh) and the release (``config.release``: a page kept from before an upgrade is
    drawn again with the new code, though the campaign has not changed). The digest is
    keyed with ``SECRET_KEY``, so it does not show the secret. No ETag without a CSRF
    cookie (the page makes one), nor with messages to show: those pages are drawn."""
    secret = request.META.get("CSRF_COOKIE")
    if not secret or len(messages.get_messages(request)):
        return None
    user = request.user
    reader = f"{user.pk}|{user.get_username()}|{user.is_staff}|{secret}"
    drawn_by = f"{stamp.token}|{reader}|{code.release()}"
    digest = salted_hmac("korona.map-page", drawn_by, algorithm="sha256")
    return f'"{digest.hexdigest()[:32]}"'


@login_required
@vary_on_cookie  # a page of one reader's: no shared cache may store or mix it
@cache_control(private=True, no_cache=True)  # the browser asks again each time (ETag)
@require_safe
def campaign_map(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The map. A browser that has the page as it stands gets 304 (Not Modified) after
    one query: the stamp, which also decides access (404 for a stranger)."""
    # Django's ``condition`` decorator, written out: its ETag function would ask the stamp
    # once and the view again.
    stamp = _stamp_or_404(request, campaign_id)
    etag = map_etag(request, stamp)
    response = get_conditional_response(request, etag=etag) if etag else None
    if response is None:
        view = campaign_view(request, campaign_id)
        response = render(request, "campaign/map.html", map_context(request, view, stamp))
        # A first page makes the CSRF cookie it carries a token of: its ETag is of it.
        etag = etag or map_etag(request, stamp)
    if etag is not None and request.method in ("GET", "HEAD"):
        response.headers.setdefault("ETag", etag)
    return response


def signed_in_or_sent_to_login(
    page: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """``login_required`` for a polled fragment, whose own address is no page: signed out,
    to the sign-in page and from there to the campaign's map. htmx's poll gets that as
    ``HX-Redirect``, its ``next`` the page the poll came from (``config.signedout``), so
    the sign-in form is never swapped into the map or the orders page."""

    @wraps(page)
    def guarded(request: HttpRequest, campaign_id: int, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return page(request, campaign_id, **kwargs)
        return redirect_to_login(reverse("campaign-map", args=[campaign_id]))

    return guarded


@signed_in_or_sent_to_login
@require_safe
def campaign_map_live(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The map's poll: 204 (htmx swaps nothing) while the stamp is the one the page was
    drawn with; the new live part of the map once it is not, with what changed in words
    for the page's live region (``#map-news``, which stays: only its contents change)."""
    stamp = _stamp_or_404(request, campaign_id)
    if request.GET.get("seen") == stamp.token:
        return HttpResponse(status=204)
    view = campaign_view(request, campaign_id)
    return render(request, "campaign/map.html#redraw", map_context(request, view, stamp))


# --- an area ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Neighbour:
    name: str
    area_id: int
    track: str


@login_required
@require_safe
def area(request: HttpRequest, campaign_id: int, area_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    name = view.area_by_id(area_id)
    if name is None:
        raise Http404("no such area")
    row = next(row for row in map_areas(view) if row.area_id == area_id)
    state = view.state
    neighbours = sorted(
        (
            Neighbour(other, view.ids.areas[other], state.areas[other].track)
            for a, b in state.links
            if name in (a, b)
            for other in [b if a == name else a]
        ),
        key=lambda n: (state.areas[n.name].zone, n.name),
    )
    side_names = {side.key: side.name for side in state.sides.values()}
    # The reader's own companies by name; every side's for the GM, or with nothing hidden.
    named = None if view.sees_everything else {view.side or ""}
    battles = area_battle_lines(view, area_id, side_names, named=named)
    return render(
        request,
        "campaign/area.html",
        page_context(
            view,
            row=row,
            neighbours=neighbours,
            battles=battles,
            side_names=side_names,
            fog=not view.sees_everything,
            spectator=view.side == SPECTATOR,  # no side: no "your companies"
        ),
    )


# --- a company ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandsRow:
    unit: str
    label: str
    held: int
    establishment: int
    colour: str


@dataclass(frozen=True, slots=True)
class CompanyRecord:
    turn: int
    record: dict[str, Any]
    words: str  # the record in a player's words (turnlog.record_words)
    battle_id: int | None = None  # the battle's report, for a battle's lines


@dataclass(slots=True)
class CompanyHistory:
    points: list[StandsPoint] = field(default_factory=list)
    supply_rolls: list[CompanyRecord] = field(default_factory=list)
    other_records: list[CompanyRecord] = field(default_factory=list)
    waiting: int | None = None  # the turn under way whose battles are not all in


def about_company(record: dict[str, Any], name: str) -> bool:
    return record.get("company") == name or name in (
        *(record.get("attackers") or ()),
        *(record.get("defenders") or ()),
    )


def company_history(view: CampaignView, company: CompanyView) -> CompanyHistory:
    """A fully visible company's stands turn by turn and the turn records about it.

    Stands come from each turn's ``start_state`` (the campaign as the turn began) and
    the current state; records from the turn logs, through ``view.records`` (fog), a
    battle's linked to its report. Only for a company the viewer sees in full: a glimpse
    must not be given its history. Two queries (the readable battles, the turns)."""
    if not company.full:
        raise ValueError("a glimpsed company has no history to show")
    battle_ids = dict(view.battles().values_list("key", "id"))
    history = CompanyHistory()
    points: dict[int, StandsPoint] = {}
    turns = (
        Turn.objects.filter(campaign=view.campaign)
        .order_by("number")
        .values_list("number", "start_state", "log", "status")
    )
    for number, start_state, log, status in turns:
        if status == Turn.Status.BATTLES_PENDING:
            history.waiting = number
        for row in (start_state or {}).get("companies", []):
            if row.get("name") == company.name:
                played = int((start_state or {}).get("turn", number - 1))
                stands = dict(row.get("stands") or {})
                points[played] = StandsPoint(
                    played, stands, dict(row.get("establishment") or stands)
                )
        records = view.records(log or [], number=number)
        # Its supply verdict, which says why its aggressive standing order moved it.
        reading = turnlog.Reading(supply=turnlog.supply_verdicts(records))
        for record in records:
            if not about_company(record, company.name):
                continue
            target = history.supply_rolls if record.get("kind") == "supply" else None
            (target if target is not None else history.other_records).append(
                CompanyRecord(
                    number,
                    record,
                    turnlog.record_words(record, reading),
                    battle_ids.get(str(record.get("battle"))) if record.get("battle") else None,
                )
            )
    points[view.campaign.turn] = StandsPoint(
        view.campaign.turn, dict(company.stands or {}), dict(company.establishment or {})
    )
    history.points = [points[played] for played in sorted(points)]
    return history


@dataclass(frozen=True, slots=True)
class Glimpse:
    """All a viewer may know of an enemy company in sight (no name: it can carry the
    company's quality, as "C Company (militia)" does)."""

    side: str
    kind: str
    area: str
    strength_band: str


@login_required
@require_safe
def glimpse(request: HttpRequest, campaign_id: int, handle: str) -> HttpResponse:
    """An enemy company in sight, reached only by its handle (``CompanyView.glimpse``):
    its side, kind, area and band. The handle is of the turn it was given in; a stale
    one, like any other, is not found."""
    view = campaign_view(request, campaign_id)
    shown = view.glimpse(handle)
    if shown is None:
        raise Http404("no such company in sight")
    side_names = {side.key: side.name for side in view.state.sides.values()}
    return render(
        request,
        "campaign/company.html",
        page_context(
            view,
            glimpse=Glimpse(shown.side, shown.kind, shown.area, shown.strength_band),
            weak_below=round(WEAK_BELOW * 100),
            strong_from=round(STRONG_FROM * 100),
            area_id=view.area_id(shown.area),
            side_name=side_names.get(shown.side, shown.side),
        ),
    )


def standing_line(view: CampaignView, shown: CompanyView) -> str:
    """A company's standing order on its page. A player's side has a player (them); the
    GM's page asks whether the company's side has one (a query of the GM's alone). An
    enemy company a player sees in full (no fog of war, or the campaign over) is not
    theirs to order: its page says what the order does on either footing."""
    if not view.game_master and shown.side != view.side:
        if shown.standing_order == "sensible":
            words = "hold while a player plays its side, else the campaign AI's choice"
        else:
            words = standing_words(shown.standing_order, played=True)
        return f"{words}, used when it is given no order"
    if not view.game_master:
        words = standing_words(shown.standing_order, played=True)
        return (
            f"{words}: what it does when you give it no order; only the game master can change it"
        )
    played = Membership.objects.filter(campaign=view.campaign, side=shown.side).exists()
    words = standing_words(shown.standing_order, played=played, game_master=True)
    return f"{words}, used when it is given no order"


@login_required
@require_safe
def company(request: HttpRequest, campaign_id: int, company_id: int) -> HttpResponse:
    """A company the reader sees in full. A glimpsed enemy's id is not found, like one
    out of sight: its id would tell which company the glimpse is."""
    view = campaign_view(request, campaign_id)
    shown = view.company_by_id(company_id)
    if shown is None:
        raise Http404("no such company")
    side_names = {side.key: side.name for side in view.state.sides.values()}
    area_id = view.area_id(shown.area)
    common = {"area_id": area_id, "side_name": side_names.get(shown.side, shown.side)}
    history = company_history(view, shown)
    colours = unit_colours(unit_order(history.points))
    stands = [
        StandsRow(
            unit,
            unit_label(unit),
            (shown.stands or {}).get(unit, 0),
            (shown.establishment or {}).get(unit, 0),
            colours.get(unit, "#000"),
        )
        for unit in unit_order(history.points[-1:])
        # a unit type killed to the last stand is off the establishment too: not listed
        if (shown.establishment or {}).get(unit, 0) or (shown.stands or {}).get(unit, 0)
    ]
    return render(
        request,
        "campaign/company.html",
        page_context(
            view,
            shown=shown,
            stands=stands,
            held=shown.strength,
            establishment=sum((shown.establishment or {}).values()),
            supply=supply_word(shown),
            standing=standing_line(view, shown),
            history=history,
            chart=draw_stands_chart(history.points),
            units=[(unit_label(unit), colour) for unit, colour in colours.items()],
            may_order=view.may_order(shown),
            losses_replaceable=view.state.settings.supply_replaces_battle_losses,
            supply_rules=supply_rules(view),
            # While a turn waits for its battles its roll is made, and the next one's
            # waits on where their results leave the company.
            next_roll=None
            if history.waiting is not None
            else next_roll(view, shown, view.state.turn + 1),
            **common,
        ),
    )


urlpatterns = [
    path("campaigns/", campaigns, name="campaigns"),
    path("campaigns/<int:campaign_id>/", campaign_map, name="campaign-map"),
    path("campaigns/<int:campaign_id>/map/live/", campaign_map_live, name="campaign-map-live"),
    path("campaigns/<int:campaign_id>/areas/<int:area_id>/", area, name="area"),
    path("campaigns/<int:campaign_id>/companies/<int:company_id>/", company, name="company"),
    path("campaigns/<int:campaign_id>/glimpses/<str:handle>/", glimpse, name="glimpse"),
]
