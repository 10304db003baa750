"""Notices: who is told what, in words each reader may read, sent once.

Each ``*_notices`` function below is called by a task (``notifications.tasks``) once
the change it tells of has committed. For every recipient it

1. skips one already told (a ``Notice`` row under the same key, not failed) or one who
   does not want it (``Preference``);
2. writes the notice for that reader alone, reading the campaign through the fog of
   war's one door (``campaign.services.visibility``): a player gets what their side may
   know, the group's webhook only what is public to both sides;
3. records it (the unique key: recipient, kind, campaign, turn, reference) and only then
   sends it. A second delivery of the task, a second scheduler: the insert fails on the
   key and nothing is sent again. (A turn played again after a roll-back is a new turn
   row, so its notices are sent again: what the players were told of it is undone.)

A send that raises (the mail server, the webhook) is kept ``failed`` with the reason;
``retry_failed`` sends those again, a few times, from the words recorded.
"""

from __future__ import annotations

import json
import logging
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import F, Model, OuterRef, QuerySet, Subquery
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle
from battles.web.forces import battle_words
from battles.web.lists import (
    battle_pieces,
    battle_reasons,
    battle_records,
    battle_shares,
    battle_withdrawals,
    readable_battles,
)
from campaign.models import (
    PLAYED_EVENT_TABLES,
    SPECTATOR,
    Campaign,
    GmAdjustment,
    Membership,
    SideReady,
    Turn,
)
from campaign.services.adjustments import CORRECTION
from campaign.services.commitments import announcement
from campaign.services.deadlines import (
    Schedule,
    moment_words,
    reminder_lead,
    schedule_news,
    schedule_of_json,
    unentered_words,
)
from campaign.services.prepared import PreparedObjects, PreparedRead
from campaign.services.schedule import play_of_side
from campaign.services.turns import played_sides
from campaign.services.visibility import (
    CampaignView,
    during_turn,
    open_campaign,
    open_campaign_as_side,
    when_made,
)
from campaign.settings_doc import adjustment_what, changed_names
from campaign.web import ending, turnlog
from campaign.web.maps import MapStamp, next_turn
from notifications.models import OPTIONAL_KINDS, Kind, Notice, Preference, Webhook

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "korona.notifications.unsubscribe"
MAX_ATTEMPTS = 5
WEBHOOK_TIMEOUT = 10  # seconds
DISCORD_LIMIT = 2000  # characters of a Discord message's content


@dataclass(frozen=True, slots=True)
class Words:
    subject: str
    body: str


# --- links and preferences ----------------------------------------------------------------


def absolute(path: str) -> str:
    return settings.KORONA_SITE_URL.rstrip("/") + path


def unsubscribe_token(user: Any, kind: str) -> str:
    """A signed token that turns one kind of email (or ``all``) off for one user."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object({"u": user.pk, "k": kind})


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """(user id, kind) of a token; ``signing.BadSignature`` if it was not made here."""
    data = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    kind = data.get("k") if isinstance(data, dict) else None
    user_id = data.get("u") if isinstance(data, dict) else None
    if kind not in (*OPTIONAL_KINDS, "all") or not isinstance(user_id, int):
        raise signing.BadSignature("not an unsubscribe token")
    return user_id, kind


def unsubscribe_url(user: Any, kind: str) -> str:
    return absolute(reverse("unsubscribe", args=[unsubscribe_token(user, kind)]))


def preference_of(user: Any) -> Preference:
    """The user's preferences (the defaults, unsaved, when they never set any)."""
    found = Preference.objects.filter(user=user).first()
    return found if found is not None else Preference(user=user)


def unsubscribe(*, user_id: int, kind: str) -> Preference:
    """Turn one kind of email off (``all``: every email) for the user."""
    preference, _ = Preference.objects.get_or_create(user_id=user_id)
    if kind == "all":
        preference.email = False
    else:
        setattr(preference, kind, False)
    preference.save()
    return preference


# --- the words of each notice -------------------------------------------------------------


def _side_names(view: CampaignView) -> dict[str, str]:
    return {key: side.name for key, side in view.state.sides.items()}


def _deadline_line(campaign: Campaign, zone: str, side: str | None = None) -> str:
    """When the next turn is played, for the player of ``side`` (None: a reader of every
    side, the group's channel), as the campaign stands when the notice is written: the
    map's line (``campaign.web.maps.next_turn``), in solo terms to a player of the one
    side a player plays, the AI the rest ("you or a teammate" when others play that side
    too). A notice may go out after the campaign has moved on (a queue behind, the GM's
    next turn begun at once): a turn under way or waiting for its battles, or a pause,
    has no deadline, and the "no deadline" words ("Turn 2 is played once every side is
    ready") were wrong of each."""
    if campaign.status == Campaign.Status.FINISHED:
        return ""
    last = (
        Turn.objects.filter(campaign=campaign)
        .order_by("-number")
        .values_list("number", "status")
        .first()
    )
    play = play_of_side(campaign, side)
    stamp = MapStamp(
        turn=campaign.turn,
        status=campaign.status,
        next_deadline=campaign.next_deadline,
        last_turn=last[0] if last else None,
        last_turn_status=last[1] if last else None,
        last_adjustment=None,
        side=side,
        solo=play.solo,
        teammates=play.teammates,
        played=",".join(sorted(played_sides(campaign))),
    )
    coming = next_turn(campaign, stamp)
    if coming.state == "deadline" and campaign.next_deadline is not None:
        when = moment_words(campaign.next_deadline, zone)
        if side == SPECTATOR:  # who gives no orders (the walk of 7 December 2026)
            return f"Turn {campaign.turn + 1} is played by {when}."
        return f"Orders for turn {campaign.turn + 1} are due by {when}."
    return coming.words


def nothing_seen(side: str | None) -> str:
    """A turn's summary with nothing in it, to its reader: a spectator has no side (the
    turns page's words to them)."""
    if side == SPECTATOR:
        return "Nothing a spectator sees happened in this turn."
    return "Nothing your side could see happened."


def turn_words(view: CampaignView, turn: Turn, *, zone: str | None = None) -> Words:
    """A turn played, as the view's reader may read it (the turns page's summary); its
    deadline on ``zone``'s clock (None: the campaign's, as its pages give it)."""
    campaign = view.campaign
    names = _side_names(view)
    readable = readable_battles(view, turn=turn)
    lines = turnlog.turn_summary(
        view.records(turn.log, number=turn.number),
        names,
        battle_reasons(readable),
        battle_withdrawals(readable),
        battle_pieces(readable),
        tables=turnlog.played_tables(_with_played_tables(turn), view.state.settings),
        shares=battle_shares(readable),
    )
    side_name = names.get(view.side or "")
    plays = side_name is not None
    seen_as = f" As the {side_name} saw it:" if plays else ""
    body = [f"Turn {turn.number} of {campaign.name} has been played.{seen_as}", ""]
    body += [f"- {line}" for line in lines] or [f"- {nothing_seen(view.side)}"]
    body += ["", f"Every roll: {absolute(reverse('turn', args=[campaign.pk, turn.number]))}"]
    deadline = _deadline_line(campaign, zone or campaign.timezone, view.side)
    if deadline:
        # A spectator gives no orders (the orders page refuses them): the map instead.
        link = (
            f"Orders: {absolute(reverse('orders', args=[campaign.pk]))}"
            if plays
            else f"The map: {absolute(reverse('campaign-map', args=[campaign.pk]))}"
        )
        body += [deadline, link]
    body += _commitment_lines(campaign)
    return Words(f"[{campaign.name}] Turn {turn.number} played", "\n".join(body))


def _commitment_lines(campaign: Campaign) -> list[str]:
    """The coming turn's dice commitment (a hash: safe for every reader), to check the
    turn against once it is played (docs/campaign.md, "Verifying a turn")."""
    line = announcement(campaign=campaign)
    return [line] if line else []


def end_words(view: CampaignView) -> Words:
    """The campaign's end: the winner and why, in the pages' words from its end causes
    (``campaign.web.ending.outcome``, never the engine's English); nothing is hidden once
    it has ended."""
    campaign = view.campaign
    names = _side_names(view)
    winner = names.get(campaign.winner or view.state.winner or "", "nobody")
    body = [
        ending.ended(campaign, view.state.settings, names),
        "",
        f"The story of the campaign: {absolute(reverse('story', args=[campaign.pk]))}",
        f"Every turn: {absolute(reverse('turns', args=[campaign.pk]))}",
    ]
    return Words(f"[{campaign.name}] The campaign has ended: {winner} won", "\n".join(body))


def _due_on_the_admins_clock(moment: datetime, campaign: Campaign, zone: str) -> str:
    """A battle's due time as the GM's admin gives it, on the campaign's clock ("Wed 9 Dec
    2026, 07:38 AEDT"), and on the GM's own (``zone``, their notice settings' time zone)
    in brackets when it reads otherwise: the GM finds the battle in the admin by the
    first, and knows their own evening by the second."""
    on_clock = moment_words(moment, campaign.timezone)
    own = moment_words(moment, zone)
    return on_clock if own == on_clock else f"{on_clock} (your time: {own})"


def battles_waiting_words(
    campaign: Campaign, turn: Turn, battles: list[Battle], *, zone: str | None = None
) -> Words:
    """To the GM: the turn waits for these tabletop results, each wanted by its deadline on
    the campaign's clock as the admin shows it, the GM's own (``zone``; None: they chose
    none) beside it when it differs (``_due_on_the_admins_clock``)."""
    zone = zone or campaign.timezone
    lines = [
        f"Turn {turn.number} of {campaign.name} waits for {len(battles)} tabletop "
        f"battle{'s' if len(battles) != 1 else ''}:",
        "",
    ]
    for battle in battles:
        due = (
            f", wanted by {_due_on_the_admins_clock(battle.deadline, campaign, zone)}"
            if battle.deadline
            else ""
        )
        lines.append(f"- {battle_words(battle)}{due}")
        lines.append(
            "  enter the result: "
            + absolute(reverse("admin:battles_battle_change", args=[battle.pk]))
        )
    if any(battle.deadline for battle in battles):
        # What the campaign's setting does then, as the battles' pages say it.
        unentered = unentered_words(
            campaign.get_settings().unentered_tabletop,
            gm=True,
            paused=campaign.status == Campaign.Status.PAUSED,
        )
        lines += ["", f"{unentered[0].upper()}{unentered[1:]}."]
    return Words(f"[{campaign.name}] Turn {turn.number}: battles wait for you", "\n".join(lines))


def table_battle_words(view: CampaignView, turn: Turn, *, zone: str | None = None) -> Words | None:
    """To a player: their side's battles of ``turn`` waiting to be fought on the table,
    each as their side reads it on the campaign's list of battles (``readable_battles``,
    who fought from the battle's own record through ``view.records``: section 6), its
    due time on ``zone``'s clock (None: the campaign's) and its battle sheet. None when
    their side has none (a spectator, the GM). Until the walk of 7 December 2026 only the
    GM was told: a player whose company fought at the table heard nothing until the turn
    was played."""
    campaign = view.campaign
    mine = [
        row
        for row in readable_battles(view, turn=turn)
        if row["status"] == Battle.Status.PENDING
        and row["mode"] == "tabletop"
        and view.side in (row["attacker_side"], row["defender_side"])
    ]
    if not mine:
        return None
    zone = zone or campaign.timezone
    _, records = battle_records(view, [turn.pk], {row["key"] for row in mine})
    reading = turnlog.Reading(_side_names(view)).with_records(records)
    # What the campaign's setting does with a result not entered by then, as the battles'
    # pages and the GM's email say it.
    unentered = unentered_words(
        campaign.get_settings().unentered_tabletop,
        paused=campaign.status == Campaign.Status.PAUSED,
    )
    body = [
        f"Turn {turn.number} of {campaign.name} waits for its battles at the table: the game "
        f"master enters each result. Orders for turn {turn.number + 1} open when the game "
        "master has entered the results.",
        "",
    ]
    for row in mine:
        attack = turnlog.attack_words(
            {k: row[k] for k in ("attacker_side", "defender_side")} | {"battle": row["key"]},
            reading,
        )
        due = (
            f", wanted by {moment_words(row['deadline'], zone)}: {unentered}"
            if row["deadline"]
            else ""
        )
        body += [
            f"- {row['label']}: {attack}.",
            f"  Still to be fought on the table: the game master enters its result{due}.",
            "  The battle sheet: "
            + absolute(reverse("battle-sheet", args=[campaign.pk, row["id"]])),
        ]
    body += ["", f"The turn so far: {absolute(reverse('turn', args=[campaign.pk, turn.number]))}"]
    subject = (
        f"Your battle at {mine[0]['label']} waits for the table"
        if len(mine) == 1
        else f"Your {len(mine)} battles wait for the table"
    )
    return Words(f"[{campaign.name}] {subject}", "\n".join(body))


def deadline_words(campaign: Campaign, zone: str | None = None) -> Words:
    """The reminder before a deadline, on ``zone``'s clock (None: the campaign's)."""
    zone = zone or campaign.timezone
    number = campaign.turn + 1
    when = moment_words(campaign.next_deadline, zone) if campaign.next_deadline else "soon"
    body = [
        f"Orders for turn {number} of {campaign.name} are due by {when}.",
        "Your side has not marked its orders ready; a company with no order follows its "
        "standing order.",
        "",
        f"Orders: {absolute(reverse('orders', args=[campaign.pk]))}",
    ]
    return Words(f"[{campaign.name}] Turn {number}: orders due {when}", "\n".join(body))


def adjustment_words(view: CampaignView, adjustment_id: int) -> Words | None:
    """A GM adjustment, with enemy numbers withheld as on the public log."""
    ids = list(
        GmAdjustment.objects.filter(campaign=view.campaign)
        .order_by("id")
        .values_list("id", flat=True)
    )
    shown = dict(zip(ids, view.adjustments(), strict=True))
    row = shown.get(adjustment_id)
    if row is None:
        return None
    body = [
        f"The game master changed {view.campaign.name} {row.when_in_campaign}"
        + (f" (it counts from turn {row.during_turn + 1}):" if row.during_turn else ":"),
        "",
        f"{row.what}",
        f"Reason: {row.reason}",
        "",
        f"The log: {absolute(reverse('turns', args=[view.campaign.pk]))}",
    ]
    return Words(adjustment_subject(view.campaign, adjustment_id, row.what), "\n".join(body))


def adjustment_subject(campaign: Campaign, adjustment_id: int, what: str) -> str:
    """A GM change's subject: the news in a few words, the whole line (``what``, as the
    reader may read it) staying in the body. The walk of 7 December 2026 read whole
    paragraphs there: "Game master's change: Schedule changed: a turn every Thursday at
    19:30 (Australia/Sydney) (before: none: ...). The campaign is paused: ...". A pause
    and a resume say so ("Paused by the game master"; "Resumed by the game master: the
    next deadline is ..."); a new schedule its schedule; a settings change the names of
    the settings changed; a player's coming or going, a corrected result, a roll-back
    and a new seed their first clause; a change of stands, of who holds an area or of a
    ship is short already ("Game master's change: A Company: rifle squads from 3 to 4",
    or its fogged line: the subject never says more than the line the reader may read)."""
    details = (
        GmAdjustment.objects.filter(pk=adjustment_id).values_list("details", flat=True).first()
    )
    details = details if isinstance(details, dict) else {}
    return f"[{campaign.name}] {_adjustment_news(details, what)}"[:300]


def _adjustment_news(details: dict[str, Any], what: str) -> str:
    kind = details.get("kind")
    if kind == "pause":
        return "Paused by the game master"
    if kind == "resume":
        # With no deadline, its first sentence only ("...: no deadline"): whose "ready"
        # plays the next turn is in the body.
        news = what.removeprefix("Campaign resumed").split(". ")[0]
        return f"Resumed by the game master{news}"
    if kind == "schedule" and isinstance(details.get("after"), dict):
        return schedule_news(
            schedule_of_json(details.get("before") or {}), schedule_of_json(details["after"])
        )
    if kind in ("player", "player_joined", CORRECTION):
        # "The player sue no longer plays the Australians", "The result of the battle at
        # Kilu in turn 2 was corrected": what follows is the body's.
        return what.split(": ")[0].split("; ")[0].rstrip(".")
    if "to_turn" in details:  # a roll-back (``rollback.roll_back``)
        return f"Rolled back to the start of turn {details['to_turn']}"
    if "withdrawn_commitment" in details:  # a turn's seed replaced (``commitments``)
        return f"The seed of turn {details.get('turn')} was replaced"
    if kind is None and not ({"company", "area", "ship"} & set(details)) and "after" in details:
        changed = changed_names(details.get("before") or {}, details["after"])
        if changed:
            shown = changed if len(changed) <= 3 else [*changed[:2], f"{len(changed) - 2} more"]
            return f"Settings changed: {'; '.join(shown)}"
    return f"Game master's change: {what}"


def public_turn_words(campaign: Campaign, turn: Turn) -> Words:
    """The group's channel, read by both sides: only what both may know (rulings 6)."""
    if campaign.status == Campaign.Status.FINISHED:
        # Nothing is hidden once it has ended.
        return end_words(open_campaign_as_side(campaign=campaign, side=_any_side(campaign)))
    body = [f"Turn {turn.number} of {campaign.name} has been played."]
    deadline = _deadline_line(campaign, campaign.timezone)
    if deadline:
        body.append(deadline)
    body += _commitment_lines(campaign)
    body.append(absolute(reverse("turns", args=[campaign.pk])))
    return Words(f"[{campaign.name}] Turn {turn.number} played", "\n".join(body))


def _any_side(campaign: Campaign) -> str:
    return campaign.sides.order_by("key").values_list("key", flat=True).first() or ""


def footer(user: Any, kind: str) -> str:
    lines = ["", "--"]
    if kind in OPTIONAL_KINDS:
        lines.append(f"Stop these emails (when {Kind(kind).label}): {unsubscribe_url(user, kind)}")
    lines += [
        f"Stop every email from Korona: {unsubscribe_url(user, 'all')}",
        f"Your notice settings: {absolute(reverse('notice-preferences'))}",
    ]
    return "\n".join(lines)


# --- recording and sending ----------------------------------------------------------------


def _told(key: dict[str, Any]) -> bool:
    return Notice.objects.filter(**key).exclude(status=Notice.Status.FAILED).exists()


def deliver(key: dict[str, Any], words: Words, send: Callable[[Notice], None]) -> bool:
    """Record the notice under its key, then send it; False if it was recorded already
    (and not failed), or the send failed (kept ``failed``, with the reason)."""
    try:
        with transaction.atomic():
            notice = Notice.objects.create(**key, subject=words.subject, body=words.body)
    except IntegrityError:
        # Already recorded: only a failed one is claimed again, by one caller.
        if not Notice.objects.filter(**key, status=Notice.Status.FAILED).update(
            status=Notice.Status.SENDING, attempts=F("attempts") + 1
        ):
            return False
        notice = Notice.objects.get(**key)
    return _send(notice, send)


def _send(notice: Notice, send: Callable[[Notice], None]) -> bool:
    try:
        send(notice)
    except Exception as error:  # noqa: BLE001 - any failure of the far end is recorded
        logger.warning("notice %s not sent: %s", notice.pk, error)
        Notice.objects.filter(pk=notice.pk).update(
            status=Notice.Status.FAILED, error=f"{type(error).__name__}: {error}"[:2000]
        )
        return False
    Notice.objects.filter(pk=notice.pk).update(status=Notice.Status.SENT, sent_at=timezone.now())
    return True


def send_email(notice: Notice) -> None:
    user = notice.user
    assert user is not None, "an email notice is for a user"
    headers = {}
    if notice.kind in OPTIONAL_KINDS:
        # RFC 8058: the mail program's own "unsubscribe" button, one POST, no page. A
        # kind with no switch of its own (a removal, sent once) is no list to leave.
        one_click = unsubscribe_url(user, notice.kind)
        headers = {
            "List-Unsubscribe": f"<{one_click}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    message = EmailMessage(
        subject=notice.subject,
        body=notice.body + "\n" + footer(user, notice.kind),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers=headers,
    )
    message.send(fail_silently=False)


def post_webhook(notice: Notice) -> None:
    content = f"**{notice.subject}**\n{notice.body}"
    if len(content) > DISCORD_LIMIT:
        content = content[: DISCORD_LIMIT - 1] + "…"
    payload = {
        "username": "Korona",
        "content": content,
        # Nobody is pinged by what a player wrote (no @everyone, no roles, no users).
        "allowed_mentions": {"parse": []},
    }
    assert notice.webhook is not None, "a webhook notice is for a webhook"
    request = urllib.request.Request(
        notice.webhook.url,
        data=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json", "User-Agent": "Korona notifications"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=WEBHOOK_TIMEOUT) as answer:  # noqa: S310
        if answer.status >= 300:
            raise OSError(f"the webhook answered {answer.status}")


def _email_to(user: Any, kind: str, campaign: Campaign, turn: int, ref: int, words: Any) -> bool:
    """Email ``user`` if they want this kind and were not told yet; ``words`` is called
    only then (it opens the campaign as that user)."""
    if not user.email or not user.is_active or not preference_of(user).wants(kind):
        return False
    key = {"user": user, "kind": kind, "campaign": campaign, "turn": turn, "ref": ref}
    if _told(key):
        return False
    made = words()
    if made is None:
        return False
    return deliver(key, made, send_email)


def _post_to(hook: Webhook, kind: str, campaign: Campaign, turn: int, ref: int, words: Any) -> bool:
    key = {"webhook": hook, "kind": kind, "campaign": campaign, "turn": turn, "ref": ref}
    if _told(key):
        return False
    made = words()
    if made is None:
        return False
    return deliver(key, made, post_webhook)


# The reads every turn's notices make (the turn, its campaign's players and webhooks),
# by id: compiled once (``prepared``), as a turn with no one to tell makes them all.
# The turn without the large columns the notices never read: the map the turn began
# from, its report and its orders.
_TURN = PreparedObjects(
    lambda turn_id: (
        Turn.objects.filter(pk=turn_id)
        .select_related("campaign")
        .defer("start_state", "report", "report_text", "orders")[:1]
    )
)
# The event tables a turn rolled on, out of the start state the read above leaves out:
# read once a turn, by the first of its notices that speaks of its events.
_PLAYED_TABLES = PreparedRead(
    lambda turn_id: (
        Turn.objects.filter(pk=turn_id)
        .annotate(**PLAYED_EVENT_TABLES)
        .values_list(*PLAYED_EVENT_TABLES)
    )
)


def _with_played_tables(turn: Turn) -> Turn:
    """``turn``, with the event tables it rolled on (``PLAYED_EVENT_TABLES``) where it was
    read without its start state (``_TURN``), for ``turnlog.played_tables``."""
    if "start_state" in turn.get_deferred_fields() and not hasattr(turn, "played_naval_table"):
        found = _PLAYED_TABLES.rows(turn.pk)
        values = found[0] if found else (None,) * len(PLAYED_EVENT_TABLES)
        for name, value in zip(PLAYED_EVENT_TABLES, values, strict=True):
            setattr(turn, name, value)
    return turn


_MEMBERS = PreparedObjects(
    lambda campaign_id: (
        Membership.objects.filter(campaign_id=campaign_id).select_related("user").order_by("id")
    )
)
_WEBHOOKS = PreparedObjects(
    lambda campaign_id: Webhook.objects.filter(campaign_id=campaign_id, active=True).order_by("id")
)


def _members(campaign: Campaign) -> Iterable[Membership]:
    return _MEMBERS.objects(campaign.pk)


def _webhooks(campaign: Campaign) -> Iterable[Webhook]:
    """The campaign's active webhooks, in the order they were added."""
    return _WEBHOOKS.objects(campaign.pk)


def _game_masters() -> Iterable[Any]:
    return get_user_model().objects.filter(is_staff=True, is_active=True).order_by("pk")


def _zone(user: Any, campaign: Campaign) -> str:
    """The clock of ``user``'s emails about ``campaign``: theirs if they chose one, else
    the campaign's (``Preference.clock``)."""
    return preference_of(user).clock(campaign)


# --- what each change tells -----------------------------------------------------------------


def turn_notices(*, turn_id: int) -> int:
    """A turn that committed: played (to each player, their side's summary; to the
    channels), the end of the campaign, or battles waiting for the table (to the GM, and
    to the players of the sides that fight them). The number sent.

    Each is told once per turn row (``ref``: the turn's id): a turn played again after a
    roll-back is a new row, and its players are told again, since what they were told
    of it before is undone."""
    found = _TURN.objects(turn_id)
    if not found:
        return 0
    turn = found[0]
    campaign = turn.campaign
    sent = 0
    if turn.status == Turn.Status.BATTLES_PENDING:
        waiting = list(
            Battle.objects.filter(turn=turn, status=Battle.Status.PENDING, mode="tabletop")
            .select_related("area", "campaign")
            .prefetch_related("attackers", "defenders", "campaign__sides")
            .order_by("id")
        )
        if waiting:
            for gm in _game_masters():
                sent += _email_to(
                    gm,
                    Kind.BATTLE_WAITING,
                    campaign,
                    turn.number,
                    turn.pk,
                    lambda gm=gm: battles_waiting_words(
                        campaign, turn, waiting, zone=_zone(gm, campaign)
                    ),
                )
            # And the players of the sides that fight them, each of their own battles
            # (the same key as the GM's: a GM who also plays is told once).
            fighting = {side for b in waiting for side in (b.attacker_side, b.defender_side)}
            for member in _members(campaign):
                if member.side not in fighting:
                    continue
                user = member.user
                sent += _email_to(
                    user,
                    Kind.BATTLE_WAITING,
                    campaign,
                    turn.number,
                    turn.pk,
                    lambda user=user: table_battle_words(
                        open_campaign(user=user, campaign=campaign),
                        turn,
                        zone=_zone(user, campaign),
                    ),
                )
        return sent
    if turn.status != Turn.Status.DONE:
        return 0
    ended = campaign.status == Campaign.Status.FINISHED
    for member in _members(campaign):
        user = member.user

        def as_reader(user: Any = user) -> CampaignView | None:
            return open_campaign(user=user, campaign=campaign)

        sent += _email_to(
            user,
            Kind.TURN_PLAYED,
            campaign,
            turn.number,
            turn.pk,
            lambda user=user, read=as_reader: turn_words(read(), turn, zone=_zone(user, campaign)),
        )
        if ended:
            sent += _email_to(
                user,
                Kind.CAMPAIGN_END,
                campaign,
                turn.number,
                turn.pk,
                lambda read=as_reader: end_words(read()),
            )
    for hook in _webhooks(campaign):
        if hook.side:

            def words(hook: Webhook = hook) -> Words:
                view = open_campaign_as_side(campaign=campaign, side=hook.side)
                return end_words(view) if ended else turn_words(view, turn)

        else:

            def words(hook: Webhook = hook) -> Words:  # the same signature as above
                return public_turn_words(campaign, turn)

        kind = Kind.CAMPAIGN_END if ended else Kind.TURN_PLAYED
        sent += _post_to(hook, kind, campaign, turn.number, turn.pk, words)
    return sent


def adjustment_notices(*, adjustment_id: int) -> int:
    """A GM adjustment, to each player as their side may read it (the public log's
    words), and to the group's channel as neither side's numbers show."""
    row = GmAdjustment.objects.filter(pk=adjustment_id).select_related("campaign").first()
    if row is None:
        return 0
    campaign = row.campaign
    sent = _tell_the_removed(row)
    for member in _members(campaign):
        user = member.user
        sent += _email_to(
            user,
            Kind.GM_NEWS,
            campaign,
            row.before_turn,
            row.pk,
            lambda user=user: adjustment_words(open_campaign(user=user, campaign=campaign), row.pk),
        )
    sides = list(campaign.sides.order_by("key").values_list("key", flat=True))
    for hook in _webhooks(campaign):

        def words(hook: Webhook = hook) -> Words | None:
            if hook.side:
                return adjustment_words(
                    open_campaign_as_side(campaign=campaign, side=hook.side), row.pk
                )
            return _public_adjustment_words(campaign, sides, row.pk)

        sent += _post_to(hook, Kind.GM_NEWS, campaign, row.before_turn, row.pk, words)
    return sent


def removal_words(row: GmAdjustment, zone: str) -> Words:
    """To the player the GM removed: that they are out, when (on their emails' clock),
    the public line every player reads and the GM's reason, which the GM's form read for
    what the fog hides from any reader (``campaign.services.fogwords``). Nothing else of
    the campaign: they no longer read it."""
    campaign = row.campaign
    details = row.details or {}
    spectator = details.get("side") == SPECTATOR
    what = "follow" if spectator else "play in"
    when = when_made(row.before_turn, during_turn(details))
    body = [
        f"The game master removed you from {campaign.name} on "
        f"{moment_words(row.created_at, zone)}, {when}: "
        f"you no longer {what} it, read its pages or get its emails.",
        "",
        f"Every player reads in its log: {adjustment_what(row.what, details)}",
        f"The game master's reason: {row.reason}",
        "",
        "If you think it a mistake, ask the game master.",
    ]
    return Words(f"[{campaign.name}] You no longer {what} {campaign.name}", "\n".join(body))


def _tell_the_removed(row: GmAdjustment) -> int:
    """A removal (``campaign.services.members.remove_player``) is told to the player
    removed, who is no member now for the notices to find: 1 if they were emailed."""
    details = row.details or {}
    user_id = details.get("player_id")
    if details.get("kind") != "player" or not isinstance(user_id, int):
        return 0
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or Membership.objects.filter(campaign=row.campaign, user=user).exists():
        return 0  # gone since, or back already (invited again): the log tells them
    zone = _zone(user, row.campaign)
    return _email_to(
        user,
        Kind.REMOVED,
        row.campaign,
        row.before_turn,
        row.pk,
        lambda: removal_words(row, zone),
    )


def _public_adjustment_words(
    campaign: Campaign, sides: list[str], adjustment_id: int
) -> Words | None:
    """For both sides at once: only when both sides read the adjustment the same."""
    read = [
        adjustment_words(open_campaign_as_side(campaign=campaign, side=side), adjustment_id)
        for side in sides
    ]
    if not read or any(words != read[0] for words in read):
        # The sides read it differently (a company's numbers are withheld from one):
        # the shared channel says only that there was one.
        row = GmAdjustment.objects.get(pk=adjustment_id)
        when = when_made(row.before_turn, during_turn(row.details))
        return Words(
            f"[{campaign.name}] Game master's change",
            f"The game master changed {campaign.name} {when}; "
            f"each side reads what it may see on the log: "
            f"{absolute(reverse('turns', args=[campaign.pk]))}",
        )
    return read[0]


def deadline_ref(deadline: datetime) -> int:
    """A reminder's key beside its turn: the deadline it gives, to the minute. A deadline
    moved after its reminder was sent (the campaign resumed after a pause, a new schedule)
    gets a reminder of its own, so no player is left with only the time that has passed."""
    return int(deadline.timestamp()) // 60


def latest(model: type[Model], field: str = "created_at", **where: Any) -> Subquery:
    """The latest ``field`` of the campaign's rows of ``model`` (those ``where`` says),
    as an annotation of a campaign query."""
    rows = model._default_manager.filter(
        campaign=OuterRef("pk"), **{f"{field}__isnull": False}, **where
    )
    return Subquery(rows.order_by(f"-{field}").values(field)[:1])


def with_deadline_told(campaigns: QuerySet[Campaign]) -> QuerySet[Campaign]:
    """``campaigns``, each with the moments its players were last told of a new deadline
    (``reminder_before``): its last turn played (the turn's email names the next
    deadline) and the GM's last new schedule (its line, sent to each player, names it)."""
    return campaigns.annotate(
        last_played=latest(Turn, "finished_at"),
        last_rescheduled=latest(GmAdjustment, details__kind="schedule"),
    )


def reminder_before(campaign: Campaign, hours: int) -> timedelta:
    """How long before ``campaign``'s next deadline a reader who chose ``hours`` is
    reminded of it, by email or by their calendar's alarm: never before half the turn
    has run (``deadlines.reminder_lead``). ``campaign`` read ``with_deadline_told``."""
    if campaign.next_deadline is None:
        return timedelta(hours=hours)
    told = [
        moment
        for moment in (
            getattr(campaign, "last_played", None),
            getattr(campaign, "last_rescheduled", None),
        )
        if moment is not None
    ]
    return reminder_lead(
        hours=hours,
        schedule=Schedule.of(campaign),
        deadline=campaign.next_deadline,
        told=max(told, default=None),
    )


def deadline_reminders(*, now: datetime | None = None) -> int:
    """Remind each player whose side has not marked ready, the hours before the deadline
    they chose, but not before half the turn has run (``reminder_before``): on a turn
    shorter than their hours, a reminder at once would follow the email that named the
    deadline. One reminder per player, turn and deadline, however many sweeps ask."""
    now = now or timezone.now()
    horizon = now + timedelta(hours=168)
    sent = 0
    campaigns = with_deadline_told(
        Campaign.objects.filter(
            status=Campaign.Status.ACTIVE,
            next_deadline__gt=now,
            next_deadline__lte=horizon,
            due_turn__isnull=True,
        )
    ).order_by("next_deadline", "pk")
    for campaign in campaigns:
        number = campaign.turn + 1
        ready = set(
            SideReady.objects.filter(campaign=campaign, turn_number=number).values_list(
                "side", flat=True
            )
        )
        for member in _members(campaign):
            if member.side in ready or member.side == SPECTATOR:
                continue  # ready, or no side: no orders to remind of
            preference = preference_of(member.user)
            if campaign.next_deadline is None:  # filtered out above
                continue
            if campaign.next_deadline - now > reminder_before(campaign, preference.reminder_hours):
                continue
            zone = preference.clock(campaign)
            sent += _email_to(
                member.user,
                Kind.DEADLINE,
                campaign,
                number,
                deadline_ref(campaign.next_deadline),
                lambda campaign=campaign, zone=zone: deadline_words(campaign, zone),
            )
    return sent


def retry_failed() -> int:
    """Send again, from the words recorded, the notices whose send failed (a few times)."""
    sent = 0
    for notice_id in Notice.objects.filter(
        status=Notice.Status.FAILED, attempts__lt=MAX_ATTEMPTS
    ).values_list("pk", flat=True)[:100]:
        if not Notice.objects.filter(pk=notice_id, status=Notice.Status.FAILED).update(
            status=Notice.Status.SENDING, attempts=F("attempts") + 1
        ):
            continue
        notice = Notice.objects.select_related("user", "webhook").get(pk=notice_id)
        if notice.user is not None and not preference_of(notice.user).wants(notice.kind):
            Notice.objects.filter(pk=notice_id).update(
                status=Notice.Status.FAILED,
                attempts=MAX_ATTEMPTS,
                error="unsubscribed before it could be sent again",
            )
            continue  # unsubscribed since: left failed, not sent
        sent += _send(notice, post_webhook if notice.webhook_id else send_email)
    return sent


def message_words(message: Any, side_names: dict[str, str]) -> Words:
    from notifications.messages import author_words, board_words

    campaign = message.campaign
    board = {
        "announcement": "an announcement",
        "public": "on the public board",
        "side": board_words(message.channel, message.side, side_names),
    }[message.channel]
    who = author_words(message, side_names)
    body = [
        f"{who} wrote {board} of {campaign.name}:",
        "",
        message.text,
        "",
        f"Answer: {absolute(reverse('messages', args=[campaign.pk]))}",
    ]
    what = "Announcement" if message.channel == "announcement" else "Message"
    subject = f"[{campaign.name}] {what} from {who}"
    return Words(subject[:300], "\n".join(body))


def message_notices(*, message_id: int) -> int:
    """A message, to everyone who may read it but its author: a side's channel only to
    that side; the group's webhook gets announcements and the public board only."""
    from notifications.models import Message

    message = Message.objects.filter(pk=message_id).select_related("campaign", "author").first()
    if message is None:
        return 0
    campaign = message.campaign
    names = dict(campaign.sides.values_list("key", "name"))
    words = message_words(message, names)
    turn = campaign.turn + 1
    sent = 0
    for member in _members(campaign):
        if member.user_id == message.author_id:
            continue
        if message.channel == "side" and member.side != message.side:
            continue
        sent += _email_to(member.user, Kind.MESSAGE, campaign, turn, message.pk, lambda: words)
    for hook in _webhooks(campaign):
        if message.channel == "side" and hook.side != message.side:
            continue
        sent += _post_to(hook, Kind.MESSAGE, campaign, turn, message.pk, lambda: words)
    return sent
