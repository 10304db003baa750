"""The game master's battle forms: a tabletop battle's result."""

from __future__ import annotations

from typing import Any

from django import forms

from campaign.forms import ReadByAll, SeenPage, reason_field
from rules import names


def bounds_words(key: str, unit: str, count: int) -> dict[str, str]:
    """A loss box's errors in the form's words, not Django's "Ensure this value is
    greater than or equal to 0."."""
    had = f"only {names.count(count, unit)}" if count else f"no {names.unit(unit, 2)}"
    return {
        "min_value": "A number of stands lost cannot be below 0.",
        "max_value": f"The {key} had {had}: it cannot have lost more.",
        "invalid": "A number of stands lost is a whole number, such as 2.",
    }


def side_name(key: str, sides: dict[str, str]) -> str:
    return sides.get(key) or names.side_adjective(key)


def result_key(winner: str, losses: dict[str, dict[str, int]]) -> str:
    """The result as one line, which the check page sends back with the result it showed:
    "defender attacker.rifle_squad=6 defender.commander=1". A press whose result is not
    the one shown (a box changed after reading it) is shown again, not entered."""
    lost = [
        f"{side}.{unit}={n}"
        for side in ("attacker", "defender")
        for unit, n in sorted((losses.get(side) or {}).items())
        if n
    ]
    return " ".join([winner, *lost])


class ResultForm(forms.Form):
    """A tabletop battle's result: the winner and the stands each side lost per type.

    A result is final, so the first press only shows it in words ("The defender wins
    ..."), and a second press of the same result enters it (``checked``): a walk-through
    entered the wrong winner in one click, and a roll-back to correct it replays the
    turn with new dice."""

    # The result the check page showed (``result_key``); empty on the first press.
    checked = forms.CharField(widget=forms.HiddenInput, required=False)

    # The winner is never chosen for the GM: it is typed in from the table. Not Django's
    # "This field is required." when none is chosen.
    winner = forms.ChoiceField(
        choices=[("", "choose the winner"), ("attacker", "attacker"), ("defender", "defender")],
        error_messages=dict.fromkeys(
            ("required", "invalid_choice"), "Choose the winner from the list."
        ),
    )

    def __init__(
        self,
        *args: Any,
        spec: dict[str, Any],
        forces: dict[str, str],
        sides: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        """``forces``: each force by its companies ("B Company, C Company and A Company");
        ``sides``: each side's name in the campaign by its key ("Australians")."""
        super().__init__(*args, **kwargs)
        # Each side by its force's name and side, as the table knew them, the side named
        # as the page above says it ("A Company (Australians)"): the list said
        # "(Australian)" under "Defending, the Australians" (a walk-through).
        sides = sides or {}
        winner = self.fields["winner"]
        assert isinstance(winner, forms.ChoiceField)  # the class attribute above
        winner.choices = [
            ("", "choose the winner"),
            *(
                (
                    key,
                    f"{key}: {forces[key]} ({side_name(spec[key].get('side', ''), sides)})",
                )
                for key in ("attacker", "defender")
            ),
        ]
        self.units: dict[str, list[str]] = {}
        for key in ("attacker", "defender"):
            present = spec[key]["stands"]
            # In the units' own order, not jsonb's: the form lists them to the GM.
            self.units[key] = sorted(present, key=names.unit_rank)
            for unit in self.units[key]:
                count = present[unit]
                # An empty box is none lost: the game master types only the losses
                # there were. Each box is bounded by what was present, so every box out
                # of bounds is said at once, beside itself.
                self.fields[f"{key}__{unit}"] = forms.IntegerField(
                    min_value=0,
                    max_value=count,
                    required=False,
                    label=f"{key.capitalize()} ({forces[key]}): "
                    f"{names.unit(unit, 2)} lost, of {count}",
                    error_messages=bounds_words(key, unit, count),
                )

    def losses(self) -> dict[str, dict[str, int]]:
        return {
            key: {unit: self.cleaned_data[f"{key}__{unit}"] or 0 for unit in units}
            for key, units in self.units.items()
        }

    def result_key(self) -> str:
        return result_key(self.cleaned_data["winner"], self.losses())

    def is_checked(self) -> bool:
        """Whether this press sends the very result the check page showed."""
        return bool(self.cleaned_data.get("checked")) and (
            self.cleaned_data["checked"] == self.result_key()
        )


class CorrectionForm(SeenPage, ReadByAll, ResultForm):
    """A tabletop result corrected: the result form, prefilled by the view with the result
    entered, its check step as before, and the reason every reader reads in the log."""

    reason = reason_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The reason under the loss boxes (added after the declared fields), as it is
        # read: after the result it explains.
        self.fields["reason"] = self.fields.pop("reason")
        self.fields["reveal"] = self.fields.pop("reveal")


def entered_boxes(result: dict[str, Any]) -> dict[str, Any]:
    """The result form's boxes as an entered ``result`` fills them, to correct it."""
    boxes: dict[str, Any] = {"winner": result.get("winner", "")}
    for key, lost in (result.get("losses") or {}).items():
        for unit, n in lost.items():
            boxes[f"{key}__{unit}"] = n
    return boxes


def result_in_words(
    winner: str, losses: dict[str, dict[str, int]], forces: dict[str, str], sides: dict[str, str]
) -> list[str]:
    """The result as it will read, for the GM to check before it is final: who wins, who
    loses and withdraws, and each side's losses ("The defender, A Company (Australians),
    lost 1 commander and 6 rifle squads.")."""
    loser = "defender" if winner == "attacker" else "attacker"

    def force(key: str) -> str:
        return f"the {key}, {forces[key]} ({sides[key]})"

    lines = [
        f"{force(winner)[0].upper()}{force(winner)[1:]}, wins the battle.",
        f"{force(loser)[0].upper()}{force(loser)[1:]}, loses: its companies withdraw one "
        "area toward their base when the turn ends (or surrender, with nowhere to go).",
    ]
    for key in ("attacker", "defender"):
        lost = [names.count(n, unit) for unit, n in (losses.get(key) or {}).items() if n]
        said = names.join(lost) if lost else "no stands"
        lines.append(f"The {key} lost {said}.")
    return lines
