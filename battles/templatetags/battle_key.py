"""The key to a battle's picture in templates, built from the rules' names."""

from __future__ import annotations

from django import template

from battles.web.battleview import PictureKey, picture_key

register = template.Library()


@register.simple_tag
def battle_key() -> PictureKey:
    """``{% battle_key as key %}``: ``key.grounds`` and ``key.woods``
    (``battleview.picture_key``)."""
    return picture_key()
