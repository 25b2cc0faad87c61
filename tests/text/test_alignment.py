"""Horizontal and vertical alignment, measured on the characters of the PDF."""
from __future__ import annotations

import json

import pdfplumber
import pytest

import cardgen
from cardgen.write.manifest import load_manifest
from projects import make_project

MM = 25.4 / 72
TEXT = ("The quick brown fox jumps over the lazy dog while seven wizards quietly judge the boxing "
        "match of the year.")


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    """Build one card per alignment and return, per card, its text lines as (x0, x1, top, bottom) in mm
    from the card's top-left corner."""
    root = make_project(tmp_path_factory.mktemp("align"), "align", fonts=False)
    cards = [{"name": f"{a}-{v}", "align": a, "valign": v, "text": TEXT}
             for a in ("left", "center", "right", "justify") for v in ("top", "middle", "bottom")]
    (root / "data/align/cards.yaml").write_text(json.dumps(cards))  # JSON is YAML
    result = cardgen.build(["align"], root, options=cardgen.BuildOptions(layout="per-card"))
    faces = load_manifest(result.sets[0].manifest)["faces"]
    found = {}
    with pdfplumber.open(result.sets[0].pdf) as pdf:
        for face in faces:
            page = pdf.pages[face["page"] - 1]
            left, top = face["x_mm"], float(page.height) * MM - face["y_mm"] - face["h_mm"]
            rows = {}
            for c in page.chars:
                if c["text"].strip():
                    rows.setdefault(round(c["bottom"], 1), []).append(c)
            found[face["card"]] = [(min(c["x0"] for c in r) * MM - left, max(c["x1"] for c in r) * MM - left,
                                    min(c["top"] for c in r) * MM - top, max(c["bottom"] for c in r) * MM - top)
                                   for _, r in sorted(rows.items())]
    return found


@pytest.mark.parametrize("valign", ["top", "middle", "bottom"])
def test_horizontal_alignment(lines, valign):
    left, right = 10, 70
    for x0, x1, *_ in lines[f"left-{valign}"]:
        assert x0 == pytest.approx(left, abs=0.3)
    for x0, x1, *_ in lines[f"right-{valign}"]:
        assert x1 == pytest.approx(right, abs=0.3)
    for x0, x1, *_ in lines[f"center-{valign}"]:
        assert (x0 + x1) / 2 == pytest.approx((left + right) / 2, abs=0.3)
    justified = lines[f"justify-{valign}"]
    assert len(justified) >= 2
    for x0, x1, *_ in justified[:-1]:
        assert (x0, x1) == (pytest.approx(left, abs=0.3), pytest.approx(right, abs=0.3))
    assert justified[-1][1] < right - 5  # the last line keeps its natural width


def test_vertical_alignment(lines):
    top, bottom = 10, 50
    for align in ("left", "center", "right", "justify"):
        first_top = lines[f"{align}-top"][0][2]
        last_bottom = lines[f"{align}-bottom"][-1][3]
        middle = lines[f"{align}-middle"]
        assert top <= first_top < top + 1.5
        assert bottom - 1.5 < last_bottom <= bottom
        assert (middle[0][2] + middle[-1][3]) / 2 == pytest.approx((top + bottom) / 2, abs=0.6)
