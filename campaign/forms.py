"""The GM's forms in the admin: they read and check input; the services do the work."""

from __future__ import annotations

import json
from typing import Any

from django import forms

from campaign.models import SIDE_CHOICES, Area, Campaign, Company, Order
from rules.campaign.scenario import MAX_SEED, SETTING_NAMES, settings_to_json
from rules.campaign.state import BATTLE_MODES, ORDER_KINDS, UNENTERED_TABLETOP, Settings
from rules.rulesets import RULESETS
from rules.spec import MAX_DOCUMENT_CHARS, DocumentError, decode_json

DEFAULT_BALANCE_CAMPAIGNS = 100
ADMIN_MAX_CAMPAIGNS = 1000  # a web server's thread: hours at most; the command goes higher
REASON_HELP = "Shown to the players in the campaign's log of GM adjustments."


def reason_field() -> forms.CharField:
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), help_text=REASON_HELP)


class SeenPage(forms.Form):
    """A GM change sends back what its page showed of the campaign (``seen``, from
    ``campaign_version``); the service refuses it if the campaign has moved on."""

    seen = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("seen"):
            self.add_error(
                None,
                "Nothing was changed: the page did not say what it showed of the campaign. "
                "Reload it and submit again.",
            )
        return data


class ScenarioUploadForm(forms.Form):
    name = forms.CharField(max_length=200)
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        help_text="Leave empty for the scenario's seed, or a random one.",
    )
    scenario = forms.FileField(help_text="A scenario file (JSON), as docs/rules.md describes.")
    campaigns = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=ADMIN_MAX_CAMPAIGNS,
        label="Campaigns to simulate",
        help_text=(
            "For Balance only: how many campaigns of the file to play, the sensible AI on "
            "both sides (100 if left empty; a few seconds each). Create ignores it."
        ),
    )

    def clean_scenario(self) -> Any:
        upload = self.cleaned_data["scenario"]
        if upload.size > MAX_DOCUMENT_CHARS:
            raise forms.ValidationError(f"the file is larger than {MAX_DOCUMENT_CHARS} bytes")
        try:
            return decode_json(upload.read(), "the file")
        except DocumentError as exc:
            raise forms.ValidationError(str(exc)) from exc


class BalanceForm(forms.Form):
    """The Balance button: a scenario file and how many campaigns to simulate."""

    scenario = ScenarioUploadForm.base_fields["scenario"]
    campaigns = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=ADMIN_MAX_CAMPAIGNS,
        initial=DEFAULT_BALANCE_CAMPAIGNS,
        help_text=(
            f"Campaigns to play, the sensible AI on both sides (a few seconds each; "
            f"{DEFAULT_BALANCE_CAMPAIGNS} if left empty)."
        ),
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        initial=0,
        help_text="The root seed: the same seed and scenario give the same figures.",
    )

    clean_scenario = ScenarioUploadForm.clean_scenario

    def clean_campaigns(self) -> int:
        value = self.cleaned_data.get("campaigns")
        return DEFAULT_BALANCE_CAMPAIGNS if value is None else value


WEEKDAYS = [
    (0, "Monday"), (1, "Tuesday"), (2, "Wednesday"), (3, "Thursday"),
    (4, "Friday"), (5, "Saturday"), (6, "Sunday"),
]  # fmt: skip


class ScheduleForm(forms.Form):
    """When the campaign's turns are played by themselves (campaign.services.schedule)."""

    kind = forms.ChoiceField(
        choices=[
            ("none", "none: the GM plays each turn"),
            ("every_hours", "every N hours"),
            ("weekly", "weekly, on a weekday at a time"),
        ]
    )
    every_hours = forms.IntegerField(required=False, min_value=1, max_value=24 * 28)
    weekday = forms.TypedChoiceField(choices=WEEKDAYS, coerce=int, required=False)
    time_of_day = forms.TimeField(required=False, help_text="HH:MM on the time zone's clock")
    timezone = forms.CharField(initial="UTC", help_text="An IANA name, e.g. Europe/Berlin")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("kind")
        if kind == "every_hours" and not data.get("every_hours"):
            self.add_error("every_hours", "give the number of hours between two turns")
        if kind == "weekly":
            if data.get("weekday") in (None, ""):
                self.add_error("weekday", "give the weekday of the turn")
            if data.get("time_of_day") is None:
                self.add_error("time_of_day", "give the time of the turn")
        return data


# The settings edited as JSON text: the naval and aerial tables, the Combat Event tables.
EVENT_TABLES = ("naval_table", "aerial_table", "combat_event_table", "japanese_event_table")


class SettingsForm(SeenPage):
    """Every setting of rules.campaign.state.Settings; the event tables as JSON text."""

    def __init__(self, *args: Any, settings: Settings, seen: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seen"].initial = seen
        current = settings_to_json(settings)
        for key in SETTING_NAMES:
            value = current[key]
            field: forms.Field
            if key in EVENT_TABLES:
                field = forms.CharField(widget=forms.Textarea(attrs={"rows": 14, "cols": 90}))
                value = json.dumps(value, indent=2)
            elif key == "battle_mode":
                field = forms.ChoiceField(choices=[(m, m) for m in BATTLE_MODES])
            elif key == "unentered_tabletop":
                field = forms.ChoiceField(choices=[(m, m) for m in UNENTERED_TABLETOP])
            elif key == "ruleset":
                field = forms.ChoiceField(choices=[(r, r) for r in RULESETS])
            elif key == "airdrop_side":
                field = forms.ChoiceField(choices=[("", "none"), *SIDE_CHOICES], required=False)
            elif isinstance(value, bool):
                field = forms.BooleanField(required=False)
            elif isinstance(value, int):
                field = forms.IntegerField()
            elif isinstance(value, list):
                field = forms.CharField(required=False, help_text="Comma-separated names.")
                value = ", ".join(value)
            else:
                field = forms.CharField(required=False, help_text="Empty for none.")
            field.initial = value
            self.fields[key] = field
        self.fields["reason"] = reason_field()

    def settings_json(self) -> dict[str, Any]:
        """The settings as a scenario writes them (the service checks the values)."""
        out: dict[str, Any] = {}
        for key in SETTING_NAMES:
            value = self.cleaned_data.get(key)
            if key in EVENT_TABLES:
                try:
                    value = decode_json(value or "", "the table")
                except DocumentError as exc:
                    self.add_error(key, str(exc))
                    continue
            elif key == "rough_tracks":
                value = [t.strip() for t in (value or "").split(",") if t.strip()]
            elif key in ("airdrop_base", "objective", "airdrop_side") and not value:
                value = None  # empty: none
            out[key] = value
        return out


class ResultForm(forms.Form):
    """A tabletop battle's result: the winner and the stands each side lost per type."""

    # Nothing is chosen for the GM: the winner and every loss are typed in from the table.
    winner = forms.ChoiceField(
        choices=[("", "choose the winner"), ("attacker", "attacker"), ("defender", "defender")]
    )

    def __init__(self, *args: Any, spec: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.units: dict[str, list[str]] = {}
        for key in ("attacker", "defender"):
            present = spec[key]["stands"]
            self.units[key] = list(present)
            for unit, count in present.items():
                self.fields[f"{key}__{unit}"] = forms.IntegerField(
                    min_value=0,
                    label=f"{key.capitalize()} ({spec[key].get('name', '')}): "
                    f"{unit.replace('_', ' ')} lost, of {count}",
                )

    def losses(self) -> dict[str, dict[str, int]]:
        return {
            key: {unit: self.cleaned_data[f"{key}__{unit}"] for unit in units}
            for key, units in self.units.items()
        }


class StandsAdjustForm(SeenPage):
    unit_type = forms.ChoiceField()
    held = forms.IntegerField(min_value=0)
    reason = reason_field()

    def __init__(self, *args: Any, company: Company, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["unit_type"].choices = [
            (row.unit_type, f"{row.unit_type} ({row.held}/{row.establishment})")
            for row in company.stand_counts.all()
        ]


class ControlAdjustForm(SeenPage):
    controller = forms.ChoiceField(choices=[("", "nobody"), *SIDE_CHOICES], required=False)
    reason = reason_field()


class ShipAdjustForm(SeenPage):
    present = forms.BooleanField(required=False, help_text="In its port.")
    reason = reason_field()


class RollbackForm(SeenPage):
    number = forms.TypedChoiceField(coerce=int, label="Back to the start of turn")
    reason = reason_field()
    confirm = forms.BooleanField(
        label="I understand: this turn and every later one are deleted, with their battles, "
        "and the campaign returns to the state it had when the turn began."
    )

    # The turn whose roll-back the page showed the effects of: a different choice shows
    # its own effects first instead of rolling back.
    previewed = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, numbers: list[int], seen: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seen"].initial = seen
        self.fields["number"].choices = [(n, f"turn {n}") for n in reversed(numbers)]
        if numbers:  # the latest turn, the usual mistake
            self.fields["number"].initial = numbers[-1]
            self.fields["previewed"].initial = numbers[-1]


class OrderForm(forms.ModelForm):
    """The GM gives (or changes) an order for the coming turn through give_order."""

    class Meta:
        model = Order
        fields = ["company", "kind", "target", "sniper"]

    kind = forms.ChoiceField(choices=[(k, k) for k in ORDER_KINDS])
    target = forms.ModelChoiceField(
        queryset=Area.objects.select_related("campaign"), required=False
    )
    sniper = forms.BooleanField(
        required=False,
        label="Sniper",
        help_text="If the company defends this turn, it swaps one rifle squad for a sniper.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Only the companies and areas of campaigns still being played, each named with
        its campaign; ``?campaign=<id>`` in the add page's address narrows both to one."""
        super().__init__(*args, **kwargs)
        open_campaigns = Campaign.objects.exclude(status=Campaign.Status.FINISHED)
        chosen = str(self.initial.get("campaign") or "")
        if chosen.isdigit():
            open_campaigns = open_campaigns.filter(pk=int(chosen))
        company = self.fields["company"]
        company.queryset = (
            Company.objects.filter(campaign__in=open_campaigns)
            .select_related("campaign", "area")
            .order_by("campaign__name", "side", "name")
        )
        company.label_from_instance = lambda row: (
            f"{row.campaign.name} · {row.name} ({row.get_side_display()}, in {row.area.name})"
        )
        target = self.fields["target"]
        target.queryset = (
            Area.objects.filter(campaign__in=open_campaigns)
            .select_related("campaign")
            .order_by("campaign__name", "zone", "name")
        )
        target.label_from_instance = lambda row: f"{row.campaign.name} · {row.name}"
