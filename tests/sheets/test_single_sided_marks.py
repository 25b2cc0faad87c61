"""A single-sided sheet template with crop marks (each face's back in the next slot): its pages
get crop marks at both ends of the cut lines of the slots they use, outside the whole grid."""
from __future__ import annotations

from cardgen.sheets import LineMark, SheetOptions, impose

from .helpers import card_type, pairs

SHEET = """\
name: Single
paper: a4
marks: crop
duplex: false
grid: {w: 50, h: 30, nx: 2, ny: 2, x0: 20, y0: 30, dx: 60, dy: 40}
"""


def crop_marks(page):
    return sorted((round(m.x0, 6), round(m.y0, 6), round(m.x1, 6), round(m.y1, 6), m.halo) for m in page.marks if isinstance(m, LineMark) and m.kind == "crop")


def test_single_sided_pages_get_crop_marks_of_the_slots_they_use(tmp_path):
    (tmp_path / "single.yaml").write_text(SHEET, encoding="utf-8")
    imposition = impose(pairs(3, card_type(50, 30, bleed=2.0)),
                        SheetOptions(template="single.yaml", root=tmp_path, margin=4.0))
    assert [(p.face.card.name, p.face.side, p.slot.page) for p in imposition.placements] == [
        ("c1", "front", 1), ("c1", "back", 1), ("c2", "front", 1), ("c2", "back", 1),
        ("c3", "front", 2), ("c3", "back", 2)]
    # cut lines at x 20, 70, 80, 130 and y 197, 227 (the lower row), 237, 267 (mm from the
    # bottom-left); marks start 2.5 mm beyond the grid (the 2 mm bleed and 0.5 mm) and are 5 mm long
    def vertical(xs):
        return [(x, 189.5, x, 194.5, False) for x in xs] + [(x, 269.5, x, 274.5, False) for x in xs]

    def horizontal(ys):
        return [(12.5, y, 17.5, y, False) for y in ys] + [(132.5, y, 137.5, y, False) for y in ys]

    first, second = imposition.pages
    assert crop_marks(first) == sorted(vertical([20, 70, 80, 130]) + horizontal([197, 227, 237, 267]))
    assert crop_marks(second) == sorted(vertical([20, 70, 80, 130]) + horizontal([237, 267]))
