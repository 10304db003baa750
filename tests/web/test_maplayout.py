"""The map's placing arithmetic (campaign/web/maplayout.py): a line through a box, and
the least sideways move of a column of chips off the lines."""

from __future__ import annotations

import random

from campaign.web.maplayout import (
    Box,
    Segment,
    around,
    first_clear,
    on_a_line,
    reads_as_under,
    sideways,
    spread,
)

COLUMN = [Box(0, 10, 100, 40), Box(0, 43, 100, 73)]


def move(
    lines: list[Segment],
    others: list[Box] | None = None,
    *,
    reach: float = 60.0,
    right: float = 300.0,
) -> float:
    """How far ``COLUMN`` moves: 6 off the lines, 3 off ``others``, in steps of 4."""
    return sideways(
        COLUMN,
        lines,
        others or [],
        clearance=6.0,
        gap=3.0,
        reach=reach,
        step=4.0,
        within=(-200.0, right),
    )


def test_a_segment_crosses_a_box_it_runs_through_or_ends_in() -> None:
    box = Box(0, 0, 10, 10)
    assert Segment(-5, 5, 15, 5).crosses(box)  # straight through
    assert Segment(5, 5, 50, 50).crosses(box)  # starts inside
    assert Segment(-5, -4, 4, 5).crosses(box)  # clips a corner
    assert Segment(5, -10, 5, 20).crosses(box)  # upright, through
    assert not Segment(-5, -6, 6, -1).crosses(box)  # passes above the corner
    assert not Segment(12, -10, 12, 20).crosses(box)  # upright, beside it
    assert not Segment(-10, 5, -1, 5).crosses(box)  # stops short


def test_a_column_clear_of_the_lines_stays() -> None:
    assert move([Segment(-50, 0, -50, 200)]) == 0.0


def test_a_column_moves_the_least_that_takes_it_off_a_line() -> None:
    # A line down its left part, leaning left: at x 29 where it meets the column's top
    # less its clearance (y 4), so the column's left edge must pass 35.
    line = Segment(30, 0, 10, 80)
    moved = move([line])
    assert moved == 36.0
    assert not any(line.crosses(box.moved(moved).grown(6)) for box in COLUMN)


def test_a_column_moves_the_other_way_when_that_is_nearer() -> None:
    line = Segment(90, 0, 95, 80)
    assert move([line]) == -16.0  # its right edge short of 84.25: left, the nearer way


def test_a_column_with_no_room_stays_where_it_was() -> None:
    line = Segment(30, 0, 10, 80)
    neighbour = [Box(110, 40, 250, 80)]  # another area's chips, right beside it
    assert move([line], neighbour) == 0.0
    assert move([line], right=120.0) == 0.0  # the map's edge
    assert move([line], reach=20.0) == 0.0  # a move that would take it from under its area


def test_a_column_moves_only_as_far_as_it_still_reads_as_under_its_area() -> None:
    """Its area's middle at 50: moved 36, its middle is 36 off it, its right edge 14 short
    of an area at 150, which it would read as hanging under; 64 short of one at 200."""
    line = Segment(30, 0, 10, 80)

    def move_beside(x: float) -> float:
        return sideways(
            COLUMN,
            [line],
            [],
            clearance=6.0,
            gap=3.0,
            reach=60.0,
            step=4.0,
            within=(-200.0, 300.0),
            under=50.0,
            beside=[x],
        )

    assert move_beside(200.0) == 36.0
    assert move_beside(150.0) == 0.0
    assert reads_as_under(Box(36, 0, 136, 10), 50.0, [200.0])
    assert not reads_as_under(Box(36, 0, 136, 10), 50.0, [150.0])
    assert not reads_as_under(Box(36, 0, 136, 10), 50.0, [120.0])  # under the chip itself


def test_first_clear_answers_as_testing_every_line_and_box() -> None:
    """``first_clear`` tests only the lines and boxes near the places it tries: the same
    first place as testing each against every line and box, on made-up maps."""
    rng = random.Random(7)
    for _ in range(300):
        lines = [
            Segment(*(float(rng.randrange(0, 400)) for _ in range(4)))
            for _ in range(rng.randrange(6))
        ]
        others = [
            Box(x, y, x + rng.randrange(1, 80), y + rng.randrange(1, 40))
            for x, y in ((rng.randrange(0, 400), rng.randrange(0, 400)) for _ in range(8))
        ]
        x, y = rng.randrange(50, 350), rng.randrange(50, 350)
        tried = [(dx, Box(x + dx, y, x + dx + 40, y + 18)) for dx in range(-40, 41, 2)]
        every = next(
            (
                dx
                for dx, box in tried
                if not on_a_line([box], lines, clearance=6)
                and not any(box.overlaps(o) for o in others)
            ),
            None,
        )
        region = around(box for _, box in tried)
        assert first_clear(tried, region, lines, others, clearance=6) == every


def test_spread_moves_middles_too_near_apart_the_least() -> None:
    """Three columns 140 apart that must stand 150 apart: the outer two move out by 10,
    the middle one stays; a column far enough from the rest stays where it was."""
    assert spread([350.0, 490.0, 630.0], 150.0) == [340.0, 490.0, 640.0]
    assert spread([490.0, 630.0], 150.0) == [485.0, 635.0]
    assert spread([70.0, 490.0, 630.0], 150.0) == [70.0, 485.0, 635.0]
    assert spread([0.0, 400.0], 150.0) == [0.0, 400.0]
    # A run pushed into the next pools with it: 0, 140, 280 and then 300.
    middles = spread([0.0, 140.0, 280.0, 300.0], 150.0)
    assert all(b - a >= 150.0 - 1e-9 for a, b in zip(middles, middles[1:], strict=False))
    assert abs(sum(middles) - 720.0) < 1e-9  # moved about their own middle
