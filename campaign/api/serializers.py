"""What the API answers, field by field. Output serializers read a ``CampaignView`` (the
fog of war already applied) or rows the view has filtered; they decide nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from campaign.models import Campaign
from campaign.services.commitments import commitment_of
from campaign.services.visibility import MAX_ID, CampaignView
from campaign.web import ending
from rules.campaign.phases.end import EndKind
from rules.campaign.state import COMPANY_KINDS, ORDER_KINDS, SIDE_KEYS
from rules.campaign.visibility import CompanyView
from rules.refusals import Code

BANDS = ("weak", "average", "strong")
CAMPAIGN_STATUSES = ("active", "paused", "finished")
TURN_STATUSES = ("queued", "rolling", "battles_pending", "done", "failed")


_CHOICE_FIELDS: dict[str, type[serializers.ChoiceField]] = {}


def choice(name: str, choices: Any, **kwargs: Any) -> serializers.ChoiceField:
    """A choice field whose choice set is one named schema component (``Side``,
    ``TurnStatus``...). The same few sets recur under many field names (a side is a
    ``side``, a ``winner``, a ``controller``), which drf-spectacular would otherwise name
    once per field and warn about."""
    values = list(choices)
    if name not in _CHOICE_FIELDS:
        _CHOICE_FIELDS[name] = extend_schema_field(
            {"type": "string", "enum": values}, component_name=name
        )(type(f"{name}Field", (serializers.ChoiceField,), {}))
    return _CHOICE_FIELDS[name](choices=values, **kwargs)


# --- errors -----------------------------------------------------------------------------------


class ErrorSerializer(serializers.Serializer):
    """Every refusal that is not about one field: 401, 403, 404, 429, and a 400 the rules
    gave (an order the rules forbid, a turn that may not be marked ready)."""

    detail = serializers.CharField()


# A 400 is either a refusal, {"detail": "reason", "problems": [{"path", "message", "code"}]}
# (refused by the rules: campaign.api.errors), or DRF's validation shape,
# {"<field>": ["message", ...]} (a request field or a query filter that cannot be read).
BAD_REQUEST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        'Refused by the rules: {"detail": "reason", "problems": [{"path": "where in the '
        'input, or empty for all of it", "message": "what is wrong", "code": "what kind of '
        'fault, e.g. out_of_range; message for a refusal with only its reason"}, ...]}. '
        'Unreadable input: one key per field (or "non_field_errors"), each a list of messages.'
    ),
    "properties": {
        "problems": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "message": {"type": "string"},
                    "code": {"type": "string", "enum": [code.value for code in Code]},
                },
                "required": ["path", "message", "code"],
            },
        },
    },
    "additionalProperties": {
        "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]
    },
    "example": {"target": ["there is no area 99 in this campaign"]},
}


def error_responses(*codes: int) -> dict[int, Any]:
    """The documented error answers of an endpoint."""
    described = {
        400: OpenApiResponse(BAD_REQUEST_SCHEMA, description="Bad request or refused."),
        401: OpenApiResponse(ErrorSerializer, description="Not signed in (no or a bad token)."),
        403: OpenApiResponse(ErrorSerializer, description="Not allowed."),
        404: OpenApiResponse(
            ErrorSerializer,
            description="No such thing, or nothing the viewer may see (same answer).",
        ),
        409: OpenApiResponse(
            BAD_REQUEST_SCHEMA,
            description="An order for another turn than the coming one: its "
            "``turn_number`` (or ``turn``) names another, or a turn was played between this "
            "request's read of the coming turn's orders and its write. Nothing changed; "
            "the orders now go to the coming turn.",
        ),
        412: OpenApiResponse(
            BAD_REQUEST_SCHEMA,
            description="The company's order is not the one If-Match names: nothing changed.",
        ),
        429: OpenApiResponse(ErrorSerializer, description="Too many requests: wait and retry."),
    }
    return {code: described[code] for code in codes}


# --- shared pieces ----------------------------------------------------------------------------


class PlaceSerializer(serializers.Serializer):
    """An area named by its id and name."""

    id = serializers.IntegerField()
    name = serializers.CharField()


def place(view: CampaignView, name: str | None) -> dict[str, Any] | None:
    if name is None:
        return None
    return {"id": view.area_id(name), "name": name}


# --- campaigns --------------------------------------------------------------------------------


class EndCauseSerializer(serializers.Serializer):
    """One reason a finished campaign ended (``Campaign.end_causes``)."""

    kind = choice("EndKind", get_args(EndKind))
    side = choice(
        "Side",
        SIDE_KEYS,
        allow_null=True,
        help_text="The side that lost its base or its last fighting company (else null).",
    )
    area = serializers.CharField(
        allow_null=True, help_text="The name of the base it lost (else null)."
    )
    turns = serializers.IntegerField(
        allow_null=True, help_text="The turn limit reached (else null)."
    )


def end_data(campaign: Any, names: Mapping[str, str]) -> dict[str, Any]:
    """A finished campaign's end causes and the pages' sentence for them (``names``: each
    side's name by its key); none while it goes on. Nothing is hidden once it has ended."""
    if campaign.status != Campaign.Status.FINISHED:
        return {"end_causes": [], "why": ""}
    causes = [
        {field: cause.get(field) for field in ("kind", "side", "area", "turns")}
        for cause in campaign.end_causes or []
    ]
    return {"end_causes": causes, "why": ending.why(campaign, campaign.get_settings(), names)}


class CampaignSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    turn = serializers.IntegerField(help_text="Turns played so far.")
    coming_turn = serializers.IntegerField(help_text="The turn orders are given for now.")
    status = choice("CampaignStatus", CAMPAIGN_STATUSES)
    next_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the coming turn is played by itself (null: by the game master, or "
        "not until a paused campaign is resumed).",
    )
    winner = choice("Side", SIDE_KEYS, allow_null=True)
    end_reason = serializers.CharField(
        allow_blank=True,
        help_text="Why it ended, in the engine's words, as kept then (for compatibility: "
        "read end_causes and why).",
    )
    end_causes = EndCauseSerializer(
        many=True,
        help_text="Why a finished campaign ended, as fields; empty while it goes on, and for "
        "one that ended before they were kept.",
    )
    why = serializers.CharField(
        allow_blank=True,
        help_text="Why it ended, in the pages' words: \"They held Korona when the 8 turns were "
        'up."; empty while it goes on.',
    )
    side = choice(
        "Side", SIDE_KEYS, allow_null=True, help_text="The side you play; null for the game master."
    )
    game_master = serializers.BooleanField(help_text="You see everything as the game master.")
    schedule = serializers.DictField(help_text="kind (none, every_hours, weekly) and its values.")
    fog_of_war = serializers.BooleanField()
    turn_limit = serializers.IntegerField()
    battle_mode = serializers.CharField()
    ruleset = serializers.CharField()


def campaign_data(
    campaign: Any, *, side: str | None, game_master: bool, names: Mapping[str, str]
) -> dict[str, Any]:
    """``names``: each side's name by its key (for why a finished campaign ended)."""
    settings = campaign.get_settings()
    schedule: dict[str, Any] = {"kind": campaign.schedule_kind, "timezone": campaign.timezone}
    if campaign.schedule_kind == "every_hours":
        schedule["every_hours"] = campaign.every_hours
    elif campaign.schedule_kind == "weekly":
        schedule["weekday"] = campaign.weekday
        schedule["time_of_day"] = campaign.time_of_day.isoformat()
    return {
        "id": campaign.pk,
        "name": campaign.name,
        "turn": campaign.turn,
        "coming_turn": campaign.turn + 1,
        "status": campaign.status,
        # None while paused, as every page says: no turn is played on its schedule, and
        # resuming counts the next deadline from then (``set_paused``). The row keeps the
        # one it had, or one a turn the GM played by hand counted, neither of which comes.
        "next_deadline": (
            campaign.next_deadline if campaign.status != Campaign.Status.PAUSED else None
        ),
        "winner": campaign.winner,
        "end_reason": campaign.end_reason,
        **end_data(campaign, names),
        "side": side,
        "game_master": game_master,
        "schedule": schedule,
        "fog_of_war": settings.fog_of_war,
        "turn_limit": settings.turn_limit,
        "battle_mode": settings.battle_mode,
        "ruleset": settings.ruleset,
    }


class CampaignSideSerializer(serializers.Serializer):
    key = choice("Side", SIDE_KEYS)
    name = serializers.CharField()
    base = PlaceSerializer()


class ShipSerializer(serializers.Serializer):
    name = serializers.CharField()
    side = choice("Side", SIDE_KEYS)
    port = PlaceSerializer()
    present = serializers.BooleanField()


class AirGroupSerializer(serializers.Serializer):
    side = choice("Side", SIDE_KEYS)
    base = PlaceSerializer()
    buffalos = serializers.IntegerField()
    bombers = serializers.IntegerField()


class CampaignDetailSerializer(CampaignSerializer):
    """A campaign with its public order of battle at sea and in the air (public under the
    fog-of-war rules, like the map)."""

    sides = CampaignSideSerializer(many=True)
    ships = ShipSerializer(many=True)
    air_groups = AirGroupSerializer(many=True)


def campaign_detail_data(view: CampaignView) -> dict[str, Any]:
    state = view.state
    names = {key: side.name for key, side in state.sides.items()}
    data = campaign_data(view.campaign, side=view.side, game_master=view.game_master, names=names)
    data["sides"] = [
        {"key": side.key, "name": side.name, "base": place(view, side.base)}
        for side in state.sides.values()
    ]
    data["ships"] = [
        {"name": s.name, "side": s.side, "port": place(view, s.port), "present": s.present}
        for s in state.ships
    ]
    data["air_groups"] = [
        {"side": a.side, "base": place(view, a.base), "buffalos": a.buffalos, "bombers": a.bombers}
        for a in state.air
    ]
    return data


# --- areas ------------------------------------------------------------------------------------


class AreaSerializer(serializers.Serializer):
    """An area of the map: public to every side."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    zone = serializers.IntegerField()
    track = serializers.CharField()
    vegetation = serializers.CharField()
    plains = serializers.BooleanField()
    features = serializers.ListField(child=serializers.CharField())
    x = serializers.FloatField()
    y = serializers.FloatField()
    controller = choice(
        "Side",
        SIDE_KEYS,
        allow_null=True,
        help_text="Who holds it: out of your sight, who held it when you last saw it.",
    )
    controller_last_seen = serializers.IntegerField(
        allow_null=True,
        help_text="null while the area is in your sight; else the number of turns played "
        "when you last saw it (0: the start), the controller then being the one given.",
    )
    base_of = choice("Side", SIDE_KEYS, allow_null=True, help_text="The side whose base it is.")
    neighbours = PlaceSerializer(many=True, help_text="The areas linked to it.")


def area_data(view: CampaignView, name: str) -> dict[str, Any]:
    area = view.state.areas[name]
    base_of = next((s.key for s in view.state.sides.values() if s.base == name), None)
    return {
        "id": view.area_id(name),
        "name": name,
        "zone": area.zone,
        "track": area.track,
        "vegetation": area.vegetation,
        "plains": area.plains,
        "features": list(area.features),
        "x": area.x,
        "y": area.y,
        "controller": area.controller,
        "controller_last_seen": view.last_seen(name),
        "base_of": base_of,
        "neighbours": [place(view, other) for other in sorted(view.state.neighbours(name))],
    }


# --- companies --------------------------------------------------------------------------------


# What a company does in a turn it is given no order (``with_no_order``).
WITH_NO_ORDER = ("hold", "aggressive", "campaign_ai")


def with_no_order(standing_order: str | None, *, played: bool) -> str | None:
    """What a company with ``standing_order`` does in a turn it is given no order:
    ``sensible`` is the campaign AI's only on a side no player plays, and holds on one a
    player plays (``rules.campaign.phases.movement``), as every page says it
    (``campaign.web.maps.standing_words``)."""
    if standing_order == "sensible":
        return "hold" if played else "campaign_ai"
    return standing_order


class CompanySerializer(serializers.Serializer):
    """A company as the viewer may see it. ``full`` false is a glimpse of an enemy in
    sight: its handle (``glimpse``), side, kind, area and strength_band; ``id`` and
    ``name`` are null (section 6: "without name"; an id would tell which company it
    is), the rest left out."""

    id = serializers.IntegerField(allow_null=True, help_text="null for a glimpse.")
    name = serializers.CharField(allow_null=True, help_text="null for a glimpse.")
    glimpse = serializers.CharField(
        allow_null=True,
        help_text="A glimpse's handle, for .../glimpses/{handle}/: its place among your "
        'glimpses now ("3-2": the 2nd after 3 turns played), given afresh each turn; '
        "null for a company seen in full.",
    )
    side = choice("Side", SIDE_KEYS)
    kind = choice("CompanyKind", COMPANY_KINDS)
    area = PlaceSerializer()
    full = serializers.BooleanField(help_text="False: a glimpse of an enemy company.")
    strength_band = choice("StrengthBand", BANDS)
    may_order = serializers.BooleanField(help_text="You may give it orders.")
    stands = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Unit type -> stands held."
    )
    establishment = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Unit type -> full strength."
    )
    strength = serializers.IntegerField(required=False, help_text="Stands held in all.")
    quality = serializers.CharField(required=False, allow_null=True)
    in_supply = serializers.BooleanField(required=False, allow_null=True)
    turns_out_of_supply = serializers.IntegerField(required=False)
    standing_order = serializers.CharField(
        required=False,
        help_text="What it does in a turn it is given no order (the scenario's, or the GM's; "
        'players cannot change it): "hold"; "aggressive" (a fighting company advances '
        'towards the enemy\'s base by itself, a supply company follows it); "sensible", '
        "every company's default: it holds while a player plays its side, and the campaign "
        "AI chooses its order while none does (with_no_order says which it is now).",
    )
    with_no_order = choice(
        "WithNoOrder",
        WITH_NO_ORDER,
        required=False,
        help_text='What it does now in a turn it is given no order: "hold"; '
        '"aggressive"; "campaign_ai" (the campaign AI chooses its order). A "sensible" '
        "company holds while a player plays its side (your own companies: always), as the "
        'orders page says ("hold (the default while you play this side)").',
    )


def company_data(
    view: CampaignView, company: CompanyView, *, played: frozenset[str]
) -> dict[str, Any]:
    """``played``: the sides a player plays (``MapStamp.played_sides``); the reader's own
    side is played (by them)."""
    data: dict[str, Any] = {
        "id": view.company_id(company.name) if company.full else None,
        "name": company.name if company.full else None,
        "glimpse": company.glimpse,
        "side": company.side,
        "kind": company.kind,
        "area": place(view, company.area),
        "full": company.full,
        "strength_band": company.strength_band,
        "may_order": view.may_order(company),
    }
    if company.full:
        data.update(
            stands=company.stands,
            establishment=company.establishment,
            strength=company.strength,
            quality=company.quality,
            in_supply=company.in_supply,
            turns_out_of_supply=company.turns_out_of_supply,
            standing_order=company.standing_order,
            with_no_order=with_no_order(
                company.standing_order,
                played=company.side in played or company.side == view.side,
            ),
        )
    return data


# --- turns ------------------------------------------------------------------------------------


class RecordSerializer(serializers.Serializer):
    """One roll or event of a turn. Records carry more fields by kind (dice, modifiers,
    target, outcome, company, battle, ...): every field of the turn log is given."""

    phase = serializers.CharField()
    kind = serializers.CharField()
    text = serializers.CharField()
    side = serializers.CharField(allow_null=True, required=False)
    dice = serializers.ListField(child=serializers.IntegerField(), required=False)


class AdjustmentSerializer(serializers.Serializer):
    """A GM adjustment, the campaign's public log: a change to the stands of a company
    you do not see in full comes without its numbers."""

    before_turn = serializers.IntegerField(help_text="The turn it came before.")
    during_turn = serializers.IntegerField(
        allow_null=True,
        help_text="Made while this turn was being played, after its dice were rolled (it "
        "counts from the turn after); null for a change made before the turn began.",
    )
    when = serializers.DateTimeField()
    what = serializers.CharField()
    reason = serializers.CharField()


def adjustment_data(adjustment: Any) -> dict[str, Any]:
    return {
        "before_turn": adjustment.before_turn,
        "during_turn": adjustment.during_turn,
        "when": adjustment.when,
        "what": adjustment.what,
        "reason": adjustment.reason,
    }


class RevealedSeedSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    salt = serializers.CharField(help_text="64 hexadecimal digits.")


class CommitmentSerializer(serializers.Serializer):
    """A turn's dice commitment: SHA-256 over each branch's seed and a random salt, and
    over the branches' commitments. Shown before the turn; the seeds after it."""

    turn = serializers.IntegerField()
    commitment = serializers.CharField(help_text="The turn's: SHA-256 of the branches'.")
    branches = serializers.DictField(
        child=serializers.CharField(), help_text="public, australian, japanese: SHA-256 each."
    )
    committed_at = serializers.DateTimeField()
    seed_changes = serializers.IntegerField(
        help_text="How often the game master replaced the seed."
    )
    revealed = serializers.DictField(
        child=RevealedSeedSerializer(),
        help_text="After the turn: the public branch and your side's (every branch once the "
        "campaign has ended). Empty before.",
    )
    turn_seed = serializers.IntegerField(
        allow_null=True,
        help_text="Once the campaign has ended (and to the game master) after the turn.",
    )


class TurnFileSerializer(serializers.Serializer):
    """TURN.json (format korona-turn/1): what ``python -m rules verify`` checks."""

    format = serializers.CharField()
    campaign = serializers.CharField()
    turn = serializers.IntegerField()
    view = serializers.CharField(help_text="Your side, or everything.")
    commitment = serializers.DictField()
    revealed = serializers.DictField(child=RevealedSeedSerializer())
    turn_seed = serializers.IntegerField(allow_null=True)
    start_state = serializers.DictField(allow_null=True)
    orders = serializers.ListField(child=serializers.DictField())
    log = RecordSerializer(many=True)
    battles = serializers.ListField(child=serializers.DictField())


class TurnSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = choice("TurnStatus", TURN_STATUSES)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class TurnDetailSerializer(TurnSerializer):
    records = RecordSerializer(
        many=True, help_text="The turn's rolls you may read, in the order they were rolled."
    )
    commitment = CommitmentSerializer(
        allow_null=True, help_text="Its dice commitment (null: played before commitments)."
    )
    failure_reason = serializers.CharField(
        required=False, help_text="Why the turn failed; the game master only."
    )


def turn_data(turn: Any) -> dict[str, Any]:
    return {
        "number": turn.number,
        "status": turn.status,
        "created_at": turn.created_at,
        "finished_at": turn.finished_at,
    }


def turn_detail_data(view: CampaignView, turn: Any) -> dict[str, Any]:
    data = turn_data(turn)
    data["records"] = view.records(turn.log or [], number=turn.number)
    seen = commitment_of(view, turn.number)
    data["commitment"] = seen.data() if seen is not None else None
    if view.game_master:
        data["failure_reason"] = turn.failure_reason
    return data


# --- orders -----------------------------------------------------------------------------------


class CompanyRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class OrderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    company = CompanyRefSerializer()
    turn_number = serializers.IntegerField()
    kind = choice("OrderKind", ORDER_KINDS)
    target = PlaceSerializer(allow_null=True)
    given_by = serializers.CharField(allow_null=True, help_text="Who gave it (user name).")
    sniper = serializers.BooleanField(
        help_text="Should the company defend this turn, it swaps one rifle squad for a sniper."
    )
    created_at = serializers.DateTimeField()


def order_data(order: Any) -> dict[str, Any]:
    return {
        "id": order.pk,
        "company": {"id": order.company_id, "name": order.company.name},
        "turn_number": order.turn_number,
        "kind": order.kind,
        "target": ({"id": order.target_id, "name": order.target.name} if order.target_id else None),
        "given_by": order.given_by.get_username() if order.given_by_id else None,
        "sniper": order.sniper,
        "created_at": order.created_at,
    }


class StatedTurn(serializers.Serializer):
    """The turn an order is for, as the client read it: optional, and when given it must
    be the coming turn, or the order is refused (409) and nothing changes, as the orders
    page refuses a form drawn for a turn since played. ``turn`` is taken for it too (an
    order once given with ``"turn": 3`` for turn 11 was silently taken for turn 11)."""

    turn_number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="The turn the order is for (optional): another than the coming one is "
        "refused (409), nothing changed.",
    )
    turn = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="The same as turn_number (either; both must agree).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        number, turn = attrs.get("turn_number"), attrs.pop("turn", None)
        if number is not None and turn is not None and number != turn:
            raise serializers.ValidationError(
                {"turn": [f"turn {turn} and turn_number {number} differ: give one turn"]}
            )
        if turn is not None:
            attrs["turn_number"] = turn
        return attrs


class OrderCreateSerializer(StatedTurn):
    """An order for the coming turn. A company that already has one has it replaced."""

    company = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The company's id.")
    kind = choice("OrderKind", ORDER_KINDS)
    target = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        help_text="The area's id; none for hold.",
    )
    sniper = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Defending this turn, swap one rifle squad for a sniper (default false).",
    )


class OrderChangeSerializer(StatedTurn):
    """A new kind and target for an order (PATCH: either; kind hold drops the target),
    and its sniper option (PATCH: kept unless given)."""

    kind = choice("OrderKind", ORDER_KINDS)
    target = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        help_text="The area's id; none for hold.",
    )
    sniper = serializers.BooleanField(
        required=False,
        help_text="Defending this turn, swap one rifle squad for a sniper (PUT: default false).",
    )


# --- ready ------------------------------------------------------------------------------------


class ReadyRequestSerializer(StatedTurn):
    """``turn_number`` (or ``turn``), optional: the turn the client read as coming; another
    is refused (409) and nothing changes ("turn": "abc" was ignored, and the side marked
    ready for whatever turn was coming)."""

    turn_number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="The turn whose orders are ready (optional): another than the coming one "
        "is refused (409), nothing changed.",
    )

    side = choice(
        "Side",
        SIDE_KEYS,
        required=False,
        help_text=(
            "The side that is ready: the game master must name it; a player may only name theirs."
        ),
    )


class ReadySerializer(serializers.Serializer):
    turn_number = serializers.IntegerField(help_text="The coming turn.")
    ready = serializers.ListField(
        child=choice("Side", SIDE_KEYS),
        help_text="Sides ready for it (public: every reader sees every side's).",
    )


class ReadyResultSerializer(ReadySerializer):
    turn_due = serializers.BooleanField(help_text="Every side is ready: the turn is played now.")


class UnreadyResultSerializer(ReadySerializer):
    taken_back = serializers.BooleanField(
        help_text="Your side was ready and no longer is (false: it was not ready)."
    )


# --- token ------------------------------------------------------------------------------------


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)  # Django's username column
    password = serializers.CharField(max_length=4096)


class TokenCredentialsSerializer(AuthTokenSerializer):
    """DRF's, its fields bounded as ``TokenRequestSerializer`` says: a longer user name
    reached django-axes, whose record of a failure holds 255 characters (a 500 on
    PostgreSQL)."""

    username = serializers.CharField(label="Username", write_only=True, max_length=150)
    password = serializers.CharField(
        label="Password",
        style={"input_type": "password"},
        trim_whitespace=False,
        write_only=True,
        max_length=4096,
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='Send it as the header "Authorization: Token <it>".')
