"""Campaign pairs that differ only in what one side may not know (rulings section 6).

A ``Pair`` is two campaigns built the same way from the Korona scenario: the same seed,
the same settings, the same players, the same orders for the viewing side, played for
the same turns. Each twin then has its own ``Hidden`` facts about the enemy: where its
companies out of the viewer's sight start, their stands, quality, standing orders and
orders, the seed of a battle not yet fought, the campaign seed that the turns not yet
played will use, and which of two glimpsed companies stands where (``swap``). Their
rolls the viewer may not see follow from those.

Both twins are built in the same database, one after the other, each inside a
savepoint that is rolled back (``twin``): so their rows get the same ids (PostgreSQL's
sequences, which a rollback does not rewind, are set back too), and the clock is the
same fixed instant for both (``frozen_clock``). The enemy's orders are given before the
viewer's own, so that ids drawn from a sequence both sides share would show (an
order's id is its company's and turn's: ``campaign.models.order_id``).

The salts of the dice commitments are fresh randomness in the product (``secrets``);
in each twin they come from the same fixed sequence instead (``twin_salts``), so both
twins draw the same salts and are otherwise reproducible. Twins that differ in the seed
of a turn not yet played then publish different commitments to it: the comparison
replaces each twin's own commitment digests by a placeholder (``commitment_digests``,
``tests.fog.crawl.normalise_commitments``), and nothing else (docs/pages.md, "Fog of
war").

``knowledge(campaign, side)`` is what section 6 says the side knows, computed from the
game master's data independently of the visibility code under test. A pair whose twins
give the viewer different knowledge is not a pair of twins (a hidden difference became
known, as rules allow: a company that walked into sight, who moves first): the tests
leave it out and count it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import itertools
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.cache import cache
from django.core.management.color import no_style
from django.db import connection, transaction

from battles.models import Battle
from campaign.models import (
    Area,
    Campaign,
    Company,
    Membership,
    Order,
    SeedCommitment,
    SideReady,
    Turn,
)
from campaign.services import commitments
from campaign.services.scenarios import create_campaign
from campaign.services.schedule import mark_side_ready
from campaign.services.snapshot import load_snapshot
from campaign.services.turns import advance_turn, give_order
from rules.campaign.scenario import dump_scenario, parse_scenario
from rules.campaign.state import CampaignState
from rules.campaign.turn import OrderError
from tests.campaign.conftest import korona_doc

SIDES = ("australian", "japanese")
PASSWORD = "a long password for tests"
FROZEN = dt.datetime(2026, 3, 2, 18, 0, tzinfo=dt.UTC)

OrderSpec = tuple[str, str, str | None]  # company, kind, target area name


@dataclass(frozen=True)
class Hidden:
    """The enemy facts of one twin that the viewer may not know."""

    starts: Mapping[str, str] = field(default_factory=dict)  # company -> starting area
    rifles: Mapping[str, int] = field(default_factory=dict)  # company -> rifle squads held
    # company -> its establishment, held in full (before ``rifles``): a company of
    # another make-up, or one whose battle losses supply did not replace
    establishment: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    quality: Mapping[str, str] = field(default_factory=dict)
    standing: Mapping[str, str] = field(default_factory=dict)  # company -> hold/aggressive
    orders: tuple[tuple[OrderSpec, ...], ...] = ()  # per turn, and then the coming one
    battle_seed: int = 0  # added to the seed of each battle not yet fought
    campaign_seed: int | None = None  # the seed of the turns not yet played
    # Two enemy companies that trade places (after ``starts``): with both in the viewer's
    # sight, the twins differ only in which company stands where, which section 6 does
    # not let the viewer know ("without name"), nor its quality or anything else that
    # tells one company from another.
    swap: tuple[str, str] | None = None


@dataclass(frozen=True)
class Pair:
    viewer: str  # the side that may not know the hidden facts
    twins: tuple[Hidden, Hidden]
    seed: int = 1
    turns: int = 2
    settings: Mapping[str, Any] = field(default_factory=dict)
    starts: Mapping[str, str] = field(default_factory=dict)  # both twins: company -> area
    controllers: Mapping[str, str] = field(default_factory=dict)  # both: area -> side
    orders: tuple[tuple[OrderSpec, ...], ...] = ()  # the viewer's, per turn and the coming
    ready: tuple[str, ...] = ()  # sides ready for the coming turn (public)

    @property
    def enemy(self) -> str:
        return next(side for side in SIDES if side != self.viewer)


# --- the same ids and the same clock in both twins -------------------------------------


class _Rollback(Exception):
    pass


class _FrozenDatetime(dt.datetime):
    @classmethod
    def now(cls, tz: Any = None) -> dt.datetime:  # type: ignore[override]
        return FROZEN if tz is None else FROZEN.astimezone(tz)


@contextlib.contextmanager
def frozen_clock() -> Iterator[None]:
    """Every ``timezone.now()`` is the same instant, for both twins and their crawls, and
    so is the "now" of a feed with no entries (Django's feed generator asks datetime)."""
    frozen_module = mock.Mock(wraps=dt, datetime=_FrozenDatetime, timezone=dt.timezone)
    with (
        mock.patch("django.utils.timezone.now", return_value=FROZEN),
        mock.patch("django.utils.feedgenerator.datetime", frozen_module),
    ):
        yield


def _reset_sequences() -> None:
    """Set every table's id sequence just past its largest id (PostgreSQL; SQLite's
    AUTOINCREMENT counters live in a table that the rollback restores)."""
    statements = connection.ops.sequence_reset_sql(no_style(), list(apps.get_models()))
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


def twin_salts() -> Callable[[], str]:
    """The same sequence of salts for each twin: the n-th salt drawn is SHA-256 of n. (A
    test's stand-in for ``secrets``: a salt never comes from anything of the campaign.)"""
    drawn = itertools.count()
    return lambda: hashlib.sha256(f"twin salt {next(drawn)}".encode()).hexdigest()


@contextlib.contextmanager
def twin(*, fixed_salts: bool = True) -> Iterator[None]:
    """A savepoint rolled back at the end, with fresh id sequences, an empty cache and
    the twins' salt sequence from its start (``fixed_salts`` False: the product's)."""
    _reset_sequences()
    cache.clear()
    source = twin_salts() if fixed_salts else commitments.salt_source
    try:
        with mock.patch.object(commitments, "salt_source", source), transaction.atomic():
            yield
            raise _Rollback
    except _Rollback:
        pass
    cache.clear()
    _reset_sequences()


def commitment_digests(campaign: Campaign) -> dict[str, str]:
    """Each published commitment digest of the campaign (its turns' and their
    branches'), and the placeholder that stands for it in a comparison."""
    digests: dict[str, str] = {}
    for row in SeedCommitment.objects.filter(campaign=campaign):
        digests[row.commitment] = f"<commitment of turn {row.number}>"
        for branch, digest in row.branch_commitments.items():
            digests[digest] = f"<commitment of turn {row.number}, {branch}>"
    return digests


# --- building a twin --------------------------------------------------------------------


@dataclass
class Built:
    campaign: Campaign
    users: dict[str, Any]  # side -> its player; "outsider" -> a user in no campaign


def scenario_doc(pair: Pair, hidden: Hidden) -> dict[str, Any]:
    """The scenario a twin is created from."""
    doc = korona_doc()
    doc["settings"] = {**doc.get("settings", {}), **dict(pair.settings)}
    for area in doc["areas"]:
        area["controller"] = pair.controllers.get(area["name"], area["controller"])
    for company in doc["companies"]:
        name = company["name"]
        company["area"] = pair.starts.get(name, company["area"])
        company["area"] = hidden.starts.get(name, company["area"])
        if name in hidden.establishment:
            company["establishment"] = dict(hidden.establishment[name])
            company["stands"] = dict(hidden.establishment[name])
        if name in hidden.rifles:
            company.setdefault("establishment", dict(company["stands"]))
            company["stands"]["rifle_squad"] = hidden.rifles[name]
        if name in hidden.quality and company.get("kind") == "fighting":
            company["quality"] = hidden.quality[name]
        if name in hidden.standing:
            company["standing_order"] = hidden.standing[name]
    if hidden.swap is not None:
        first, second = (
            next(c for c in doc["companies"] if c["name"] == name) for name in hidden.swap
        )
        first["area"], second["area"] = second["area"], first["area"]
    return doc


def _give(campaign: Campaign, orders: tuple[OrderSpec, ...], side: str) -> None:
    areas = {area.name: area for area in Area.objects.filter(campaign=campaign)}
    for name, kind, target in orders:
        company = Company.objects.filter(campaign=campaign, name=name).first()
        if company is None:
            continue
        # An order the rules do not allow now is left out: the company follows its
        # standing order.
        with contextlib.suppress(OrderError):
            give_order(company=company, kind=kind, target=areas.get(target or ""), side=side)


def build(pair: Pair, index: int) -> Built:
    """One twin, from nothing, in the current savepoint."""
    hidden = pair.twins[index]
    users = {}
    for key in (*SIDES, "outsider"):
        user = get_user_model().objects.create_user(key, f"{key}@example.com")
        # The same hash in both twins (a fresh salt each time would change the tokens
        # made from it: feeds, password resets).
        user.password = make_password(PASSWORD, salt=f"twins{key}")
        user.save(update_fields=["password"])
        users[key] = user
    campaign = create_campaign(data=scenario_doc(pair, hidden), name="Twins", seed=pair.seed)
    for side in SIDES:
        Membership.objects.create(user=users[side], campaign=campaign, side=side)
    for number in range(pair.turns + 1):
        # The enemy's orders first: an order's id is its company's and turn's, so the
        # enemy's orders (which the twins differ in) must not shift the viewer's ids.
        own = pair.orders[number] if number < len(pair.orders) else ()
        theirs = hidden.orders[number] if number < len(hidden.orders) else ()
        campaign.refresh_from_db()
        if campaign.status == Campaign.Status.FINISHED or _waiting(campaign):
            break
        _give(campaign, theirs, pair.enemy)
        _give(campaign, own, pair.viewer)
        if number == pair.turns:
            break
        advance_turn(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    if hidden.battle_seed:
        for battle in Battle.objects.filter(campaign=campaign, status=Battle.Status.PENDING):
            battle.seed = (battle.seed + hidden.battle_seed) % 2**63
            battle.save(update_fields=["seed"])
    if hidden.campaign_seed is not None:
        Campaign.objects.filter(pk=campaign.pk).update(seed=hidden.campaign_seed)
    campaign.refresh_from_db()
    if campaign.status != Campaign.Status.FINISHED and not _waiting(campaign):
        # The coming turn is committed to from the campaign seed as it now is (the
        # hidden one, if any): made afresh in every twin, so both draw the same salts.
        SeedCommitment.objects.filter(campaign=campaign, number=campaign.turn + 1).delete()
        commitments.ensure_commitment(campaign=campaign, number=campaign.turn + 1)
    for side in pair.ready:
        if not _waiting(campaign) and campaign.status != Campaign.Status.FINISHED:
            mark_side_ready(campaign=campaign, side=side)
    campaign.refresh_from_db()
    return Built(campaign, users)


def _waiting(campaign: Campaign) -> bool:
    return Turn.objects.filter(campaign=campaign, status=Turn.Status.BATTLES_PENDING).exists()


# --- what the viewer may know (section 6), from the GM's data ---------------------------


def _band(company: Any) -> str:
    held = sum(company.stands.values())
    share = held / (sum(company.establishment.values()) or 1)
    return "weak" if share < 0.5 else "strong" if share >= 0.85 else "average"


def _sight(state: CampaignState, side: str) -> set[str]:
    occupied = {c.area for c in state.companies.values() if c.side == side}
    linked = {b for a, b in state.links if a in occupied} | {
        a for a, b in state.links if b in occupied
    }
    return occupied | linked


def knowledge(campaign: Campaign, side: str) -> dict[str, Any]:
    """Everything section 6 lets ``side`` know of the campaign, as plain data."""
    turns = list(Turn.objects.filter(campaign=campaign).order_by("number"))
    states = [parse_scenario(t.start_state) for t in turns if t.start_state]
    states.append(load_snapshot(campaign=campaign))
    sight = [_sight(state, side) for state in states]
    known: dict[str, Any] = {"boundaries": [], "turns": []}
    last_seen: dict[str, tuple[str | None, int]] = {}
    for k, (state, seen) in enumerate(zip(states, sight, strict=True)):
        base = state.sides[side].base if side in state.sides else None
        for name, area in state.areas.items():
            # The start is the scenario's public map; after it, only what is in sight,
            # and the side's own base, which it always knows (docs/campaign.md).
            if k == 0 or name in seen or name == base:
                last_seen[name] = (area.controller, k)
        known["boundaries"].append(
            {
                "own": sorted(
                    json.dumps(c, sort_keys=True)
                    for c in dump_scenario(state)["companies"]
                    if c["side"] == side
                ),
                # A glimpse is an area and a band: not which company it is.
                "glimpses": sorted(
                    (c.area, _band(c))
                    for c in state.companies.values()
                    if c.side != side and c.fighting and c.area in seen
                ),
                "control": sorted(
                    (name, controller, k if name in seen or name == base else when)
                    for name, (controller, when) in last_seen.items()
                ),
            }
        )
    for i, turn in enumerate(turns):
        before = sight[i]
        after = sight[i + 1] if i + 1 < len(sight) else sight[-1]
        start = states[i]
        records: list[Any] = []
        for record in turn.log or []:
            phase = record.get("phase")
            if phase in ("naval", "aerial"):
                if record.get("effect") == "strafe_company":
                    strafed = record.get("strafed")
                    target = start.companies.get(strafed) if strafed else None
                    shown = (
                        (target.area, _band(target))
                        if target is not None and target.area in before
                        else "out of sight"
                    )
                    records.append((phase, record.get("dice"), "strafe", shown))
                else:
                    records.append((phase, record.get("dice"), record.get("outcome")))
            elif phase == "initiative":
                position = SIDES.index(side) if side in SIDES else 0
                dice = record.get("dice") or []
                own = dice[position] if position < len(dice) else None
                mods = [m for m in record.get("modifiers") or [] if m["reason"].startswith(side)]
                if record.get("outcome") != "tie":
                    records.append(("initiative", own, mods, record.get("outcome")))
            elif phase == "control":
                if record.get("target") in before and record.get("target") in after:
                    records.append(("control", record.get("target"), record.get("side")))
            elif record.get("battle") is not None:
                if side in (record.get("attacker_side"), record.get("defender_side")):
                    records.append(json.dumps(record, sort_keys=True))
            elif phase == "end" or record.get("side") == side:
                records.append(json.dumps(record, sort_keys=True))
        known["turns"].append({"number": turn.number, "status": turn.status, "records": records})
    known["battles"] = [
        {
            "key": b.key,
            "turn": b.turn.number,
            "area": b.area.name,
            "status": b.status,
            "mode": b.mode,
            "result": b.result,
            "log": b.log,
            "spec": b.spec,
            "seed": b.seed if b.status != Battle.Status.PENDING else None,
        }
        for b in Battle.objects.filter(campaign=campaign).select_related("turn", "area")
        if side in (b.attacker_side, b.defender_side)
    ]
    known["orders"] = sorted(
        Order.objects.filter(campaign=campaign, company__side=side).values_list(
            "id", "company__name", "turn_number", "kind", "target__name"
        )
    )
    known["ready"] = sorted(
        SideReady.objects.filter(campaign=campaign).values_list("side", "turn_number")
    )
    known["campaign"] = (
        campaign.turn,
        campaign.status,
        campaign.winner,
        campaign.end_reason,
        campaign.next_deadline,
    )
    return known


def everything(campaign: Campaign) -> str:
    """A digest of the whole campaign as the GM has it: twins must differ in it."""
    facts = {
        "state": dump_scenario(load_snapshot(campaign=campaign)),
        "seed": campaign.seed,
        "logs": list(Turn.objects.filter(campaign=campaign).values_list("log", flat=True)),
        "battles": list(Battle.objects.filter(campaign=campaign).values_list("seed", "log")),
        "orders": list(
            Order.objects.filter(campaign=campaign).values_list("company__name", "kind")
        ),
    }
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()
