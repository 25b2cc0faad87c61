"""Crop marks: on the extension of every cut line of a page's faces, outside the grid, inside the
margin, never on a face (only on the outer bleed, over a halo, where the grid leaves no room)."""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardgen.sheets import CircleMark, LineMark, SheetOptions, impose
from cardgen.sheets.marks import MARK_TRIM_GAP, crop_marks, mark_span
from cardgen.sheets.template import TemplateSlot

from .helpers import box, by_page, card_type, grow, pairs, segment_hits_box


def check_marks(imposition, margin):
    """(For impositions of one card size: all pages share a grid.) Every crop mark is inside the
    margin, on the extension of a cut line of the page's own faces, outside the area the faces
    span, never within ``MARK_TRIM_GAP`` of a trim; only a mark with a halo touches art (the
    outer bleed), and every face's trim edge is marked at both ends."""
    for page in imposition.pages:
        placements = by_page(imposition).get(page.number, [])
        trims = [box(p.slot) for p in placements]
        faces = [grow(box(p.slot), p.face.card_type.bleed) for p in placements]
        clips = [p.slot.clip for p in placements]
        xs = {round(v, 6) for p in placements for v in (p.slot.x, p.slot.x + p.slot.w)}
        ys = {round(v, 6) for p in placements for v in (p.slot.y, p.slot.y + p.slot.h)}
        crops = [m for m in page.marks if isinstance(m, LineMark) and m.kind == "crop"]
        for m in crops:
            for v in (m.x0, m.x1):
                assert margin - 1e-9 <= v <= page.w - margin + 1e-9
            for v in (m.y0, m.y1):
                assert margin - 1e-9 <= v <= page.h - margin + 1e-9
            for b in trims:
                assert not segment_hits_box(m.x0, m.y0, m.x1, m.y1, grow(b, MARK_TRIM_GAP - 1e-6))
            if not m.halo:
                for b in faces + clips:
                    assert not segment_hits_box(m.x0, m.y0, m.x1, m.y1, b)
            if m.x0 == m.x1:
                assert round(m.x0, 6) in xs
                assert max(m.y0, m.y1) <= min(t[1] for t in trims) or min(m.y0, m.y1) >= max(t[3] for t in trims)
            else:
                assert m.y0 == m.y1 and round(m.y0, 6) in ys
                assert max(m.x0, m.x1) <= min(t[0] for t in trims) or min(m.x0, m.x1) >= max(t[2] for t in trims)
        assert {round(m.x0, 6) for m in crops if m.x0 == m.x1} == xs
        assert {round(m.y0, 6) for m in crops if m.y0 == m.y1} == ys
        yield page, crops, placements


@settings(max_examples=60, deadline=None)
@given(w=st.floats(20, 130), h=st.floats(20, 130), bleed=st.sampled_from([0.0, 1.0, 3.0, 5.0]),
       paper=st.sampled_from(["letter", "a4", "a3"]), spacing=st.sampled_from(["butt", "bleed"]),
       layout=st.sampled_from(["sheets", "gutter-fold"]), margin=st.sampled_from([0.0, 6.0, 10.0]))
# Found by random examples (twice in ~20 runs): the grid leaves exactly room for the shortest
# mark, which then ends on the outer bleed's edge and must get its halo like a mark over it.
@example(w=20.0, h=21.0, bleed=3.0, paper="a3", spacing="butt", layout="gutter-fold", margin=10.0)
@example(w=20.0, h=20.0, bleed=5.0, paper="a4", spacing="bleed", layout="gutter-fold", margin=10.0)
def test_crop_marks_never_touch_a_face(w, h, bleed, paper, spacing, layout, margin):
    options = SheetOptions(paper=paper, spacing=spacing, layout=layout, margin=margin)
    kind = card_type(w, h, bleed=bleed)
    try:
        first_pages = impose(pairs(700, kind, backs=False), options)
    except Exception as error:  # too large for the paper in this layout: a clear message, tested elsewhere
        assert "does not fit" in str(error)
        return
    if not any(p.slot.page == 1 for p in first_pages.placements):  # a page map first: tiled (test_tiles.py)
        assert layout == "sheets"
        return
    full = len(by_page(first_pages)[1])
    imposition = impose(pairs(full + 3, kind), options)  # a full page, then a partly filled one
    for page, crops, placements in check_marks(imposition, margin):
        assert crops  # every sheet has crop marks


def test_every_cut_line_gets_a_mark_at_both_ends_on_letter():
    imposition = impose(pairs(9, card_type(), backs=False), SheetOptions(paper="letter"))
    page = imposition.pages[0]
    assert (page.w, page.h) == (215.9, 279.4)
    crops = [m for m in page.marks if isinstance(m, LineMark) and m.kind == "crop"]
    slots = [p.slot for p in imposition.placements]
    x0, y0 = min(s.x for s in slots), min(s.y for s in slots)
    x1, y1 = max(s.x + s.w for s in slots), max(s.y + s.h for s in slots)
    assert (x0, y0, page.w - x1, page.h - y1) == pytest.approx((12.7, 6.35, 12.7, 6.35), abs=1e-9)
    # 3 x 3 butted poker cards: 4 vertical and 4 horizontal cut lines, a mark at each end.
    vertical = sorted((m.x0, m.y0 > y1) for m in crops if m.x0 == m.x1)
    horizontal = sorted((m.y0, m.x0 > x1) for m in crops if m.y0 == m.y1)
    assert [x for x, _ in vertical] == pytest.approx(sorted([x0 + 63.5 * i for i in range(4)] * 2), abs=1e-9)
    assert [y for y, _ in horizontal] == pytest.approx(sorted([y0 + 88.9 * i for i in range(4)] * 2), abs=1e-9)
    for m in crops:
        if m.x0 == m.x1:
            # 6.35 mm above and below: from the 4 mm margin to 0.5 mm short of the trim, over
            # the outer bleed (halo).
            assert m.halo
            lo, hi = sorted((m.y0, m.y1))
            assert (lo, hi) == pytest.approx((4.0, 5.85) if hi < y0 else (page.h - 5.85, page.h - 4.0), abs=1e-9)
        else:
            # 12.7 mm beside: 0.5 mm beyond the 3 mm bleed, 5 mm long, no halo.
            assert not m.halo
            lo, hi = sorted((m.x0, m.x1))
            assert (lo, hi) == pytest.approx((4.2, 9.2) if hi < x0 else (page.w - 9.2, page.w - 4.2), abs=1e-9)
    check = list(check_marks(imposition, 4.0))
    assert len(check) == 1


def test_marks_on_a4_keep_off_the_bleed_where_they_fit():
    imposition = impose(pairs(9, card_type(), backs=False), SheetOptions(paper="a4"))
    page = imposition.pages[0]
    crops = [m for m in page.marks if m.kind == "crop"]
    assert (page.w, page.h) == (210.0, 297.0) and len(crops) == 16
    for m in crops:
        assert not m.halo
        if m.x0 == m.x1:  # 15.15 mm above and below: 0.5 mm beyond the bleed, 5 mm long
            lo, hi = sorted((m.y0, m.y1))
            assert (lo, hi) == pytest.approx((6.65, 11.65) if hi < 100 else (297 - 11.65, 297 - 6.65), abs=1e-9)
        else:  # 9.75 mm beside: the shortest mark (2.5 mm) from the margin, 0.25 mm beyond the bleed
            lo, hi = sorted((m.x0, m.x1))
            assert (lo, hi) == pytest.approx((4.0, 6.5) if hi < 100 else (203.5, 206.0), abs=1e-9)
    list(check_marks(imposition, 4.0))


def test_a_partly_filled_page_marks_only_the_cut_lines_of_its_faces():
    # 4 faces on a 3 x 3 sheet: a full top row and one card below it. No mark for the cut
    # lines of the empty slots: the bottom row's bottom edge, nor the third row's edges.
    imposition = impose(pairs(4, card_type(), backs=False), SheetOptions(paper="letter"))
    page = imposition.pages[0]
    crops = [m for m in page.marks if m.kind == "crop"]
    top = page.h - 6.35
    assert sorted({round(m.y0, 6) for m in crops if m.y0 == m.y1}) == pytest.approx(
        [top - 2 * 88.9, top - 88.9, top], abs=1e-6)
    assert len(crops) == 4 * 2 + 3 * 2
    list(check_marks(imposition, 4.0))


def test_bleed_spacing_marks_both_edges_of_every_gap():
    imposition = impose(pairs(8, card_type(), backs=False), SheetOptions(paper="a4", spacing="bleed"))
    crops = [m for m in imposition.pages[0].marks if m.kind == "crop"]
    xs = sorted({round(m.x0, 6) for m in crops if m.x0 == m.x1})
    slots = [p.slot for p in imposition.placements]
    assert xs == sorted({round(v, 6) for s in slots for v in (s.x, s.x + s.w)})
    assert len(xs) == 8  # 4 columns, each with its own two cut lines
    list(check_marks(imposition, 4.0))


def test_cut_lines_run_the_length_of_the_page():
    imposition = impose(pairs(9, card_type(), backs=False), SheetOptions(paper="letter", cut_lines=True))
    page = imposition.pages[0]
    cuts = [m for m in page.marks if m.kind == "cut"]
    assert len(cuts) == 4 + 4
    for m in cuts:
        assert (m.y0, m.y1) == (4.0, page.h - 4.0) if m.x0 == m.x1 else (m.x0, m.x1) == (4.0, page.w - 4.0)


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


def test_cut_lines_come_with_the_crop_marks_not_instead():
    with_cuts = impose(pairs(9, card_type(), backs=False), SheetOptions(paper="letter", cut_lines=True)).pages[0]
    plain = impose(pairs(9, card_type(), backs=False), SheetOptions(paper="letter")).pages[0]
    crops = [m for m in with_cuts.marks if m.kind == "crop"]
    assert crops and crops == [m for m in plain.marks if m.kind == "crop"]


@pytest.mark.parametrize("room, margin, bleed, span", [
    (20.0, 4.0, 3.0, (3.5, 8.5, False)),  # a whole mark, 0.5 mm beyond the bleed
    (10.0, 4.0, 3.0, (3.5, 6.0, False)),  # just the shortest mark (2.5 mm) beyond the bleed
    (10.0, 4.0, 0.0, (2.0, 6.0, False)),  # no bleed: 2 mm beyond the trim
    (6.35, 4.0, 3.0, (0.5, 2.35, True)),  # letter's 3 x 3 poker grid: from the margin over the bleed
    (6.0, 4.0, 3.0, (0.5, 2.0, True)),  # just the shortest mark over the bleed (1.5 mm)
    (8.0, 4.0, 0.0, (1.5, 4.0, False)),  # no bleed to reach into: the shortest mark is 2.5 mm
    (7.0, 4.0, 1.0, (0.5, 3.0, True)),  # a 1 mm bleed: reached, so over a halo
    (5.9, 4.0, 3.0, None), (5.5, 4.0, 3.0, None), (4.0, 4.0, 3.0, None),  # less room: no mark
])
def test_a_mark_goes_beyond_the_bleed_else_over_it_else_nowhere(room, margin, bleed, span):
    assert mark_span(room, margin, bleed) == (pytest.approx(span, abs=1e-9) if span else None)


def sheet_of(tmp_path, x: float, gap: float = 10.0):
    """A4 template: two poker slots side by side, ``gap`` mm apart, the first ``x`` mm from the
    left edge (20 mm from the top)."""
    (tmp_path / "two.yaml").write_text(
        f"paper: a4\nmarks: crop\nslots:\n  - {{x: {x}, y: 20, w: 63.5, h: 88.9}}\n"
        f"  - {{x: {x + 63.5 + gap}, y: 20, w: 63.5, h: 88.9}}\n", encoding="utf-8")
    return impose(pairs(2, card_type(bleed=3.0), backs=False), SheetOptions(template="two.yaml", root=tmp_path))


def horizontal_marks(page, left_of: float):
    return sorted((round(m.x0, 6), round(m.x1, 6), m.halo) for m in page.marks
                  if m.kind == "crop" and m.y0 == m.y1 and m.x1 <= left_of)


def test_a_template_slot_too_near_the_margin_for_the_shortest_mark_gets_none_on_that_side(tmp_path):
    # 1.5 mm between the 4 mm margin and the trim: less than the shortest mark over the bleed
    # (1.5 mm, ending 0.5 mm short of the trim) needs: no mark left of the grid
    page = sheet_of(tmp_path, 5.5).pages[0]
    assert horizontal_marks(page, 5.5) == []
    assert len([m for m in page.marks if m.kind == "crop"]) == 4 * 2 + 2  # 4 cut lines up, 2 across
    # 2 mm: the shortest mark, from the margin, over a halo
    page = sheet_of(tmp_path, 6.0).pages[0]
    assert horizontal_marks(page, 6.0) == [(4.0, 5.5, True)] * 2


@pytest.mark.parametrize("gap", [0.8, 1.0, 6.0])
def test_cut_lines_a_millimetre_apart_each_get_their_marks(tmp_path, gap):
    imposition = sheet_of(tmp_path, 20.0, gap)
    xs = sorted({round(m.x0, 6) for m in imposition.pages[0].marks if m.kind == "crop" and m.x0 == m.x1})
    assert xs == pytest.approx([20.0, 83.5, 83.5 + gap, 147.0 + gap], abs=1e-9)
    list(check_marks(imposition, 4.0))


def test_crop_marks_default_to_every_slot_and_a_sheet_without_slots_has_none():
    slots = [TemplateSlot(20.0, 20.0, 63.5, 88.9), TemplateSlot(83.5, 20.0, 63.5, 88.9)]
    every = crop_marks(slots, 210.0, 297.0, 4.0, 3.0)
    assert every == crop_marks(slots, 210.0, 297.0, 4.0, 3.0, slots) and len(every) == 3 * 2 + 2 * 2
    assert crop_marks(slots, 210.0, 297.0, 4.0, 3.0, []) == []
    assert crop_marks([], 210.0, 297.0, 4.0, 3.0) == []
