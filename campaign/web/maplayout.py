"""The geometry of placing things on the campaign map: boxes, and whether a line (a
track drawn between two areas) runs through one. Plain arithmetic in the map's own
units; ``campaign.web.mapdraw`` decides what the boxes are."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

Place = TypeVar("Place")


@dataclass(frozen=True, slots=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )

    def moved(self, dx: float) -> Box:
        return Box(self.left + dx, self.top, self.right + dx, self.bottom)

    def grown(self, by: float) -> Box:
        return Box(self.left - by, self.top - by, self.right + by, self.bottom + by)


@dataclass(frozen=True, slots=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float

    def crosses(self, box: Box) -> bool:
        """Does the segment run through the box (touching its edge counts)? Liang-Barsky:
        clip the segment's parameter range by each side of the box in turn (after the
        quick answer for a segment wholly to one side of the box)."""
        x1, y1, x2, y2 = self.x1, self.y1, self.x2, self.y2
        if (
            (x1 < box.left and x2 < box.left)
            or (x1 > box.right and x2 > box.right)
            or (y1 < box.top and y2 < box.top)
            or (y1 > box.bottom and y2 > box.bottom)
        ):
            return False
        dx, dy = self.x2 - self.x1, self.y2 - self.y1
        start, end = 0.0, 1.0
        for p, q in (
            (-dx, self.x1 - box.left),
            (dx, box.right - self.x1),
            (-dy, self.y1 - box.top),
            (dy, box.bottom - self.y1),
        ):
            if p == 0:
                if q < 0:
                    return False  # parallel to this side and outside it
                continue
            t = q / p
            if p < 0:
                start = max(start, t)
            else:
                end = min(end, t)
            if start > end:
                return False
        return True


def on_a_line(boxes: Sequence[Box], segments: Sequence[Segment], *, clearance: float) -> bool:
    """Does any segment run through one of the boxes, or within ``clearance`` of it?"""
    grown = [b.grown(clearance) for b in boxes]
    return any(s.crosses(b) for s in segments for b in grown)


def around(boxes: Iterable[Box]) -> Box:
    """The least box that holds every one of ``boxes`` (at least one)."""
    lefts, tops, rights, bottoms = zip(
        *((b.left, b.top, b.right, b.bottom) for b in boxes), strict=True
    )
    return Box(min(lefts), min(tops), max(rights), max(bottoms))


def near(
    region: Box, segments: Sequence[Segment], others: Sequence[Box], *, clearance: float, gap: float
) -> tuple[list[Segment], list[Box]]:
    """The segments within ``clearance`` of ``region`` and the boxes within ``gap`` of it:
    the only ones a box inside ``region`` can be on or overlap (a placement tries many
    boxes in one region: it need test only these, with the same answers)."""
    grown = region.grown(clearance)
    wide = region.grown(gap)
    return [s for s in segments if s.crosses(grown)], [o for o in others if wide.overlaps(o)]


def reads_as_under(box: Box, own: float, beside: Sequence[float]) -> bool:
    """Does a chip hanging under an area at ``own`` (across the map) read as that area's,
    beside areas at ``beside``: its middle nearer its own area than its nearest edge is
    to any of those? (A chip whose edge reaches under another area reads as that one's.)"""
    middle = (box.left + box.right) / 2
    off = abs(middle - own)
    return all(off < max(box.left - x, x - box.right, 0.0) for x in beside)


def sideways(
    boxes: Sequence[Box],
    segments: Sequence[Segment],
    others: Sequence[Box],
    *,
    clearance: float,
    gap: float,
    reach: float,
    step: float,
    within: tuple[float, float],
    under: float | None = None,
    beside: Sequence[float] = (),
) -> float:
    """How far to move ``boxes`` (a column of chips) sideways: the least move that keeps
    them ``clearance`` off every segment and ``gap`` off ``others``, inside ``within``
    (left, right), and, given the ``under`` of their area, each still read as under it
    beside the areas at ``beside`` (``reads_as_under``). 0 if they are off every segment
    already, or if no move up to ``reach`` (in steps of ``step``) does it: then they stay
    where they were."""

    def off_the_lines(moved: Sequence[Box]) -> bool:
        return not on_a_line(moved, segments, clearance=clearance)

    def still_under(moved: Sequence[Box]) -> bool:
        return under is None or all(reads_as_under(b, under, beside) for b in moved)

    if not boxes or off_the_lines(boxes):
        return 0.0
    farthest = step * int(reach // step)
    whole = around(boxes)
    segments, others = near(
        Box(whole.left - farthest, whole.top, whole.right + farthest, whole.bottom),
        segments,
        others,
        clearance=clearance,
        gap=gap,
    )
    left, right = within
    for n in range(1, int(reach // step) + 1):
        for dx in (step * n, -step * n):
            moved = [box.moved(dx) for box in boxes]
            if min(b.left for b in moved) < left or max(b.right for b in moved) > right:
                continue
            if (
                off_the_lines(moved)
                and still_under(moved)
                and not any(b.grown(gap).overlaps(other) for b in moved for other in others)
            ):
                return dx
    return 0.0


def first_clear(
    tried: Iterable[tuple[Place, Box]],
    region: Box,
    segments: Sequence[Segment],
    others: Sequence[Box],
    *,
    clearance: float,
) -> Place | None:
    """The first of the ``tried`` places whose box is ``clearance`` off every segment and
    overlaps none of ``others``; None if none is. Every box tried lies inside ``region``:
    only the segments and boxes near it are tested (``near``), with the same answer."""
    lines, nearby = near(region, segments, others, clearance=clearance, gap=0)
    for place, box in tried:
        if not on_a_line([box], lines, clearance=clearance) and not any(
            box.overlaps(other) for other in nearby
        ):
            return place
    return None


def spread(middles: Sequence[float], distance: float) -> list[float]:
    """``middles`` (left to right) moved apart so that each is at least ``distance``
    right of the one before, in the same order, moving them the least (in the sum of the
    squares of the moves): each run of middles too near one another moves apart about
    its own middle, and one far enough from its neighbours stays. Pool adjacent
    violators on each middle less the ``distance`` times its place in the row."""
    runs: list[tuple[float, int]] = []  # each run's sum (less its places' distances), length
    for place, middle in enumerate(middles):
        total, count = middle - place * distance, 1
        while runs and runs[-1][0] / runs[-1][1] > total / count:
            before, length = runs.pop()
            total, count = total + before, count + length
        runs.append((total, count))
    pooled = [total / count for total, count in runs for _ in range(count)]
    return [value + place * distance for place, value in enumerate(pooled)]
