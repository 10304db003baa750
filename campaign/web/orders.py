"""The orders page: a side's companies, the orders each may be given (and why not the
others), the odds of its planned attacks, and the "ready" button.

Every request reads the campaign through a ``CampaignView`` and the planning service
(``campaign.services.planning``); no rule lives here. A company's row is a template
partial: with htmx, giving or taking back an order swaps that row (and the rows whose
planned battles it may change) in place; without it, a plain POST redirects back to the
page. The odds of a planned attack are fought off the request (workers, or a process
pool: ``campaign.services.odds``) and grow as their chunks come in: each area of "Planned
battles" polls ``order-area-odds`` until they are done, and its answer brings the odds of
the cards fighting there too (``areaodds``), every estimate read once an answer, so a
card and its battle's line agree; without JavaScript, a link reloads the page. Once
they are done, the page keeps up with the side's orders given elsewhere (another tab, a
teammate) by a slow poll, ``orders-watch``: 204 while the side's orders, which sides
are ready (the enemy's "ready" is public), what closes its orders (the deadline, a turn
begun) and the turn are as the page drew them; an order's and "ready"'s own answers bring
it the token they leave.
"""

from __future__ import annotations

from dataclasses import dataclass
from hashlib import sha256
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from battles.web.lists import readable_battles
from campaign.models import Campaign, Turn
from campaign.services import commitments, planning
from campaign.services.planning import (
    CompanyPlan,
    OddsProgress,
    OddsReader,
    ReadyRefused,
    SidePlan,
    SideRefused,
    plan_side,
)
from campaign.services.schedule import TurnRefused
from campaign.services.turns import OrderChangedMeanwhile, OrdersOutOfDate
from campaign.services.visibility import CampaignView, campaign_stamp
from campaign.web import areaodds, ending
from campaign.web.common import campaign_view, htmx, login_required, page_context
from campaign.web.maps import (
    map_stamp,
    poll_seconds,
    side_names_of,
    signed_in_or_sent_to_login,
    standing_words,
)
from campaign.web.supplyhelp import NextRoll, next_roll, supply_rules
from config.numbers import whole_number
from config.refusals import sentence
from rules.campaign.turn import OrderError
from rules.campaign.visibility import CompanyView

TEMPLATE = "campaign/orders.html"


def _orders_url(view: CampaignView, side: str, company_id: int | None = None) -> str:
    url = reverse("orders", args=[view.campaign.pk])
    if view.game_master:
        url += "?" + urlencode({"side": side})
    return url + (f"#company-{company_id}" if company_id else "")


def _own_company(view: CampaignView, company_id: int) -> CompanyView:
    """A company the viewer may plan for: its own side's (the GM: any). An enemy company,
    seen or not, is a 404 here: its orders and its odds are not the viewer's to know."""
    company = view.company_by_id(company_id)
    if company is None or not company.full or not (view.game_master or company.side == view.side):
        raise Http404("no such company of yours")
    return company


@dataclass(frozen=True, slots=True)
class Row:
    """What a company's row shows: its plan, the odds of its attack, an error."""

    plan: CompanyPlan
    progress: OddsProgress | None = None
    error: str | None = None
    oob: bool = False  # swapped out of band beside another row's answer
    next_roll: NextRoll | None = None  # its supply roll at the start of the coming turn
    meanwhile: bool = False  # the error: its order was changed since the page saw it
    standing: str = ""  # its standing order in words (``maps.standing_words``)
    side_played: bool = True  # a player plays its side (else the campaign AI does)

    @property
    def drawn(self) -> str:
        """What the card shows that an order given elsewhere may change (``orders-watch``)."""
        return areaodds.drawn_card(self.plan)


def _row(
    view: CampaignView,
    side: SidePlan,
    plan: CompanyPlan,
    odds: OddsReader,
    *,
    error: str | None = None,
    oob: bool = False,
    meanwhile: bool = False,
) -> Row:
    # The odds fought so far, from the cache (read once an answer, for the card and
    # "Planned battles" alike); those missing are sent off to be fought (workers or the
    # process pool): no battle is fought in a request.
    progress = None if plan.attack is None else odds.progress(plan.attack)
    # While a turn waits for its battles, its roll is made and the next one's waits on
    # where their results leave the company: no roll "as things stand" is true yet.
    roll = None if side.waiting is not None else next_roll(view, plan.company, side.turn_number)
    return Row(
        plan=plan,
        progress=progress,
        error=error,
        oob=oob,
        next_roll=roll,
        meanwhile=meanwhile,
        standing=_standing(view, side, plan),
        side_played=_played(view, side),
    )


def _played(view: CampaignView, side: SidePlan) -> bool:
    """Whether a player plays the side: a player's own always is; the GM reads it from
    ``side.players`` (read once for the page's ready box)."""
    return not view.game_master or side.players[side.side] > 0


def _standing(view: CampaignView, side: SidePlan, plan: CompanyPlan) -> str:
    """The card's standing order, in the words of the company's page: a player plays
    their own side, so a ``sensible`` company of it holds; the GM reads whether the
    company's side has a player (``side.players``, read once for the page's ready box)."""
    order = plan.company.standing_order
    if not view.game_master:
        return standing_words(order, played=True)
    return standing_words(order, played=_played(view, side), game_master=True)


def _context(
    view: CampaignView,
    plan: SidePlan,
    *,
    errors: dict[int, str] | None = None,
    ready_error: str | None = None,
    moved: OrdersOutOfDate | None = None,
    watch: str | None = None,
    meanwhile: int | None = None,
) -> dict[str, Any]:
    errors = errors or {}
    odds = OddsReader()  # each estimate read once, for its cards and its planned battle
    return page_context(
        view,
        plan=plan,
        odds_reader=odds,
        rows=[
            _row(
                view,
                plan,
                r,
                odds,
                error=errors.get(r.company_id),
                meanwhile=r.company_id == meanwhile,
            )
            for r in plan.companies
        ],
        supply_rules=supply_rules(view),
        ready_error=ready_error,
        side_query=urlencode({"side": plan.side}) if view.game_master else "",
        planned=areaodds.planned(view, plan, odds),  # every battle as the turn pairs it
        poll_seconds=poll_seconds(),
        watch=watch,  # the slow poll's address (the page's own GET; a form's answer: none)
        watch_seconds=watch_seconds(),
        **_moved_context(view, plan.side, moved, refused=moved is not None),
        commitment=commitments.commitment_of(view, plan.turn_number),
        under_way=_under_way(view, plan),
        # A turn waiting for its battles is the latest turn (none is played past one).
        length=ending.length_of(
            view.campaign,
            view.state.settings,
            None if plan.waiting is None else Turn.Status.BATTLES_PENDING,
        ),
        how_won=ending.how_won(view.state.settings, player=view.side in view.state.sides),
    )


def _under_way(view: CampaignView, plan: SidePlan) -> list[dict[str, Any]]:
    """The battles of the turn under way that the reader may read (the turn pages list
    the same), while it waits for them; else none, and no query."""
    if plan.waiting is None:
        return []
    return readable_battles(view, turn__number=plan.waiting)


def ready_context(
    view: CampaignView,
    plan: SidePlan,
    *,
    ready_error: str | None = None,
    watch: str | None = None,
) -> dict[str, Any]:
    """What the answer of "ready" and "unready" draws (``#ready_answer``): the ready box
    and the line below it, and the slow poll with its new token (``watch``: "ready" is in
    it). No card and no odds: the page's whole context read every planned battle's odds
    from the cache (and sent their missing chunks off) for an answer that shows none of
    them."""
    return page_context(
        view,
        plan=plan,
        ready_error=ready_error,
        side_query=urlencode({"side": plan.side}) if view.game_master else "",
        watch=watch,
        watch_seconds=watch_seconds(),
    )


# --- the side's orders given elsewhere: the page's slow poll ----------------------------------

WATCH_SECONDS = 25


def watch_seconds() -> int:
    """How often a page whose odds are done asks whether the side's orders changed
    (``KORONA_ORDERS_WATCH_SECONDS``, a setting so the browser tests can make it quick)."""
    return max(1, int(getattr(settings, "KORONA_ORDERS_WATCH_SECONDS", WATCH_SECONDS)))


def watch_token(read: dict[str, Any]) -> str:
    """The page's state as its slow poll compares it, from
    ``campaign_stamp(rows="orders-page")``: the coming turn; the digest of the reader's
    side's orders for it (the GM's: every side's) and of which sides are ready for it
    (every side's, as the ready box shows them: public, rulings section 6); and what
    closes its orders or says when: the campaign's status, its deadline and whether it
    has passed, the last turn begun and its status (a turn started, or waiting for its
    battles). Never an enemy's order, so it changes with nothing hidden from the side.
    One query decides it, and access too."""
    deadline = read["next_deadline"]
    closing = (
        read["status"],
        deadline.isoformat() if deadline else "",
        deadline is not None and deadline <= timezone.now(),
        read["last_turn"],
        read["last_turn_status"],
    )
    digest = sha256(f"{read['digest']}#{closing!r}".encode()).hexdigest()[:32]
    return f"{read['turn'] + 1}.{digest}"


def _read_token(request: HttpRequest, campaign_id: int) -> dict[str, Any] | None:
    """The stamp the slow poll's token is made of (``watch_token``), or None for a reader
    who may not open the campaign."""
    return campaign_stamp(user=request.user, campaign_id=campaign_id, rows="orders-page")


def fresh_watch(request: HttpRequest, view: CampaignView, side: str) -> str | None:
    """The slow poll's address with the token as things stand, for an answer that changed
    them (an order, "ready"): the page takes it (out of band), so its next poll is a 204
    rather than a full check that finds what the page already shows. Read before the
    answer reads what it draws: a change made in between makes the poll look again."""
    read = _read_token(request, view.campaign.pk)
    return _watch_url(view, side, watch_token(read)) if read else None


def _watch_url(view: CampaignView, side: str, token: str) -> str:
    query = {"seen": token, **({"side": side} if view.game_master else {})}
    return f"{reverse('orders-watch', args=[view.campaign.pk])}?{urlencode(query)}"


# --- a page left open while a turn is played --------------------------------------------------


def page_turn(request: HttpRequest) -> int | None:
    """The turn the posted form was drawn for (its ``turn`` field); None when the form
    does not say (a script's post). OrderError when it is not a turn number."""
    raw = request.POST.get("turn")
    if raw is None:
        return None
    number = whole_number(raw)
    if number is None or not 0 < number < 1_000_000:
        raise OrderError("this form's turn number was changed or lost: open the orders page again")
    return number


def _moved_context(
    view: CampaignView, side: str, moved: OrdersOutOfDate | None, *, refused: bool
) -> dict[str, Any]:
    """What the page's turn notice says: nothing while its turn is the coming one; once
    a turn has been played (or rolled back), that, and the link to the coming turn's."""
    if moved is None:
        return {"moved": None}
    played = moved.page_turn < moved.next_turn  # else rolled back: nothing to read
    campaign = view.campaign
    if played and campaign.status == Campaign.Status.FINISHED:
        return _ended_context(view, moved, refused=refused)
    return {
        "moved": str(moved),
        "moved_refused": refused,
        "moved_turn": moved.next_turn,
        "moved_from": moved.page_turn,
        "moved_url": _orders_url(view, side),
        # The played turn's page (the last one, when several were), to read what happened.
        "played_url": reverse("turn", args=[view.campaign.pk, moved.next_turn - 1])
        if played
        else None,
    }


def _ended_context(view: CampaignView, moved: OrdersOutOfDate, *, refused: bool) -> dict[str, Any]:
    """The turn notice of a page whose turn was played and ended the campaign: no turn
    comes (a solo walk-through read "orders now go to turn 5" and "Open the orders for
    turn 5" once the last turn was played), so it says so, who won and why, and links
    the last turn's page and the campaign's story."""
    last = moved.next_turn - 1
    played = (
        f"turn {moved.page_turn}, the last turn, and it has been played"
        if moved.page_turn == last
        else f"turn {moved.page_turn}, and turns {moved.page_turn} to {last} have been played"
    )
    campaign = view.campaign
    return {
        "moved": f"this page was for {played}: the campaign has ended",
        "moved_refused": refused,
        "moved_from": moved.page_turn,
        "moved_turn": moved.next_turn,
        "ended": ending.outcome(campaign, view.state.settings, side_names_of(view)),
        "story_url": reverse("story", args=[campaign.pk]),
        "played_url": reverse("turn", args=[campaign.pk, last]),
    }


def _out_of_date(
    request: HttpRequest, view: CampaignView, side: str, moved: OrdersOutOfDate
) -> HttpResponse:
    """A form from a page drawn for a turn that has passed: nothing was changed. htmx
    shows the page's turn notice (the rest of the page stays as the player saw it);
    without htmx, the page as it is now, with the notice on top."""
    view.campaign.refresh_from_db()
    if not htmx(request):
        context = _context(view, plan_side(view=view, side=side), moved=moved)
        return render(request, TEMPLATE, context, status=409)
    context = {
        "campaign": view.campaign,
        "stale_page": True,
        **_moved_context(view, side, moved, refused=True),
    }
    response = render(request, f"{TEMPLATE}#turn_watch", context, status=422)
    response["HX-Retarget"] = "#turn-watch"
    response["HX-Reswap"] = "outerHTML"
    return response


@signed_in_or_sent_to_login
@require_GET
def orders_turn(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The orders page's poll (``?turn=N``, the page's turn): 204 while turn N is still
    the coming one, else the notice that it has been played. One query (the map's
    stamp, which also decides access); the turn's number is all it tells."""
    stamp = map_stamp(user=request.user, campaign_id=campaign_id)
    if stamp is None:
        raise Http404("no such campaign")
    asked = whole_number(request.GET.get("turn", ""))
    if asked is None:
        return HttpResponseBadRequest("turn: a turn number", content_type="text/plain")
    if asked == stamp.turn + 1:
        return HttpResponse(status=204)
    return _turn_played(request, campaign_id, asked=asked, next_turn=stamp.turn + 1)


def _side_refused(refused: SideRefused) -> HttpResponse:
    """A poll asking for a side its reader may not plan: 403, or 400 for no such side."""
    answer = HttpResponseForbidden if refused.forbidden else HttpResponseBadRequest
    return answer(str(refused), content_type="text/plain")


@dataclass(frozen=True, slots=True)
class Planning:
    """The campaign as the reader sees it, and the side whose orders they plan."""

    view: CampaignView
    side: str


def _planning(
    request: HttpRequest, campaign_id: int, asked: str | None, *, page: bool = False
) -> Planning | HttpResponse:
    """The view, then the side planned (``asked``: ``?side=``, the GM's choice): the page
    and its polls open both alike, and refuse a side the reader may not plan alike
    (``_side_refused``); the answer is that refusal. Each view reads ``side`` from its
    query itself and passes it: the fog crawler (tests/fog/crawl.py) learns a view's
    query parameters from its own code, and crawls ``?side=`` for each. The page itself
    (``page``) answers a refusal with a page of the campaign, in words, with the way
    back; its polls with the bare reason."""
    view = campaign_view(request, campaign_id)
    try:
        return Planning(view, planning.planning_side(view=view, asked=asked))
    except SideRefused as refused:
        if page:
            return _refused_page(request, view, refused)
        return _side_refused(refused)


def _refused_page(request: HttpRequest, view: CampaignView, refused: SideRefused) -> HttpResponse:
    """The orders page a reader may not open: a spectator (who gives no orders), a player
    asking for the enemy's, or a side the campaign lacks."""
    spectator = view.side not in view.state.sides and not view.game_master
    words = (
        f"You follow {view.campaign.name} as a spectator: a spectator gives no orders. "
        "The map, the turns and the messages are yours to read."
        if spectator
        else sentence(refused)
    )
    return render(
        request,
        "campaign/orders_refused.html",
        page_context(view, words=words, own_orders=not spectator and not view.game_master),
        status=403 if refused.forbidden else 400,
    )


def _turn_played(
    request: HttpRequest, campaign_id: int, *, asked: int, next_turn: int
) -> HttpResponse:
    """The notice of a page whose turn has been played (or rolled back), for its polls:
    the turn's number is all it tells. It takes the page's forms, and its polls, off it."""
    opened = _planning(request, campaign_id, request.GET.get("side"))
    if isinstance(opened, HttpResponse):
        return opened
    view, side = opened.view, opened.side
    moved = OrdersOutOfDate(page_turn=asked, next_turn=next_turn)
    context = {
        "campaign": view.campaign,
        "stale_page": True,
        **_moved_context(view, side, moved, refused=False),
    }
    return render(request, f"{TEMPLATE}#turn_watch", context)


@signed_in_or_sent_to_login
@require_GET
def orders_watch(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The page's slow poll once its odds are done (``?seen=<token>``, its turn first, and
    the cards' ``drawn``): 204 while the turn, the side's orders and which sides are ready
    are as the page drew them (``watch_token``: one query, which also decides access).
    When they are not: the notice of a played turn, as the page's turn poll answers it;
    else the poll itself with the new token and, out of band, the ready box, the cards
    whose orders or battles changed and "Planned battles" when a battle did, as an area's
    poll follows them."""
    read = _read_token(request, campaign_id)
    if read is None:
        raise Http404("no such campaign")
    seen = request.GET.get("seen", "")
    asked = whole_number(seen.split(".", 1)[0])  # the page's turn: the token's first part
    if asked is None:
        return HttpResponseBadRequest("seen: the page's token", content_type="text/plain")
    token = watch_token(read)
    if asked != read["turn"] + 1:
        response = _turn_played(request, campaign_id, asked=asked, next_turn=read["turn"] + 1)
        response["HX-Retarget"] = "#turn-watch"  # where the page's turn poll puts it
        response["HX-Reswap"] = "outerHTML"
        return response
    if seen == token:
        return HttpResponse(status=204)
    opened = _planning(request, campaign_id, request.GET.get("side"))
    if isinstance(opened, HttpResponse):
        return opened
    view, side = opened.view, opened.side
    plan = plan_side(view=view, side=side)
    following = areaodds.cards_to_follow(plan, request.GET.getlist("drawn"))
    # Orders closed since the page was drawn (a turn started): every card again, formless.
    cards = {row.company_id for row in plan.companies} if plan.closed else following.cards
    odds = OddsReader()
    context = {
        **_follow_context(view, plan, odds, cards=cards, areas=following.areas),
        "watch": _watch_url(view, side, token),
        "watch_seconds": watch_seconds(),
        "planned_again": bool(following.areas) or plan.closed is not None,
    }
    return render(request, f"{TEMPLATE}#watched", context)


@login_required
@require_GET
def orders_page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    opened = _planning(request, campaign_id, request.GET.get("side"), page=True)
    if isinstance(opened, HttpResponse):
        return opened
    view, side = opened.view, opened.side
    # The slow poll's token is read before the orders the page draws: an order given in
    # between makes the poll look again, and is never missed.
    watch = fresh_watch(request, view, side)
    plan = plan_side(view=view, side=side)
    return render(request, TEMPLATE, _context(view, plan, watch=watch))


@login_required
@require_POST
def order_company(request: HttpRequest, campaign_id: int, company_id: int) -> HttpResponse:
    """Give or change (``action=give``, ``order=...``) or take back (``action=withdraw``)
    a company's order for the coming turn. ``seen``: what the card saw of the company's
    order (``order_seen``); when it has another now (another tab, a teammate), nothing
    changes and the card is drawn again as it stands, saying so (422)."""
    view = campaign_view(request, campaign_id)
    # An enemy company, glimpsed or not, is a 404 (a glimpse is not found by its id: the
    # answer must not tell which company it is); nothing changes.
    company = _own_company(view, company_id)
    before = plan_side(view=view, side=company.side) if htmx(request) else None
    action = request.POST.get("action", "give")
    seen = request.POST.get("seen")  # None: a script's post, which does not say
    error = None
    meanwhile = False
    try:
        turn = page_turn(request)
        if action == "withdraw":
            planning.take_back_order(view=view, company_id=company_id, page_turn=turn, seen=seen)
        elif action == "give":
            planning.order_company(
                view=view,
                company_id=company_id,
                choice=request.POST.get("order", ""),
                user=request.user,
                sniper=request.POST.get("sniper") == "on",
                page_turn=turn,
                seen=seen,
            )
        else:
            raise OrderError(
                "the form asked neither to give an order nor to take one back: "
                'press "Give order" or "Take back"'
            )
    except OrdersOutOfDate as moved:
        return _out_of_date(request, view, company.side, moved)
    except OrderError as refused:
        error = str(refused)
        meanwhile = isinstance(refused, OrderChangedMeanwhile)
    if error is None and not htmx(request):
        return HttpResponseRedirect(_orders_url(view, company.side, company_id))
    watch = fresh_watch(request, view, company.side)  # the page's, or the answer's (htmx)
    plan = plan_side(view=view, side=company.side)
    context = _context(
        view,
        plan,
        errors={company_id: error} if error else None,
        meanwhile=company_id if meanwhile else None,
        watch=watch,
    )
    status = 422 if error else 200
    if not htmx(request):
        return render(request, TEMPLATE, context, status=status)
    # The row itself, and out of band every other row whose planned battle the change may
    # have altered (an order into the same area joins or leaves its battle).
    changed = plan.company(company_id)
    if changed is None:  # its side's companies are the same rows before and after
        raise Http404("no such company of yours")
    odds = context["odds_reader"]  # the read the planned battles, drawn again with it, had
    context["row"] = _row(view, plan, changed, odds, error=error, meanwhile=meanwhile)
    touched = {
        r.order.target_id
        for r in (before.company(company_id) if before else None, changed)
        if r and r.order and r.order.target_id
    }
    # A company standing with the enemy in the area fights there with or without an order.
    context["others"] = [
        _row(view, plan, r, odds, oob=True)
        for r in plan.companies
        if r.company_id != company_id
        and (
            (r.order and r.order.target_id in touched)
            or (r.attack and r.attack.target_id in touched)
        )
    ]
    return render(request, f"{TEMPLATE}#row_response", context, status=status)


@login_required
@require_GET
def order_area_odds(request: HttpRequest, campaign_id: int, area_id: int) -> HttpResponse:
    """The poll of an area of "Planned battles": its odds so far, the missing battles sent
    off to be fought (htmx polls it until done), with the odds of every card fighting
    there; without htmx, back to the page, which reads them once for both places too.

    The poll names the cards the page drew fighting there (``cards``). When the battles
    there are no longer theirs (an order changed in another tab, or by a teammate: the
    battle gone, moved to another area, or joined by another company), the page is out
    of date: the answer draws "Planned battles" again in place of the whole section (so
    an area the battle moved to appears, and polls) and, out of band, the card of each
    company that left or joined, as it stands now, its odds with it."""
    opened = _planning(request, campaign_id, request.GET.get("side"))
    if isinstance(opened, HttpResponse):  # a side refused: no such area's odds for the reader
        raise Http404(opened.content.decode())
    view, side = opened.view, opened.side
    if not htmx(request):
        query = "?" + urlencode({"side": side}) if view.game_master else ""
        return HttpResponseRedirect(
            f"{reverse('orders', args=[campaign_id])}{query}#area-odds-{area_id}"
        )
    plan = plan_side(view=view, side=side)
    area = next((a for a in planning.planned_areas(plan) if a.area_id == area_id), None)
    now = areaodds.fighting_there(plan, area_id)
    shown = areaodds.shown_cards(request.GET.get("cards", ""))
    odds = OddsReader()  # one read of each estimate for the area and its cards
    if area is None or shown != set(now):
        return _followed(request, view, plan, odds, area_id=area_id, changed=shown ^ set(now))
    # The growing part, the chance for the area's live region (which stays, its contents
    # filled out of band), and out of band the cards of the companies fighting there.
    item = areaodds.area_odds(view, area, odds, companies=now)
    cards = [
        areaodds.Card(company_id=row.company_id, progress=odds.progress(row.attack))
        for row in plan.companies
        if row.attack is not None and row.attack.target_id == area_id
    ]
    context = page_context(view, side=side, item=item, cards=cards)
    return render(request, f"{areaodds.TEMPLATE}#poll", context)


def _followed(
    request: HttpRequest,
    view: CampaignView,
    plan: SidePlan,
    odds: OddsReader,
    *,
    area_id: int,
    changed: set[int] | frozenset[int],
) -> HttpResponse:
    """The poll's answer to a page whose cards no longer fight the battles it shows
    there: "Planned battles" as they stand (in place of the whole section), with a word
    where the area's battle went, and out of band the cards that left or joined it, and
    those fighting elsewhere (a battle a card moved to changed with it). The cards that
    still fight there get their odds out of band, as from any poll. ``changed`` names
    only the side's own companies that matter: any other id matches no row."""
    # Whole: those that left or joined; and those fighting in the other areas, whose
    # battles may have changed with them (the page's state there is not known).
    whole = set(changed) | {
        row.company_id
        for row in plan.companies
        if row.attack is not None and row.attack.target_id != area_id
    }
    context = _follow_context(view, plan, odds, cards=whole, areas={area_id})
    # Only their odds: those still fighting here (their cards show this battle).
    context["cards"] = [
        areaodds.Card(company_id=row.company_id, progress=odds.progress(row.attack))
        for row in plan.companies
        if row.attack is not None
        and row.attack.target_id == area_id
        and row.company_id not in whole
    ]
    response = render(request, f"{TEMPLATE}#followed", context)
    response["HX-Retarget"] = "#planned-battles"  # the poll asked for its area's growing part
    response["HX-Reswap"] = "outerHTML"
    return response


def _follow_context(
    view: CampaignView,
    plan: SidePlan,
    odds: OddsReader,
    *,
    cards: set[int] | frozenset[int],
    areas: set[int] | frozenset[int],
) -> dict[str, Any]:
    """What a page that no longer shows the side's orders as they stand draws again
    (an area's poll, the slow poll): "Planned battles" as they stand, with a word for
    each of ``areas`` (where the page showed a battle) that has none now, and ``cards``,
    the cards to draw again whole, out of band, each estimate read once (``odds``)."""
    planned = areaodds.planned(view, plan, odds)
    now = {item.plan.area_id for item in planned}
    # Where a battle went, in words (an area any member may name: the map is public).
    gone = sorted(name for pk in areas if pk not in now and (name := view.area_by_id(pk)))
    return page_context(
        view,
        plan=plan,
        planned=planned,
        gone_areas=gone,
        side_query=urlencode({"side": plan.side}) if view.game_master else "",
        others=[
            _row(view, plan, row, odds, oob=True)
            for row in plan.companies
            if row.company_id in cards
        ],
    )


@login_required
@require_POST
def ready(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Mark the player's side's orders ready for the coming turn."""
    view = campaign_view(request, campaign_id)
    error = None
    try:
        side = planning.planning_side(view=view, asked=request.GET.get("side"))
    except SideRefused:
        side = view.side or next(iter(view.state.sides))
    try:
        planning.mark_ready(view=view, page_turn=page_turn(request), user=request.user)
    except OrdersOutOfDate as moved:
        return _out_of_date(request, view, side, moved)
    except (ReadyRefused, TurnRefused, ValueError) as refused:
        error = str(refused)
    if error is None and not htmx(request):
        return HttpResponseRedirect(_orders_url(view, side) + "#ready")
    view.campaign.refresh_from_db()  # mark_side_ready may have brought the deadline on
    if not htmx(request):
        plan = plan_side(view=view, side=side)
        return render(request, TEMPLATE, _context(view, plan, ready_error=error), status=409)
    watch = fresh_watch(request, view, side)
    plan = plan_side(view=view, side=side)
    # The ready box, and the live region below it filled out of band (it stays in the page).
    context = ready_context(view, plan, ready_error=error, watch=watch)
    return render(request, f"{TEMPLATE}#ready_answer", context, status=422 if error else 200)


urlpatterns = [
    path("campaigns/<int:campaign_id>/orders/", orders_page, name="orders"),
    path(
        "campaigns/<int:campaign_id>/orders/area/<int:area_id>/odds/",
        order_area_odds,
        name="order-area-odds",
    ),
    path("campaigns/<int:campaign_id>/orders/ready/", ready, name="orders-ready"),
    path("campaigns/<int:campaign_id>/orders/turn/", orders_turn, name="orders-turn"),
    path("campaigns/<int:campaign_id>/orders/watch/", orders_watch, name="orders-watch"),
    path(
        "campaigns/<int:campaign_id>/orders/<int:company_id>/",
        order_company,
        name="order-company",
    ),
]
