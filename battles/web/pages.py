"""The players' battle pages: a battle's report with its replay, and its printable sheet.

Every page reads the campaign through a ``CampaignView`` (fog of war in one place): a
battle is shown only when ``battles.services.reading.battle_open`` says so (404 otherwise, as for a
stranger).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_safe

from battles.models import Battle
from battles.services.correction import result_words
from battles.services.reading import battle_open, battle_seed, battle_spec, result_corrections
from battles.web import battleview
from campaign.services.visibility import CampaignView
from config.pages import campaign_view, login_required, page_context
from rules.names import area_vegetation
from rules.rulesets import stand_sides

# The turn's big JSON columns a battle page does not need.
_TURN_HEAVY = ("start_state", "report", "report_text")


def _side_names(view: CampaignView) -> dict[str, str]:
    return {key: side.name for key, side in view.state.sides.items()}


def _open_battle(view: CampaignView, battle_id: int) -> Battle:
    battle = (
        Battle.objects.filter(pk=battle_id, campaign=view.campaign)
        .select_related("area", "turn")
        .defer("turn__log", *(f"turn__{name}" for name in _TURN_HEAVY))
        .prefetch_related("attackers", "defenders")
        .first()
    )
    if battle is None or not battle_open(view, battle):
        raise Http404("no such battle")
    return battle


def _battle_context(view: CampaignView, battle: Battle) -> dict[str, Any]:
    names = _side_names(view)
    spec = battle_spec(view, battle)
    companies = {
        key: [(c.name, view.company_id(c.name)) for c in rows.all()]
        for key, rows in (("attacker", battle.attackers), ("defender", battle.defenders))
    }
    table = battleview.table_of(battle.spec, battle.seed, battle.log, battle.result)
    # Stands by their side, "Japanese rifle squad 1": both sides are on the page already.
    sides = stand_sides(spec)
    frames = battleview.replay_frames(battle.log, ruleset=battle.ruleset, table=table, sides=sides)
    forces = battleview.forces_of(
        spec,
        battle.result,
        side_names=names,
        companies=companies,
        log=battle.log,
        lost_stands=frames[-1]["lost"] if frames else (),
    )
    labels = table.labels(frames[0]["drawn"] if frames else None)
    return {
        "battle": battle,
        "seed": battle_seed(view, battle),  # None until it is fought (section 6)
        "forces": forces,
        "table": table,
        "frames": frames,
        "counters": battleview.counters(frames, forces, table, sides),
        # The squares' names where the first step's counters leave room (the sheet's
        # picture, with no counters, writes them in their first places).
        "labels": labels,
        "woods": table.woods_among(labels),  # the trees clear of those names
        # ... and those the stands leave no room for, said under the picture.
        "unwritten": battleview.unwritten_words(labels),
        "unwritten_lead": battleview.UNWRITTEN_LEAD,
        "stand_sides": sides,
        "outcome": battleview.outcome_words(battle.result, forces),
        "attack": battleview.attack_words(forces),
        "ruleset_label": battleview.ruleset_label(battle.ruleset),
        "spec": spec,
        "area": spec.get("area", {}),
        "vegetation": area_vegetation(spec.get("area", {}).get("vegetation")),
    }


@login_required
@require_safe
def battle_report(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    battle = _open_battle(view, battle_id)
    context = _battle_context(view, battle)
    context["log_turns"] = battleview.log_turns(
        battle.log, context["table"], context["stand_sides"], ruleset=battle.ruleset
    )
    context["correction"] = _correction(view, battle)
    return render(request, "battles/report.html", page_context(view, **context))


def _correction(view: CampaignView, battle: Battle) -> dict[str, Any] | None:
    """The GM's correction of a result entered from the table, as the report tells it:
    when, the GM's reason, and the result first entered (the public log's words)."""
    if battle.status != Battle.Status.ENTERED:
        return None
    row = result_corrections(view.campaign.pk, [battle.pk]).get(battle.pk)
    if row is None:
        return None
    before = (row.details or {}).get("before") or {}
    return {
        "when": row.created_at,
        # The GM's own sentence, closed with a full stop unless it has its own.
        "reason": row.reason.strip() + ("" if row.reason.strip()[-1:] in ".!?" else "."),
        "was": result_words(battle, before, _side_names(view)) if before else "",
    }


@login_required
@require_safe
def battle_sheet(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    view = campaign_view(request, campaign_id)
    battle = _open_battle(view, battle_id)
    context = _battle_context(view, battle)
    positions = battleview.deploy_positions(battle.log, context["table"], context["stand_sides"])
    context.update(
        rules=battleview.special_rules(context["spec"], battle.log),
        support=battleview.support_available(battle.spec, _side_names(view)),
        # Each force's set-up under its side's name ("Japanese"), not its key.
        positions=[(f.side_name, positions[f.key]) for f in context["forces"] if positions[f.key]],
    )
    return render(request, "battles/sheet.html", page_context(view, **context))


BATTLE = "campaigns/<int:campaign_id>/battles/<int:battle_id>/"

urlpatterns = [
    path(BATTLE, battle_report, name="battle"),
    path(f"{BATTLE}sheet/", battle_sheet, name="battle-sheet"),
]
