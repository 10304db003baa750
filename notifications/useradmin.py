"""The admin's page of a user, whose email address no other account may use
(``notifications.addresses``), nor its username in any letter case (a player signs in
with it so: ``config.auth``): Django's own, with those checks on its forms."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm, UserCreationForm
from django.urls import reverse

from config.adminpages import RefusedIfTakenMeanwhile
from notifications import addresses
from rules import names


def own_address(email: str, user: Any = None) -> str:
    """``email`` unless another account uses it (``notifications.addresses``)."""
    email = email.strip()
    others = addresses.taken_by(email, user=user) if email else []
    if others:
        account = "account" if len(others) == 1 else "accounts"
        raise forms.ValidationError(
            f"That email address is already used by the {account} {names.join(others)}: "
            "each account needs its own, or a forgotten password cannot be reset by email."
        )
    return email


def own_username(username: str, user: Any = None) -> str:
    """``username`` unless another account has it, in any letter case (the database
    refuses it too: migration notifications 0009)."""
    others = get_user_model().objects.filter(username__iexact=username)
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    taken = sorted(others.values_list("username", flat=True))
    if taken:
        account = "account" if len(taken) == 1 else "accounts"
        raise forms.ValidationError(
            f"That username is already used by the {account} {names.join(taken)}, letter "
            "case aside: each account needs its own, as a player signs in with it typed in "
            "any case."
        )
    return username


class OwnAddressUserForm(UserChangeForm):
    def clean_username(self) -> str:
        return own_username(str(self.cleaned_data.get("username") or ""), self.instance)

    def clean_email(self) -> str:
        return own_address(str(self.cleaned_data.get("email") or ""), self.instance)


class NewAccountForm(UserCreationForm):
    """Users → Add in the game master's words, not Django's ("Password-based
    authentication: Enabled/Disabled", "Your password can't be too similar to your other
    personal information."): a username, an email address for the notices, and a
    password the game master passes on (always one: a player signs in with it)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        said = {
            "username": (
                "Username",
                "The name they sign in with: at most 150 letters, digits and @ . + - _ "
                "(no spaces).",
            ),
            "email": (
                "Email address",
                "Where Korona sends them its notices (a turn played, a deadline near), and "
                "a new password if they forget theirs. Each account needs its own.",
            ),
            "password1": (
                "Password",
                "At least 8 characters, not only digits, not a common password and not "
                "like the username or the email address. Give it to them privately: they "
                'can change it once signed in (their account\'s page: "Change your password").',
            ),
            "password2": ("Password again", "The same password, to catch a typing slip."),
        }
        for name, (label, help_text) in said.items():
            self.fields[name].label = label
            self.fields[name].help_text = help_text
        self.fields["username"].error_messages["required"] = "Give the username."
        self.fields["password1"].error_messages["required"] = "Give the password."
        self.fields["password2"].error_messages["required"] = "Give the password again."

    def clean_username(self) -> str:
        return own_username(str(self.cleaned_data.get("username") or ""))

    def clean_email(self) -> str:
        return own_address(str(self.cleaned_data.get("email") or ""))


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class OwnAddressUserAdmin(RefusedIfTakenMeanwhile, UserAdmin):
    form = OwnAddressUserForm
    add_form = NewAccountForm
    add_form_template = "admin/auth/user/korona_add_form.html"
    add_fieldsets = ((None, {"fields": ("username", "email", "password1", "password2")}),)

    def add_view(self, request: Any, form_url: str = "", extra_context: Any = None) -> Any:
        """Titled "Add an account", with how a player normally joins (by an invitation,
        making their own account) above the form (templates/admin/auth/user/...)."""
        context = {
            "title": "Add an account",
            "invitation_add": reverse("admin:notifications_invitation_add"),
            **(extra_context or {}),
        }
        return super().add_view(request, form_url, context)
