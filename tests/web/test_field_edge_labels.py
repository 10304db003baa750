"""The table's picture names the defender's edge and captions its inch marks in two
labels, not one ("defender's edge (inches from the left corner)", the walk-through)."""

from __future__ import annotations

from django.template.loader import render_to_string

from battles.web.battleview import SquareView, Table


def table(width_ft: int) -> Table:
    squares = [
        SquareView(col, row, "flat", "none", "good", (3, 3, 3), 36)
        for col in range(width_ft)
        for row in range(3)
    ]
    return Table(width_ft=width_ft, depth_ft=3, squares=squares, source="seed")


def field(width_ft: int) -> str:
    return render_to_string(
        "battles/_field.html", {"table": table(width_ft), "labels": [], "area": {"name": "Oivi"}}
    )


def test_the_edge_and_the_inch_marks_caption_are_two_labels() -> None:
    svg = field(3)
    assert "(inches from the left corner)" not in svg
    assert 'text-anchor="end">defender\'s edge</text>' in svg
    assert (
        'class="axis-label" x="0" y="40.6" text-anchor="start">inches from the left corner<' in svg
    )
    assert 'viewBox="-4 -4 44 45.0"' in svg  # as tall as before: the caption shares the line


def test_a_narrow_tables_caption_has_a_line_of_its_own() -> None:
    """Two feet wide, the two labels would meet on one line: the caption goes below."""
    narrow = table(2)
    assert narrow.axis_label_y == narrow.edge_label_y + 1.8
    svg = field(2)
    assert 'class="axis-label" x="0" y="42.4"' in svg
    assert 'viewBox="-4 -4 32 46.8"' in svg
