#!/usr/bin/env python3
"""Django's command-line utility for Korona."""

import os
import sys
from collections.abc import MutableMapping
from pathlib import Path

# Where the last ``python3 dev.py run`` served Korona (dev.py writes it): the commands run
# beside it in another terminal (``manage.py run_campaign``, ``advance_turn``) send emails
# whose links must name that address, not KORONA_SITE_URL's default (KORONA_SITE_URL_FILE
# puts it elsewhere, as for dev.py).
SERVED_SITE_URL = Path(
    os.environ.get("KORONA_SITE_URL_FILE") or Path(__file__).resolve().parent / ".korona-site-url"
)


def served_site_url(environ: MutableMapping[str, str], served: Path = SERVED_SITE_URL) -> None:
    """Set KORONA_SITE_URL to the address ``dev.py run`` last served on, when it is not
    set (one given always wins) and dev.py has served from this checkout."""
    if environ.get("KORONA_SITE_URL", "").strip():
        return
    try:
        url = served.read_text(encoding="utf-8").strip()
    except OSError:  # never served here: the settings' default
        return
    if url:
        environ["KORONA_SITE_URL"] = url


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    served_site_url(os.environ)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
