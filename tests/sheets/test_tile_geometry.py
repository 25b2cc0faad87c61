"""Boards tiled over letter pages, in numbers: how many tiles at the exact edge of a page, each
tile's part of the board, slot and clip, its ticks, and the back's own map and tiles (mutation
testing found these unchecked: the PDF tests measure the art, not every number)."""
from __future__ import annotations

import pytest

from cardgen.model import Face
from cardgen.sheets import LineMark, SheetOptions, TextMark, impose
from cardgen.sheets.tiles import TileGrid, best_grid, tile_name

from .helpers import card_type, pairs

# letter, 4 mm margins: a tile's art is 207.9 x 265.4 mm (6 mm kept for its label); with the
# 10 mm overlap each further tile adds 197.9 mm across and 255.4 mm down
LETTER = (215.9, 279.4)


@pytest.mark.parametrize("length, tiles", [
    (207.9, 1),  # exactly a tile's art
    (208.0, 2),
    (10 + 2 * 197.9, 2),  # exactly two tiles and their overlap
    (10 + 2 * 197.9 + 0.1, 3),
])
def test_tiles_across_at_the_exact_edge(length, tiles):
    assert TileGrid(*LETTER, 4.0, length, 100.0, 10.0).columns == tiles


@pytest.mark.parametrize("row, name", [(0, "A1"), (25, "Z1"), (26, "AA1"), (51, "AZ1"), (52, "BA1")])
def test_tile_rows_are_lettered_like_spreadsheet_columns(row, name):
    assert tile_name(row, 0) == name


def test_the_bleed_counts_in_the_board_and_the_overlap_needs_a_millimetre_more():
    face = Face.__new__(Face)
    object.__setattr__(face, "card_type", card_type(390, 300, bleed=3.0))
    grid = best_grid(face, [LETTER, LETTER[::-1]], 4.0)
    assert (grid.face_w, grid.face_h, grid.rows, grid.columns, grid.page_w) == (396.0, 306.0, 2, 2, 215.9)
    assert best_grid(face, [(19.1, 100.0)], 4.0, overlap=10.0).page_w == 19.1  # 11.1 mm across: > 10 + 1
    with pytest.raises(ValueError) as caught:
        best_grid(face, [(19.0, 100.0)], 4.0, overlap=10.0)  # 11 mm: no
    assert str(caught.value) == "the paper leaves no room for a 10 mm tile overlap inside its margins"


def test_a_board_and_its_back_each_get_a_map_and_their_tiles():
    imposition = impose(pairs(1, card_type(390, 300, bleed=3.0)), SheetOptions(paper="letter"))
    assert len(imposition.pages) == 10  # map and 2 x 2 tiles, for the front and then the back
    maps = [page for page in imposition.pages if any(isinstance(m, TextMark) and m.text.startswith("Page map")
                                                      for m in page.marks)]
    assert [page.number for page in maps] == [1, 6]
    assert [m.text for m in maps[1].marks if isinstance(m, TextMark)][0] == (
        "Page map: c1 (back), 390 x 300 mm, 2 x 2 tiles")
    regions = [(0.0, 0.0, 207.9, 265.4), (197.9, 0.0, 198.1, 265.4), (0.0, 255.4, 207.9, 50.6),
               (197.9, 255.4, 198.1, 50.6)]
    got = [(p.face.side, p.slot.page, round(p.slot.x, 6), round(p.slot.y, 6), p.slot.w, p.slot.h,
            tuple(round(v, 6) for v in p.slot.clip)) for p in imposition.placements]
    expected = []
    for side, first in (("front", 2), ("back", 7)):
        for n, (x0, y0, rw, rh) in enumerate(regions):
            expected.append((side, first + n, round(7 - x0, 6), round(272.4 + y0 - 300, 6), 390, 300,
                             tuple(round(v, 6) for v in (4, 275.4 - rh, 4 + rw, 275.4))))
    assert got == expected
    labels = [m.text for m in imposition.pages[6].marks if isinstance(m, TextMark)]
    assert labels == ["Tile A1 of 2 x 2 (B2): c1 (back). Cut the right and lower neighbours along their edge "
                      "and lay it on the ticks; overlap 10 mm."]


def test_a_tiles_ticks_sit_in_its_margins_where_the_overlap_and_the_trim_begin():
    imposition = impose(pairs(1, card_type(390, 300, bleed=3.0), backs=False), SheetOptions(paper="letter"))
    tile = imposition.pages[1]  # A1: the art from 4 mm left to 211.9 mm, 10 mm up to 275.4 mm
    ticks = sorted((m.kind, *(round(v, 6) for v in (m.x0, m.y0, m.x1, m.y1)))
                   for m in tile.marks if isinstance(m, LineMark))
    assert ticks == sorted([
        ("align", 201.9, 275.9, 201.9, 278.4), ("align", 201.9, 7.0, 201.9, 9.5),  # the next column's edge
        ("align", 1.0, 20.0, 3.5, 20.0), ("align", 212.4, 20.0, 214.9, 20.0),  # the next row's edge
        ("crop", 7.0, 275.9, 7.0, 278.4), ("crop", 7.0, 7.0, 7.0, 9.5),  # the left trim, 3 mm in
        ("crop", 1.0, 272.4, 3.5, 272.4), ("crop", 212.4, 272.4, 214.9, 272.4),  # the top trim
    ])
    last = imposition.pages[4]  # B2: the board's right and bottom trims, no next tile
    ticks = sorted((m.kind, *(round(v, 6) for v in (m.x0, m.y0, m.x1, m.y1)))
                   for m in last.marks if isinstance(m, LineMark))
    # B2 holds the board from 197.9 mm across (trim at 393: 195.1 mm in) and 255.4 mm down
    # (trim at 303: 47.6 mm down), 198.1 x 50.6 mm
    assert ticks == sorted([
        ("crop", 199.1, 275.9, 199.1, 278.4), ("crop", 199.1, 221.8, 199.1, 224.3),
        ("crop", 1.0, 227.8, 3.5, 227.8), ("crop", 202.6, 227.8, 205.1, 227.8),
    ])


def test_ticks_stop_half_a_millimetre_from_the_paper_edge_in_a_narrow_margin():
    imposition = impose(pairs(1, card_type(390, 300, bleed=3.0), backs=False), SheetOptions(paper="letter", margin=2.0))
    tile = imposition.pages[1]  # the art from 2 mm to 277.4 mm up: 3 mm ticks would pass the paper's edge
    lines = [m for m in tile.marks if isinstance(m, LineMark)]
    assert max(max(m.y0, m.y1) for m in lines) == pytest.approx(279.4 - 0.5, abs=1e-9)
    assert min(min(m.x0, m.x1) for m in lines) == pytest.approx(0.5, abs=1e-9)
    assert max(max(m.x0, m.x1) for m in lines) == pytest.approx(215.9 - 0.5, abs=1e-9)


def test_the_page_map_draws_the_board_scaled_into_the_page_and_names_each_tile():
    imposition = impose(pairs(1, card_type(390, 300, bleed=3.0), backs=False), SheetOptions(paper="letter"))
    marks = imposition.pages[0].marks
    texts = [(m.text, round(m.x, 6), round(m.y, 6), m.size) for m in marks if isinstance(m, TextMark)]
    # the 396 mm bleed box fills the 207.9 mm between the margins (scale 0.525), its top 14 mm
    # below the top margin, under the title
    assert texts == [("Page map: c1, 390 x 300 mm, 2 x 2 tiles", 4.0, 269.4, 10.0),
                     ("A1", 55.57375, 191.7325, 12.0), ("A2", 156.89875, 191.7325, 12.0),
                     ("B1", 55.57375, 114.0325, 12.0), ("B2", 156.89875, 114.0325, 12.0)]
    boxes = [m for m in marks if isinstance(m, LineMark)]
    assert len(boxes) == 4 * 4 and {m.kind for m in boxes} == {"cut"}
    corners = {(round(m.x0, 6), round(m.y0, 6)) for m in boxes}
    assert {(4.0, 261.4), (113.1475, 122.065), (107.8975, 127.315), (211.9, 100.75)} <= corners
    assert min(m.x0 for m in boxes) == pytest.approx(4.0) and max(m.x0 for m in boxes) == pytest.approx(211.9)
    assert min(m.y0 for m in boxes) == pytest.approx(100.75) and max(m.y0 for m in boxes) == pytest.approx(261.4)


def crop_ticks(page):
    """(x of the vertical crop ticks, y of the horizontal ones) of a tile page, mm."""
    lines = [m for m in page.marks if isinstance(m, LineMark) and m.kind == "crop"]
    return (sorted({round(m.x0, 6) for m in lines if m.x0 == m.x1}),
            sorted({round(m.y0, 6) for m in lines if m.y0 == m.y1}))


@pytest.mark.parametrize("w, h, bleed, tile, xs, ys", [
    # no bleed: the trim is the tile's very edge, and still gets its ticks (a 300 x 200 board
    # on two portrait tiles; A2 holds the board from 197.9 mm across, to its right edge)
    (300, 200, 0.0, 1, [4.0], [75.4, 275.4]),
    (300, 200, 0.0, 2, [106.1], [75.4, 275.4]),
    # the right trim half a millimetre past A1's art (at 208.4 of 207.9 mm): not A1's tick
    (205.4, 244, 3.0, 1, [7.0], [28.4, 272.4]),
    # the right trim half a millimetre before A3's art begins (395.3 of 395.8 mm): not A3's
    (383.3, 220, 12.0, 3, [], [43.4, 263.4]),
    # the same down the board: the bottom trim 0.5 mm below B1's art (521.3 of 520.8 mm), and
    # 0.5 mm above C1's (510.3 of 510.8 mm)
    (200, 518.3, 3.0, 2, [7.0, 207.0], []),
    (180, 498.3, 12.0, 3, [16.0, 196.0], []),
])
def test_a_tile_carries_crop_ticks_only_for_the_trims_on_its_own_art(w, h, bleed, tile, xs, ys):
    imposition = impose(pairs(1, card_type(w, h, bleed=bleed), backs=False), SheetOptions(paper="letter"))
    assert (imposition.pages[0].w, imposition.pages[0].h) == LETTER  # portrait, as planned
    assert crop_ticks(imposition.pages[tile]) == (xs, ys)


def test_the_page_map_of_a_tall_board_fits_its_height_and_is_centred_across():
    imposition = impose(pairs(1, card_type(300, 900, bleed=3.0), backs=False), SheetOptions(paper="letter"))
    assert len(imposition.pages) == 1 + 4 * 2
    marks = imposition.pages[0].marks
    # the 906 mm bleed box fills the 251.4 mm under the title (the page less the margins and
    # 20 mm), from 14 mm below the top margin; its 306 mm width is centred between the margins
    scale = (279.4 - 2 * 4 - 20) / 906
    left = 4 + (207.9 - 306 * scale) / 2
    boxes = [m for m in marks if isinstance(m, LineMark)]
    assert min(m.x0 for m in boxes) == pytest.approx(left) and max(m.x0 for m in boxes) == pytest.approx(left + 306 * scale)
    assert max(m.y0 for m in boxes) == pytest.approx(261.4) and min(m.y0 for m in boxes) == pytest.approx(261.4 - 906 * scale)
    names = [(m.text, m.x, m.y) for m in marks if isinstance(m, TextMark)][1:]
    assert names[0] == ("A1", pytest.approx(left + 207.9 / 2 * scale - 3), pytest.approx(261.4 - 265.4 / 2 * scale))


def test_page_map_and_tile_labels_are_upright_notes_in_place():
    imposition = impose(pairs(1, card_type(390, 300, bleed=3.0), backs=False), SheetOptions(paper="letter"))
    texts = [(m.size, m.angle, m.kind) for m in imposition.pages[0].marks if isinstance(m, TextMark)]
    assert texts == [(10.0, 0.0, "note")] + [(12.0, 0.0, "note")] * 4
    for page in imposition.pages[1:]:
        (label,) = [m for m in page.marks if isinstance(m, TextMark)]
        assert (label.x, label.y, label.size, label.angle, label.kind) == (4.0, 5.5, 7.0, 0.0, "note")
