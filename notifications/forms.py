"""The checks of a reader's notice settings (``Preference``), wherever they are typed:
the reader's own page (``web.PreferenceForm``) and the game master's admin
(``admin.PreferenceAdmin``), so neither keeps an hour or a time zone the other refuses."""

from __future__ import annotations

from django import forms

from campaign.services.deadlines import time_zone_name, time_zones_of_city


class PreferenceChecks(forms.ModelForm):
    """No fields of its own: each form that builds on it names the fields it shows (the
    admin's shows them all)."""

    def clean_reminder_hours(self) -> int:
        hours: int = self.cleaned_data["reminder_hours"]
        if not 1 <= hours <= 168:
            raise forms.ValidationError("Between 1 and 168 hours (a week).")
        return hours

    def clean_time_zone(self) -> str:
        """Kept as the time zone database spells it, whatever the letter case typed, as
        the campaign's Create and Schedule forms keep it; empty, each campaign's clock."""
        typed = self.cleaned_data["time_zone"].strip()
        if not typed:
            return ""  # each campaign's own clock
        zone = time_zone_name(typed)
        if zone is None:
            # A city alone ("Sydney", as a walk-through's player typed it): the zone it is
            # in, as the campaign's Create and Schedule forms suggest it to the GM.
            meant = time_zones_of_city(typed)
            if meant:
                raise forms.ValidationError(
                    f"{typed!r} is not a time zone: write it as Region/City. "
                    f"Did you mean {' or '.join(meant)}?"
                )
            raise forms.ValidationError(
                f"{typed!r} is not a time zone: use a name such as Europe/Berlin or "
                "Australia/Sydney."
            )
        return zone
