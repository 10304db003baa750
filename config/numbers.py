"""Whole numbers read from what a browser or a script sent.

``str.isdigit`` is not the test for them: it also takes superscripts ('²'), which
``int()`` refuses, and other scripts' digits ('٢'), which ``int()`` reads; and ``int()``
refuses a string of more than 4,300 digits. Either way a form field became a 500 or a
number nobody typed.
"""

from __future__ import annotations

# More than any turn, id or count Korona keeps; short enough that int() never refuses it.
MOST_DIGITS = 12


def whole_number(raw: object) -> int | None:
    """``raw`` as a whole number when it is one written in ASCII digits (at most
    ``MOST_DIGITS`` of them); else None."""
    if not isinstance(raw, str) or not 0 < len(raw) <= MOST_DIGITS:
        return None
    if not (raw.isascii() and raw.isdigit()):
        return None
    return int(raw)
