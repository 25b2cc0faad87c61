"""A back offset moves every mark of a back page with it: crop marks, circle outlines and the
duplex note, by exactly the offset (mutation testing found only their count checked)."""
from __future__ import annotations

from dataclasses import fields

import pytest

from cardgen.sheets import CircleMark, LineMark, SheetOptions, TextMark, impose
from cardgen.sheets.notes import shifted

from .helpers import card_type, pairs

OFFSET = (1.5, -0.75)


def moved(mark, dx, dy):
    """The mark's fields with every x coordinate moved by dx and every y by dy."""
    out = {}
    for field in fields(mark):
        value = getattr(mark, field.name)
        if field.name in ("x", "x0", "x1", "cx"):
            value += dx
        elif field.name in ("y", "y0", "y1", "cy"):
            value += dy
        out[field.name] = value
    return type(mark).__name__, out


def as_fields(mark):
    return type(mark).__name__, {field.name: getattr(mark, field.name) for field in fields(mark)}


@pytest.mark.parametrize("shape, kinds", [("rect", {LineMark, TextMark}), ("circle", {CircleMark, TextMark})])
def test_every_mark_of_a_back_page_moves_by_the_offset(shape, kinds):
    kind = card_type(63.5, 63.5, shape=shape)
    plain = impose(pairs(3, kind), SheetOptions(paper="a4", blank_backs=True))
    offset = impose(pairs(3, kind), SheetOptions(paper="a4", blank_backs=True, back_offset=OFFSET))
    front, back = plain.pages[0], plain.pages[1]
    assert offset.pages[0].marks == front.marks  # fronts stay where they are
    assert {type(mark) for mark in back.marks} == kinds
    expected = [moved(mark, *OFFSET) for mark in back.marks if not isinstance(mark, TextMark)]
    got = [as_fields(mark) for mark in offset.pages[1].marks if not isinstance(mark, TextMark)]
    assert got == expected
    (note,) = [mark for mark in offset.pages[1].marks if isinstance(mark, TextMark)]
    assert note.text.endswith(" (back offset 1.5, -0.75 mm)")


def test_a_shifted_mark_keeps_everything_but_its_place():
    marks = [LineMark(1.0, 2.0, 3.0, 4.0, "crop", (1.0, 1.0), True), CircleMark(5.0, 6.0, 7.0),
             TextMark(8.0, 9.0, "Back side", 6.0, 90.0, "note")]
    assert shifted(marks, 0.5, -0.25) == [
        LineMark(1.5, 1.75, 3.5, 3.75, "crop", (1.0, 1.0), True), CircleMark(5.5, 5.75, 7.0),
        TextMark(8.5, 8.75, "Back side", 6.0, 90.0, "note")]


@pytest.mark.parametrize("offset", [(1.5, -0.75), (1.5, 0.0), (0.0, -0.75)])
def test_every_back_face_moves_by_the_offset_with_its_art(offset):
    # each axis alone too: a shift in x only or in y only is not dropped
    kind = card_type()
    plain = impose(pairs(3, kind), SheetOptions(paper="a4"))
    moved_ = impose(pairs(3, kind), SheetOptions(paper="a4", back_offset=offset))
    dx, dy = offset
    fronts = [p.slot for p in plain.placements if p.face.side == "front"]
    assert [p.slot for p in moved_.placements if p.face.side == "front"] == fronts
    backs = [(p.slot, q.slot) for p, q in zip(plain.placements, moved_.placements) if p.face.side == "back"]
    assert len(backs) == 3
    for before, after in backs:
        assert (after.x, after.y, after.w, after.h) == pytest.approx((before.x + dx, before.y + dy, before.w, before.h))
        c = before.clip
        assert after.clip == pytest.approx((c[0] + dx, c[1] + dy, c[2] + dx, c[3] + dy))
        assert (after.page, after.shape, after.rotation) == (before.page, before.shape, before.rotation)


@pytest.mark.parametrize("offset, said", [((1.0, 0.0), "1, 0"), ((0.0, 1.0), "0, 1")])
def test_an_offset_of_one_mm_along_one_axis_moves_the_marks_and_is_said(offset, said):
    kind = card_type()
    plain = impose(pairs(3, kind), SheetOptions(paper="a4"))
    moved_ = impose(pairs(3, kind), SheetOptions(paper="a4", back_offset=offset))
    expected = [moved(mark, *offset) for mark in plain.pages[1].marks if not isinstance(mark, TextMark)]
    assert [as_fields(mark) for mark in moved_.pages[1].marks if not isinstance(mark, TextMark)] == expected
    (note,) = [mark for mark in moved_.pages[1].marks if isinstance(mark, TextMark)]
    assert note.text == f"Back side: flip on long edge (back offset {said} mm)"


@pytest.mark.parametrize("w, h, paper", [(41.0, 63.0, "letter"), (44.0, 68.0, "a4")])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_a_back_page_says_how_to_turn_it_when_the_offset_finds_no_room(w, h, paper, duplex):
    # mini-usa on Letter (6 x 3, landscape) and mini-euro on A4 (4 x 4): the crop marks leave no
    # stretch of margin as long as the note with the offset; it was dropped, the back page then
    # said nothing. The plain note fits, as it does without an offset.
    kind = card_type(w, h)
    plain = impose(pairs(18, kind), SheetOptions(paper=paper, duplex=duplex))
    moved_ = impose(pairs(18, kind), SheetOptions(paper=paper, duplex=duplex, back_offset=OFFSET))
    (before,) = [mark for mark in plain.pages[1].marks if isinstance(mark, TextMark)]
    (note,) = [mark for mark in moved_.pages[1].marks if isinstance(mark, TextMark)]
    assert note.text == before.text == f"Back side: flip on {duplex} edge"
    assert as_fields(note) == moved(before, *OFFSET)
