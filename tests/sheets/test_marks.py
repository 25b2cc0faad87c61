"""Crop marks: on the extension of every cut line, outside the cut area, never on a face."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.sheets import CircleMark, LineMark, SheetOptions, impose

from .helpers import box, by_page, card_type, grow, pairs, segment_hits_box


def check_marks(imposition, margin):
    """(For impositions of one card size: all pages share a grid, whose cut lines are the edges
    of the faces on all pages; a partly filled page keeps the marks of its whole grid.)"""
    everything = imposition.placements
    xs = {round(v, 6) for p in everything for v in (p.slot.x, p.slot.x + p.slot.w)}
    ys = {round(v, 6) for p in everything for v in (p.slot.y, p.slot.y + p.slot.h)}
    for page in imposition.pages:
        placements = by_page(imposition).get(page.number, [])
        faces = [grow(box(p.slot), p.face.card_type.bleed) for p in placements]
        clips = [p.slot.clip for p in placements]
        crops = [m for m in page.marks if isinstance(m, LineMark) and m.kind == "crop"]
        for m in crops:
            # Inside the printable area, never touching any face's trim, bleed or art clip.
            for v in (m.x0, m.x1):
                assert margin - 1e-9 <= v <= page.w - margin + 1e-9
            for v in (m.y0, m.y1):
                assert margin - 1e-9 <= v <= page.h - margin + 1e-9
            for b in faces + clips:
                assert not segment_hits_box(m.x0, m.y0, m.x1, m.y1, b)
            # On the extension of a cut line of this sheet.
            if m.x0 == m.x1:
                assert round(m.x0, 6) in xs
            else:
                assert m.y0 == m.y1 and round(m.y0, 6) in ys
        yield page, crops, placements


@settings(max_examples=60, deadline=None)
@given(w=st.floats(20, 130), h=st.floats(20, 130), bleed=st.sampled_from([0.0, 1.0, 3.0, 5.0]),
       paper=st.sampled_from(["letter", "a4", "a3"]), spacing=st.sampled_from(["butt", "bleed"]),
       layout=st.sampled_from(["sheets", "gutter-fold"]), margin=st.sampled_from([0.0, 6.0, 10.0]))
def test_crop_marks_never_touch_a_face(w, h, bleed, paper, spacing, layout, margin):
    options = SheetOptions(paper=paper, spacing=spacing, layout=layout, margin=margin)
    kind = card_type(w, h, bleed=bleed)
    try:
        full = len(by_page(impose(pairs(700, kind, backs=False), options))[1])
    except Exception as error:  # too large for the paper in this layout: a clear message, tested elsewhere
        assert "does not fit" in str(error)
        return
    imposition = impose(pairs(full + 3, kind), options)  # a full page, then a partly filled one
    for page, crops, placements in check_marks(imposition, margin):
        assert crops  # every sheet has crop marks


def test_every_cut_line_gets_a_mark_at_both_ends():
    imposition = impose(pairs(8, card_type(), backs=False), SheetOptions(paper="letter"))
    page = imposition.pages[0]
    crops = [m for m in page.marks if isinstance(m, LineMark) and m.kind == "crop"]
    slots = [p.slot for p in imposition.placements]
    x0, y0 = min(s.x for s in slots), min(s.y for s in slots)
    x1, y1 = max(s.x + s.w for s in slots), max(s.y + s.h for s in slots)
    # 4 x 2 butted poker cards: 5 vertical and 3 horizontal cut lines, a mark at each end.
    vertical = sorted((m.x0, m.y0 > y1) for m in crops if m.x0 == m.x1)
    horizontal = sorted((m.y0, m.x0 > x1) for m in crops if m.y0 == m.y1)
    assert [x for x, _ in vertical] == pytest.approx(sorted([x0 + 63.5 * i for i in range(5)] * 2), abs=1e-9)
    assert [y for y, _ in horizontal] == pytest.approx(sorted([y0 + 88.9 * i for i in range(3)] * 2), abs=1e-9)
    # They start 0.5 mm beyond the 3 mm bleed and run 5 mm (or to the 6 mm margin).
    for m in crops:
        if m.x0 != m.x1:
            continue
        if m.y1 < y0:  # below the grid
            assert y0 - m.y1 == pytest.approx(3.5, abs=1e-9)
            assert m.y1 - m.y0 == pytest.approx(min(5.0, y0 - 3.5 - 6.0), abs=1e-9)
        else:
            assert m.y0 - y1 == pytest.approx(3.5, abs=1e-9)
            assert m.y1 - m.y0 == pytest.approx(min(5.0, page.h - 6.0 - (y1 + 3.5)), abs=1e-9)
    check = list(check_marks(imposition, 6.0))
    assert len(check) == 1


def test_bleed_spacing_marks_both_edges_of_every_gap():
    imposition = impose(pairs(8, card_type(), backs=False), SheetOptions(paper="a4", spacing="bleed"))
    crops = [m for m in imposition.pages[0].marks if m.kind == "crop"]
    xs = sorted({round(m.x0, 6) for m in crops if m.x0 == m.x1})
    slots = [p.slot for p in imposition.placements]
    assert xs == sorted({round(v, 6) for s in slots for v in (s.x, s.x + s.w)})
    assert len(xs) == 8  # 4 columns, each with its own two cut lines
    list(check_marks(imposition, 6.0))


def test_cut_lines_run_the_length_of_the_page():
    imposition = impose(pairs(8, card_type(), backs=False), SheetOptions(paper="letter", cut_lines=True))
    page = imposition.pages[0]
    cuts = [m for m in page.marks if m.kind == "cut"]
    assert len(cuts) == 5 + 3
    for m in cuts:
        assert (m.y0, m.y1) == (6.0, page.h - 6.0) if m.x0 == m.x1 else (m.x0, m.x1) == (6.0, page.w - 6.0)


def test_circle_cut_sheet_outlines_each_used_circle():
    kind = card_type(25, 25, shape="circle", bleed=2.0)
    imposition = impose(pairs(5, kind, backs=False), SheetOptions(paper="a4", template="circle-cut"))
    page = imposition.pages[0]
    circles = [m for m in page.marks if isinstance(m, CircleMark)]
    assert not [m for m in page.marks if isinstance(m, LineMark)]  # no crop marks on a circle sheet
    assert len(circles) == 5
    for mark, placement in zip(circles, imposition.placements):
        s = placement.slot
        assert (mark.cx, mark.cy, mark.r) == pytest.approx((s.x + 12.5, s.y + 12.5, 12.5), abs=1e-9)
        assert s.shape == "circle"
        assert s.clip == pytest.approx(grow(box(s), 2.0), abs=1e-9)  # the square round the r + bleed circle
    # Circles of the same sheet keep their bleeds apart (gap = 2 x bleed here).
    centres = sorted({round(m.cx, 6) for m in circles})
    assert centres[1] - centres[0] == pytest.approx(25 + 4, abs=1e-9)
    # Round faces go on a circle-cut sheet by default too.
    assert impose(pairs(5, kind, backs=False), SheetOptions(paper="a4")).pages == imposition.pages
