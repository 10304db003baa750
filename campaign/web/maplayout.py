"""The geometry of placing things on the campaign map: boxes, and whether a line (a
track drawn between two areas) runs through one. Plain arithmetic in the map's own
units; ``campaign.web.mapdraw`` decides what the boxes are."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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
        clip the segment's parameter range by each side of the box in turn."""
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
    return any(s.crosses(b.grown(clearance)) for s in segments for b in boxes)


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
