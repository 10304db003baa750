"""What the apps' admin pages share: their own addresses, a page in the admin's frame, one
GM form on an admin page, a row's change page, a campaign's row's times on its clock."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from html import unescape
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db import IntegrityError, router, transaction
from django.db.models import Model, QuerySet
from django.db.models.options import Options
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.formats import localize
from django.utils.html import format_html, strip_tags
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from campaign.services.deadlines import moment_words, time_zone


class NoSuchRow(Http404):
    """The row a model admin's own page is for is not there (``admin_row``)."""

    def __init__(self, pk: Any) -> None:
        super().__init__(f"no row {pk!r}")
        self.pk = pk


def admin_row(model_admin: admin.ModelAdmin, pk: Any, rows: QuerySet[Any] | None = None) -> Any:
    """The row ``pk`` of the model admin's model (of ``rows``, when given); ``NoSuchRow``
    when it is not there, which its page answers as the admin's own change page does."""
    found = (model_admin.model._default_manager.all() if rows is None else rows).filter(pk=pk)
    row: Model | None = found.first()
    if row is None:
        raise NoSuchRow(pk)
    return row


def no_such_row(
    model_admin: admin.ModelAdmin, request: HttpRequest, opts: Options[Any], key: Any
) -> HttpResponseRedirect:
    """A row that is not there, said as the admin's own change page says it (Django's
    words, "Campaign with ID “999” doesn’t exist. Perhaps it was deleted?"), but with the
    model's name capitalised as a sentence begins, and back to the admin's home."""
    said = _("%(name)s with ID “%(key)s” doesn’t exist. Perhaps it was deleted?") % {
        "name": capfirst(opts.verbose_name),
        "key": unquote(str(key)),
    }
    model_admin.message_user(request, said, messages.WARNING)
    return HttpResponseRedirect(reverse("admin:index", current_app=model_admin.admin_site.name))


def capitalise_missing_rows() -> None:
    """Every model admin's own change, delete and history pages (Korona's and the
    third-party apps') say a missing row as ``no_such_row`` does, as the GM's own pages
    do (``in_the_admin``): Django's sentence began with "campaign", lowercase."""
    # Django's hook for that answer, private, which the stubs do not know.
    admin.ModelAdmin._get_obj_does_not_exist_redirect = no_such_row  # type: ignore[attr-defined]


def in_the_admin(
    model_admin: admin.ModelAdmin, view: Callable[..., HttpResponse]
) -> Callable[..., HttpResponse]:
    """``view``, a missing row (``NoSuchRow``) said inside the admin as its own change page
    says it (``no_such_row``: "Campaign with ID “999” doesn’t exist", back to the admin's
    home), not by the players' "not found" page."""

    @wraps(view)
    def answered(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except NoSuchRow as missing:
            return no_such_row(model_admin, request, model_admin.model._meta, missing.pk)

    return answered


def admin_routes(
    model_admin: admin.ModelAdmin, *routes: tuple[str, Callable[..., HttpResponse], str]
) -> list[URLPattern]:
    """A model admin's own pages, each (route, view, name) behind the admin's login
    (``admin_view``), a missing row said inside the admin (``in_the_admin``), and named
    ``<app>_<model>_<name>`` as the admin names its own."""
    meta = model_admin.model._meta
    return [
        path(
            route,
            model_admin.admin_site.admin_view(in_the_admin(model_admin, view)),
            name=f"{meta.app_label}_{meta.model_name}_{name}",
        )
        for route, view, name in routes
    ]


def no_row(request: HttpRequest, pk: str) -> HttpResponse:
    """A row page asked for with an id that is no number ("abc"): no row has it."""
    raise NoSuchRow(pk)


def row_pages(model_admin: admin.ModelAdmin, *names: str) -> list[URLPattern]:
    """A model admin's pages of one row each: ``<int:pk>/<name>/``, served by its
    ``<name>_view`` and named as ``admin_routes`` names them. The same address with an
    id that is no number ("abc/<name>/"), sent or opened, is a missing row, said as the
    admin says an unknown id (``in_the_admin``), not sent on by the admin's own
    ``<path:object_id>/`` to the change page of a row "abc/<name>"."""
    site = model_admin.admin_site
    return [
        *admin_routes(
            model_admin,
            *((f"<int:pk>/{name}/", getattr(model_admin, f"{name}_view"), name) for name in names),
        ),
        *(
            path(f"<str:pk>/{name}/", site.admin_view(in_the_admin(model_admin, no_row)))
            for name in names
        ),
    ]


def admin_page(
    model_admin: admin.ModelAdmin, request: HttpRequest, template: str, **context: Any
) -> TemplateResponse:
    """A page of the model admin's own in the admin's frame (its header, its site)."""
    frame = {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta}
    return TemplateResponse(request, template, {**frame, **context})


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
    named: str = "",
) -> TemplateResponse:
    """One GM form on an admin page (templates/admin/korona/form.html). ``also``: more
    buttons, (label, address), each sending the same form to another view. ``named``:
    ``obj`` as its breadcrumbs name it, when its own words (``str``) are not the admin's."""
    return admin_page(
        model_admin,
        request,
        "admin/korona/form.html",
        also=also,
        title=title,
        form=form,
        original=obj,
        original_named=named or obj,
        submit=submit,
        intro=intro,
        multipart=multipart,
    )


# A page that shows ``copy_field``s loads these (its Media, or its template).
COPY_SCRIPT = "campaign/copy-link.js"
COPY_STYLE = "campaign/admin-copy.css"


def copy_field(text: str, what: str) -> SafeString:
    """``text`` (an invitation's link) as a read-only field to copy, with a Copy button
    (COPY_SCRIPT; hidden without script), never a link: following it would use it up.
    A text area, which wraps the link whole where a column is narrow (one line showed
    "http://127.0.0.(" in the Invitations list); on a phone it keeps to one line that
    scrolls (COPY_STYLE)."""
    return format_html(
        '<span class="copy-link"><textarea readonly rows="2" spellcheck="false" '
        'aria-label="{}">{}</textarea>'
        '<button type="button" class="button" data-copy hidden>Copy</button></span>',
        what,
        text,
    )


def say_done(
    model_admin: Any, request: HttpRequest, obj: Any, message: str, *, logged: str = ""
) -> None:
    """A GM action done: say so, and keep it in the admin's log, which its home page's
    "Recent actions" and the row's History read (the services change the rows; the
    admin's own forms, which log by themselves, are not how the GM's actions go).
    ``logged``: what the log keeps, when not the message's words (a link to follow now
    is no record). The log keeps plain text, which its pages escape once: the message's
    HTML escapes ("the Australians&#x27; C Company") showed as code there."""
    model_admin.message_user(request, message)
    model_admin.log_change(request, obj, logged or unescape(strip_tags(str(message))))


def back_to_change(
    model_admin: Any, request: HttpRequest, obj: Any, message: str, *, logged: str = ""
) -> HttpResponseRedirect:
    """A GM form done: say so (``say_done``), and go back to the row's change page."""
    say_done(model_admin, request, obj, message, logged=logged)
    return HttpResponseRedirect(change_url(obj))


def change_url(obj: Any) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def check_selected_rows() -> None:
    """Every model admin (Korona's and the third-party apps') checks the rows a changelist
    action is sent for before it runs: Django's admin filters them by ``pk__in`` of the
    posted values unchecked, so a value that is no key ('x', 10**30, a NUL) reached the
    database as a 500. Such a request does nothing and says so."""
    from django.contrib import messages
    from django.contrib.admin import helpers
    from django.core.exceptions import ValidationError

    unchecked = admin.ModelAdmin.response_action
    if getattr(unchecked, "checks_selected_rows", False):
        return

    def response_action(
        self: admin.ModelAdmin, request: HttpRequest, queryset: Any
    ) -> HttpResponse | None:
        key = self.model._meta.pk
        assert key is not None  # every model has one
        try:
            for raw in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
                if "\x00" in raw:
                    raise ValidationError("A NUL character.")  # never shown: the one below is
                key.run_validators(key.to_python(raw))
        except ValidationError:
            self.message_user(
                request,
                "Nothing was done: the rows chosen are not rows of this list. Reload the "
                "page and choose again.",
                messages.ERROR,
            )
            return HttpResponseRedirect(request.get_full_path())
        return unchecked(self, request, queryset)

    response_action.checks_selected_rows = True  # type: ignore[attr-defined]
    admin.ModelAdmin.response_action = response_action  # type: ignore[method-assign, assignment]


class RefusedIfTakenMeanwhile:
    """A model admin's add or change page whose save breaks a unique index (two game
    masters adding the same username, address or player at the same moment: each form's
    checks passed before the other saved) answers its form again, checked afresh, instead
    of a 500: the checks now find the other's row and refuse in their own words, and
    nothing of this save is kept (rolled back to just before it). A second break, which
    no check explains, is an error like any other.

    On PostgreSQL the two pages' checks can run side by side, so only the index sees the
    clash. On SQLite each page takes the database's one write lock as it starts
    (``transaction_mode`` IMMEDIATE, config.env), so the second page waits and its checks
    see the first's row; the index is the backstop there."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        # Every check (the form's, its inlines') is passed and nothing is saved yet: the
        # model, its inlines and the log come after.
        using = router.db_for_write(self.model)  # type: ignore[attr-defined]
        request._korona_before_save = (using, transaction.savepoint(using=using))  # type: ignore[attr-defined]
        super().save_model(request, obj, form, change)  # type: ignore[misc]

    def _changeform_view(
        self, request: HttpRequest, object_id: Any, form_url: str, extra_context: Any
    ) -> HttpResponse:
        view = super()._changeform_view  # type: ignore[misc]
        try:
            return view(request, object_id, form_url, extra_context)
        except IntegrityError:
            before = getattr(request, "_korona_before_save", None)
            if before is None or getattr(request, "_korona_checked_again", False):
                raise
            using, savepoint = before
            # The broken save is undone back to the savepoint, and the page's transaction
            # goes on from there (Django marked all of it for rollback as the save broke).
            transaction.set_rollback(False, using=using)
            transaction.savepoint_rollback(savepoint, using=using)
            request._korona_checked_again = True  # type: ignore[attr-defined]
            del request._korona_before_save  # type: ignore[attr-defined]
            return view(request, object_id, form_url, extra_context)


class GmFieldWords:
    """A model admin's own add and change forms in the GM's words, as Korona's GM forms
    say them: "Choose the campaign from the list." and "Give the URL.", not Django's
    "This field is required." or "Select a valid choice. That choice is not one of the
    available choices." (a walk-through added an invitation, a membership and an order
    with a box left empty and read Django's words beside each). Fields the form
    declares itself keep their own words."""

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]
        if field is not None:
            gm_field_words(field, str(db_field.verbose_name))
        return field


def gm_field_words(field: Any, name: str) -> None:
    """Set ``field``'s "required" and "invalid choice" errors in the GM's words."""
    if isinstance(field, (forms.ChoiceField, forms.ModelChoiceField)):
        said = f"Choose the {name} from the list."
        field.error_messages.update(
            dict.fromkeys(("required", "invalid_choice", "invalid_pk_value"), said)
        )
    else:
        field.error_messages["required"] = f"Give the {name}."


def campaign_clock(row: Any) -> str | None:
    """The time zone of the campaign ``row`` is (or belongs to), if it names one."""
    campaign = row if hasattr(row, "timezone") else getattr(row, "campaign", None)
    name = getattr(campaign, "timezone", None)
    return name if isinstance(name, str) and time_zone(name) is not None else None


def on_campaign_clock(field: str) -> Callable[[Any, Any], str]:
    """A column (or a read-only field) for the date/time ``field`` of a campaign's row, on
    its campaign's clock with the zone named ("Sun 6 Dec 2026, 19:00 AEDT", as the GM's
    deadlines and History say a moment): a list of turns or of GM changes mixes campaigns,
    each read beside deadlines in its own time zone, not in the server's UTC. A row with
    no campaign (or none yet, on an add page) is shown as the admin shows a time; an empty
    one as the admin's "-". Sorted by the field."""

    @admin.display(description=field.replace("_", " "), ordering=field)
    def column(model_admin: Any, row: Any) -> str:
        moment = getattr(row, field)
        if moment is None:
            return model_admin.get_empty_value_display()
        clock = campaign_clock(row)
        if clock is None:
            return localize(timezone.localtime(moment))
        return moment_words(moment, clock)

    column.__name__ = f"{field}_on_clock"
    return column
