"""Who may see what of a campaign: the one place the pages and the API both ask.

``open_campaign(user=..., campaign=...)`` gives a ``CampaignView``: the campaign as that
user's side may see it, under the fog-of-war rules of ``rules.campaign.visibility``.
Every page and every API endpoint reads a campaign through it, so a rule is enforced
once and a leak is fixed once:

- the GM (a staff user) sees everything;
- a player sees the campaigns they are a member of, as their side; any other campaign
  is refused with ``NotAMember`` (the pages and the API answer 404, so a stranger
  cannot even tell the campaign exists);
- companies, control of the areas, turn records, battles, orders and seeds are shown
  as ``rules/campaign/visibility.py`` says (rulings section 6). For a player under the
  fog, ``view.state``'s areas carry the controller the side last saw there, so every
  page and answer that reads ``view.state.areas`` gets it (``view.last_seen`` says
  which are out of sight); the turns' start states are read once for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, router
from django.db.models import OuterRef, Q, QuerySet, Subquery

from battles.models import Battle
from campaign.models import (
    SPECTATOR,
    Area,
    Campaign,
    Company,
    GmAdjustment,
    Membership,
    Order,
    SeedCommitment,
    Side,
    SideReady,
    Turn,
)
from campaign.services.adjustments import CORRECTION
from campaign.services.deadlines import side_play
from campaign.services.snapshot import SnapshotIds, load_snapshot_with_ids
from campaign.settings_doc import adjustment_what
from config.rows import Column, fetch_row
from rules.campaign import visibility as fog
from rules.campaign.state import CampaignState
from rules.campaign.visibility import Boundary, CompanyView, SeenControl, Viewer
from rules.names import as_line


@dataclass(frozen=True, slots=True)
class PublicAdjustment:
    """A GM adjustment as the reader may read it (``CampaignView.adjustments``)."""

    before_turn: int
    when: Any
    what: str
    reason: str
    # Made while turn ``before_turn`` was being played (its dice rolled, waiting for its
    # battles): not in the state it began from, it counts from the turn after.
    during_turn: int | None = None

    @property
    def when_in_campaign(self) -> str:
        return when_made(self.before_turn, self.during_turn)


def during_turn(details: Any) -> int | None:
    """The turn a GM change was made during (``adjustments.record``), if any."""
    number = details.get("during_turn") if isinstance(details, dict) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def when_made(before_turn: Any, during: int | None) -> str:
    """When a GM change was made, as every page and message says it: 'before turn 7', or
    'during turn 7, after its dice were rolled' (``during``: ``during_turn``)."""
    if during is not None:
        return f"during turn {during}, after its dice were rolled"
    return f"before turn {before_turn}"


class NotAMember(LookupError):
    """The user may not see this campaign (not staff, not a member)."""


def is_game_master(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active and user.is_staff)


def campaigns_for(user: Any) -> QuerySet[Campaign]:
    """The campaigns a user may open: all for the GM, their memberships for a player."""
    if is_game_master(user):
        return Campaign.objects.all()
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=user)


# The largest id a database row can have: a larger one names nothing (and SQLite would
# overflow on it rather than find nothing).
MAX_ID = 2**63 - 1


# campaign_stamp's columns: the campaign's id and fields (converted as the ORM would),
# then the reader's extras as they come.
_STAMP_FIELDS = ("turn", "status", "next_deadline", "updated_at")
_STAMP_EXTRA = (
    "side",
    "last_turn",
    "last_turn_status",
    "last_adjustment",
    "others_play",
    "teammates",
    "played",
)
_STAMP_COLUMNS: list[Column] = [
    (field, "c")
    for name in ("id", *_STAMP_FIELDS)
    for field in Campaign._meta.concrete_fields
    if field.name == name
]


def campaign_stamp(
    *, user: Any, campaign_id: int, rows: str | None = None
) -> dict[str, Any] | None:
    """What a campaign's pages were drawn from, or None if the user may not open it (with
    the same access as ``campaigns_for``).

    One query: the campaign's turn, status, deadline and last change, the side the user
    plays there (None for the GM), its last turn and that turn's status, its last GM
    adjustment, the sides a player plays (``played``, their keys sorted and joined by
    commas), and whether the user's side is the only one a player plays (``solo``:
    every other side the campaign AI's, so the user's "ready" plays the turn; None for
    the GM; a second player joining redraws the map's words) and whether another player
    plays it too (``teammates``: their "ready" plays it as well; None for the GM). Every
    open map asks it every few seconds, so it is written in SQL rather than built by the
    ORM each time.

    ``rows`` (one of ``LIST_DIGESTS``) adds, in the same query, ``digest``: every row of
    that list the reader may see, each with every column its answer shows, joined in one
    string (``list_digest``), so a list that changes without the stamp (an order given, a
    result entered) is kept under it and never answered stale."""
    if not 0 < campaign_id <= MAX_ID:
        return None
    names = {
        "campaign": Campaign._meta.db_table,
        "turn": Turn._meta.db_table,
        "adjustment": GmAdjustment._meta.db_table,
        "membership": Membership._meta.db_table,
    }
    params: list[Any] = []
    side = "NULL"
    others_play = "NULL"
    teammates = "NULL"
    access = ""
    if not is_game_master(user):
        if not getattr(user, "is_authenticated", False) or not user.is_active:
            return None
        side = "m.side"
        # What ``deadlines.side_play`` reads (the user plays their side, a member of
        # it): a membership of another side, spectators aside; another of the user's.
        others_play = (
            "EXISTS (SELECT 1 FROM {membership} o"
            " WHERE o.campaign_id = c.id AND o.side <> %s AND o.side <> m.side)"
        )
        teammates = (
            "EXISTS (SELECT 1 FROM {membership} t"
            " WHERE t.campaign_id = c.id AND t.side = m.side AND t.user_id <> m.user_id)"
        )
        access = "JOIN {membership} m ON m.campaign_id = c.id AND m.user_id = %s"
        params += [SPECTATOR, user.pk]
    params.append(campaign_id)
    digest = "" if rows is None else f", ({list_digest(rows, side=side)}) AS digest"
    sql = (
        "SELECT c.id, c.turn, c.status, c.next_deadline, c.updated_at, " + side + " AS side,"
        " (SELECT t.number FROM {turn} t WHERE t.campaign_id = c.id"
        "  ORDER BY t.number DESC LIMIT 1) AS last_turn,"
        " (SELECT t.status FROM {turn} t WHERE t.campaign_id = c.id"
        "  ORDER BY t.number DESC LIMIT 1) AS last_turn_status,"
        " (SELECT MAX(a.id) FROM {adjustment} a WHERE a.campaign_id = c.id) AS last_adjustment, "
        + others_play
        + " AS others_play, "
        + teammates
        + " AS teammates, "
        + _played_sides_column().replace("{", "{{").replace("}", "}}")
        + " AS played"
        + digest.replace("{", "{{").replace("}", "}}")
        + " FROM {campaign} c "
        + access
        + " WHERE c.id = %s"
    ).format(**names)
    # Read on a plain cursor (config.rows), the campaign's columns converted as the ORM
    # would (on SQLite a date-time is text until then), the others as they come.
    row = fetch_row(router.db_for_read(Campaign), sql, params, _STAMP_COLUMNS)
    if row is None:
        return None
    stamp = dict(zip(_STAMP_FIELDS + _STAMP_EXTRA, row[1:], strict=False))
    others_play = stamp.pop("others_play")
    if stamp["side"] is None:  # the GM's: no side of their own
        stamp["solo"] = None
    else:
        play = side_play(
            stamp["side"],
            played=True,
            others_play=bool(others_play),
            teammates=bool(stamp["teammates"]),
        )
        stamp["solo"], stamp["teammates"] = play.solo, play.teammates
    stamp["played"] = ",".join(sorted(set((stamp["played"] or "").split(",")) - {""}))
    if rows is not None:
        stamp["digest"] = row[len(_STAMP_FIELDS) + len(_STAMP_EXTRA) + 1] or ""
    return stamp


def _played_sides_column() -> str:
    """The sides a player plays (a membership; a spectator plays none), joined by commas
    in any order (``campaign_stamp`` sorts them): a sensible company of such a side holds,
    of any other the campaign AI plays it (``rules.campaign.phases.movement``). Public, as
    the orders page's ready box says which sides the campaign AI plays."""
    joined = (
        "string_agg(DISTINCT p.side, ',')"
        if connection.vendor == "postgresql"
        else "group_concat(DISTINCT p.side)"
    )
    return (
        f"(SELECT {joined} FROM {Membership._meta.db_table} p"
        f" WHERE p.campaign_id = c.id AND p.side <> '{SPECTATOR}')"
    )


def _text(column: str) -> str:
    """A column as text in a digest's line: '=' and its value, '-' for NULL."""
    return f"COALESCE('=' || CAST({column} AS TEXT), '-')"


# The rows of each list kept under ``campaign_stamp(rows=...)``, as SQL: every column its
# answer shows (or that decides it), for the rows the reader may see (``{side}``: the
# reader's side, NULL for the GM), with the names of the companies, areas and users they
# show.
LIST_DIGESTS = {
    "orders": (
        "SELECT {row} AS line FROM {order} o JOIN {company} k ON k.id = o.company_id"
        " LEFT JOIN {area} a ON a.id = o.target_id LEFT JOIN {user} u ON u.id = o.given_by_id"
        " WHERE o.campaign_id = c.id AND o.turn_number = c.turn + 1"
        " AND ({side} IS NULL OR k.side = {side})",
        (
            "o.id",
            "o.company_id",
            "o.kind",
            "o.target_id",
            "o.sniper",
            "o.given_by_id",
            "o.created_at",
            "{k.name}",
            "{a.name}",
            "{u.username}",
        ),
    ),
    "battles": (
        # Every battle of the campaign, whoever fought it: a spectator, and every reader
        # of an ended campaign or one without the fog, reads them all (with two sides,
        # each is a player's own anyway).
        "SELECT {row} AS line FROM {battle} b JOIN {area} a ON a.id = b.area_id"
        " WHERE b.campaign_id = c.id",
        (
            "b.id",
            "b.turn_id",
            "b.area_id",
            "b.attacker_side",
            "b.defender_side",
            "b.mode",
            "b.ruleset",
            "b.status",
            "b.deadline",
            "b.winner",
            "{b.key}",
            "{a.name}",
        ),
    ),
    "commitments": (
        "SELECT {row} AS line FROM {commitment} s WHERE s.campaign_id = c.id"
        " AND s.number <= c.turn + 1",
        ("s.id", "s.number", "s.commitment", "s.changes", "s.created_at", "s.revealed_at"),
    ),
    # Which sides are ready for the coming turn: every side's, the enemy's too, since the
    # ready box shows them all (public, rulings section 6). Only the side, as the page
    # shows it: a row's id or time would tell when, or how often, the enemy marked it.
    # Its lines begin with a word of their own, so no line of another list in a union is
    # the same.
    "ready": (
        "SELECT {row} AS line FROM {ready} r WHERE r.campaign_id = c.id"
        " AND r.turn_number = c.turn + 1",
        ("'ready'", "r.side"),
    ),
}

# Digests of several lists at once, in the one subquery (their lines together).
LIST_UNIONS = {
    # The orders page's slow poll: the side's orders and which sides are ready
    # (docs/orders.md).
    "orders-page": ("orders", "ready"),
}


def list_digest(rows: str, *, side: str) -> str:
    """The SQL of one list's digest (``LIST_DIGESTS``, or several: ``LIST_UNIONS``): its
    rows' columns, each row one line, the lines joined. The same rows give the same
    string, in whatever order the database joins them; any other rows another (each line
    starts with its row's id, and the one free text, a battle's key, comes with its
    length), so it misses no change."""
    parts = LIST_UNIONS.get(rows, (rows,))
    inner = " UNION ALL ".join(_list_lines(part, side=side) for part in parts)
    return f"SELECT {_joined()} FROM ({inner}) lines"


def _list_lines(rows: str, *, side: str) -> str:
    """The SQL of one list's lines (``LIST_DIGESTS``), one a row."""
    select, columns = LIST_DIGESTS[rows]
    return select.format(
        row=_line(_column(column) for column in columns),
        side=side,
        order=Order._meta.db_table,
        company=Company._meta.db_table,
        battle=Battle._meta.db_table,
        area=Area._meta.db_table,
        user=get_user_model()._meta.db_table,
        commitment=SeedCommitment._meta.db_table,
        ready=SideReady._meta.db_table,
    )


def _column(column: str) -> str:
    """A digest's column: ``{x.name}`` a free text."""
    if column.startswith("{"):
        name = column.strip("{}")
        if name == "u.username":
            name = f"u.{get_user_model().USERNAME_FIELD}"
        return _sized(name)
    return column


def _line(columns: Iterable[str]) -> str:
    return " || '|' || ".join(_text(column) for column in columns)


def _joined() -> str:
    return (
        "string_agg(line, ';')" if connection.vendor == "postgresql" else "group_concat(line, ';')"
    )


def _sized(column: str) -> str:
    """A free text column, with its length first: no text it holds reads as two columns."""
    return f"LENGTH(CAST({column} AS TEXT)) || ':' || CAST({column} AS TEXT)"


def _side_names_column() -> str:
    """Each side's key and name, one string per campaign (why a finished campaign ended
    names its sides)."""
    line = "LENGTH(s.key) || ':' || s.key || LENGTH(s.name) || ':' || s.name"
    joined = (
        f"string_agg({line}, ';' ORDER BY s.key)"
        if connection.vendor == "postgresql"
        else f"group_concat({line}, ';')"
    )
    return f"(SELECT {joined} FROM {Side._meta.db_table} s WHERE s.campaign_id = c.id)"


# The settings the campaign list shows (``campaign.api.serializers.campaign_data``; the
# objective in why a finished campaign ended): its digest reads these keys of each
# campaign's settings, not the settings whole.
CAMPAIGN_LIST_SETTINGS = ("fog_of_war", "turn_limit", "battle_mode", "ruleset", "objective")

# What the campaign list shows of each campaign (``campaign.api.serializers.campaign_data``).
CAMPAIGN_LIST_COLUMNS = (
    "c.id",
    "c.turn",
    "c.status",
    "c.next_deadline",
    "c.winner",
    "c.schedule_kind",
    "c.every_hours",
    "c.weekday",
    "c.time_of_day",
    "c.timezone",
    _sized("c.name"),
    _sized("c.end_reason"),
    _sized("c.end_causes"),
)


def _setting_column(key: str) -> str:
    """One setting of a campaign's row (``c.settings``), read by the database out of the
    JSON: the JSON value's text on PostgreSQL (``->``), the SQL value on SQLite
    (``json_extract``), NULL when the key is absent (its default then holds). Either way
    the same setting gives the same text and another value another (a setting's type is
    checked, so "1" never stands where 1 did). Casting the settings whole made the
    database write out every campaign's settings (some 3.5 KB, its event tables above
    all, more as the GM edits them) and send them all on every request."""
    if connection.vendor == "postgresql":
        return _sized(f"(c.settings -> '{key}')")
    return _sized(f"json_extract(c.settings, '$.\"{key}\"')")


def campaigns_digest(user: Any) -> str:
    """Every campaign the user may open (``campaigns_for``), each with every column the
    campaign list shows and the user's side there, in one string (one query; as
    ``list_digest``): the same string, the same campaigns shown the same."""
    listed = (
        *CAMPAIGN_LIST_COLUMNS,
        *(_setting_column(key) for key in CAMPAIGN_LIST_SETTINGS),
        _side_names_column(),
    )
    columns: tuple[str, ...]
    if is_game_master(user):
        columns, access, params = listed, "", []
    elif getattr(user, "is_authenticated", False) and user.is_active:
        columns = (*listed, "m.side")
        access = f"JOIN {Membership._meta.db_table} m ON m.campaign_id = c.id AND m.user_id = %s"
        params = [user.pk]
    else:
        return ""
    sql = (
        f"SELECT {_joined()} AS digest FROM (SELECT {_line(columns)} AS line"
        f" FROM {Campaign._meta.db_table} c {access}) lines"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0] or ""


def viewer_for(*, user: Any, campaign: Campaign) -> Viewer:
    """The side the user sees the campaign as (``Viewer(None)`` for the GM)."""
    if is_game_master(user):
        return Viewer(side=None)
    if getattr(user, "is_authenticated", False) and user.is_active:
        side = (
            Membership.objects.filter(campaign=campaign, user=user)
            .values_list("side", flat=True)
            .first()
        )
        if side is not None:
            return Viewer(side=side)
    raise NotAMember(f"{user} may not see campaign {campaign.pk}")


def campaign_sides(
    user: Any, *, campaign_id: int | None = None, limit: int | None = None
) -> list[tuple[Campaign, str | None, str | None]]:
    """The campaigns a user may open (as ``campaigns_for``), by name, each with the side
    they play there and its name in the campaign ("australian", "Australians"; a
    spectator's "spectator" twice; None for the GM); only ``campaign_id`` if given
    (nothing if they may not open it), at most ``limit``. One query."""
    if campaign_id is not None and not 0 < campaign_id <= MAX_ID:
        return []
    if is_game_master(user):
        campaigns = Campaign.objects.order_by("name", "pk")
        if campaign_id is not None:
            campaigns = campaigns.filter(pk=campaign_id)
        return [(campaign, None, None) for campaign in campaigns[:limit]]
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return []
    side_name = Side.objects.filter(campaign=OuterRef("campaign"), key=OuterRef("side"))
    memberships = (
        Membership.objects.filter(user=user)
        .select_related("campaign")
        .annotate(side_name=Subquery(side_name.values("name")[:1]))
        .order_by("campaign__name", "campaign_id")
    )
    if campaign_id is not None:
        memberships = memberships.filter(campaign_id=campaign_id)
    return [
        (membership.campaign, membership.side, membership.side_name or membership.side)
        for membership in memberships[:limit]
    ]


def sides_of(user: Any) -> dict[int, str]:
    """Campaign id -> the side the user plays there (one query; empty for the GM)."""
    if not getattr(user, "is_authenticated", False):
        return {}
    return dict(Membership.objects.filter(user=user).values_list("campaign_id", "side"))


@dataclass
class CampaignView:
    """One campaign as one viewer may see it. Build it with ``open_campaign``."""

    campaign: Campaign
    viewer: Viewer
    state: CampaignState
    ids: SnapshotIds
    companies: list[CompanyView]
    _by_name: dict[str, CompanyView] = field(default_factory=dict, repr=False)
    _by_handle: dict[str, CompanyView] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # A glimpse has no name, and is reached only by its handle (section 6: "without
        # name"; a company's id would tell which company it is, and follow it from turn
        # to turn).
        self._by_name = {view.name: view for view in self.companies if view.full}
        self._by_handle = {view.glimpse: view for view in self.companies if view.glimpse}
        if not self.sees_everything:
            # Who holds each area, as the side last saw it: the one copy the pages and
            # the API read (view.state is this view's own copy of the snapshot).
            for name, known in self.seen_control.items():
                if name in self.state.areas:
                    self.state.areas[name].controller = known.controller

    # --- who is looking ---------------------------------------------------------------

    @property
    def side(self) -> str | None:
        """The viewer's side; None for the GM."""
        return self.viewer.side

    @property
    def game_master(self) -> bool:
        return self.viewer.game_master

    @property
    def side_name(self) -> str | None:
        """The viewer's side by its name in the campaign, as the pages call it
        ("Australians"); a spectator's "spectator"; None for the GM."""
        side = self.state.sides.get(self.side or "")
        return side.name if side is not None else self.side

    def addressed(self, side: str) -> str:
        """Who plans ``side``'s orders, as the orders page addresses them: "you" (its
        player), "the Australians" (the game master, who plays no side, looking at it)."""
        seen = self.state.sides.get(side) if self.game_master else None
        return "you" if seen is None else f"the {seen.name}"

    @property
    def sees_everything(self) -> bool:
        """The GM, a finished campaign, or fog of war off: nothing is hidden."""
        return fog.sees_everything(self.state, self.viewer)

    @property
    def spectating(self) -> bool:
        """The reader plays no side and the fog hides every company from them: a spectator
        while the campaign is played (rulings 6; docs/pages.md, "Spectators"). Not the GM,
        nor anyone once the campaign has ended or with fog of war off."""
        return not self.sees_everything and self.side not in self.state.sides

    # --- companies --------------------------------------------------------------------

    def company(self, name: str) -> CompanyView | None:
        """The company as the viewer sees it in full; None if glimpsed, hidden or no
        such company (a glimpse is not found by its name: ``glimpse``)."""
        return self._by_name.get(name)

    def company_by_id(self, company_id: int) -> CompanyView | None:
        """A company the viewer sees in full, by its id; a glimpsed enemy's id is not
        found, like one out of sight."""
        for name, pk in self.ids.companies.items():
            if pk == company_id:
                return self._by_name.get(name)
        return None

    def company_id(self, name: str) -> int | None:
        """The id of a company the viewer sees in full; None for any other."""
        return self.ids.companies.get(name) if name in self._by_name else None

    def glimpse(self, handle: str) -> CompanyView | None:
        """A glimpse of an enemy company in sight, by its handle (``"3-2"``)."""
        return self._by_handle.get(handle)

    @cached_property
    def _glimpsed(self) -> dict[str, str]:
        if all(view.full for view in self.companies):
            return {}
        return fog.glimpse_handles(self.state, self.viewer)

    def glimpse_of(self, name: str) -> CompanyView | None:
        """The glimpse the viewer has of the company ``name``, if it glimpses it: for the
        server's own use (a band for the odds); what is shown must never tie the two."""
        handle = self._glimpsed.get(name)
        return self._by_handle.get(handle) if handle is not None else None

    def listed(self) -> list[tuple[int, CompanyView]]:
        """Every company the viewer sees, glimpses too, with its row's id, in the view's
        order: for the API's list, which filters, orders and pages rows. A glimpse's id
        is the server's only: nothing shown may be derived from it."""
        names = {handle: name for name, handle in self._glimpsed.items()}
        return [
            (self.ids.companies[view.name if view.full else names[view.glimpse or ""]], view)
            for view in self.companies
        ]

    @property
    def visible_company_ids(self) -> list[int]:
        """The ids of the companies the viewer sees in full."""
        return [self.ids.companies[view.name] for view in self.companies if view.full]

    def companies_in(self, area: str) -> list[CompanyView]:
        return [view for view in self.companies if view.area == area]

    def area_id(self, name: str) -> int | None:
        return self.ids.areas.get(name)

    def area_by_id(self, area_id: int) -> str | None:
        for name, pk in self.ids.areas.items():
            if pk == area_id:
                return name
        return None

    # --- what the side saw, turn by turn ----------------------------------------------

    @cached_property
    def boundaries(self) -> dict[int, Boundary]:
        """The campaign between turns, by turns played (from each turn's start state),
        and now (under ``-1``). One query; only for a reader under the fog."""
        links = tuple(self.state.links)
        found: dict[int, Boundary] = {}
        if not self.sees_everything:
            rows = Turn.objects.filter(campaign=self.campaign).order_by("number")
            for number, start in rows.values_list("number", "start_state"):
                if isinstance(start, dict):
                    found[number - 1] = fog.boundary_of_dump(start, links)
        found[-1] = fog.boundary_of(self.state)
        return found

    @cached_property
    def seen_control(self) -> dict[str, SeenControl]:
        """Each area's controller as the viewer knows it (``fog.last_seen_control``)."""
        if self.sees_everything:
            return {
                name: SeenControl(area.controller, None) for name, area in self.state.areas.items()
            }
        # Up to this view's state (a past turn's map stops there), then the state itself.
        played = self.state.turn
        earlier = sorted(k for k in self.boundaries if 0 <= k < played)
        ordered = [self.boundaries[k] for k in earlier]
        side = self.state.sides.get(self.side or "")
        return fog.last_seen_control(
            [*ordered, self.boundaries[-1]], self.side or "", base=side.base if side else None
        )

    def last_seen(self, area: str) -> int | None:
        """None while the area is in the viewer's sight; else the turns played when the
        viewer last saw it (0: the start), its controller then being the one shown."""
        known = self.seen_control.get(area)
        return known.last_seen if known is not None else None

    # --- turns, battles, orders -------------------------------------------------------

    def records(self, records: Iterable[dict[str, Any]], *, number: int) -> list[dict[str, Any]]:
        """Turn ``number``'s log records as the viewer may read them: with the campaign
        as the turn began and as it ended (or stands now) for what was in sight. The
        number is required: without the turn's boundaries no area would count as in sight
        (no control record, no strafing named; the notices once read them so)."""
        if self.sees_everything:
            return list(records)
        before = self.boundaries.get(number - 1)
        after = self.boundaries.get(number) or (
            self.boundaries[-1] if number >= self.campaign.turn else None
        )
        return fog.visible_log(list(records), self.state, self.viewer, before=before, after=after)

    def battles(self) -> QuerySet[Battle]:
        """The campaign's battles whose reports the viewer may read."""
        rows = Battle.objects.filter(campaign=self.campaign)
        if self.sees_everything:
            return rows
        return rows.filter(Q(attacker_side=self.side) | Q(defender_side=self.side))

    def orders(self) -> QuerySet[Order]:
        """Orders the viewer may see: its own side's; the GM's all. Never the enemy's."""
        rows = Order.objects.filter(campaign=self.campaign)
        if self.game_master:
            return rows
        return rows.filter(company__side=self.side)

    def adjustments(self) -> list[PublicAdjustment]:
        """The GM's adjustments, the campaign's public log, oldest first.

        Every adjustment shows, with its reason (the GM writes it for all to read). A
        change to the stands of a company the reader does not see in full shows without
        its numbers or its name, and without saying whether it is in sight ("An enemy
        company (Japanese): stands adjusted"): the fog of war hides an enemy's exact strength and
        which company a glimpse is, and a GM's change must not give either away. A change
        of who holds an area the reader's side did not have in sight when it was made
        names neither holder ("Munara: who holds it was changed, out of your sight"): the
        reader knows only the holder it last saw there. A tabletop result corrected, to a
        reader who may not read that battle (a spectator), names neither its place nor its
        result, only its turn ("The result of a battle of turn 2, fought on the table, was
        corrected"): that the turn had battles at the table was public while it waited.
        """
        shown = []
        for row in GmAdjustment.objects.filter(campaign=self.campaign).order_by("id"):
            details = row.details or {}
            what = adjustment_what(row.what, details)
            if not self.sees_everything:
                what = as_line(self._fogged_adjustment(what, details))
            shown.append(
                PublicAdjustment(
                    before_turn=row.before_turn,
                    when=row.created_at,
                    what=what,
                    reason=row.reason,
                    during_turn=during_turn(details),
                )
            )
        return shown

    def _fogged_adjustment(self, what: str, details: dict[str, Any]) -> str:
        """An adjustment's line as a reader who does not see everything may read it."""
        company = details.get("company")
        if company is not None and self.company(company) is None:
            # Neither its name, nor whether it is in sight (glimpsed) now, nor whether it
            # is still on the map: its side as the change recorded it (a row from before
            # sides were recorded: the one side that is not the reader's).
            actual = self.state.companies.get(company)
            key = details.get("side") or (actual.side if actual else None)
            others = [s for s in self.state.sides if s != self.side]
            if key is None and self.side is not None and len(others) == 1:
                key = others[0]
            side = self.state.sides.get(key) if key else None
            # A spectator has no enemy: "an enemy company" was addressed to a player.
            company_words = "an enemy company" if self.side in self.state.sides else "a company"
            return f"{company_words}{f' ({side.name})' if side else ''}: stands adjusted"
        if details.get("kind") == CORRECTION and not (
            self.battles().filter(pk=details.get("battle") or 0).exists()
        ):
            number = details.get("turn")
            return f"the result of a battle of turn {number}, fought on the table, was corrected"
        area = details.get("area")
        if area is not None and self.side not in details.get("in_sight_of", ()):
            return f"{area}: who holds it was changed, out of your sight"
        return what

    def may_order(self, company: CompanyView) -> bool:
        """The viewer may give this company orders: its own side's; the GM any."""
        if self.campaign.status == Campaign.Status.FINISHED:
            return False
        return self.game_master or company.side == self.side


def open_campaign(*, user: Any, campaign: Campaign | int) -> CampaignView:
    """The campaign as the user may see it; ``NotAMember`` if they may not see it at all.

    Nine queries at most: the campaign row (when given an id), the membership, and the
    seven of the snapshot."""
    if not isinstance(campaign, Campaign):
        row = Campaign.objects.filter(pk=campaign).first()
        if row is None:
            raise NotAMember(f"there is no campaign {campaign}")
        campaign = row
    viewer = viewer_for(user=user, campaign=campaign)
    state, ids = load_snapshot_with_ids(campaign=campaign)
    return CampaignView(
        campaign=campaign,
        viewer=viewer,
        state=state,
        ids=ids,
        companies=fog.visible_companies(state, viewer),
    )


def open_campaign_as_side(*, campaign: Campaign, side: str) -> CampaignView:
    """The campaign as one side sees it, with no user at the keyboard: what a side's own
    webhook is sent (``notifications``). The same fog as a player of that side."""
    state, ids = load_snapshot_with_ids(campaign=campaign)
    if side not in state.sides:
        raise NotAMember(f"{side!r} is not a side of campaign {campaign.pk}")
    viewer = Viewer(side=side)
    return CampaignView(
        campaign=campaign,
        viewer=viewer,
        state=state,
        ids=ids,
        companies=fog.visible_companies(state, viewer),
    )


def as_it_stood(view: CampaignView, state: CampaignState) -> CampaignView:
    """The campaign as the same reader saw it when it stood at ``state`` (a turn's
    ``start_state``): the fog of war of that moment, from that moment's positions. A
    reader who sees everything now (the GM, a campaign that has ended, fog of war off)
    sees the past whole too. A company gone since has the id 0 (it has no page)."""
    everything = view.sees_everything
    companies = fog.visible_companies(state, Viewer(side=None) if everything else view.viewer)
    ids = SnapshotIds(
        areas=dict(view.ids.areas),
        companies={name: view.ids.companies.get(name, 0) for name in state.companies},
    )
    return CampaignView(
        campaign=view.campaign, viewer=view.viewer, state=state, ids=ids, companies=companies
    )
