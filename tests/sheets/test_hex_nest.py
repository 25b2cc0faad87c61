"""Hexagon nests, slot by slot: how many fit exactly at the edge of the room, where each sits,
and where a page holds none (mutation testing found these unchecked: issue 21)."""
from __future__ import annotations

import pytest

from cardgen.sheets.shapes import hex_sheet

# 32 mm across the flats, 40 mm tall (pointy), 2 mm bleed: neighbours 4 mm apart across their
# edges, so centres are 36 mm apart in a row and rows 3/4 of a grown hexagon (45 mm) apart.
W, H, BLEED, GAP, MARGIN = 32.0, 40.0, 2.0, 4.0, 5.0
EDGE = MARGIN + BLEED  # no hexagon's trim box comes closer to the paper's edge


def expected_pointy(page_w, page_h, w=W, h=H, gap=GAP):
    """Rows of pointy hexagons, every other row half a pitch to the right, centred on the page;
    as many columns as fit with the shifted rows, as many rows as fit."""
    pitch_x, pitch_y = w + gap, 0.75 * h * (w + gap) / w
    shift = pitch_x / 2
    cols = 0
    while w + cols * pitch_x + shift <= page_w - 2 * EDGE:
        cols += 1
    rows = 0
    while h + rows * pitch_y <= page_h - 2 * EDGE:
        rows += 1
    if not cols or not rows:
        return []
    width = w + (cols - 1) * pitch_x + (shift if rows > 1 else 0)
    height = h + (rows - 1) * pitch_y
    left, top = (page_w - width) / 2, (page_h + height) / 2
    return [(left + c * pitch_x + (shift if r % 2 else 0), top - h - r * pitch_y)
            for r in range(rows) for c in range(cols)]


def coordinates(points):
    return [v for point in points for v in point]


def check(template, expected, shape):
    assert template.name == "hex-nest"
    assert coordinates((s.x, s.y) for s in template.slots) == pytest.approx(coordinates(expected), abs=1e-9)
    for slot in template.slots:
        assert (slot.shape, slot.room) == (shape, (BLEED,) * 4)
    if expected:
        assert template.marks == "outline"


@pytest.mark.parametrize("page_w, page_h, count", [
    (208.0, 222.75, 5 * 6),  # the room is exactly 5 columns (with the shift) by 6 rows
    (64.0, 222.75, 1 * 6),  # exactly one column and the shift of the odd rows
    (208.0, 54.0, 5 * 1),  # exactly one row: no row is shifted, so the row is centred alone
    (208.0, 87.75, 5 * 2),  # exactly two rows: the second is shifted
    (207.9, 222.65, 4 * 5),  # a tenth of a millimetre less: one column and one row fewer
])
def test_pointy_hexagons_fill_their_room_exactly(page_w, page_h, count):
    expected = expected_pointy(page_w, page_h)
    assert len(expected) == count
    check(hex_sheet(page_w, page_h, W, H, "hex-pointy", BLEED, GAP, MARGIN), expected, "hex-pointy")


def test_pointy_rows_alternate_half_a_pitch_and_are_centred_on_the_page():
    slots = hex_sheet(208.0, 222.75, W, H, "hex-pointy", BLEED, GAP, MARGIN).slots
    assert (slots[0].x, slots[0].y) == (7.0, 175.75)  # 7 mm = margin + bleed from the top-left
    assert (slots[5].x, slots[5].y) == (25.0, 142.0)  # the second row: 18 mm right, 33.75 mm down
    assert (slots[-1].x + W, slots[-1].y) == (201.0, 7.0)  # the last row (odd) ends 7 mm from the right


@pytest.mark.parametrize("page_w, page_h", [
    (60.0, 222.75),  # one hexagon across, but not its shifted neighbour below: nothing
    (208.0, 53.9),  # not one row
    (38.9, 53.9),
])
def test_a_page_without_room_for_the_nest_gets_no_hexagon(page_w, page_h):
    assert hex_sheet(page_w, page_h, W, H, "hex-pointy", BLEED, GAP, MARGIN).slots == ()
    assert hex_sheet(page_h, page_w, H, W, "hex-flat", BLEED, GAP, MARGIN).slots == ()


@pytest.mark.parametrize("page_w, page_h, count", [
    (222.75, 208.0, 6 * 5), (222.75, 64.0, 6 * 1), (54.0, 208.0, 1 * 5), (87.75, 208.0, 2 * 5),
    (222.65, 207.9, 5 * 4),
])
def test_flat_hexagons_are_the_pointy_nest_turned_a_quarter(page_w, page_h, count):
    """Flat-top hexagons (40 wide, 32 tall) nest in columns, every other column shifted down:
    the pointy nest of the transposed page, with x and y swapped and y counted from the top."""
    pointy = expected_pointy(page_h, page_w)
    expected = sorted(((page_w - (y + H)), (page_h - (x + W))) for x, y in pointy)
    assert len(expected) == count
    template = hex_sheet(page_w, page_h, H, W, "hex-flat", BLEED, GAP, MARGIN)
    got = sorted((s.x, s.y) for s in template.slots)
    assert coordinates(got) == pytest.approx(coordinates(expected), abs=1e-9)
    assert {(s.w, s.h, s.shape, s.room) for s in template.slots} == {(H, W, "hex-flat", (BLEED,) * 4)}
    assert template.name == "hex-nest" and template.marks == "outline"


def test_the_margin_and_the_bleed_both_keep_the_nest_from_the_edge():
    # 1 mm more margin, or 1 mm more bleed (with the same gap), and a column and a row go
    assert len(hex_sheet(208.0, 222.75, W, H, "hex-pointy", BLEED, GAP, MARGIN + 1).slots) == 4 * 5
    assert len(hex_sheet(208.0, 222.75, W, H, "hex-pointy", BLEED + 1, GAP, MARGIN).slots) == 4 * 5
    # less of either: the room grows by 2 mm, not enough for another column or row
    assert len(hex_sheet(208.0, 222.75, W, H, "hex-pointy", BLEED, GAP, MARGIN - 1).slots) == 5 * 6
