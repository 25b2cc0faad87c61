"""tests/pdflines.py reads the lines pdfplumber reads: same places, colours and dashes, on a
gutter-fold sheet (crop marks, the dashed fold, each face a form of its own)."""
from __future__ import annotations

import pdfplumber
import pytest

import cardgen
from cardgen import BuildOptions

from pdflines import page_lines

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def _key(line: dict) -> tuple:
    dash = line["dash"]
    return (round(line["x0"], 3), round(line["x1"], 3), round(line["top"], 3), round(line["bottom"], 3),
            tuple(round(float(v), 4) for v in line["stroking_color"]),
            None if dash is None else (tuple(round(float(v), 4) for v in dash[0]), round(float(dash[1]), 4)))


def test_the_lines_are_pdfplumbers(project, tmp_path):
    result = cardgen.build(["demo"], project, tmp_path / "out", BuildOptions(layout="gutter-fold", cache=False))
    pdf_path = result.sets[0].pdf
    with pdfplumber.open(pdf_path) as pdf:
        expected = [[_key(line) for line in page.lines] for page in pdf.pages]
    found = [[_key(line) for line in page] for page in page_lines(pdf_path)]
    assert sum(map(len, expected)) > 20  # crop marks, the fold, and the faces' own rules
    assert any(key[5] and key[5][0] for page in expected for key in page)  # a dashed one: the fold
    assert found == expected


# Subpaths that curve at once, curves after a line, lines after a curve in the same subpath,
# several subpaths in one path, operators the reader skips (w, rg, g) between them.
MIXED = b"""q 0 0 1 RG 1 w 10 10 m 20 20 30 30 40 40 c 50 50 l S Q
q 1 0 0 RG 10 100 m 100 100 l 10 120 m 20 130 30 140 40 150 c h 10 140 m 200 140 l S Q
q 0.5 0.5 0.5 RG [3 2] 0 d 50 200 m 50 300 l 0 0 1 rg 60 200 m 0.2 w 70 210 80 220 90 230 v 100 250 110 260 y f
60 200 m 60 300 l S Q
0 0 0 RG 1 0 0 1 5 5 cm 10 400 m 100 400 l 10 410 m 50 450 70 470 90 490 c 100 500 l B
0 1 0 RG 300 10 m 300 60 l 300 60 m 310 70 320 80 330 90 c 300 90 m 400 90 l S
200 300 m 220 320 240 340 260 360 c h 200 300 m 260 300 l S 200 400 m 260 400 l 0 g f*
"""


def test_the_lines_of_curved_and_mixed_paths_are_pdfplumbers(tmp_path):
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(500, 600))
    pdf.pages[0].Contents = pdf.make_stream(MIXED)
    path = tmp_path / "mixed.pdf"
    pdf.save(path)
    with pdfplumber.open(path) as plumbed:
        expected = [[_key(line) for line in page.lines] for page in plumbed.pages]
    assert sum(map(len, expected)) >= 6
    assert [[_key(line) for line in page] for page in page_lines(path)] == expected
