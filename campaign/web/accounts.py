"""Sign in and out, and the player's account page. django-axes
(settings.AUTHENTICATION_BACKENDS) refuses a username from an address after too many
failed passwords, before any password is checked.

The account page shows whether the player has an API token and revokes it (the same as
``DELETE /api/token/``), changes the email address the notices go to (the password asked
first; ``notifications.addresses.change_email``) and changes the password (which revokes
the tokens too: config.auth)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse, reverse_lazy
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.authtoken.models import Token

from config.pages import account_menu, menu_query
from notifications import addresses


class EmailChangeForm(forms.Form):
    """A new address for the notices, with the player's password: whoever finds the
    player signed in on a shared computer cannot send their notices and reset links
    elsewhere. A wrong password says nothing of the address."""

    email = forms.EmailField(
        label="New email address",
        max_length=254,
        help_text="Where Korona sends your notices, and a link if you forget your password.",
        error_messages={
            "required": "Give your new email address.",
            "invalid": "That is not an email address: it looks like name@example.com.",
        },
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password = forms.CharField(
        label="Your password",
        strip=False,
        help_text="The one you sign in with, to show it is you.",
        error_messages={"required": "Give your password."},
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = str(self.cleaned_data["password"])
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password: nothing was changed.")
        return password

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:  # a wrong password: the address is not looked up
            return cleaned
        email = str(cleaned["email"]).strip()
        asker = f"account:{self.user.pk}"
        if email == self.user.email:
            self.add_error("email", "That is your address already: nothing to change.")
        elif addresses.refused_too_often(asker):
            self.add_error("email", addresses.TOO_MANY_ON_CHANGE)
        elif addresses.email_taken(email, user=self.user):
            addresses.note_refused(asker, email)
            self.add_error("email", addresses.TAKEN_ON_CHANGE)
        return cleaned

    def focus_first_refused(self) -> None:
        """The first field refused has the focus when the page comes back (no script:
        the page's CSP allows none inline)."""
        refused = [name for name in self.fields if name in self.errors]
        if refused:
            self.fields[refused[0]].widget.attrs["autofocus"] = True


def _account_page(request: HttpRequest, email_form: EmailChangeForm, status: int = 200) -> Any:
    user = request.user  # signed in: login_required
    token = Token.objects.filter(user=user).only("created").first()  # type: ignore[misc]
    context = {"token": token, "email_form": email_form, **account_menu(request)}
    return render(request, "registration/account.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD"])
def account(request: HttpRequest) -> HttpResponse:
    return _account_page(request, EmailChangeForm(request.user))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def change_email(request: HttpRequest) -> HttpResponse:
    """POST: the account page's "Change my email address". GET (a typed address, the page
    loaded again after a refusal): the account page's address."""
    if request.method != "POST":
        return redirect(reverse("account") + menu_query(request))
    user: Any = request.user  # signed in: login_required
    form = EmailChangeForm(user, request.POST)
    if form.is_valid():
        try:
            addresses.change_email(user=user, email=form.cleaned_data["email"])
        except addresses.AddressRefused:
            # Another account took it between the form's check and the save.
            addresses.note_refused(f"account:{user.pk}", form.cleaned_data["email"])
            form.add_error("email", addresses.TAKEN_ON_CHANGE)
        else:
            messages.success(
                request, f"Your email address is now {user.email}: Korona's emails go there."
            )
            return redirect(reverse("account") + menu_query(request))
    form.focus_first_refused()
    return _account_page(request, form, status=400)


@login_required
@require_POST
def revoke_token(request: HttpRequest) -> HttpResponse:
    user = request.user  # signed in: login_required
    revoked, _ = Token.objects.filter(user=user).delete()  # type: ignore[misc]
    messages.success(
        request,
        "Your API token is revoked: it no longer opens the API."
        if revoked
        else "You had no API token.",
    )
    return redirect(reverse("account") + menu_query(request))


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's, the second password worded as on the reset and sign-up pages; the new
    password's help text stays the validators' own rules."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["new_password2"].label = "The same again"
        self.fields["new_password2"].help_text = ""


class PasswordChange(auth_views.PasswordChangeView):
    # Not registration/password_change_form.html: the admin's own page uses that name.
    template_name = "registration/change_password.html"
    form_class = PasswordChangeForm
    success_url = reverse_lazy("account")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), **account_menu(self.request)}

    def get_success_url(self) -> str:
        return super().get_success_url() + menu_query(self.request)

    def form_valid(self, form: Any) -> HttpResponse:
        answer = super().form_valid(form)
        messages.success(
            self.request, "Your password is changed; your API token and other sessions end."
        )
        return answer


class SignOutView(auth_views.LogoutView):
    """POST signs out (Django's view); GET, from a typed or followed address, answers a
    page with the sign-out button instead of an empty 405, and signs nobody out."""

    http_method_names = ["get", "post", "options"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return render(request, "registration/sign_out.html")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        answer = super().post(request, *args, **kwargs)
        # After the sign-out: it empties the session, and the message with it.
        messages.info(request, "You are signed out.")
        return answer


urlpatterns = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    # Signing out is a POST only: a link or an image cannot sign a player out (GET: a page).
    path("accounts/logout/", SignOutView.as_view(), name="logout"),
    path("accounts/", account, name="account"),
    path("accounts/token/revoke/", revoke_token, name="revoke-token"),
    path("accounts/email/", change_email, name="email-change"),
    path("accounts/password/", PasswordChange.as_view(), name="password-change"),
]
