"""The GM's forms in the admin: they read and check input; the services do the work."""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Sequence
from typing import Any, cast

from django import forms
from django.db.models import Q
from django.forms.widgets import DateTimeBaseInput
from django.urls import reverse

from campaign.models import SIDE_CHOICES, Area, Campaign, Company, GmAdjustment, Link, Order
from campaign.scenario_words import field_words, file_words, problem_words
from campaign.services.deadlines import (
    WEEKDAY_NAMES,
    Schedule,
    time_zone_name,
    time_zones_of_city,
)
from campaign.services.fogwords import Revealed
from campaign.settings_doc import (
    CAMPAIGN_EFFECTS,
    COMBAT_EFFECTS,
    COMBAT_TABLES,
    DOCS,
    EVENT_TABLES,
    FACE_QUOTES,
    GROUPS,
    LANDFORM_QUOTES,
    MAIN_CHOICES,
    value_words,
)
from config.numbers import whole_number
from config.refusals import sentence
from rules import names
from rules.battlefield import RULINGS_LANDFORM_GOING, Going
from rules.campaign.scenario import (
    DIE_FACES,
    EVENT_EFFECTS,
    INTEGER_SETTINGS,
    SETTING_NAMES,
    settings_to_json,
)
from rules.campaign.state import (
    BATTLE_MODES,
    ORDER_KINDS,
    SIDE_KEYS,
    UNENTERED_TABLETOP,
    Settings,
)
from rules.refusals import Problem
from rules.rulesets import RULESETS
from rules.spec import (
    MAX_DOCUMENT_CHARS,
    MAX_PLANES,
    MAX_SEED,
    MAX_TEXT,
    DocumentError,
    decode_json,
)

DEFAULT_BALANCE_CAMPAIGNS = 100
ADMIN_MAX_CAMPAIGNS = 1000  # a web server's thread: hours at most; the command goes higher
REASON_HELP = (
    "Shown word for word to every side, the enemy's players too, in the campaign's log of "
    "the game master's adjustments: name nothing the fog of war hides from them (which "
    "company, where). A reason that names a company or a position some side does not see "
    "is not saved until you confirm it."
)


def choose_from_list(what: str) -> dict[str, str]:
    """A list's errors in the GM's words: "Choose a rule set from the list." for none
    chosen, or one the list does not offer (a page left open while the map changed), not
    Django's "This field is required." or "Select a valid choice. X is not one of the
    available choices."."""
    return dict.fromkeys(
        ("required", "invalid_choice", "invalid_list"), f"Choose {what} from the list."
    )


def whole_number_from(low: int, high: int, what: str = "a whole number") -> dict[str, str]:
    """A number box's errors in the GM's words, its range given: not "Enter a whole
    number." or "Ensure this value is less than or equal to 12."."""
    said = f"Give {what} from {low} to {high}."
    return dict.fromkeys(("required", "invalid", "min_value", "max_value"), said)


def text_errors(subject: str, limit: int | None = None) -> dict[str, str]:
    """A text box's errors in the GM's words, said of ``subject`` ("The campaign's
    name"): not "Ensure this value has at most 500 characters (it has 612)." or "Null
    characters are not allowed."."""
    said = {
        "null_characters_not_allowed": f"{subject} must not hold a NUL character (code 0): "
        "remove it."
    }
    if limit is not None:
        said["max_length"] = f"{subject} must be at most {limit} characters: shorten it."
    return said


# A scenario file box's errors (a form sent without its file's bytes, an empty file).
SCENARIO_FILE_ERRORS = dict.fromkeys(
    ("invalid", "missing", "contradiction"),
    "The file did not come with the form: choose it again.",
) | {"empty": "The file is empty: choose a scenario file, or leave the box empty."}
SEED_ERRORS = whole_number_from(0, MAX_SEED, "the seed as a whole number")


def reason_field() -> forms.CharField:
    return forms.CharField(
        label="Reason",
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=REASON_HELP,
        # Not Django's "This field is required.", listed as "reason: ..." above the form.
        error_messages={
            **text_errors("The reason"),
            "required": "Give a reason for this change.",
        },
    )


class ReadByAll(forms.Form):
    """A GM form whose reason every reader reads word for word. Before it saves, the
    view hands ``ask_to_reveal`` what the reason would tell a reader that the fog of war
    hides from it (``campaign.services.fogwords``): the form comes back saying what, to
    whom, with a box to save it anyway, and nothing is saved until that box is ticked
    for that very warning (``warned`` carries it: a reason changed to name something
    else, or a turn played meanwhile, asks again)."""

    reveal = forms.BooleanField(
        required=False,
        label="Save it anyway",
        help_text="I mean every side and spectator to read this reason as written.",
        widget=forms.HiddenInput,
    )
    warned = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Never a problem of the GM's: a warning sent back altered (a NUL in it) is one
        # the page did not show, so the GM is asked again.
        self.fields["warned"].validators = []

    def ask_to_reveal(self, found: Sequence[Revealed]) -> bool:
        """True when the GM must confirm first: the form now says why, the box shown."""
        if not found:
            return False
        warning = reveal_warning(found)
        if self.cleaned_data.get("reveal") and self.cleaned_data.get("warned") == warning:
            return False
        data = self.data.copy()  # type: ignore[attr-defined]  # a QueryDict, bound
        data["warned"] = warning
        data.pop("reveal", None)  # a box ticked for another warning: not this one
        self.data = data
        self.fields["reveal"].widget = forms.CheckboxInput()
        self.fields["reveal"] = self.fields.pop("reveal")  # drawn last, under the reason
        self.add_error("reason", warning)
        return True


def reveal_warning(found: Sequence[Revealed]) -> str:
    """'Nothing was saved: every side reads this reason word for word, and it names the
    Japanese 3rd Company, which the Australians and spectators do not see. ...'"""
    told = "; ".join(item.words() for item in found)
    return (
        "Nothing was saved: every side and spectator reads this reason word for word, and it "
        f'names {told}. Change the reason, or tick "Save it anyway" below and save again.'
    )


class MarkedField(forms.BoundField):
    """A field of a GM form with what another GM change did to it since the page was
    opened (``meanwhile``, words; empty when nothing), shown beside the GM's entry;
    ``conflict``: the GM changed it on this page too."""

    @property
    def meanwhile(self) -> str:
        return str(getattr(self.form, "changed_meanwhile", {}).get(self.name, ""))

    @property
    def conflict(self) -> bool:
        return self.name in getattr(self.form, "conflicts", set())


def same_value(field: forms.Field, value: Any, entry: Any) -> bool:
    """Whether ``entry`` (as a browser sends it) is ``value`` (as a form's initial holds
    it, or a change's details keep it: "19:00" for a time) for ``field``."""
    with contextlib.suppress(forms.ValidationError):
        value = field.to_python(value)
    return not field.has_changed(value, entry)


def as_entry(field: forms.Field, value: Any) -> Any:
    """A field's initial ``value`` as a browser would send it back: a list for several
    boxes, a time as its box writes it ("19:00"), "" for none."""
    if isinstance(value, (list, tuple, bool)):
        return value
    if value is None:
        return ""
    if isinstance(field.widget, DateTimeBaseInput):
        return str(field.widget.format_value(value) or "")
    return str(value)


class SeenPage(forms.Form):
    """A GM change sends back what its page showed of the campaign (``seen``, from
    ``campaign_version``); the service refuses it if the campaign has moved on. Shown
    again after that refusal, with the GM's entries, ``mark_changes`` marks the fields
    the GM changes made meanwhile touched (``changed_meanwhile``: a field's name, or a
    setting's, to words), so the GM can compare before saving again. A field the GM had
    not changed on the page takes the value the other change gave it (``take_changes``):
    saving again as shown must not undo that change with the value the page showed."""

    seen = forms.CharField(widget=forms.HiddenInput, required=False)
    bound_field_class = MarkedField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.changed_meanwhile: dict[str, str] = {}
        self.conflicts: set[str] = set()

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not data.get("seen"):
            self.add_error(
                None,
                "Nothing was changed: the page did not say what it showed of the campaign. "
                "Reload it and submit again.",
            )
        return data

    def touched(self, details: dict[str, Any]) -> dict[str, tuple[str, str]]:
        """What a GM change (its ``details``) did to this form's fields: a name to the
        value before and after, in words. None by default (the message names it)."""
        return {}

    def showed(self, details: dict[str, Any]) -> dict[str, Any]:
        """The fields a GM change (its ``details``) changed, each to its value before the
        change as the form's initial holds it (a field's name, not a setting's). None by
        default: the GM's entries are kept as sent."""
        return {}

    def mark_of(self, name: str) -> str:
        """The name a field is marked by (``touched``'s): its own by default."""
        return name

    def take_changes(self, data: Any, changes: Sequence[GmAdjustment]) -> set[str]:
        """On this form, unbound and carrying the campaign as it is now: in ``data`` (the
        GM's entries, changed in place), each field ``changes`` changed and the GM left
        as the page showed it takes its value now; a field the GM changed too keeps
        their entry. The marks (``mark_of``) of the fields both changed: conflicts."""
        shown: dict[str, Any] = {}
        for change in reversed(changes):  # the oldest last: its "before" the page showed
            details = change.details if isinstance(change.details, dict) else {}
            shown.update(self.showed(details))
        both = set()
        for name, before in shown.items():
            field = self.fields.get(name)
            if field is None:
                continue
            now = as_entry(field, self[name].initial)
            if same_value(field, before, now):
                continue  # changed and changed back
            key = self.add_prefix(name)
            if not same_value(field, before, field.widget.value_from_datadict(data, {}, key)):
                both.add(self.mark_of(name))
            elif isinstance(now, (list, tuple)):
                data.setlist(key, [str(value) for value in now])
            elif isinstance(now, bool):
                data[key] = "true" if now else "false"
            else:
                data[key] = now
        return both

    def mark_changes(
        self, changes: Sequence[GmAdjustment], both: Collection[str] = frozenset()
    ) -> None:
        """Mark the fields ``changes`` touched: 'Changed meanwhile by gm: 6 → 8. The page
        now shows it (your own entries are kept).' (two changes of one field: the
        first's before, the last's after, both GMs named); those the GM changed too
        (``both``, from ``take_changes``) as a conflict, the GM's entry kept."""
        seen: dict[str, tuple[str, str, list[str]]] = {}
        for change in changes:
            details = change.details if isinstance(change.details, dict) else {}
            who = change.user.get_username() if change.user else ""
            for name, (before, after) in self.touched(details).items():
                first, _, whos = seen.get(name, (before, after, []))
                seen[name] = (first, after, [*whos, *([who] if who and who not in whos else [])])
        for name, (before, after, whos) in seen.items():
            by = f" by {names.join(whos)}" if whos else ""
            if name in both:
                self.conflicts.add(name)
                self.changed_meanwhile[name] = (
                    f"Conflict: changed meanwhile{by} ({before} → {after}) and by you here. "
                    "The page keeps your entry: check which to keep before saving."
                )
            else:
                self.changed_meanwhile[name] = (
                    f"Changed meanwhile{by}: {before} → {after}. The page now shows it "
                    "(your own entries are kept)."
                )


class ScenarioUpload(forms.Form):
    """A form with a scenario file: a refused one is listed in the GM's words, and the
    GM is told to choose the file again (a browser shows the file box empty again)."""

    CHOOSE_AGAIN = "Choose the file again after fixing it: a browser does not keep a chosen file."

    def choose_again(self) -> str:
        """The line asking for the file again: a file was chosen and the page comes back
        with problems. Empty otherwise (no file to choose again)."""
        return self.CHOOSE_AGAIN if self.errors and self.files.get("scenario") else ""

    def show_problems(self, problems: Sequence[str]) -> None:
        """A refused scenario's problems, each in the GM's words, at the top of the form."""
        for problem in problems:
            self.add_error(None, problem_words(problem))


def read_upload(upload: Any) -> Any:
    """A scenario file sent with a form, decoded; a ValidationError saying why not."""
    if upload.size > MAX_DOCUMENT_CHARS:
        raise forms.ValidationError(f"The file is larger than {MAX_DOCUMENT_CHARS} bytes.")
    try:
        return decode_json(upload.read(), "the file")
    except DocumentError as exc:
        raise forms.ValidationError(file_words(exc)) from exc


class BalanceForm(ScenarioUpload):
    """The Balance button: a scenario file (the Korona scenario if none) and how many
    campaigns to simulate."""

    scenario = forms.FileField(
        required=False,
        label="Scenario file",
        help_text="Leave empty for the Korona scenario that comes with Korona.",
        error_messages=SCENARIO_FILE_ERRORS,
    )
    campaigns = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=ADMIN_MAX_CAMPAIGNS,
        initial=DEFAULT_BALANCE_CAMPAIGNS,
        error_messages=whole_number_from(
            1, ADMIN_MAX_CAMPAIGNS, "the number of campaigns to play as a whole number"
        ),
        help_text=(
            f"Campaigns to play, the sensible AI on both sides ({DEFAULT_BALANCE_CAMPAIGNS} if "
            "left empty). Each takes a second or two of a processor on a small server (it weighs "
            "the odds of every attack it considers), and they are shared among the server's "
            "processors: 100 take one to two minutes on two. The page shows how far it has got "
            "and about how long is left."
        ),
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        error_messages=SEED_ERRORS,
        help_text="Leave empty for a random one (the result says which). The same seed and "
        "scenario give the same figures.",
    )

    def clean_scenario(self) -> Any:
        upload = self.cleaned_data.get("scenario")
        return None if upload is None else read_upload(upload)

    def clean_campaigns(self) -> int:
        value = self.cleaned_data.get("campaigns")
        return DEFAULT_BALANCE_CAMPAIGNS if value is None else value


WEEKDAYS = list(enumerate(WEEKDAY_NAMES))


class ScheduleForm(forms.Form):
    """When the campaign's turns are played by themselves (campaign.services.schedule)."""

    kind = forms.ChoiceField(
        label="Turns are played",
        initial="none",
        choices=[
            ("none", "none: once every side is ready, or when the game master plays it"),
            ("every_hours", "every N hours"),
            ("weekly", "weekly, on a weekday at a time"),
        ],
        error_messages=choose_from_list("when turns are played"),
        help_text="None: a turn is played as soon as every side a player plays has marked "
        'its orders ready (a side no player plays is always ready), or when you press "Advance '
        'turn now". Otherwise a deadline: when it passes, the next turn is played by itself '
        "(earlier, once every side has marked its orders ready).",
    )
    every_hours = forms.IntegerField(
        label="Every N hours",
        required=False,
        min_value=1,
        max_value=24 * 28,
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value"),
            f"Give the hours between two turns as a whole number from 1 to {24 * 28}.",
        ),
        help_text='For "every N hours": the hours between two turns (48: every two days).',
    )
    weekday = forms.TypedChoiceField(
        choices=[("", "(choose a day)"), *WEEKDAYS],
        coerce=int,
        required=False,
        empty_value=None,
        error_messages=choose_from_list("the day of the turn"),
        help_text='For "weekly": the day of the turn.',
    )
    time_of_day = forms.TimeField(
        required=False,
        widget=forms.TimeInput(format="%H:%M"),
        error_messages={"invalid": "Give the time as HH:MM, e.g. 19:00."},
        help_text='For "weekly": the time, as 19:00, on the time zone\'s clock.',
    )
    timezone = forms.CharField(
        label="Time zone",
        initial="UTC",
        error_messages={
            **text_errors("The time zone"),
            "required": "Give the time zone, written as Region/City (Europe/Berlin), or UTC.",
        },
        # What the zone governs, and that it is never empty (a walk-through's GM asked
        # what it was for with no deadline, and what an empty one would mean).
        help_text="The campaign's clock: its pages give every time on it, and a weekly "
        "turn's time is read on it, deadline or none. Where the group plays, as Region/City: "
        "Europe/Berlin, Australia/Sydney, America/New_York. It cannot be empty: UTC if unsure.",
    )

    def clean_timezone(self) -> str:
        """The name as the time zone database spells it, whatever the letter case typed
        ("australia/sydney" was refused as "not a time zone")."""
        typed = (self.cleaned_data.get("timezone") or "").strip()
        name = time_zone_name(typed)
        if name is None:
            # A city alone ("Sydney", as a walk-through's GM typed it): the zone it is in.
            # With a suggestion, no example beside it ("e.g. Europe/Berlin. Did you mean
            # Europe/Berlin?" said one zone twice).
            meant = time_zones_of_city(typed)
            hint = f". Did you mean {' or '.join(meant)}?" if meant else ", e.g. Europe/Berlin."
            raise forms.ValidationError(
                f"{typed!r} is not a time zone: write it as Region/City{hint}"
            )
        return name

    def schedule(self) -> Schedule:
        data = self.cleaned_data
        return Schedule(
            kind=data["kind"],
            every_hours=data.get("every_hours"),
            weekday=data.get("weekday"),
            time_of_day=data.get("time_of_day"),
            timezone=(data.get("timezone") or "UTC").strip(),
        )

    # The boxes each schedule reads; the others are ignored, whatever is left in them.
    USES = {"none": (), "every_hours": ("every_hours",), "weekly": ("weekday", "time_of_day")}
    # Or refused, filled in: on a form whose boxes start empty (a new campaign's), a value
    # in a box the chosen schedule does not read was meant for another schedule (a
    # walk-through's "Every N hours: 5", "Turns are played" left on none, made a campaign
    # with no schedule and no word of it). The schedule page shows the schedule as it is,
    # so a kind chosen there leaves the old kind's values in their boxes: ignored.
    refuse_unused_boxes = False

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        kind = data.get("kind")
        if kind in self.USES:
            for name in ("every_hours", "weekday", "time_of_day"):
                if name not in self.USES[kind]:
                    # A leftover -5 in "every N hours" must not refuse a weekly schedule.
                    self.errors.pop(name, None)
                    data[name] = None
                    if self.refuse_unused_boxes and str(self[name].value() or "").strip():
                        self.add_error(name, self._unused_words(name, kind))
        # A value given but refused (0 hours, a time of 25:99) has its own error already:
        # one problem, one message.
        if kind == "every_hours" and not data.get("every_hours"):
            self._missing("every_hours", "Give the number of hours between two turns.")
        if kind == "weekly":
            if data.get("weekday") in (None, ""):
                self._missing("weekday", "Give the weekday of the turn.")
            if data.get("time_of_day") is None:
                self._missing("time_of_day", "Give the time of the turn.")
        return data

    def _missing(self, name: str, message: str) -> None:
        if name not in self.errors:
            self.add_error(name, message)

    def _unused_words(self, name: str, kind: str) -> str:
        """The refusal of box ``name``, filled in, which schedule ``kind`` does not read."""
        choices = dict(self.fields["kind"].choices)  # type: ignore[attr-defined]
        reads = next(k for k, names in self.USES.items() if name in names)
        return (
            f'"Turns are played" is "{choices[kind]}", which does not use this box: choose '
            f'"{choices[reads]}" there to use it, or empty this box.'
        )


class ScheduleChangeForm(SeenPage, ReadByAll, ScheduleForm):
    """The GM changes a running campaign's schedule: the players read it in the log of
    GM changes, with the reason, and are told of it."""

    reason = reason_field()

    def __init__(self, *args: Any, seen: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seen"].initial = seen
        # Asked for by change_schedule, for a change only (ReasonMissing): a save that
        # changes nothing says so, and needs none.
        self.fields["reason"].required = False

    def touched(self, details: dict[str, Any]) -> dict[str, tuple[str, str]]:
        """A schedule change's boxes (its details name them as the form does), each value
        as the form's list says it ("every N hours", "Friday")."""
        before, after = details.get("before"), details.get("after")
        if details.get("kind") != "schedule" or not (
            isinstance(before, dict) and isinstance(after, dict)
        ):
            return {}
        return {
            name: (self._words(name, before.get(name)), self._words(name, after.get(name)))
            for name in ("kind", "every_hours", "weekday", "time_of_day", "timezone")
            if before.get(name) != after.get(name)
        }

    def showed(self, details: dict[str, Any]) -> dict[str, Any]:
        """A schedule change's boxes, each as it was before (its details name them as the
        form does, a time as "19:00")."""
        before, after = details.get("before"), details.get("after")
        if details.get("kind") != "schedule" or not (
            isinstance(before, dict) and isinstance(after, dict)
        ):
            return {}
        return {
            name: before.get(name)
            for name in ("kind", "every_hours", "weekday", "time_of_day", "timezone")
            if before.get(name) != after.get(name)
        }

    def _words(self, name: str, value: Any) -> str:
        if value is None or value == "":
            return "none"
        choices = getattr(self.fields[name], "choices", None) or []
        return next((str(label) for key, label in choices if str(key) == str(value)), str(value))


COLUMNS = {  # the table's columns: a part of a face's entry and its heading
    "effect": "Effect",
    "side": "Side",
    "count": "Buffalos lost",
    "track": "Track",
    "text": "What the players read",
}
# A part of a face's entry as a problem on its box says it: "face 6: what the players
# read must not hold ...".
CELL_NOUNS = {
    "effect": "its effect",
    "side": "its side",
    "count": "its Buffalos lost",
    "track": "its track",
    "text": "what the players read",
}


def text_rows(text: str) -> int:
    """The lines of a face's "what the players read" box: two, or as many as its words
    take at about 40 letters a line, up to eight (it scrolls beyond, and can be pulled
    taller)."""
    return max(2, min(8, -(-len(text) // 40)))


class SettingRow:
    """One die face of an event table on the settings page: its effect and the fields it
    takes, bound to the form (the template draws them as a table row); ``cells``: the
    part of the entry ("effect", "text"...), the column's name and the field."""

    def __init__(self, form: forms.Form, table: str, face: int, quote: str) -> None:
        self.face = face
        self.quote = quote
        self.cells = [
            (part, column, form[f"{table}__{face}__{part}"])
            for part, column in COLUMNS.items()
            if f"{table}__{face}__{part}" in form.fields
        ]
        self.errors = [error for _, _, cell in self.cells for error in cell.errors]


class GoingRow:
    """One landform of the ``landform_going`` setting, drawn as a row of a table."""

    def __init__(self, form: forms.Form, landform: str) -> None:
        self.face = names.landform(landform)
        self.quote = LANDFORM_QUOTES.get(landform, "")
        self.cells = [("going", "Going", form[f"landform_going__{landform}"])]
        self.errors = list(form[f"landform_going__{landform}"].errors)


class SettingGroup:
    """A group of settings on the settings page: its title, its words, its settings."""

    def __init__(self, title: str, explain: str, items: list[dict[str, Any]]) -> None:
        self.title = title
        self.explain = explain
        self.items = items


class SettingFields(forms.Form):
    """The fields of some campaign settings (``keys``), each labelled and explained by
    campaign.settings_doc; the event tables as one row per die face. ``areas`` and
    ``tracks``: the campaign map's names, for the settings that name places."""

    def add_settings(
        self,
        keys: tuple[str, ...],
        current: dict[str, Any],
        *,
        areas: list[str],
        tracks: list[str],
    ) -> None:
        self.setting_keys = keys
        sides = [(key, names.side_adjective(key)) for key in SIDE_KEYS]
        for key in keys:
            doc = DOCS[key]
            value = current[key]
            if key in EVENT_TABLES or key in COMBAT_TABLES:
                self._add_table(key, value, sides=sides, tracks=tracks)
                continue
            if key == "landform_going":
                # Every landform, at the rulings' going where the GM changed none.
                for landform, going in RULINGS_LANDFORM_GOING.items():
                    self.fields[f"landform_going__{landform}"] = forms.ChoiceField(
                        label=f"Going of {names.landform(landform)}",
                        choices=[(str(g), str(g)) for g in Going],
                        initial=value.get(str(landform), str(going)),
                        error_messages=choose_from_list("a going"),
                    )
                continue
            field: forms.Field
            if key == "battle_mode":
                field = forms.ChoiceField(
                    choices=[(m, names.battle_mode(m)) for m in BATTLE_MODES],
                    error_messages=choose_from_list("how battles are fought"),
                )
            elif key == "unentered_tabletop":
                field = forms.ChoiceField(
                    choices=[
                        (m, names.words(m, names.UNENTERED_TABLETOP_NAMES))
                        for m in UNENTERED_TABLETOP
                    ],
                    error_messages=choose_from_list("what happens then"),
                )
            elif key == "ruleset":
                field = forms.ChoiceField(
                    choices=[(r, names.ruleset(r)) for r in RULESETS],
                    error_messages=choose_from_list("a rule set"),
                )
            elif key == "airdrop_side":
                field = forms.ChoiceField(
                    choices=[("", "none"), *sides],
                    required=False,
                    error_messages=choose_from_list("a side, or none,"),
                )
            elif key in ("objective", "airdrop_base"):
                known = [*areas, *([value] if value and value not in areas else [])]
                field = forms.ChoiceField(
                    choices=[("", "none"), *((a, a) for a in known)],
                    required=False,
                    error_messages=choose_from_list("an area of the map, or none,"),
                )
            elif key == "rough_tracks":
                known = [*tracks, *(t for t in value if t not in tracks)]
                field = forms.MultipleChoiceField(
                    choices=[(t, t) for t in known],
                    required=False,
                    widget=forms.CheckboxSelectMultiple,
                    error_messages=choose_from_list("tracks of the map"),
                )
            elif isinstance(value, bool):
                field = forms.BooleanField(required=False)
            elif key in INTEGER_SETTINGS:
                low, high = INTEGER_SETTINGS[key]
                # The range in the GM's words, not "Ensure this value is less than or
                # equal to 12." (the list above the form names the setting).
                field = forms.IntegerField(
                    min_value=low, max_value=high, error_messages=whole_number_from(low, high)
                )
            else:  # pragma: no cover - a new kind of setting needs a field above
                raise AssertionError(f"setting {key!r} has no field")
            field.label = doc.label
            field.help_text = doc.explain
            field.initial = value
            self.fields[key] = field

    def _add_table(
        self, key: str, table: dict[str, Any], *, sides: list[tuple[str, str]], tracks: list[str]
    ) -> None:
        campaign_table = key in EVENT_TABLES
        effects = CAMPAIGN_EFFECTS if campaign_table else COMBAT_EFFECTS
        for face in DIE_FACES:
            entry = table.get(str(face)) or {}
            prefix = f"{key}__{face}__"
            self.fields[prefix + "effect"] = forms.ChoiceField(
                label=f"Face {face}: effect",
                choices=list(effects.items()),
                initial=entry.get("effect"),
                error_messages=choose_from_list(f"face {face}'s effect"),
            )
            if campaign_table:
                self.fields[prefix + "side"] = forms.ChoiceField(
                    label=f"Face {face}: side",
                    choices=[("", "(no side)"), *sides],
                    required=False,
                    initial=entry.get("side", ""),
                    error_messages=choose_from_list(f"face {face}'s side"),
                )
                # The count is the Buffalos the face takes from the RAAF (never below
                # none); the GM's words for its range, not "Ensure this value is less
                # than or equal to 100.": no side may hold more planes than that.
                lost = (
                    f"face {face}: give the Buffalos lost as a whole number from 1 to "
                    f"{MAX_PLANES} (a side never has more than {MAX_PLANES} planes)"
                )
                self.fields[prefix + "count"] = forms.IntegerField(
                    label=f"Face {face}: Buffalos lost",
                    min_value=1,
                    max_value=MAX_PLANES,
                    required=False,
                    initial=entry.get("count"),
                    error_messages=dict.fromkeys(("invalid", "min_value", "max_value"), lost),
                )
                track = entry.get("track")
                known = [*tracks, *([track] if track and track not in tracks else [])]
                self.fields[prefix + "track"] = forms.ChoiceField(
                    label=f"Face {face}: track",
                    choices=[("", "(no track)"), *((t, t) for t in known)],
                    required=False,
                    initial=track or "",
                    error_messages=choose_from_list(f"face {face}'s track"),
                )
            self.fields[prefix + "text"] = forms.CharField(
                label=f"Face {face}: what the players read",
                max_length=MAX_TEXT,
                required=False,
                # As many lines as its words take on a phone (about 40 letters a line),
                # where the box cannot grow to them by itself (CSS field-sizing).
                widget=forms.Textarea(attrs={"rows": text_rows(entry.get("text", ""))}),
                initial=entry.get("text", ""),
                error_messages=text_errors(f"face {face}: what the players read", MAX_TEXT),
            )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for key in self.setting_keys:
            if key not in EVENT_TABLES:
                continue
            for face in DIE_FACES:
                prefix = f"{key}__{face}__"
                needs = EVENT_EFFECTS.get(data.get(prefix + "effect") or "", ())
                if "side" in needs and not data.get(prefix + "side"):
                    self.add_error(
                        prefix + "side", f"Face {face}: choose the side this effect strikes."
                    )
                # A count refused for its range already says what to give.
                if (
                    "count" in needs
                    and not data.get(prefix + "count")
                    and prefix + "count" not in self.errors
                ):
                    self.add_error(
                        prefix + "count", f"Face {face}: give how many Buffalos are lost."
                    )
                if "track" in needs and not data.get(prefix + "track"):
                    self.add_error(
                        prefix + "track", f"Face {face}: choose the track of the strafing."
                    )
        return data

    def settings_json(self) -> dict[str, Any]:
        """The settings as a scenario writes them (the service checks the values); a
        table's entry keeps only the fields its effect takes."""
        out: dict[str, Any] = {}
        for key in self.setting_keys:
            if key in EVENT_TABLES or key in COMBAT_TABLES:
                table = {}
                for face in DIE_FACES:
                    prefix = f"{key}__{face}__"
                    effect = self.cleaned_data.get(prefix + "effect")
                    entry: dict[str, Any] = {"effect": effect}
                    for part in EVENT_EFFECTS.get(effect or "", ()) if key in EVENT_TABLES else ():
                        entry[part] = self.cleaned_data.get(prefix + part)
                    text = (self.cleaned_data.get(prefix + "text") or "").strip()
                    if text:
                        entry["text"] = text
                    table[str(face)] = entry
                out[key] = table
            elif key == "landform_going":
                # All of them: the check keeps only those that differ from the rulings'.
                out[key] = {
                    str(landform): self.cleaned_data.get(f"landform_going__{landform}")
                    for landform in RULINGS_LANDFORM_GOING
                }
            elif key == "rough_tracks":
                out[key] = list(self.cleaned_data.get(key) or [])
            elif key in ("airdrop_base", "objective", "airdrop_side"):
                out[key] = self.cleaned_data.get(key) or None  # empty: none
            else:
                out[key] = self.cleaned_data.get(key)
        return out

    def show_problems(self, problems: Sequence[str]) -> None:
        """The service's problems (``settings.naval_table.3.side: ...``), each on its field
        (a refusal's problem by its path, a line of words by what it says before ": "), in
        the GM's words from its code (``campaign.scenario_words``), not the checker's."""
        for problem in problems:
            if isinstance(problem, Problem) and problem.path:
                place = problem.path
            else:
                place, _, message = problem.partition(": ")
                problem = Problem(place, message) if message else Problem.of(problem)
            parts = place.removeprefix("settings.").replace("[", ".").replace("]", "").split(".")
            key = parts[0]
            field, where, noun = None, None, "This setting"
            if key in EVENT_TABLES and len(parts) >= 3:
                field = f"{key}__{parts[1]}__{parts[2]}"
                where, noun = f"face {parts[1]}", CELL_NOUNS.get(parts[2], parts[2])
            elif key == "landform_going" and len(parts) >= 2:
                field = f"{key}__{parts[1]}"
                where, noun = names.landform(parts[1]), "its going"
            elif key in self.fields and key in self.setting_keys:
                field = key  # a setting's own field (not the campaign's name: a file's)
            elif key in COMBAT_TABLES:
                field, noun = f"{key}__1__effect", "This table"
            if field in self.fields:
                self.add_error(field, sentence(field_words(problem, place=where, noun=noun)))
            else:  # a setting with no field of its own, or the scenario file's own
                self.add_error(None, sentence(problem_words(problem)))

    def problem_count(self) -> int:
        return sum(len(errors) for errors in self.errors.values())

    def problems(self) -> list[tuple[str, str, str]]:
        """Each field's problems, for the top of the page: (anchor, setting, message)."""
        out: list[tuple[str, str, str]] = []
        for name, errors in self.errors.items():
            if name == "__all__":
                continue
            key = name.split("__", 1)[0]
            doc = DOCS.get(key)
            label = doc.label if doc else str(self.fields[name].label or name)
            out.extend((f"setting-{key}", label, str(error)) for error in errors)
        return out

    def groups(self) -> list[SettingGroup]:
        """The settings by group, for the template: each a field or an event table."""
        out = []
        for title, explain, keys in GROUPS:
            items = []
            for key in keys:
                if key not in self.setting_keys:
                    continue
                doc = DOCS[key]
                item: dict[str, Any] = {
                    "key": key,
                    "doc": doc,
                    "meanwhile": getattr(self, "changed_meanwhile", {}).get(key, ""),
                    "conflict": key in getattr(self, "conflicts", set()),
                }
                if key == "landform_going":
                    item["rows"] = [GoingRow(self, str(lf)) for lf in RULINGS_LANDFORM_GOING]
                    # Their own classes, not the event tables' "face" (3em, a die's face):
                    # a landform's name needs room ("steep high ridge", "mud/rocks/swamp").
                    item["columns"] = [("landform", "Landform"), ("going", "Going")]
                elif key in EVENT_TABLES or key in COMBAT_TABLES:
                    faces = FACE_QUOTES.get(key, {})
                    item["rows"] = [
                        SettingRow(self, key, face, faces.get(face, "")) for face in DIE_FACES
                    ]
                    item["faces"] = True  # a block per face: its effect's list whole
                    item["columns"] = [
                        ("face", "Face"),
                        *(
                            (part, COLUMNS[part])
                            for part in COLUMNS
                            if f"{key}__1__{part}" in self.fields
                        ),
                    ]
                else:
                    item["field"] = self[key]
                items.append(item)
            if items:
                out.append(SettingGroup(title, explain, items))
        return out


class SettingsForm(SeenPage, ReadByAll, SettingFields):
    """Every setting of rules.campaign.state.Settings, grouped and explained, each with
    the rule it carries out; the event tables one row per die face."""

    def __init__(
        self,
        *args: Any,
        settings: Settings,
        seen: str,
        areas: list[str],
        tracks: list[str],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seen"].initial = seen
        self.current = settings_to_json(settings)
        self.add_settings(SETTING_NAMES, self.current, areas=areas, tracks=tracks)
        self.fields["reason"] = reason_field()
        # Asked for by update_settings, for a change only (ReasonMissing): a save that
        # changes nothing says so, and needs none.
        self.fields["reason"].required = False

    def touched(self, details: dict[str, Any]) -> dict[str, tuple[str, str]]:
        """A settings change's settings (its details keep each one's value before and
        after), in the settings page's words; an event table as changed, the message
        naming its faces. Marked by the setting's name (a table has one per face)."""
        before, after = details.get("before"), details.get("after")
        if details.get("kind") or not (isinstance(before, dict) and isinstance(after, dict)):
            return {}  # not a settings change (a schedule's, a company's stands)
        out = {}
        for key in after:
            if key not in self.setting_keys or before.get(key) == after[key]:
                continue
            if key in EVENT_TABLES or key in COMBAT_TABLES:
                out[key] = ("the table you saw", "changed faces (named above)")
            else:
                out[key] = (value_words(key, before.get(key)), value_words(key, after[key]))
        return out

    def showed(self, details: dict[str, Any]) -> dict[str, Any]:
        """A settings change's settings, each as it was before, as the fields of the page
        that showed it held them (an event table's faces one field each)."""
        before, after = details.get("before"), details.get("after")
        if details.get("kind") or not (isinstance(before, dict) and isinstance(after, dict)):
            return {}
        keys = tuple(
            key
            for key in before
            if key in self.setting_keys
            and key in self.current
            # A table's or the goings' value is a mapping; anything else read is no page's.
            and isinstance(before[key], dict) == isinstance(self.current[key], dict)
        )
        page = SettingFields()
        page.add_settings(keys, {**self.current, **before}, areas=[], tracks=[])
        return {name: page[name].initial for name in page.fields}

    def mark_of(self, name: str) -> str:
        return name.split("__", 1)[0]  # "naval_table__3__effect": the table's


class CreateCampaignForm(SettingFields, ScheduleForm, ScenarioUpload):
    """A new campaign: its name, the scenario (the Korona scenario if no file is given),
    the main choices (MAIN_CHOICES, over the scenario's own) and its schedule."""

    refuse_unused_boxes = True

    name = forms.CharField(
        max_length=200,
        help_text="What the players will see it called.",
        error_messages={
            **text_errors("The campaign's name", 200),
            "required": "Give the campaign a name.",
        },
    )
    scenario = forms.FileField(
        required=False,
        label="Scenario file",
        help_text="Leave empty to play the Korona scenario that comes with Korona. Or a "
        "scenario file of your own: to make one, press Export scenario on a campaign's page "
        "and edit the file it gives you.",
        error_messages=SCENARIO_FILE_ERRORS,
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        error_messages=SEED_ERRORS,
        help_text="Leave empty for the scenario's seed, or a random one. Every die of the "
        "campaign comes from it: the same seed replays the same campaign.",
    )
    campaigns = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=ADMIN_MAX_CAMPAIGNS,
        label="Campaigns to simulate",
        error_messages=whole_number_from(
            1, ADMIN_MAX_CAMPAIGNS, "the number of campaigns to simulate as a whole number"
        ),
        help_text=(
            "For Balance only: how many campaigns of the scenario to play, the sensible AI "
            "on both sides (100 if left empty; a second or two each of a processor on a small "
            "server, shared among its processors). "
            "Create ignores it."
        ),
    )

    # Said where the GM decides, above the choices: how to play solo (a walk-through's GM
    # found no word of it on this page) and how long the campaign lasts (not asked here).
    solo_words = (
        "Playing solo: a side nobody joins is played by the campaign AI, always ready. After "
        "Create, join one side with its invitation link (from a private window, as a player: "
        'the game master plays no side) and send the other link to nobody. Your "ready" '
        "then plays the turn at once."
    )
    length_words = (
        f"Length: the Korona scenario lasts {Settings().turn_limit} turns (a scenario file "
        "may set its own; change it later under Settings). After the last turn the campaign "
        f"ends and the side holding the objective ({Settings().objective}, in the Korona "
        "scenario) wins; it ends sooner if a side loses its base or its last fighting company."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_settings(MAIN_CHOICES, settings_to_json(Settings()), areas=[], tracks=[])

    def clean_scenario(self) -> Any:
        upload = self.cleaned_data.get("scenario")
        return None if upload is None else read_upload(upload)

    def choices(self) -> dict[str, Any]:
        return self.settings_json()


class StandsAdjustForm(SeenPage, ReadByAll):
    unit_type = forms.ChoiceField(error_messages=choose_from_list("a type of stand"))
    # Not Django's "Ensure this value is greater than or equal to 0."; the most a company
    # can hold is the service's to say (its establishment).
    held = forms.IntegerField(
        min_value=0,
        # The count after the change, not the stands lost (a walk-through could not tell).
        help_text="How many of that type the company holds after your change, from 0 to "
        'its establishment (the list gives each type\'s "held of establishment"): 7 for '
        "a company of 9 rifle squads that lost 2.",
        error_messages=dict.fromkeys(
            ("required", "invalid", "min_value"),
            "Give the stands held as a whole number, 0 or more.",
        ),
    )
    reason = reason_field()

    def __init__(self, *args: Any, company: Company, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["unit_type"]).choices = [
            (row.unit_type, f"{names.unit(row.unit_type, 2)} ({row.held} of {row.establishment})")
            for row in company.stand_counts.all()
        ]


class ControlAdjustForm(SeenPage, ReadByAll):
    controller = forms.ChoiceField(
        choices=[("", "nobody"), *SIDE_CHOICES],
        required=False,
        error_messages=choose_from_list("a side, or nobody,"),
    )
    reason = reason_field()


class ShipAdjustForm(SeenPage, ReadByAll):
    present = forms.BooleanField(required=False, help_text="In its port.")
    reason = reason_field()


class RollbackForm(SeenPage, ReadByAll):
    number = forms.TypedChoiceField(coerce=int, label="Back to the start of turn")
    reason = reason_field()
    confirm = forms.BooleanField(
        label="I understand: this turn and every later one are deleted, with their battles, "
        "and the campaign returns to the state it had when the turn began.",
        error_messages={"required": "Tick this box to roll back: nothing was rolled back."},
    )

    # The turn whose roll-back the page showed the effects of: a different choice shows
    # its own effects first instead of rolling back.
    previewed = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(
        self,
        *args: Any,
        numbers: list[int],
        seen: str,
        chosen: int | None = None,
        preview_url: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seen"].initial = seen
        number = cast(forms.ChoiceField, self.fields["number"])
        number.choices = [(n, f"turn {n}") for n in reversed(numbers)]
        if numbers:  # the one asked for, else the latest turn, the usual mistake
            shown = chosen if chosen in numbers else numbers[-1]
            self.fields["number"].initial = shown
            self.fields["previewed"].initial = shown
        if preview_url:
            # A new choice fetches its preview at once (htmx, a GET of this page with the
            # choice), and the hidden "previewed" with it: a script file, no inline script
            # (the CSP). Without script, the first press shows it, nothing rolled back.
            number.widget.attrs.update(
                {
                    "hx-get": preview_url,
                    "hx-trigger": "change",
                    "hx-target": "#preview",
                    "hx-select": "#preview",
                    "hx-swap": "outerHTML",
                    "hx-select-oob": "#id_previewed",
                }
            )


class SeedChangeForm(SeenPage, ReadByAll):
    """The GM replaces the coming turn's seed (campaign.services.commitments); refused
    when the campaign has moved on since the page showed it (a turn played meanwhile:
    the seed would go to a turn the GM never saw named)."""

    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        error_messages=SEED_ERRORS,
        help_text="Leave empty to draw a new one at random.",
    )
    reason = reason_field()
    confirm = forms.BooleanField(
        label="I understand: the players see that this turn's seed was replaced, and why; "
        "its published commitment is withdrawn and a new one published.",
        error_messages={"required": "Tick this box to replace the seed: nothing was replaced."},
    )

    def __init__(self, *args: Any, seen: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seen"].initial = seen


class PauseForm(SeenPage, ReadByAll):
    """The GM pauses a campaign, with a reason every member reads (on its map while the
    pause lasts, in the log, in an email), or resumes it, with one if they like
    (campaign.services.campaigns.set_paused). ``seen`` None: a form for several
    campaigns at once (the list's action), which checks none."""

    reason = reason_field()

    def __init__(self, *args: Any, paused: bool, seen: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seen"].initial = seen
        self.checks_seen = seen is not None
        if paused:
            self.fields["reason"].error_messages["required"] = (
                "Give a reason for the pause: every player reads it."
            )
        else:
            self.fields["reason"].required = False
            self.fields["reason"].help_text = (
                'If you like (without one, the players read "no reason given"). ' + REASON_HELP
            )

    def clean(self) -> dict[str, Any]:
        if self.checks_seen:
            return super().clean()
        return self.cleaned_data  # no page to compare: the list, for several at once


class DeleteCampaignForm(SeenPage):
    """The GM confirms deleting a campaign (campaign.services.campaigns.delete_campaign);
    refused when the campaign moved on since the page said what goes with it."""

    def __init__(self, *args: Any, seen: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seen"].initial = seen


def not_offered_words(row: Company | Area | None, noun: str) -> str:
    """Why the order form's list of companies (``noun`` "company") or of areas ("area")
    does not offer ``row``: gone, or of a campaign that has ended."""
    if row is None:
        return f"That {noun} is no longer in any campaign: choose one of the list."
    campaign = row.campaign
    if campaign.status == Campaign.Status.FINISHED and noun == "company":
        return f"{campaign.name} has ended: its companies take no more orders."
    if campaign.status == Campaign.Status.FINISHED:
        return f"{campaign.name} has ended: no order moves to its areas."
    return f"Choose {names.article(noun)} of the list."


class OrderForm(forms.ModelForm):
    """The GM gives (or changes) an order for the coming turn through give_order."""

    class Meta:
        model = Order
        fields = ["company", "kind", "target", "sniper"]

    kind = forms.ChoiceField(
        choices=[(k, k) for k in ORDER_KINDS], error_messages=choose_from_list("the kind")
    )
    target = forms.ModelChoiceField(
        queryset=Area.objects.select_related("campaign"),
        required=False,
        help_text="Advance or withdraw: the area the company moves to. Only an area linked to "
        "the company's own is accepted (a withdrawal: one closer to its own base); once the "
        "company is chosen, the list offers only those. Hold: leave it empty (an area chosen "
        "with a hold is left out).",
    )
    sniper = forms.BooleanField(
        required=False,
        label="Sniper",
        help_text="If the company defends this turn, it swaps one rifle squad for a sniper.",
    )

    class Media:
        # Choosing a company narrows the target list to its linked areas at once (htmx: a
        # GET of the add page with the company; a script file, no inline script, the CSP).
        js = ["campaign/htmx-2.0.11.min.js"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Only the companies and areas of campaigns still being played, each named with
        its campaign (the areas grouped under it); ``?campaign=<id>`` in the add page's
        address narrows both to one. Once the company is known (``?company=<id>``, or the
        form sent back), the targets are the areas linked to its own, named by themselves
        ("Korona · Korona" was one). A hold sent with an area is a hold: the area is left
        out (``target_left_out``, its name, for the message saying so), not refused."""
        super().__init__(*args, **kwargs)
        self.target_left_out: str | None = None
        if "company" not in self.fields:  # an order's page: read-only, every field shown
            return
        if self.is_bound and self.data.get("kind") == "hold" and self.data.get("target"):
            self._leave_out_the_target()
        open_campaigns = Campaign.objects.exclude(status=Campaign.Status.FINISHED)
        chosen = whole_number(str(self.initial.get("campaign") or ""))
        if chosen is not None:
            open_campaigns = open_campaigns.filter(pk=chosen)
        company = cast(forms.ModelChoiceField, self.fields["company"])
        company.queryset = (
            Company.objects.filter(campaign__in=open_campaigns)
            .select_related("campaign", "area")
            .order_by("campaign__name", "side", "name")
        )
        company.label_from_instance = lambda row: (  # type: ignore[method-assign, assignment]
            f"{row.campaign.name} · {row.name} ({row.get_side_display()}, in {row.area.name})"
        )
        # The admin wraps the select (its "view" link): the attributes go on the select.
        select = cast(forms.Widget, getattr(company.widget, "widget", company.widget))
        select.attrs.update(
            {
                "hx-get": reverse("admin:campaign_order_add"),  # with the company chosen
                "hx-trigger": "change",
                "hx-target": "#id_target",
                "hx-select": "#id_target",
                "hx-swap": "outerHTML",
            }
        )
        target = cast(forms.ModelChoiceField, self.fields["target"])
        known = self._known_company(company.queryset)
        if known is None and self.is_bound:
            self._say_why_not_offered()
        if known is not None:
            self._offer_linked_areas(target, known)
            return
        areas = (
            Area.objects.filter(campaign__in=open_campaigns)
            .select_related("campaign")
            .order_by("campaign__name", "campaign_id", "zone", "name")
        )
        target.queryset = areas
        # Grouped under each campaign's name (an <optgroup>): every campaign of the Korona
        # scenario has its Kilu, its Oivi.
        groups: dict[int, tuple[str, list[tuple[int, str]]]] = {}
        for area in areas:
            groups.setdefault(area.campaign_id, (area.campaign.name, []))[1].append(
                (area.pk, area.name)
            )
        target.choices = [("", target.empty_label), *groups.values()]

    def _leave_out_the_target(self) -> None:
        pk = whole_number(str(self.data.get("target")))
        area = Area.objects.filter(pk=pk).first() if pk is not None else None
        self.target_left_out = "" if area is None else area.name
        data = cast(Any, self.data).copy()  # a QueryDict (immutable), or a dict
        data["target"] = ""
        self.data = data

    def _offer_linked_areas(self, target: forms.ModelChoiceField, known: Company) -> None:
        """The areas linked to the company's own, as ``give_order`` accepts (a link goes
        both ways); another sent back is refused with the reason, as ``give_order`` says it."""
        here = known.area_id
        target.queryset = Area.objects.filter(
            Q(pk__in=Link.objects.filter(a_id=here).values("b_id"))
            | Q(pk__in=Link.objects.filter(b_id=here).values("a_id")),
            campaign_id=known.campaign_id,
        ).order_by("zone", "name")
        target.label_from_instance = (  # type: ignore[method-assign]
            lambda row: str(row.name)  # type: ignore[assignment]
        )
        pk = whole_number(str(self.data.get("target") or "")) if self.is_bound else None
        sent = Area.objects.filter(pk=pk).first() if pk is not None else None
        if sent is not None and sent.campaign_id == known.campaign_id:
            why = f"{sent.name} is not linked to {known.area.name}, where {known.name} is"
        else:
            why = (
                f"That area is not on the map of {known.campaign.name}, the campaign of "
                f"{known.name}"
            )
        target.error_messages["invalid_choice"] = f"{why}: choose one of the list."

    def _say_why_not_offered(self) -> None:
        """A company or area sent back that the lists no longer offer is refused with
        the reason (its campaign ended while the page was open, say), not Django's
        "Select a valid choice. That choice is not one of the available choices."."""
        for name, model, noun in (("company", Company, "company"), ("target", Area, "area")):
            pk = whole_number(str(self.data.get(name) or ""))
            rows = model.objects.select_related("campaign")
            row = rows.filter(pk=pk).first() if pk is not None else None
            field = cast(forms.ModelChoiceField, self.fields[name])
            field.error_messages["invalid_choice"] = not_offered_words(row, noun)

    def _known_company(self, companies: Any) -> Company | None:
        """The company the order is for, if the form knows it yet: sent back, or in the
        add page's address; None for none, or for one not among ``companies``."""
        raw = self.data.get("company") if self.is_bound else self.initial.get("company")
        pk = whole_number(str(raw or ""))
        if pk is None:
            return None
        return cast(Company | None, companies.filter(pk=pk).first())

    def _post_clean(self) -> None:
        """No model validation: ``give_order`` (called by the admin's ``clean``) checks the
        order and refuses it in the rules' words; the model's constraints would repeat
        that refusal in the database's ("Constraint … is violated"). The admin saves the
        order ``give_order`` saved, never this form's instance."""


class CampaignTakingPlayers(forms.ModelChoiceField):
    """A campaign chosen for a player (an invitation, a membership): the list offers only
    those that can still take players, not the ended ones (saving one was refused after
    the GM had chosen it); one sent anyway is refused in ``refused``'s words (the
    campaign), not "choose it from the list"."""

    def __init__(self, *args: Any, refused: Any, **kwargs: Any) -> None:
        kwargs["queryset"] = kwargs["queryset"].exclude(status=Campaign.Status.FINISHED)
        super().__init__(*args, **kwargs)
        self.refused = refused

    def to_python(self, value: Any) -> Any:
        try:
            return super().to_python(value)
        except forms.ValidationError:
            pk = whole_number(value if isinstance(value, str) else str(value))
            ended = None if pk is None else Campaign.objects.filter(pk=pk).first()
            if ended is not None and ended.status == Campaign.Status.FINISHED:
                raise forms.ValidationError(self.refused(ended), code="ended") from None
            raise


class RemovePlayerForm(ReadByAll):
    """The GM takes a player out of a campaign (``services.members.remove_player``): a
    reason for the public log, and a box to tick (the Delete box of the players' list
    removed them at Save, with no question and no word to anyone)."""

    reason = reason_field()
    confirm = forms.BooleanField(
        label="I understand: they leave the campaign and its pages, and the players read "
        "it in the log with my reason.",
        error_messages={"required": "Tick this box to remove the player: nothing was changed."},
    )
