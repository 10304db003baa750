"""Build a pair of twins, crawl both as the viewer, compare byte for byte.

``compare(pair)`` builds each twin (``tests.fog.twins``), checks that they are twins
(the viewer's knowledge is the same, the GM's is not), crawls every URL of the URL conf
as the viewer's player for both, and gives the labels of the answers that differ, with
the first differing lines of each. Each twin's own commitment digests are replaced by a
placeholder before the comparison (``twins.commitment_digests``), nothing else.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from battles.models import Battle
from campaign.models import Area, Company, Order, Turn
from campaign.services.visibility import campaign_stamp
from campaign.web.maps import map_stamp
from campaign.web.orders import watch_token
from tests.fog import twins
from tests.fog.crawl import (
    Ids,
    Request,
    admin_ids,
    normalise_commitments,
    render_everything,
    requests_for,
)


@dataclass
class Comparison:
    pair: twins.Pair
    twins: bool  # the viewer's knowledge is the same and the GM's is not
    why_not: str = ""
    requests: int = 0
    differences: dict[str, str] = field(default_factory=dict)  # label -> a diff
    campaign: int = 0
    seen: list[dict[str, bytes]] = field(default_factory=list)  # with keep=True
    pending_seeds: list[int] = field(default_factory=list)  # of battles not yet fought

    def report(self) -> str:
        lines = [f"{len(self.differences)} of {self.requests} answers differ for the viewer:"]
        lines += [f"  {label}" for label in self.differences]
        for label, diff in list(self.differences.items())[:8]:
            lines.append(f"--- {label}\n{diff}")
        return "\n".join(lines)


def _ids(built: twins.Built) -> dict[str, Any]:
    campaign = built.campaign
    return {
        "areas": list(Area.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        "companies": list(Company.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        "turns": [
            *Turn.objects.filter(campaign=campaign).values_list("number", flat=True),
            campaign.turn + 1,
            campaign.turn + 2,
        ],
        "battles": list(Battle.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        "orders": list(Order.objects.filter(campaign=campaign).values_list("pk", flat=True)),
        "names": sorted(Company.objects.filter(campaign=campaign).values_list("name", flat=True)),
    }


def _union(a: list[Any], b: list[Any]) -> list[Any]:
    return sorted(set(a) | set(b))


def _diff(a: bytes, b: bytes) -> str:
    lines = difflib.unified_diff(
        a.decode(errors="replace").splitlines(),
        b.decode(errors="replace").splitlines(),
        "twin 1",
        "twin 2",
        n=0,
        lineterm="",
    )
    return "\n".join(line[:240] for line in list(lines)[2:14])


def compare(
    pair: twins.Pair,
    *,
    sample: int | None = None,
    rng: random.Random | None = None,
    keep: bool = False,
    build: Callable[[twins.Pair, int], twins.Built] = twins.build,
    alike: bool = False,
) -> Comparison:
    """Both twins as ``pair.viewer`` sees them. ``sample``: crawl that many requests
    (chosen by ``rng``) besides one of every route, instead of all. ``keep``: keep every
    answer of both twins in the comparison. ``build``: how a twin is built, when not
    from ``pair`` alone (``twins.build``, then more done to it); ``alike``: the twins
    may be the same campaign to the GM too (two ways to the same campaign)."""
    facts = []
    with twins.frozen_clock():
        for index in (0, 1):
            with twins.twin():
                built = build(pair, index)
                facts.append(
                    (
                        built.campaign.pk,
                        _ids(built),
                        twins.knowledge(built.campaign, pair.viewer),
                        twins.everything(built.campaign),
                        admin_ids(built.campaign.pk),
                    )
                )
        (pk, ids0, known0, all0, admin0), (pk1, ids1, known1, all1, _) = facts
        if pk != pk1 or ids0["areas"] != ids1["areas"]:
            return Comparison(pair, False, "the twins' ids do not line up")
        if known0 != known1:
            where = _first_difference(known0, known1)
            return Comparison(pair, False, f"the viewer may know a difference ({where})")
        if all0 == all1 and not alike:
            return Comparison(pair, False, "the twins are the same campaign")
        ids = Ids(
            campaign=pk,
            areas=ids0["areas"],
            companies=_union(ids0["companies"], ids1["companies"]),
            turns=_union(ids0["turns"], ids1["turns"]),
            battles=_union(ids0["battles"], ids1["battles"]),
            orders=_union(ids0["orders"], ids1["orders"]),
            sides=list(twins.SIDES),
            names=_union(ids0["names"], ids1["names"]),
            admin_ids=admin0,
        )
        seen: list[dict[str, bytes]] = []
        pending: list[int] = []
        requests: list[Request] | None = None
        for index in (0, 1):
            with twins.twin():
                built = build(pair, index)
                user = built.users[pair.viewer]
                stamp = map_stamp(user=user, campaign_id=built.campaign.pk)
                ids.tokens = [stamp.token] if stamp else []
                # The orders page's slow poll's token: its 204 is crawled too.
                read = campaign_stamp(user=user, campaign_id=built.campaign.pk, rows="orders-page")
                ids.tokens += [watch_token(read)] if read else []
                ids.viewer = user
                if requests is None:
                    requests = requests_for(ids)
                    if sample is not None:
                        requests = _sampled(requests, sample, rng or random.Random(0))
                answers = render_everything(user, ids, requests=requests)
                # This twin's own commitment digests, and nothing else (docs/pages.md).
                digests = twins.commitment_digests(built.campaign)
                seen.append(normalise_commitments(answers, digests))
                pending += Battle.objects.filter(
                    campaign=built.campaign, status=Battle.Status.PENDING
                ).values_list("seed", flat=True)
    comparison = Comparison(pair, True, requests=len(seen[0]), campaign=pk)
    if keep:
        comparison.seen, comparison.pending_seeds = seen, pending
    for label, body in seen[0].items():
        other = seen[1].get(label)
        if other != body:
            comparison.differences[label] = _diff(body, other or b"<missing>")
    return comparison


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two pieces of knowledge first differ, as a path ("turns/0/records")."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}/{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}/{i}")
    return path or "/"


def _sampled(requests: list[Request], count: int, rng: random.Random) -> list[Request]:
    """One request of every route (its plain GET) and ``count`` more at random."""
    first: dict[str, Request] = {}
    for request in requests:
        route = request.path.split("?")[0]
        first.setdefault(_shape(route), request)
    rest = [r for r in requests if r not in first.values()]
    return list(first.values()) + rng.sample(rest, min(count, len(rest)))


def _shape(path: str) -> str:
    return "/".join("#" if part.isdigit() else part for part in path.split("/"))
