"""Sign in and out, and the player's account page. django-axes
(settings.AUTHENTICATION_BACKENDS) refuses a username from an address after too many
failed passwords, before any password is checked.

The account page shows whether the player has an API token and revokes it (the same as
``DELETE /api/token/``), and changes the password (which revokes the tokens too:
config.auth)."""

from __future__ import annotations

from typing import Any

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


@login_required
@require_http_methods(["GET", "HEAD"])
def account(request: HttpRequest) -> HttpResponse:
    user = request.user  # signed in: login_required
    token = Token.objects.filter(user=user).only("created").first()  # type: ignore[misc]
    return render(request, "registration/account.html", {"token": token, **account_menu(request)})


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
    path("accounts/password/", PasswordChange.as_view(), name="password-change"),
]
