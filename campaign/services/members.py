"""A player leaving a campaign: the GM removes their membership, with a reason, in the
public log (a removal used to be a silent deletion in the admin)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction

from campaign.models import (
    SPECTATOR,
    Campaign,
    GmAdjustment,
    Membership,
    Order,
    SideReady,
    Turn,
)
from campaign.services.adjustments import AdjustmentRefused, check_reason, record
from campaign.services.visibility import during_turn, when_made


def remove_player(*, membership_id: int, reason: str, user: Any = None) -> GmAdjustment:
    """Take a player out of a campaign, for ``reason``, and say so in the public log.

    When they were the last player of their side, the side is played as a side with no
    player from now on: by the campaign AI, each company on its standing order, and
    always ready. The orders they gave for turns not yet played are withdrawn with them
    (a player who left gave them for a campaign they now have no part in, and a side
    with no player is played as the AI plays it, not half by a player gone). With
    teammates left, the side's orders and its "ready" stay: they are the side's.
    Orders of turns already played are history and stay in their turns."""
    reason = check_reason(reason)
    with transaction.atomic():
        membership = (
            Membership.objects.select_related("user", "campaign").filter(pk=membership_id).first()
        )
        if membership is None:
            raise AdjustmentRefused("that player has left the campaign already")
        campaign = Campaign.objects.select_for_update().get(pk=membership.campaign_id)
        if campaign.status == Campaign.Status.FINISHED:
            raise AdjustmentRefused(
                f"{campaign.name} has ended: its players keep the sides they played"
            )
        side = membership.side
        name = membership.user.get_username()
        user_id = membership.user_id
        membership.delete()
        coming = campaign.turn + 1
        if side == SPECTATOR:
            return record(
                campaign=campaign,
                # Not from the name: a line reads as a sentence from a capital letter, and
                # a username is spelled as its owner spells it ("sue", never "Sue").
                what=f"The spectator {name} no longer follows {campaign.name}.",
                reason=reason,
                user=user,
                details={"kind": "player", "player": name, "player_id": user_id, "side": side},
            )
        side_name = campaign.sides.filter(key=side).values_list("name", flat=True).first() or side
        if Membership.objects.filter(campaign=campaign, side=side).exists():
            what = (
                f"The player {name} no longer plays the {side_name}; the side's other "
                "players play on."
            )
            withdrawn = 0
        else:
            withdrawn, _ = Order.objects.filter(
                campaign=campaign, turn_number__gte=coming, company__side=side
            ).delete()
            SideReady.objects.filter(campaign=campaign, side=side, turn_number__gte=coming).delete()
            what = (
                f"The player {name} no longer plays the {side_name}: from turn {coming} the "
                "campaign AI plays them, each company on its standing order."
            )
        return record(
            campaign=campaign,
            what=what,
            reason=reason,
            user=user,
            # The orders withdrawn are the GM's to know (the admin), not the enemy's.
            details={
                "kind": "player",
                "player": name,
                # Who to tell they are out (notifications: they are no member to find).
                "player_id": user_id,
                "side": side,
                "orders_withdrawn": withdrawn,
            },
        )


INVITED = "They joined with the game master's invitation."
PUT_IN = "The game master put them in the campaign."


def player_joined(
    *, membership: Membership, how: str = INVITED, user: Any = None
) -> GmAdjustment | None:
    """Say in the public log that a side the campaign AI played has a player again.

    The removal's line told every player "from turn 4 the campaign AI plays them"; a
    player invited back before turn 4 played it, and the log never said so (the walk's
    Japanese player read that the AI played the Australians of a turn alice played). A
    side with a player is no news the fog hides: whether it is ready is public. ``user``:
    the GM who put them in (``PUT_IN``); none for a player joining by themselves, whom
    the GM's lists name as the line's player. Only a
    side of a campaign under way (a turn played or begun, or a removal told) that had no other
    player; none for a spectator, or a teammate joining a side already played."""
    side = membership.side
    if side == SPECTATOR:
        return None
    campaign = Campaign.objects.get(pk=membership.campaign_id)  # its turn as it is now
    if Membership.objects.filter(campaign=campaign, side=side).exclude(pk=membership.pk).exists():
        return None
    removed = GmAdjustment.objects.filter(
        campaign=campaign, details__kind="player", details__side=side
    ).exists()
    # A turn begun (waiting for its battles) takes no orders: the player's is the next.
    begun = Turn.objects.filter(
        campaign=campaign, number=campaign.turn + 1, start_state__isnull=False
    ).exists()
    if campaign.turn < 1 and not begun and not removed:
        return None  # the campaign's start: the sides are being taken, as on the first run
    coming = campaign.turn + (2 if begun else 1)
    side_name = campaign.sides.filter(key=side).values_list("name", flat=True).first() or side
    name = membership.user.get_username()
    return record(
        campaign=campaign,
        what=(
            f"The player {name} now plays the {side_name}: from turn {coming} they give its "
            "orders, not the campaign AI."
        ),
        reason=how,
        user=user,
        details={"kind": "player_joined", "player": name, "side": side},
    )


@dataclass(frozen=True, slots=True)
class Stint:
    """One stretch of a player in a campaign: the side they played (``spectator``: they
    followed it), when they came back (``rejoined``: "before turn 4", for a stretch after
    a removal; ``None`` for the first), and, when the GM removed them, when (``left``,
    ``left_at``) and why."""

    side: str
    rejoined: str | None = None
    left: str | None = None  # "before turn 3"
    left_at: datetime | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Player:
    """One who played a campaign, once however often the GM removed them and they came
    back: their name and their stints, in order."""

    name: str
    stints: tuple[Stint, ...]

    @property
    def side(self) -> str:
        return self.stints[-1].side

    @property
    def left(self) -> str | None:
        """When the GM removed them for the last time, if they were not in it at the end."""
        return self.stints[-1].left


def who_played(*, campaign: Campaign) -> list[Player]:
    """Everyone who played ``campaign``, each once: its members, and each player the GM
    removed along the way, from the log's line of the removal (the membership itself is
    gone); one removed and invited back is one player with two stints, the second from
    the turn they rejoined. By side, then those still in it, then by name. Three queries."""
    removals: dict[Any, list[GmAdjustment]] = {}
    names: dict[Any, str] = {}
    for row in GmAdjustment.objects.filter(campaign=campaign).order_by("created_at", "id"):
        details = row.details if isinstance(row.details, dict) else {}
        if details.get("kind") != "player" or not details.get("player"):
            continue
        # The account, when the line names it (its name may have changed since); by name
        # for a line from before it did.
        who = details.get("player_id") or str(details["player"])
        removals.setdefault(who, []).append(row)
        names[who] = str(details["player"])
    started = list(Turn.objects.filter(campaign=campaign).values_list("created_at", flat=True))
    members: dict[Any, Membership] = {}
    for member in Membership.objects.filter(campaign=campaign).select_related("user"):
        who = member.user_id if member.user_id in removals else member.user.get_username()
        members[who] = member
        names[who] = member.user.get_username()
    players = []
    for who in names:
        stints = [_removed(row, first=i == 0) for i, row in enumerate(removals.get(who, []))]
        now_in = members.get(who)
        if now_in is not None:
            rejoined = None
            if stints:
                # Back before the first turn begun after they joined again.
                rejoined = f"before turn {sum(at <= now_in.created_at for at in started) + 1}"
            stints.append(Stint(side=now_in.side, rejoined=rejoined))
        players.append(Player(name=names[who], stints=tuple(stints)))
    players.sort(key=lambda p: (p.side == SPECTATOR, p.side, p.left is not None, p.name.lower()))
    return players


def _removed(row: GmAdjustment, *, first: bool) -> Stint:
    details = row.details if isinstance(row.details, dict) else {}
    return Stint(
        side=str(details.get("side") or ""),
        # A removal after another: they came back between the two, when is not recorded.
        rejoined=None if first else "",
        left=when_made(row.before_turn, during_turn(details)),
        left_at=row.created_at,
        reason=row.reason,
    )
