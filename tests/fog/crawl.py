"""The crawler of the non-interference test: every URL of the URL conf, as one reader.

``url_patterns()`` walks ``get_resolver()`` recursively and gives every route with the
names of its path parameters. ``requests_for(ids)`` fills each route's parameters from
a campaign's real ids (``Ids``) and adds its variants: an htmx request
(``HX-Request: true``), the API's ``?format=json`` and ``?format=api``, and each known
query parameter with each value it can take. A route whose parameter the crawler cannot
fill fails the run (``UnfilledParameter``), so a new URL is crawled, or the test says
why not; nobody skips it silently.

``render_everything(user, ids)`` is "everything this reader can see": the answer to
each request (and, for an answer with an ETag, the answer to asking again with it: a
304), normalised only for what is per request by nature (the CSRF token, the session
cookie; the CSRF secret is the same in every crawl), plus whatever the registered
producers give (``PRODUCERS``: a producer is a function ``(user, ids) -> {label:
bytes}``; emails, webhooks and feeds add theirs with ``@producer``).
"""

from __future__ import annotations

import inspect
import re
import re._parser as sre_parse  # the regex parser, to read a route's alternatives
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import StringConverter
from django.urls.resolvers import RegexPattern, RoutePattern

# --- the URL conf ---------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """One URL pattern with the whole path to it."""

    parts: tuple[Any, ...]  # the RoutePattern / RegexPattern of each level
    callback: Any
    name: str | None

    @property
    def text(self) -> str:
        return "".join(str(part) for part in self.parts)

    @property
    def parameters(self) -> list[str]:
        names: list[str] = []
        for part in self.parts:
            if isinstance(part, RoutePattern):
                names += list(part.converters)
            elif isinstance(part, RegexPattern):
                names += list(part.regex.groupindex)
        return names

    @property
    def admin(self) -> bool:
        return self.text.startswith("admin/")

    @property
    def api(self) -> bool:
        return self.text.startswith("api/")

    @property
    def model(self) -> Any:
        """The model of an admin route (Django's admin marks its views with it)."""
        model_admin = getattr(self.callback, "model_admin", None)
        return getattr(model_admin, "model", None)

    def view_code(self) -> Any:
        """The view's class (DRF, class-based) or function, for its query parameters."""
        view = getattr(self.callback, "cls", None) or getattr(self.callback, "view_class", None)
        return view or inspect.unwrap(self.callback)


def url_patterns() -> list[Route]:
    """Every route of the URL conf, depth first, in the URL conf's order."""

    def walk(patterns: Iterable[Any], parts: tuple[Any, ...]) -> Iterator[Route]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, (*parts, pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield Route((*parts, pattern.pattern), pattern.callback, pattern.name)

    return list(walk(get_resolver().url_patterns, ()))


# --- filling parameters ---------------------------------------------------------------


class UnfilledParameter(LookupError):
    """A route has a path parameter the crawler does not know how to fill."""


@dataclass
class Ids:
    """The real ids of a campaign pair (the union of both twins'), to fill URLs from.

    ``tokens`` are the map's stamp token and the orders page's slow poll's token of the
    twin being crawled (the live polls answer 204 to them), so both the "nothing new"
    and the "new map" (or "new orders") answers are crawled."""

    campaign: int
    areas: list[int]
    companies: list[int]
    turns: list[int]  # turn numbers, and the coming turn
    battles: list[int]
    orders: list[int]
    sides: list[str]
    names: list[str]  # company names
    tokens: list[str] = field(default_factory=list)
    admin_ids: dict[str, list[str]] = field(default_factory=dict)  # model label -> pks
    viewer: Any = None  # the user crawling (for the routes that carry a user's token)


# Fillers for a path parameter that is not a campaign's id: (parameter, the start of the
# route, values for the reader). A new route's parameter goes here, or the crawl fails.
Filler = Callable[["Ids"], list[str]]
FILLERS: list[tuple[str, str, Filler]] = []


def filler(parameter: str, route_start: str) -> Callable[[Filler], Filler]:
    """Register the values of ``parameter`` in the routes that begin ``route_start``."""

    def register(function: Filler) -> Filler:
        FILLERS.append((parameter, route_start, function))
        return function

    return register


def _viewer_id(ids: Ids) -> list[str]:
    return [str(ids.viewer.pk)] if ids.viewer is not None else ["1"]


@filler("user_id", "feeds/")
def _feed_user(ids: Ids) -> list[str]:
    return _viewer_id(ids)


@filler("token", "feeds/")
def _feed_token(ids: Ids) -> list[str]:
    from notifications.feeds import feed_token

    return ([feed_token(ids.viewer)] if ids.viewer is not None else []) + ["not-a-token"]


@filler("token", "notices/unsubscribe/")
def _unsubscribe_token(ids: Ids) -> list[str]:
    from notifications.services import unsubscribe_token

    mine = [unsubscribe_token(ids.viewer, "all")] if ids.viewer is not None else []
    return mine + ["not-a-token"]


@filler("token", "invite/")
def _invitation_token(ids: Ids) -> list[str]:
    return ["no-such-invitation"]


@filler("uidb64", "accounts/password/reset/")
def _reset_uid(ids: Ids) -> list[str]:
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    return [urlsafe_base64_encode(force_bytes(pk)) for pk in _viewer_id(ids)]


@filler("token", "accounts/password/reset/")
def _reset_token(ids: Ids) -> list[str]:
    from django.contrib.auth.tokens import default_token_generator

    mine = [default_token_generator.make_token(ids.viewer)] if ids.viewer is not None else []
    return mine + ["set-password", "not-a-token"]


@filler("handle", "campaigns/")
@filler("handle", "api/campaigns/")
def _glimpse_handle(ids: Ids) -> list[str]:
    """A glimpse's handle is "<turns played>-<n>": those of now and of the turn before
    (stale: not found), a few of each, and one that is no handle at all."""
    played = max(ids.turns) - 2  # the turns, then the coming turn and the one after
    turns = sorted({max(played - 1, 0), played})
    return [f"{turn}-{n}" for turn in turns for n in range(1, 5)] + ["no-such-glimpse"]


PARENT_OF_PK = {
    "areas": "areas",
    "companies": "companies",
    "battles": "battles",
    "orders": "orders",
}


def _regex_choices(pattern: RegexPattern, name: str) -> list[str] | None:
    """The literal alternatives of a named group such as ``(?P<app_label>auth|campaign)``."""
    parsed = sre_parse.parse(pattern.regex.pattern)
    group = pattern.regex.groupindex[name]

    def find(items: Any) -> list[str] | None:
        for op, value in items:
            if op is sre_parse.SUBPATTERN and value[0] == group:
                body = value[-1]
                words: list[str] = []
                for sub_op, sub_value in body:
                    if sub_op is sre_parse.BRANCH:
                        for branch in sub_value[1]:
                            literal = "".join(chr(v) for o, v in branch if o is sre_parse.LITERAL)
                            if len(literal) != len(list(branch)):
                                return None
                            words.append(literal)
                        return words
                literal = "".join(chr(v) for o, v in body if o is sre_parse.LITERAL)
                return [literal] if len(literal) == len(list(body)) else None
            if op is sre_parse.SUBPATTERN:
                found = find(value[-1])
                if found is not None:
                    return found
        return None

    return find(parsed)


def _values(route: Route, part: Any, name: str, ids: Ids, before: str = "") -> list[str]:
    """Every value to try for one path parameter; ``UnfilledParameter`` if unknown."""
    if route.admin:
        # The admin refuses a non-staff reader before it reads any row: one real id of
        # the model (or a made-up one where the model has none) shows that refusal.
        label = route.model._meta.label_lower if route.model is not None else None
        if name == "pk" and isinstance(part.converters.get(name), StringConverter):
            # A row page's second route, for an id that is no number ("abc"): a real
            # id would be taken by its <int:pk> route first.
            return ["abc"]
        if name in ("object_id", "id", "pk"):
            return (ids.admin_ids.get(label or "") or ["1"])[:1]
        if name in ("content_type_id", "history_id"):
            return ["1"]
        if name == "app_label" and isinstance(part, RegexPattern):
            choices = _regex_choices(part, name)
            if choices:
                return choices
        if name == "url":
            return ["no-such-page/"]
        # Any other parameter of an admin view (the GM's own pages: a job, a token): the
        # admin refuses a non-staff reader before its view reads it.
        return ["1"]
    if name in ("campaign_id", "campaign_pk"):
        return [str(ids.campaign)]
    if name == "area_id":
        return [str(pk) for pk in ids.areas]
    if name == "company_id":
        return [str(pk) for pk in ids.companies]
    if name == "battle_id":
        return [str(pk) for pk in ids.battles]
    if name == "order_id":
        return [str(pk) for pk in ids.orders]
    if name in ("number", "turn", "turn_number"):
        return [str(n) for n in ids.turns]
    if name == "pk":
        # The collection the id is of: the literal segment before it.
        collection = PARENT_OF_PK.get(before.rstrip("/").rsplit("/", 1)[-1])
        if collection is not None:
            return [str(pk) for pk in getattr(ids, collection)]
    if name == "side":
        return ids.sides
    for parameter, start, values in FILLERS:
        if parameter == name and route.text.startswith(start):
            return values(ids)
    raise UnfilledParameter(f"route {route.text!r}: the crawler cannot fill {name!r}")


def fill(route: Route, ids: Ids) -> list[str]:
    """Every path of the route with its parameters filled (all combinations)."""
    paths = [""]
    for part in route.parts:
        if isinstance(part, RoutePattern):
            names = list(part.converters)
            text = str(part)
            pieces = re.split(r"<(?:[^>:]+:)?([^>]+)>", text)
            # pieces: literal, name, literal, name, ...
            options = [
                [pieces[0]],
                *(
                    [
                        value + pieces[i + 1]
                        for value in _values(route, part, pieces[i], ids, pieces[i - 1])
                    ]
                    if i % 2 == 1
                    else []
                    for i in range(1, len(pieces), 2)
                ),
            ]
            assert len(options) == len(names) + 1
        else:
            options = _regex_fill(route, part, ids)
        paths = [path + "".join(combo) for path in paths for combo in _product(options)]
    return ["/" + path for path in paths]


def _product(options: list[list[str]]) -> Iterator[tuple[str, ...]]:
    if not options:
        yield ()
        return
    first, rest = options[0], options[1:]
    for value in first:
        for tail in _product(rest):
            yield (value, *tail)


def _regex_fill(route: Route, part: RegexPattern, ids: Ids) -> list[list[str]]:
    """A regex route part as literal text with each named group filled."""
    source = part.regex.pattern.lstrip("^").rstrip("$").replace("\\Z", "")
    if source in (".*", "(.*)"):
        return [["no-such-thing/"]]  # a catch-all: anything that no other route takes
    groups = re.compile(r"\((\?P<([^>]+)>)?(?:[^()]|\([^()]*\))*\)")
    options: list[list[str]] = []
    at = unnamed = 0
    for found in groups.finditer(source):
        options.append([_literal(route, source[at : found.start()])])
        name = found.group(2)
        if name is None:
            # An unnamed group (simple-history's admin views): the row, then its version.
            if not route.admin:
                raise UnfilledParameter(f"route {route.text!r}: an unnamed group")
            name = "object_id" if unnamed == 0 else "history_id"
            unnamed += 1
        options.append(_values(route, part, name, ids, source[at : found.start()]))
        at = found.end()
    options.append([_literal(route, source[at:])])
    return options


def _literal(route: Route, text: str) -> str:
    if re.search(r"[\\\[\](){}*+?|]", text):
        raise UnfilledParameter(f"route {route.text!r}: a pattern the crawler cannot write")
    return text


# --- query parameters -----------------------------------------------------------------

# Where a view reads a query parameter in its code (pages and API alike).
QUERY_READ = re.compile(r"""(?:GET|query_params)\.get\(\s*["']([a-z_]+)["']""")


def query_parameters(route: Route) -> dict[str, str]:
    """The query parameters a route's view knows, with the kind of value each takes.

    From the view's own code (``request.GET.get("side")``), and for the API its
    filterset's filters, ``ordering`` and ``page``."""
    code = route.view_code()
    found: dict[str, str] = {}
    try:
        source = inspect.getsource(code)
    except (OSError, TypeError):
        source = ""
    for name in QUERY_READ.findall(source):
        found[name] = name
    filterset = getattr(code, "filterset_class", None)
    if filterset is not None:
        for name, flt in filterset.base_filters.items():
            found[name] = _filter_kind(name, flt)
    if getattr(code, "ordering_fields", None):
        found["ordering"] = "ordering"
    if route.api and ("respond_list" in source or "paginate_queryset" in source):
        found["page"] = "page"  # a list, paged
    found.pop("format", None)  # crawled as a variant of every API URL
    return found


def _filter_kind(name: str, flt: Any) -> str:
    kind = type(flt).__name__
    if kind == "BooleanFilter":
        return "boolean"
    if kind == "ChoiceFilter":
        return "choice"
    if name in ("area", "company", "turn", "zone"):
        return name
    return "text"


def query_values(route: Route, name: str, kind: str, ids: Ids) -> list[str]:
    code = route.view_code()
    if kind == "boolean":
        return ["true", "false"]
    if kind == "choice":
        flt = code.filterset_class.base_filters[name]
        return [str(value) for value, _ in flt.extra.get("choices", [])]
    if kind == "ordering":
        fields = list(code.ordering_fields)
        return fields + ["-" + f for f in fields]
    if kind == "page":
        return ["1", "2"]
    if kind == "area":
        return [str(pk) for pk in ids.areas]
    if kind == "company":
        return [str(pk) for pk in ids.companies]
    if kind in ("turn", "zone"):
        return [str(n) for n in range(1, 8)]
    if name == "side":
        return [*ids.sides, "nobody"]
    if name == "seen":
        return ["", *ids.tokens]
    if name == "cards":  # the orders page's poll: the cards it shows fighting in an area
        return ["", ",".join(str(pk) for pk in ids.companies)]
    if name in ("name", "name_contains"):
        return ids.names + ["Company"]
    if name in ("track", "vegetation", "mode"):
        return {
            "track": ["Korona track", "southern track"],
            "vegetation": ["jungle", "light", "clearing"],
            "mode": ["auto", "tabletop"],
        }[name]
    return ["1", "x"]


# --- requests -------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    label: str  # what the comparison names: "GET /path?x=y [htmx]"
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    method: str = "get"


def requests_for(ids: Ids, routes: list[Route] | None = None) -> list[Request]:
    """Every request of the crawl: each route filled, with its variants."""
    made: list[Request] = []
    for route in routes if routes is not None else url_patterns():
        params = query_parameters(route)
        for path in fill(route, ids):
            made.append(Request(f"GET {path}", path, {}, {}))
            if route.admin:
                continue
            if not route.api:
                # The pages' htmx answers (a partial where the view gives one).
                made.append(Request(f"GET {path} [htmx]", path, {}, {"HX-Request": "true"}))
            else:
                for fmt in ("json", "api"):
                    made.append(Request(f"GET {path}?format={fmt}", path, {"format": fmt}, {}))
                made.append(Request(f"OPTIONS {path}", path, {}, {}, method="options"))
            for name, kind in params.items():
                for value in query_values(route, name, kind, ids):
                    query = {name: value}
                    if route.api:
                        query["format"] = "json"
                    made.append(Request(f"GET {path}?{name}={value}", path, query, {}))
    return made


# --- normalising and rendering --------------------------------------------------------

# A CSRF token as Django writes it (masked afresh for every answer), wherever a page or
# the browsable API puts it: a form field, an htmx header, the Swagger UI's script.
CSRF_TOKEN = re.compile(rb"(?i)(csrf.{0,60}?)\b[A-Za-z0-9]{64}\b")


def normalise(body: bytes) -> bytes:
    """The answer without what is per request by nature: CSRF tokens (the session never
    appears in a body; cookies are not compared)."""
    return CSRF_TOKEN.sub(rb"\1<csrf>", body)


def normalise_commitments(
    seen: Mapping[str, bytes], digests: Mapping[str, str]
) -> dict[str, bytes]:
    """Every answer with each of the twin's own published commitment digests (the exact
    64-hex strings of its ``SeedCommitment`` rows) replaced by its placeholder, and
    nothing else: a commitment with a fresh random salt hides its seed, so twins that
    differ in a hidden seed may differ there and nowhere else (docs/pages.md)."""
    if not digests:
        return dict(seen)
    pattern = re.compile(b"|".join(re.escape(d.encode()) for d in sorted(digests)))
    marks = {d.encode(): p.encode() for d, p in digests.items()}
    return {label: pattern.sub(lambda m: marks[m.group()], body) for label, body in seen.items()}


def render(client: Client, request: Request) -> bytes:
    """Status, the headers a reader sees (not cookies or dates), the normalised body."""
    call = getattr(client, request.method)
    response = call(request.path, request.query, headers=request.headers)
    keep = []
    for header in sorted(response.headers):
        if header.lower() in ("set-cookie", "date", "expires"):
            continue
        keep.append(f"{header}: {response.headers[header]}")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    head = f"{response.status_code}\n" + "\n".join(keep) + "\n\n"
    return head.encode() + normalise(body)


CRAWL_CSRF_SECRET = "crawl" * 6 + "er"  # 32 letters, as Django's cookie holds
ETAG = re.compile(rb"^ETag: (.+)$", re.MULTILINE)


def etag_of(answer: bytes) -> str | None:
    """The ETag header of a rendered answer (``render``), if it has one."""
    head = answer.split(b"\n\n", 1)[0]
    found = ETAG.search(head)
    return found.group(1).decode() if found else None


Producer = Callable[[Any, Ids], dict[str, bytes]]
PRODUCERS: list[Producer] = []


def producer(function: Producer) -> Producer:
    """Register a producer of what a reader receives besides pages and API answers
    (an email, a webhook's body, a feed): ``(user, ids) -> {label: bytes}``."""
    PRODUCERS.append(function)
    return function


def render_everything(
    user: Any, ids: Ids, *, requests: list[Request] | None = None
) -> dict[str, bytes]:
    """Everything ``user`` can see of the campaign: every crawled answer, and every
    producer's output, by label."""
    # A server error is an answer like any other here (the same in both twins, or not).
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    # The browser's CSRF secret is per browser by nature, like its session: the same in
    # every crawl, so that what is derived from it (a page's ETag) can be compared.
    client.cookies[settings.CSRF_COOKIE_NAME] = CRAWL_CSRF_SECRET
    seen: dict[str, bytes] = {}
    for request in requests if requests is not None else requests_for(ids):
        seen[request.label] = answer = render(client, request)
        etag = etag_of(answer)
        if etag is not None and request.method == "get":
            # The browser asking again for the page it holds: the 304 path is crawled too.
            again = Request(
                f"{request.label} [revalidated]",
                request.path,
                request.query,
                {**request.headers, "If-None-Match": etag},
            )
            seen[again.label] = render(client, again)
    for make in PRODUCERS:
        for label, body in make(user, ids).items():
            seen[f"{make.__name__}: {label}"] = body
    return seen


def admin_ids(campaign_id: int) -> dict[str, list[str]]:
    """One real id of each model the admin shows, from the campaign where it has one."""
    found: dict[str, list[str]] = {}
    for model in apps.get_models():
        rows = model._default_manager.all()
        names = {f.name for f in model._meta.get_fields()}
        if "campaign" in names:
            rows = rows.filter(campaign_id=campaign_id)
        pk = rows.order_by("pk").values_list("pk", flat=True).first()
        if pk is not None:
            found[model._meta.label_lower] = [str(pk)]
    return found
