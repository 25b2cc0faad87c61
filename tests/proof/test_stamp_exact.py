"""build --stamp, measured exactly: the type's size (4 pt, less in a narrow bleed), its grey, and
its baseline 1 mm in from the trim's left edge and three quarters of the bleed below the trim."""
from __future__ import annotations

import json

import pdfplumber
import pytest

import cardgen
from cardgen.pipeline import BuildOptions
from cardgen.units import PT_PER_MM

STAMP = "Demo Deck v0.3 · 2025-04-01"


def test_the_stamp_starts_1_mm_in_and_three_quarters_of_the_bleed_down(project):
    (result,) = cardgen.build(["demo"], project, options=BuildOptions(
        stamp=True, stamp_date="2025-04-01", layout="per-card", cache=False)).sets
    faces = json.loads(result.manifest.read_text())["faces"]
    bleeds = {}
    with pdfplumber.open(result.pdf) as pdf:
        for face, page in zip(faces, pdf.pages):
            trim_x0, trim_y0 = (float(v) for v in page.trimbox[:2])
            bleed = trim_y0 / PT_PER_MM  # per-card pages: the bleed all round the trim
            chars = [c for c in page.chars if c["size"] <= 4.0 + 1e-6 and c["non_stroking_color"] == (0.35,)]
            assert "".join(c["text"] for c in chars) == STAMP, face["card"]
            first = chars[0]
            assert first["size"] == pytest.approx(min(4.0, bleed * PT_PER_MM * 0.6), abs=1e-3)
            assert first["matrix"][4] == pytest.approx(trim_x0 + PT_PER_MM, abs=1e-3)  # the baseline's start
            assert first["matrix"][5] == pytest.approx(trim_y0 - 0.75 * bleed * PT_PER_MM, abs=1e-3)
            bleeds[round(bleed, 3)] = first["size"]
    assert bleeds == {1.0: pytest.approx(1.0 * PT_PER_MM * 0.6, abs=1e-3), 3.0: 4.0}  # round 1 mm, poker 3 mm
