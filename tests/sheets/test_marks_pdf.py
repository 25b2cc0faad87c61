"""Crop marks measured in the PDF cardgen writes for tests/fixtures/sheets (set "tiny"): where
they start for small and large bleeds, and where they go on the back pages of a sheet template
that is not symmetric about the page's centre."""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import pdfplumber
import pytest

import cardgen
from cardgen import BuildOptions
from pdftext import page_texts

from .test_pdf import BACK, FRONT, MM, TOL, crop_marks, trims

REPO = Path(__file__).resolve().parents[2]
W, H = 63.5, 88.9
LETTER_W, LETTER_H = 215.9, 279.4
MARK_LENGTH = 5.0
MARGIN = 6.0

# Two poker cards side by side in the top-left part of a portrait letter page: the back page
# (long-edge duplex: columns mirror) has its faces, and so its cut lines, elsewhere.
ASYMMETRIC = f"""\
name: Two in the corner
paper: letter
marks: crop
slots:
  - {{x: 15, y: 20, w: {W}, h: {H}}}
  - {{x: {15 + W}, y: 20, w: {W}, h: {H}}}
"""


def tiny_project(tmp_path: Path, bleed: float = 3.0) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(REPO / "tests" / "fixtures" / "sheets", root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    set_file = root / "data" / "tiny" / "set.yaml"
    text = set_file.read_text(encoding="utf-8")
    assert text.count("\nbleed: 3\n") == 1
    set_file.write_text(text.replace("\nbleed: 3\n", f"\nbleed: {bleed}\n"), encoding="utf-8")
    return root


def build(root: Path, **options) -> Path:
    cardgen.build(["tiny"], root=root, out=root / "out", options=BuildOptions(cache=False, **options))
    return root / "out" / "tiny.pdf"


def split(marks):
    vertical = [m for m in marks if abs(m[2] - m[0]) < TOL]
    horizontal = [m for m in marks if abs(m[3] - m[1]) < TOL]
    assert len(vertical) + len(horizontal) == len(marks)
    return vertical, horizontal


def bounds(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def measured_marks(pdf_path):
    """The front page's grid (from the faces' outlines) and its crop marks beyond each side."""
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        grid = bounds(list(trims(page, FRONT).values()))
        vertical, horizontal = split(crop_marks(page))
        size = (page.width * MM, page.height * MM)
    x0, y0, x1, y1 = grid
    sides = {"below": [m for m in vertical if m[3] < y0], "above": [m for m in vertical if m[1] > y1],
             "left": [m for m in horizontal if m[2] < x0], "right": [m for m in horizontal if m[0] > x1]}
    assert sum(len(marks) for marks in sides.values()) == len(vertical) + len(horizontal)
    # (near, far): each mark's distance from the trim, at its two ends
    spans = {"below": [(y0 - m[3], y0 - m[1]) for m in sides["below"]],
             "above": [(m[1] - y1, m[3] - y1) for m in sides["above"]],
             "left": [(x0 - m[2], x0 - m[0]) for m in sides["left"]],
             "right": [(m[0] - x1, m[2] - x1) for m in sides["right"]]}
    return size, grid, spans


def flat(pairs):
    return [v for pair in pairs for v in pair]


@pytest.mark.parametrize("bleed, start", [(0, 2.0), (0.5, 2.0), (1, 2.0), (3, 3.5)])
def test_crop_marks_start_2_mm_beyond_the_trim_or_half_a_mm_beyond_a_larger_bleed(tmp_path, bleed, start):
    # A paper with 20 mm round the 3 x 3 poker grid: room for whole marks beyond the bleed.
    paper = (round(3 * W + 40, 2), round(3 * H + 40, 2))
    size, grid, spans = measured_marks(build(tiny_project(tmp_path, bleed), paper=paper))
    assert size == pytest.approx(paper, abs=TOL)
    assert grid == pytest.approx((20, 20, 20 + 3 * W, 20 + 3 * H), abs=TOL)
    assert {side: len(found) for side, found in spans.items()} == {"below": 4, "above": 4, "left": 4, "right": 4}
    for side, found in spans.items():  # every mark: from `start` beyond the trim, 5 mm long
        assert flat(found) == pytest.approx(flat([(start, start + MARK_LENGTH)] * 4), abs=TOL), side


@pytest.mark.parametrize("bleed, start", [(0, 2.0), (0.5, 2.0), (1, 2.0), (3, 3.5)])
def test_on_letter_marks_reach_from_the_margin_into_the_bleed_only_where_the_grid_leaves_no_room(
        tmp_path, bleed, start):
    # 3 x 3 poker cards on portrait letter leave 6.35 mm above and below the grid: less than a
    # mark beyond the bleed needs, so those marks run from the 4 mm margin to 0.5 mm short of the
    # trim (over the outer bleed, which is cut away); left and right, 12.7 mm: beyond the bleed.
    size, grid, spans = measured_marks(build(tiny_project(tmp_path, bleed)))
    assert size == pytest.approx((LETTER_W, LETTER_H), abs=TOL)
    room_x, room_y = (LETTER_W - 3 * W) / 2, (LETTER_H - 3 * H) / 2
    assert grid == pytest.approx((room_x, room_y, room_x + 3 * W, room_y + 3 * H), abs=TOL)
    home_margin = 4.0
    for side in ("below", "above"):
        assert flat(spans[side]) == pytest.approx(flat([(0.5, room_y - home_margin)] * 4), abs=TOL), side
    for side in ("left", "right"):
        assert flat(spans[side]) == pytest.approx(flat([(start, start + MARK_LENGTH)] * 4), abs=TOL), side


def test_back_pages_of_an_asymmetric_template_get_marks_on_their_own_cut_lines(tmp_path):
    root = tiny_project(tmp_path)
    (root / "data" / "tiny" / "sheets" / "corner.yaml").write_text(ASYMMETRIC, encoding="utf-8")
    with pdfplumber.open(build(root, sheet="sheets/corner.yaml", duplex="long")) as pdf:
        front_page, back_page = pdf.pages[0], pdf.pages[1]
        fronts, backs = trims(front_page, FRONT), trims(back_page, BACK)
        front_marks, back_marks = crop_marks(front_page), crop_marks(back_page)
    assert (front_page.width * MM, front_page.height * MM) == pytest.approx((LETTER_W, LETTER_H), abs=TOL)
    top = LETTER_H - 20
    assert fronts == {"Alpha": pytest.approx((15, top - H, 15 + W, top), abs=TOL),
                      "Bravo": pytest.approx((15 + W, top - H, 15 + 2 * W, top), abs=TOL)}
    # Long-edge duplex on a portrait page mirrors the columns: Alpha's back is on the right.
    right = LETTER_W - 15
    assert backs == {"Alpha": pytest.approx((right - W, top - H, right, top), abs=TOL),
                     "Bravo": pytest.approx((right - 2 * W, top - H, right - W, top), abs=TOL)}
    for page_marks, faces, cut_x in ((front_marks, fronts, [15, 15 + W, 15 + 2 * W]),
                                     (back_marks, backs, [right - 2 * W, right - W, right])):
        vertical, horizontal = split(page_marks)
        x0, y0, x1, y1 = bounds(list(faces.values()))
        # A mark at both ends of every cut line of the faces on this very page...
        assert sorted(m[0] for m in vertical) == pytest.approx(sorted(cut_x * 2), abs=TOL)
        assert sorted(m[1] for m in horizontal) == pytest.approx(sorted([y0, y0, y1, y1]), abs=TOL)
        # ... starting 3.5 mm beyond them (3 mm bleed + 0.5 mm), never on a face or its bleed.
        assert sorted(round(m[1] - y1, 2) for m in vertical if m[1] > y1) == [3.5] * 3
        assert sorted(round(y0 - m[3], 2) for m in vertical if m[3] < y0) == [3.5] * 3
        assert sorted(round(x0 - m[2], 2) for m in horizontal if m[2] < x0) == [3.5] * 2
        assert sorted(round(m[0] - x1, 2) for m in horizontal if m[0] > x1) == [3.5] * 2
        for m in page_marks:
            for (bx0, by0, bx1, by1) in faces.values():
                assert not (m[0] <= bx1 + 3 and m[2] >= bx0 - 3 and m[1] <= by1 + 3 and m[3] >= by0 - 3)


def test_cut_lines_run_from_margin_to_margin_along_every_cut_line(tmp_path):
    with pdfplumber.open(build(tiny_project(tmp_path), cut_lines=True)) as pdf:
        page = pdf.pages[0]
        faces = list(trims(page, FRONT).values())
        page_w, page_h = page.width * MM, page.height * MM
        lines = [m for m in crop_marks(page)
                 if (m[2] - m[0]) > page_w - 2 * 4.0 - TOL or (m[3] - m[1]) > page_h - 2 * 4.0 - TOL]
    vertical, horizontal = split(lines)
    # One line along every edge of every face, from the 4 mm margin to the opposite one.
    cut_x = sorted({round(v, 1) for box in faces for v in (box[0], box[2])})
    cut_y = sorted({round(v, 1) for box in faces for v in (box[1], box[3])})
    assert len(faces) == 9 and len(cut_x) == len(cut_y) == 4  # 3 x 3 poker cards, butted
    assert sorted(m[0] for m in vertical) == pytest.approx(cut_x, abs=TOL + 0.05)
    assert sorted(m[1] for m in horizontal) == pytest.approx(cut_y, abs=TOL + 0.05)
    for m in vertical:
        assert (m[1], m[3]) == pytest.approx((4.0, page_h - 4.0), abs=TOL)
    for m in horizontal:
        assert (m[0], m[2]) == pytest.approx((4.0, page_w - 4.0), abs=TOL)


# A set's own A3 template: three single slots with gaps of 4 mm (A|B) and 2 mm (A over C), and a
# grid of two slots 10 mm apart whose art may reach only 1 mm ("waste: 1").
ROOMS = f"""\
name: Rooms
paper: a3
slots:
  - {{x: 20, y: 20, w: {W}, h: {H}}}
  - {{x: {20 + W + 4}, y: 20, w: {W}, h: {H}}}
  - {{x: 20, y: {20 + H + 2}, w: {W}, h: {H}}}
grid: {{w: {W}, h: {H}, nx: 2, ny: 1, x0: 20, y0: 220, dx: {W + 10}, waste: 1}}
"""
# The fronts' backgrounds, printed to the edge of the bleed: neighbours in another colour, so that
# where one face's art ends shows even where it meets the next one's.
FILLS = {"Alpha": (0xDD, 0xE4, 0xF0), "Bravo": (0xF0, 0xDD, 0xE4), "Charlie": (0xF0, 0xDD, 0xE4),
         "Delta": (0xDD, 0xE4, 0xF0), "Echo": (0xF0, 0xDD, 0xE4)}
DPI = 400


def art_reach(image, trim, page_h, fill):
    """How far (mm) the face's background prints beyond its trim: (left, bottom, right, top),
    measured along the middle row and column of the rendered page."""
    k = DPI / 25.4  # pixels per mm
    x0, y0, x1, y1 = trim
    row, column = round((page_h - (y0 + y1) / 2) * k), round((x0 + x1) / 2 * k)

    def is_fill(x, y):
        return all(abs(a - b) <= 12 for a, b in zip(image.getpixel((x, y))[:3], fill))

    def reach(start_mm, direction, along_row):
        """From just outside the trim's outline (0.2 mm wide, centred on the trim) to the
        first pixel that is not the face's background."""
        outside = 0.25
        for step in range(int(6 * k)):
            mm = start_mm + direction * (outside + step / k)
            x, y = (round(mm * k), row) if along_row else (column, round((page_h - mm) * k))
            if not is_fill(x, y):
                return outside + step / k
        return math.inf

    return (reach(x0, -1, True), reach(y0, -1, False), reach(x1, 1, True), reach(y1, 1, False))


def test_art_reaches_half_the_gap_to_a_neighbour_the_bleed_at_open_edges_and_no_more_than_the_waste(tmp_path):
    import pypdfium2 as pdfium

    root = tiny_project(tmp_path)
    (root / "data" / "tiny" / "sheets" / "rooms.yaml").write_text(ROOMS, encoding="utf-8")
    front = root / "templates" / "tiny" / "front.xml.j2"
    colours = {name: "#%02x%02x%02x" % rgb for name, rgb in FILLS.items()}
    assert front.read_text(encoding="utf-8").count('fill="#dde4f0"') == 1
    front.write_text(front.read_text(encoding="utf-8").replace(
        'fill="#dde4f0"', 'fill="{{ %r.get(name, \'#dde4f0\') }}"' % colours), encoding="utf-8")
    pdf_path = build(root, sheet="sheets/rooms.yaml")
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        page_h = page.height * MM
        fronts = trims(page, FRONT)
    document = pdfium.PdfDocument(str(pdf_path))
    try:
        image = document[0].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()
    top = 420 - 20
    assert fronts == {
        "Alpha": pytest.approx((20, top - H, 20 + W, top), abs=TOL),
        "Bravo": pytest.approx((24 + W, top - H, 24 + 2 * W, top), abs=TOL),
        "Charlie": pytest.approx((20, top - 2 * H - 2, 20 + W, top - H - 2), abs=TOL),
        "Delta": pytest.approx((20, 200 - H, 20 + W, 200), abs=TOL),
        "Echo": pytest.approx((30 + W, 200 - H, 30 + 2 * W, 200), abs=TOL)}
    reaches = {name: art_reach(image, trim, page_h, FILLS[name]) for name, trim in fronts.items()}
    assert reaches == {  # (left, bottom, right, top), mm; the bleed is 3 mm
        "Alpha": pytest.approx((3, 1, 2, 3), abs=0.15),
        "Bravo": pytest.approx((2, 3, 3, 3), abs=0.15),
        "Charlie": pytest.approx((3, 3, 3, 1), abs=0.15),
        "Delta": pytest.approx((1, 1, 1, 1), abs=0.15),
        "Echo": pytest.approx((1, 1, 1, 1), abs=0.15)}


def test_the_fold_line_runs_margin_to_margin_with_its_label_just_above_it(tmp_path):
    with pdfplumber.open(build(tiny_project(tmp_path), layout="gutter-fold")) as pdf:
        page = pdf.pages[0]
        page_w, page_h = page.width * MM, page.height * MM
        folds = [line for line in page.lines if line.get("dash") and line["dash"][0]]
        label = [c for c in page.chars if c["text"] in "fold" and abs(c["matrix"][5] * MM - page_h / 2) < 3]
    assert len(folds) == 1  # a horizontal fold across the middle of the page
    fold = folds[0]
    assert (fold["x0"] * MM, fold["x1"] * MM) == pytest.approx((4.0, page_w - 4.0), abs=TOL)
    assert (page.height - fold["top"]) * MM == pytest.approx(page_h / 2, abs=TOL)
    # "fold" upright, its baseline 0.6 mm above the line, starting at the 4 mm margin.
    assert "".join(c["text"] for c in label) == "fold"
    first = label[0]
    assert first["upright"] and (first["matrix"][4] * MM, first["matrix"][5] * MM) == pytest.approx(
        (4.0, page_h / 2 + 0.6), abs=TOL)


def test_a_paper_just_wide_enough_for_the_grid_and_its_shortest_marks_gets_them_over_the_bleed(tmp_path):
    # 202.5 mm = 3 poker cards + 2 x (4 mm margin + 2 mm): beside the grid exactly the room of
    # the shortest mark drawn over the outer bleed, from the margin to 0.5 mm short of the trim
    # (1.5 mm long); above and below 16.65 mm, whole marks beyond the bleed.
    size, grid, spans = measured_marks(build(tiny_project(tmp_path), paper=(202.5, 300)))
    assert size == pytest.approx((202.5, 300), abs=TOL)
    assert grid == pytest.approx((6.0, 16.65, 6.0 + 3 * W, 16.65 + 3 * H), abs=TOL)
    for side in ("left", "right"):
        assert flat(spans[side]) == pytest.approx(flat([(0.5, 2.0)] * 4), abs=TOL), side
    for side in ("below", "above"):
        assert flat(spans[side]) == pytest.approx(flat([(3.5, 3.5 + MARK_LENGTH)] * 4), abs=TOL), side


def test_each_sheet_prints_its_own_faces_and_note_only(tmp_path):
    # 2 x 2 poker cards a page: the first two sheets have the same marks and note, whose drawing
    # the writer reuses; the second must not carry the first's faces with them.
    texts = [text.split() for text in page_texts(build(tiny_project(tmp_path), paper=(150, 200)))]
    front_note, back_note = "Print double-sided, flip on long edge".split(), "Back side: flip on long edge".split()
    assert texts == [
        ["Alpha", "Bravo", "Charlie", "Delta", *front_note], ["Bravo", "Alpha", "Delta", "Charlie", *back_note],
        ["Echo", "Foxtrot", "Golf", "Hotel", *front_note], ["Foxtrot", "Echo", "Hotel", "Golf", *back_note],
        ["India", *front_note], ["India", *back_note],
        front_note, "Back side: blank (the front has no backs)".split()]
