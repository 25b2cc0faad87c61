"""The fonts' tests share one cut-down OpenType CFF font (a module's tests build it once)."""
from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from fontprojects import OTF


@pytest.fixture(scope="module")
def latin_otf(tmp_path_factory) -> Path:
    """The OTF cut down to Latin letters and punctuation (about 290 of its 1,322 glyphs), still
    CFF and under its own name: converting it takes a fifth of the time of the whole font's
    half second. The tests that print with it compare each glyph with the whole font's."""
    from fontTools import subset

    options = subset.Options()
    options.name_IDs, options.name_languages, options.layout_features = ["*"], ["*"], ["*"]
    options.glyph_names, options.notdef_outline = True, True
    font = TTFont(OTF)
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[*range(0x20, 0x7F), *range(0xA0, 0x100), *range(0x2000, 0x2070)])
    cutter.subset(font)
    path = tmp_path_factory.mktemp("otf") / OTF.name
    font.save(path)
    assert TTFont(path).sfntVersion == "OTTO" and len(TTFont(path).getGlyphOrder()) < 400
    return path
