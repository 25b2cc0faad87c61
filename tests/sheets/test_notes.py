"""The duplex note's place, in numbers: the band of the first paper edge tall enough for it
(bottom, top, left, right), between the margin and the art (slots and the room their art takes),
centred on the page unless crop marks or circles block that, else centred in the widest free
stretch (mutation testing found the note's placement unchecked: the PDF tests read its text)."""
from __future__ import annotations

import math

import pdfplumber
import pytest

import cardgen
from cardgen.sheets import CircleMark, LineMark
from cardgen.sheets.notes import NOTE_PT, duplex_note, text_size
from cardgen.sheets.template import TemplateSlot
from cardgen.units import PT_PER_MM

from projects import make_project

SIZE = 2 * PT_PER_MM  # a 2 mm em: a character 1.2 mm wide, ascent 1.6 mm, descent 0.5 mm
TEXT = "abcdefghij"  # 12 mm wide
RISE = (1.6 - 0.5) / 2  # from the band's middle down to the baseline (across) or up to it (upright)


def slots(dx: float = 0.0):
    """Two slots whose art (their room included) spans x 47 + dx to 163 + dx, y 48 to 254."""
    return [TemplateSlot(50 + dx, 60, 40, 180, "rect", (3, 4, 5, 6)),
            TemplateSlot(100 + dx, 50, 60, 200, "rect", (1, 2, 3, 4))]


def where(mark):
    return None if mark is None else (round(mark.x, 6), round(mark.y, 6), mark.text, mark.size, mark.angle, mark.kind)


def note(slot_list, marks, page_w, page_h, margin, text=TEXT, bleed=0.0):
    return where(duplex_note(text, slot_list, marks, page_w, page_h, margin, SIZE, bleed=bleed))


def test_a_notes_size_is_estimated_from_its_characters_and_type_size():
    em = 6.0 / PT_PER_MM  # the default 6 pt
    assert text_size("Back side") == pytest.approx((9 * 0.6 * em, 0.8 * em, 0.25 * em))
    assert text_size(TEXT, SIZE) == pytest.approx((12.0, 1.6, 0.5))


@pytest.mark.parametrize("dx, page_w, page_h, margin, expected", [
    # the bottom band, 5 to 48 mm: centred on the 250 mm page
    (20, 250, 300, 5.0, (119.0, 26.5 - RISE, 0.0)),
    # the bottom band only 1.5 mm tall: the top one, 254 to 263.5 mm
    (20, 250, 310, 46.5, (119.0, 258.75 - RISE, 0.0)),
    # top and bottom too thin: up the left edge, in the band from 46.5 to 67 mm, centred up the page
    (20, 250, 300.5, 46.5, (56.75 + RISE, 144.25, 90.0)),
    # the left band thin too (46.5 to 48 mm): up the right edge, 164 to 183.5 mm
    (1, 230, 300.5, 46.5, (173.75 + RISE, 144.25, 90.0)),
])
def test_the_note_goes_in_the_first_band_tall_enough_bottom_top_left_right(dx, page_w, page_h, margin, expected):
    x, y, angle = expected
    assert note(slots(dx), [], page_w, page_h, margin) == (round(x, 6), round(y, 6), TEXT, SIZE, angle, "note")


def test_a_band_exactly_as_tall_as_the_note_takes_it():
    height = sum(text_size(TEXT, SIZE)[1:])
    slot = TemplateSlot(20, height, 200, 250, "rect", (0, 0, 0, 0))
    assert note([slot], [], 250, 300, 0.0) == (119.0, round(height / 2 - RISE, 6), TEXT, SIZE, 0.0, "note")


@pytest.mark.parametrize("bleed, middle", [(0.0, 17.5), (3.0, 16.0)])
def test_an_unlimited_room_counts_as_the_bleed_beyond_the_slot(bleed, middle):
    slot = TemplateSlot(20, 30, 100, 200)  # the room of a slot unlimited: UNLIMITED
    assert slot.room == (math.inf,) * 4
    # the bottom band: from the 5 mm margin to the slot's art, 30 mm less the bleed
    assert note([slot], [], 140, 260, 5.0, bleed=bleed) == (64.0, round(middle - RISE, 6), TEXT, SIZE, 0.0, "note")


TWO_ROWS = """name: Two rows
paper: letter
grid: {w: 63.5, h: 88.9, nx: 3, ny: 2, x0: 12.7, y0: 94.6}
"""  # no waste: the outer edges' room is unlimited; the bottom row ends 7 mm above the paper's edge


def test_on_a_yaml_sheet_without_waste_the_note_keeps_off_the_faces_bleed(tmp_path):
    """The demo's faces fill their 3 mm bleed with blue; 3 mm of paper lie below the bottom
    row's trim beyond the 4 mm margin, room enough for the note were the bleed not printed."""
    root = make_project(tmp_path, fonts=False)
    (tmp_path / "two-rows.yaml").write_text(TWO_ROWS, encoding="utf-8")
    options = cardgen.BuildOptions(cache=False, sheet=str(tmp_path / "two-rows.yaml"))
    built = cardgen.build(["demo"], root, tmp_path / "out", options).sets[0]
    with pdfplumber.open(built.pdf) as pdf:
        assert len(pdf.pages) == 4
        for number, page in enumerate(pdf.pages, 1):
            art = [mm_box(shape, page.height) for shape in page.rects + page.curves if shape["fill"]]
            assert bool(art) == (number != 4), number  # the last: the tokens' blank back page
            chars = [mm_box(c, page.height) for c in page.chars if abs(c["size"] - NOTE_PT) < 1e-6]
            assert chars, number  # every page has its note
            for char in chars:
                for box in art:
                    assert not overlaps(char, box), (number, char, box)


def mm_box(obj, page_h_pt):
    to_mm = 1 / PT_PER_MM
    return (obj["x0"] * to_mm, (page_h_pt - obj["bottom"]) * to_mm, obj["x1"] * to_mm, (page_h_pt - obj["top"]) * to_mm)


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_crop_marks_and_circles_crossing_the_band_push_the_note_to_the_widest_free_stretch():
    # the bottom band of 5 to 48 mm: the note's band is 25.45 to 27.55 mm
    marks = [
        LineMark(125, 5, 125, 40),  # across the band at the page's centre: 124 to 126 blocked
        LineMark(80, 0, 80, 25.4),  # ends just under the band
        LineMark(170, 27.6, 170, 40),  # starts just over it
        LineMark(230, 26, 200, 26),  # along the band, drawn right to left: 199 to 231 blocked
        CircleMark(40, 20, 7),  # reaches 27 mm up: 32 to 48 blocked
        CircleMark(100, 10, 5),  # reaches 15 mm up: clear of the band
    ]
    # free: 5-32, 48-124, 126-199, 231-245; the widest is 48-124
    assert note(slots(20), marks, 250, 300, 5.0) == (80.0, round(26.5 - RISE, 6), TEXT, SIZE, 0.0, "note")


def test_marks_crossing_a_side_band_push_the_note_along_the_edge():
    # up the left edge: the band from 46.5 to 67 mm, the note's from 55.7 to 57.8 mm across
    marks = [
        LineMark(50, 150, 60, 150),  # across the band: 149 to 151 blocked
        LineMark(40, 100, 55.6, 100),  # ends just left of the band
        LineMark(57.9, 200, 66, 200),  # starts just right of it
        LineMark(56, 240, 56, 220),  # along the band, drawn downwards: 219 to 241 blocked
        CircleMark(52, 80, 4),  # reaches 56 mm across: 75 to 85 blocked
        CircleMark(60, 120, 2),  # from 58 mm across: clear
    ]
    # free up the page: 46.5-75, 85-149, 151-219, 241-254; the widest is 151-219
    assert note(slots(20), marks, 250, 300.5, 46.5) == (round(56.75 + RISE, 6), 179.0, TEXT, SIZE, 90.0, "note")


@pytest.mark.parametrize("lines, start", [
    ([(125, 125)], 58.5),  # two free stretches of 119 mm: the first
    ([(132, 132)], 119.0),  # the centred note ends exactly where the free stretch does
    ([(118, 118)], 119.0),  # it starts exactly where the free stretch begins
    ([(18, 18), (31, 31), (31, 250)], 5.0),  # the only stretch left is exactly 12 mm long (5 to 17)
])
def test_the_note_is_centred_if_it_fits_else_centred_in_the_first_widest_stretch(lines, start):
    # one crop mark at each x (or an edge to edge line at y = 26 from the first x to the second)
    marks = [LineMark(a, 10, a, 40) if a == b else LineMark(a, 26, b, 26) for a, b in lines]
    assert note(slots(20), marks, 250, 300, 5.0) == (start, round(26.5 - RISE, 6), TEXT, SIZE, 0.0, "note")


def test_no_band_takes_the_note_or_there_are_no_slots():
    page = [TemplateSlot(1, 1, 198, 298, "rect", (0, 0, 0, 0))]  # art to 1 mm from every edge
    assert note(page, [], 200, 300, 0.0) is None
    assert note(page, [], 200, 300, 0.0, text="") is None  # even an empty note needs its height
    assert note([], [], 200, 300, 5.0) is None
    # every band blocked end to end by lines
    blocked = [LineMark(0, 20, 250, 20), LineMark(0, 280, 250, 280), LineMark(15, 0, 15, 300),
               LineMark(235, 0, 235, 300)]
    wide = [TemplateSlot(30, 40, 190, 220, "rect", (0, 0, 0, 0))]
    assert note(wide, blocked, 250, 300, 0.0) is None


@pytest.mark.parametrize("lines, start", [
    ([(119, 119)], 176.5),  # the free stretch begins at 120, 1 mm after the centred note would
    ([(131, 131)], 61.5),  # it ends at 130, 1 mm before the centred note would
])
def test_a_stretch_a_little_short_of_the_centred_note_does_not_take_it_centred(lines, start):
    marks = [LineMark(a, 10, a, 40) for a, _ in lines]
    assert note(slots(20), marks, 250, 300, 5.0) == (start, round(26.5 - RISE, 6), TEXT, SIZE, 0.0, "note")


def test_stretches_all_shorter_than_the_note_send_it_to_the_next_band():
    # the bottom band's stretches: 5-15 and 17-28 mm (10 and 11 mm), the rest blocked
    marks = [LineMark(16, 10, 16, 40), LineMark(29, 26, 250, 26)]
    assert note(slots(20), marks, 250, 300, 5.0) == (119.0, round(274.5 - RISE, 6), TEXT, SIZE, 0.0, "note")


def bands():
    """The note's band across the bottom band (5 to 48 mm) and up the left one (46.5 to 67 mm),
    computed as duplex_note does, so that a mark can end exactly on its edge."""
    height = sum(text_size(TEXT, SIZE)[1:])
    across, up = (5.0 + 48) / 2, (46.5 + 67) / 2
    return (across - height / 2, across + height / 2), (up - height / 2, up + height / 2)


def touching_marks():
    (low, high), (left, right) = bands()
    r = 2.0
    return {
        # the bottom band: a crop mark or a circle at the page's centre touching the note's band
        "line from below": LineMark(125, 0, 125, low), "line from above": LineMark(125, high, 125, 45),
        "circle from below": CircleMark(125, low - r, r), "circle from above": CircleMark(125, high + r, r),
        # up the left edge: the same at the height of the page's centre
        "line from the left": LineMark(0, 150.25, left, 150.25), "line from the right": LineMark(right, 150.25, 66, 150.25),
        "circle from the left": CircleMark(left - r, 150.25, r), "circle from the right": CircleMark(right + r, 150.25, r),
    }


@pytest.mark.parametrize("name", ["line from below", "line from above", "circle from below", "circle from above",
                                  "line from the left", "line from the right", "circle from the left",
                                  "circle from the right"])
def test_a_mark_touching_the_notes_band_blocks_it(name):
    mark = touching_marks()[name]
    (low, high), (left, right) = bands()
    if isinstance(mark, CircleMark):  # the circle's edge is exactly on the band's
        assert {mark.cy - mark.r, mark.cy + mark.r, mark.cx - mark.r, mark.cx + mark.r} & {low, high, left, right}
    reach = 1.0 + (mark.r if isinstance(mark, CircleMark) else 0.0)  # blocked each side of the centre
    if "left" in name or "right" in name:  # up the left edge; two equal stretches: the first
        expected = (round(56.75 + RISE, 6), round((46.5 + 150.25 - reach - 12) / 2, 6), TEXT, SIZE, 90.0, "note")
        assert note(slots(20), [mark], 250, 300.5, 46.5) == expected
    else:  # two equal stretches: the first
        expected = (round((5 + 125 - reach - 12) / 2, 6), round(26.5 - RISE, 6), TEXT, SIZE, 0.0, "note")
        assert note(slots(20), [mark], 250, 300, 5.0) == expected


@pytest.mark.parametrize("mark, start", [
    (CircleMark(125, 26, 3), 57.0),  # blocks 121-129: two stretches of 116 mm, the first
    (CircleMark(125, 60, 3), 119.0),  # above the band: clear
])
def test_a_circle_blocks_its_width_and_the_clearance_along_the_bottom(mark, start):
    assert note(slots(20), [mark], 250, 300, 5.0) == (start, round(26.5 - RISE, 6), TEXT, SIZE, 0.0, "note")


@pytest.mark.parametrize("mark, start", [
    (CircleMark(56.75, 150.25, 3), 90.375),  # blocks 146.25-154.25: two stretches of 99.75 mm, the first
    (CircleMark(70, 150.25, 2), 144.25),  # right of the band: clear, the note centred
    (LineMark(40, 60, 66, 60), 144.25),  # blocks 59-61: the note still centred on the page, not in 61-254
])
def test_marks_along_a_side_band_block_their_height_and_the_clearance(mark, start):
    expected = (round(56.75 + RISE, 6), start, TEXT, SIZE, 90.0, "note")
    assert note(slots(20), [mark], 250, 300.5, 46.5) == expected


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_a_grid_whose_art_reaches_the_margin_says_how_to_turn_it_over_the_outer_bleed(duplex):
    # 8 poker cards on landscape A4 with --spacing bleed and a 10 mm margin: the grid's art
    # reaches the margin on every side, and no note was printed on either page. It goes over
    # the outer bleed below the grid (cut away), on a white box, between the crop marks, short
    # of the trim by MARK_TRIM_GAP and clear of the margin.
    from cardgen.sheets import SheetOptions, TextMark, impose
    from cardgen.sheets.marks import MARK_TRIM_GAP

    from .helpers import card_type, pairs

    imposition = impose(pairs(8, card_type()), SheetOptions(paper="a4", spacing="bleed", margin=10.0, duplex=duplex))
    for page, said in zip(imposition.pages, (f"Print double-sided, flip on {duplex} edge", f"Back side: flip on {duplex} edge")):
        (note,) = [mark for mark in page.marks if isinstance(mark, TextMark)]
        assert (note.text, note.ground, note.angle) == (said, True, 0.0)
        width, ascent, descent = text_size(note.text)
        box = (note.x, note.y - descent, note.x + width, note.y + ascent)
        trims = [p.slot for p in imposition.placements if p.slot.page == page.number]
        assert box[1] >= 10.0 and box[0] >= 10.0 and box[2] <= page.w - 10.0
        assert box[3] <= min(s.y for s in trims) - MARK_TRIM_GAP
        for mark in page.marks:
            if isinstance(mark, LineMark):
                assert not (box[0] <= mark.x0 <= box[2] and mark.y0 <= box[3] and mark.y1 >= box[1]), mark


def test_a_grid_that_leaves_no_room_for_6_pt_prints_the_note_at_5():
    # 36 mini-euro cards without bleed on landscape A3 with a 10 mm margin: the grid keeps only
    # the 2 mm room for crop marks from the margin, under a 6 pt note's 2.2 mm; none was printed
    from cardgen.sheets import SheetOptions, TextMark, impose
    from cardgen.sheets.notes import NOTE_MIN_PT

    from .helpers import card_type, pairs

    imposition = impose(pairs(36, card_type(44.0, 68.0, bleed=0.0)), SheetOptions(paper="a3", margin=10.0))
    page = imposition.pages[0]
    (note,) = [mark for mark in page.marks if isinstance(mark, TextMark)]
    assert (note.text, note.size) == ("Print double-sided, flip on long edge", NOTE_MIN_PT)
    width, ascent, descent = text_size(note.text, note.size)
    trims = [p.slot for p in imposition.placements if p.slot.page == page.number]
    low = note.y - descent if note.angle == 0 else note.x - ascent
    assert low >= 10.0 and (note.y + ascent <= min(s.y for s in trims) if note.angle == 0
                            else note.x + descent <= min(s.x for s in trims))
