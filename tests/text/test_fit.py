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


def _size_counting_every_try(fonts, text, w, h, size, min_size):
    """The size auto-fit chose before it skipped counting: the same bisection, every size tried
    counted afresh."""
    from cardgen.text.breaking import Lines
    from cardgen.text.fit import SIZE_STEP

    style = TextStyle("DejaVu Sans", False, False, 1.2, "left", "top")
    measured = measure(parse(text), fonts, style, lambda name: 1.0)
    lines = Lines(measured, fonts.face("DejaVu Sans").width(" "))

    def fits(trial):
        count = lines.count(w / trial)
        return count is not None and 1.2 * count * trial <= h + 1e-6

    if fits(size):
        return size
    count = lines.count(w / size)
    low = h / (1.2 * count) if count is not None else 0.0
    if low < min_size:
        if not fits(min_size):
            return None  # does not fit
        low = min_size
    high = min(size, lines.largest_possible(w, h, 1.2, 0.0))
    while high - low > SIZE_STEP:
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


@pytest.mark.parametrize("w", [60.0, 97.0, 143.0, 210.0])
@pytest.mark.parametrize("h", [35.0, 52.0, 88.0, 130.0])
def test_the_size_search_chooses_what_counting_every_size_chooses(fonts, w, h):
    words = "token challenge planet alien power flare colony ship warp cone attack negotiate ally".split()
    text = " ".join(words[(i * 7) % len(words)] for i in range(60))
    expected = _size_counting_every_try(fonts, text, w, h, 14.0, 3.0)
    if expected is None:
        with pytest.raises(DoesNotFit):
            laid(fonts, text, w=w, h=h, size=14.0, min_size=3.0)
    else:
        assert laid(fonts, text, w=w, h=h, size=14.0, min_size=3.0).size == expected



def test_the_size_search_counts_a_size_only_where_no_bound_settles_it(fonts, monkeypatch):
    """Lines needed never fall as the size grows: a size whose fit the sizes counted on either
    side already settle is not counted (fewer counts over a range of boxes), and the same sizes
    are chosen as counting every size tried chooses."""
    from cardgen.text.breaking import Lines

    words = "token challenge planet alien power flare colony ship warp cone attack negotiate ally".split()
    text = " ".join(words[(i * 5) % len(words)] for i in range(70))
    counted = []  # (width, lines) of each count, in turn
    real_count = Lines.count

    def count(self, width1):
        lines = real_count(self, width1)
        counted.append((width1, lines))
        return lines

    monkeypatch.setattr(Lines, "count", count)
    searched = every = 0
    for w in (80.0, 110.0, 150.0, 190.0):
        for h in (40.0, 61.0, 77.0, 104.0, 150.0):
            counted.clear()
            expected = _size_counting_every_try(fonts, text, w, h, 14.0, 3.0)
            every += len(counted)
            counted.clear()
            assert laid(fonts, text, w=w, h=h, size=14.0, min_size=3.0).size == expected
            searched += len(counted)
            for index, (width1, _) in enumerate(counted[1:], 1):
                size = w / width1
                below = [n for x, n in counted[:index] if w / x <= size]  # lines there: at most size's
                above = [n for x, n in counted[:index] if w / x >= size and n is not None]  # at least
                assert not (above and 1.2 * min(above) * size <= h + 1e-6), "counted a size sure to fit"
                assert not (below and None not in below and 1.2 * max(below) * size > h + 1e-6), \
                    "counted a size sure not to fit"
    assert searched < every


def test_runs_of_one_style_share_their_face_and_colour_across_texts(fonts):
    """Every text measured with a book gets one (face, colour) tuple a style, made once."""
    style = TextStyle("DejaVu Sans", False, False, 1.2, "left", "top")
    first = measure(parse("one **two three** four"), fonts, style, lambda name: 1.0)[0][0]
    second = measure(parse("five [color=#ff0000]six seven[/color] **eight nine**"), fonts, style,
                     lambda name: 1.0)[0][0]
    regular, bold = fonts.face("DejaVu Sans"), fonts.face("DejaVu Sans", bold=True)
    assert first.keys[0] == (regular, None) and first.keys[1] == (bold, None)
    assert second.keys[0] is first.keys[0] and second.keys[-1] is first.keys[1]
    assert second.keys[1] == (regular, "#ff0000")
    bold_box = TextStyle("DejaVu Sans", True, False, 1.2, "left", "top")
    assert measure(parse("ten"), fonts, bold_box, lambda name: 1.0)[0][0].keys[0] == (bold, None)
