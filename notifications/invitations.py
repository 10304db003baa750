"""The GM invites players with a link that gives a side: ``/invite/<token>/``.

The token is random (``secrets``, 40 characters of 31 with no look-alikes, read in any
case: ``models.invitation_code``), so a link cannot be guessed; it works once,
until it expires. Opening it, a signed-in user joins the campaign as that side; anyone
else signs in first, or makes an account there and then. The claim is one conditional
UPDATE, so two people opening the same link at once cannot both join on it.

A new account's address may not be one another account has (``notifications.addresses``),
so refusing it tells whoever holds the link that some account has that address: whose,
which campaign or side, never. Hiding even that would need every newcomer to confirm
their address by email before joining, since a free address makes the account and joins
at once; for a small group, whose game master hands the links to its players, the link
is the gate instead. The refusal's words assert no account, and point to signing in and
to the reset mail, which names the account; and one invitation is refused at most
``ADDRESSES_REFUSED`` different addresses an hour (``notifications.addresses`` counts
them), after which its sign-up refuses every address for the rest of the hour, so a
link's holder may try a few, not a list.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from campaign.models import SPECTATOR, Campaign, Membership, Side
from campaign.services.deadlines import side_play
from campaign.services.members import player_joined
from campaign.services.turns import players_by_side
from notifications import addresses, services
from notifications.models import Invitation, invitation_code
from rules import names
from rules.refusals import Problem, Refusal

VALID_FOR = timedelta(days=14)
TEMPLATE = "notifications/invitation.html"
TOO_MANY_REFUSED = (
    "This invitation was given too many email addresses that cannot be used for a new "
    "account, so for an hour it makes none. If you have a Korona account, sign in with "
    "it (above) and join with it; if not, try again later or ask the game master."
)


class InvitationRefused(Refusal):
    """The invitation may not be used (as it stands, or by this user); says why."""


def ended_words(campaign: Any) -> str:
    """Why an ended campaign takes no invitation."""
    return (
        f"{campaign.name} has ended: nobody can join it, so an invitation to it could not be used"
    )


def check_invitation(*, campaign: Any, side: str) -> None:
    """Refuse (``InvitationRefused``, its problem's path the field at fault) an invitation
    no player could use: to a side the campaign lacks, or to a campaign that has ended
    (its link opens on "its campaign has ended")."""
    if campaign.status == Campaign.Status.FINISHED:
        raise InvitationRefused([Problem("campaign", ended_words(campaign))])
    if side != SPECTATOR and not Side.objects.filter(campaign=campaign, key=side).exists():
        raise InvitationRefused([Problem("side", f"{side!r} is not a side of {campaign.name}")])


def invite(*, campaign: Any, side: str, user: Any = None, note: str = "") -> Invitation:
    check_invitation(campaign=campaign, side=side)
    return Invitation.objects.create(
        campaign=campaign,
        side=side,
        created_by=user,
        note=note,
        expires_at=timezone.now() + VALID_FOR,
    )


def invite_every_side(
    *, campaign: Any, user: Any = None, note: str = ""
) -> list[tuple[str, Invitation]]:
    """One invitation per side of a new campaign, with the side's name, in the sides'
    order (by key): the first run's links and the admin's after Create."""
    return [
        (side.name, invite(campaign=campaign, side=side.key, user=user, note=note))
        for side in Side.objects.filter(campaign=campaign).order_by("key")
    ]


def waiting_invitations(campaigns: Any) -> QuerySet[Invitation]:
    """The invitations of ``campaigns`` (ids, or a query of campaigns) a player may still
    use: not used, not expired, their campaign not ended (``open_invitation``). The game
    master's admin lists them; no player page."""
    return Invitation.objects.filter(
        campaign__in=campaigns, used_at__isnull=True, expires_at__gt=timezone.now()
    ).exclude(campaign__status=Campaign.Status.FINISHED)


def invitation_url(invitation: Invitation) -> str:
    return services.absolute(reverse("invitation", args=[invitation.token]))


def open_invitation(token: str) -> Invitation | None:
    """The invitation, if it may still be used."""
    found = (
        Invitation.objects.filter(
            token=invitation_code(token), used_at__isnull=True, expires_at__gt=timezone.now()
        )
        .select_related("campaign")
        .first()
    )
    if found is None or found.campaign.status == Campaign.Status.FINISHED:
        return None
    return found


def joined_with(token: str, user: Any) -> Invitation | None:
    """The invitation ``user`` has used already (back on its page after joining), if so."""
    if not user.is_authenticated:
        return None
    return (
        Invitation.objects.filter(token=invitation_code(token), used_by=user)
        .select_related("campaign")
        .first()
    )


def accept(*, invitation: Invitation, user: Any) -> Membership:
    """The user joins the campaign as the invitation's side; the invitation is spent."""
    if user.is_staff:
        raise InvitationRefused("The game master sees every campaign whole and plays no side")
    with transaction.atomic():
        played = (
            Membership.objects.filter(campaign=invitation.campaign, user=user)
            .values_list("side", flat=True)
            .first()
        )
        if played is not None:
            raise InvitationRefused(_already_in(invitation.campaign, played))
        now = timezone.now()
        if not Invitation.objects.filter(
            pk=invitation.pk, used_at__isnull=True, expires_at__gt=now
        ).update(used_at=now, used_by=user):
            raise InvitationRefused("This invitation has just been used")
        try:
            with transaction.atomic():
                membership = Membership.objects.create(
                    campaign=invitation.campaign, user=user, side=invitation.side
                )
        except IntegrityError:
            raise InvitationRefused(f"You joined {invitation.campaign.name} already") from None
        player_joined(membership=membership)
        return membership


def _already_in(campaign: Campaign, played: str) -> str:
    """Why a member of ``campaign`` cannot join it again, in the reader's words: the side
    they play by its name in the campaign ("the Australians"), never its key; a
    spectator, who might well be made a player, whom to ask."""
    if played == SPECTATOR:
        return (
            f"You follow {campaign.name} as a spectator: one account is in a campaign once, "
            "so ask the game master to give you this side instead"
        )
    name = campaign.sides.filter(key=played).values_list("name", flat=True).first()
    # A membership's side is one of the campaign's (``Membership.clean``).
    return f"You play the {name or 'other side'} in {campaign.name} already"


def _asker(invitation: Invitation) -> str:
    """Whose refused addresses ``notifications.addresses`` counts: the invitation's."""
    return f"invitation:{invitation.pk}"


class AccountForm(UserCreationForm):
    email = forms.EmailField(
        required=True, help_text="For the turn notices and a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args: Any, invitation: Invitation | None = None, **kwargs: Any) -> None:
        self.invitation = invitation
        super().__init__(*args, **kwargs)
        # In the pages' words; the password's help text stays the validators' own rules
        # (settings.AUTH_PASSWORD_VALIDATORS), shown before one is broken.
        self.fields[
            "username"
        ].help_text = "Up to 150 characters: letters, digits and @ . + - _ only."
        self.fields["password2"].label = "The same again"
        self.fields["password2"].help_text = ""

    def clean_email(self) -> str:
        email = str(self.cleaned_data["email"]).strip()
        if self.invitation is not None and addresses.refused_too_often(_asker(self.invitation)):
            raise forms.ValidationError(TOO_MANY_REFUSED)
        if addresses.email_taken(email):
            if self.invitation is not None:
                addresses.note_refused(_asker(self.invitation), email)
            raise forms.ValidationError(addresses.TAKEN_ON_SIGN_UP)
        return email

    def full_clean(self) -> None:
        """Validate, then put the focus on the first field refused: Django's form gives
        the username ``autofocus`` whatever was wrong, and a refused email left the
        reader on the username (no script: the page's CSP allows none inline)."""
        super().full_clean()
        self._focus_first_refused()

    def taken_meanwhile(self) -> bool:
        """The save broke a unique index: did another sign-up take the username or the
        address between this form's checks and its save? If so, the field is refused as
        the checks would have refused it a moment later."""
        if addresses.email_taken(self.cleaned_data["email"]):
            self.add_error("email", addresses.TAKEN_ON_SIGN_UP)
        elif self._meta.model.objects.filter(
            username__iexact=self.cleaned_data["username"]
        ).exists():
            self.add_error(
                "username", self.instance.unique_error_message(type(self.instance), ["username"])
            )
        else:
            return False
        self._focus_first_refused()
        return True

    def _focus_first_refused(self) -> None:
        refused = [name for name in self.fields if name in self.errors]
        if refused:
            for field in self.fields.values():
                field.widget.attrs.pop("autofocus", None)
            self.fields[refused[0]].widget.attrs["autofocus"] = True


def side_name(invitation: Invitation) -> str:
    side = invitation.campaign.sides.filter(key=invitation.side).first()
    return side.name if side else "spectators (no side)"


def solo_words(invitation: Invitation) -> str:
    """What joining a campaign played solo means, said on its invitation while it is so:
    no player plays any other side (``deadlines.side_play``, as if the reader had joined),
    so the campaign AI plays them, always ready, and the reader's "ready" plays the turn
    at once (``schedule.mark_side_ready``); not while the campaign is paused. "" for a
    spectator's invitation, or once another side has a player. Which sides a player plays
    is public (the orders page's ready box says it), so any holder of the link may read it."""
    campaign = invitation.campaign
    if invitation.side == SPECTATOR:
        return ""
    players = players_by_side(campaign)
    play = side_play(
        invitation.side,
        played=True,
        others_play=any(side != invitation.side for side in players),
        teammates=players[invitation.side] > 0,
    )
    if not play.solo:
        return ""
    others = campaign.sides.exclude(key=invitation.side).order_by("key")
    whose = 'your "ready" or a teammate\'s' if play.teammates else 'your "ready"'
    ai = (
        f"Nobody plays {names.join(f'the {side.name}' for side in others)} yet: the campaign "
        "AI plays them, always ready."
    )
    if campaign.status == Campaign.Status.PAUSED:
        return (
            f"{ai} The campaign is paused: once the game master resumes it, {whose} plays "
            "each turn at once."
        )
    return f"{ai} Once you join, {whose} plays each turn at once."


@require_http_methods(["GET", "POST"])
def invitation_page(request: HttpRequest, token: str) -> HttpResponse:
    invitation = open_invitation(token)
    if invitation is None:
        used = joined_with(token, request.user)
        if used is not None:
            return render(request, TEMPLATE, {"joined": used, "side_name": side_name(used)})
        return render(request, TEMPLATE, {"refused": True}, status=404)
    context: dict[str, Any] = {
        "invitation": invitation,
        "side_name": side_name(invitation),
        "solo": solo_words(invitation),
        "form": AccountForm(),
    }
    if request.method == "POST":
        user = request.user if request.user.is_authenticated else None
        if user is None:
            form = AccountForm(request.POST, invitation=invitation)
            context["form"] = form
            if not form.is_valid():
                return render(request, TEMPLATE, context, status=400)
            try:
                with transaction.atomic():
                    user = form.save()
                    try:
                        accept(invitation=invitation, user=user)
                    except InvitationRefused as refused:
                        transaction.set_rollback(True)
                        context["error"] = str(refused)
                        return render(request, TEMPLATE, context, status=409)
            except IntegrityError:
                # Another sign-up with the same username or address, at the same moment.
                if not form.taken_meanwhile():
                    raise
                return render(request, TEMPLATE, context, status=400)
            login(request, user, backend="config.auth.CachedModelBackend")
        else:
            try:
                accept(invitation=invitation, user=user)
            except InvitationRefused as refused:
                context["error"] = str(refused)
                return render(request, TEMPLATE, context, status=409)
        name = invitation.campaign.name
        messages.success(
            request,
            f"Welcome: you follow {name} as a spectator."
            if invitation.side == SPECTATOR
            else f"Welcome: you play the {context['side_name']} in {name}.",
        )
        return HttpResponseRedirect(reverse("campaign-map", args=[invitation.campaign.pk]))
    return render(request, TEMPLATE, context)


urlpatterns = [
    path("invite/<str:token>/", invitation_page, name="invitation"),
]
