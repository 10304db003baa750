"""The client's address, the same for the API's throttles and for django-axes.

Behind ``KORONA_TRUSTED_PROXIES`` reverse proxies (default 0: none), each proxy appends
the address it received the request from to ``X-Forwarded-For``, so the client is the
entry that many places from the right; whatever a client writes into the header itself
is to the left of it and never read. With no trusted proxy the header is ignored, and
the client is ``REMOTE_ADDR``: a different header on each request neither dodges the
anonymous throttle nor spreads a password guesser over many addresses.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def client_ip(request: Any) -> str | None:
    """The client's IP address, as the trusted proxies report it (see the module)."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR")
    proxies = settings.KORONA_TRUSTED_PROXIES
    if proxies == 0:
        return remote
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    if not hops:
        return remote
    # Fewer entries than proxies: the request skipped a proxy; take the first, as DRF does.
    address = hops[-min(proxies, len(hops))]
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:  # not an address: a proxy would not write it, so it is not trusted
        return remote
