"""The reader's own pages: notice settings, and the one-click unsubscribe of every email.

The unsubscribe link carries a token signed with the secret key (``services.
unsubscribe_token``), made for one user and one kind of email: it works without signing
in (from the mail program), and cannot be made for anyone else."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from campaign.services.visibility import is_game_master
from config.pages import account_menu, menu_query
from notifications import accounts, feeds, invitations, services
from notifications import messages as boards
from notifications.forms import PreferenceChecks
from notifications.models import Kind, Preference

_ZONE_PAGES = (
    "The campaign's pages keep the campaign's clock, so every player reads the same "
    "deadline (your browser adds your own time beside it); the calendar feed gives the "
    "exact moment, and your calendar shows it on its own clock."
)


class PreferenceForm(PreferenceChecks):
    class Meta:
        model = Preference
        fields = [
            "email",
            "turn_played",
            "deadline",
            "battle_waiting",
            "campaign_end",
            "gm_news",
            "message",
            "reminder_hours",
            "time_zone",
        ]
        labels = {
            "email": "Send me email",
            "turn_played": "When a turn is played (what my side saw)",
            "deadline": "Before a deadline, if my side is not ready",
            "battle_waiting": "When a battle waits for its tabletop result (game master)",
            "campaign_end": "When a campaign ends",
            "gm_news": "When the game master changes something",
            "message": "When someone writes on a board I read",
            "reminder_hours": "Hours before the deadline",
            "time_zone": "My time zone",
        }
        # What the zone really governs (services.turn_words, deadline_words and
        # table_battle_words, and for the GM the second clock of battles_waiting_words,
        # nothing else): said beside
        # it, so no one expects the pages to follow it. Empty: each campaign's clock.
        help_texts = {
            "email": "Off: no email at all, whatever is ticked below.",
            "reminder_hours": (
                "From 1 to 168 (a week). On a turn shorter than twice that, halfway through "
                "the turn instead (a turn every 6 hours: 3 hours before), since the email "
                "of the turn played gives the deadline. The calendar's alarm comes then too."
            ),
            "time_zone": (
                "Empty: each campaign's own clock, the one its pages give. A name such as "
                "Australia/Sydney sets the clock of the deadlines in three emails instead: "
                "when a turn is played, before a deadline, and when one of your battles "
                "waits for the table. " + _ZONE_PAGES
            ),
        }

    def __init__(self, *args: Any, game_master: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not game_master:
            # A player is told when a battle of their side waits for the table
            # (services.table_battle_words); the GM, when a result waits for them to
            # enter it. Until the walk of 7 December 2026 only the GM was told, and a
            # player was not offered the setting.
            self.fields[
                "battle_waiting"
            ].label = "When a battle of my side waits to be fought at the table"
        else:
            # The battle's due time is first on the campaign's clock, as the admin gives
            # it (services.battles_waiting_words): the zone only adds the GM's own.
            self.fields["time_zone"].help_text = (
                "Empty: each campaign's own clock, the one its pages give. A name such as "
                "Australia/Sydney sets the clock of the deadline in two emails instead: "
                "when a turn is played, and before a deadline. When a battle waits for its "
                "tabletop result, the email gives its due time on the campaign's clock, as "
                "the admin does, and on yours beside it when they differ. " + _ZONE_PAGES
            )


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    preference = services.preference_of(request.user)
    form = PreferenceForm(
        request.POST or None, instance=preference, game_master=is_game_master(request.user)
    )
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, "Your notice settings are saved.")
            return HttpResponseRedirect(reverse("notice-preferences") + menu_query(request))
        status = 400
    else:
        status = 200
    return render(
        request,
        "notifications/preferences.html",
        {"form": form, "feeds": feeds.feed_urls(request.user), **account_menu(request)},
        status=status,
    )


def _read(token: str) -> tuple[Any, str] | None:
    try:
        user_id, kind = services.read_unsubscribe_token(token)
    except signing.BadSignature:
        return None
    user = get_user_model().objects.filter(pk=user_id).first()
    return (user, kind) if user is not None else None


@csrf_exempt  # the signed token is the proof; RFC 8058's one-click POST carries no cookie
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One click (GET from the link, or the mail program's POST): that kind of email is
    off at once; the page offers to turn it back on."""
    found = _read(token)
    if found is None:
        return render(request, "notifications/unsubscribe.html", {"refused": True}, status=404)
    user, kind = found
    if request.method == "POST" and request.POST.get("undo") == "1":
        preference, _ = Preference.objects.get_or_create(user=user)
        if kind == "all":
            preference.email = True
        else:
            setattr(preference, kind, True)
            preference.email = True
        preference.save()
        undone = True
    else:
        services.unsubscribe(user_id=user.pk, kind=kind)
        undone = False
    what = "every email from Korona" if kind == "all" else f"email when {Kind(kind).label}"
    return render(
        request,
        "notifications/unsubscribe.html",
        {"what": what, "undone": undone, "token": token},
    )


urlpatterns = [
    *accounts.urlpatterns,
    *invitations.urlpatterns,
    *boards.urlpatterns,
    *feeds.urlpatterns,
    path("accounts/notices/", preferences, name="notice-preferences"),
    path("notices/unsubscribe/<str:token>/", unsubscribe, name="unsubscribe"),
]
