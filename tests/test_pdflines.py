"""tests/pdflines.py reads the lines pdfplumber reads: same places, colours and dashes, on a
gutter-fold sheet (crop marks, the dashed fold, each face a form of its own)."""
from __future__ import annotations

import pdfplumber

import cardgen
from cardgen import BuildOptions

from pdflines import page_lines


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
