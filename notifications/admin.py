from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from campaign.forms import CampaignTakingPlayers
from campaign.models import SPECTATOR, Campaign, Turn
from campaign.services.deadlines import moment_words
from config.adminpages import (
    COPY_SCRIPT,
    COPY_STYLE,
    GmFieldWords,
    RefusedIfTakenMeanwhile,
    campaign_clock,
    copy_field,
    on_campaign_clock,
)
from notifications.forms import PreferenceChecks
from notifications.invitations import InvitationRefused, check_invitation, ended_words
from notifications.models import Invitation, Kind, Message, Notice, Preference, Webhook
from notifications.useradmin import OwnAddressUserAdmin  # noqa: F401  (the user's page)


@admin.register(Webhook)
class WebhookAdmin(GmFieldWords, admin.ModelAdmin):
    list_display = ["campaign", "side", "url", "active"]
    list_filter = ["active", "campaign"]


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    """Every notice sent or tried: read-only, the record that keeps them once each."""

    list_display = ["created_when", "kind", "campaign", "turn", "about", "to", "status"]
    list_filter = ["status", "kind", "campaign"]
    list_select_related = ["campaign", "user", "webhook"]
    search_fields = ["subject", "user__username"]
    fields = [
        "created_when", "kind", "campaign", "turn", "about", "user", "webhook", "status",
        "attempts", "sent_when", "subject", "body", "error",
    ]  # fmt: skip
    readonly_fields = ["created_when", "sent_when", "about"]
    created_when = on_campaign_clock("created_at")
    sent_when = on_campaign_clock("sent_at")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Notice]:
        # What ``about`` names, in the page's one query: whether the turn row told of
        # is still there (a roll-back deletes it), and a message's board.
        return (
            super()
            .get_queryset(request)
            .annotate(
                turn_row_kept=Exists(Turn.objects.filter(pk=OuterRef("ref"))),
                message_channel=Subquery(
                    Message.objects.filter(pk=OuterRef("ref")).values("channel")[:1]
                ),
            )
        )

    @admin.display(description="to")
    def to(self, obj: Notice) -> str:
        """Whom it went to: a user, or a campaign's webhook (one column, not a user's and
        a webhook's with "-" in one of them: the list has no width to spare for it)."""
        return obj.user.get_username() if obj.user is not None else str(obj.webhook or "-")

    @admin.display(description="about")
    def about(self, obj: Notice) -> str:
        """What the notice was about, in words, for each kind: the notice's key beside its
        turn (``ref``) is a turn row's id, a deadline's minute, an adjustment's or a
        message's id, and a bare number said none of that ("29470680")."""
        kind = obj.kind
        if kind == Kind.DEADLINE:
            deadline = datetime.fromtimestamp(obj.ref * 60, tz=UTC)
            return f"deadline {moment_words(deadline, campaign_clock(obj) or 'UTC')}"
        if kind in (Kind.GM_NEWS, Kind.REMOVED):
            address = reverse("admin:campaign_gmadjustment_change", args=[obj.ref])
            return format_html('<a href="{}">game master\'s adjustment {}</a>', address, obj.ref)
        if kind == Kind.MESSAGE:
            channel = getattr(obj, "message_channel", None)
            if channel is None:
                return f"message {obj.ref} (deleted since)"
            return f"message {obj.ref}, on the {Message.Channel(channel).label}"
        # A turn played, the end, battles waiting: the turn row that was played.
        if getattr(obj, "turn_row_kept", False):
            address = reverse("admin:campaign_turn_change", args=[obj.ref])
            return format_html('<a href="{}">turn {}</a>', address, obj.turn)
        return f"turn {obj.turn} (rolled back)"

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False


class PreferenceAdminChecks(PreferenceChecks):
    """The player's own page's checks (the hours, the time zone), and a player's one row
    in words ("Preference with this User already exists." said it in Django's)."""

    def clean_user(self) -> Any:
        user = self.cleaned_data["user"]
        others = Preference.objects.filter(user=user).exclude(pk=self.instance.pk)
        if user is not None and others.exists():
            raise forms.ValidationError(
                f"{user.get_username()} has notice settings already (one row each): "
                "change that row instead."
            )
        return user


@admin.register(Preference)
class PreferenceAdmin(RefusedIfTakenMeanwhile, GmFieldWords, admin.ModelAdmin):
    """A player's notice settings, one row each: two GMs adding them for one player at
    the same moment get the second's form again, refused, not a 500."""

    list_display = ["user", "email", "reminder_hours", "clock"]
    form = PreferenceAdminChecks  # the player's own page's checks, and one row each

    @admin.display(description="time zone", ordering="time_zone")
    def clock(self, obj: Preference) -> str:
        """An empty zone is no zone missing: it means each campaign's own clock."""
        return obj.time_zone or "each campaign's own"


@admin.register(Invitation)
class InvitationAdmin(GmFieldWords, admin.ModelAdmin):
    """The GM invites a player: choose the campaign and the side, save, send the link."""

    # One time in the list: when a link stops working, or when it was used (a used
    # link's expiry no longer matters). Four columns of times and names beside the link
    # did not fit at 1280 px; the row's page gives each.
    list_display = ["campaign", "side", "note", "link", "expiry", "used_by"]
    list_filter = ["campaign", "side"]
    list_select_related = ["campaign", "used_by"]
    fields = ["campaign", "side", "note", "link", "expires_when", "used_by", "used_when"]
    readonly_fields = ["link", "expires_when", "used_by", "used_when"]
    expires_when = on_campaign_clock("expires_at")
    used_when = on_campaign_clock("used_at")

    class Media:
        js = [COPY_SCRIPT]
        css = {"all": [COPY_STYLE]}

    @admin.display(description="link to send")
    def link(self, obj: Invitation) -> str:
        """The link as text to copy: a GM who followed it landed on "Join as the ...",
        a click from using up the player's invitation."""
        if not obj.pk:
            return "saved, it gets its link"
        # A spent link is not offered to copy: on a phone, where the list hides its
        # times, a used one looked as live as the rest.
        if obj.used_at is not None:
            who = obj.used_by.get_username() if obj.used_by else "a player"
            return f"used by {who}: nothing to send"
        if obj.expires_at <= timezone.now():
            return "expired: add a new invitation to send"
        if obj.campaign.status == Campaign.Status.FINISHED:
            return "its campaign has ended: nothing to send"
        from notifications.invitations import invitation_url

        return copy_field(
            invitation_url(obj), f"Invitation link: {obj.campaign.name}, {obj.get_side_display()}"
        )

    @admin.display(description="expires, or used", ordering="expires_at")
    def expiry(self, obj: Invitation) -> str:
        """On the campaign's clock: "expires Sun 20 Dec 2026, 22:15 AEDT", "expired
        ...", or "used ..."."""
        if obj.used_at is not None:
            return f"used {self.used_when(obj)}"
        gone = obj.expires_at <= timezone.now()
        return f"{'expired' if gone else 'expires'} {self.expires_when(obj)}"

    def formfield_for_foreignkey(self, db_field, request, **kwargs):  # noqa: ANN001, ANN201
        if db_field.name == "campaign":
            kwargs["form_class"] = CampaignTakingPlayers
            kwargs["refused"] = ended_words
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change) -> None:  # noqa: ANN001
        if not change:
            from notifications.invitations import VALID_FOR

            obj.created_by = request.user
            obj.expires_at = timezone.now() + VALID_FOR
        super().save_model(request, obj, form, change)

    def get_form(self, request, obj=None, change=False, **kwargs):  # noqa: ANN001, ANN201
        form = super().get_form(request, obj, change=change, **kwargs)
        original = form.clean

        def clean(self):  # noqa: ANN001, ANN202
            data = original(self)
            campaign, side = data.get("campaign"), data.get("side")
            if campaign and side and not change:
                try:
                    check_invitation(campaign=campaign, side=side)
                except InvitationRefused as refused:
                    for problem in refused.problems:
                        self.add_error(problem.path or None, problem.message)
            elif (
                campaign
                and side not in (None, "", SPECTATOR)
                and not campaign.sides.filter(key=side).exists()
            ):
                self.add_error("side", f"{side!r} is not a side of {campaign.name}")
            return data

        form.clean = clean
        return form
