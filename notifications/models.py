"""What a reader wants to be told, where a campaign's webhooks go, and every notice sent.

A ``Notice`` row is written before anything leaves Korona, under a unique key: (the
recipient -- a user or a webhook --, the kind, the campaign, the turn, a reference such
as a GM adjustment's id). A task delivered twice, two schedulers, a turn played again
after a roll-back: the second insert fails on the key and nothing is sent again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.models import SIDE_CHOICES, SPECTATOR, Campaign


class Kind(models.TextChoices):
    TURN_PLAYED = "turn_played", "a turn was played"
    DEADLINE = "deadline", "a deadline is near"
    BATTLE_WAITING = "battle_waiting", "a battle waits for its tabletop result"
    CAMPAIGN_END = "campaign_end", "the campaign ended"
    GM_NEWS = "gm_news", "the game master changed something"
    MESSAGE = "message", "someone wrote a message"
    # Not a choice a player makes: being taken out of a campaign is told to them whatever
    # they chose of the others (only "no email at all" holds), so it has no switch.
    REMOVED = "removed", "the game master removed you from a campaign"


# The kinds a reader may turn off one by one (a ``Preference`` field each).
OPTIONAL_KINDS = frozenset(Kind.values) - {Kind.REMOVED}


class Preference(models.Model):
    """One user's choices; a user without a row takes the defaults (everything on)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preference"
    )
    email = models.BooleanField(default=True, help_text="Send me email at all.")
    turn_played = models.BooleanField(default=True)
    deadline = models.BooleanField(default=True)
    battle_waiting = models.BooleanField(default=True)
    campaign_end = models.BooleanField(default=True)
    gm_news = models.BooleanField(default=True, verbose_name="game master's changes")
    message = models.BooleanField(default=True)
    reminder_hours = models.PositiveSmallIntegerField(
        default=12, help_text="How many hours before a deadline the reminder comes (1-168)."
    )
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text=(
            "The clock of the times in the player's emails, an IANA name such as "
            "Australia/Sydney; empty: each campaign's own clock, as its pages give it."
        ),
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(reminder_hours__gte=1, reminder_hours__lte=168),
                name="preference_reminder_hours_1_to_168",
            ),
        ]

    def __str__(self) -> str:
        return f"notice preferences of {self.user}"

    def wants(self, kind: str) -> bool:
        if kind == Kind.REMOVED:
            return self.email
        return self.email and bool(getattr(self, kind, False))

    def clock(self, campaign: Campaign) -> str:
        """The time zone of this reader's emails about ``campaign``: their own, if they
        chose one, else the campaign's, the clock its pages show every player."""
        return self.time_zone or campaign.timezone


class Webhook(models.Model):
    """A channel a campaign posts to (Discord-compatible JSON: ``{"content": ...}``).

    Without a side it is the group's channel, which both sides read: it carries only
    what the campaign makes public. With a side it carries that side's own notices."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhooks")
    side = models.CharField(
        max_length=16,
        choices=SIDE_CHOICES,
        blank=True,
        help_text="Empty: the group's channel, public news only.",
    )
    url = models.URLField(max_length=500, verbose_name="URL")
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["campaign_id", "side", "id"]

    def __str__(self) -> str:
        """ "Korona webhook (Australians)", "Korona webhook (public)": the side by its
        name in the campaign, as the GM reads it in the notices' list, never its key."""
        if not self.side:
            return f"{self.campaign} webhook (public)"
        side = self.campaign.sides.filter(key=self.side).values_list("name", flat=True).first()
        return f"{self.campaign} webhook ({side or self.get_side_display()})"


class Notice(models.Model):
    class Status(models.TextChoices):
        SENDING = "sending"  # claimed: being sent (never sent again from here)
        SENT = "sent"
        FAILED = "failed"  # the send raised; a retry may claim it again

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notices",
    )
    webhook = models.ForeignKey(
        Webhook, on_delete=models.CASCADE, null=True, blank=True, related_name="notices"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="notices")
    turn = models.PositiveIntegerField()
    ref = models.PositiveBigIntegerField(
        default=0, help_text="e.g. the game master's adjustment's id"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SENDING)
    subject = models.CharField(max_length=300)
    body = models.TextField()
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(user__isnull=False, webhook__isnull=True)
                | Q(user__isnull=True, webhook__isnull=False),
                name="notice_one_recipient",
            ),
            models.UniqueConstraint(
                fields=["user", "kind", "campaign", "turn", "ref"],
                condition=Q(user__isnull=False),
                name="notice_once_per_user",
            ),
            models.UniqueConstraint(
                fields=["webhook", "kind", "campaign", "turn", "ref"],
                condition=Q(webhook__isnull=False),
                name="notice_once_per_webhook",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subject} ({self.status})"


# An invitation's code: no look-alikes (no 0/O/o, 1/l/I, nor i), one case, so a code
# copied by hand from a phone or a printout reads as it was meant and may be typed in
# capitals (``invitation_code``). 31 characters, 40 of them: 198 bits, more than the 192
# of the 24 random bytes the codes had before (``secrets.token_urlsafe(24)``, 32
# characters, mixed case, which keep working as they are).
INVITATION_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
INVITATION_LENGTH = 40


def _invitation_token() -> str:
    import secrets

    return "".join(secrets.choice(INVITATION_ALPHABET) for _ in range(INVITATION_LENGTH))


def invitation_code(typed: str) -> str:
    """The stored code ``typed`` stands for: a code of today's kind read in any case
    (each is in lower case, so no two differ only in case); an older one (mixed case, 32
    characters, so never of today's length) exactly as typed, as two of those may differ
    only in case."""
    lowered = typed.lower()
    if len(lowered) == INVITATION_LENGTH and all(c in INVITATION_ALPHABET for c in lowered):
        return lowered
    return typed


class Invitation(models.Model):
    """The GM's invitation to play one side of a campaign, or to follow it as a
    spectator: a link with a random token (``/invite/<token>/``), used once, until it
    expires. Whoever opens it signs in or makes an account and joins the campaign as that
    side (or as a spectator)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    # A spectator too, as a membership may be (docs/pages.md, "Spectators").
    side = models.CharField(
        max_length=16, choices=[*SIDE_CHOICES, (SPECTATOR, "Spectator (no side)")]
    )
    token = models.CharField(max_length=64, unique=True, default=_invitation_token, editable=False)
    note = models.CharField(max_length=200, blank=True, help_text="Who it is for (yours only).")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        side = self.campaign.sides.filter(key=self.side).first()
        if side is None:
            return f"Invitation to watch {self.campaign}"
        return f"Invitation to play the {side.name} in {self.campaign}"


class Message(models.Model):
    """A message on a campaign's boards: the GM's announcements (the GM writes, everyone
    reads), the public board between the sides (everyone in the campaign), or one side's
    own channel (that side and the GM only)."""

    class Channel(models.TextChoices):
        ANNOUNCEMENT = "announcement", "game master's announcements"
        PUBLIC = "public", "public board"
        SIDE = "side", "side channel"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="messages")
    channel = models.CharField(max_length=16, choices=Channel.choices)
    side = models.CharField(max_length=16, choices=SIDE_CHOICES, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    author_side = models.CharField(max_length=16, choices=SIDE_CHOICES, blank=True)
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(channel="side", side__gt="") | (~Q(channel="side") & Q(side="")),
                name="message_side_iff_side_channel",
            ),
            models.CheckConstraint(condition=~Q(text=""), name="message_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.get_channel_display()} of {self.campaign}: {self.text[:40]}"
