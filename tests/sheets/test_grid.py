"""Card grids: how many faces, where, centred, clipped; orientation choice."""
from __future__ import annotations

import math

import pytest

from cardgen.sheets import CARD_SIZES, PAPER_SIZES, LineMark, SheetOptions, impose
from cardgen.sheets.grid import fit
from cardgen.sheets.marks import MARK_EDGE_ROOM

from .helpers import box, by_page, card_type, grow, overlap, pairs

PRESETS = sorted(CARD_SIZES)
PAPERS = sorted(PAPER_SIZES)


def first_page(kind, options, count=60):
    imposition = impose(pairs(count, kind, backs=False), options)
    page = imposition.pages[0]
    return page, [p.slot for p in by_page(imposition)[1]]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("spacing", ["butt", "bleed"])
def test_grid_is_centred_inside_the_margins_row_major_and_as_full_as_it_can_be(paper, preset, spacing):
    size, bleed, margin = CARD_SIZES[preset], 3.0, 4.0
    kind = card_type(size.w, size.h)
    page, slots = first_page(kind, SheetOptions(paper=paper, spacing=spacing))
    assert {(page.w, page.h), (page.h, page.w)} == {PAPER_SIZES[paper], PAPER_SIZES[paper][::-1]}
    gap = 0.0 if spacing == "butt" else 2 * bleed
    # Centred exactly: the grid's cut area has the page's centre.
    x0, y0 = min(s.x for s in slots), min(s.y for s in slots)
    x1, y1 = max(s.x + s.w for s in slots), max(s.y + s.h for s in slots)
    assert (x0 + x1) / 2 == pytest.approx(page.w / 2, abs=1e-9)
    assert (y0 + y1) / 2 == pytest.approx(page.h / 2, abs=1e-9)
    # A regular grid: columns and rows at the pitch, filled row by row from the top-left.
    xs = sorted({round(s.x, 6) for s in slots})
    ys = sorted({round(s.y, 6) for s in slots}, reverse=True)
    assert len(slots) == len(xs) * len(ys)
    assert [(-round(s.y, 6), round(s.x, 6)) for s in slots] == sorted((-round(s.y, 6), round(s.x, 6)) for s in slots)
    for a, b in zip(xs, xs[1:]):
        assert b - a == pytest.approx(size.w + gap, abs=1e-9)
    for a, b in zip(ys, ys[1:]):
        assert a - b == pytest.approx(size.h + gap, abs=1e-9)
    # The margin and room for the shortest crop mark on every side, and not a column or row more.
    room = margin + MARK_EDGE_ROOM
    assert MARK_EDGE_ROOM == 2.0
    assert x0 >= room - 1e-9 and page.w - x1 >= room - 1e-9
    assert y0 >= room - 1e-9 and page.h - y1 >= room - 1e-9
    assert (x1 - x0) + size.w + gap > page.w - 2 * room
    assert (y1 - y0) + size.h + gap > page.h - 2 * room
    for a in slots:
        for b in slots:
            assert a is b or not overlap(box(a), box(b))


# Counted by hand from the sizes (room per side: 4 margin + 2 for the shortest crop mark = 6 mm):
# letter 215.9 x 279.4 leaves 203.9 x 267.4; a4 210 x 297 leaves 198 x 285; a3 297 x 420: 285 x 408.
@pytest.mark.parametrize("paper, preset, orientation, grid", [
    ("letter", "poker", "auto", (215.9, 3, 3)),       # portrait 3 x 3 = 9 (3 x 88.9 = 266.7) > landscape 4 x 2 = 8
    ("letter", "poker", "landscape", (279.4, 4, 2)),
    ("letter", "bridge", "auto", (215.9, 3, 3)),      # portrait 3 x 3 = 9 > landscape 4 x 2 = 8
    ("letter", "tarot", "auto", (215.9, 2, 2)),       # portrait 2 x 2 = 4 > landscape 3 x 1 = 3
    ("letter", "mini-usa", "auto", (279.4, 6, 3)),    # portrait 4 x 4 = 16 < landscape 6 x 3 = 18
    ("letter", "mini-euro", "auto", (215.9, 4, 3)),   # 12 either way (landscape's 3 x 68 = 204 > 203.9): portrait
    ("letter", "square", "auto", (215.9, 2, 3)),      # 2 x 3 = 6 either way: ties go to portrait
    ("a4", "poker", "auto", (210.0, 3, 3)),           # portrait 3 x 3 = 9 > landscape 4 x 2 = 8
    ("a4", "bridge", "auto", (210.0, 3, 3)),          # portrait 3 x 3 = 9 > landscape 4 x 2 = 8
    ("a4", "poker", "landscape", (297.0, 4, 2)),
    ("a3", "poker", "auto", (420.0, 6, 3)),           # portrait 4 x 4 = 16 < landscape 6 x 3 = 18
    ("a3", "mini-euro", "landscape", (420.0, 9, 4)),  # 9 x 44 = 396 <= 408, 4 x 68 = 272 <= 285
])
def test_counts_and_orientation(paper, preset, orientation, grid):
    size = CARD_SIZES[preset]
    page, slots = first_page(card_type(size.w, size.h), SheetOptions(paper=paper, orientation=orientation), 80)
    width, ncols, nrows = grid
    assert page.w == width
    assert len({round(s.x, 6) for s in slots}) == ncols
    assert len({round(s.y, 6) for s in slots}) == nrows


def test_each_size_gets_its_own_sheets_in_order_of_first_appearance():
    poker, tarot = card_type(name="p"), card_type(70, 120, name="t")
    mixed = pairs(3, poker, False, "p") + pairs(2, tarot, False, "t") + pairs(7, poker, False, "q")
    imposition = impose(mixed, SheetOptions(paper="letter"))
    pages = by_page(imposition)
    # 10 poker cards: 9 on page 1, 1 on page 2 (p1 p2 p3 q1..q6 | q7); then the tarot page.
    assert [p.face.card.name for p in pages[1]] == ["p1", "p2", "p3", "q1", "q2", "q3", "q4", "q5", "q6"]
    assert [p.face.card.name for p in pages[2]] == ["q7"]
    assert [p.face.card.name for p in pages[3]] == ["t1", "t2"]
    assert [page.number for page in imposition.pages] == [1, 2, 3]
    assert (imposition.pages[2].w, imposition.pages[2].h) == (215.9, 279.4)
    # The same size with a different bleed is another group.
    other = card_type(bleed=1.0, name="b")
    imposition = impose(pairs(2, poker, False) + pairs(1, other, False, "b"), SheetOptions())
    assert len(imposition.pages) == 2


def test_butt_spacing_trims_bleed_where_cards_meet_and_the_margin_trims_the_outer_bleed():
    kind = card_type()
    page, slots = first_page(kind, SheetOptions(paper="letter", spacing="butt"), 9)
    x0, y0 = min(s.x for s in slots), min(s.y for s in slots)
    x1, y1 = max(s.x + s.w for s in slots), max(s.y + s.h for s in slots)
    # 3 x 3 on portrait letter: 12.7 mm beside the grid (the whole 3 mm bleed printed), 6.35 mm
    # above and below it (the bleed printed as far as the 4 mm margin: 2.35 mm).
    assert (x0, y0) == pytest.approx((12.7, 6.35), abs=1e-9)
    for s in slots:
        left, bottom, right, top = s.clip
        assert left == pytest.approx(s.x - 3 if math.isclose(s.x, x0) else s.x, abs=1e-9)
        assert right == pytest.approx(s.x + s.w + 3 if math.isclose(s.x + s.w, x1) else s.x + s.w, abs=1e-9)
        assert bottom == pytest.approx(4.0 if math.isclose(s.y, y0) else s.y, abs=1e-9)
        assert top == pytest.approx(page.h - 4.0 if math.isclose(s.y + s.h, y1) else s.y + s.h, abs=1e-9)
    # Cards touch: each has a neighbour sharing an edge, and no two clips overlap.
    for a in slots:
        assert any(math.isclose(a.x + a.w, b.x, abs_tol=1e-9) or math.isclose(a.x, b.x + b.w, abs_tol=1e-9)
                   for b in slots if b is not a)
        for b in slots:
            assert a is b or not overlap(a.clip, b.clip)


def test_bleed_spacing_gives_every_card_its_full_bleed():
    kind = card_type(bleed=2.0)
    page, slots = first_page(kind, SheetOptions(paper="a4", spacing="bleed"), 8)
    for s in slots:
        assert s.clip == pytest.approx(grow(box(s), 2.0), abs=1e-9)
        for t in slots:
            assert s is t or not overlap(s.clip, t.clip)
    xs = sorted({s.x for s in slots})
    assert xs[1] - (xs[0] + kind.size.w) == pytest.approx(4.0, abs=1e-9)


def test_margin_and_crop_marks_decide_the_room():
    kind = card_type()
    # A 10 mm margin keeps 12 mm from each edge: portrait a4 then takes 2 x 3 (3 x 63.5 = 190.5 >
    # 186), landscape 4 x 2 (254 <= 273): 8 a page.
    page, slots = first_page(kind, SheetOptions(paper="a4", margin=10))
    assert (page.w, len(slots)) == (297.0, 8)
    assert min(s.clip[0] for s in slots) >= 10 - 1e-9
    # Without crop marks the margin and as much bleed as the mark room (2 mm) are kept: with
    # margin 0, two 102.5 mm cards across portrait a4 (205 <= 210 - 2 x 2, though > 210 - 2 x 3).
    _, slots = first_page(card_type(102.5, 140), SheetOptions(paper="a4", orientation="portrait",
                                                              crop_marks=False, margin=0))
    assert (len({round(s.x, 6) for s in slots}), len({round(s.y, 6) for s in slots})) == (2, 2)
    assert min(s.clip[0] for s in slots) == pytest.approx(0.0, abs=1e-9)  # 2.5 mm: the bleed reaches the edge
    page = impose(pairs(1, kind, False), SheetOptions(paper="a4", crop_marks=False, margin=0)).pages[0]
    assert page.marks == ()
    page = impose(pairs(1, kind, False), SheetOptions(paper="a4", cut_lines=True)).pages[0]
    assert any(isinstance(m, LineMark) and m.kind == "cut" for m in page.marks)


def test_custom_paper():
    kind = card_type(50, 50, bleed=0)
    # 130 x 130: room 4 + 2 = 6 per side leaves 118: two 50 mm cards each way.
    page, slots = first_page(kind, SheetOptions(paper=(130, 130)))
    assert (page.w, page.h) == (130, 130)
    assert len(slots) == 4
    assert sorted({s.x for s in slots}) == pytest.approx([15.0, 65.0])


@pytest.mark.parametrize("length, cell, gap, count", [
    (190.5, 63.5, 0.0, 3), (190.4, 63.5, 0.0, 2), (63.5, 63.5, 0.0, 1), (63.4, 63.5, 0.0, 0),
    (0.0, 63.5, 0.0, 0), (-5.0, 63.5, 6.0, 0),
    (133.0, 63.5, 6.0, 2), (132.9, 63.5, 6.0, 1), (202.5, 63.5, 6.0, 3), (202.4, 63.5, 6.0, 2),
    (3 * 88.9, 88.9, 0.0, 3),  # 266.70000000000005: a float's last bit does not lose a row
])
def test_fit_counts_cells_and_the_gaps_between_them_only(length, cell, gap, count):
    assert fit(length, cell, gap) == count


def test_the_outer_bleed_stops_at_the_margin_on_every_side():
    # 202.5 mm: 3 poker cards + 2 x 6 mm, so 2 mm between the 4 mm margin and the trim left and
    # right: the 3 mm bleed is printed 2 mm there; 16.65 mm above and below: all 3 mm.
    page, slots = first_page(card_type(), SheetOptions(paper=(202.5, 300)), count=9)
    assert len(slots) == 9
    clips = [s.clip for s in slots]
    assert (min(c[0] for c in clips), max(c[2] for c in clips)) == pytest.approx((4.0, 198.5), abs=1e-9)
    assert (min(c[1] for c in clips), max(c[3] for c in clips)) == pytest.approx((13.65, 300 - 13.65), abs=1e-9)


def _reach(slot):
    """How far a face's art reaches beyond its trim: (left, bottom, right, top), mm."""
    x0, y0, x1, y1 = slot.x, slot.y, slot.x + slot.w, slot.y + slot.h
    c = slot.clip
    return tuple(round(v, 6) + 0.0 for v in (x0 - c[0], y0 - c[1], c[2] - x1, c[3] - y1))


def test_a_part_filled_page_prints_the_bleed_towards_its_empty_cells():
    # 7 bridge cards on Letter (3 x 3, butted): a card beside or above an empty cell keeps its
    # bleed there (it was cut along a trim with no bleed at all); where cards meet, none; the
    # grid's outer bleed as far as the margin (2.35 mm above and below, 3 beside); the backs
    # are the fronts mirrored, their bleed too.
    imposition = impose(pairs(7, card_type(57.15, 88.9)), SheetOptions(paper="letter"))
    fronts = [p.slot for p in imposition.placements if p.face.side == "front"]
    backs = [p.slot for p in imposition.placements if p.face.side == "back"]
    assert [_reach(s) for s in fronts] == [
        (3, 0, 0, 2.35), (0, 0, 0, 2.35), (0, 0, 3, 2.35),
        (3, 0, 0, 0), (0, 3, 0, 0), (0, 3, 3, 0),
        (3, 2.35, 3, 0)]
    assert [_reach(s) for s in backs] == [(r, b, l, t) for l, b, r, t in map(_reach, fronts)]
    # a full page is as it was: butted cards meet with no bleed between them
    full = impose(pairs(9, card_type(57.15, 88.9)), SheetOptions(paper="letter"))
    assert [_reach(p.slot) for p in full.placements if p.face.side == "front"][3:6] == [
        (3, 0, 0, 0), (0, 0, 0, 0), (0, 0, 3, 0)]


def test_a_part_filled_gutter_fold_page_prints_the_bleed_towards_its_empty_cells():
    # mini-usa on Letter, gutter fold: 3 x 3 pairs a page (landscape, fold vertical); 4 cards
    imposition = impose(pairs(4, card_type(41.0, 63.0)), SheetOptions(paper="letter", layout="gutter-fold"))
    fronts = [p.slot for p in imposition.placements if p.face.side == "front"]
    reach = [_reach(s) for s in fronts]
    assert [r[1] for r in reach[1:3]] == [3, 3] and reach[3][2] == 3  # below the empty cells, beside one
    assert reach[0][1] == 0 and reach[0][2] == 0  # towards cards
