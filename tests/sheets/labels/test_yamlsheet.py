"""A set's own sheet template in YAML (cardgen/sheets/labels/yamlsheet.py), key by key: paper,
orientation, marks, duplex, name, grids and single slots as they land on the page, and every
message naming file and line (mutation testing found these unchecked)."""
from __future__ import annotations

import math

import pytest

from cardgen.errors import CardgenError
from cardgen.sheets import SheetOptions, impose
from cardgen.sheets.labels import load_template

from ..helpers import card_type, pairs


def sheet(tmp_path, text, file="s.yaml"):
    (tmp_path / file).write_text(text, encoding="utf-8")
    return load_template(file, tmp_path)


def refused(tmp_path, text) -> str:
    with pytest.raises(CardgenError) as caught:
        sheet(tmp_path, text)
    return str(caught.value)


def placed(template):
    return [(s.shape, s.x, s.y, s.w, s.h) for s in template.slots]


def test_paper_of_its_own_size_turned_to_landscape_with_its_settings(tmp_path):
    template = sheet(tmp_path, "name: 42\npaper: {w: 10cm, h: 150}\norientation: landscape\nmarks: outline\n"
                               "duplex: false\nslots:\n  - {x: 5, y: 10, w: 20, h: 30}\n")
    assert (template.name, template.w, template.h, template.marks, template.duplex) == ("42", 150.0, 100.0,
                                                                                          "outline", False)
    assert placed(template) == [("rect", 5.0, 60.0, 20.0, 30.0)]


def test_by_default_a_letter_portrait_sheet_with_crop_marks_printed_both_sides_named_after_its_file(tmp_path):
    template = sheet(tmp_path, "slots:\n  - {x: 5, y: 10, w: 20, h: 30}\n", file="Token sprue.yaml")
    assert (template.name, template.w, template.h, template.marks, template.duplex) == (
        "Token sprue", 215.9, 279.4, "crop", True)
    assert sheet(tmp_path, "marks: none\nslots:\n  - {x: 5, y: 10, w: 20, h: 30}\n").marks == "none"


def test_grids_and_slots_land_row_by_row_from_the_top_left(tmp_path):
    template = sheet(tmp_path, "paper: a4\n"
                               "grid:\n"
                               "  - {shape: circle, d: 20, nx: 2, ny: 2, x0: 100, y0: 10, dx: 30}\n"
                               "  - {w: 20, h: 10, nx: 1, ny: 2, x0: 10, y0: 15, dy: 12, waste: 1}\n"
                               "slots:\n"
                               "  - {x: 50, y: 5, w: 20, h: 30, waste: 0.5}\n"
                               "  - {x: 60, y: 200, d: 8, shape: circle}\n")
    assert placed(template) == [
        ("rect", 50.0, 262.0, 20.0, 30.0),  # top 5 mm down
        ("circle", 100.0, 267.0, 20.0, 20.0), ("circle", 130.0, 267.0, 20.0, 20.0),  # tops 10 mm down
        ("rect", 10.0, 272.0, 20.0, 10.0),  # top 15 mm down, though its bottom is higher
        ("rect", 10.0, 260.0, 20.0, 10.0),  # 12 mm lower: dy given
        ("circle", 100.0, 247.0, 20.0, 20.0), ("circle", 130.0, 247.0, 20.0, 20.0),  # dy: the diameter
        ("circle", 60.0, 89.0, 8.0, 8.0)]
    rooms = {(s.x, s.y): s.room for s in template.slots}
    assert rooms[(10.0, 272.0)] == (1.0, 1.0, 1.0, 1.0)  # its waste; the gap below is 2 mm
    assert rooms[(50.0, 262.0)] == (0.5, 0.5, 0.5, 0.5)


def test_a_face_too_large_for_the_slots_names_the_template(tmp_path):
    (tmp_path / "small.yaml").write_text("paper: a4\nslots:\n  - {x: 5, y: 10, w: 20, h: 30}\n", encoding="utf-8")
    with pytest.raises(CardgenError) as caught:
        impose(pairs(1, card_type(line=12), backs=False),
               SheetOptions(template="small.yaml", root=tmp_path, template_everywhere=True))
    assert str(caught.value) == ('data/t/set.yaml:12: card "c1": a 63.5 x 88.9 mm card does not fit the '
                                 "20 x 30 mm labels of sheet template small")


def test_the_slot_limit_counts_a_grids_slots(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_MAX_SHEET_SLOTS", "6")
    assert len(sheet(tmp_path, "paper: a4\ngrid: {w: 5, h: 5, nx: 2, ny: 3, x0: 1, y0: 1}\n").slots) == 6
    assert refused(tmp_path, "paper: a4\ngrid:\n  w: 5\n  h: 5\n  nx: 3\n  ny: 3\n  x0: 1\n  y0: 1\n") == (
        "s.yaml:6: the grid has 3 x 3 = 9 slots; limit: slots on one sheet template (nx x ny), "
        "CARDGEN_MAX_SHEET_SLOTS=6 (set that environment variable higher to raise it)")


@pytest.mark.parametrize("slot, where", [
    ("{x: 0, y: 0, w: 210.000002, h: 10}", "0, 0"),
    ("{x: 0, y: 0, w: 10, h: 297.000002}", "0, 0"),
    ("{x: 100, y: 280, w: 10, h: 18}", "100, 280"),
    ("{x: 201, y: 5, w: 10, h: 10}", "201, 5"),
])
def test_a_slot_past_an_edge_of_the_page(tmp_path, slot, where):
    assert refused(tmp_path, f"paper: a4\nslots:\n  - {slot}\n") == (
        f"s.yaml:1: a slot at {where} mm lies off the 210 x 297 mm page")


def test_a_slot_may_fill_the_page_to_a_millionth_of_a_millimetre(tmp_path):
    template = sheet(tmp_path, "paper: a4\nslots:\n  - {x: 0, y: 0, w: 210.0000009, h: 297.0000009}\n")
    assert placed(template) == [("rect", 0.0, pytest.approx(-9e-7), 210.0000009, 297.0000009)]


@pytest.mark.parametrize("text, message", [
    ("", "s.yaml: a sheet template is a mapping with paper, grid and/or slots"),
    ("paper: a4\norientation: sideways\nslots: []\n",
     's.yaml:2: orientation must be one of portrait, landscape, got "sideways"'),
    ("paper: a4\nmarks: crops\nslots: []\n", 's.yaml:2: marks must be one of crop, outline, none, got "crops"'),
    ("paper: a4\n\nduplex: maybe\nslots: []\n", "s.yaml:3: duplex must be true or false, got \"maybe\""),
    ("paper: a4\ngrid: 3\n", "s.yaml:2: grid must be a mapping or a list of mappings"),
    ("paper: a4\ngrid: [{w: 5, h: 5, nx: 1, ny: 1, x0: 1, y0: 1}, 4]\n",
     "s.yaml:2: grid must be a mapping or a list of mappings"),
    ("paper: a4\nslots: {x: 1, y: 1, w: 5, h: 5}\n", "s.yaml:2: slots must be a mapping or a list of mappings"),
    ("paper: a4\nslots: [x]\n", "s.yaml:2: slots must be a mapping or a list of mappings"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 5, h: 5, shape: hex}\n",
     's.yaml:3: shape must be one of rect, circle, got "hex"'),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 5, h: 5, shape: circle}\n", "s.yaml:3: missing d"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 5}\n", "s.yaml:3: missing h"),
    ("paper: a4\nslots:\n  - {y: 1, w: 5, h: 5}\n", "s.yaml:3: missing x"),
    ("paper: a4\nslots:\n  - {x: 1, w: 5, h: 5}\n", "s.yaml:3: missing y"),
    ("paper: a4\nslots:\n  - {x: 1, y: -2, w: 5, h: 5}\n", "s.yaml:3: y must be 0 or more, got -2"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 5, h: -5}\n", "s.yaml:3: h must be greater than 0, got -5"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 5, h: 0}\n", "s.yaml:3: h must be greater than 0, got 0"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 5,\n     h: 5, waste: lots}\n",
     's.yaml:4: waste: expected a length such as "12", "12mm", "0.5in" or "10pt", got "lots"'),
    ("paper: {w: 300, h: tall}\nslots: []\n",
     's.yaml:1: h: expected a length such as "12", "12mm", "0.5in" or "10pt", got "tall"'),
    ("paper: {h: 300}\nslots: []\n", "s.yaml:1: missing w"),
    ("name: Sprue\npaper: b5\nslots: []\n", 's.yaml:2: unknown paper "b5" (choose letter, a4, a3 or give (w, h) in mm)'),
    ("paper: a4\ngrid:\n  shape: circle\n  nx: 1\n  ny: 1\n  x0: 1\n  y0: 1\n", "s.yaml:3: missing d"),
    ("paper: a4\ngrid:\n  w: 5\n  h: 5\n  nx: 1\n  ny: 1\n  y0: 1\n", "s.yaml:3: missing x0"),
    ("paper: a4\ngrid:\n  w: 5\n  h: 5\n  nx: 1\n  ny: 1\n  x0: 1\n", "s.yaml:3: missing y0"),
    ("paper: a4\ngrid:\n  w: 5\n  h: 5\n  nx: 1\n  ny: 1\n  x0: 1\n  y0: 1\n  dx: -3\n",
     "s.yaml:9: dx must be 0 or more, got -3"),
    ("paper: a4\ngrid:\n  w: 5\n  h: 5\n  nx: 1\n  ny: 2\n  x0: 1\n  y0: 1\n  dy: 1in!\n",
     's.yaml:9: dy: expected a length such as "12", "12mm", "0.5in" or "10pt", got "1in!"'),
    ("paper: a4\ngrid:\n  w: 5\n  h: 5\n  nx: 1\n  ny: 1\n  x0: 1\n  y0: 1\n  waste: -0.5\n",
     "s.yaml:9: waste must be 0 or more, got -0.5"),
    ("paper: a4\ngrid:\n  w: 5\n  h: 5\n  ny: 1\n  x0: 1\n  y0: 1\n",
     "s.yaml:3: nx must be a whole number of 1 or more, got null"),
    ("paper: a4\ngrid:\n  w: 5\n  h: 5\n  nx: true\n  ny: 1\n  x0: 1\n  y0: 1\n",
     "s.yaml:5: nx must be a whole number of 1 or more, got true"),
    ("paper: a4\ngrid:\n  w: 5\n  h: 5\n  nx: 1\n  ny: 2.5\n  x0: 1\n  y0: 1\n",
     "s.yaml:6: ny must be a whole number of 1 or more, got 2.5"),
    ("paper: a4\ngrid:\n  w: 5\n  h: 5\n  nx: 1\n  ny: -1\n  x0: 1\n  y0: 1\n",
     "s.yaml:6: ny must be a whole number of 1 or more, got -1"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 5, h: 5}\n  - {x: 1, y: 1, w: 5, h: 5, d: 3, nx: 2}\n",
     's.yaml:4: slot: unknown key "nx" (known: d, h, shape, w, waste, x, y)'),
])
def test_bad_templates_name_file_and_line(tmp_path, text, message):
    assert refused(tmp_path, text) == message


def test_zero_is_a_pitch_a_waste_and_a_position(tmp_path):
    template = sheet(tmp_path, "paper: a4\ngrid: {w: 5, h: 5, nx: 2, ny: 1, x0: 0, y0: 0, dx: 0, waste: 0}\n")
    assert placed(template) == [("rect", 0.0, 292.0, 5.0, 5.0)] * 2
    assert {s.room for s in template.slots} == {(0.0, 0.0, 0.0, 0.0)}
    template = sheet(tmp_path, "paper: a4\ngrid: {w: 5, h: 5, nx: 1, ny: 1, x0: 0, y0: 0}\n")
    assert template.slots[0].room == (math.inf,) * 4


def test_rows_are_told_apart_by_their_tops_to_a_millionth_of_a_millimetre(tmp_path):
    def lefts(top_of_second):
        return [s.x for s in sheet(tmp_path, "paper: a4\nslots:\n  - {x: 100, y: 10, w: 20, h: 30}\n"
                                             f"  - {{x: 10, y: {top_of_second}, w: 20, h: 10}}\n").slots]
    # tops 0.4 mm apart: two rows (the higher first), though the lower slot's bottom is higher
    assert lefts(10.4) == [100.0, 10.0]
    assert lefts(10.000002) == [100.0, 10.0]
    assert lefts(10.0000001) == [10.0, 100.0]  # one row: ordered across


def test_slots_of_one_row_are_ordered_across_however_close(tmp_path):
    template = sheet(tmp_path, "paper: a4\nslots:\n  - {x: 10.4, y: 5, w: 0.3, h: 0.3}\n"
                               "  - {x: 10, y: 5, w: 0.3, h: 0.3}\n  - {x: 9.6, y: 5, w: 0.3, h: 0.3}\n")
    assert [s.x for s in template.slots] == [9.6, 10.0, 10.4]
