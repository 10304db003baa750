"""The GM's battle forms: a tabletop battle's result."""

from __future__ import annotations

from typing import Any

from django import forms

from rules import names


class ResultForm(forms.Form):
    """A tabletop battle's result: the winner and the stands each side lost per type."""

    # The winner is never chosen for the GM: it is typed in from the table.
    winner = forms.ChoiceField(
        choices=[("", "choose the winner"), ("attacker", "attacker"), ("defender", "defender")]
    )

    def __init__(
        self, *args: Any, spec: dict[str, Any], forces: dict[str, str], **kwargs: Any
    ) -> None:
        """``forces``: each force by its companies ("B Company, C Company and A Company")."""
        super().__init__(*args, **kwargs)
        # Each side by its force's name and side, as the table knew them.
        winner = self.fields["winner"]
        assert isinstance(winner, forms.ChoiceField)  # the class attribute above
        winner.choices = [
            ("", "choose the winner"),
            *(
                (
                    key,
                    f"{key}: {forces[key]} ({names.side_adjective(spec[key].get('side', ''))})",
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
                # An empty box is none lost: the GM types only the losses there were.
                self.fields[f"{key}__{unit}"] = forms.IntegerField(
                    min_value=0,
                    required=False,
                    label=f"{key.capitalize()} ({forces[key]}): "
                    f"{names.unit(unit, 2)} lost, of {count}",
                )

    def losses(self) -> dict[str, dict[str, int]]:
        return {
            key: {unit: self.cleaned_data[f"{key}__{unit}"] or 0 for unit in units}
            for key, units in self.units.items()
        }
