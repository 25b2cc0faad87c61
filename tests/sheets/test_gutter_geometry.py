"""Gutter-fold sheets slot by slot, for both folds: how many faces fit beside the fold line
(at the exact edge of the room), where each sits, how much outer bleed each keeps, and the
crop marks they get (mutation testing found the vertical fold and the rooms unchecked)."""
from __future__ import annotations

import pytest

from cardgen.sheets.grid import gutter_sheet
from cardgen.sheets.marks import FOLD_DASH, LineMark, TextMark, fold_marks

LETTER = (215.9, 279.4)


def slots(template):
    return [(round(s.x, 6), round(s.y, 6), s.w, s.h, tuple(round(v, 6) for v in s.room)) for s in template.slots]


def test_a_vertical_fold_on_portrait_letter_takes_one_column_of_three_beside_the_fold():
    # edge 6 mm (4 mm margin + room for the shortest crop mark), 5.5 mm from the fold (3 mm
    # bleed + 2.5 mm): 3 x 88.9 = 266.7 mm of the 267.4 mm; the column ends 5.5 mm left of the
    # fold at 107.95 mm, and is centred up and down
    template = gutter_sheet(*LETTER, "vertical", 63.5, 88.9, "rect", 3.0, "butt", 4.0, True)
    assert (template.name, template.fold, template.marks) == ("gutter-fold", "vertical", "crop")
    assert slots(template) == [
        (38.95, 184.15, 63.5, 88.9, (3.0, 0.0, 3.0, 2.35)),  # 2.35 mm above it to the margin
        (38.95, 95.25, 63.5, 88.9, (3.0, 0.0, 3.0, 0.0)),
        (38.95, 6.35, 63.5, 88.9, (3.0, 2.35, 3.0, 0.0))]


def test_a_vertical_fold_on_landscape_letter_takes_two_by_two():
    template = gutter_sheet(*reversed(LETTER), "vertical", 63.5, 88.9, "rect", 3.0, "butt", 4.0, True)
    assert [(x, y) for x, y, *_ in slots(template)] == [(7.2, 107.95), (70.7, 107.95), (7.2, 19.05), (70.7, 19.05)]


def test_a_horizontal_fold_centres_its_row_across_the_page():
    # a 10 mm margin: 3 columns (190.5 of 191.9 mm), 2.7 mm of outer bleed at each side
    template = gutter_sheet(*LETTER, "horizontal", 63.5, 88.9, "rect", 3.0, "butt", 10.0, True)
    assert (template.fold, template.marks) == ("horizontal", "crop")
    assert slots(template) == [
        (12.7, 145.2, 63.5, 88.9, (2.7, 3.0, 0.0, 3.0)),  # the row ends 5.5 mm above the fold at 139.7
        (76.2, 145.2, 63.5, 88.9, (0.0, 3.0, 0.0, 3.0)),
        (139.7, 145.2, 63.5, 88.9, (0.0, 3.0, 2.7, 3.0))]


@pytest.mark.parametrize("bleed, crop_marks, page_h, rows", [
    (3.0, True, 279.4, 3),  # 6 mm edges: the shortest crop mark, not the whole 3 mm bleed, beyond 4 mm
    (1.0, True, 277.7, 2),  # 6 mm edges need 278.7 mm for three rows
    (1.0, False, 277.7, 3),  # no crop marks: only the 1 mm bleed beyond the margin
])
def test_the_rows_beside_a_vertical_fold_keep_room_for_crop_marks_or_the_bleed(bleed, crop_marks, page_h, rows):
    template = gutter_sheet(215.9, page_h, "vertical", 63.5, 88.9, "rect", bleed, "butt", 4.0, crop_marks)
    assert len(template.slots) == rows


def test_round_faces_beside_a_fold_get_their_outline_and_keep_margin_and_bleed():
    template = gutter_sheet(*LETTER, "horizontal", 40.0, 40.0, "circle", 3.0, "butt", 4.0, True)
    assert template.marks == "outline"
    # margin + bleed = 7 mm at the edges, 6 mm apart (twice the bleed): 4 across 201.9 mm,
    # 2 rows in the 127.2 mm above the fold's 5.5 mm
    assert [(x, y) for x, y, *_ in slots(template)] == [
        (x, y) for y in (191.2, 145.2) for x in (18.95, 64.95, 110.95, 156.95)]


def test_the_fold_line_runs_from_margin_to_margin_with_its_label_beside_it():
    assert fold_marks("vertical", *LETTER, 4.0) == [
        LineMark(107.95, 4.0, 107.95, 275.4, "fold", FOLD_DASH),
        TextMark(107.95 - 0.6, 4.0, "fold", angle=90.0)]  # up the page, left of the line
    assert fold_marks("horizontal", *LETTER, 4.0) == [
        LineMark(4.0, 139.7, 211.9, 139.7, "fold", FOLD_DASH),
        TextMark(4.0, 139.7 + 0.6, "fold")]  # along the page, above the line
