"""Player-facing words in templates, through the one naming helper (``rules.names``)."""

from __future__ import annotations

from django import template

from rules.names import area_vegetation, article, side_adjective

register = template.Library()


@register.filter
def a_company_of(side: str, kind: str) -> str:
    """``{{ side|a_company_of:kind }}``: 'an Australian fighting company', 'a Japanese
    fighting company' (a glimpse's words: its side and kind, never its name)."""
    return article(f"{side_adjective(side)} {kind} company")


@register.filter
def vegetation(key: str) -> str:
    """``{{ area.vegetation|vegetation }}``: 'light' -> 'light woods' (as a battle's
    heading says it)."""
    return area_vegetation(key)
