"""One refusal hierarchy: input the rules (or a service over them) will not take.

Every refusal is a :class:`Refusal` (a ``ValueError``, as each was before), carrying its
problems: each a :class:`Problem`, the place in the input it is about (a dotted path such
as ``attacker.stands.rifle_squad``, or ``""`` for the input as a whole) and the message.
A problem reads as its line of words (``"path: message"``), so code that joined or printed
the problems as strings reads them as before.

The ways in map a refusal once each: the API to a 400 with the problems
(``campaign.api.errors``), the pages and the admin through ``config.refusals``'s
middleware (a 400 page with the problems; in the admin, an error message on the page the
GM came from). A refusal changes nothing: each is raised before anything is written, or
inside the transaction it rolls back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Problem(str):
    """One fault and its place: reads as ``"path: message"`` (``message`` alone when the
    problem is about the whole input), with ``path`` and ``message`` apart."""

    path: str
    message: str

    def __new__(cls, path: str, message: str) -> Problem:
        problem = super().__new__(cls, f"{path}: {message}" if path else message)
        problem.path = path
        problem.message = message
        return problem

    @classmethod
    def of(cls, value: object) -> Problem:
        """A problem as given, or a line of words (``"path: message"`` or a message)."""
        if isinstance(value, Problem):
            return value
        return cls("", str(value))

    def as_json(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (Celery results) as a Problem
        return (Problem, (self.path, self.message))


class Refusal(ValueError):
    """Input refused, with each fault's place and message in ``problems``.

    ``Refusal("message")`` is one problem about the whole input; ``Refusal(problems)``
    (problems or strings) several, the message their lines joined. A subclass may set
    ``prefix`` ("invalid battle: ") for the message only."""

    prefix = ""

    def __init__(self, problems: str | Iterable[object] = ()) -> None:
        if isinstance(problems, str):
            problems = [problems]
        self.problems: list[Problem] = [Problem.of(p) for p in problems]
        super().__init__(self.prefix + "; ".join(self.problems))

    def as_json(self) -> dict[str, Any]:
        """``{"detail": message, "problems": [{"path", "message"}, ...]}``."""
        return {"detail": str(self), "problems": [p.as_json() for p in self.problems]}
