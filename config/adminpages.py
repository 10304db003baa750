"""What the apps' admin pages share: one GM form on an admin page, a row's change page."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse


def form_page(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    *,
    title: str,
    form: Any,
    obj: Any = None,
    submit: str = "Save",
    intro: str = "",
    multipart: bool = False,
    also: tuple[tuple[str, str], ...] = (),
) -> TemplateResponse:
    """One GM form on an admin page (templates/admin/korona/form.html). ``also``: more
    buttons, (label, address), each sending the same form to another view."""
    context = {
        "also": also,
        **model_admin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "opts": model_admin.model._meta,
        "original": obj,
        "submit": submit,
        "intro": intro,
        "multipart": multipart,
    }
    return TemplateResponse(request, "admin/korona/form.html", context)


def change_url(obj: Any) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
