"""Battle state: the battles a campaign turn leads to, fought by rules/ or at the table.

A battle keeps its BATTLE.json (``spec``) as it was built, so it can be fought again
from its seed, and the result and log the rules engine (or the GM) gave it.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.db.models.fields.json import KT

from campaign.models import SIDE_CHOICES, Area, Campaign, Company, Turn
from config.jsonfield import JSONField
from rules import names
from rules.campaign.state import BATTLE_MODES
from rules.rulesets import DEFAULT_RULESET


class Battle(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "not fought yet"  # waiting to be fought
        FOUGHT = "fought", "fought by the rules"  # resolved by the rules engine
        ENTERED = "entered", "fought at the table"  # result entered by the GM

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="battles")
    area = models.ForeignKey(Area, on_delete=models.RESTRICT, related_name="battles")
    key = models.CharField(max_length=200)  # "<turn>:<area>[:<n>]", as the turn rules name it
    attacker_side = models.CharField(max_length=16, choices=SIDE_CHOICES)
    defender_side = models.CharField(max_length=16, choices=SIDE_CHOICES)
    # The spec and result name the companies too, so a battle still reads right after a
    # company that fought in it is destroyed and its row deleted.
    attackers = models.ManyToManyField(Company, related_name="battles_attacking", blank=True)
    defenders = models.ManyToManyField(Company, related_name="battles_defending", blank=True)
    mode = models.CharField(
        max_length=16,
        choices=[(m, names.battle_mode(m)) for m in BATTLE_MODES],  # the admin's filter, in words
        default=BATTLE_MODES[0],
    )
    ruleset = models.CharField(max_length=32, default=DEFAULT_RULESET)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    spec = JSONField()  # the BATTLE.json (rules.spec)
    result = JSONField(null=True, blank=True)
    log = JSONField(default=list, blank=True)
    # The result's winner ("attacker", "defender" or "draw"; null while there is no
    # result), kept by the database itself from ``result`` on every write, whoever writes
    # it (a save, an update, a bulk insert, a migration): it never disagrees with the
    # JSON. The battles API list and its digest read it rather than parse every battle's
    # result on every request.
    winner = models.GeneratedField(
        expression=KT("result__winner"),
        output_field=models.CharField(max_length=16, null=True),
        db_persist=True,
    )
    deadline = models.DateTimeField(null=True, blank=True)  # for a tabletop battle's result

    class Meta:
        ordering = ["campaign_id", "turn_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="battle_unique_key"),
            models.CheckConstraint(
                condition=~Q(attacker_side=F("defender_side")), name="battle_two_sides"
            ),
            # A result once fought, and only then: a battle still to be fought has none
            # (every page reads a pending battle as not fought, whatever its row held).
            models.CheckConstraint(
                condition=Q(status="pending", result__isnull=True)
                | (~Q(status="pending") & Q(result__isnull=False)),
                name="battle_result_only_once_fought",
            ),
        ]
        indexes = [
            models.Index(fields=["campaign", "status"], name="battle_campaign_status"),
            models.Index(fields=["status", "deadline"], name="battle_status_deadline"),
        ]

    def __str__(self) -> str:
        """Two battles in one area in one turn (keys "<turn>:<area>:1", ":2") get their
        number, so the Battles list tells them apart."""
        _, _, index = self.key.partition(f":{self.area}:")
        if index:
            return f"{self.turn}: battle {index} at {self.area}"
        return f"{self.turn}: battle at {self.area}"
