"""Sign in and out. django-axes (settings.AUTHENTICATION_BACKENDS) refuses a username
from an address after too many failed passwords, before any password is checked."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

urlpatterns = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    # Django signs out on POST only: a link or an image cannot sign a player out.
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]
