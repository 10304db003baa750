"""Dice anyone can verify: each turn's seed committed to before the turn, shown after it.

- ``ensure_commitment`` makes turn N's commitment (``SeedCommitment``): the turn seed
  (by default the campaign seed's for turn N) split into its branches, each hashed with
  a fresh 256-bit salt (``rules.campaign.seeds``). It is made when the campaign is made
  and each time a turn completes, so the next turn's commitment is public as soon as
  its orders open. The turn service plays the turn from the committed seed.
- ``turn_played`` reveals a turn's seeds once it is done; ``visible_commitment`` gives a
  viewer what they may see of it: before the turn, only the commitments; after it, the
  public branch and the viewer's side's (the GM, and everyone once the campaign ended,
  every branch and the turn seed). Never the other side's branch: its dice would give
  away the enemy's supply (section 6 of the rulings); nor, to a side, the initiative
  branch, which would tell it a tied round and so the enemy's total.
- Salts are fresh randomness (``secrets``), never derived from the seed, the campaign
  or anything a player sees: the commitment hides its seed.
- ``turn_file`` is the TURN.json of a played turn as the viewer may see it, which
  ``python -m rules verify`` checks with no database.
- ``change_turn_seed``, with a reason, replaces the coming turn's, and says so in the
  public log. A roll-back replaces the seed of every turn it undoes whose seeds were
  shown (``reseed_shown``): played again from the same seed, its dice would be known
  before its orders are given (section 6: no seed of a turn not yet played).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone

from campaign.models import Campaign, GmAdjustment, SeedCommitment, Turn
from campaign.services.adjustments import AdjustmentRefused, check_reason, check_seen, record
from campaign.services.prepared import PreparedRead
from campaign.services.snapshot import insert_new, update_where
from rules.campaign import seeds
from rules.campaign.state import SIDE_KEYS
from rules.campaign.verify import FORMAT, Verdict, verify_turn

SEED_BITS = 63  # a turn seed the GM draws: fits the database's signed 64-bit integer

# Where salts come from. Tests of non-interference may set it to a fixed sequence so two
# twin campaigns draw the same salts (docs/campaign.md, "Verifying a turn").
salt_source: Callable[[], str] = lambda: secrets.token_hex(32)  # noqa: E731


def _fill(row: SeedCommitment, seed: int) -> SeedCommitment:
    row.seed = seed
    row.salts = {branch: seeds.check_salt(salt_source()) for branch in seeds.branches(SIDE_KEYS)}
    row.branch_commitments = {
        branch: seeds.commit(seeds.branch_seed(seed, branch), salt)
        for branch, salt in row.salts.items()
    }
    row.commitment = seeds.turn_commitment(row.branch_commitments)
    row.revealed_at = None
    return row


def ensure_commitment(*, campaign: Campaign, number: int) -> SeedCommitment:
    """Turn ``number``'s commitment, made now (from the default seed) if it has none."""
    row = SeedCommitment.objects.filter(campaign=campaign, number=number).first()
    if row is not None:
        return row
    row = _fill(
        SeedCommitment(campaign=campaign, number=number),
        seeds.default_turn_seed(campaign.seed, number),
    )
    row.save()
    return row


# Read by every turn: compiled once (``prepared``). One row at most (unique per turn).
_SEED = PreparedRead(
    lambda campaign_id, number: SeedCommitment.objects.filter(
        campaign_id=campaign_id, number=number
    ).values_list("seed")[:1]
)


def committed_seed(*, campaign: Campaign, number: int) -> int:
    """The seed turn ``number`` is played from (the turn service's one source of it):
    only its seed read when it is committed to already (the salts and hashes are not
    needed to play it)."""
    found = _SEED.rows(campaign.pk, number)
    return ensure_commitment(campaign=campaign, number=number).seed if not found else found[0][0]


def turn_played(*, campaign: Campaign, number: int, finished: bool) -> None:
    """Turn ``number`` is done: show its seeds, and commit to the next turn's. Written
    as plain statements (``snapshot.update_where``, ``insert_new``): every turn makes
    them."""
    update_where(
        SeedCommitment,
        {"campaign": campaign.pk, "number": number, "revealed_at": None},
        {"revealed_at": timezone.now()},
    )
    if not finished:  # one INSERT: a commitment kept from before a roll-back stays
        row = _fill(
            SeedCommitment(campaign=campaign, number=number + 1),
            seeds.default_turn_seed(campaign.seed, number + 1),
        )
        insert_new(row, ignore_conflicts=True)


def change_turn_seed(
    *,
    campaign: Campaign,
    reason: str,
    user: Any = None,
    seed: int | None = None,
    seen: str | None = None,
) -> GmAdjustment:
    """The GM replaces the coming turn's seed (a new one drawn at random unless ``seed``
    is given): a visible break in the chain, with its reason in the public log.
    ``seen``: the page's ``campaign_version``, refused (``StaleChange``) if the campaign
    has moved on (a turn played since: the page named another turn)."""
    reason = check_reason(reason)
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**SEED_BITS
    ):
        raise AdjustmentRefused(f"a seed is a whole number from 0 to {2**SEED_BITS - 1}")
    with transaction.atomic():
        row = Campaign.objects.select_for_update().get(pk=campaign.pk)
        check_seen(row, seen)
        if row.status == Campaign.Status.FINISHED:
            raise AdjustmentRefused(f"{row.name} has ended: no turn is left to change")
        number = row.turn + 1
        if Turn.objects.filter(
            campaign=row, number=number, status__in=["rolling", "battles_pending"]
        ):
            raise AdjustmentRefused(f"turn {number} is being played: its seed can no longer change")
        commitment = ensure_commitment(campaign=row, number=number)
        before = commitment.commitment
        _fill(commitment, secrets.randbits(SEED_BITS) if seed is None else seed)
        commitment.changes += 1
        commitment.save()
        return record(
            campaign=row,
            what=(
                f"The seed of turn {number} was replaced: commitment {before[:16]}... "
                f"is withdrawn, {commitment.commitment[:16]}... is the new one"
            ),
            reason=reason,
            user=user,
            details={
                "turn": number,
                "withdrawn_commitment": before,
                "commitment": commitment.commitment,
            },
        )


def reseed_shown(*, campaign: Campaign, first: int) -> list[int]:
    """Draw a new seed, committed to afresh, for turn ``first`` and every later turn
    whose seeds have been shown: a roll-back to the start of turn ``first`` makes them
    turns not yet played. The numbers of the turns given a new seed, in order."""
    shown = SeedCommitment.objects.select_for_update().filter(
        campaign=campaign, number__gte=first, revealed_at__isnull=False
    )
    numbers = []
    for row in shown.order_by("number"):
        _fill(row, secrets.randbits(SEED_BITS))
        row.changes += 1
        row.save()
        numbers.append(row.number)
    return numbers


# --- what a viewer may see -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CommitmentView:
    """A turn's commitment as one viewer may see it."""

    number: int
    commitment: str
    branches: dict[str, str]
    committed_at: Any
    changes: int
    revealed: dict[str, dict[str, Any]]  # branch -> {"seed", "salt"}; empty before the turn
    turn_seed: int | None  # only to whom sees everything, after the turn
    # Shown when the turn was played, and the GM has rolled the campaign back to before it:
    # a roll-back from before roll-backs drew new seeds (docs/campaign.md), whose coming
    # turn is played with these same dice unless its seed is replaced.
    rolled_back: bool = False

    @property
    def played(self) -> bool:
        return bool(self.revealed)

    def data(self) -> dict[str, Any]:
        return {
            "turn": self.number,
            "commitment": self.commitment,
            "branches": dict(self.branches),
            "committed_at": self.committed_at,
            "seed_changes": self.changes,
            "revealed": {b: dict(v) for b, v in self.revealed.items()},
            "turn_seed": self.turn_seed,
        }


def visible_commitment(view: Any, row: SeedCommitment) -> CommitmentView:
    """``row`` as ``view`` (a ``CampaignView``) may see it."""
    revealed: dict[str, dict[str, Any]] = {}
    turn_seed = None
    if row.revealed_at is not None:
        # A side sees the public branch and its own; a spectator (no side) the public one.
        shown = (
            seeds.branches(SIDE_KEYS)
            if view.sees_everything
            else [b for b in (seeds.PUBLIC, view.side) if b in row.salts]
        )
        revealed = {
            branch: {"seed": seeds.branch_seed(row.seed, branch), "salt": row.salts[branch]}
            for branch in shown
        }
        turn_seed = row.seed if view.sees_everything else None
    return CommitmentView(
        number=row.number,
        commitment=row.commitment,
        branches=dict(row.branch_commitments),
        committed_at=row.created_at,
        changes=row.changes,
        revealed=revealed,
        turn_seed=turn_seed,
        rolled_back=bool(revealed) and row.number > view.campaign.turn,
    )


def commitments_for(view: Any) -> list[CommitmentView]:
    """Every commitment of the campaign up to the coming turn's, as the viewer sees them.
    (Commitments kept past a roll-back for turns not reached again are left out.)"""
    campaign = view.campaign
    rows = SeedCommitment.objects.filter(campaign=campaign, number__lte=campaign.turn + 1)
    return [visible_commitment(view, row) for row in rows]


def commitment_row(view: Any, number: int) -> SeedCommitment | None:
    """Turn ``number``'s commitment row, up to the coming turn's (None past it)."""
    if not 1 <= number <= view.campaign.turn + 1:
        return None
    return SeedCommitment.objects.filter(campaign=view.campaign, number=number).first()


def commitment_of(view: Any, number: int) -> CommitmentView | None:
    row = commitment_row(view, number)
    return None if row is None else visible_commitment(view, row)


def announcement(*, campaign: Campaign) -> str | None:
    """The line a turn notification carries: the coming turn's commitment (None once the
    campaign has ended). Safe for every player: a commitment hides its seed."""
    if campaign.status == Campaign.Status.FINISHED:
        return None
    row = ensure_commitment(campaign=campaign, number=campaign.turn + 1)
    return (
        f"The dice of turn {row.number} are fixed before its orders: nobody, the game master "
        "included, can change them. Once it is played, its page shows the seeds and "
        f"checks every die you may see against this code: {row.commitment}."
    )


# --- TURN.json -------------------------------------------------------------------------------


class NotVerifiable(LookupError):
    """A turn with no TURN.json: not played yet, or played before its dice were committed."""


def turn_file(view: Any, turn: Turn, row: SeedCommitment | None = None) -> dict[str, Any]:
    """The TURN.json of a played turn, as ``view`` may see it (``row``: its commitment,
    when the caller has read it already)."""
    if turn.status != Turn.Status.DONE:
        raise NotVerifiable(f"turn {turn.number} is not played yet: its seed is not shown")
    if row is None:
        row = commitment_row(view, turn.number)
    if row is None or row.revealed_at is None or row.seed != turn.seed:
        raise NotVerifiable(f"turn {turn.number} was played before its dice were committed")
    seen = visible_commitment(view, row)
    orders = [
        {key: order.get(key) for key in ("company", "kind", "target", "sniper")}
        for order in turn.orders or []
        if view.sees_everything or order.get("side") == view.side
    ]
    battles = view.battles().filter(turn=turn).order_by("key")
    return {
        "format": FORMAT,
        "campaign": view.campaign.name,
        "turn": turn.number,
        "view": "everything" if view.sees_everything else view.side,
        "commitment": {"turn": seen.commitment, "branches": seen.branches},
        "committed_at": seen.committed_at.isoformat(),
        "seed_changes": seen.changes,
        "revealed": seen.revealed,
        "turn_seed": seen.turn_seed,
        "start_state": turn.start_state if view.sees_everything else None,
        "orders": orders,
        # The sides a player played; the AI played the others (its moves follow from it).
        "players": list(turn.players or []),
        "log": view.records(turn.log or [], number=turn.number),
        "battles": [
            {
                "key": b.key,
                "attacker_side": b.attacker_side,
                "defender_side": b.defender_side,
                "mode": b.mode,
                "status": b.status,
                "seed": b.seed,
                "spec": b.spec,
                "result": b.result,
                "log": b.log,
            }
            for b in battles
        ],
    }


def verify_played_turn(view: Any, turn: Turn, row: SeedCommitment | None = None) -> Verdict | None:
    """The same check ``python -m rules verify`` makes, run on the TURN.json the viewer
    may download; None if the turn has none."""
    try:
        data = turn_file(view, turn, row)
    except NotVerifiable:
        return None
    return verify_turn(json.loads(json.dumps(data, cls=DjangoJSONEncoder)))
