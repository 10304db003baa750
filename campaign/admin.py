"""The game master's control desk: the campaign's state, its turns and the GM's tools.

No rule lives here: every change goes through a service (campaign.services.*), the same
ones the commands, pages and tasks call. Rows the turns write (turns, their logs) are
read-only; the map and forces change through the GM adjustments, each with a reason
that the players see (GmAdjustment), and keep their row history (django-simple-history).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.forms.models import BaseInlineFormSet, ModelForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst
from django.views.decorators.http import require_POST

from battles.models import Battle
from battles.web.lists import battle_shares
from campaign.admin_history import HISTORY_NOTE, SimpleHistoryAdmin
from campaign.admin_home import deadline_words, results_to_enter, sides_not_ready
from campaign.admin_home import install as install_home_page
from campaign.forms import (
    DEFAULT_BALANCE_CAMPAIGNS,
    BalanceForm,
    CampaignTakingPlayers,
    ControlAdjustForm,
    CreateCampaignForm,
    DeleteCampaignForm,
    OrderForm,
    PauseForm,
    ReadByAll,
    RemovePlayerForm,
    RollbackForm,
    ScheduleChangeForm,
    SeedChangeForm,
    SeenPage,
    SettingsForm,
    ShipAdjustForm,
    StandsAdjustForm,
)
from campaign.models import (
    SPECTATOR,
    AirGroup,
    Area,
    Campaign,
    Company,
    CompanyStands,
    GmAdjustment,
    Link,
    Membership,
    Order,
    Ship,
    Side,
    Turn,
)
from campaign.services.adjustments import (
    AdjustmentRefused,
    ReasonMissing,
    StaleChange,
    adjust_stands,
    campaign_version,
    change_words,
    changes_since,
    set_control,
    set_ship_present,
)
from campaign.services.balance import JOB_SECONDS, balance_progress, start_balance
from campaign.services.campaigns import (
    CampaignRefused,
    delete_campaign,
    deletion_words,
    set_paused,
    update_settings,
)
from campaign.services.commitments import change_turn_seed
from campaign.services.deadlines import (
    WEEKDAY_NAMES,
    Schedule,
    ScheduleRefused,
    deadline_after_turn_words,
    moment_words,
    next_deadline_after,
    schedule_words,
    unentered_words,
)
from campaign.services.fogwords import hidden_in_text
from campaign.services.members import PUT_IN, player_joined, remove_player, who_played
from campaign.services.rollback import rollback_preview, rollback_to_turn
from campaign.services.scenarios import (
    CampaignExists,
    export_campaign,
    korona_scenario,
    start_campaign,
)
from campaign.services.schedule import change_schedule
from campaign.services.turns import (
    CampaignChangedSince,
    TurnAlreadyPlayed,
    TurnRefused,
    TurnReport,
    advance_state,
    advance_turn,
    give_order,
    set_standing_order,
    sides_state,
    withdraw_order,
)
from campaign.services.visibility import during_turn, when_made
from campaign.settings_doc import DOCS, adjustment_what, value_words
from campaign.web import ending, turnlog
from campaign.web.maps import pause_note, standing_words
from config.adminpages import (
    GmFieldWords,
    RefusedIfTakenMeanwhile,
    admin_page,
    admin_routes,
    admin_row,
    back_to_change,
    campaign_clock,
    change_url,
    copy_field,
    form_page,
    on_campaign_clock,
    row_pages,
    say_done,
)
from config.numbers import whole_number
from config.refusals import sentence
from notifications.invitations import invitation_url, invite_every_side, waiting_invitations
from rules import names, rulesets
from rules.campaign.scenario import ScenarioError, settings_to_json
from rules.campaign.state import Settings
from rules.campaign.turn import OrderError


def map_names(campaign: Campaign) -> dict[str, list[str]]:
    """The campaign's area and track names, for the settings that name places."""
    rows = list(campaign.areas.order_by("zone", "name").values_list("name", "track"))
    return {
        "areas": [name for name, _ in rows],
        "tracks": sorted({track for _, track in rows}),
    }


Form = TypeVar("Form", bound=SeenPage)


def shown_again(
    model_admin: Any,
    request: HttpRequest,
    stale: StaleChange,
    form_of: Callable[[Any, str], Form],
    *,
    submit: str = "Save",
    confirm: str | None = None,
) -> Form:
    """A GM form refused as stale, shown again as the GM sent it (their entries kept, not
    to be typed again) but carrying the campaign as it is now (``stale.version``): the
    message names the GM changes made meanwhile, the fields they touched are marked (a
    field the GM had left as the page showed it takes its new value; one they changed
    too keeps their entry, marked as a conflict), and pressing ``submit`` again applies
    what the page shows, unless it moved on once more.
    ``form_of(data, seen)``: the page's form, bound to ``data``. ``confirm``: the name of
    the box by which the GM confirmed what the page showed (a roll-back, a new seed),
    left unticked: what they confirmed has changed, so one more press must not act
    before they have read it again and ticked it anew."""
    data = request.POST.copy()
    data["seen"] = stale.version
    if confirm is not None:
        data.pop(confirm, None)
    # What the GM left as the page showed it takes the other change's value: saved again
    # as shown, it must not undo that change unseen (a second tab's Save did).
    both = form_of(None, stale.version).take_changes(data, stale.changes)
    form = form_of(data, stale.version)
    form.is_valid()
    if confirm is not None:
        form.errors.pop(confirm, None)  # not the GM's mistake: asked for in the message
    form.mark_changes(stale.changes, both)
    marked = (
        " and what the other change touched is marked (a conflict where you changed it too)"
        if form.conflicts
        else " and what the other change touched is marked, showing its new value"
        if form.changed_meanwhile
        else ""
    )
    then = "tick the box again and press" if confirm is not None else "press"
    model_admin.message_user(
        request,
        f"{stale} Your entries are kept below{marked}: check them, then {then} {submit} "
        "again to apply them.",
        messages.ERROR,
    )
    return form


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class KeptByTheRules:
    """A model whose rows the scenario and the turns write: the GM views them (no Save
    button), and changes them only through "Adjust" (AdjustableAdmin), with a reason."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AdjustableAdmin:
    """An "Adjust" page (GM adjustment with a reason) on a change form; a subclass gives
    the form, the service call and the words."""

    adjust_title = "Adjust {obj}"
    adjust_done = "{obj.name}: adjusted."

    def adjust_form(self, data: Any, obj: Any, seen: str) -> Any:
        """The form; ``seen`` is the campaign as the page shows it (``campaign_version``),
        sent back with the change."""
        raise NotImplementedError

    def apply_adjustment(self, obj: Any, data: dict[str, Any], user: Any) -> Any:
        """Make the change through its service; its ``GmAdjustment``."""
        raise NotImplementedError

    def holder_after(self, obj: Any, form: Any) -> tuple[str, str | None] | None:
        """For a change of who holds an area: the area and its new holder's side key, so
        a reason naming the holder is checked against the sides that do not see it."""
        return None

    def get_urls(self) -> list[Any]:
        return [
            *row_pages(self, "adjust"),  # type: ignore[arg-type]
            *super().get_urls(),  # type: ignore[misc]
        ]

    def adjust_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = admin_row(self, pk)  # type: ignore[arg-type]
        meta = self.model._meta  # type: ignore[attr-defined]
        if not request.user.has_perm(f"{meta.app_label}.change_{meta.model_name}"):
            raise PermissionDenied
        form = self.adjust_form(request.POST or None, obj, campaign_version(obj.campaign_id))
        if (
            request.method == "POST"
            and form.is_valid()
            and not reason_reveals(form, obj.campaign, holder=self.holder_after(obj, form))
        ):
            try:
                adjustment = self.apply_adjustment(obj, form.cleaned_data, request.user)
            except StaleChange as stale:
                form = shown_again(
                    self, request, stale, lambda data, seen: self.adjust_form(data, obj, seen)
                )
            except AdjustmentRefused as refused:
                form.add_error(None, sentence(refused))
            else:
                # What changed, as the log says it ("A Company: rifle squads from 9 to 7"),
                # not only "stands adjusted" (a walk-through could not tell what it had done).
                done = self.adjust_done.format(obj=obj)
                if isinstance(adjustment, GmAdjustment):
                    done = f"{adjustment_what(adjustment.what, adjustment.details)}."
                return back_to_change(self, request, obj, done)
        return form_page(
            self,  # type: ignore[arg-type]
            request,
            title=self.adjust_title.format(obj=obj),
            form=form,
            obj=obj,
        )


# --- campaigns ----------------------------------------------------------------------------


class TurnInline(ReadOnlyInline):
    """The campaign's turns, one line each: the admin's own link to a row sat on a line
    of its own above it ("Korona 1, turn 1 View"), each turn two lines high; the link is
    a column of the row instead (campaign/admin-campaign.css hides that line)."""

    model = Turn
    fields = readonly_fields = ("number", "status", "finished_when", "log_link")
    finished_when = on_campaign_clock("finished_at")
    show_change_link = False

    @admin.display(description="log")
    def log_link(self, obj: Turn) -> str:
        return format_html(
            '<a href="{}" class="inlineviewlink">View</a>',
            reverse("admin:campaign_turn_change", args=[obj.pk]),
        )


class AdjustmentWords:
    created_when = on_campaign_clock("created_at")

    @admin.display(description="by", ordering="user")
    def by_words(self, obj: GmAdjustment) -> str:
        """Who made the change: the GM's username; a player who joined with an invitation
        by theirs ("alice, joining"; the line was the admin's "-", no GM made it)."""
        if obj.user is not None:
            return obj.user.get_username()
        details = obj.details if isinstance(obj.details, dict) else {}
        if details.get("kind") == "player_joined" and details.get("player"):
            return f"{details['player']}, joining"
        # The row keeps no account: made by a command or a scheduled job, or by a user
        # deleted since (``on_delete=SET_NULL``), which the row cannot tell apart; it
        # said "nobody signed in", wrong of a deleted game master's changes.
        return "no account (a server command or job, or a user since deleted)"

    @admin.display(description="what")
    def what_words(self, obj: GmAdjustment) -> str:
        return adjustment_what(obj.what, obj.details)

    @admin.display(description="when in the campaign", ordering="before_turn")
    def turn_words(self, obj: GmAdjustment) -> str:
        """When the change was made: 'before turn 7', or, made while turn 7 waited for its
        battles (not in the state it began from), 'during turn 7, after its dice were
        rolled (counts from turn 8)'."""
        during = during_turn(obj.details)
        when = when_made(obj.before_turn, during)
        return when if during is None else f"{when} (counts from turn {during + 1})"


class AdjustmentInline(AdjustmentWords, ReadOnlyInline):
    model = GmAdjustment
    fields = readonly_fields = ("turn_words", "what_words", "reason", "by_words", "created_when")
    show_change_link = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[GmAdjustment]:
        return super().get_queryset(request).select_related("user")


MEMBERSHIP_FIELDS = ("user", "side")


def _ended(campaign: Campaign | None) -> bool:
    return campaign is not None and campaign.status == Campaign.Status.FINISHED


def ended_players_words(campaign: Campaign) -> str:
    """Why an ended campaign's players are kept as they were (its invitation links open on
    "it has ended" too)."""
    return (
        f"{campaign.name} has ended: nobody can join it, and its players keep the sides they played"
    )


class MembershipFormSet(BaseInlineFormSet):
    """An ended campaign's players, sent back changed anyway (a page opened before the
    campaign ended, or a POST made by hand): refused in words, where Django's read-only
    inline dropped the change without a word."""

    def clean(self) -> None:
        super().clean()
        campaign = self.instance
        if not _ended(campaign):
            self._refuse_players_in_already()
            return
        added = any(
            self.data.get(form.add_prefix(name))
            for form in self.extra_forms
            for name in MEMBERSHIP_FIELDS
        )
        changed = any(
            self.data.get(form.add_prefix("DELETE"))
            or any(
                self.data.get(form.add_prefix(name)) not in (None, str(form.initial.get(name)))
                for name in MEMBERSHIP_FIELDS
            )
            for form in self.initial_forms
        )
        if added or changed:
            raise ValidationError(f"{ended_players_words(campaign)}. Nothing was saved.")

    def _refuse_players_in_already(self) -> None:
        """A player put in the campaign since this page was opened (Memberships → Add, or
        another game master's page at the same moment) and added here too: refused by name.
        Their row is not on this page, so the formset's check of its rows against each
        other misses it, and the database's one-side-a-player index answered a 500."""
        if self.instance.pk is None:
            return
        shown = [form.instance.pk for form in self.initial_forms if form.instance.pk]
        elsewhere = {
            membership.user_id: membership
            for membership in Membership.objects.filter(campaign=self.instance).exclude(
                pk__in=shown
            )
        }
        for form in self.forms:
            cleaned = getattr(form, "cleaned_data", {})
            user, deleted = cleaned.get("user"), self.can_delete and cleaned.get("DELETE")
            if user is None or deleted or user.pk not in elsewhere:
                continue
            form.add_error(
                "user",
                f"{user.get_username()} is in this campaign already, as "
                f"{_as_side(elsewhere[user.pk])}, put there since this page was opened: "
                "open the page again to see it.",
            )


def removal_words(membership: Membership) -> str:
    """What removing the player does, before the GM confirms it."""
    name = membership.user.get_username()
    if membership.side == SPECTATOR:
        return (
            f"{name} follows {membership.campaign.name} as a spectator. Removed, they no "
            "longer see it; the log says so, with your reason."
        )
    others = Membership.objects.filter(
        campaign_id=membership.campaign_id, side=membership.side
    ).exclude(pk=membership.pk)
    side = _as_side(membership)
    if others.exists():
        return (
            f"{name} plays {side} with others, who play on: the side's orders and its "
            '"ready" stay. The players read in the log that they left, with your reason.'
        )
    return (
        f"{name} is the only player of {side}. Removed, the side is played by the campaign "
        "AI from the coming turn, each company on its standing order, and is always ready; "
        "the orders they gave for turns not yet played are withdrawn. The players read in "
        "the log that they left, with your reason."
    )


def _as_side(membership: Membership) -> str:
    if membership.side == SPECTATOR:
        return "a spectator"
    side = Side.objects.filter(campaign_id=membership.campaign_id, key=membership.side).first()
    return f"the {side.name}" if side else f"the {membership.get_side_display()}"


class MembershipInline(GmFieldWords, admin.TabularInline):
    """The players of a campaign and the side each plays (README.md: "Accounts"); an
    ended campaign's as they were, with no "Add another Membership" (nobody can join it)."""

    model = Membership
    formset = MembershipFormSet
    extra = 0
    fields = [*MEMBERSHIP_FIELDS, "remove"]
    readonly_fields = ["remove"]
    autocomplete_fields = ["user"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not _ended(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not _ended(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A player leaves by the "Remove" link (a reason, a line in the log), not by the
        # Delete box, which took them out at Save without a word.
        return False

    @admin.display(description="Remove")
    def remove(self, obj: Membership) -> str:
        if obj.pk is None or _ended(obj.campaign):
            return ""
        address = reverse("admin:campaign_membership_delete", args=[obj.pk])
        return format_html('<a href="{}">Remove from the campaign…</a>', address)


def invitation_use(side: str, players: dict[str, list[str]]) -> str:
    """What a waiting invitation to ``side`` does, beside the side's name on the campaign's
    page (``players``: each side's players' usernames). A side no player plays is the
    campaign AI's until someone joins with it: a solo campaign's other side read as
    "waiting", as if the campaign waited for a player (rulings in docs/campaign.md)."""
    if side == SPECTATOR:
        return ""
    if side not in players:
        return " (the campaign AI plays it; send this link to give the side to a player)"
    return f" (played by {names.join(sorted(players[side]))}; this link adds a teammate)"


def created_message(campaign: Campaign, user: Any) -> str:
    """The GM's next step after creating a campaign: one invitation link per side, made
    now (a walk-through created a campaign and found no way to invite its players)."""
    links = [
        (name, invitation_url(link))
        for name, link in invite_every_side(
            campaign=campaign, user=user, note="made with the campaign"
        )
    ]
    # Text to copy, not links: following one would use it up (copy_field).
    return format_html(
        "Created {} (seed {}). Send each side its invitation link (each works once, for 14 "
        "days; more under Notifications → Invitations): {}",
        campaign.name,
        campaign.seed,
        format_html_join(
            "",
            "<span>{}:</span> {}",
            ((n, copy_field(u, f"Invitation link: {campaign.name}, {n}")) for n, u in links),
        ),
    )


def balance_tables(result: dict[str, Any]) -> dict[str, Any]:
    """A balance's figures (``Balance.to_json``) for the page's tables, in words: each
    side's wins as a share with its 95% interval, nobody's, the mean length, the standing
    orders, and how often each area changed hands."""
    sides = result.get("sides") or {}
    wins = [
        {
            "who": f"The {side['name']}",
            "wins": side["wins"],
            "share": f"{side['p']:.0%}",
            "interval": f"{side['low']:.0%} to {side['high']:.0%}",
        }
        for side in sides.values()
    ]
    nobody = result.get("nobody") or {}
    if nobody.get("wins"):
        wins.append(
            {
                "who": "Nobody (nobody holds the objective at the end)",
                "wins": nobody["wins"],
                "share": f"{nobody['p']:.0%}",
                "interval": f"{nobody['low']:.0%} to {nobody['high']:.0%}",
            }
        )
    orders = ", ".join(
        f"the {sides[key]['name'] if key in sides else key}: {order}"
        for key, order in (result.get("standing_orders") or {}).items()
    )

    def times(mean: float) -> str:
        return "never" if mean == 0 else f"{mean:.1f} times a campaign"

    return {
        "wins": wins,
        "mean_turns": f"{result.get('mean_turns', 0):.1f}",
        "orders": orders,
        "areas": [
            {"area": area, "changes": times(mean)}
            for area, mean in (result.get("area_changes") or {}).items()
        ],
        "few": few_words(result.get("campaigns", 0)),
    }


FEW_CAMPAIGNS = 30  # below this, a balance's shares say little (intervals some 35 points wide)


def few_words(campaigns: int) -> str:
    """A warning on a balance of too few campaigns to judge a scenario by ("" for enough):
    3 campaigns all won by one side, and no area changing hands, read as a broken scenario."""
    if campaigns >= FEW_CAMPAIGNS:
        return ""
    played = "One campaign" if campaigns == 1 else f"Only {campaigns} campaigns"
    return (
        f"{played}: too few to judge the scenario by. The likely shares below are wide, "
        f"and what did not happen in {'it' if campaigns == 1 else 'them'} may still happen "
        f"often. Balance {DEFAULT_BALANCE_CAMPAIGNS} or more for a fair picture."
    )


def waiting_words(campaign: Campaign, refused: str) -> str:
    """The refusal of "Advance turn now" while a turn waits for its tabletop battles,
    and a link to enter each waiting result, as the campaign's page gives them (the list's
    action said only that it waited)."""
    waiting = results_to_enter(campaign)
    if waiting is None or not waiting.battles:
        return f"{capfirst(refused)}: nothing was played."
    return format_html(
        "{}: nothing was played. Enter each result from the table: {}.",
        capfirst(refused),
        format_html_join(
            ", ",
            '<a href="{}">enter the result of the battle at {}</a>',
            ((u, n) for n, u in waiting.battles),
        ),
    )


def played_words(campaign: Campaign, report: TurnReport, *, link: bool = True) -> str:
    """What "Advance turn now" did, in a line: the turn played (or begun), its battles
    fought and those waiting for the GM's result from the table, and (``link``) a link to
    the turn's log (a walk-through read only "Korona: turn 1 played.")."""
    number = report.turn.number
    done = "played" if report.done else "begun"
    waiting = sum(battle.status == Battle.Status.PENDING for battle in report.battles)
    fought = len(report.battles) - waiting
    parts = [f"{fought} fought"] if fought else []
    if waiting:
        parts.append(f"{waiting} waiting for your result from the table")
    battles = ", ".join(parts) if parts else "none"
    if not link:
        return f"{campaign.name}: turn {number} {done}. Battles: {battles}."
    return format_html(
        '{}: turn {} {}. Battles: {}. <a href="{}">Read turn {}\'s log</a>.',
        campaign.name,
        number,
        done,
        battles,
        reverse("admin:campaign_turn_change", args=[report.turn.pk]),
        number,
    )


def _waiting(campaign: Campaign) -> bool:
    """Has the campaign's turn begun and does it wait for its battles' results? By
    ``CampaignAdmin.get_queryset``'s count of pending battles when the row has it."""
    pending = getattr(campaign, "pending_battles", None)
    if pending is None:
        return Turn.objects.filter(campaign=campaign, status=Turn.Status.BATTLES_PENDING).exists()
    return bool(pending)


def _deadline_after_advance(campaign: Campaign, *, tabletop: bool) -> str:
    """What "Advance turn now" does to the deadline, for its confirmation: the next one
    counts from the end of the turn (a weekly schedule's is its next weekday and time,
    often the same one as before: a walk-through took that for a deadline not moved).
    Nothing in tabletop mode (the turn waits for its results), with no schedule, or while
    paused (resuming sets the next deadline, counted from then)."""
    if tabletop or campaign.status == Campaign.Status.PAUSED:
        return ""
    schedule = Schedule.of(campaign)
    after = next_deadline_after(schedule, timezone.now())
    if after is None:  # no schedule: the GM plays each turn
        return ""
    return (
        f" The next turn's deadline is then {moment_words(after, schedule.timezone)} "
        f"({schedule_words(schedule)}, counted from the end of this one)."
    )


def _wanted_words(campaign: Campaign) -> str:
    """While the campaign's turn waits for its tabletop results: by when they are wanted
    and what becomes of one not entered by then (the setting for it), as the battles'
    pages say it to the players; and when the next turn's deadline will be. A walk's GM
    read "Result due by" on the battle sheet, "none" here, and could not tell whether the
    result was due. "" for battles with no deadline (no schedule when the turn began)."""
    wanted = (
        Battle.objects.filter(campaign=campaign, status=Battle.Status.PENDING, mode="tabletop")
        .exclude(deadline=None)
        .order_by("deadline")
        .values_list("deadline", flat=True)
        .first()
    )
    if wanted is None:
        return ""
    unentered = unentered_words(campaign.get_settings().unentered_tabletop, gm=True)
    after = deadline_after_turn_words(Schedule.of(campaign), campaign.turn + 1, timezone.now())
    return f". Results wanted by {moment_words(wanted, campaign.timezone)}: {unentered}." + (
        f" {after}" if after else ""
    )


def _tabletop_wait_words(campaign: Campaign, settings: Settings) -> str:
    """For "Advance turn now" in tabletop mode: its battles wait for the GM's results,
    wanted by the deadline they are given (the schedule's next, ``turns._battle_rows``)
    and what the campaign's setting does with one not entered by then, as the battles'
    pages and the GM's email say it; none with no schedule (they get no deadline)."""
    wanted = next_deadline_after(Schedule.of(campaign), timezone.now())
    if wanted is None:
        return " Its battles then wait for you to enter their results."
    then = unentered_words(
        settings.unentered_tabletop, gm=True, paused=campaign.status == Campaign.Status.PAUSED
    )
    return (
        " Its battles then wait for you to enter their results, wanted by "
        f"{moment_words(wanted, campaign.timezone)}: {then}."
    )


def _last_turn_words(campaign: Campaign, settings: Settings) -> str:
    """For the confirmation of the campaign's last turn, what follows it: the campaign
    ends and its winner is declared (a walk-through's question before turn 3 of 3 spoke
    of the next turn's deadline). "" before any other turn."""
    length = ending.length_of(campaign, settings)
    if length is None or not length.last:
        return ""
    last = f" It is the last turn ({length.of.lower()}): the campaign ends after it"
    if settings.objective is None:
        return f"{last}, and nobody wins it (it has no objective to hold)."
    return f"{last}, and whoever holds {settings.objective} then is declared the winner."


def advance_question(campaign: Campaign) -> str:
    """The question "Advance turn now" asks before it plays the campaign's next turn: its
    number, the sides not ready yet, that its dice are rolled at once, and what follows
    (its battles waiting in tabletop mode; the next deadline, or the campaign's end after
    its last turn). Paused, that it is, and that playing the turn does not resume it (a
    walk-through's game master could not tell). The campaign's page asks it, and the
    campaigns list's action asks it of each campaign selected."""
    settings = campaign.get_settings()
    tabletop = settings.battle_mode == "tabletop"
    not_ready = sides_not_ready(campaign)
    waits = (
        f" Not ready yet: {', '.join(not_ready)} (the orders given so far are played as they "
        "stand; a company given no order follows its standing order)."
        if not_ready
        else ""
    )
    after = _last_turn_words(campaign, settings) or _deadline_after_advance(
        campaign, tabletop=tabletop
    )
    paused = (
        " The campaign is paused, and playing this turn does not resume it."
        if campaign.status == Campaign.Status.PAUSED
        else ""
    )
    return (
        f"Play turn {campaign.turn + 1} of {campaign.name} now?{paused}{waits} Its dice are "
        "rolled at once and every player sees the result."
        + (_tabletop_wait_words(campaign, settings) if tabletop else "")
        + after
    )


def pause_intro(paused: bool, campaign: Campaign | None = None) -> str:
    """What pausing or resuming does, above its form. Resuming one campaign: its next
    deadline as it would be counted now (``_paused_deadline_words``)."""
    if paused:
        return (
            "While paused, no turn is played on the schedule or when every side is ready; "
            "you may still play one by hand. Every player and spectator reads the pause and "
            "your reason on the campaign's map and in its log of the game master's "
            "adjustments, and is emailed it (unless they turned off the game master's "
            "changes)."
        )
    deadline = ""
    if campaign is not None and campaign.status == Campaign.Status.PAUSED:
        deadline = f" Next deadline: {_paused_deadline_words(campaign)}."
    return (
        "Resuming counts the next deadline from now, not from the one missed while paused."
        f"{deadline} Every player and spectator reads that it resumed, the new deadline and "
        "your reason if you give one, in the log of the game master's adjustments and in "
        "an email."
    )


def _paused_deadline_words(campaign: Campaign) -> str:
    """The next deadline of a paused campaign: none (the scheduler plays no paused
    campaign; a walk-through read the old deadline and saw Resume move it), and what
    resuming does, as ``set_paused`` does it: the next deadline counted from then."""
    schedule = Schedule.of(campaign)
    if schedule.kind == "every_hours":
        hours = schedule.every_hours
        return (
            "none while paused: resuming sets the next one, "
            f"{'1 hour' if hours == 1 else f'{hours} hours'} on"
        )
    if schedule.kind == "weekly" and schedule.weekday is not None and schedule.time_of_day:
        return (
            f"none while paused: resuming sets the next one, the first "
            f"{WEEKDAY_NAMES[schedule.weekday]} at {schedule.time_of_day:%H:%M} "
            f"({schedule.timezone}) after it"
        )
    if not campaign.memberships.exists():  # the AI plays every side: pausing changes nothing
        return 'none: a turn is played when you press "Advance turn now"'
    return (
        "none while paused: once resumed, a turn is played when every player is ready, "
        'or when you press "Advance turn now"'
    )


def stale_advance_words(campaign: Campaign, seen: int) -> str:
    """What happened since the GM's page showed the campaign before turn ``seen + 1``,
    now that it stands before another: turns played since, or a roll-back (the campaign
    went back, so no range of turns "played since" is true)."""
    coming, now = seen + 1, campaign.turn + 1
    if now < coming:
        return f"the campaign was rolled back since: turn {now} is now the next to play."
    if now == coming + 1:
        return f"turn {coming} has been played since."
    return f"turns {coming} to {now - 1} have been played since."


_MOVED = {Campaign.Status.ACTIVE: "resumed", Campaign.Status.PAUSED: "paused"}


def changed_since_words(campaign: Campaign, shown: str, *, page: str = "page") -> str:
    """What changed since a GM page showed the campaign as ``shown`` (``advance_state``),
    the same turn next: paused or resumed; the GM changes made meanwhile, each in the
    log's words, by whom and when (``change_words``: its settings, its schedule, an
    adjustment); or, the status as it was, paused and resumed again, which a
    walk-through's list of campaigns did not notice."""
    shown_status, *_ = shown.split(".")
    if shown_status in _MOVED and campaign.status in _MOVED and shown_status != campaign.status:
        was = "active" if shown_status == Campaign.Status.ACTIVE else "paused"
        moved = _MOVED[Campaign.Status(campaign.status)]
        return f"your {page} showed it {was}, and it has been {moved} since"
    made = changes_since(campaign, shown)
    if made:
        said = " ".join(change_words(change, campaign.timezone) for change in made)
        count = "a change" if len(made) == 1 else f"{len(made)} changes"
        # Said before ". Check the page ...": without the last change's own full stop.
        return f"a game master made {count} to it since your {page} showed it. {said}".rstrip(".")
    if campaign.status == Campaign.Status.PAUSED:
        return f"it was resumed and paused again since your {page} showed it"
    return f"it was paused and resumed again since your {page} showed it"


def skipped_words(campaign: Campaign, seen: int | None, state: str | None = None) -> str:
    """Why the list's "Advance turn now" will not play the campaign's turn, for its
    confirmation page ("" when it will): ended; not shown on the list's page (``seen``,
    the turns played as its row showed them, missing, or ``state``, the rest of the row
    as shown, ``advance_state``); moved on since the list was read (another turn, or
    paused, resumed, its deadline or settings changed); its turn waiting for its
    battles' results."""
    if campaign.status == Campaign.Status.FINISHED:
        return f"{campaign.name} has ended: no more turns are played. It is skipped."
    if seen is None or not state:
        return (
            f"{campaign.name}: skipped, as the list did not show its turn (it is not on the "
            "page of the list you chose from)."
        )
    if seen != campaign.turn:
        return (
            f"{campaign.name}: skipped, as your list showed turn {seen + 1} as its next, and "
            f"it now stands before turn {campaign.turn + 1}. Check it on the list as it is."
        )
    if _waiting(campaign):
        return (
            f"{campaign.name}: skipped, as turn {campaign.turn + 1} waits for its battles' "
            "results: enter them from its page."
        )
    if state != advance_state(campaign):
        return (
            f"{campaign.name}: skipped, as {changed_since_words(campaign, state, page='list')}. "
            "Check it on the list as it is."
        )
    return ""


def reason_reveals(
    form: ReadByAll, campaign: Campaign, *, holder: tuple[str, str | None] | None = None
) -> bool:
    """The reason names what the fog of war hides from some reader, and the GM has not
    confirmed it: the form (valid until now) says what and to whom; save nothing."""
    found = hidden_in_text(
        campaign=campaign, text=str(form.cleaned_data.get("reason") or ""), holder=holder
    )
    return form.ask_to_reveal(found)


def reason_missing_too(form: Any) -> None:
    """A GM change refused for another box, and sent with no reason: the missing reason
    is said at once, beside the other problems (a walk-through corrected its hours,
    pressed Save, and only then was asked for a reason). A form that changes nothing
    needs none (the service asks for it only for a change)."""
    if not form.is_bound or not form.errors or "reason" in form.errors:
        return
    if str(form.data.get("reason") or "").strip():
        return
    if any(name not in ("reason", "seen") for name in form.changed_data):
        form.add_error("reason", form.fields["reason"].error_messages["required"])


def saved_or_unchanged(
    model_admin: Any,
    request: HttpRequest,
    campaign: Campaign,
    adjustment: Any,
    *,
    saved: str,
    unchanged: str,
) -> HttpResponseRedirect:
    """A GM form on the campaign done: back to its page, saying ``saved`` (a line in
    Recent actions too), or "Nothing changed: ``unchanged``" when the service found
    nothing to change (``adjustment`` None) and recorded nothing."""
    if adjustment is None:
        model_admin.message_user(request, f"Nothing changed: {unchanged}")
        return HttpResponseRedirect(change_url(campaign))
    return back_to_change(model_admin, request, campaign, saved)


def side_orders(campaign: Campaign) -> list[tuple[str, str]]:
    """Each side's name and its orders page as the GM opens it (``?side=``): the look
    before playing a turn (what each side ordered, the planned battles and their odds),
    which nothing in the admin linked to (a walk-through)."""
    base = reverse("orders", args=[campaign.pk])
    return [(side.name, f"{base}?{urlencode({'side': side.key})}") for side in campaign.sides.all()]


@admin.register(Campaign)
class CampaignAdmin(RefusedIfTakenMeanwhile, SimpleHistoryAdmin):
    list_display = [
        "name", "turn_shown", "status", "deadline_shown", "battles_waiting", "ending_words",
    ]  # fmt: skip
    list_filter = ["status"]
    search_fields = ["name"]
    fields = [
        "name", "seed", "turn_words", "status", "ending_words", "settings_summary",
        "schedule_summary", "next_deadline_words", "invitations_waiting",
    ]  # fmt: skip
    readonly_fields = [
        "seed", "turn_words", "status", "ending_words", "settings_summary",
        "schedule_summary", "next_deadline_words", "invitations_waiting",
    ]  # fmt: skip
    inlines = [MembershipInline, TurnInline, AdjustmentInline]
    actions = ["advance_now", "pause", "resume"]
    change_list_template = "admin/campaign/campaign/change_list.html"
    change_form_template = "admin/campaign/campaign/change_form.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a campaign comes from a scenario file: "Create a campaign"

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """A player added below (or given another side) who takes a side the campaign AI
        played: told in the public log (``player_joined``), as one invited is."""
        super().save_formset(request, form, formset, change)
        if formset.model is not Membership:
            return
        moved = [row for row, fields in formset.changed_objects if "side" in fields]
        for membership in [*formset.new_objects, *moved]:
            player_joined(membership=membership, how=PUT_IN, user=request.user)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = list(super().get_fields(request, obj))
        if _ended(obj):  # the record of an ended campaign names everyone who played it
            fields.insert(fields.index("ending_words") + 1, "who_played_words")
        if obj is not None and obj.status == Campaign.Status.PAUSED:
            fields.insert(fields.index("status") + 1, "paused_words")
        return fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [*super().get_readonly_fields(request, obj), "who_played_words", "paused_words"]

    @admin.display(description="paused")
    def paused_words(self, obj: Campaign) -> str:
        """Since when and why the campaign is paused, as its players read it on the map
        (``pause_note``: its last pause's line in the log)."""
        note = pause_note(obj)
        if note is None:  # paused before a pause had a line in the log
            return "since before pauses were written in the log: no reason was recorded"
        return f"since {note.since}; your reason, which every player reads: {note.reason}"

    @admin.display(description="who played")
    def who_played_words(self, obj: Campaign) -> str:
        """Everyone who played the ended campaign, once each, those the GM removed along
        the way with when and why, and when any of them came back (the players' list
        below has only those in it at the end)."""
        sides = dict(obj.sides.values_list("key", "name"))
        clock = campaign_clock(obj) or "UTC"
        lines = []
        for player in who_played(campaign=obj):
            told = []
            for stint in player.stints:
                if stint.side == SPECTATOR:
                    played = "followed it as a spectator"
                else:
                    played = f"played the {sides.get(stint.side, stint.side)}"
                if stint.rejoined is not None:
                    back = f"rejoined {stint.rejoined}" if stint.rejoined else "came back"
                    played = f"{back} and {played}"
                if stint.left is None or stint.left_at is None:
                    told.append(f"{played}, to the end")
                    continue
                when = moment_words(stint.left_at, clock)
                again = " again" if told else ""
                told.append(
                    f"{played} until the game master removed them{again} {stint.left} "
                    f"({when}): {stint.reason}"
                )
            # A reason written as a sentence ("she will be back.") before "; then" read
            # "back.; then": its full stop gives way to the semicolon.
            told = [part.rstrip(".") for part in told[:-1]] + told[-1:]
            lines.append((player.name, "; then ".join(told)))
        if not lines:
            return "nobody: the campaign AI played every side"
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}: {}</li>", lines))

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Campaign | None = None,
    ) -> HttpResponse:
        """The campaign's page; "Advance turn now" asks first (``advance_question``, of
        the campaign the page already read). While a turn waits for its battles' results
        there is no turn to advance: the page links each battle's result form instead of
        offering the button; an ended campaign offers neither it nor its schedule."""
        if obj is not None:
            context["waiting"] = results_to_enter(obj)
            context["ended"] = obj.status == Campaign.Status.FINISHED
            if not context["ended"]:
                context["side_orders"] = side_orders(obj)
            if not context["waiting"] and not context["ended"]:
                context["advance_question"] = advance_question(obj)
                context["advance_state"] = advance_state(obj)
                context["advance_sides"] = sides_state(obj)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                pending_battles=Count("battles", filter=Q(battles__status="pending")),
                # The last GM change, which "Advance turn now" sends back (advance_state).
                gm_change=Coalesce(
                    Subquery(
                        GmAdjustment.objects.filter(campaign=OuterRef("pk"))
                        .order_by("-pk")
                        .values("pk")[:1]
                    ),
                    0,
                ),
            )
            .prefetch_related("sides")  # their names, for the ending (``ending_words``)
        )

    @admin.display(description="turns")
    def turn_words(self, obj: Campaign) -> str:
        """The turns in the words of the GM's home page: "0 played; next: turn 1"; a turn
        begun and waiting for its battles' results says so ("next" would read as a turn
        still to be played, whose orders are still open)."""
        if obj.status == Campaign.Status.FINISHED:
            return f"{obj.turn} played; the campaign has ended"
        if _waiting(obj):
            return f"{obj.turn} played; turn {obj.turn + 1} waits for its battles' results"
        return f"{obj.turn} played; next: turn {obj.turn + 1}"

    @admin.display(description="turns", ordering="turn")
    def turn_shown(self, obj: Campaign) -> str:
        """The turns, and the number played in the changelist's form: "Advance turn now"
        sends back the turn each row showed, and the rest of the row as shown
        (``advance_state``: paused or not, its last save, its last GM change)."""
        return format_html(
            '{}<input type="hidden" name="seen_turn_{}" value="{}">'
            '<input type="hidden" name="seen_state_{}" value="{}">',
            self.turn_words(obj),
            obj.pk,
            obj.turn,
            obj.pk,
            advance_state(obj),
        )

    @admin.display(description="ending", ordering="winner")
    def ending_words(self, obj: Campaign) -> str:
        """Who won a finished campaign and why, in the sentence the players read ("The
        Japanese won: they held Korona when the 8 turns were up.", ``ending.outcome``),
        not the engine's ``end_reason`` nor the winner's key; while it goes on, that it
        does ("Ending: -" read as a value missing). Sorted by the winner, the sentence's
        first words."""
        if obj.status == Campaign.Status.PAUSED:
            return "not yet: paused, still being played"
        if obj.status != Campaign.Status.FINISHED:
            return "not yet: still being played"
        sides = {side.key: side.name for side in obj.sides.all()}
        return ending.outcome(obj, obj.get_settings(), sides)

    @admin.display(description="next deadline", ordering="next_deadline")
    def deadline_shown(self, obj: Campaign) -> str:
        """The list's next deadline: the campaign page's, in the campaign's own time zone
        ("Sun 20 Dec 2026, 22:15 AEDT"), else why there is none, in a word or two (a turn
        waiting for the GM's results has none). From the row alone: no query more,
        however many campaigns."""
        if obj.status == Campaign.Status.FINISHED:
            return "ended"
        if obj.status == Campaign.Status.PAUSED:
            return "paused"
        if obj.pending_battles:  # type: ignore[attr-defined]  # get_queryset's annotation
            return "none: waiting for your battle results"
        return deadline_words(obj) or "none"

    @admin.display(description="battles waiting", ordering="pending_battles")
    def battles_waiting(self, obj: Campaign) -> int:
        return obj.pending_battles  # type: ignore[attr-defined]  # get_queryset's annotation

    @admin.display(description="settings")
    def settings_summary(self, obj: Campaign) -> str:
        settings = settings_to_json(obj.get_settings())
        return "; ".join(
            f"{DOCS[key].label}: {value_words(key, settings[key])}"
            for key in (
                "battle_mode", "ruleset", "fog_of_war", "combat_events", "fog_of_war_cup",
                "unentered_tabletop", "turn_limit",
            )
        )  # fmt: skip

    @admin.display(description="next deadline")
    def next_deadline_words(self, obj: Campaign) -> str:
        """In the campaign's own time zone, as the players' pages and the home page say it;
        none while the GM plays each turn, while a turn waits for its results, while the
        campaign is paused (the deadline it had is set anew on resuming), or once it ended
        (how it ended, as the players' pages say it)."""
        if obj.status == Campaign.Status.FINISHED:
            sides = dict(obj.sides.values_list("key", "name"))
            how = ending.outcome(obj, obj.get_settings(), sides)
            return f"none: the campaign has ended. {how}".strip()
        paused = obj.status == Campaign.Status.PAUSED
        if _waiting(obj):  # a deadline kept from before the turn began is no deadline
            if paused:  # not "resuming sets the next one": the results come first
                return (
                    "none: the turn waits for you to enter its battles' results, and the "
                    "campaign is paused: no turn follows it until you resume the campaign "
                    'or press "Advance turn now"'
                )
            return "none: the turn is played once you enter its battles' results" + _wanted_words(
                obj
            )
        if paused:
            return _paused_deadline_words(obj)
        if obj.next_deadline is None:
            if not obj.memberships.exists():  # the AI plays every side: only the GM plays it
                return 'none: a turn is played when you press "Advance turn now"'
            return (
                "none: a turn is played once every player is ready,"
                ' or when you press "Advance turn now"'
            )
        return deadline_words(obj)

    @admin.display(description="schedule")
    def schedule_summary(self, obj: Campaign) -> str:
        """The schedule in the players' log's words; none as "no deadlines" alone: who
        plays such a turn depends on the campaign (with no player, the sides' "ready" is
        the AI's, always, so "once every side is ready" would read as played at once;
        a turn waiting for results is played by entering them), and "Next deadline",
        the line under it, says it."""
        schedule = Schedule.of(obj)
        return "none: no deadlines" if schedule.kind == "none" else schedule_words(schedule)

    @admin.display(description="invitations waiting")
    def invitations_waiting(self, obj: Campaign) -> str:
        """The invitations a player may still use, each side's link to copy (never to
        follow: that would use it up) and when it stops working, on the campaign's clock;
        the first run's links were found only under Notifications → Invitations."""
        if obj.status == Campaign.Status.FINISHED:  # its links open on "it has ended"
            return "none: the campaign has ended, so nobody can join it"
        found = waiting_invitations([obj.pk]).order_by("side", "expires_at", "pk")
        sides = dict(obj.sides.values_list("key", "name"))
        add = reverse("admin:notifications_invitation_add") + f"?campaign={obj.pk}"
        if not found:
            return format_html('none waiting: <a href="{}">invite a player</a>', add)
        clock = campaign_clock(obj) or "UTC"
        players: dict[str, list[str]] = {}
        for side, username in obj.memberships.exclude(side=SPECTATOR).values_list(
            "side", "user__username"
        ):
            players.setdefault(side, []).append(username)
        rows = []
        for invitation in found:
            side = sides.get(invitation.side, "to watch")
            what = f"Invitation link: {obj.name}, {side}"
            until = moment_words(invitation.expires_at, clock)
            rows.append(
                (
                    side + invitation_use(invitation.side, players),
                    copy_field(invitation_url(invitation), what),
                    until,
                )
            )
        every = reverse("admin:notifications_invitation_changelist")
        return format_html(
            '{}<div><a href="{}?campaign__id__exact={}">Every invitation of {}</a> · '
            '<a href="{}">invite another player</a></div>',
            format_html_join("", '<div class="invitation">{}: {} until {}</div>', rows),
            every,
            obj.pk,
            obj.name,
            add,
        )

    def get_urls(self) -> list[Any]:
        return [
            *admin_routes(
                self,
                ("create/", self.create_view, "create"),
                ("balance/", self.balance_view, "balance"),
                ("balance/<str:job>/", self.balance_job_view, "balance_job"),
            ),
            *row_pages(
                self,
                "advance",
                "pause",
                "resume",
                "export",
                "settings",
                "schedule",
                "rollback",
                "seed",
            ),
            *super().get_urls(),
        ]

    def _campaign(self, request: HttpRequest, pk: int) -> Campaign:
        campaign: Campaign = admin_row(self, pk)
        if not self.has_change_permission(request, campaign):
            raise PermissionDenied
        return campaign

    # Create from a scenario file.

    def create_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_change_permission(request):
            raise PermissionDenied
        form = CreateCampaignForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                campaign = start_campaign(
                    data=korona_scenario() if data["scenario"] is None else data["scenario"],
                    name=data["name"],
                    seed=data["seed"],
                    choices=form.choices(),
                    schedule=form.schedule(),
                )
            except ScenarioError as bad:
                form.show_problems(bad.problems)
            except CampaignExists as taken:
                form.add_error("name", sentence(taken))
            except ScheduleRefused as refused:
                form.add_error("kind", sentence(refused))
            except ValueError as bad:
                form.add_error(None, sentence(bad))
            else:
                done = created_message(campaign, request.user)
                # The log keeps words, not the links' Copy buttons ("Australians: Copy").
                sides = ", ".join(campaign.sides.values_list("name", flat=True))
                logged = (
                    f"Created {campaign.name} (seed {campaign.seed}), with an invitation "
                    f"link for each side: {sides}."
                )
                return back_to_change(self, request, campaign, done, logged=logged)
        response = form_page(
            self,
            request,
            title="Create a campaign",
            form=form,
            submit="Create",
            multipart=True,
            intro="A campaign from the Korona scenario, or from a scenario file of your own, "
            "with its main choices: they can be changed later under Settings and Schedule.",
            also=(("Balance", reverse("admin:campaign_campaign_balance")),),
        )
        response.template_name = "admin/korona/create_form.html"
        return response

    # Balance: campaigns of a scenario simulated, its progress polled by the page.

    def balance_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_change_permission(request):
            raise PermissionDenied
        form = BalanceForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                job = start_balance(
                    data=korona_scenario() if data["scenario"] is None else data["scenario"],
                    campaigns=data["campaigns"],
                    seed=data["seed"],
                )
            except ScenarioError as bad:
                form.show_problems(bad.problems)
            except ValueError as bad:
                form.add_error(None, sentence(bad))
            else:
                return HttpResponseRedirect(
                    reverse("admin:campaign_campaign_balance_job", args=[job])
                )
        return form_page(
            self,
            request,
            title="Balance of a scenario",
            form=form,
            submit="Balance",
            multipart=True,
            intro="Simulates campaigns of the scenario to their end, the sensible AI playing "
            "both sides, and shows each side's win share with its 95% interval, the mean "
            "length and how often each area changed hands. Nothing is created.",
        )

    def balance_job_view(self, request: HttpRequest, job: str) -> HttpResponse:
        if not self.has_change_permission(request):
            raise PermissionDenied
        status = balance_progress(job)
        if status is None:
            # Kept JOB_SECONDS (or lost with the cache): the GM is told so, not "nothing
            # here"; the page's poll gets the same words and stops.
            gone = (
                f"This balance is no longer kept: a balance's progress and result are kept "
                f"for {JOB_SECONDS // 3600} hours, and are lost if the server's cache is "
                f"cleared. Balance the scenario again."
            )
            if request.GET.get("format") == "json":
                return JsonResponse({"detail": gone, "finished": False, "stale": True}, status=404)
            page = admin_page(
                self, request, "admin/korona/balance.html", title="Balance", gone=gone
            )
            page.status_code = 404
            return page
        if request.GET.get("format") == "json":
            return JsonResponse(status)
        return admin_page(
            self,
            request,
            "admin/korona/balance.html",
            title=f"Balance of {status['scenario']}",
            status=status,
            seed_words=(
                f"a random seed ({status['seed']})"
                if status.get("seed_drawn")
                else f"seed {status['seed']}"
            ),
            tables=balance_tables(status["result"]) if status.get("result") else None,
            poll=reverse("admin:campaign_campaign_balance_job", args=[job]) + "?format=json",
        )

    # Turn, pause, resume, export: buttons on the change page and changelist actions.

    def _advance(
        self,
        request: HttpRequest,
        campaign: Campaign,
        page: str | None,
        page_state: str | None,
        page_sides: str | None,
    ) -> None:
        """Play the turn after the one the GM's page showed (``page``, sent back by the
        button): a second click, a stale tab, or the schedule playing it at the same
        moment, does not play the turn after it too. ``page_state``: the rest of the
        campaign as the page showed it (``advance_state``: its status, as its button's
        question said "paused" or not, its last save, its last GM change); changed since,
        nothing is played (a walk-through paused a campaign in one tab, and the other
        tab's button played its turn after a question that did not say so; the list's
        action, which sent only the turn, played one after a pause and a resume).
        ``page_sides``: its players and the sides not ready, as the page showed them
        (``sides_state``: the campaign's page lists its players, and the button's question,
        there and on the list's confirmation page, names the sides not ready); a player
        joined, left, or took back a side's "ready" since, nothing is played either. None
        from a form that showed neither (the list's rows, sent without its confirmation
        page): not checked."""
        seen = whole_number(page)
        if seen is None or not page_state:
            self.message_user(
                request,
                f"{campaign.name}: nothing was played: the page did not say "
                f"{'which turn it showed' if seen is None else 'how it showed the campaign'}. "
                "Reload it and press again.",
                messages.ERROR,
            )
            return
        # (Another turn since: advance_turn refuses it, and says which, below.)
        try:
            report = advance_turn(
                campaign_id=campaign.pk,
                expected_turn=seen + 1,
                expected_state=page_state,
                expected_sides=page_sides,
            )
        except CampaignChangedSince as changed:
            self.message_user(
                request,
                f"{campaign.name}: nothing was played: "
                f"{changed.sides or changed_since_words(changed.now, page_state)}. Check the "
                "page as it is before you advance.",
                messages.ERROR,
            )
            return
        except TurnAlreadyPlayed as refused:
            now = Campaign.objects.get(pk=campaign.pk)
            if now.turn == seen:  # the page is right: the turn waits for its battles
                self.message_user(request, waiting_words(now, str(refused)), messages.ERROR)
                return
            self.message_user(
                request,
                f"{campaign.name}: nothing was played: your page was for turn {seen + 1}, and "
                f"{stale_advance_words(now, seen)} Check the page as it is before you advance.",
                messages.ERROR,
            )
            return
        except TurnRefused as refused:
            self.message_user(request, sentence(refused), messages.ERROR)
            return
        say_done(
            self,
            request,
            campaign,
            played_words(campaign, report),
            logged=played_words(campaign, report, link=False),
        )

    @admin.action(description="Advance turn now")
    def advance_now(
        self, request: HttpRequest, queryset: QuerySet[Campaign]
    ) -> TemplateResponse | None:
        """Asks first, on a page of its own (the list's confirmation named no campaign):
        each selected campaign's question, as its own page asks it, and the campaigns it
        skips (ended ones among them), then plays the turns confirmed. The turn each row
        of the list showed (``seen_turn_<id>``) goes through unchanged: a turn played
        since the list was read is not played again."""
        if request.POST.get("confirmed") != "yes":
            return self._advance_confirmation(request, queryset)
        for campaign in queryset:
            if campaign.status == Campaign.Status.FINISHED:
                self.message_user(
                    request,
                    f"{campaign.name} has ended: no more turns are played. It was skipped.",
                    messages.WARNING,
                )
                continue
            self._advance(
                request,
                campaign,
                request.POST.get(f"seen_turn_{campaign.pk}"),
                request.POST.get(f"seen_state_{campaign.pk}"),
                request.POST.get(f"seen_sides_{campaign.pk}"),
            )
        return None

    def _advance_confirmation(
        self, request: HttpRequest, queryset: QuerySet[Campaign]
    ) -> TemplateResponse:
        questions, skipped, chosen = [], [], []
        for campaign in queryset:
            seen = whole_number(request.POST.get(f"seen_turn_{campaign.pk}"))
            state = request.POST.get(f"seen_state_{campaign.pk}")
            why_not = skipped_words(campaign, seen, state)
            if why_not:
                skipped.append(why_not)
                continue
            questions.append(advance_question(campaign))
            # Who plays and who is not ready as this page's question says them: a change
            # to them after it refuses the turn (``_advance``).
            chosen.append((campaign.pk, seen, state, sides_state(campaign)))
        return admin_page(
            self,
            request,
            "admin/korona/advance_confirm.html",
            title="Advance turn now" + ("?" if chosen else ": nothing to play"),
            questions=questions,
            skipped=skipped,
            chosen=chosen,
            submit="Yes, play it" if len(chosen) == 1 else "Yes, play them",
            action_checkbox_name=helpers.ACTION_CHECKBOX_NAME,
        )

    @admin.action(description="Pause")
    def pause(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> TemplateResponse | None:
        return self._pause_selected(request, queryset, paused=True)

    @admin.action(description="Resume")
    def resume(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> TemplateResponse | None:
        return self._pause_selected(request, queryset, paused=False)

    def _pause_selected(
        self, request: HttpRequest, queryset: QuerySet[Campaign], *, paused: bool
    ) -> TemplateResponse | None:
        """The list's Pause or Resume: a page of its own asks for the reason first (the
        players read it), one for every campaign chosen, then pauses or resumes each as
        its own page does. The list's first press sends no reason: it only asks."""
        campaigns = list(queryset.order_by("name"))
        data = request.POST if request.POST.get("confirmed") == "yes" else None
        form = PauseForm(data, paused=paused)
        if form.is_bound and form.is_valid() and not self._reason_reveals(form, campaigns):
            for campaign in campaigns:
                self._set_paused(request, campaign, paused=paused, form=form)
            return None
        verb = "Pause" if paused else "Resume"
        return admin_page(
            self,
            request,
            "admin/korona/pause_confirm.html",
            title=f"{verb} {names.join([c.name for c in campaigns]) or 'no campaign'}",
            intro=pause_intro(paused),
            form=form,
            campaigns=campaigns,
            action=verb.lower(),
            submit=verb,
            action_checkbox_name=helpers.ACTION_CHECKBOX_NAME,
        )

    @staticmethod
    def _reason_reveals(form: PauseForm, campaigns: list[Campaign]) -> bool:
        text = str(form.cleaned_data.get("reason") or "")
        found = [item for c in campaigns for item in hidden_in_text(campaign=c, text=text)]
        return form.ask_to_reveal(found)

    def _set_paused(
        self, request: HttpRequest, campaign: Campaign, *, paused: bool, form: PauseForm
    ) -> None:
        """Pause or resume one campaign from a form: said done, or why not (a stale page's
        ``StaleChange`` goes to its caller, which shows the form again)."""
        try:
            adjustment = set_paused(
                campaign=campaign,
                paused=paused,
                reason=form.cleaned_data["reason"],
                user=request.user,
                seen=form.cleaned_data.get("seen") or None,
            )
        except (CampaignRefused, AdjustmentRefused) as refused:
            if isinstance(refused, StaleChange):
                raise
            self.message_user(request, sentence(refused), messages.ERROR)  # names it
            return
        said = adjustment_what(adjustment.what, adjustment.details)
        say_done(
            self, request, campaign, f"{campaign.name}: {said.rstrip('.')}. Every player is told."
        )

    def advance_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._button(
            request,
            pk,
            lambda r, c: self._advance(
                r, c, r.POST.get("turn"), r.POST.get("state"), r.POST.get("sides")
            ),
        )

    def pause_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._pause_page(request, pk, paused=True)

    def resume_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._pause_page(request, pk, paused=False)

    def _pause_page(self, request: HttpRequest, pk: int, *, paused: bool) -> HttpResponse:
        """The campaign's Pause (a reason asked for) or Resume (one if the GM likes)."""
        campaign = self._campaign(request, pk)

        def pause_form(data: Any, seen: str) -> PauseForm:
            return PauseForm(data, paused=paused, seen=seen)

        verb = "Pause" if paused else "Resume"
        form = pause_form(request.POST or None, campaign_version(campaign.pk))
        if request.method == "POST" and form.is_valid() and not reason_reveals(form, campaign):
            try:
                self._set_paused(request, campaign, paused=paused, form=form)
            except StaleChange as stale:
                form = shown_again(self, request, stale, pause_form, submit=verb)
            else:
                return HttpResponseRedirect(change_url(campaign))
        return form_page(
            self,
            request,
            title=f"{verb} {campaign.name}",
            form=form,
            obj=campaign,
            submit=verb,
            intro=pause_intro(paused, campaign),
        )

    def _button(
        self, request: HttpRequest, pk: int, act: Callable[[HttpRequest, Campaign], None]
    ) -> HttpResponse:
        @require_POST
        def run(request: HttpRequest) -> HttpResponse:
            campaign = self._campaign(request, pk)
            act(request, campaign)
            return HttpResponseRedirect(change_url(campaign))

        return run(request)

    def export_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._campaign(request, pk)
        document = export_campaign(campaign=campaign)
        response = HttpResponse(
            json.dumps(document, indent=2, sort_keys=True), content_type="application/json"
        )
        filename = "".join(ch if ch.isalnum() else "-" for ch in campaign.name)
        response["Content-Disposition"] = f'attachment; filename="{filename}.json"'
        return response

    # Deleting: everything in the campaign goes with it, after a confirmation in words.

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        """No "Delete selected campaigns": a campaign is deleted from its own page, whose
        confirmation says what goes with it."""
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The Delete button's page. Django's own would list every row of the campaign and
        refuse: the rows the turns keep (turns, companies, battles...) may not be deleted
        one by one (KeptByTheRules), which is right for one row and wrong for the whole."""
        pk = whole_number(object_id)
        campaign = Campaign.objects.filter(pk=pk).first() if pk is not None else None
        if campaign is None:  # a second click, or a tab left open: said, nothing done
            self.message_user(
                request,
                "Nothing was deleted: that campaign is not there (deleted already?).",
                messages.WARNING,
            )
            return HttpResponseRedirect(reverse("admin:campaign_campaign_changelist"))
        if not self.has_delete_permission(request, campaign):
            raise PermissionDenied
        form = DeleteCampaignForm(request.POST or None, seen=campaign_version(campaign.pk))
        if request.method == "POST" and form.is_valid():
            try:
                delete_campaign(campaign=campaign, seen=form.cleaned_data["seen"])
            except StaleChange as stale:
                # Nothing typed to keep: the page again, saying what goes now.
                again = f"{stale} The page now shows it as it is: check it and submit again."
                self.message_user(request, again, messages.ERROR)
                return HttpResponseRedirect(request.path)
            except CampaignRefused as refused:
                self.message_user(request, sentence(refused), messages.ERROR)
                return HttpResponseRedirect(reverse("admin:campaign_campaign_changelist"))
            self.log_deletions(request, [campaign])
            self.message_user(request, f"{campaign.name} and everything in it were deleted.")
            return HttpResponseRedirect(reverse("admin:campaign_campaign_changelist"))
        response = form_page(
            self,
            request,
            title=f"Delete {campaign.name}?",
            form=form,
            obj=campaign,
            submit="Yes, delete it all",
            intro=(
                "This cannot be undone: nobody can see or play the campaign again. To keep "
                "where it stands, press Export scenario on its page first; a finished "
                "campaign can also simply stay, its players can still read it."
            ),
        )
        if response.context_data is not None:
            response.context_data["preview_title"] = "Deleting it deletes"
            response.context_data["preview"] = deletion_words(campaign=campaign)
        return response

    # Settings and roll-back.

    def settings_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._campaign(request, pk)
        if _ended(campaign):  # its page offers no Settings; a tab opened before, or by hand
            self.message_user(
                request,
                f"{campaign.name} has ended: its settings are kept as they were (its page "
                "lists them). Nothing was changed.",
                messages.ERROR,
            )
            return HttpResponseRedirect(change_url(campaign))

        def settings_form(data: Any, seen: str) -> SettingsForm:
            return SettingsForm(
                data,
                settings=campaign.get_settings(),
                seen=seen,
                **map_names(campaign),
            )

        form = settings_form(request.POST or None, campaign_version(campaign.pk))
        if request.method == "POST" and form.is_valid() and not reason_reveals(form, campaign):
            try:
                adjustment = update_settings(
                    campaign=campaign,
                    settings=form.settings_json(),
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    seen=form.cleaned_data["seen"],
                )
            except StaleChange as stale:
                form = shown_again(self, request, stale, settings_form)
            except ScenarioError as bad:
                form.show_problems(bad.problems)
            except ReasonMissing:
                form.add_error("reason", form.fields["reason"].error_messages["required"])
            except AdjustmentRefused as refused:
                form.add_error(None, sentence(refused))
            else:
                return saved_or_unchanged(
                    self,
                    request,
                    campaign,
                    adjustment,
                    saved=f"{campaign.name}: settings saved.",
                    unchanged=f"no setting of {campaign.name} differs from what is saved.",
                )
        reason_missing_too(form)
        response = form_page(
            self,
            request,
            title=f"Settings of {campaign.name}",
            form=form,
            obj=campaign,
            intro="Each setting says what it does and quotes the rule it carries out. A "
            "change applies from the next turn on; the players read it, with your reason, in "
            "the campaign's log of the game master's adjustments.",
        )
        response.template_name = "admin/korona/settings_form.html"
        return response

    def schedule_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._campaign(request, pk)

        def schedule_form(data: Any, seen: str) -> ScheduleChangeForm:
            return ScheduleChangeForm(
                data,
                seen=seen,
                initial={
                    "kind": campaign.schedule_kind,
                    "every_hours": campaign.every_hours,
                    "weekday": campaign.weekday,
                    "time_of_day": campaign.time_of_day,
                    "timezone": campaign.timezone,
                },
            )

        form = schedule_form(request.POST or None, campaign_version(campaign.pk))
        if request.method == "POST" and form.is_valid() and not reason_reveals(form, campaign):
            try:
                adjustment = change_schedule(
                    campaign=campaign,
                    schedule=form.schedule(),
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    seen=form.cleaned_data["seen"],
                )
            except StaleChange as stale:
                form = shown_again(self, request, stale, schedule_form)
            except ReasonMissing:
                form.add_error("reason", form.fields["reason"].error_messages["required"])
            except (ScheduleRefused, AdjustmentRefused) as refused:
                form.add_error(None, sentence(refused))
            else:
                return saved_or_unchanged(
                    self,
                    request,
                    campaign,
                    adjustment,
                    saved=f"{campaign.name}: schedule saved.",
                    unchanged=f"the schedule of {campaign.name} is the one already saved.",
                )
        reason_missing_too(form)
        return form_page(
            self,
            request,
            title=f"Schedule of {campaign.name}",
            form=form,
            obj=campaign,
            intro="When a deadline passes, the next turn is played by itself; it is played "
            "early once every side has marked its orders ready. A new schedule counts its "
            "next deadline from now; the players are told of it, with your reason, in the "
            "campaign's log of the game master's adjustments.",
        )

    def rollback_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._campaign(request, pk)
        numbers = list(
            Turn.objects.filter(campaign=campaign, start_state__isnull=False)
            .order_by("number")
            .values_list("number", flat=True)
        )
        seen = campaign_version(campaign.pk)

        def rollback_form(data: Any, chosen: int | None = None) -> RollbackForm:
            return RollbackForm(
                data, numbers=numbers, seen=seen, chosen=chosen, preview_url=request.path
            )

        # A GET may ask for another turn's preview (the list's choice, sent by htmx).
        asked = whole_number(request.GET.get("number"))
        form = rollback_form(request.POST or None, asked)
        shown = form.fields["number"].initial if numbers else None
        if request.method == "POST":
            chosen = whole_number(str(form["number"].value()))
            previewed = whole_number(str(form["previewed"].value()))
            shown = chosen if chosen in numbers else previewed if previewed in numbers else shown
            if shown is not None and shown != previewed:
                # Another turn than the page showed the effects of: show them, change nothing.
                data = request.POST.copy()
                data["previewed"] = str(shown)
                form = rollback_form(data)
                form.is_valid()
                form.add_error(
                    None,
                    f"Nothing was rolled back yet: read what going back to turn {shown} "
                    "undoes (above), then press Roll back again.",
                )
            elif form.is_valid() and not reason_reveals(form, campaign):
                try:
                    rollback_to_turn(
                        campaign=campaign,
                        number=form.cleaned_data["number"],
                        reason=form.cleaned_data["reason"],
                        user=request.user,
                        seen=form.cleaned_data["seen"],
                    )
                except StaleChange as stale:
                    form = shown_again(
                        self,
                        request,
                        stale,
                        lambda data, _: rollback_form(data),  # "seen" is in the data
                        submit="Roll back",
                        confirm="confirm",
                    )
                except AdjustmentRefused as refused:
                    form.add_error(None, sentence(refused))
                else:
                    done = f"{campaign.name} is back at the start of turn {shown}."
                    return back_to_change(self, request, campaign, done)
        response = form_page(
            self,
            request,
            title=f"Roll {campaign.name} back",
            form=form,
            obj=campaign,
            submit="Roll back",
            intro=(
                "For a mistake: the campaign returns to the start of the chosen turn. That "
                "turn and every later one are deleted with their battles; the orders given "
                "for it stay. The turn is played again with new dice (its dice were shown, "
                "so the players could otherwise foresee them): its battles are fought anew, "
                "and a tabletop battle needs its result entered again. A paused campaign "
                "stays paused. The players see the roll-back and your reason."
            ),
        )
        if shown is not None and response.context_data is not None:
            response.context_data["preview_title"] = (
                f"Rolling back to the start of turn {shown} undoes"
            )
            response.context_data["preview"] = rollback_preview(campaign=campaign, number=shown)
            response.context_data["live_preview"] = True
        return response

    def seed_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._campaign(request, pk)
        form = SeedChangeForm(request.POST or None, seen=campaign_version(campaign.pk))
        if request.method == "POST" and form.is_valid() and not reason_reveals(form, campaign):
            try:
                change_turn_seed(
                    campaign=campaign,
                    seed=form.cleaned_data["seed"],
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    seen=form.cleaned_data["seen"],
                )
            except StaleChange as stale:
                form = shown_again(
                    self,
                    request,
                    stale,
                    lambda data, seen: SeedChangeForm(data, seen=seen),
                    submit="Replace the seed",
                    confirm="confirm",
                )
            except AdjustmentRefused as refused:
                form.add_error(None, sentence(refused))
            else:
                done = f"Turn {campaign.turn + 1} of {campaign.name} has a new seed."
                return back_to_change(self, request, campaign, done)
        return form_page(
            self,
            request,
            title=f"Replace the seed of turn {campaign.turn + 1} of {campaign.name}",
            form=form,
            obj=campaign,
            submit="Replace the seed",
            intro=(
                "Every die of the coming turn comes from its seed, committed to before the "
                "turn so the players can check it afterwards. Replacing it breaks that chain "
                "on purpose: the public log says so, with your reason. A turn to be played "
                "again after a roll-back has a new seed already (its dice had been shown)."
            ),
        )


# --- the map ------------------------------------------------------------------------------


def side_played() -> Exists:
    """Whether a player plays the company's side: annotated on a list of companies, so
    their standing orders are said without a query a row."""
    return Exists(Membership.objects.filter(campaign=OuterRef("campaign"), side=OuterRef("side")))


def standing_order_words(company: Company) -> str:
    """What the company does given no order, as its page says it to the GM: a
    "sensible" company of a side a player plays holds (the walk-through read
    "sensible" here and "hold" on the player's page)."""
    played = getattr(company, "side_played", None)
    if played is None:  # a row not read through get_queryset
        played = Membership.objects.filter(
            campaign_id=company.campaign_id, side=company.side
        ).exists()
    return standing_words(company.standing_order, played=played, game_master=True)


class CompanyInArea(ReadOnlyInline):
    model = Company
    fk_name = "area"
    fields = readonly_fields = ("name", "side", "kind", "quality", "standing_words", "in_supply")
    verbose_name_plural = "companies in the area"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Company]:
        return super().get_queryset(request).annotate(side_played=side_played())

    @admin.display(description="standing order")
    def standing_words(self, obj: Company) -> str:
        """As the Companies list says it, not the stored "sensible"."""
        return standing_order_words(obj)


@admin.register(Area)
class AreaAdmin(KeptByTheRules, AdjustableAdmin, SimpleHistoryAdmin):
    list_display = ["name", "campaign", "zone", "track", "vegetation", "controller"]
    list_filter = ["campaign", "zone", "vegetation", "controller"]
    list_select_related = ["campaign"]
    search_fields = ["name", "track"]
    fields = [
        "campaign", "name", "zone", "track", "vegetation", "plains", "features_words",
        "controller",
    ]  # fmt: skip
    readonly_fields = fields
    inlines = [CompanyInArea]
    change_form_template = "admin/campaign/adjustable_change_form.html"

    @admin.display(description="features")
    def features_words(self, obj: Area) -> str:
        return ", ".join(str(feature) for feature in obj.features or []) or "none"

    adjust_title = "Control of {obj.name}"
    adjust_done = "{obj.name}: control set."

    def adjust_form(self, data: Any, obj: Area, seen: str) -> ControlAdjustForm:
        return ControlAdjustForm(data, initial={"controller": obj.controller or "", "seen": seen})

    def holder_after(self, obj: Area, form: Any) -> tuple[str, str | None] | None:
        return (obj.name, form.cleaned_data.get("controller") or None)

    def apply_adjustment(self, obj: Area, data: dict[str, Any], user: Any) -> GmAdjustment:
        return set_control(
            area=obj,
            side=data["controller"] or None,
            reason=data["reason"],
            user=user,
            seen=data["seen"],
        )


@admin.register(Link)
class LinkAdmin(KeptByTheRules, admin.ModelAdmin):
    list_display = ["__str__", "campaign"]
    list_filter = ["campaign"]
    list_select_related = ["campaign", "a", "b"]
    search_fields = ["a__name", "b__name"]
    readonly_fields = ["campaign", "a", "b"]


# --- the forces ---------------------------------------------------------------------------


class StandsInline(ReadOnlyInline):
    model = CompanyStands
    fields = readonly_fields = ("unit", "held", "establishment")
    show_change_link = False

    @admin.display(description="unit type")
    def unit(self, obj: CompanyStands) -> str:
        return names.unit(obj.unit_type)


@admin.register(Company)
class CompanyAdmin(KeptByTheRules, AdjustableAdmin, SimpleHistoryAdmin):
    history_note = (
        f"{HISTORY_NOTE} A change of the company's stands (Adjust) is listed under game master's "
        "adjustments, with its reason."
    )
    list_display = [
        "name",
        "campaign",
        "side",
        "kind_words",
        "area",
        "stands",
        "supply_words",
        "standing_words",
    ]
    # The campaign first: each campaign of a scenario has its "A Company".
    list_filter = ["campaign", "side", "kind", "quality"]
    list_select_related = ["campaign", "area"]
    search_fields = ["name"]
    # Shown in words (supply_words), never as the field itself: on a History version
    # page, a field not read-only is drawn as a control.
    exclude = ["in_supply", "standing_order"]
    readonly_fields = [
        "campaign",
        "name",
        "side",
        "kind",
        "quality",
        "area",
        "turns_out_of_supply",
        "banzai_words",
        "standing_words",
        "supply_words",
    ]
    inlines = [StandsInline]
    actions = ["standing_order_hold", "standing_order_aggressive", "standing_order_sensible"]
    change_form_template = "admin/campaign/adjustable_change_form.html"

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """Banzai! is the Japanese side's alone: not shown on an Australian company."""
        fields = [f for f in super().get_fields(request, obj) if f != "banzai"]  # in words
        if obj is not None and obj.side != "japanese":
            fields.remove("banzai_words")
        return fields

    @admin.display(description="kind", ordering="kind")
    def kind_words(self, obj: Company) -> str:
        """A fighting company with its quality, "fighting (veteran)"; a supply company,
        which has none, "supply". One column where there were two (the second mostly
        "-"): the list fits beside the admin's menu and filters at 1280 px."""
        return f"{obj.kind} ({obj.quality})" if obj.quality else str(obj.kind)

    @admin.display(description="in supply", ordering="in_supply")
    def supply_words(self, obj: Company) -> str:
        """The last supply roll in words: the admin's bare icon showed "?" for a company
        that has rolled none (a supply company never does; the others before turn 1)."""
        if obj.kind == Company.Kind.SUPPLY:
            return "not rolled: a supply company"
        if obj.in_supply is None:
            return "no roll yet"
        if obj.in_supply:
            return "yes"
        turns = obj.turns_out_of_supply
        if turns > 1:
            return f"no: {turns} turns running"
        return "no: this turn" if turns else "no"

    @admin.display(description="Banzai!")
    def banzai_words(self, obj: Company) -> str:
        if obj.banzai:
            return "yes: it won a battle, and counts as in supply next turn whatever its roll"
        return "no (a company that won a battle counts as in supply next turn whatever its roll)"

    @admin.display(description="standing order", ordering="standing_order")
    def standing_words(self, obj: Company) -> str:
        return standing_order_words(obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Company]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                stands_held=Sum("stand_counts__held"),
                stands_full=Sum("stand_counts__establishment"),
                side_played=side_played(),
            )
        )

    @admin.display(description="stands", ordering="stands_held")
    def stands(self, obj: Company) -> str:
        held, full = obj.stands_held, obj.stands_full  # type: ignore[attr-defined]
        return f"{held or 0}/{full or 0}"

    def _standing(self, request: HttpRequest, queryset: QuerySet[Company], order: str) -> None:
        changed = []
        for company in queryset:
            try:
                set_standing_order(company=company, standing_order=order)
            except OrderError as refused:
                self.message_user(request, f"{company.name}: {refused}", messages.ERROR)
            else:
                changed.append(company.name)
                self.log_change(request, company, f"standing order: {order}")
        if len(changed) == 1:
            self.message_user(request, f"{changed[0]}: standing order now {order}.")
        elif changed:
            self.message_user(request, f"{len(changed)} companies: standing order now {order}.")

    @admin.action(description="Standing order: hold")
    def standing_order_hold(self, request: HttpRequest, queryset: QuerySet[Company]) -> None:
        self._standing(request, queryset, "hold")

    @admin.action(description="Standing order: aggressive")
    def standing_order_aggressive(self, request: HttpRequest, queryset: QuerySet[Company]) -> None:
        self._standing(request, queryset, "aggressive")

    @admin.action(description="Standing order: sensible (the AI, for a side with no player)")
    def standing_order_sensible(self, request: HttpRequest, queryset: QuerySet[Company]) -> None:
        self._standing(request, queryset, "sensible")

    adjust_title = "Stands of {obj.name}"
    adjust_done = "{obj.name}: stands adjusted."

    def adjust_form(self, data: Any, obj: Company, seen: str) -> StandsAdjustForm:
        return StandsAdjustForm(data, company=obj, initial={"seen": seen})

    def apply_adjustment(self, obj: Company, data: dict[str, Any], user: Any) -> GmAdjustment:
        return adjust_stands(
            company=obj,
            unit_type=data["unit_type"],
            held=data["held"],
            reason=data["reason"],
            user=user,
            seen=data["seen"],
        )


@admin.register(Ship)
class ShipAdmin(KeptByTheRules, AdjustableAdmin, SimpleHistoryAdmin):
    list_display = ["name", "campaign", "side", "port", "present"]
    list_filter = ["campaign", "side", "present"]
    list_select_related = ["campaign", "port"]
    search_fields = ["name"]
    readonly_fields = ["campaign", "name", "side", "port", "present"]
    change_form_template = "admin/campaign/adjustable_change_form.html"

    adjust_title = "{obj.name}"

    def adjust_form(self, data: Any, obj: Ship, seen: str) -> ShipAdjustForm:
        return ShipAdjustForm(data, initial={"present": obj.present, "seen": seen})

    def apply_adjustment(self, obj: Ship, data: dict[str, Any], user: Any) -> GmAdjustment:
        return set_ship_present(
            ship=obj, present=data["present"], reason=data["reason"], user=user, seen=data["seen"]
        )


@admin.register(AirGroup)
class AirGroupAdmin(KeptByTheRules, SimpleHistoryAdmin):
    list_display = ["__str__", "campaign", "side", "base", "buffalos", "bombers"]
    list_filter = ["campaign", "side"]
    list_select_related = ["campaign", "base"]
    readonly_fields = ["campaign", "side", "base", "buffalos", "bombers"]


# --- turns, orders and the GM's log -------------------------------------------------------


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    """Past turns are the record: read-only."""

    list_display = ["__str__", "campaign", "number", "status", "battles", "finished_when"]
    list_filter = ["status", "campaign"]
    list_select_related = ["campaign"]
    ordering = ["-id"]  # the latest turn first, as the Battles and GM changes' lists
    finished_when = on_campaign_clock("finished_at")
    fields = readonly_fields = (
        "campaign", "number", "status", "turn_seed", "turn_page", "log_text", "failure_reason",
    )  # fmt: skip

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """A failure reason only on a turn that failed: "-" on every other said nothing."""
        fields = list(super().get_fields(request, obj))
        if obj is None or obj.status != Turn.Status.FAILED:
            fields.remove("failure_reason")
        return fields

    @admin.display(description="turn seed")
    def turn_seed(self, obj: Turn) -> str:
        """The seed with a word on why the players never see this number: theirs (the
        public tables', each side's) are drawn from it, each with its own salt."""
        return (
            f"{obj.seed} (the turn's own seed: the seeds the players are shown, for the "
            "public tables and each side's rolls, are drawn from it; it is shown to them "
            "only once the campaign has ended)"
        )

    @admin.display(description="as the players read it")
    def turn_page(self, obj: Turn) -> str:
        """The players' page of the turn, by phase and with its battles (the GM's view of
        it shows every side); the log below is every record as one list."""
        return format_html(
            '<a href="{}">The turn\'s page: its rolls by phase, and its battles</a> '
            "(you see every side; each player sees what the fog of war lets them see)",
            reverse("turn", args=[obj.campaign_id, obj.number]),
        )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Turn]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                battle_count=Count("battles"),
                battles_in=Count("battles", filter=~Q(battles__status="pending")),
            )
        )

    @admin.display(description="battles with a result", ordering="battle_count")
    def battles(self, obj: Turn) -> str:
        if not obj.battle_count:  # type: ignore[attr-defined]
            return "no battles"  # not "0 of 0"
        return f"{obj.battles_in} of {obj.battle_count}"  # type: ignore[attr-defined]

    @admin.display(description="log")
    def log_text(self, obj: Turn) -> str:
        """Every record, in the words of the players' turn page (the GM reads them all),
        under a key of whose company is whose (the lines name companies, not sides)."""
        ends = list(
            obj.battles.values_list(
                "key", "result__reason", "result__withdrawal", "result__fit_to_fight", "ruleset"
            )
        )
        reading = turnlog.Reading(
            dict(obj.campaign.sides.values_list("key", "name")),
            {key: reason for key, reason, *_ in ends},
            {
                key: names.withdrawal_words(why, fit, piece=rulesets.piece(ruleset))
                for key, _, why, fit, ruleset in ends
            },
            {key: rulesets.piece(ruleset) for key, *_, ruleset in ends},
            event_tables=turnlog.played_tables(obj, obj.campaign.get_settings()),
            shares=battle_shares(
                obj.battles.values("key", "winner", "result__losses", "result__stands_present")
            ),
        ).with_records(obj.log)
        lines = [turnlog.gm_record_words(record, reading) for record in obj.log]
        return format_html(
            "<p>{}</p><pre style='white-space: pre-wrap'>{}</pre>",
            turnlog.companies_key(obj.log, reading),
            "\n".join(line for line in lines),
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Order)
class OrderAdmin(GmFieldWords, admin.ModelAdmin):
    """The GM gives or changes a side's orders for the coming turn (give_order); orders
    of past turns are the record."""

    list_display = ["company", "campaign", "turn", "kind", "target", "sniper", "given_by"]
    list_filter = ["campaign", "turn_number", "kind"]
    list_select_related = ["company", "campaign", "target", "given_by"]
    search_fields = ["company__name"]
    form = OrderForm
    actions = ["cancel_order"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # to change an order, give a new one: it replaces the old

    @admin.display(description="turn", ordering="turn_number")
    def turn(self, obj: Order) -> int:
        """The turn the order is for, headed "turn" as the order names it ("(turn 3)"): the
        field's "turn number", with its sorting arrows, pushed a phone's list past its edge
        once the campaign was shown there too."""
        return obj.turn_number

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the "Cancel the order" action, for the coming turn's orders only

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)

        class GivenOrderForm(form):  # type: ignore[misc, valid-type]
            def clean(inner) -> dict[str, Any]:  # noqa: N805 - the form, inside the admin
                data = super().clean()
                if inner.errors:
                    return data
                company = data["company"]
                inner.earlier = (
                    Order.objects.filter(company=company, turn_number=company.campaign.turn + 1)
                    .select_related("company", "target", "given_by")
                    .first()
                )
                try:
                    inner.given = give_order(
                        company=data["company"],
                        kind=data["kind"],
                        target=data.get("target"),
                        user=request.user,
                        sniper=bool(data.get("sniper")),
                    )
                except OrderError as refused:
                    raise ValidationError(sentence(refused)) from refused
                return data

        return GivenOrderForm

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Order:
        # give_order saved it, replacing the company's earlier order for the turn (the
        # same row, updated): the GM is told which order is gone, and who gave it.
        given, earlier = form.given, form.earlier
        request.order_given = given_words(given, form.target_left_out)  # type: ignore[attr-defined]
        if earlier is not None and earlier.pk == given.pk:
            by = f", given by {earlier.given_by}" if earlier.given_by else ""
            self.message_user(
                request,
                f"This order replaced the earlier order “{earlier}”{by}: a company has one "
                "order a turn.",
                messages.WARNING,
            )
        return given

    def message_user(
        self,
        request: HttpRequest,
        message: Any,
        level: int | str = messages.INFO,
        extra_tags: str = "",
        fail_silently: bool = False,
    ) -> None:
        """Django's "The order “A Company: hold (turn 3)” was added successfully." named
        no campaign, and each campaign has its "A Company": the order given says it in
        ``given_words`` (set by ``save_form``); where the page goes next is Django's."""
        given = getattr(request, "order_given", None)
        if given is not None and level == messages.SUCCESS:
            message = given
        super().message_user(request, message, level, extra_tags, fail_silently)

    def save_model(self, request: HttpRequest, obj: Order, form: Any, change: bool) -> None:
        pass

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        pass

    # Not "withdraw": that is an order's kind too (a retreat), which this is not.
    @admin.action(description="Cancel the order (the company follows its standing order)")
    def cancel_order(self, request: HttpRequest, queryset: QuerySet[Order]) -> None:
        for order in queryset.select_related("company", "campaign"):
            if order.turn_number != order.campaign.turn + 1:
                self.message_user(
                    request, f"{order}: a past turn's order stays as it was", messages.ERROR
                )
                continue
            try:
                withdraw_order(company=order.company)
            except OrderError as refused:
                self.message_user(request, f"{order}: {refused}", messages.ERROR)
            else:
                say_done(
                    self,
                    request,
                    order,
                    f"{order}: cancelled; the company follows its standing order.",
                )


def given_words(order: Order, target_left_out: str | None) -> str:
    """An order given in the admin, named with its campaign ("Korona 1: the order “3rd
    Company: advance to Oivi (turn 1)” is given."), and the area left out of a hold."""
    said = f"{order.campaign.name}: the order “{order}” is given."
    if target_left_out is None:
        return said
    area = f" ({target_left_out})" if target_left_out else ""
    return f"{said} A hold names no area: the target you chose{area} was left out."


def _is_rollback(details: Any) -> bool:
    return isinstance(details, dict) and "to_turn" in details


def _undone_lines(gone: list[dict[str, Any]]) -> list[str]:
    """Each GM change a roll-back undid, in words: what, the reason, who (by name) and
    when in the campaign."""
    ids = {user for g in gone if isinstance(user := g.get("user"), int)}
    users = {user.pk: user for user in get_user_model().objects.filter(pk__in=ids)}
    lines = []
    for change in gone:
        what = adjustment_what(str(change.get("what", "")), change.get("details")).rstrip(".")
        user_id = change.get("user")
        user = users.get(user_id) if isinstance(user_id, int) else None
        if user is not None:
            who = user.get_full_name() or user.get_username()
        elif user_id is None:
            who = "no account (a server command or job)"
        else:
            who = "a user since deleted"
        when = when_made(change.get("before_turn"), during_turn(change.get("details")))
        lines.append(f"{what}. Reason: {change.get('reason', '')}. By {who}, {when}.")
    return lines


@admin.register(GmAdjustment)
class GmAdjustmentAdmin(AdjustmentWords, admin.ModelAdmin):
    """The public log of GM changes: written by the services, read-only here."""

    list_display = ["created_when", "campaign", "turn_words", "what_words", "reason", "by_words"]
    ordering = ["-created_at", "-id"]  # the latest change first: what the GM looks for
    list_filter = ["campaign"]
    list_select_related = ["campaign", "user"]
    search_fields = ["what", "reason"]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        main = ["campaign", "turn_words", "what_words", "reason", "by_words", "created_when"]
        fieldsets: list[Any] = [(None, {"fields": main})]
        if obj is not None and _is_rollback(obj.details):
            fieldsets.append(("What the roll-back undid", {"fields": ["rollback_words"]}))
        fieldsets.append(
            (
                "Technical detail: the change as stored",
                {"classes": ["collapse"], "fields": ["details"]},
            )
        )
        return fieldsets

    @admin.display(description="in words")
    def rollback_words(self, obj: GmAdjustment) -> str:
        """A roll-back's details in words: the turn gone back to, the turns undone, the
        new seeds, and each GM change undone with its reason and who made it, by name."""
        details = obj.details if _is_rollback(obj.details) else {}
        to_turn = details.get("to_turn")
        played = details.get("turns_played_before")
        lines = [f"Back to the start of turn {to_turn}."]
        if isinstance(played, int) and isinstance(to_turn, int):
            undone = played - to_turn + 1
            if undone <= 0:
                lines.append(f"{played} turns had been played: no turn played was undone.")
            elif undone == 1:
                lines.append(f"Turn {to_turn} was undone ({played} turns had been played).")
            else:
                lines.append(
                    f"Turns {to_turn} to {played} were undone ({played} turns had been played)."
                )
        reseeded = [n for n in details.get("reseeded") or [] if isinstance(n, int)]
        if reseeded:
            lines.append(
                f"New seeds for turn{'s' if len(reseeded) > 1 else ''} "
                f"{names.join(str(n) for n in reseeded)} (their dice had been shown)."
            )
        gone = [g for g in details.get("undone") or [] if isinstance(g, dict)]
        if not gone:
            lines.append("No game master's change was undone with it.")
            return format_html_join("", "<p>{}</p>", ((line,) for line in lines))
        lines.append(f"Game master's changes undone with it ({len(gone)}):")
        return format_html(
            "{}<ul>{}</ul>",
            format_html_join("", "<p>{}</p>", ((line,) for line in lines)),
            format_html_join("", "<li>{}</li>", ((line,) for line in _undone_lines(gone))),
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class OneSideAPlayer(ModelForm):
    """Memberships → Add or change: a player already in the campaign is refused by name
    and side, not in Django's "Membership with this Campaign and User already exists."."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        user, campaign = cleaned.get("user"), cleaned.get("campaign")
        if user is not None and campaign is not None:
            found = (
                Membership.objects.filter(campaign=campaign, user=user)
                .exclude(pk=self.instance.pk)
                .first()
            )
            if found is not None:
                self.add_error(
                    "user",
                    f"{user.get_username()} is in {campaign.name} already, as "
                    f"{_as_side(found)}: a player plays one side in a campaign, so change "
                    "that membership instead.",
                )
        return cleaned


@admin.register(Membership)
class MembershipAdmin(RefusedIfTakenMeanwhile, GmFieldWords, admin.ModelAdmin):
    form = OneSideAPlayer
    list_display = ["user", "campaign", "side"]
    list_filter = ["campaign", "side"]
    search_fields = ["user__username", "campaign__name"]
    autocomplete_fields = ["user"]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        """Only a campaign that can still take players (``MembershipInline``'s words for
        an ended one)."""
        if db_field.name == "campaign":
            kwargs["form_class"] = CampaignTakingPlayers
            kwargs["refused"] = ended_players_words
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: Membership, form: Any, change: bool) -> None:
        """A side the campaign AI played given to a player is told in the public log, as
        when they join with an invitation (``player_joined``)."""
        super().save_model(request, obj, form, change)
        if not change or "side" in form.changed_data:
            player_joined(membership=obj, how=PUT_IN, user=request.user)

    def get_actions(self, request: HttpRequest) -> Any:
        """No "Delete selected": a player leaves one at a time, with a reason."""
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: Any = None
    ) -> HttpResponse:
        """Remove the player (``remove_player``): a reason and a tick, then a line in the
        public log; not Django's "Are you sure?", which asked neither and told nobody."""
        membership = self.get_object(request, object_id)
        if membership is None or not self.has_delete_permission(request, membership):
            return super().delete_view(request, object_id, extra_context)
        campaign = membership.campaign
        form = RemovePlayerForm(request.POST or None)
        if (
            request.method == "POST"
            and form.is_valid()
            and not reason_reveals(form, campaign)  # every reader reads it in the log
        ):
            try:
                line = remove_player(
                    membership_id=membership.pk,
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                )
            except AdjustmentRefused as refused:
                form.add_error(None, sentence(refused))
            else:
                # The line starts "The player bob": a page capitalises a message, and
                # a username ("bob") is not to be changed.
                return back_to_change(self, request, campaign, line.what)
        return form_page(
            self,
            request,
            title=f"Remove {membership.user.get_username()} from {campaign.name}",
            form=form,
            obj=membership,
            submit="Remove the player",
            intro=removal_words(membership),
        )


# --- the GM's home page -------------------------------------------------------------------

install_home_page(admin.site)
