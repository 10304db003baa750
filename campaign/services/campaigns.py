"""The GM's campaign-wide changes: pause and resume, the settings, deleting it."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from battles.models import Battle
from campaign.history import quiet_history
from campaign.models import (
    AirGroup,
    Area,
    Campaign,
    Company,
    CompanyStands,
    GmAdjustment,
    Ship,
    Turn,
)
from campaign.services.adjustments import (
    AdjustmentRefused,
    NothingChanged,
    ReasonMissing,
    check_reason,
    check_seen,
    record,
)
from campaign.services.deadlines import Schedule, moment_words, next_deadline_after
from campaign.services.snapshot import load_snapshot
from campaign.services.turns import no_deadline_turn_words
from campaign.settings_doc import change_words
from rules.campaign.scenario import (
    ScenarioError,
    dump_scenario,
    parse_scenario,
    settings_to_json,
)
from rules.refusals import Problem, Refusal


class CampaignRefused(Refusal):
    """A change the campaign's state does not allow; the message says why."""


# The stored reason of a resume the GM gave none for (a GM change's reason may not be empty).
NO_REASON = "no reason given"


def set_paused(
    *,
    campaign: Campaign,
    paused: bool,
    reason: str = "",
    user: Any = None,
    seen: str | None = None,
) -> GmAdjustment:
    """Pause a campaign (no turn is played on schedule) or resume it; not once it ended.

    Resuming a scheduled campaign counts its next deadline from now, so the deadlines
    missed while it was paused do not play a turn the moment it resumes; while a turn
    waits for its battles' results it sets none (the turn's end counts the next one, and
    until then every page said an ordinary deadline for orders nobody could give).

    Either is a GM change every member is told of (``record``: the players' log, and the
    "game master's changes" notice with it): a pause needs a reason (``ReasonMissing``,
    nothing changed), a resume may have one, and its line says the new deadline on the
    campaign's clock. Pausing a paused campaign or resuming an active one is refused
    (``NothingChanged``): the log never says a pause that changed nothing. ``seen``: the
    page's ``campaign_version`` (``StaleChange`` if it has moved on)."""
    reason = check_reason_to_pause(reason) if paused else (reason or "").strip() or NO_REASON
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        check_seen(row, seen)
        if row.status == Campaign.Status.FINISHED:
            raise CampaignRefused(f"{row.name} has ended: it can be neither paused nor resumed")
        wanted = Campaign.Status.PAUSED if paused else Campaign.Status.ACTIVE
        if row.status == wanted:
            raise NothingChanged(
                f"Nothing changed: {row.name} is already {'paused' if paused else 'active'}."
            )
        fields = ["status", "updated_at"]
        if not paused and row.schedule_kind != "none":
            waiting = Turn.objects.filter(campaign=row, status=Turn.Status.BATTLES_PENDING)
            row.next_deadline = (
                None if waiting.exists() else next_deadline_after(Schedule.of(row), timezone.now())
            )
            fields.append("next_deadline")
        row.status = wanted
        row._change_reason = reason  # type: ignore[attr-defined]  # simple_history's
        if getattr(user, "pk", None):
            row._history_user = user  # type: ignore[attr-defined]
        row.save(update_fields=fields)
        adjustment = record(
            campaign=row,
            what=PAUSED_LINE if paused else _resumed_line(row),
            reason=reason,
            user=user,
            details={
                "kind": "pause" if paused else "resume",
                "next_deadline": row.next_deadline.isoformat() if row.next_deadline else None,
            },
        )
    campaign.status = row.status
    campaign.next_deadline = row.next_deadline
    campaign.updated_at = row.updated_at
    return adjustment


def check_reason_to_pause(reason: str | None) -> str:
    """A pause's reason: the players read it on the map for as long as the pause lasts."""
    try:
        return check_reason(reason)
    except ReasonMissing:
        raise ReasonMissing(
            "Nothing was changed: a pause needs a reason, which every player reads (holidays, "
            "a player away, a rules question...)."
        ) from None


PAUSED_LINE = (
    "Campaign paused: no turn is played until the game master resumes it (they may still "
    "play one by hand)"
)


def _resumed_line(campaign: Campaign) -> str:
    """The resume's line, with what plays the next turn now: the new deadline on the
    campaign's clock, the battles it waits for first, or no deadline at all."""
    if campaign.next_deadline is not None:
        return (
            "Campaign resumed: the next deadline is "
            f"{moment_words(campaign.next_deadline, campaign.timezone or 'UTC')}"
        )
    if campaign.schedule_kind != "none":
        return (
            "Campaign resumed: the next deadline is set when the battles of the turn being "
            "played are in"
        )
    return f"Campaign resumed: no deadline. {no_deadline_turn_words(campaign, campaign.turn + 1)}"


def update_settings(
    *,
    campaign: Campaign,
    settings: dict[str, Any],
    reason: str,
    user: Any = None,
    seen: str | None = None,
) -> GmAdjustment | None:
    """Replace the campaign's settings, checked as a scenario's are (area and track names
    against the map included): a ``ScenarioError`` lists every problem, nothing changes.
    ``seen``: the page's ``campaign_version`` (``StaleChange`` if it has moved on).

    The players' log gets the change in words (campaign.settings_doc.change_words: the
    settings' names and values as the settings page gives them, never their keys); a
    save that changes nothing records nothing and returns None, and needs no reason (a
    walk-through pressed Save on the page as it opened and was asked for one); a change
    with none is refused (``ReasonMissing``). A campaign length that the turns played
    have reached is refused (``check_length``)."""
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        check_seen(row, seen)
        if row.status == Campaign.Status.FINISHED:
            raise AdjustmentRefused(f"{row.name} has ended: its settings are kept as they were")
        document = dump_scenario(load_snapshot(campaign=row))
        document["settings"] = settings
        checked = parse_scenario(document).settings
        # As read (a setting added since the campaign was saved counts at its default).
        before = settings_to_json(row.get_settings())
        after = settings_to_json(checked)
        changed = sorted(key for key in after if before.get(key) != after[key])
        if not changed:
            return None
        reason = check_reason(reason)
        check_length(row, before["turn_limit"], after["turn_limit"])
        row.settings = after
        row._change_reason = reason  # type: ignore[attr-defined]  # simple_history's
        row._history_user = user  # type: ignore[attr-defined]
        row.save(update_fields=["settings", "updated_at"])
        campaign.settings = after
        return record(
            campaign=row,
            what=change_words(before, after),
            reason=reason,
            user=user,
            details={
                "before": {k: before.get(k) for k in changed},
                "after": {k: after[k] for k in changed},
            },
        )


def check_length(campaign: Campaign, before: int, after: int) -> None:
    """A new campaign length must leave a turn to play. The end phase ends the campaign
    after the turn whose number reaches the length, and the turns played did not reach
    it: a length of at most the turns played would end it only after the next turn,
    longer than it says. So the shortest is the turns played + 1 (the next turn is the
    last; a turn waiting for its battles is that one, finished with today's settings)."""
    shortest = campaign.turn + 1
    if after != before and after < shortest:
        played = "1 turn has" if campaign.turn == 1 else f"{campaign.turn} turns have"
        raise ScenarioError(
            [
                Problem(
                    "settings.turn_limit",
                    f"{played} been played: the campaign's length must be at least "
                    f"{shortest} (with {shortest}, it ends after turn {shortest}, the next).",
                )
            ]
        )


def deletion_words(*, campaign: Campaign) -> list[str]:
    """What deleting the campaign takes with it, in words, for the GM's confirmation:
    its turns, companies, battles and players' memberships (named), and the rest when
    there is any."""
    turns = campaign.turns.count()
    battles = Battle.objects.filter(campaign=campaign)
    waiting = battles.filter(status=Battle.Status.PENDING).count()
    members = list(campaign.memberships.select_related("user").order_by("user__username"))
    lines = [
        f"{counted(turns, 'turn')} played, with their logs, reports and past maps",
        f"{counted(campaign.companies.count(), 'company', 'companies')}, with their stands "
        f"and orders, and the map of {counted(campaign.areas.count(), 'area')}",
        f"{counted(battles.count(), 'battle')}"
        + (f" ({waiting} waiting for a result from the table)" if waiting else ""),
    ]
    if members:
        sides = dict(campaign.sides.values_list("key", "name"))
        names = ", ".join(
            f"{member.user.get_username()} ({sides.get(member.side, 'spectator')})"
            for member in members
        )
        memberships = counted(len(members), "player's membership", "players' memberships")
        lines.append(
            f"{memberships}: {names}. They keep their accounts; the campaign leaves their "
            "list, and their links to it find nothing."
        )
    else:
        lines.append("no players' memberships (nobody has joined it)")
    rest = [
        (campaign.invitations.count(), "invitation", "invitations"),
        (campaign.adjustments.count(), "game master's adjustment", "game master's adjustments"),
        (campaign.messages.count(), "message", "messages"),
        (campaign.notices.count(), "notice", "notices"),
        (campaign.webhooks.count(), "webhook", "webhooks"),
    ]
    also = [counted(number, one, many) for number, one, many in rest if number]
    if also:
        lines.append(", ".join(also))
    lines.append("the history of its rows and its published seed commitments")
    return lines


def counted(number: int, one: str, many: str | None = None) -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


def delete_campaign(*, campaign: Campaign, seen: str | None) -> None:
    """Delete the campaign and everything in it (every row that names it goes with it,
    on the models' CASCADE), and the history of its rows, in one transaction. ``seen``:
    the confirmation page's ``campaign_version`` (``StaleChange`` if the campaign moved
    on since the GM read what goes: a turn played meanwhile would go unseen); a campaign
    deleted already is ``CampaignRefused``. Its players' pages then find no campaign."""
    with transaction.atomic():
        row = Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
        if row is None:
            raise CampaignRefused(f"{campaign.name} was deleted already: nothing was done")
        check_seen(row, seen)
        # The rows' history names the campaign by id only (no foreign key): it goes too.
        CompanyStands.history.filter(
            company_id__in=Company.history.filter(campaign_id=row.pk).values("id")
        ).delete()
        for model in (Area, Company, Ship, AirGroup):
            model.history.filter(campaign_id=row.pk).delete()
        Campaign.history.filter(id=row.pk).delete()
        with quiet_history():  # no history rows of the rows going now
            row.delete()
