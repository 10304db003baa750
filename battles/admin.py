"""Battles in the GM's admin: read their reports and sheets, enter tabletop results.

A battle's spec, result and log are the record and read-only. While a battle is pending
the GM may enter its tabletop result (checked against the forces present by
``enter_battle_result``) or let the rules fight it after all (``fight_battle_now``).
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from django.contrib import admin, messages
from django.contrib.admin.models import LogEntry
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_POST

from battles.forms import CorrectionForm, ResultForm, entered_boxes, result_in_words, side_name
from battles.models import Battle
from battles.services.correction import (
    CorrectionRefused,
    correct_battle_result,
    correction_refusal,
)
from battles.services.results import (
    ResultRefused,
    enter_battle_result,
    entered_result_problem,
    fight_battle_now,
)
from battles.web import battleview
from battles.web.forces import (
    battle_place,
    battle_words,
    force_companies,
    force_name,
    stands_words,
)
from campaign.services import ending
from campaign.services.adjustments import AdjustmentRefused, StaleChange, campaign_version
from campaign.services.fogwords import hidden_in_text
from campaign.services.rollback import rolled_back_battle
from config.adminpages import (
    admin_page,
    admin_row,
    back_to_change,
    change_url,
    form_page,
    row_pages,
    say_done,
)
from config.refusals import sentence
from rules import names, rulesets
from rules.rulesets import stand_sides

# The battle's state on the GM's report, in words.
STATUS_WORDS: dict[str, str] = {
    Battle.Status.PENDING: "not fought yet",
    Battle.Status.FOUGHT: "fought by the rules",
    Battle.Status.ENTERED: "fought at the table, its result entered",
}


ROLES = {"attacker": "attacking", "defender": "defending"}


def winner_words(battle: Battle) -> str:
    """Who won a battle with a result, by its side's name in the campaign ("the Japanese
    won"; a draw, "neither side won"), for the Battles list: its rows said only "fought by
    the rules", and a walk-through's GM opened each battle to learn who had won. "" with
    no result yet."""
    side_of = {"attacker": battle.attacker_side, "defender": battle.defender_side}
    if battle.status == Battle.Status.PENDING or battle.winner is None:
        return ""
    key = side_of.get(battle.winner)
    if key is None:
        return "neither side won"
    sides = {side.key: side.name for side in battle.campaign.sides.all()}
    return f"the {sides.get(key) or names.side(key)} won"


class BattleList(ChangeList):
    """The Battles list, with what each row's words read (``battle_words``): its
    companies and its campaign's side names, three queries for the page."""

    def get_queryset(
        self, request: HttpRequest, exclude_parameters: Any = None
    ) -> QuerySet[Battle]:
        rows = super().get_queryset(request, exclude_parameters)
        return rows.prefetch_related("attackers", "defenders", "campaign__sides")


def forces_preview(battle: Battle, sides: dict[str, str]) -> list[str]:
    """Each company the battle's forces hold, with its role and side, as the result form
    and the correction form list them under "In this battle" ("Attacking, the Japanese:
    1st Company", then its stands as ``force_companies`` says them)."""
    side_of = {"attacker": battle.attacker_side, "defender": battle.defender_side}
    return [
        f"{acting.capitalize()}, the {sides.get(side_of[role], side_of[role])}: "
        f"{name}{f': {stands}' if stands else ''}"
        for role, acting in ROLES.items()
        for name, stands in force_companies(battle, role)
    ]


def correcting(battle: Battle) -> str:
    """How a wrong result is put right, said on the result form before it is sent and on
    the fought battle's page. A result typed in from the table (or to be) is corrected,
    until the next turn is played, by "Correct the result" (``correct_battle_result``: its turn
    played again with the same dice); after that, and for a battle fought by the rules,
    only a roll-back of its turn undoes it (``rollback_to_turn``). A walk-through entered
    a result and found no word of it."""
    n = battle.turn.number
    again = (
        "each of its battles waits for you to enter its result again"
        if battle.mode == "tabletop"
        else "its battles are fought again by the rules"
    )
    link = reverse("admin:campaign_campaign_rollback", args=[battle.campaign_id]) + f"?number={n}"
    undoes = format_html(
        "that undoes turn {} and any later turn, with every battle in them and its result. "
        "Turn {} is then played again from the orders already given (when you press "
        '"Advance turn now", or once every side is ready again), and {}. If the turn was '
        "complete, it is played with new dice, so its supply rolls, events and battles may "
        "come out differently.",
        n,
        n,
        again,
    )
    if battle.mode != "tabletop" or (
        battle.status == Battle.Status.ENTERED and correction_refusal(battle) is not None
    ):
        return format_html(
            'To correct a mistake, <a href="{}">roll the campaign back</a> to the start of '
            "turn {}: {}",
            link,
            n,
            undoes,
        )
    # In the order a GM meets them: the correction while it is offered, then what is left
    # once it is not (the walk of 7 December 2026 read "only a roll-back changes it. To
    # correct a mistake, roll the campaign back ...", as if a roll-back were the way now).
    return format_html(
        'A result typed in wrong is corrected with "Correct the result" on the battle\'s '
        "page until turn {} is played: turn {} is then played again with the same dice, "
        "orders and other results, and the result as corrected. Once turn {} has been "
        'played, "Correct the result" is no longer offered, and the only way to change the '
        'result is to <a href="{}">roll the campaign back</a> to the start of turn {}: {}',
        n + 1,
        n,
        n + 1,
        link,
        n,
        undoes,
    )


# The result form, or the correction's (``CorrectionForm``), as the check gives it back.
Form = TypeVar("Form", bound=ResultForm)


def result_check(
    battle: Battle, form: Form, data: Any, forces: dict[str, str], sides: dict[str, str]
) -> tuple[Form, list[str]] | None:
    """A result sent to be entered, checked first: None when it is the result the check
    page showed and fits the battle (enter it); else the form to show again, with the
    reason it cannot be entered, or with the result in words to check (the first press,
    or the boxes changed since): nothing entered either way."""
    if not data:
        return None
    if not form.is_valid():
        return form, []
    winner, losses = form.cleaned_data["winner"], form.losses()
    problem = entered_result_problem(battle.spec, {"winner": winner, "losses": losses})
    if problem is not None:  # said before the check: a result that cannot be entered
        form.add_error(None, sentence(ResultRefused(problem)))
        return form, []
    if form.is_checked():
        return None
    data = data.copy()
    data["checked"] = form.result_key()
    again = type(form)(data, spec=battle.spec, forces=forces, sides=sides)
    again.is_valid()
    side_of = {role: side_name(battle.spec[role].get("side", ""), sides) for role in ROLES}
    return again, result_in_words(winner, losses, forces, side_of)


# How a battle is fought, after "how fought": the settings' words
# (``names.battle_mode``) less their "fought", which the heading says.
HOW_FOUGHT = {
    "auto": "by the rules, at once",
    "tabletop": "on the table (the game master enters each result)",
}


class HowFought(admin.SimpleListFilter):
    """The list's filter by ``mode``, under a heading in words ("By mode" was the field's
    name)."""

    title = "how fought"
    parameter_name = "mode"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return list(HOW_FOUGHT.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Battle]) -> QuerySet[Battle]:
        value = self.value()
        return queryset.filter(mode=value) if value else queryset


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    # No column of how it was fought: the status says it ("fought by the rules: the
    # Japanese won"; "not fought yet: enter its result" at the table), and a column
    # headed "battles are" said it again (the solo walk of 7 December 2026).
    list_display = ["battle_shown", "campaign", "turn_number", "status_shown"]
    list_filter = ["status", HowFought, "campaign"]
    list_select_related = ["campaign", "turn__campaign", "area"]
    # The latest turn's battles first, as the GM changes' list: after months, the
    # campaign order put this week's battles (one waiting for its result among them) on
    # the list's last page (a walk-through). A turn's battles in their own order.
    ordering = ["-turn_id", "id"]
    search_fields = ["area__name", "key"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "campaign",
                    "turn",
                    "area",
                    "attacker_words",
                    "attacking_companies",
                    "attacker_after",
                    "defender_words",
                    "defending_companies",
                    "defender_after",
                    "mode_words",
                    "ruleset_words",
                    "seed",
                    "status",
                    "result_text",
                ]
            },
        ),
        (
            "Technical detail: the battle's input file",
            {"classes": ["collapse"], "fields": ["spec_json"]},
        ),
    ]
    readonly_fields = [
        field for _, part in fieldsets for field in part["fields"] if isinstance(field, str)
    ]
    change_form_template = "admin/battles/battle/change_form.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # results are entered through "Enter result"

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return BattleList

    def log_change(self, request: HttpRequest, obj: Battle, message: Any) -> LogEntry:
        """The admin's log keeps the battle by the name the GM's pages give it ("At Korona:
        the Japanese 1st Company attacks the Australians' A Company", ``battle_words``),
        not its ``__str__`` ("1: battle 1 at Korona"): a battle a roll-back removes later
        is listed in Recent actions and its History by what the log kept."""
        entry: LogEntry = super().log_change(request, obj, message)
        named = battle_words(obj)[: LogEntry._meta.get_field("object_repr").max_length]
        if entry.object_repr != named:
            LogEntry.objects.filter(pk=entry.pk).update(object_repr=named)
            entry.object_repr = named
        return entry

    @admin.display(description="battle", ordering="area__name")
    def battle_shown(self, obj: Battle) -> str:
        """Its area and who attacks whom, as the GM's email names it: "battle 1 at
        Korona" and "battle 2 at Korona" could not be told apart."""
        return battle_words(obj)

    @admin.display(description="status", ordering="status")
    def status_shown(self, obj: Battle) -> str:
        """A battle waiting for its tabletop result with the way to enter it, as the home
        page links it: the list said only "not fought yet" (a walk-through)."""
        if obj.status == Battle.Status.PENDING and obj.mode == "tabletop":
            return format_html(
                '{}: <a href="{}">enter its result</a>',
                obj.get_status_display(),
                reverse("admin:battles_battle_result", args=[obj.pk]),
            )
        won = winner_words(obj)
        return f"{obj.get_status_display()}: {won}" if won else obj.get_status_display()

    @admin.display(description="turn", ordering="turn__number")
    def turn_number(self, obj: Battle) -> int:
        return obj.turn.number

    def _side_name(self, obj: Battle, key: str) -> str:
        """The side by its name in the campaign ("Australians"), as every other page says it."""
        side = obj.campaign.sides.filter(key=key).values_list("name", flat=True).first()
        return side or names.side_adjective(key)

    @admin.display(description="attacker side")
    def attacker_words(self, obj: Battle) -> str:
        return self._side_name(obj, obj.attacker_side)

    @admin.display(description="defender side")
    def defender_words(self, obj: Battle) -> str:
        return self._side_name(obj, obj.defender_side)

    def _companies(self, obj: Battle, role: str) -> str:
        return format_html_join(
            "",
            "<div>{}{}</div>",
            ((name, f": {said}" if said else "") for name, said in force_companies(obj, role)),
        )

    @admin.display(description="attacking companies, stands at the start")
    def attacking_companies(self, obj: Battle) -> str:
        return self._companies(obj, "attacker")

    @admin.display(description="defending companies, stands at the start")
    def defending_companies(self, obj: Battle) -> str:
        return self._companies(obj, "defender")

    def _after(self, obj: Battle, role: str) -> str:
        """The force's losses and what it had left, as the players' battle report gives
        them (``battleview.forces_of``: present, lost, left): the companies above are
        listed as they came to the table, which a walk-through read as after it."""
        if not obj.result:
            return "not fought yet"
        (force,) = (
            f for f in battleview.forces_of(obj.spec, obj.result, side_names={}) if f.key == role
        )
        lost = {line.unit_type: line.lost or 0 for line in force.stands}
        left = {line.unit_type: line.left or 0 for line in force.stands}
        return (
            f"lost {stands_words({t: n for t, n in lost.items() if n})}; "
            f"left: {stands_words({t: n for t, n in left.items() if n})}"
        )

    @admin.display(description="attacking force after the battle")
    def attacker_after(self, obj: Battle) -> str:
        return self._after(obj, "attacker")

    @admin.display(description="defending force after the battle")
    def defender_after(self, obj: Battle) -> str:
        return self._after(obj, "defender")

    @admin.display(description="how fought", ordering="mode")
    def mode_words(self, obj: Battle) -> str:
        return HOW_FOUGHT.get(obj.mode, obj.mode)

    @admin.display(description="rule set", ordering="ruleset")
    def ruleset_words(self, obj: Battle) -> str:
        return names.ruleset(obj.ruleset)

    @admin.display(description="result")
    def result_text(self, obj: Battle) -> str:
        """'The Australians, defending, win (the Japanese lost a third or more of their
        stands (4 of 12)); the Japanese, attacking, lost 4 rifle squads, the Australians
        lost nothing.' Each
        force by its side's name, as every other page says it, its role beside it once."""
        if not obj.result:
            return "not fought yet"
        sides = {"attacker": obj.attacker_side, "defender": obj.defender_side}
        called = {role: f"the {self._side_name(obj, key)}" for role, key in sides.items()}
        acting = {"attacker": "attacking", "defender": "defending"}
        winner = str(obj.result.get("winner"))
        why = names.battle_end(obj.result.get("reason"))
        withdrawal = names.withdrawal_words(
            obj.result.get("withdrawal"),
            obj.result.get("fit_to_fight"),
            piece=rulesets.piece(obj.result.get("ruleset")),
        )
        loser_role = next((role for role in called if role != winner), "")
        loser = called.get(loser_role, "the loser")
        if obj.result.get("reason") == "withdrew" and withdrawal:
            # Why, as the players' report says it (``battleview.outcome_words``): the GM
            # read only "the loser withdrew", the players "from a hopeless position: ...".
            why = f"{loser} withdrew {withdrawal}"
        elif obj.result.get("reason") == "a_third_lost":
            # With the count, as the players' pages say it: "the loser lost a third of its
            # stands" read as exactly a third, for 5 of 12.
            piece = rulesets.piece(obj.result.get("ruleset"))
            share = battleview.share_of(obj.result, loser_role)
            why = f"{loser} lost a third or more of their {piece}s{share}"
        won = called.get(winner, f"the {winner}")
        text = f"{won[0].upper()}{won[1:]}, {acting.get(winner, winner)}, win ({why}); "
        losses = obj.result.get("losses") or {}
        parts = []
        for key, lost in losses.items():
            force = called.get(key, f"the {key}")
            role = f", {acting[key]}," if key in acting and key != winner else ""
            parts.append(f"{force}{role} lost {names.stands(names.in_unit_order(lost))}")
        return text + ", ".join(parts) + "."

    @admin.display(description="as the rules read it")
    def spec_json(self, obj: Battle) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.spec, indent=2))

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Battle | None = None,
    ) -> HttpResponse:
        """The battle's page names it by who attacks whom (its title, its heading, its
        breadcrumbs: ``original_named``), as the Battles list does, not "battle 1 at
        Korona"."""
        if obj is not None:
            context["original_named"] = battle_words(obj)
            if obj.status != Battle.Status.PENDING:
                context["correcting"] = correcting(obj)
                context["can_correct"] = correction_refusal(obj) is None
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_urls(self) -> list[Any]:
        return [
            *row_pages(self, "report", "sheet", "result", "fight", "correct"),
            *super().get_urls(),
        ]

    def _battle(self, request: HttpRequest, pk: int, *, change: bool = False) -> Battle:
        rows = Battle.objects.select_related("campaign", "turn", "area")
        battle: Battle = admin_row(self, pk, rows)
        allowed = (
            request.user.has_perm("battles.change_battle")
            if change
            else (self.has_view_permission(request, battle))
        )
        if not allowed:
            raise PermissionDenied
        return battle

    def _page(self, request: HttpRequest, battle: Battle, template: str, **extra: Any) -> Any:
        return admin_page(self, request, template, original=battle, battle=battle, **extra)

    def report_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        battle = self._battle(request, pk)
        sides = dict(battle.campaign.sides.values_list("key", "name"))
        return self._page(
            request,
            battle,
            "admin/battles/battle/report.html",
            title=f"Report: {battle_words(battle)}",
            result=self.result_text(battle),
            mode=names.battle_mode(battle.mode),
            attacker=sides.get(battle.attacker_side, battle.attacker_side),
            defender=sides.get(battle.defender_side, battle.defender_side),
            state=STATUS_WORDS.get(battle.status, battle.status),
            page=reverse("battle", args=[battle.campaign_id, battle.pk]),
            # The log in the players' words, turn by turn (squares by the sheet's names,
            # B3), not the rules' inches and indices.
            log_turns=battleview.log_turns(
                battle.log,
                battleview.table_of(battle.spec, battle.seed, battle.log, battle.result),
                stand_sides(battle.spec),
                ruleset=battle.ruleset,
            )
            if battle.log
            else [],
        )

    def sheet_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The players' battle sheet, which the GM opens as the game master (every side,
        the defender's sniper and the seed shown): one sheet for the table, not a
        shorter copy here that could contradict it."""
        battle = self._battle(request, pk)
        return HttpResponseRedirect(reverse("battle-sheet", args=[battle.campaign_id, battle.pk]))

    def _gone(self, request: HttpRequest, pk: int, action: str) -> HttpResponse | None:
        """A form sent from a page opened before a roll-back names a battle that is no
        more: say so (and do nothing) rather than answer "not found". Only a form sent
        for a battle a roll-back removed (``rolled_back_battle``): a page opened, or a form
        sent, for a battle that never existed (or went with its campaign) says it is not
        there as the admin does (``_battle``)."""
        if request.method != "POST" or Battle.objects.filter(pk=pk).exists():
            return None
        if not rolled_back_battle(pk):
            return None
        if not request.user.has_perm("battles.change_battle"):
            raise PermissionDenied
        self.message_user(
            request,
            f"Nothing was {action}: this battle no longer exists (its turn was rolled back "
            "since the page was opened). The battles as they are now are listed below.",
            messages.ERROR,
        )
        return HttpResponseRedirect(reverse("admin:battles_battle_changelist"))

    def _has_result(self, request: HttpRequest, battle: Battle, action: str) -> HttpResponse:
        how = "fought by the rules" if battle.status == Battle.Status.FOUGHT else "entered"
        if request.method != "POST":
            self.message_user(
                request, f"This battle already has its result ({how}).", messages.ERROR
            )
            return HttpResponseRedirect(change_url(battle))
        self.message_user(
            request,
            f"Nothing was {action}: the battle at {battle_place(battle)} already has its result "
            f"({how} since the page was opened). It is shown below as it is.",
            messages.ERROR,
        )
        return HttpResponseRedirect(change_url(battle))

    def result_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        gone = self._gone(request, pk, "entered")
        if gone is not None:
            return gone
        battle = self._battle(request, pk, change=True)
        if battle.status != Battle.Status.PENDING:
            return self._has_result(request, battle, "entered")
        forces = {role: force_name(battle, role) for role in ROLES}
        sides = dict(battle.campaign.sides.values_list("key", "name"))
        form = ResultForm(request.POST or None, spec=battle.spec, forces=forces, sides=sides)
        check: list[str] = []
        shown = result_check(battle, form, request.POST, forces, sides)
        if shown is not None:
            form, check = shown
        elif request.method == "POST" and form.is_valid():
            try:
                report = enter_battle_result(
                    battle_id=battle.pk,
                    winner=form.cleaned_data["winner"],
                    losses=form.losses(),
                )
            except ResultRefused as refused:
                battle.refresh_from_db()
                if battle.status != Battle.Status.PENDING:
                    return self._has_result(request, battle, "entered")
                form.add_error(None, sentence(refused))
            except Battle.DoesNotExist:
                return self._gone(request, pk, "entered") or HttpResponseRedirect(request.path)
            else:
                return back_to_change(self, request, battle, self._entered(battle, report.done))
        intro = (
            "The stands each side lost, per unit type; no more than were present. An empty "
            "box counts as none lost; a sniper lost counts as a rifle squad. A side of "
            "several companies: give its whole force's losses; each stand is taken from the "
            "company holding the most of its type, as the rules share them."
        )
        named = battle_words(battle)
        response = form_page(
            self,
            request,
            title=f"Result of the battle at {battle_place(battle)}",
            form=form,
            obj=battle,
            named=named,
            intro=intro,
            submit="Enter result",
        )
        if response.context_data is not None:
            # What the table fought with, and its sheet (a walk-through found neither).
            response.context_data["before_submit"] = format_html(
                'Read the result over before you press "Enter result": the turn goes on with '
                "it. {}",
                correcting(battle),
            )
            if check:
                response.context_data["check_title"] = (
                    "Nothing is entered yet. Check the result as it will read"
                )
                response.context_data["check"] = check
                response.context_data["check_after"] = (
                    'If it is right, press "Enter result" again to enter it. If not, correct '
                    "the boxes below and press it: the result is shown again first."
                )
            response.context_data["preview_title"] = "In this battle"
            response.context_data["preview"] = forces_preview(battle, sides)
            response.context_data["links"] = [
                (
                    "The battle sheet to print (opens in a new tab)",
                    reverse("admin:battles_battle_sheet", args=[battle.pk]),
                )
            ]
        return response

    def _entered(self, battle: Battle, done: bool) -> str:
        """What entering a result says: the turn complete, or every battle of the turn
        still waiting for its result, each with the way to its form. Each battle by who
        attacks whom (``battle_words``), as the Battles list names it: "battle 1 at Korona"
        and "battle 2 at Korona" could not be told apart."""
        entered = f"Result entered for the battle at {battle_place(battle)}."
        if done:
            # The result that ended the campaign says so, as the pages and the email do.
            campaign = battle.campaign
            campaign.refresh_from_db()  # the turn just completed may have ended it
            sides = dict(campaign.sides.values_list("key", "name"))
            end = ending.ended(campaign, campaign.get_settings(), sides)
            complete = f"{entered} The turn is complete."
            return f"{complete} {end}" if end else complete
        waiting = list(
            Battle.objects.filter(turn_id=battle.turn_id, status=Battle.Status.PENDING)
            .select_related("campaign", "turn", "area")
            .prefetch_related("attackers", "defenders", "campaign__sides")
            .order_by("id")
        )
        if not waiting:
            return entered
        links = format_html_join(
            "; ",
            '{} (<a href="{}">enter its result</a>)',
            (
                (battle_words(w), reverse("admin:battles_battle_result", args=[w.pk]))
                for w in waiting
            ),
        )
        return format_html("{} Still waiting in this turn: {}.", entered, links)

    def fight_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        @require_POST
        def run(request: HttpRequest) -> HttpResponse:
            gone = self._gone(request, pk, "fought")
            if gone is not None:
                return gone
            battle = self._battle(request, pk, change=True)
            if battle.status != Battle.Status.PENDING:
                return self._has_result(request, battle, "fought")
            try:
                fight_battle_now(battle_id=battle.pk)
            except ResultRefused:
                battle.refresh_from_db()
                return self._has_result(request, battle, "fought")
            except Battle.DoesNotExist:
                return self._gone(request, pk, "fought") or HttpResponseRedirect(change_url(battle))
            else:
                said = f"The battle at {battle_place(battle)} was fought by the rules."
                say_done(self, request, battle, said)
            return HttpResponseRedirect(reverse("admin:battles_battle_report", args=[pk]))

        return run(request)

    def correct_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """ "Correct the result" of a tabletop battle (``correct_battle_result``): the result
        form prefilled with the result entered, its check step, and a reason; refused
        with the reason once its turn can no longer be played again as it was."""
        gone = self._gone(request, pk, "corrected")
        if gone is not None:
            return gone
        battle = self._battle(request, pk, change=True)
        refusal = correction_refusal(battle)
        if refusal is not None:
            self.message_user(request, sentence(CorrectionRefused(refusal)), messages.ERROR)
            return HttpResponseRedirect(change_url(battle))
        forces = {role: force_name(battle, role) for role in ROLES}
        sides = dict(battle.campaign.sides.values_list("key", "name"))
        initial = {
            **entered_boxes(battle.result or {}),
            "seen": campaign_version(battle.campaign_id),
        }
        form = CorrectionForm(
            request.POST or None, initial=initial, spec=battle.spec, forces=forces, sides=sides
        )
        check: list[str] = []
        shown = result_check(battle, form, request.POST, forces, sides)
        if shown is not None:
            form, check = shown
        elif request.method == "POST" and form.is_valid() and not self._reveals(form, battle):
            try:
                correct_battle_result(
                    battle_id=battle.pk,
                    winner=form.cleaned_data["winner"],
                    losses=form.losses(),
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    seen=form.cleaned_data["seen"],
                )
            except StaleChange as stale:
                form = self._stale(request, stale, battle, forces, sides)
                check = []
            except (AdjustmentRefused, ResultRefused) as refused:
                form.add_error(None, sentence(refused))
            except Battle.DoesNotExist:
                return self._gone(request, pk, "corrected") or HttpResponseRedirect(request.path)
            else:
                done = f"The result of the battle at {battle_place(battle)} was corrected" + (
                    f"; turn {battle.turn.number} was played again with the same dice."
                    if battle.turn.status == "done"
                    else "."
                )
                return back_to_change(self, request, battle, done)
        return self._correct_page(request, battle, form, check, sides)

    def _reveals(self, form: CorrectionForm, battle: Battle) -> bool:
        """The reason names what the fog of war hides from some reader, not confirmed:
        the form says what and to whom; nothing is saved (as every GM change's reason)."""
        found = hidden_in_text(campaign=battle.campaign, text=form.cleaned_data["reason"])
        return form.ask_to_reveal(found)

    def _stale(
        self,
        request: HttpRequest,
        stale: StaleChange,
        battle: Battle,
        forces: dict[str, str],
        sides: dict[str, str],
    ) -> CorrectionForm:
        """The form as sent, now carrying the campaign as it is, the check step asked
        again: what the GM checked was read before the change made meanwhile."""
        data = request.POST.copy()
        data["seen"] = stale.version
        data.pop("checked", None)
        again = CorrectionForm(data, spec=battle.spec, forces=forces, sides=sides)
        again.is_valid()
        again.add_error(None, sentence(stale))
        return again

    def _correct_page(
        self,
        request: HttpRequest,
        battle: Battle,
        form: CorrectionForm,
        check: list[str],
        sides: dict[str, str],
    ) -> HttpResponse:
        n = battle.turn.number
        intro = (
            f"The result as it was entered, to correct. Turn {n} is then played again "
            "exactly: from the state it began in, with its orders and its dice (the same "
            "seeds), every other battle's result as it stands, and this result as you "
            "correct it. The public log says what was corrected and why."
        )
        response = form_page(
            self,
            request,
            title=f"Correct the result of the battle at {battle_place(battle)}",
            form=form,
            obj=battle,
            named=battle_words(battle),
            intro=intro,
            submit="Correct the result",
        )
        if response.context_data is not None:
            if check:
                response.context_data["check_title"] = (
                    "Nothing is corrected yet. Check the result as it will read"
                )
                response.context_data["check"] = check
                response.context_data["check_after"] = (
                    'If it is right, press "Correct the result" again. If not, change the '
                    "boxes below and press it: the result is shown again first."
                )
            response.context_data["preview_title"] = "In this battle"
            response.context_data["preview"] = forces_preview(battle, sides)
        return response
