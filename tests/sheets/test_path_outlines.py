"""Path-shaped faces: their cut line follows every straight piece and curve of the path, and on
a back page (turned over on the long or the short edge, or folded along a gutter) it is the
mirror image of the front's (mutation testing found the mirroring and the curves unchecked)."""
from __future__ import annotations

import pytest

from cardgen.sheets import LineMark, SheetOptions, impose

from .helpers import by_page, card_type, pairs

# lopsided shields, 40 x 48 and 48 x 40 mm (trim mm, y down): the point 10 mm from the left
SHIELD = "M 0 0 H 40 V 24 L 10 48 L 0 24 Z"
SHIELD_POINTS = [(0, 0), (40, 0), (40, 24), (10, 48), (0, 24)]
WIDE = "M 0 0 H 48 V 20 L 10 40 L 0 20 Z"
WIDE_POINTS = [(0, 0), (48, 0), (48, 20), (10, 40), (0, 20)]


def segments(marks):
    return sorted(tuple(round(v, 6) for v in (m.x0, m.y0, m.x1, m.y1)) for m in marks
                  if isinstance(m, LineMark) and m.kind == "cut")


def outline(points):
    """The closed outline through ``points`` (page mm), one segment per side."""
    return sorted(tuple(round(v, 6) for v in (*a, *b)) for a, b in zip(points, points[1:] + points[:1]))


def on_page(slot, mirror=None, shape=SHIELD_POINTS):
    """The shield's corners on the page for a slot (y up), mirrored within the slot or not."""
    points = [(slot.x + px, slot.y + slot.h - py) for px, py in shape]
    if mirror == "x":
        points = [(2 * slot.x + slot.w - x, y) for x, y in points]
    elif mirror == "y":
        points = [(x, 2 * slot.y + slot.h - y) for x, y in points]
    return points


@pytest.mark.parametrize("options, mirror, fold", [
    (SheetOptions(paper="a4", duplex="long"), "x", None),  # turned over left to right
    (SheetOptions(paper="a4", duplex="short"), "y", None),  # turned over top to bottom
    (SheetOptions(paper="a4", layout="gutter-fold"), "gutter", "x"),  # folded along the page's centre line
    (SheetOptions(paper="a4", layout="gutter-fold"), "gutter", "y"),  # the wide shield: a horizontal fold
])
def test_a_back_pages_cut_line_is_the_mirror_image_of_the_fronts(options, mirror, fold):
    path, points = (WIDE, WIDE_POINTS) if fold == "y" else (SHIELD, SHIELD_POINTS)
    kind = card_type(*((48, 40) if fold == "y" else (40, 48)), shape=f"path:{path}")
    imposition = impose(pairs(3, kind), options)
    pages = by_page(imposition)
    fronts = [p for placements in pages.values() for p in placements if p.face.side == "front"]
    backs = [p for placements in pages.values() for p in placements if p.face.side == "back"]
    assert len(fronts) == len(backs) == 3
    if mirror == "gutter":  # fronts and backs on one page, mirrored across the fold
        (line,) = [m for m in imposition.pages[0].marks if isinstance(m, LineMark) and m.kind == "fold"]
        assert fold == ("x" if line.x0 == line.x1 else "y")
        expected = sorted(s for p in fronts for s in outline(on_page(p.slot, shape=points)))
        expected = sorted(expected + [s for p in backs for s in outline(on_page(p.slot, fold, points))])
        assert segments(imposition.pages[0].marks) == expected
        return
    front_page, back_page = imposition.pages[0], imposition.pages[1]
    assert segments(front_page.marks) == sorted(s for p in fronts for s in outline(on_page(p.slot)))
    assert segments(back_page.marks) == sorted(s for p in backs for s in outline(on_page(p.slot, mirror)))


def bezier(p0, p1, p2, p3, t):
    """A point of a cubic Bezier curve by de Casteljau's construction."""
    def lerp(a, b):
        return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
    a, b, c = lerp(p0, p1), lerp(p1, p2), lerp(p2, p3)
    d, e = lerp(a, b), lerp(b, c)
    return lerp(d, e)


def test_a_curve_is_cut_in_twelve_straight_pieces_along_it():
    # a tombstone: a flat bottom and sides, a curved top from (0, 10) to (30, 10) through (15, 0)
    path = "M 0 40 L 0 10 C 0 -3.333333 30 -3.333333 30 10 L 30 40 Z"
    kind = card_type(30, 40, shape=f"path:{path}", back=None)
    imposition = impose(pairs(1, kind, backs=False), SheetOptions(paper="a4"))
    (placement,) = imposition.placements
    slot = placement.slot
    curve = [bezier((0, 10), (0, -3.333333), (30, -3.333333), (30, 10), step / 12) for step in range(13)]
    trim = [(0, 40)] + curve + [(30, 40)]
    expected = outline([(slot.x + x, slot.y + slot.h - y) for x, y in trim])
    assert segments(imposition.pages[0].marks) == expected
    assert len(expected) == 12 + 3


def test_every_curve_of_a_path_is_cut_from_where_the_last_one_ended():
    # a leaf: two curves in a row, neither with a control point on an axis, so that every term
    # of the Bezier formula moves the cut line
    path = "M 2 30 C 4 10 20 3 28 6 C 27 20 18 33 2 30 Z"
    kind = card_type(30, 36, shape=f"path:{path}", back=None)
    imposition = impose(pairs(1, kind, backs=False), SheetOptions(paper="a4"))
    (placement,) = imposition.placements
    slot = placement.slot
    first = [bezier((2, 30), (4, 10), (20, 3), (28, 6), step / 12) for step in range(13)]
    second = [bezier((28, 6), (27, 20), (18, 33), (2, 30), step / 12) for step in range(1, 12)]
    expected = outline([(slot.x + x, slot.y + slot.h - y) for x, y in first + second])
    assert segments(imposition.pages[0].marks) == expected
    assert len(expected) == 24


def test_a_sheet_templates_rectangular_slots_get_their_outline_cut_line(tmp_path):
    # marks: outline on a YAML sheet: each used rectangle is cut along its own four edges
    (tmp_path / "s.yaml").write_text("paper: a4\nmarks: outline\nduplex: false\n"
                                     "slots:\n  - {x: 10, y: 20, w: 63.5, h: 88.9}\n", encoding="utf-8")
    imposition = impose(pairs(1, card_type(), backs=False), SheetOptions(template="s.yaml", root=tmp_path))
    (placement,) = imposition.placements
    assert (placement.slot.x, placement.slot.y) == (10.0, 297 - 20 - 88.9)
    bottom, top = 297 - 20 - 88.9, 297 - 20
    assert segments(imposition.pages[0].marks) == outline([(10, bottom), (73.5, bottom), (73.5, top), (10, top)])
