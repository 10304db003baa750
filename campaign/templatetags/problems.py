"""A form's problems counted as the page lists them, in the GM's admin templates."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def problem_count(form: Any) -> int:
    """``{{ form|problem_count }}``: every problem the form lists, each of a box's and
    the form's own. ``form.errors|length`` counts the boxes with problems: a box with two
    read "Please correct the problem below." over two. A change form's ``errors`` (the
    admin's list of its form's and inlines' error lists) is counted the same way."""
    lists = form.errors.values() if hasattr(form, "errors") else form
    return sum(len(errors) for errors in lists)
