"""Campaigns from scenario files, and back: create a campaign, export one."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.db.models import Model

from campaign.models import AirGroup, Area, Campaign, Company, CompanyStands, Link, Ship, Side
from campaign.services.commitments import ensure_commitment
from campaign.services.deadlines import Schedule, check_schedule
from campaign.services.schedule import set_schedule
from campaign.services.snapshot import causes_of, company_row, load_snapshot, stand_rows
from rules.campaign.scenario import (
    campaign_name_problem,
    dump_scenario,
    parse_scenario,
    read_scenario,
    settings_to_json,
)
from rules.campaign.state import CampaignState
from rules.refusals import Refusal
from rules.spec import MAX_SEED

# A drawn seed: every bit the database holds. A fought battle's seed and a played turn's
# branch seeds are shown to players and derive from it, so a narrower one could be found
# by trying every value, and every later turn predicted (docs/campaign.md).
SEED_BITS = 63


class CampaignExists(Refusal):
    """A campaign of that name exists already."""


def create_campaign(*, data: Any, name: str, seed: int | None = None) -> Campaign:
    """Create a campaign, named ``name``, from a decoded scenario document.

    The document is checked first: a ``ScenarioError`` lists every problem and nothing is
    written. The seed is ``seed`` if given, else the scenario's, else drawn at random.
    A name already taken raises ``CampaignExists`` and writes nothing.
    """
    state = parse_scenario(data)
    if (problem := campaign_name_problem(name)) is not None:
        raise ValueError(problem)
    name = name.strip()
    if seed is None:
        given = data.get("seed") if isinstance(data, Mapping) else None
        seed = state.seed if given is not None else secrets.randbits(SEED_BITS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}")
    with transaction.atomic():
        try:
            with transaction.atomic():
                campaign = Campaign(
                    name=name,
                    seed=seed,
                    turn=state.turn,
                    status=Campaign.Status.FINISHED if state.finished else Campaign.Status.ACTIVE,
                    winner=state.winner,
                    end_reason=state.end_reason or "",
                    end_causes=causes_of(state),
                    settings=settings_to_json(state.settings),
                )
                # Its History's first line says so, as its rows' do (not "None").
                campaign._change_reason = "created from the scenario"  # type: ignore[attr-defined]
                campaign.save(force_insert=True)
        except IntegrityError as exc:
            if Campaign.objects.filter(name=name).exists():
                raise CampaignExists(f"a campaign named {name!r} exists already") from exc
            raise
        _create_contents(campaign=campaign, state=state)
        if not state.finished:  # the first turn's dice, committed before its orders open
            ensure_commitment(campaign=campaign, number=state.turn + 1)
    return campaign


def _first_history(model: type[Model], rows: list[Any]) -> list[Any]:
    """The first history row of each row created in bulk (``bulk_create`` sends no
    signals), so a GM's later adjustment shows what it changed from."""
    model.history.bulk_history_create(  # type: ignore[attr-defined]
        rows, default_change_reason="created from the scenario"
    )
    return rows


def _create_contents(*, campaign: Campaign, state: CampaignState) -> None:
    """Everything but the campaign row: one bulk INSERT per table."""
    areas = _first_history(
        Area,
        Area.objects.bulk_create(
            Area(
                campaign=campaign,
                name=a.name,
                zone=a.zone,
                track=a.track,
                vegetation=a.vegetation,
                plains=a.plains,
                features=list(a.features),
                x=a.x,
                y=a.y,
                controller=a.controller,
            )
            for a in state.areas.values()
        ),
    )
    area_ids = {area.name: area.pk for area in areas}
    Side.objects.bulk_create(
        Side(campaign=campaign, key=s.key, name=s.name, base_id=area_ids[s.base])
        for s in state.sides.values()
    )
    Link.objects.bulk_create(
        Link(campaign=campaign, a_id=area_ids[a], b_id=area_ids[b]) for a, b in state.links
    )
    companies = _first_history(
        Company,
        Company.objects.bulk_create(
            company_row(campaign=campaign, company=c, area_ids=area_ids)
            for c in state.companies.values()
        ),
    )
    _first_history(
        CompanyStands,
        CompanyStands.objects.bulk_create(
            row
            for company_id, company in zip(
                (c.pk for c in companies), state.companies.values(), strict=True
            )
            for row in stand_rows(company_id=company_id, company=company)
        ),
    )
    _first_history(
        Ship,
        Ship.objects.bulk_create(
            Ship(
                campaign=campaign,
                name=s.name,
                side=s.side,
                port_id=area_ids[s.port],
                present=s.present,
            )
            for s in state.ships
        ),
    )
    _first_history(
        AirGroup,
        AirGroup.objects.bulk_create(
            AirGroup(
                campaign=campaign,
                side=g.side,
                base_id=area_ids[g.base],
                buffalos=g.buffalos,
                bombers=g.bombers,
            )
            for g in state.air
        ),
    )


def export_campaign(*, campaign: Campaign) -> dict[str, Any]:
    """The campaign as it stands, as a scenario document (its name and seed included):
    ``create_campaign`` of it gives a campaign with the same snapshot."""
    return dump_scenario(load_snapshot(campaign=campaign))


# The reference scenario that ships with Korona: the one a GM starts from without a file.
KORONA_SCENARIO = Path(django_settings.BASE_DIR) / "fixtures" / "scenarios" / "korona.json"


def korona_scenario() -> Any:
    """The Korona scenario as shipped, decoded."""
    return read_scenario(KORONA_SCENARIO)


def start_campaign(
    *,
    data: Any,
    name: str,
    seed: int | None = None,
    choices: Mapping[str, Any],
    schedule: Schedule,
) -> Campaign:
    """``create_campaign`` with the GM's main choices over the scenario's own settings
    (checked as a scenario's are) and its schedule, at once: a ``ScenarioError``, a
    ``ScheduleRefused`` or a name taken creates nothing."""
    document = dict(data) if isinstance(data, Mapping) else data
    if isinstance(document, dict):
        given = document.get("settings")
        document["settings"] = {**(given if isinstance(given, Mapping) else {}), **choices}
    checked = check_schedule(schedule)
    with transaction.atomic():
        campaign = create_campaign(data=document, name=name, seed=seed)
        if checked.kind != Campaign.ScheduleKind.NONE:
            set_schedule(
                campaign=campaign,
                kind=checked.kind,
                every_hours=checked.every_hours,
                weekday=checked.weekday,
                time_of_day=checked.time_of_day,
                timezone=checked.timezone,
            )
        else:
            # No deadlines, but the time zone is still the campaign's clock on every page.
            Campaign.objects.filter(pk=campaign.pk).update(timezone=checked.timezone)
            campaign.timezone = checked.timezone
        _schedule_in_created_history(campaign)
    return campaign


def _schedule_in_created_history(campaign: Campaign) -> None:
    """The campaign's first History row ("created from the scenario") given the schedule it
    was made with. The row is saved before the schedule is set (``set_schedule`` writes
    with an update, no history), so without this the History showed the creation with no
    schedule and blamed the first later change for it ("Schedule kind none -> weekly")."""
    created = Campaign.history.filter(id=campaign.pk).order_by("history_id").first()
    if created is None:  # history kept quiet by the caller: nothing to correct
        return
    row = Campaign.objects.get(pk=campaign.pk)
    fields = ("schedule_kind", "every_hours", "weekday", "time_of_day", "timezone", "next_deadline")
    for name in fields:
        setattr(created, name, getattr(row, name))
    created.save()
