"""The Content-Security-Policy runs no inline script: no template of Korona may hold one,
nor an inline event handler (onclick=...) or a javascript: link. A script belongs in a
static file (campaign/static/campaign/). tests/browser/test_csp.py checks the pages in a
browser; this catches a template no browser test opens."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
HANDLER = re.compile(r"""\son[a-z]+\s*=\s*["']""", re.I)
JAVASCRIPT_URL = re.compile(r"""(?:href|src|action)\s*=\s*["']\s*javascript:""", re.I)


def templates() -> list[Path]:
    found = [
        path
        for path in ROOT.rglob("*.html")
        if not {".venv", "test-artifacts", "staticfiles", "node_modules"} & set(path.parts)
    ]
    assert len(found) > 20
    return found


def test_no_template_holds_an_inline_script_or_handler() -> None:
    faults = []
    for path in templates():
        text = path.read_text(encoding="utf-8")
        for pattern in (INLINE_SCRIPT, HANDLER, JAVASCRIPT_URL):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                faults.append(f"{path.relative_to(ROOT)}:{line}: {match.group().strip()}")
    assert faults == []


def test_the_check_finds_what_it_looks_for() -> None:
    assert INLINE_SCRIPT.search("<script>\nalert(1)</script>")
    assert not INLINE_SCRIPT.search('<script src="/static/x.js" defer></script>')
    assert not INLINE_SCRIPT.search('<script type="application/json" id="d">{}</script>')
    assert HANDLER.search('<button onclick="window.print()">')
    assert not HANDLER.search('<button data-print class="x">')
    assert JAVASCRIPT_URL.search('<a href="javascript:void(0)">')
