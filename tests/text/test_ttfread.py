"""The bulk font reader gives exactly what reportlab's own reading gives, for every font."""
from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFontFace

from cardgen.text.ttfread import read_face

FONTS = sorted((Path(__file__).resolve().parents[2] / "fonts").glob("*.ttf"))
SKIPPED = {"_pos", "_pdfScale"}  # where reading stopped; a function (compared by its results)


@pytest.mark.parametrize("path", FONTS, ids=lambda p: p.name)
def test_every_value_is_reportlabs(path):
    ours, theirs = read_face(path), TTFontFace(str(path))
    assert ours is not None
    mine = {k: v for k, v in vars(ours).items() if k not in SKIPPED}
    reportlab = {k: v for k, v in vars(theirs).items() if k not in SKIPPED}
    assert mine.keys() == reportlab.keys()
    for key in reportlab:
        assert mine[key] == reportlab[key], key
    assert len(ours.charToGlyph) > 3000 and ours.hmetrics[-1] == theirs.hmetrics[-1]
    assert [ours._pdfScale(v) for v in (0, 1, 2048)] == [theirs._pdfScale(v) for v in (0, 1, 2048)]


def test_a_file_that_is_no_font_is_left_to_reportlab(tmp_path):
    path = tmp_path / "broken.ttf"
    path.write_bytes(b"\0\1\0\0" + b"\0" * 60)
    assert read_face(path) is None
