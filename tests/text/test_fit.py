"""Text fitting: sizes by arithmetic, lines joined into segments that draw as one string."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.text.fit import DoesNotFit, TextStyle, fit, measure
from cardgen.text.fonts import FontBook
from cardgen.text.rich import parse

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def fonts():
    return FontBook(REPO)


def laid(fonts, text, align="left", w=200.0, h=100.0, size=10.0, min_size=10.0):
    style = TextStyle("DejaVu Sans", False, False, 1.2, align, "top")
    measured = measure(parse(text), fonts, style, lambda name: 1.0)
    return fit(measured, fonts, style, w, h, size, min_size)


def test_words_of_one_face_are_one_segment(fonts):
    (line,) = laid(fonts, "one two three").lines
    assert [s.text for s in line.segments] == ["one two three"]
    assert line.segments[0].x == 0.0


def test_a_face_change_starts_a_segment_at_its_exact_place(fonts):
    (line,) = laid(fonts, "one **two** three").lines
    regular, bold = fonts.face("DejaVu Sans"), fonts.face("DejaVu Sans", bold=True)
    assert [(s.text, s.face) for s in line.segments] == [("one", regular), ("two", bold), ("three", regular)]
    space = regular.width(" ") * 10
    assert line.segments[1].x == pytest.approx(regular.width("one") * 10 + space)
    assert line.segments[2].x == pytest.approx(line.segments[1].x + bold.width("two") * 10 + space)


def test_justified_lines_keep_one_segment_and_carry_their_word_spacing(fonts):
    lines = laid(fonts, " ".join(["justify"] * 30), align="justify", w=150).lines
    assert len(lines) > 2
    for line in lines[:-1]:
        assert len(line.segments) == 1 and line.word_space > 0
    assert lines[-1].word_space == 0


def test_size_is_the_largest_that_fits(fonts):
    text = " ".join(["fitting"] * 40)
    result = laid(fonts, text, w=100, h=60, size=20, min_size=4)
    assert 4 <= result.size < 20
    assert result.height <= 60
    bigger = laid(fonts, text, w=100, h=1000, size=result.size + 0.1, min_size=result.size + 0.1)
    assert bigger.height > 60  # a tenth of a point more no longer fits
    with pytest.raises(DoesNotFit):
        laid(fonts, text, w=100, h=10, size=20, min_size=4)
