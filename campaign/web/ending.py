"""What the players' pages say of a campaign's length and how it is won, and of how a
finished one ended: in words, from its settings (``turn_limit``, ``objective``) and its
end causes (``Campaign.end_causes``), never from the engine's English.

Every setting is public (docs/campaign.md, "The GM's changes": each changes what the
players' turns do, and its changes are in the public log), and a finished campaign has
no fog of war: nothing here is hidden from a side.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.models import Campaign, Turn
from campaign.services.ending import WHY_AS_WRITTEN, ended, outcome, why
from rules.campaign.state import Settings

# How a finished campaign ended lives with the services, so the battles' admin says it
# too (after the tabletop result that ended it); the pages read it from here as before.
__all__ = ["WHY_AS_WRITTEN", "Length", "ended", "how_won", "length_of", "outcome", "why"]

# The rulings' other ways a campaign ends (rulings section 3, "Campaign end"), said once.
SOONER = "or sooner if a side loses its base or its last fighting company"


# The states of a campaign's latest turn row in which that turn is under way: claimed or
# being rolled, or rolled and moved while its battles are fought.
UNDER_WAY = frozenset({Turn.Status.QUEUED, Turn.Status.ROLLING, Turn.Status.BATTLES_PENDING})


@dataclass(frozen=True, slots=True)
class Length:
    """The turn the players give orders for, out of the campaign's length; or the turn
    under way, until it ends."""

    number: int  # the coming turn (the turns played + 1), or the one under way
    limit: int  # the campaign's length: it ends after this turn
    played: int
    under_way: bool = False  # turn ``number`` is being played or waits for its battles
    # Turn ``number`` waits for its battles: rolled, its companies moved (the map shows
    # them where they moved to), its battles still being fought.
    waiting: bool = False

    @property
    def last(self) -> bool:
        return self.number >= self.limit

    @property
    def of(self) -> str:
        """ "Turn 3 of 8"."""
        return f"Turn {self.number} of {self.limit}"

    @property
    def words(self) -> str:
        """ "Turn 3 of 8"; "Turn 8 of 8: the last turn"."""
        return self.of + self._last_words

    @property
    def said(self) -> str:
        """The turn and where it stands, as the pages' headers say it: "Turn 3 of 8 is
        next"; "Turn 3 of 8 is under way"; "Turn 8 of 8 is next: the last turn"."""
        return f"{self.of} is {'under way' if self.under_way else 'next'}{self._last_words}"

    @property
    def _last_words(self) -> str:
        return ": the last turn" if self.last else ""


def length_of(
    campaign: Campaign, settings: Settings, turn_status: str | None = None
) -> Length | None:
    """The coming turn out of the campaign's length, or the one under way; None once it
    has ended. ``turn_status``: the status of the campaign's latest turn row (None: no
    turn yet, or its row was not read); a turn the scheduler claimed is under way too."""
    if campaign.status == Campaign.Status.FINISHED:
        return None
    waiting = turn_status == Turn.Status.BATTLES_PENDING
    return Length(
        number=campaign.turn + 1,
        limit=settings.turn_limit,
        played=campaign.turn,
        under_way=turn_status in UNDER_WAY or campaign.due_turn is not None,
        waiting=waiting,
    )


def how_won(settings: Settings, *, player: bool = True) -> str:
    """How the campaign is won and when it ends, from its settings, in a sentence: to a
    side's player, what they must do ("To win, hold Korona ..."); to a reader who plays no
    side (the game master, a spectator), who wins."""
    ends = f"after turn {settings.turn_limit}, {SOONER}"
    if settings.objective is None:
        return f"The campaign ends {ends}; it has no objective to hold, so nobody wins it."
    if not player:
        return f"The side holding {settings.objective} when the campaign ends wins it: {ends}."
    return f"To win, hold {settings.objective} when the campaign ends: {ends}."
