"""The REST API's endpoints. Each one opens the campaign through ``open_campaign`` (the
one place for fog of war), reads what the ``CampaignView`` shows, and changes things only
through the services (``give_order``, ``withdraw_order``, ``mark_side_ready``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cached_property
from hashlib import sha256
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import (
    Case,
    CharField,
    DateTimeField,
    F,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import (
    NotAuthenticated,
    NotFound,
    PermissionDenied,
    ValidationError,
)
from rest_framework.filters import OrderingFilter
from rest_framework.generics import GenericAPIView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from campaign.api import serializers as s
from campaign.api.errors import OrderForAnotherTurn
from campaign.api.filters import (
    AreaFilter,
    CampaignFilter,
    CampaignFilterBackend,
    CompanyFilter,
    OrderFilter,
    TurnFilter,
)
from campaign.api.throttles import API_THROTTLES
from campaign.models import (
    ORDER_TURN_SPAN,
    Area,
    Campaign,
    Company,
    GmAdjustment,
    Order,
    SeedCommitment,
    Side,
    SideReady,
    Turn,
)
from campaign.services import commitments
from campaign.services.planning import unmark_ready
from campaign.services.schedule import mark_side_ready
from campaign.services.turns import give_order, order_seen, withdraw_order
from campaign.services.visibility import (
    MAX_ID,
    CampaignView,
    NotAMember,
    campaign_stamp,
    campaigns_digest,
    campaigns_for,
    is_game_master,
    open_campaign,
    sides_of,
)
from campaign.web.maps import MapStamp, map_stamp
from rules.campaign.state import SIDE_KEYS

CAMPAIGN_PK = OpenApiParameter(
    "campaign_pk", int, OpenApiParameter.PATH, description="The campaign's id."
)
PK = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The row's id.")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The turn number.")
READ_ERRORS = s.error_responses(400, 401, 403, 404, 429)
# A kept list is keyed by the campaign's stamp: a changed campaign is a new key, so this
# only bounds how long an unread one stays in the cache.
KEPT_LIST_SECONDS = 60 * 60
DETAIL_ERRORS = s.error_responses(401, 403, 404, 429)
WRITE_ERRORS = s.error_responses(400, 401, 403, 404, 429)
# An order's writes take what the client saw of the company's order (the orders page's
# ``seen``): another order now is a 412 and changes nothing.
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="What you saw of the company's order (the last answer's ETag): \"-\" for "
    'none, else its kind, target and sniper ("withdraw:12.0", "hold.1"); another order now: '
    "412, nothing changed, unless the write asks for just that order (the same order again, "
    'or taking back one already gone: taken, nothing changes). Without it (or "*"), any '
    "order is replaced.",
)


def order_etag(*codes: int) -> OpenApiParameter:
    """The ``ETag`` header of the answers (``codes``) that show one company's order."""
    return OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        response=list(codes),
        required=True,
        description="The company's order now, as If-Match takes it, in quotes (a withdraw "
        "to area 12 without a sniper: withdraw:12.0; after a withdrawal: -): send it back "
        "as If-Match with your next write of that company's order.",
    )


# A turn played between the request's read and its write is a 409: nothing changed.
ORDER_WRITE_ERRORS = {**WRITE_ERRORS, **s.error_responses(409, 412)}


@contextmanager
def one_snapshot() -> Iterator[None]:
    """A transaction whose reads all see the database at one moment: SQLite's does; on
    PostgreSQL, repeatable read (inside an outer transaction, as in the tests, it is that
    one's savepoint)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def digested_token(read: dict[str, Any]) -> str:
    """The token of a stamp read with its list's digest (``campaign_stamp(rows=...)``)."""
    stamp = MapStamp(**{name: value for name, value in read.items() if name != "digest"})
    return f"{stamp.token}:{sha256(read['digest'].encode()).hexdigest()}"


def row_id(value: Any) -> int:
    """A path's id or number, as an int; one out of any column's range is simply not found."""
    number = int(value)
    if not 0 < number <= MAX_ID:
        raise NotFound("Not found.")
    return number


# /api/ itself: where the API's ways in are, for whoever opens the address the README
# gives (it used to be the JSON 404 of an unknown address). The same for every reader.
_WAYS_IN = (
    ("docs", "api:docs", "the endpoints, to read and try in the browser (Swagger UI)"),
    ("schema", "api:schema", "the OpenAPI 3 schema (YAML; ?format=json for JSON)"),
    ("token", "api:token", "POST a username and password for a token"),
    (
        "campaigns",
        "api:campaign-list",
        "your campaigns, each with its areas, companies, turns, battles and orders under it",
    ),
)


@csrf_exempt  # it changes nothing; a POST gets the JSON 405, not a CSRF page
def root(request: HttpRequest) -> JsonResponse:
    """``/api/``: the ways into the API (docs/api.md), with what each is for."""
    if request.method not in ("GET", "HEAD"):
        answer = JsonResponse({"detail": f'Method "{request.method}" not allowed.'}, status=405)
        answer["Allow"] = "GET, HEAD"
        return answer
    return JsonResponse(
        {
            "detail": "Korona's REST API. Sign in with a token or the site's session "
            "(docs/api.md); every answer shows what your side may see.",
            **{key: {"url": reverse(name), "what": what} for key, name, what in _WAYS_IN},
        }
    )


@csrf_exempt  # it changes nothing; a PUT to a wrong address gets the JSON 404, not a CSRF page
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any other address under /api/: a JSON 404, never an HTML page."""
    return JsonResponse({"detail": "Not found."}, status=404)


class DocsView(SpectacularSwaggerSplitView):
    """The Swagger UI page, its start-up script served apart (``?script``), so the page
    works under the Content-Security-Policy (no inline script). Its only renderer is an
    HTML template, which has nothing to show for OPTIONS: that answers as a plain Django
    view does (an empty 200, with Allow). Its template adds a bar back to Korona's pages
    above Swagger UI (the walk-through found the page a dead end)."""

    template_name = "api/docs.html"

    def options(  # type: ignore[override]  # Django's answer, not DRF's
        self, request: Request, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        return View.options(self, request, *args, **kwargs)


class KeptJSON(Response):
    """A kept answer's JSON, as it was rendered when it was kept: answered as is, rather
    than its data unpickled and rendered again (only to a reader whose answer is that
    JSON: ``ApiView.kept_answer``)."""

    def __init__(self, content: bytes) -> None:
        super().__init__()
        self.kept_content = content

    @property
    def rendered_content(self) -> bytes:  # type: ignore[override]  # DRF renders bytes
        renderer = self.accepted_renderer
        assert type(renderer) is JSONRenderer, "kept JSON is only for the JSON renderer"
        self["Content-Type"] = self.content_type or renderer.media_type  # as DRF sets it
        return self.kept_content


class ApiView(GenericAPIView):
    throttle_classes = API_THROTTLES
    filter_backends = [CampaignFilterBackend, OrderingFilter]
    tie_break = "pk"

    def kept_answer(self, key: str) -> Response | None:
        """The answer kept under ``key``, or None. A reader answered in plain JSON (the
        JSON renderer, no parameter such as ``indent``: nearly every client) gets the JSON
        rendered when it was kept; any other (the browsable API) its data, rendered anew."""
        renderer = getattr(self.request, "accepted_renderer", None)
        if (
            type(renderer) is JSONRenderer
            and self.request.accepted_media_type == JSONRenderer.media_type
            and (content := cache.get(f"{key}:json")) is not None
        ):
            return KeptJSON(content)
        data = cache.get(key)
        return None if data is None else Response(data)

    def keep_answer(self, key: str, response: Response) -> None:
        """Keep a 200's data under ``key``, and its plain JSON beside it (``kept_answer``),
        rendered as DRF renders it for such a reader."""
        if response.status_code != status.HTTP_200_OK:
            return
        content = JSONRenderer().render(response.data, JSONRenderer.media_type, {})
        cache.set_many({key: response.data, f"{key}:json": content}, KEPT_LIST_SECONDS)

    def respond_list(self, queryset: QuerySet, to_data: Any) -> Response:
        """Filter, order and page ``queryset``, answering each row as ``to_data(row)``."""
        ordered = self.filter_queryset(queryset)
        # Ties broken by id: PostgreSQL would give tied rows in the order of their last
        # writes, which tells what changed (found by tests/fog on PostgreSQL).
        ordered = ordered.order_by(*ordered.query.order_by, self.tie_break)
        rows = self.paginate_queryset(ordered)
        assert rows is not None, "every API list is paginated"
        return self.get_paginated_response([to_data(row) for row in rows])


class CampaignScoped(ApiView):
    """An endpoint under /api/campaigns/{campaign_pk}/: the campaign as the user may see it.

    A stranger's campaign and a campaign that does not exist give the same 404."""

    @cached_property
    def stamp(self) -> MapStamp:
        """The campaign's stamp for this reader (``map_stamp``: one query, kept a second
        per reader); it also decides access: a stranger gets the 404 of no campaign."""
        stamp = map_stamp(user=self.request.user, campaign_id=row_id(self.kwargs["campaign_pk"]))
        if stamp is None:
            raise NotFound("No such campaign.")
        return stamp

    @cached_property
    def campaign_view(self) -> CampaignView:
        """The campaign as the reader may see it. A read (GET, HEAD) takes it from the
        cache, kept under the campaign's stamp (whose token holds the reader's side, so
        every reader of one side shares it, and nobody else): what the stamp covers is
        what the view is built from, as for the kept map page. Anything else opens it
        afresh (the services check again under the campaign's lock anyway)."""
        read = self.request.method in ("GET", "HEAD")
        key = f"api-view:{self.kwargs['campaign_pk']}:{self.stamp.token}" if read else None
        if key is not None and (kept := cache.get(key)) is not None:
            return kept
        view = self.open_view()
        if key is not None:
            cache.set(key, view, KEPT_LIST_SECONDS)
        return view

    def open_view(self) -> CampaignView:
        """The campaign opened afresh for the reader (a stranger: the 404 of no campaign)."""
        try:
            return open_campaign(
                user=self.request.user, campaign=row_id(self.kwargs["campaign_pk"])
            )
        except NotAMember:
            raise NotFound("No such campaign.") from None

    def fake(self) -> bool:
        """drf-spectacular builds the schema without a campaign."""
        return getattr(self, "swagger_fake_view", False)

    def respond_kept(self, request: Request, build: Callable[[], Response]) -> Response:
        """A list whose answer follows from the campaign's stamp (what its pages are drawn
        from: turn, status, deadline, last turn, last game master's change, the row's last
        save, the reader's side), kept for its reader until the stamp changes, as the map page is.

        The stamp's query (kept a second for the reader, ``map_stamp``) also decides
        access, before any cache: a stranger gets the same 404 as for no campaign. The key
        holds the reader, so no reader is answered another's list; only a 200 is kept."""
        key = self.kept_key(request, self.stamp.token)
        if (kept := self.kept_answer(key)) is not None:
            return kept
        response = build()
        self.keep_answer(key, response)
        return response

    def kept_key(self, request: Request, token: str) -> str:
        """The cache key of a kept answer: the campaign, ``token`` (its stamp, with the
        reader's side) and the reader: the user, the host and the full path with its query
        string (filters, ordering, page, format)."""
        text = "|".join((token, str(request.user.pk), request.get_host(), request.get_full_path()))
        return f"api-list:{self.kwargs['campaign_pk']}:{sha256(text.encode()).hexdigest()}"

    def respond_digested(
        self, request: Request, rows: str, build: Callable[[], Response]
    ) -> Response:
        """A list that changes without the stamp (``rows``: orders, battles, commitments),
        kept for its reader under the stamp and the digest of its rows, both read afresh
        by every request in one query (``campaign_stamp(rows=...)``, never the second-long
        kept stamp): an order given or a result entered is in the very next answer, the
        writer's own first of all. That query decides access too, before any cache.

        On a miss the answer is built inside one transaction that reads the stamp and its
        digest again, opens the campaign afresh and reads the rows, so what is kept under
        a digest is what the database held when it was read (on PostgreSQL in repeatable
        read: a write between the two would otherwise be kept under the digest of before,
        and answered again if the rows went back to it)."""
        campaign_id = row_id(self.kwargs["campaign_pk"])
        read = campaign_stamp(user=request.user, campaign_id=campaign_id, rows=rows)
        if read is None:
            raise NotFound("No such campaign.")
        if (kept := self.kept_answer(self.kept_key(request, digested_token(read)))) is not None:
            return kept
        with one_snapshot():
            read = campaign_stamp(user=request.user, campaign_id=campaign_id, rows=rows)
            if read is None:
                raise NotFound("No such campaign.")
            self.__dict__["campaign_view"] = self.open_view()
            response = build()
        self.keep_answer(self.kept_key(request, digested_token(read)), response)
        return response


# --- token ------------------------------------------------------------------------------------


class TokenView(ObtainAuthToken):
    """Trade a user name and password for an API token (the same one every time).

    The password is checked by ``authenticate`` with the request, so django-axes counts
    the failures and locks the account out after too many, as on the sign-in page."""

    throttle_classes = API_THROTTLES
    serializer_class = s.TokenCredentialsSerializer
    # ObtainAuthToken has its own (the stubs type the setting as the unimported names)
    # (djangorestframework-stubs 3.18.2 types it as the classes: no ignore needed there)
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment,unused-ignore]

    @extend_schema(
        operation_id="token_obtain",
        request=s.TokenRequestSerializer,
        responses={200: s.TokenSerializer, **s.error_responses(400, 429)},
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            if getattr(request, "axes_locked_out", False):
                return Response(
                    {"detail": "Too many failed sign-ins: this account is locked for a while."},
                    status=status.HTTP_429_TOO_MANY_REQUESTS,
                )
            raise ValidationError(serializer.errors)
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})

    @extend_schema(
        operation_id="token_revoke",
        request=None,
        responses={
            204: OpenApiResponse(description="Revoked: the token no longer opens the API."),
            **s.error_responses(401, 403, 429),
        },
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Revoke your API token (signed in by it, or by the session). The next
        ``POST /api/token/`` gives a new one. A new password revokes it too."""
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- campaigns --------------------------------------------------------------------------------


class CampaignOrdering(OrderingFilter):
    """The campaigns' ordering by ``next_deadline`` as the list shows it: a paused
    campaign's is ``null`` (its row keeps the one it had, which never comes), so it goes
    with the campaigns that show none (paused, no schedule, ended), after those with a
    deadline, in either direction: the soonest first (``-``: the latest first)."""

    def filter_queryset(self, request: Any, queryset: QuerySet, view: Any) -> QuerySet:
        ordering = self.get_ordering(request, queryset, view) or []
        terms: list[Any] = []
        for term in ordering:
            if term.lstrip("-") != "next_deadline":
                terms.append(term)
                continue
            shown = F("shown_deadline")
            terms.append(
                shown.desc(nulls_last=True) if term.startswith("-") else shown.asc(nulls_last=True)
            )
        return queryset.order_by(*terms)


class CampaignList(ApiView):
    queryset = Campaign.objects.none()
    filterset_class = CampaignFilter
    filter_backends = [CampaignFilterBackend, CampaignOrdering]
    ordering_fields = ["name", "id", "turn", "next_deadline"]
    ordering = ["name"]

    def get_queryset(self) -> QuerySet[Campaign]:
        # Each side's name in the same query (``<key>_name``), for why one ended.
        return campaigns_for(self.request.user).annotate(
            # The deadline the list shows, by which ``CampaignOrdering`` orders: none while
            # paused (``campaign_data``).
            shown_deadline=Case(
                When(status=Campaign.Status.PAUSED, then=Value(None)),
                default=F("next_deadline"),
                output_field=DateTimeField(),
            ),
            **{
                f"{key}_name": Subquery(
                    Side.objects.filter(campaign=OuterRef("pk"), key=key).values("name")[:1]
                )
                for key in SIDE_KEYS
            },
        )

    @extend_schema(
        operation_id="campaigns_list",
        responses={200: s.CampaignSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request) -> Response:
        """The campaigns you may open: those you play in (all of them for the game master)."""
        # Kept for the reader under the digest of every campaign they may open, read
        # afresh by each request (one query): a change to any of them is in the next answer.
        game_master = is_game_master(request.user)

        def key(digest: str) -> str:
            reader = (str(request.user.pk), str(game_master), request.get_host())
            text = "|".join((sha256(digest.encode()).hexdigest(), *reader, request.get_full_path()))
            return f"api-campaigns:{sha256(text.encode()).hexdigest()}"

        if (kept := self.kept_answer(key(campaigns_digest(request.user)))) is not None:
            return kept
        with one_snapshot():  # kept under the digest read with its rows (respond_digested)
            digest = campaigns_digest(request.user)
            sides = sides_of(request.user) if not game_master else {}
            response = self.respond_list(
                self.get_queryset(),
                lambda row: s.campaign_data(
                    row, side=sides.get(row.pk), game_master=game_master, names=_side_names(row)
                ),
            )
        self.keep_answer(key(digest), response)
        return response


def _side_names(row: Any) -> dict[str, str]:
    """Each side's name by its key, from a row of ``CampaignList.get_queryset``."""
    return {key: name for key in SIDE_KEYS if (name := getattr(row, f"{key}_name", None))}


class CampaignDetail(CampaignScoped):
    @extend_schema(
        operation_id="campaigns_retrieve",
        parameters=[CAMPAIGN_PK],
        responses={200: s.CampaignDetailSerializer, **DETAIL_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int) -> Response:
        """A campaign: its turn, status, deadline, winner, your side, its sides, ships and
        air groups (public to every side)."""
        return Response(s.campaign_detail_data(self.campaign_view))


# --- areas ------------------------------------------------------------------------------------


class AreaList(CampaignScoped):
    queryset = Area.objects.none()
    filterset_class = AreaFilter
    ordering_fields = ["name", "zone", "id"]
    ordering = ["zone", "name"]

    def get_queryset(self) -> QuerySet[Area]:
        if self.fake():
            return Area.objects.none()
        # The map is public under the fog-of-war rules: only the names come from the rows,
        # everything said about an area comes from the view's snapshot.
        return Area.objects.filter(campaign=self.campaign_view.campaign).only("id", "name")

    @extend_schema(
        operation_id="areas_list",
        parameters=[CAMPAIGN_PK],
        responses={200: s.AreaSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int) -> Response:
        """The areas of the map, with their controller and the areas linked to them."""

        def build() -> Response:
            view = self.campaign_view
            return self.respond_list(self.get_queryset(), lambda row: s.area_data(view, row.name))

        return self.respond_kept(request, build)


class AreaDetail(CampaignScoped):
    @extend_schema(
        operation_id="areas_retrieve",
        parameters=[CAMPAIGN_PK, PK],
        responses={200: s.AreaSerializer, **DETAIL_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """One area of the map."""
        view = self.campaign_view
        name = view.area_by_id(row_id(pk))
        if name is None:
            raise NotFound("No such area in this campaign.")
        return Response(s.area_data(view, name))


# --- companies --------------------------------------------------------------------------------


class CompanyOrdering(OrderingFilter):
    """The companies' ordering, which must not tell a glimpse's name or id: ``name`` and
    ``id`` order the companies seen in full, glimpses first (``-``: last) in the order
    of their handles; ties, whatever the field, in the view's order (by name for those
    seen in full, by handle for glimpses), never by the rows' ids."""

    SAFE = {"name": "name_rank", "id": "id_rank"}

    def filter_queryset(self, request: Any, queryset: QuerySet, view: Any) -> QuerySet:
        ordering = self.get_ordering(request, queryset, view) or []
        safe = []
        for term in ordering:
            field = term.lstrip("-")
            safe.append(term[: len(term) - len(field)] + self.SAFE.get(field, field))
        return queryset.order_by(*safe)


class CompanyList(CampaignScoped):
    queryset = Company.objects.none()
    filterset_class = CompanyFilter
    filter_backends = [CampaignFilterBackend, CompanyOrdering]
    # Only what a glimpse shows too; never stands, strength, quality or supply.
    ordering_fields = ["name", "side", "kind", "area__name", "id"]
    ordering = ["side", "name"]
    tie_break = "view_rank"

    def get_queryset(self) -> QuerySet[Company]:
        if self.fake():
            return Company.objects.none()
        # The rows the view shows, and no other: hidden enemies are not even counted. Only
        # the id is read from the row; what is said of a company comes from its view. A
        # glimpse's name and id order nothing (``CompanyOrdering``): in their place, its
        # rank in the view (ordered by what is seen of it).
        view = self.campaign_view
        listed = view.listed()
        glimpses = [pk for pk, shown in listed if not shown.full]
        ranks = [When(pk=pk, then=Value(rank)) for rank, (pk, _) in enumerate(listed)]
        return (
            Company.objects.filter(campaign=view.campaign, pk__in=[pk for pk, _ in listed])
            .annotate(
                view_rank=Case(*ranks, default=Value(0), output_field=IntegerField()),
                name_rank=Case(
                    When(pk__in=glimpses, then=Value("")),
                    default=F("name"),
                    output_field=CharField(),
                ),
                id_rank=Case(
                    When(pk__in=glimpses, then=Value(0)),
                    default=F("id"),
                    output_field=IntegerField(),
                ),
            )
            .only("id")
        )

    @extend_schema(
        operation_id="companies_list",
        parameters=[CAMPAIGN_PK],
        responses={200: s.CompanySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int) -> Response:
        """The companies you may see: your own in full, enemies in sight as a glimpse
        (its handle, side, kind, area, strength band; no name, no id), none of the
        others."""

        def build() -> Response:
            view = self.campaign_view
            by_pk = dict(view.listed())
            return self.respond_list(
                self.get_queryset(),
                lambda row: s.company_data(view, by_pk[row.pk], played=self.stamp.played_sides),
            )

        return self.respond_kept(request, build)


class CompanyDetail(CampaignScoped):
    @extend_schema(
        operation_id="companies_retrieve",
        parameters=[CAMPAIGN_PK, PK],
        responses={200: s.CompanySerializer, **DETAIL_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """One company you see in full (your own); a glimpsed enemy is not found by its
        id, like one out of sight: read it by its handle (``glimpses/{handle}/``)."""
        view = self.campaign_view
        company = view.company_by_id(row_id(pk))
        if company is None:
            raise NotFound("No such company in sight.")
        return Response(s.company_data(view, company, played=self.stamp.played_sides))


GLIMPSE = OpenApiParameter(
    "handle",
    str,
    OpenApiParameter.PATH,
    description='A glimpse\'s handle, as the company list gives it ("3-2").',
)


class GlimpseDetail(CampaignScoped):
    @extend_schema(
        operation_id="glimpses_retrieve",
        parameters=[CAMPAIGN_PK, GLIMPSE],
        responses={200: s.CompanySerializer, **DETAIL_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int, handle: str) -> Response:
        """An enemy company in sight (a glimpse), by its handle; a handle of an earlier
        turn, like any other, is not found."""
        view = self.campaign_view
        company = view.glimpse(handle)
        if company is None:
            raise NotFound("No such company in sight.")
        return Response(s.company_data(view, company, played=self.stamp.played_sides))


# --- turns ------------------------------------------------------------------------------------


class TurnList(CampaignScoped):
    queryset = Turn.objects.none()
    filterset_class = TurnFilter
    ordering_fields = ["number"]
    ordering = ["number"]

    def get_queryset(self) -> QuerySet[Turn]:
        if self.fake():
            return Turn.objects.none()
        return Turn.objects.filter(campaign=self.campaign_view.campaign).only(
            "id", "number", "status", "created_at", "finished_at"
        )

    @extend_schema(
        operation_id="turns_list",
        parameters=[CAMPAIGN_PK],
        responses={200: s.TurnSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int) -> Response:
        """The campaign's turns (their rolls: one turn's detail)."""

        def build() -> Response:
            self.campaign_view  # noqa: B018 - a stranger gets 404 before anything is read
            return self.respond_list(self.get_queryset(), s.turn_data)

        return self.respond_kept(request, build)


class TurnDetail(CampaignScoped):
    @extend_schema(
        operation_id="turns_retrieve",
        parameters=[CAMPAIGN_PK, NUMBER],
        responses={200: s.TurnDetailSerializer, **DETAIL_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int, number: int) -> Response:
        """A turn with every roll you may read: the public phases, your side's rolls and
        those of the battles your side fought; the enemy's supply rolls and moves are left
        out."""
        view = self.campaign_view
        turn = (
            Turn.objects.filter(campaign=view.campaign, number=row_id(number))
            .defer("start_state", "report", "report_text")
            .first()
        )
        if turn is None:
            raise NotFound("No such turn.")
        return Response(s.turn_detail_data(view, turn))


class TurnFile(CampaignScoped):
    queryset = Turn.objects.none()  # for the browsable API; the turn is read below

    @extend_schema(
        operation_id="turns_file",
        parameters=[CAMPAIGN_PK, NUMBER],
        responses={200: s.TurnFileSerializer, **DETAIL_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int, number: int) -> Response:
        """TURN.json of a played turn, as your side may see it: its commitment, the seeds
        and salts shown to your side, your orders, the rolls and battles you may read.
        Check it offline with ``python -m rules verify TURN.json`` (docs/campaign.md)."""
        view = self.campaign_view
        turn = Turn.objects.filter(campaign=view.campaign, number=row_id(number)).first()
        if turn is None:
            raise NotFound("No such turn.")
        try:
            return Response(commitments.turn_file(view, turn))
        except commitments.NotVerifiable as missing:
            raise NotFound(str(missing)) from None


class CommitmentList(CampaignScoped):
    # Every turn's, oldest first, through the CampaignView; the empty queryset is for the
    # browsable API's filter form, which asks every list view for one.
    queryset = SeedCommitment.objects.none()
    filter_backends: list[Any] = []

    @extend_schema(
        operation_id="commitments_list",
        parameters=[CAMPAIGN_PK],
        responses={200: s.CommitmentSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int) -> Response:
        """Each turn's dice commitment, the coming turn's included (published before its
        orders open); a played turn's with the seeds and salts your side may see."""

        def build() -> Response:
            rows = self.paginate_queryset(commitments.commitments_for(self.campaign_view))
            assert rows is not None, "every API list is paginated"
            return self.get_paginated_response([row.data() for row in rows])

        return self.respond_digested(request, "commitments", build)


class AdjustmentList(CampaignScoped):
    # A list read through the CampaignView, oldest first; the empty queryset is for the
    # browsable API's filter form, which asks every list view for one.
    queryset = GmAdjustment.objects.none()
    filter_backends: list[Any] = []

    @extend_schema(
        operation_id="adjustments_list",
        parameters=[CAMPAIGN_PK],
        responses={200: s.AdjustmentSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int) -> Response:
        """The game master's adjustments, the campaign's public log, each with its reason."""

        def build() -> Response:
            rows = self.paginate_queryset(self.campaign_view.adjustments())
            assert rows is not None, "every API list is paginated"
            return self.get_paginated_response([s.adjustment_data(row) for row in rows])

        return self.respond_kept(request, build)


# --- orders -----------------------------------------------------------------------------------


class OrderScoped(CampaignScoped):
    def coming_orders(self) -> QuerySet[Order]:
        """The orders the viewer may see (never the enemy's), for the coming turn."""
        return (
            self.campaign_view.orders()
            .filter(turn_number=self.read_turn())
            .select_related("company", "target", "given_by")
        )

    def target_area(self, target_id: int | None) -> Area | None:
        if target_id is None:
            return None
        view = self.campaign_view
        if view.area_by_id(target_id) is None:
            raise ValidationError({"target": [f"there is no area {target_id} in this campaign"]})
        return Area.objects.get(pk=target_id)

    @staticmethod
    def with_etag(response: Response, order: Order | None) -> Response:
        """The answer with the company's order as If-Match takes it back (``order_seen``),
        so a client echoes it."""
        response["ETag"] = f'"{order_seen(order)}"'
        return response

    def seen(self) -> str | None:
        """What the client saw of the company's order (``If-Match``, the orders page's
        ``seen``: ``"-"`` for none, else ``"withdraw:12.0"``, its kind, target and sniper);
        None without one, or ``*``: any order. Another order now is refused (412)."""
        given = self.request.headers.get("If-Match", "").strip()
        given = given.removeprefix("W/").strip('"')
        return None if given in ("", "*") else given

    def read_turn(self) -> int:
        """The turn whose orders this request read (``coming_orders``): its write is for
        that turn or refused (409, ``OrdersOutOfDate``), should a turn be played between
        the read and the write, which takes the campaign lock."""
        return self.campaign_view.campaign.turn + 1

    def check_stated_turn(self, data: Any) -> None:
        """Refuse (409, nothing changed) an order that names another turn than the coming
        one (``turn_number`` or ``turn``): it was not silently given for the coming turn.
        Checked before the rest of the order, as the orders page and an unknown target
        do: a bad ``kind`` for a turn since played answered "\"charge\" is not a valid
        choice." (400), and the client fixing it met the 409 next. A turn that is not a
        number (or two that differ) is left to the order's serializer to refuse (400)."""
        given = s.StatedTurn(data=data)
        if not given.is_valid():
            return
        stated = given.validated_data.get("turn_number")
        if stated is not None and stated != self.read_turn():
            raise OrderForAnotherTurn(stated=stated, coming=self.read_turn())

    def give(
        self, *, company: Company, kind: str, target: Area | None, sniper: bool = False
    ) -> Order:
        view = self.campaign_view
        order = give_order(  # an OrderError answers 400, 409 or 412 (campaign.api.errors)
            company=company,
            kind=kind,
            target=target,
            side=view.side,
            user=self.request.user,
            sniper=sniper,
            page_turn=self.read_turn(),
            seen=self.seen(),
        )
        return Order.objects.select_related("company", "target", "given_by").get(pk=order.pk)


class OrderList(OrderScoped):
    queryset = Order.objects.none()
    serializer_class = s.OrderCreateSerializer
    filterset_class = OrderFilter
    ordering_fields = ["id", "company__name", "created_at"]
    ordering = ["company__name"]

    def get_queryset(self) -> QuerySet[Order]:
        if self.fake():
            return Order.objects.none()
        return self.coming_orders()

    @extend_schema(
        operation_id="orders_list",
        parameters=[CAMPAIGN_PK],
        responses={200: s.OrderSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int) -> Response:
        """Your side's orders for the coming turn (the game master: every side's). A company with no
        order follows its standing order."""
        return self.respond_digested(
            request, "orders", lambda: self.respond_list(self.get_queryset(), s.order_data)
        )

    @extend_schema(
        operation_id="orders_create",
        parameters=[CAMPAIGN_PK, IF_MATCH, order_etag(200, 201)],
        request=s.OrderCreateSerializer,
        responses={
            201: OpenApiResponse(s.OrderSerializer, description="Order given."),
            200: OpenApiResponse(s.OrderSerializer, description="The company's order replaced."),
            **ORDER_WRITE_ERRORS,
        },
    )
    def post(self, request: Request, campaign_pk: int) -> Response:
        """Give a company its order for the coming turn (it replaces the one it had).

        An enemy company seen in full (fog of war off) is refused with 403; a glimpsed
        one is unknown by its id (400), like one out of sight."""
        view = self.campaign_view
        self.check_stated_turn(request.data)
        given = s.OrderCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        company_id = given.validated_data["company"]
        company = view.company_by_id(company_id)
        if company is None:
            raise ValidationError({"company": [f"there is no company {company_id} in sight"]})
        if not view.game_master and company.side != view.side:
            raise PermissionDenied(
                f"{company.name} belongs to the other side: you may not order it."
            )
        row = Company.objects.get(pk=company_id)
        target = self.target_area(given.validated_data.get("target"))
        replaced = Order.objects.filter(company=row, turn_number=self.read_turn()).exists()
        order = self.give(
            company=row,
            kind=given.validated_data["kind"],
            target=target,
            sniper=given.validated_data.get("sniper", False),
        )
        answer = Response(
            s.order_data(order), status=status.HTTP_200_OK if replaced else status.HTTP_201_CREATED
        )
        return self.with_etag(answer, order)


class OrderDetail(OrderScoped):
    queryset = Order.objects.none()
    serializer_class = s.OrderChangeSerializer

    def order(self, pk: int) -> Order:
        order = self.coming_orders().filter(pk=row_id(pk)).first()
        if order is None:
            raise NotFound("No such order.")
        return order

    def get_object(self) -> Order:
        """The order, for OPTIONS and the browsable API: as GET finds it, or a 404."""
        return self.order(self.kwargs["pk"])

    @extend_schema(
        operation_id="orders_retrieve",
        parameters=[CAMPAIGN_PK, PK, order_etag(200)],
        responses={200: s.OrderSerializer, **DETAIL_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """One of your side's orders for the coming turn."""
        order = self.order(pk)
        return self.with_etag(Response(s.order_data(order)), order)

    def change(self, request: Request, pk: int, *, partial: bool) -> Response:
        order = self.order(pk)
        self.check_stated_turn(request.data)
        given = s.OrderChangeSerializer(data=request.data, partial=partial)
        given.is_valid(raise_exception=True)
        kind = given.validated_data.get("kind", order.kind)
        if "target" in given.validated_data:
            target = self.target_area(given.validated_data["target"])
        else:
            target = None if kind == "hold" else order.target
        sniper = given.validated_data.get("sniper", order.sniper if partial else False)
        order = self.give(company=order.company, kind=kind, target=target, sniper=sniper)
        return self.with_etag(Response(s.order_data(order)), order)

    @extend_schema(
        operation_id="orders_update",
        parameters=[CAMPAIGN_PK, PK, IF_MATCH, order_etag(200)],
        request=s.OrderChangeSerializer,
        responses={200: s.OrderSerializer, **ORDER_WRITE_ERRORS},
    )
    def put(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """Change an order: its kind and target."""
        return self.change(request, pk, partial=False)

    @extend_schema(
        operation_id="orders_partial_update",
        parameters=[CAMPAIGN_PK, PK, IF_MATCH, order_etag(200)],
        request=s.OrderChangeSerializer,
        responses={200: s.OrderSerializer, **ORDER_WRITE_ERRORS},
    )
    def patch(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """Change an order's kind or target (kind hold drops the target)."""
        return self.change(request, pk, partial=True)

    @extend_schema(
        operation_id="orders_destroy",
        parameters=[CAMPAIGN_PK, PK, IF_MATCH, order_etag(204)],
        responses={
            204: OpenApiResponse(
                description="Withdrawn (with If-Match: also when it was withdrawn already)."
            ),
            **ORDER_WRITE_ERRORS,
        },
    )
    def delete(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """Withdraw an order: the company follows its standing order. With If-Match, an
        order already withdrawn (elsewhere, meanwhile) is answered as withdrawn: nothing
        changes; without it, it is not found (404)."""
        seen = self.seen()
        order = self.coming_orders().filter(pk=row_id(pk)).first()
        company = order.company if order is not None else None
        if company is None and seen is not None:
            company = self.own_company_of(pk)
        if company is None:
            raise NotFound("No such order.")
        # Refused: 400; 409 for a turn played since the read; 412 for an order changed
        # since If-Match (campaign.api.errors).
        withdraw_order(company=company, page_turn=self.read_turn(), seen=seen)
        return self.with_etag(Response(status=status.HTTP_204_NO_CONTENT), None)

    def own_company_of(self, pk: int) -> Company | None:
        """The company whose coming order's id ``pk`` is (``order_id``), when the viewer
        may order it; None for any other, seen or not, so the answer tells nothing."""
        company_id, turn = divmod(row_id(pk), ORDER_TURN_SPAN)
        view = self.campaign_view
        company = view.company_by_id(company_id)
        if turn != self.read_turn() or company is None:
            return None
        if not view.game_master and company.side != view.side:
            return None
        return Company.objects.get(pk=company_id)


# --- ready ------------------------------------------------------------------------------------


class Ready(CampaignScoped):
    serializer_class = s.ReadyRequestSerializer

    def ready_data(self, number: int) -> dict[str, Any]:
        view = self.campaign_view
        # Public (rulings section 6): every reader learns which sides are ready.
        ready = SideReady.objects.filter(campaign=view.campaign, turn_number=number)
        sides = ready.order_by("side").values_list("side", flat=True)
        return {"turn_number": number, "ready": list(sides)}

    @extend_schema(
        operation_id="ready_retrieve",
        parameters=[CAMPAIGN_PK],
        responses={200: s.ReadySerializer, **DETAIL_ERRORS},
    )
    def get(self, request: Request, campaign_pk: int) -> Response:
        """Which sides have marked their orders ready for the coming turn (public: the
        same answer for every reader, as on the orders page)."""
        return Response(self.ready_data(self.campaign_view.campaign.turn + 1))

    @extend_schema(
        operation_id="ready_create",
        parameters=[CAMPAIGN_PK],
        request=s.ReadyRequestSerializer,
        responses={200: s.ReadyResultSerializer, **WRITE_ERRORS, **s.error_responses(409)},
    )
    def post(self, request: Request, campaign_pk: int) -> Response:
        """Mark your side's orders ready for the coming turn; when every side is ready the
        turn is played at once. The game master names the side."""
        view = self.campaign_view
        given = s.ReadyRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        side = given.validated_data.get("side")
        if view.game_master:
            if side is None:
                raise ValidationError(
                    {"side": ["the game master must name the side that is ready"]}
                )
        elif side not in (None, view.side):
            raise PermissionDenied(f"you play {view.side}: you may not mark {side} ready")
        else:
            side = view.side
        stated = given.validated_data.get("turn_number")
        if stated is not None and stated != view.campaign.turn + 1:
            raise OrderForAnotherTurn(stated=stated, coming=view.campaign.turn + 1, ready=True)
        # Refused: 400; a turn played since this request read the coming one: 409 (the
        # ready would land on a turn the client never read, as an order would).
        due = mark_side_ready(
            campaign=view.campaign,
            side=side,
            user=request.user,
            page_turn=view.campaign.turn + 1,
        )
        number = Campaign.objects.values_list("turn", flat=True).get(pk=view.campaign.pk) + 1
        return Response({**self.ready_data(number), "turn_due": due})

    @extend_schema(
        operation_id="ready_destroy",
        parameters=[CAMPAIGN_PK],
        request=None,
        responses={200: s.UnreadyResultSerializer, **WRITE_ERRORS},
    )
    def delete(self, request: Request, campaign_pk: int) -> Response:
        """Take back your side's "ready" for the coming turn (the orders page's
        "Unready"): refused once every side is ready (the turn is then played at once),
        while a turn is played or waits for its tabletop battles, and once the campaign
        has ended. Ready is the players' word: the game master may not take it back."""
        view = self.campaign_view
        if view.game_master:
            raise PermissionDenied("ready is the players' word for their side")
        if view.side not in view.state.sides:
            raise PermissionDenied("a spectator has no side to mark ready or not")
        # Refused: 400 (campaign.api.errors).
        taken_back = unmark_ready(view=view, user=self.request.user)
        number = Campaign.objects.values_list("turn", flat=True).get(pk=view.campaign.pk) + 1
        return Response({**self.ready_data(number), "taken_back": taken_back})
