"""The admin's page of a user, whose email address no other account may use
(``notifications.addresses``): Django's own, with that check on its form."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm

from notifications import addresses
from rules import names


class OwnAddressUserForm(UserChangeForm):
    def clean_email(self) -> str:
        email = str(self.cleaned_data.get("email") or "").strip()
        others = addresses.taken_by(email, user=self.instance) if email else []
        if others:
            account = "account" if len(others) == 1 else "accounts"
            raise forms.ValidationError(
                f"That email address is already used by the {account} {names.join(others)}: "
                "each account needs its own, or a forgotten password cannot be reset by email."
            )
        return email


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class OwnAddressUserAdmin(UserAdmin):
    form = OwnAddressUserForm
