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


def rooms(tmp_path, slots):
    """Each slot's room (left, bottom, right, top), in the order the slots are listed (their
    x, y from the page's left and top edges, 20 x 20 mm unless a circle's d is given)."""
    entries = "".join(f"  - {{x: {x}, y: {y}, {size}}}\n" for x, y, size in slots)
    (tmp_path / "s.yaml").write_text(f"paper: a4\nslots:\n{entries}", encoding="utf-8")
    template = load_template("s.yaml", tmp_path)
    by_corner = {(round(s.x, 6), round(297 - s.y - s.h, 6)): s.room for s in template.slots}
    return [by_corner[(float(x), float(y))] for x, y, _ in slots]


SQUARE, ROUND = "w: 20, h: 20", "d: 20, shape: circle"
INF = math.inf


@pytest.mark.parametrize("slots, expected", [
    # a circle beside a rectangle: both keep half the 10 mm gap between them on every side
    ([(10, 10, SQUARE), (40, 10, ROUND)], [(5.0,) * 4, (5.0,) * 4]),
    # touching circles: no room at all
    ([(10, 10, ROUND), (30, 10, ROUND)], [(0.0,) * 4, (0.0,) * 4]),
    # three circles, the nearest listed last: each still keeps to its nearest neighbour
    ([(10, 10, ROUND), (100, 10, ROUND), (35, 10, ROUND)], [(2.5,) * 4, (22.5,) * 4, (2.5,) * 4]),
    # a neighbour touching only at a corner (across or down), 10 mm away the other way: no limit
    ([(10, 10, SQUARE), (40, 30, SQUARE)], [(INF,) * 4, (INF,) * 4]),
    ([(10, 10, SQUARE), (30, 40, SQUARE)], [(INF,) * 4, (INF,) * 4]),
    # a neighbour beside it by only half a millimetre: still a neighbour, 10 mm away
    ([(10, 10, SQUARE), (40, 29.5, SQUARE)], [(INF, INF, 5.0, INF), (5.0, INF, INF, INF)]),
    ([(10, 10, SQUARE), (29.5, 40, SQUARE)], [(INF, 5.0, INF, INF), (INF, INF, INF, 5.0)]),
    # slots overlapping by half a millimetre: neither beside nor above the other, no limit
    ([(10, 10, SQUARE), (10, 29.5, SQUARE)], [(INF,) * 4, (INF,) * 4]),
    ([(10, 10, SQUARE), (29.5, 10, SQUARE)], [(INF,) * 4, (INF,) * 4]),
    # a slot with neighbours 2 mm above, 6 right, 10 below and 14 left of it: half of each
    ([(50, 50, SQUARE), (50, 28, SQUARE), (76, 50, SQUARE), (50, 80, SQUARE), (16, 50, SQUARE)],
     [(7.0, 5.0, 3.0, 1.0), (INF, 1.0, INF, INF), (3.0, INF, INF, INF), (INF, INF, INF, 5.0),
      (INF, INF, 7.0, INF)]),
])
def test_each_slot_keeps_half_the_gap_to_its_nearest_neighbour_on_each_side(tmp_path, slots, expected):
    assert rooms(tmp_path, slots) == expected


def test_touching_slots_have_no_room_where_they_meet(tmp_path):
    slots = sheet(tmp_path, "{w: 50, h: 30, nx: 2, ny: 2, x0: 10, y0: 20}").slots
    assert [s.room for s in slots] == [(INF, 0.0, 0.0, INF), (0.0, 0.0, INF, INF), (INF, INF, 0.0, 0.0),
                                       (0.0, INF, INF, 0.0)]
