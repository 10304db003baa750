"""Players read "game master", in full, never "GM": not all of them are wargamers, and
the pages said both (docs/pages.md, "Words for players"). The rule holds for every
template a player is shown (all but the admin's, templates/admin/) and for the words
the Python behind the players' pages, emails and notices writes; the admin, read by the
GM alone, may keep "GM"."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHORT = re.compile(r"\bGMs?\b")
# What a reader never gets: a template's comments.
COMMENTS = re.compile(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}|\{#.*?#\}|<!--.*?-->", re.S)
# The modules that word the players' pages, emails and notices (the admin's own, the API's
# help for programmers and the models' labels, read in the admin, are not among them).
PLAYERS_PYTHON = [
    "campaign/web",
    "battles/web",
    "notifications/services.py",
    "notifications/messages.py",
    "notifications/web.py",
    "notifications/feeds.py",
    "notifications/hooks.py",
    "notifications/invitations.py",
    "notifications/accounts.py",
    "campaign/services/deadlines.py",
    "campaign/services/schedule.py",
    "campaign/services/turns.py",
    "campaign/services/rollback.py",
    "campaign/services/commitments.py",
    "campaign/services/visibility.py",
    "rules/names.py",
    "rules/campaign/verify.py",
]


def players_templates() -> list[Path]:
    found = [
        path
        for path in (ROOT / "templates").rglob("*")
        if path.suffix in (".html", ".txt") and "admin" not in path.relative_to(ROOT).parts
    ]
    assert len(found) > 30
    return found


def short_forms(text: str) -> list[str]:
    """Each line of ``text`` that says "GM" (or "GMs") where a reader reads it."""
    shown = COMMENTS.sub("", text)
    return [line.strip() for line in shown.splitlines() if SHORT.search(line)]


def test_the_scan_finds_the_short_form_and_skips_comments() -> None:
    assert short_forms("<p>Ask the GM.</p>\n<p>The GMs' table</p>") == [
        "<p>Ask the GM.</p>",
        "<p>The GMs' table</p>",
    ]
    assert short_forms("{% comment %}the GM's{% endcomment %}{# GM #}<!-- GM -->") == []
    assert short_forms("<p>the game master, GMT+11, a GMC truck</p>") == []


def test_no_players_template_says_gm() -> None:
    faults = {
        str(path.relative_to(ROOT)): found
        for path in players_templates()
        if (found := short_forms(path.read_text(encoding="utf-8")))
    }
    assert faults == {}


def words_written(path: Path) -> list[str]:
    """The string constants of a module, its docstrings aside (a reader never sees them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_no_words_the_players_python_writes_say_gm() -> None:
    modules = [
        path
        for name in PLAYERS_PYTHON
        for path in ((ROOT / name).rglob("*.py") if (ROOT / name).is_dir() else [ROOT / name])
    ]
    assert all(path.exists() for path in modules) and len(modules) > 20
    faults = {
        str(path.relative_to(ROOT)): found
        for path in modules
        if (found := [words for words in words_written(path) if SHORT.search(words)])
    }
    assert faults == {}
