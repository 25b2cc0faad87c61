"""A sheet template in YAML, slot by slot: the pitch defaults to the slot size, and art reaches
the grid's waste, never past half the gap to a neighbour, and without a waste as far as the page
allows (mutation testing found the waste and the default pitch unchecked)."""
from __future__ import annotations

import math

import pytest

from cardgen.errors import CardgenError
from cardgen.sheets.labels import load_template


def sheet(tmp_path, grid):
    (tmp_path / "s.yaml").write_text(f"paper: a4\ngrid: {grid}\n", encoding="utf-8")
    return load_template("s.yaml", tmp_path)


def test_without_a_pitch_slots_touch(tmp_path):
    slots = sheet(tmp_path, "{w: 50, h: 30, nx: 2, ny: 2, x0: 10, y0: 20}").slots
    assert [(s.x, s.y) for s in slots] == [(10.0, 247.0), (60.0, 247.0), (10.0, 217.0), (60.0, 217.0)]
    # touching slots: no room between them; at the grid's outer edges, no waste: unlimited
    assert slots[0].room == (math.inf, 0.0, 0.0, math.inf)


def test_the_waste_limits_the_room_and_half_the_gap_limits_the_waste(tmp_path):
    slots = sheet(tmp_path, "{w: 50, h: 30, nx: 2, ny: 2, x0: 10, y0: 20, dx: 60, dy: 36, waste: 2.5}").slots
    # gaps of 10 mm across (half: 5) and 6 mm up and down (half: 3): the 2.5 mm waste everywhere
    assert {s.room for s in slots} == {(2.5, 2.5, 2.5, 2.5)}
    slots = sheet(tmp_path, "{w: 50, h: 30, nx: 2, ny: 2, x0: 10, y0: 20, dx: 60, dy: 36, waste: 4}").slots
    assert slots[0].room == (4.0, 3.0, 4.0, 4.0)  # half the 6 mm gap below, the waste elsewhere


def test_a_yml_file_is_a_sheet_template_and_a_slot_may_touch_the_top_edge(tmp_path):
    (tmp_path / "s.yml").write_text("paper: a4\ngrid: {w: 50, h: 30, nx: 1, ny: 1, x0: 10, y0: 0}\n", encoding="utf-8")
    assert [(s.x, s.y) for s in load_template("s.yml", tmp_path).slots] == [(10.0, 267.0)]


@pytest.mark.parametrize("size, message", [
    ("w: 0, h: 30", "s.yaml:2: w must be greater than 0, got 0"),
    ("w: 50, h: 0", "s.yaml:2: h must be greater than 0, got 0"),
])
def test_a_slot_without_size_is_refused(tmp_path, size, message):
    with pytest.raises(CardgenError) as caught:
        sheet(tmp_path, f"{{{size}, nx: 1, ny: 1, x0: 10, y0: 10}}")
    assert str(caught.value) == message
