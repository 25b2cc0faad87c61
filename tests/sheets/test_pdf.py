"""Measured from the PDF that cardgen.build writes for tests/fixtures/sheets (set "tiny": nine
poker cards with a shared back, twelve 1/2 in round tokens). Each face outlines its trim box
with a 0.2 mm stroke, magenta on fronts and cyan on backs, and prints its card's name."""
from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

import cardgen
from cardgen import BuildOptions

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

REPO = Path(__file__).resolve().parents[2]
MM = 25.4 / 72  # mm per point
TOL = 0.05  # mm
FRONT, BACK, BLACK = (1.0, 0.0, 1.0), (0.0, 1.0, 1.0), (0.0, 0.0, 0.0, 1.0)
W, H = 63.5, 88.9


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("sheets") / "proj"
    shutil.copytree(REPO / "tests" / "fixtures" / "sheets", root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    return root


def build(project: Path, name: str, **options) -> Path:
    out = project / "out" / name
    cardgen.build(["tiny"], root=project, out=out, options=BuildOptions(**options))
    return out / "tiny.pdf"


def color(obj):
    value = obj.get("stroking_color")
    return tuple(round(v, 3) for v in value) if isinstance(value, (tuple, list)) else value


def mm_box(obj, page_h_pt):
    """(x0, y0, x1, y1) in mm from the page's bottom-left."""
    return (obj["x0"] * MM, (page_h_pt - obj["bottom"]) * MM, obj["x1"] * MM, (page_h_pt - obj["top"]) * MM)


def word(w):
    """A printed name; upside down (a back rotated 180 degrees) its letters come last first."""
    return w["text"] if w["text"][:1].isupper() else w["text"][::-1]


def trims(page, side_color):
    """{card name: trim box} of the faces on a page, from their outlines and printed names."""
    found = {}
    for rect in page.rects + page.curves:
        if rect["stroke"] and color(rect) == side_color:
            box = mm_box(rect, page.height)
            names = [word(w) for w in page.extract_words()
                     if rect["x0"] <= (w["x0"] + w["x1"]) / 2 <= rect["x1"]
                     and rect["top"] <= (w["top"] + w["bottom"]) / 2 <= rect["bottom"]]
            found.setdefault(names[0] if names else f"#{len(found)}", box)
    return found


def crop_marks(page):
    return [mm_box(line, page.height) for line in page.lines if color(line) == BLACK and not dashed(line)]


def dashed(line):
    dash = line.get("dash")
    return bool(dash and dash[0])


def close(a, b):
    return all(abs(x - y) <= TOL for x, y in zip(a, b))


def inside(mark, box, margin=0.0):
    """Whether a mark segment touches a box grown by ``margin``."""
    x0, y0, x1, y1 = mark
    return (x0 <= box[2] + margin and x1 >= box[0] - margin and y0 <= box[3] + margin and y1 >= box[1] - margin)


def halos(page):
    return [mm_box(line, page.height) for line in page.lines if color(line) == (0.0, 0.0, 0.0, 0.0)]


def test_letter_sheet_trim_boxes_and_crop_marks(project):
    with pdfplumber.open(build(project, "letter")) as pdf:
        page = pdf.pages[0]
        assert (page.width * MM, page.height * MM) == pytest.approx((215.9, 279.4), abs=TOL)  # portrait
        fronts = trims(page, FRONT)
        # Poker cards 3 x 3, butted, centred: (215.9 - 3 x 63.5) / 2 = 12.7, (279.4 - 3 x 88.9) / 2 = 6.35.
        names = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India"]
        assert sorted(fronts) == sorted(names)
        for index, name in enumerate(names):
            row, col = divmod(index, 3)
            x, y = 12.7 + col * W, 6.35 + (2 - row) * H
            assert close(fronts[name], (x, y, x + W, y + H)), name
        marks = crop_marks(page)
        assert len(marks) == 4 * 2 + 4 * 2
        cut_x = {round(12.7 + i * W, 2) for i in range(4)}
        cut_y = {round(6.35 + i * H, 2) for i in range(4)}
        white = halos(page)
        for mark in marks:
            x0, y0, x1, y1 = mark
            if abs(x1 - x0) < TOL:
                assert any(abs(x0 - c) <= TOL for c in cut_x)
                # 6.35 mm above and below the grid: the mark reaches from the 4 mm margin to
                # 0.5 mm short of the trim, over the outer bleed, on a white halo.
                assert close((y0, y1), (4.0, 5.85)) or close((y0, y1), (279.4 - 5.85, 279.4 - 4.0)), mark
                assert any(close(mark, halo) for halo in white), mark
                for box in fronts.values():
                    assert not inside(mark, box, margin=0.5 - TOL)
            else:
                assert any(abs(y0 - c) <= TOL for c in cut_y)
                assert close((x0, x1), (4.2, 9.2)) or close((x0, x1), (215.9 - 9.2, 215.9 - 4.2)), mark
                for box in fronts.values():
                    assert not inside(mark, box, margin=3.0)  # nor the bleed round any trim
            assert min(x0, y0) >= 4 - TOL and x1 <= 215.9 - 4 + TOL and y1 <= 279.4 - 4 + TOL
        assert len(white) == 8  # only the marks over the bleed have one


@pytest.mark.parametrize("orientation, duplex, mirror", [
    ("landscape", "long", "y"),  # landscape page: the long edge is horizontal, rows reverse
    ("landscape", "short", "x"),
    ("portrait", "long", "x"),   # portrait: columns mirror
    ("portrait", "short", "y"),
    ("auto", "long", "x"),       # 3 x 3 on portrait letter
])
def test_backs_exactly_behind_fronts(project, orientation, duplex, mirror):
    pdf_path = build(project, f"duplex-{orientation}-{duplex}", orientation=orientation, duplex=duplex)
    with pdfplumber.open(pdf_path) as pdf:
        sheets = ((0, 1), (2, 3)) if orientation == "landscape" else ((0, 1),)  # 8 a page, or 9
        for front_index, back_index in sheets:
            front_page, back_page = pdf.pages[front_index], pdf.pages[back_index]
            pw, ph = front_page.width * MM, front_page.height * MM
            fronts, backs = trims(front_page, FRONT), trims(back_page, BACK)
            assert fronts and sorted(fronts) == sorted(backs)
            for name, (x0, y0, x1, y1) in fronts.items():
                expected = (pw - x1, y0, pw - x0, y1) if mirror == "x" else (x0, ph - y1, x1, ph - y0)
                assert close(backs[name], expected), name
        assert sum(len(trims(pdf.pages[i], FRONT)) for sheet in sheets for i in sheet) == 9


def test_gutter_fold_backs_mirror_fronts_across_the_marked_fold(project):
    with pdfplumber.open(build(project, "gutter", layout="gutter-fold")) as pdf:
        page = pdf.pages[0]
        ph = page.height * MM
        fronts, backs = trims(page, FRONT), trims(page, BACK)
        assert sorted(fronts) == sorted(backs) == ["Alpha", "Bravo", "Charlie", "Delta"]
        for name, (x0, y0, x1, y1) in fronts.items():
            assert close(backs[name], (x0, ph - y1, x1, ph - y0)), name  # horizontal fold
            assert y0 > ph / 2 > backs[name][3]
        fold = [mm_box(line, page.height) for line in page.lines if dashed(line)]
        assert len(fold) == 1 and abs(fold[0][1] - ph / 2) <= TOL and abs(fold[0][3] - ph / 2) <= TOL
        assert "fold" in page.extract_text()
        # Backs are upside down (rotated 180 degrees), fronts upright.
        for char in page.chars:
            if char["text"] in "AB":
                assert (char["matrix"][0] > 0) == (char["top"] < page.height / 2)


def test_per_card_pages_carry_trim_and_bleed_boxes_and_embedded_fonts(project):
    reader = PdfReader(build(project, "per-card", layout="per-card"))
    assert len(reader.pages) == 9 * 2 + 12
    checked = 0
    for number, page in enumerate(reader.pages):
        k = MM
        if number < 18:
            assert float(page.mediabox.width) * k == pytest.approx(W + 6, abs=TOL)
            assert [float(v) * k for v in page.trimbox] == pytest.approx([3, 3, 3 + W, 3 + H], abs=TOL)
            assert [float(v) * k for v in page.bleedbox] == pytest.approx([0, 0, W + 6, H + 6], abs=TOL)
        else:
            assert [float(v) * k for v in page.trimbox] == pytest.approx([1, 1, 13.7, 13.7], abs=TOL)
        fonts = page["/Resources"].get("/Font", {})
        for xobject in page["/Resources"].get("/XObject", {}).values():
            fonts = {**fonts, **xobject.get_object().get("/Resources", {}).get("/Font", {})}
        for font in fonts.values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            descriptor = (descendants[0].get_object() if descendants else font).get("/FontDescriptor")
            assert descriptor is not None and any(key in descriptor.get_object() for key in
                                                  ("/FontFile", "/FontFile2", "/FontFile3")), font
            checked += 1
    assert checked >= 18  # every card face prints its name
    with pdfplumber.open(reader.stream) as pdf:
        order = [pdf.pages[i].extract_words()[0]["text"] for i in range(4)]
    assert order == ["Alpha", "Alpha", "Bravo", "Bravo"]  # front 1, back 1, front 2, back 2


def test_ol32_label_centres_from_the_pdf(project):
    with pdfplumber.open(build(project, "ol32", sheet="OL32")) as pdf:
        # the card sheet and its backs, the label sheet, and its blank back (the PDF is duplex)
        assert len(pdf.pages) == 4 and not pdf.pages[3].rects and not pdf.pages[3].curves
        page = pdf.pages[2]
        assert (page.width * MM, page.height * MM) == pytest.approx((215.9, 279.4), abs=TOL)
        circles = [mm_box(c, page.height) for c in page.curves if c["stroke"] and color(c) == FRONT]
        assert len(circles) == 12
        circles.sort(key=lambda b: (-round(b[3], 1), b[0]))
        inch = 25.4
        for index, (x0, y0, x1, y1) in enumerate(circles):
            row, col = divmod(index, 11)
            cx = 0.25 * inch + col * 0.75 * inch + 0.25 * inch
            cy = 279.4 - (0.375 * inch + row * 0.75 * inch + 0.25 * inch)
            assert abs((x0 + x1) / 2 - cx) <= TOL and abs((y0 + y1) / 2 - cy) <= TOL
            assert abs((x1 - x0) - 12.7) <= TOL + 0.2  # the outline's 0.2 mm stroke widens its box
        assert not crop_marks(page)


def test_a_sets_own_yaml_sheet_template(project):
    with pdfplumber.open(build(project, "sprue", sheet="sheets/tokens.yaml")) as pdf:
        page = pdf.pages[-2]  # the last page is the token sheet's blank back (the PDF is duplex)
        assert (page.width * MM, page.height * MM) == pytest.approx((210, 297), abs=TOL)
        faces = sorted((mm_box(c, page.height) for c in page.curves if c["stroke"] and color(c) == FRONT),
                       key=lambda b: (-round(b[3], 1), b[0]))
        outlines = [mm_box(c, page.height) for c in page.curves if color(c) == BLACK]
        assert len(faces) == len(outlines) == 12
        r = 0.25 * 25.4
        expected = [(20 + 20 * i + r, 297 - 20 - r) for i in range(6)] + [(30 + 20 * i + r, 297 - 40 - r) for i in range(6)]
        for (x0, y0, x1, y1), (cx, cy) in zip(faces, expected):
            assert abs((x0 + x1) / 2 - cx) <= TOL and abs((y0 + y1) / 2 - cy) <= TOL
        for (x0, y0, x1, y1) in outlines:  # the cut outline of every token, at its trim
            assert any(abs((x0 + x1) / 2 - cx) <= TOL and abs((y0 + y1) / 2 - cy) <= TOL for cx, cy in expected)
            assert abs((x1 - x0) - 2 * r) <= TOL + 0.1
