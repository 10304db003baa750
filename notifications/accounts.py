"""Password reset by email: Django's own views (signed, one-use, expiring tokens:
``PASSWORD_RESET_TIMEOUT``), Korona's pages. The answer to "send me a link" is the same
whether or not the address has an account, so the page tells nobody who plays. No two
accounts share an address (``notifications.addresses``), so a link goes to one account."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

urlpatterns = [
    path(
        "accounts/password/reset/",
        auth_views.PasswordResetView.as_view(
            email_template_name="registration/password_reset_email.txt",
            subject_template_name="registration/password_reset_subject.txt",
            success_url=reverse_lazy("password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("password_reset_complete"), post_reset_login=False
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
