"""The battles in the REST API (docs/api.md): the list of the battles you may read and
one battle with its result and every die. Under the campaign's URLs
(``campaign.api.urls``), on the campaign API's scoped view and its fog of war."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from battles.models import Battle
from campaign.api.filters import IntegerFilter
from campaign.api.serializers import PlaceSerializer, choice
from campaign.api.views import CAMPAIGN_PK, DETAIL_ERRORS, PK, READ_ERRORS, CampaignScoped, row_id
from rules.campaign.state import SIDE_KEYS

BATTLE_STATUSES = ("pending", "fought", "entered")


class BattleFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Battle.Status.choices)
    turn = IntegerFilter(field_name="turn__number", help_text="The turn number.")
    area = IntegerFilter(field_name="area_id", help_text="The area's id.")
    mode = django_filters.CharFilter()

    class Meta:
        model = Battle
        fields = ["status", "turn", "area", "mode"]


class BattleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField()
    turn = serializers.IntegerField(help_text="The turn it was fought in.")
    area = PlaceSerializer()
    attacker_side = choice("Side", SIDE_KEYS)
    defender_side = choice("Side", SIDE_KEYS)
    mode = serializers.CharField()
    ruleset = serializers.CharField()
    status = choice("BattleStatus", BATTLE_STATUSES)
    deadline = serializers.DateTimeField(allow_null=True)
    winner = serializers.CharField(
        allow_null=True, help_text="attacker, defender or draw; null while pending."
    )


class BattleDetailSerializer(BattleSerializer):
    result = serializers.DictField(allow_null=True, help_text="Null while pending.")
    log = serializers.ListField(
        child=serializers.DictField(),
        allow_null=True,
        help_text="Every die of the battle; null while pending (no log yet).",
    )


def battle_data(battle: Any) -> dict[str, Any]:
    """A battle as the list and the detail give it. Its winner is null while it is
    pending, in both: a pending battle has not been fought (its turn waits for it), and a
    winner read before then would tell its result in advance (rulings, section 6, as for
    its seed). The services write a battle's result and its status together, but the
    database allows a pending row with a result (an update in the admin's shell, a row
    half set by hand): its result is not the battle's until the battle is fought."""
    pending = battle.status == Battle.Status.PENDING
    return {
        "id": battle.pk,
        "key": battle.key,
        "turn": battle.turn.number,
        "area": {"id": battle.area_id, "name": battle.area.name},
        "attacker_side": battle.attacker_side,
        "defender_side": battle.defender_side,
        "mode": battle.mode,
        "ruleset": battle.ruleset,
        "status": battle.status,
        "deadline": battle.deadline,
        "winner": None if pending else battle.winner,
    }


def battle_detail_data(battle: Any) -> dict[str, Any]:
    pending = battle.status == Battle.Status.PENDING
    data = battle_data(battle)
    data["result"] = None if pending else battle.result
    data["log"] = None if pending else battle.log
    return data


class BattleList(CampaignScoped):
    queryset = Battle.objects.none()
    filterset_class = BattleFilter
    ordering_fields = ["id", "turn__number"]
    ordering = ["turn__number", "id"]

    def get_queryset(self) -> QuerySet[Battle]:
        if self.fake():
            return Battle.objects.none()
        return (
            self.campaign_view.battles()
            .select_related("turn", "area")
            .defer("spec", "result", "log", "turn__log", "turn__report", "turn__start_state")
        )

    @extend_schema(
        operation_id="battles_list",
        parameters=[CAMPAIGN_PK],
        responses={200: BattleSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int) -> Response:
        """The battles whose reports you may read: those your side fought."""
        return self.respond_digested(
            request,
            "battles",
            lambda: self.respond_list(self.get_queryset(), battle_data),
        )


class BattleDetail(CampaignScoped):
    @extend_schema(
        operation_id="battles_retrieve",
        parameters=[CAMPAIGN_PK, PK],
        responses={200: BattleDetailSerializer, **DETAIL_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """A battle your side fought: its result and every die of it (none while it waits
        for the table)."""
        battle = (
            self.campaign_view.battles()
            .filter(pk=row_id(pk))
            .select_related("turn", "area")
            .defer("turn__log", "turn__report", "turn__start_state")
            .first()
        )
        if battle is None:
            raise NotFound("No such battle.")
        return Response(battle_detail_data(battle))
