"""--proof-boxes, measured in the PDF: on every face, the bleed (red), the trim (blue) and the
safe zone (green, dashed) outlined where the set's sizes put them, round the trim that each face
outlines itself (tests/fixtures/sheets)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest

import cardgen
from cardgen import BuildOptions

from sheets.test_pdf import FRONT, trims

REPO = Path(__file__).resolve().parents[2]
MM = 25.4 / 72
TOL = 0.05
RED, BLUE, GREEN = (0.816, 0.0, 0.0), (0.0, 0.439, 0.753), (0.0, 0.627, 0.314)  # #d00000 #0070c0 #00a050


def flat(boxes):
    return [v for box in boxes for v in box]


def test_proof_boxes_outline_bleed_trim_and_safe_zone_of_every_face(tmp_path):
    root = tmp_path / "proj"
    shutil.copytree(REPO / "tests" / "fixtures" / "sheets", root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    set_file = root / "data" / "tiny" / "set.yaml"  # a safe zone unlike the bleed, so that each shows
    assert set_file.read_text().count("\nbleed: 3\n") == 1
    set_file.write_text(set_file.read_text().replace("\nbleed: 3\n", "\nbleed: 3\nsafe: 4.5\n"))
    result = cardgen.build(["tiny"], root=root, out=root / "out",
                           options=BuildOptions(cache=False, proof_boxes=True)).sets[0]
    boxes: dict[tuple, list] = {RED: [], BLUE: [], GREEN: []}
    with pdfplumber.open(result.pdf) as pdf:
        page = pdf.pages[0]  # poker fronts: 3 mm bleed, 4.5 mm safe zone
        outlines = trims(page, FRONT)  # each face's own outline of its trim
        for shape in page.rects + page.curves:
            colour = tuple(round(v, 3) for v in shape.get("stroking_color") or ())
            if shape["stroke"] and colour in boxes:
                box = (shape["x0"] * MM, (page.height - shape["bottom"]) * MM,
                       shape["x1"] * MM, (page.height - shape["top"]) * MM)
                boxes[colour].append((box, bool(shape.get("dash") and shape["dash"][0])))
    faces = len(outlines)
    assert faces >= 2 and [len(found) for found in boxes.values()] == [faces] * 3
    blue = sorted(tuple(round(v, 2) for v in box) for box, _ in boxes[BLUE])
    assert flat(blue) == pytest.approx(flat(sorted(outlines.values())), abs=TOL)
    grown = sorted((a - 3, b - 3, c + 3, d + 3) for a, b, c, d in blue)
    shrunk = sorted((a + 4.5, b + 4.5, c - 4.5, d - 4.5) for a, b, c, d in blue)
    assert flat(sorted(box for box, _ in boxes[RED])) == pytest.approx(flat(grown), abs=TOL)
    assert flat(sorted(box for box, _ in boxes[GREEN])) == pytest.approx(flat(shrunk), abs=TOL)
    assert [dashed for _, dashed in boxes[RED] + boxes[BLUE]] == [False] * 2 * faces
    assert [dashed for _, dashed in boxes[GREEN]] == [True] * faces
