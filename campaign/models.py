"""Campaign state: the map, the forces, the turns and the orders of each campaign.

These tables mirror the snapshot types of ``rules/campaign/state.py``; the campaign
rules never see a model. ``campaign.services.snapshot`` loads a snapshot from them and
saves one back. Places and companies are named inside their campaign (unique per
campaign); sides are stored by key (``australian``, ``japanese``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.db import models
from django.db.models import F, Q
from django.db.models.fields.json import KeyTransform

from campaign.history import GmHistory
from config.jsonfield import JSONField
from rules import names
from rules.battlefield import AREA_VEGETATION
from rules.campaign.scenario import settings_from_json, settings_to_json
from rules.campaign.state import (
    COMPANY_KINDS,
    ORDER_KINDS,
    SIDE_KEYS,
    STANDING_ORDERS,
    Settings,
)
from rules.units import STAND_TYPES, Quality

# Each side by its people, as the campaign's own side names and the pages say it ("the
# Australians"): the admin's lists, filters and boxes said the adjective ("Australian").
SIDE_CHOICES = [(key, names.people(names.side_adjective(key))) for key in SIDE_KEYS]
# A member who plays no side: sees what the campaign makes public (rulings 6: what both
# sides know), everything once it has ended. The fog of war's viewer of "no side's".
SPECTATOR = "spectator"
MAP_SIZE = 1000


class Campaign(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        PAUSED = "paused"
        FINISHED = "finished"

    class ScheduleKind(models.TextChoices):
        NONE = "none"  # turns are played when the GM says so
        EVERY_HOURS = "every_hours"
        WEEKLY = "weekly"  # a weekday and a time of day in ``timezone``

    name = models.CharField(max_length=200, unique=True)
    seed = models.BigIntegerField(help_text="Every turn's dice derive from it.")
    turn = models.PositiveIntegerField(default=0, help_text="Turns played so far.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    winner = models.CharField(max_length=16, choices=SIDE_CHOICES, null=True, blank=True)
    end_reason = models.CharField(max_length=200, blank=True)
    # Why it ended, as fields the pages word (rules.campaign.phases.end.EndCause, one dict
    # each: kind, side, area, turns); [] while it goes on, and for a campaign that ended
    # before they were kept (its pages read ``end_reason`` as it was written).
    end_causes = JSONField(default=list, blank=True)
    # The rules.campaign.state.Settings fields, as scenario files write them.
    settings = JSONField(default=dict, blank=True)
    # The schedule (campaign.services.schedule): when the next turn is played by itself.
    schedule_kind = models.CharField(
        max_length=16, choices=ScheduleKind.choices, default=ScheduleKind.NONE
    )
    every_hours = models.PositiveSmallIntegerField(null=True, blank=True)
    weekday = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="0 is Monday, 6 is Sunday."
    )
    time_of_day = models.TimeField(null=True, blank=True)
    timezone = models.CharField(max_length=64, default="UTC", help_text="An IANA time zone.")
    next_deadline = models.DateTimeField(null=True, blank=True)
    # A turn the scheduler claimed and a worker has not played yet: its number (a Turn row
    # of that number waits, queued), and when it was claimed (a claim left too long is
    # handed out again; playing a turn twice is refused by advance_turn's expected_turn).
    due_turn = models.PositiveIntegerField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = GmHistory()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="finished") | Q(winner__isnull=True, end_reason=""),
                name="campaign_only_finished_has_outcome",
            ),
            models.CheckConstraint(
                condition=Q(schedule_kind="none")
                | Q(schedule_kind="every_hours", every_hours__gte=1)
                | Q(schedule_kind="weekly", weekday__lte=6, time_of_day__isnull=False),
                name="campaign_schedule_complete",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "next_deadline"], name="campaign_due"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_settings(self) -> Settings:
        """The campaign's settings; absent ones take the rulings' defaults."""
        return settings_from_json(self.settings)

    def set_settings(self, value: Settings) -> None:
        """Set (not save) the settings; the caller saves the row."""
        self.settings = settings_to_json(value)


class Side(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sides")
    key = models.CharField(max_length=16, choices=SIDE_CHOICES)
    name = models.CharField(max_length=100)
    base = models.ForeignKey(
        "Area", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["campaign_id", "key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="side_unique_key"),
            models.UniqueConstraint(fields=["campaign", "name"], name="side_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Area(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="areas")
    name = models.CharField(max_length=100)
    zone = models.PositiveSmallIntegerField()
    track = models.CharField(max_length=100)
    vegetation = models.CharField(max_length=16, choices=[(v, v) for v in AREA_VEGETATION])
    plains = models.BooleanField(default=False)
    features = JSONField(default=list, blank=True)  # port, airfield, airstrip, hq
    x = models.FloatField(default=0.0)  # map position, 0-1000 across
    y = models.FloatField(default=0.0)  # and down
    controller = models.CharField(max_length=16, choices=SIDE_CHOICES, null=True, blank=True)
    history = GmHistory()

    class Meta:
        ordering = ["campaign_id", "zone", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="area_unique_name"),
            models.CheckConstraint(
                condition=Q(x__gte=0, x__lte=MAP_SIZE, y__gte=0, y__lte=MAP_SIZE),
                name="area_on_the_map",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Link(models.Model):
    """Two areas linked on the map; a link goes both ways."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="links")
    a = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["campaign_id", "id"]  # the scenario's order, which the snapshot keeps
        constraints = [
            models.UniqueConstraint(fields=["campaign", "a", "b"], name="link_unique"),
            models.CheckConstraint(condition=~Q(a=F("b")), name="link_not_to_itself"),
        ]

    def __str__(self) -> str:
        return f"{self.a} - {self.b}"


class Company(models.Model):
    class Kind(models.TextChoices):
        FIGHTING = "fighting"
        SUPPLY = "supply"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="companies")
    name = models.CharField(max_length=100)
    side = models.CharField(max_length=16, choices=SIDE_CHOICES)
    kind = models.CharField(max_length=16, choices=[(k, k) for k in COMPANY_KINDS])
    quality = models.CharField(
        max_length=16, choices=[(str(q), str(q)) for q in Quality], null=True, blank=True
    )
    # RESTRICT, not PROTECT: deleting the campaign deletes its areas and companies together.
    area = models.ForeignKey(Area, on_delete=models.RESTRICT, related_name="companies")
    turns_out_of_supply = models.PositiveSmallIntegerField(default=0)
    banzai = models.BooleanField(default=False)
    standing_order = models.CharField(
        max_length=16, choices=[(o, o) for o in STANDING_ORDERS], default="sensible"
    )
    in_supply = models.BooleanField(null=True, blank=True)  # the last supply result
    history = GmHistory()

    class Meta:
        ordering = ["campaign_id", "id"]  # the scenario's order: the turn rolls in this order
        verbose_name_plural = "companies"
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="company_unique_name"),
            models.CheckConstraint(
                condition=Q(kind="fighting", quality__isnull=False)
                | Q(kind="supply", quality__isnull=True),
                name="company_quality_iff_fighting",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CompanyStands(models.Model):
    """How many stands of one unit type a company holds, and holds at full strength."""

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="stand_counts")
    unit_type = models.CharField(max_length=32, choices=[(t, t) for t in STAND_TYPES])
    held = models.PositiveSmallIntegerField()
    establishment = models.PositiveSmallIntegerField()
    history = GmHistory()

    class Meta:
        ordering = ["company_id", "id"]
        verbose_name_plural = "company stands"
        constraints = [
            models.UniqueConstraint(fields=["company", "unit_type"], name="stands_unique_type"),
            models.CheckConstraint(
                condition=Q(held__gte=0, held__lte=F("establishment")),
                name="stands_held_within_establishment",
            ),
        ]

    def __str__(self) -> str:
        unit = names.unit(self.unit_type, self.establishment)
        return f"{self.company}: {self.held} of {self.establishment} {unit}"


class Ship(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ships")
    name = models.CharField(max_length=100)
    side = models.CharField(max_length=16, choices=SIDE_CHOICES)
    port = models.ForeignKey(Area, on_delete=models.RESTRICT, related_name="+")
    present = models.BooleanField(default=True)
    history = GmHistory()

    class Meta:
        ordering = ["campaign_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="ship_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class AirGroup(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="air_groups")
    side = models.CharField(max_length=16, choices=SIDE_CHOICES)
    base = models.ForeignKey(Area, on_delete=models.RESTRICT, related_name="+")
    buffalos = models.PositiveSmallIntegerField(default=0)
    bombers = models.PositiveSmallIntegerField(default=0)  # Hurricane-bombers
    history = GmHistory()

    class Meta:
        ordering = ["campaign_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "side"], name="air_group_one_per_side"),
            models.CheckConstraint(
                condition=Q(buffalos__gte=0, bombers__gte=0), name="air_group_planes_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{names.side_adjective(self.side)} air at {self.base}"


# The naval and aerial tables a turn rolled its events on, read out of its start state
# (``Turn.start_state``'s settings, faces as strings) and nothing else of it: a past
# turn's event is read against them (``campaign.web.turnlog.played_tables``), not
# against the tables as the GM has edited them since. Annotate a turn query with them.
PLAYED_EVENT_TABLES = {
    f"played_{table}": KeyTransform(table, KeyTransform("settings", "start_state"))
    for table in ("naval_table", "aerial_table")
}


class Turn(models.Model):
    """One campaign turn being played or played: its dice, log and report."""

    class Status(models.TextChoices):
        # Labelled as the GM's pages say them ("Battles Pending" is no one's words).
        QUEUED = "queued", "queued"
        ROLLING = "rolling", "being played"
        BATTLES_PENDING = "battles_pending", "waiting for its battles' results"
        DONE = "done", "played"
        FAILED = "failed", "failed"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()  # the first turn is 1
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    seed = models.BigIntegerField()
    log = JSONField(default=list, blank=True)  # every roll of the turn, in order
    report = JSONField(null=True, blank=True)  # the structured turn report
    report_text = models.TextField(blank=True)  # the same report in words
    failure_reason = models.TextField(blank=True)
    # The campaign as it stood when the turn began (a scenario document): what a GM's
    # roll-back to the start of this turn restores.
    start_state = JSONField(null=True, blank=True)
    # The orders it was played with ({company, side, kind, target}, by company): with the
    # start state and the seed, all a TURN.json needs to play the turn again.
    orders = JSONField(default=list, blank=True)
    # The sides a player played (the AI played the rest): the AI's orders depend on it.
    players = JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="turn_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="turn_number_from_1"),
        ]
        indexes = [models.Index(fields=["status"], name="turn_status")]

    def __str__(self) -> str:
        return f"{self.campaign}, turn {self.number}"

    def battle_progress(self) -> tuple[int, int]:
        """(battles with a result, battles) of the turn: "battles pending (n of m)"."""
        statuses = list(self.battles.values_list("status", flat=True))
        return sum(status != "pending" for status in statuses), len(statuses)


class Membership(models.Model):
    """A player's place in a campaign: the one side they play, or ``spectator`` (no side:
    only what is public, everything after the end). The GM is staff and needs none;
    anyone else sees a campaign only through a membership."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    side = models.CharField(
        max_length=16, choices=[*SIDE_CHOICES, (SPECTATOR, "Spectator (no side)")]
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "side", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_one_side"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign}: {self.get_side_display()}"

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        if (
            self.campaign_id
            and self.side
            and self.side != SPECTATOR
            and not Side.objects.filter(campaign_id=self.campaign_id, key=self.side).exists()
        ):
            raise ValidationError({"side": f"{self.side!r} is not a side of this campaign"})


class SideReady(models.Model):
    """A side's player has marked its orders ready for a turn; when every side has, the
    turn is due at once (``campaign.services.schedule.mark_side_ready``)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ready_sides")
    side = models.CharField(max_length=16, choices=SIDE_CHOICES)
    turn_number = models.PositiveIntegerField()  # the turn the orders are for
    created_at = models.DateTimeField(auto_now_add=True)
    # Who marked it (the side's own pages tell the teammates; never another side's): none
    # for a "ready" given before it was kept.
    marked_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["campaign_id", "turn_number", "side"]
        verbose_name = "side ready"
        verbose_name_plural = "sides ready"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "side", "turn_number"], name="side_ready_once_per_turn"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign}: {self.get_side_display()} ready for turn {self.turn_number}"


class ReadyTakenBack(models.Model):
    """A side's player took back its "ready" for a turn ("Unready",
    ``planning.unmark_ready``): who did, which the side's own pages tell its teammates,
    as they are told who marked it. The other sides learn only which sides are ready
    (rulings section 6), never this. One a side and turn, the latest; a "ready" marked
    since outranks it (the pages read it only of a side not ready)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(max_length=16, choices=SIDE_CHOICES)
    turn_number = models.PositiveIntegerField()  # the turn the orders are for
    taken_back_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = "ready taken back"
        verbose_name_plural = "readies taken back"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "side", "turn_number"], name="ready_taken_back_once_per_turn"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign}: {self.get_side_display()} not ready for turn {self.turn_number}"


# An order's id is its company's and its turn's (``order_id``): a number drawn from a
# sequence both sides share would let a side count, by the gaps between its own orders'
# ids, the orders the enemy gave in between (rulings section 6). One order per company
# and turn makes it unique; a turn number is below ORDER_TURN_SPAN (MAX_TURNS is 1,000).
ORDER_TURN_SPAN = 2**20


def order_id(company_id: int, turn_number: int) -> int:
    """The id of the order for company ``company_id`` in turn ``turn_number``."""
    if not 0 <= turn_number < ORDER_TURN_SPAN:
        raise ValueError(f"turn {turn_number} is out of an order's range")
    return company_id * ORDER_TURN_SPAN + turn_number


class Order(models.Model):
    """A player's order for one company in one turn; a company with none holds. Its id
    is ``order_id(company, turn)``, set when it is first saved."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="orders")
    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="orders")
    turn_number = models.PositiveIntegerField()  # the turn the order is for
    kind = models.CharField(max_length=16, choices=[(k, k) for k in ORDER_KINDS])
    target = models.ForeignKey(
        Area, on_delete=models.RESTRICT, null=True, blank=True, related_name="+"
    )
    given_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # Defending this turn, swap one rifle squad for a sniper (rulings section 4).
    sniper = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "turn_number", "company_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["company", "turn_number"], name="order_one_per_company_and_turn"
            ),
            models.CheckConstraint(
                condition=Q(kind="hold", target__isnull=True)
                | (~Q(kind="hold") & Q(target__isnull=False)),
                name="order_target_iff_moving",
            ),
        ]
        indexes = [models.Index(fields=["campaign", "turn_number"], name="order_campaign_turn")]

    def __str__(self) -> str:
        where = f" to {self.target}" if self.target_id else ""
        return f"{self.company}: {self.kind}{where} (turn {self.turn_number})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is None:
            self.pk = order_id(self.company_id, self.turn_number)
        super().save(*args, **kwargs)


class GmAdjustment(models.Model):
    """A change the GM made by hand, outside the rules: what the players' log shows.

    The rows changed keep their full history too (``history`` on each model); this is the
    public line, with the GM's reason."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="adjustments")
    before_turn = models.PositiveIntegerField(help_text="The turn it happened before.")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    what = models.CharField(max_length=300)
    reason = models.TextField()
    details = JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["campaign_id", "created_at", "id"]
        verbose_name = "game master's adjustment"
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
        ]

    def __str__(self) -> str:
        return f"Game master's adjustment before turn {self.before_turn}: {self.what}"


class SeedCommitment(models.Model):
    """The seed of one turn, committed to before that turn's orders open.

    ``campaign.services.commitments`` makes it (when the campaign is made and when each
    turn completes) and reveals it (when its turn is played); ``rules.campaign.seeds``
    says how the dice derive from it. The GM's ``change_turn_seed`` replaces it, with a
    reason in the public log; so does a roll-back, for each turn it undoes whose seeds
    were shown (``reseed_shown``)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="commitments")
    number = models.PositiveIntegerField(help_text="The turn it drives.")
    # The turn seed: shown to nobody but the GM until the campaign ends.
    seed = models.BigIntegerField()
    salts = JSONField(help_text="Branch -> 256-bit salt (hex).")
    branch_commitments = JSONField(help_text="Branch -> SHA-256 of its seed and salt.")
    commitment = models.CharField(max_length=64, help_text="The turn's: SHA-256 of the branches'.")
    created_at = models.DateTimeField(auto_now_add=True)
    revealed_at = models.DateTimeField(
        null=True, blank=True, help_text="When its turn was played and its seeds shown."
    )
    changes = models.PositiveIntegerField(
        default=0, help_text="How often the game master replaced this turn's seed."
    )

    class Meta:
        ordering = ["campaign_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="commitment_unique_turn"),
            models.CheckConstraint(condition=Q(number__gte=1), name="commitment_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign}, turn {self.number}: {self.commitment[:12]}"
