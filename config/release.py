"""The release: one digest of the code that draws Korona's pages.

A page the browser keeps and revalidates (the map's ETag, ``campaign/web/maps.py``) must
be drawn again when the code that draws it changes, not only when the campaign does:
after an upgrade that adds a link to the top bar, a browser holding the old map would
otherwise be told "not modified" until the next turn. The digest is of the files
themselves (their paths and bytes, in order), so every worker process of one release
gives the same answer, and the same code gives the same digest on every start.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import django
from django.conf import settings

# The folders whose files draw the pages: the apps, the rules they word, the templates.
CODE_FOLDERS = ("campaign", "battles", "notifications", "rules", "config", "templates")
# What in them is code or drawn from: the rest (caches, screenshots) is not the release.
CODE_SUFFIXES = frozenset({".py", ".html", ".js", ".css", ".svg", ".json", ".txt"})


def code_digest(base: Path, folders: Iterable[str]) -> str:
    """A SHA-256 of every code file under ``folders`` of ``base``: its path from ``base``
    and its bytes, each with its length (so no two trees give one stream), in path
    order. ``__pycache__`` is left out: it is made by running the code, not released."""
    digest = hashlib.sha256()
    for folder in folders:
        root = base / folder
        files = sorted(
            path
            for path in root.rglob("*")
            if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts and path.is_file()
        )
        for path in files:
            for part in (path.relative_to(base).as_posix().encode(), path.read_bytes()):
                digest.update(len(part).to_bytes(8, "big"))
                digest.update(part)
    return digest.hexdigest()


@cache
def release() -> str:
    """This process's release: the digest of its code and the Django that serves it,
    worked out once, on the first page that asks."""
    return f"{code_digest(Path(settings.BASE_DIR), CODE_FOLDERS)}|django {django.__version__}"
