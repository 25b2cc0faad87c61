"""Fit rich text into a box: measure every word once at 1 pt, then search the size by arithmetic.

Line breaking at size s depends only on (box width / s), so each trial size costs one pass over
word widths; no text is re-measured.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import Callable, NamedTuple

from .fonts import FontBook, FontFace
from .rich import Paragraph, Run

ICON_HEIGHT = 0.9  # an inline icon's height, as a fraction of the text size
PARAGRAPH_GAP = 0.5  # extra space between paragraphs, in lines
SIZE_STEP = 0.05  # pt: the precision of auto-fit


class MissingGlyph(ValueError):
    def __init__(self, char: str, font: str):
        super().__init__(char, font)
        self.char, self.font = char, font


class DoesNotFit(ValueError):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Piece(NamedTuple):  # tuples: made by the hundred per card, and cheap to make
    """A measured run: text in a face, or an icon, with its width at 1 pt."""

    run: Run
    face: FontFace | None
    width: float


class Segment(NamedTuple):
    """What one text operator draws: words of one face and colour on one line, or an icon."""

    x: float  # pt from the box's left
    text: str  # "" for an icon
    face: FontFace | None
    color: str | None  # None: the box's colour
    icon: str | None = None


class LaidLine(NamedTuple):
    baseline: float  # pt below the box's top
    segments: tuple[Segment, ...]
    word_space: float = 0.0  # pt added to every space of the line (justified text)


@dataclass(frozen=True)
class LaidText:
    size: float
    lines: tuple[LaidLine, ...]
    height: float  # pt actually used


@dataclass(frozen=True)
class TextStyle:
    family: str | None
    bold: bool
    italic: bool
    leading: float
    align: str
    valign: str


def measure(paragraphs: tuple[Paragraph, ...], fonts: FontBook, style: TextStyle,
            icon_width: Callable[[str], float]) -> list[list[list[tuple[list[Piece], float]]]]:
    """Paragraph -> line -> word -> (pieces, width at 1 pt). Raises MissingGlyph."""
    measured = []
    faces: dict[tuple[bool, bool], FontFace] = {}
    for paragraph in paragraphs:
        lines = []
        for line in paragraph:
            words = []
            for word in line:
                pieces = []
                total = 0.0
                for run in word:
                    if run.icon is not None:
                        width = icon_width(run.icon)
                        pieces.append(Piece(run, None, width))
                    else:
                        key = (style.bold or run.style.bold, style.italic or run.style.italic)
                        face = faces.get(key)
                        if face is None:
                            face = faces[key] = fonts.face(style.family, *key)
                        width = face.checked_width(run.text)
                        if width.__class__ is str:
                            raise MissingGlyph(width, face.path.name)
                        pieces.append(Piece(run, face, width))
                    total += width
                words.append((pieces, total))
            lines.append(words)
        measured.append(lines)
    return measured


class _Lines:
    """Word widths of each hard line as running sums of (width + space), so that greedy line
    breaking at any width is one binary search per line, not one step per word: the words i..j-1
    fit a line of width W exactly when ``sums[j] - sums[i] <= W + space``."""

    def __init__(self, measured, space: float):
        self.space = space
        self.words = [hard_line for paragraph in measured for hard_line in paragraph]
        self.paragraph_sizes = [len(paragraph) for paragraph in measured]
        self.sums = [list(accumulate((word[1] + space for word in hard_line), initial=0.0))
                     for hard_line in self.words]
        self.widest = max((word[1] for hard_line in self.words for word in hard_line), default=0.0)

    def _ends(self, sums: list[float], limit: float):
        """Where each line of one hard line ends (word indices, exclusive)."""
        start, last = 0, len(sums) - 1
        while start < last:
            end = bisect_right(sums, sums[start] + limit, start + 1) - 1
            start = end if end > start else start + 1  # a word always starts its own line
            yield start

    def count(self, width1: float) -> int | None:
        """How many lines greedy breaking needs at a line width of ``width1`` (1-pt units); None
        if a word is wider than a line."""
        if self.widest > width1 + 1e-9:
            return None
        limit = width1 + self.space + 1e-9
        count = 0
        for sums in self.sums:
            if len(sums) == 1:
                count += 1  # an empty line still takes its place
            else:
                for _ in self._ends(sums, limit):
                    count += 1
        return count

    def broken(self, width1: float):
        """Paragraph -> [(words of the line, width at 1 pt, ends its hard line)]."""
        limit = width1 + self.space + 1e-9
        lines_of = iter(zip(self.words, self.sums))
        out = []
        for size in self.paragraph_sizes:
            para_lines = []
            for _ in range(size):
                words, sums = next(lines_of)
                start = 0
                for end in self._ends(sums, limit):
                    para_lines.append((words[start:end], sums[end] - sums[start] - self.space, end == len(words)))
                    start = end
                if not words:
                    para_lines.append(([], 0.0, True))
            out.append(para_lines)
        return out


def _height(broken, leading: float) -> float:
    """Height in 1-pt units."""
    lines = sum(len(p) for p in broken)
    return leading * (lines + PARAGRAPH_GAP * (len(broken) - 1))


def fit(measured, fonts: FontBook, style: TextStyle, box_w: float, box_h: float,
        max_size: float, min_size: float) -> LaidText:
    """Lay the text out at the largest size in [min_size, max_size] that fits (pt)."""
    space = fonts.face(style.family, style.bold, style.italic).width(" ")
    lines = _Lines(measured, space)
    gaps = PARAGRAPH_GAP * (len(measured) - 1)

    def fits(size: float) -> bool:
        count = lines.count(box_w / size)
        return count is not None and style.leading * (count + gaps) * size <= box_h + 1e-6

    size = max_size
    if not fits(size):
        if not fits(min_size):
            raise DoesNotFit(f"the text does not fit at the minimum size {min_size:g} pt")
        low, high = min_size, max_size
        while high - low > SIZE_STEP:
            middle = (low + high) / 2
            if fits(middle):
                low = middle
            else:
                high = middle
        size = low
    return _place(lines.broken(box_w / size), fonts, style, space, size, box_w, box_h)


def _place(broken, fonts: FontBook, style: TextStyle, space: float, size: float, box_w: float,
           box_h: float) -> LaidText:
    face = fonts.face(style.family, style.bold, style.italic)
    band = style.leading * size
    glyphs = (face.ascent + face.descent) * size
    height = _height(broken, style.leading) * size
    top = {"top": 0.0, "middle": (box_h - height) / 2, "bottom": box_h - height}[style.valign]
    lines: list[LaidLine] = []
    y = top
    for index, paragraph in enumerate(broken):
        if index:
            y += PARAGRAPH_GAP * band
        for words, used, last in paragraph:
            baseline = y + (band - glyphs) / 2 + face.ascent * size
            extra = box_w - used * size
            gap = space * size
            word_space = 0.0
            align = style.align
            x = extra / 2 if align == "center" else extra if align == "right" else 0.0
            if align == "justify" and not last and len(words) > 1:
                word_space = extra / (len(words) - 1)
                gap += word_space
            lines.append(LaidLine(baseline, _segments(words, x, gap, size, space), word_space))
            y += band
    return LaidText(size, tuple(lines), height)


def _segments(words, x: float, gap: float, size: float, space: float) -> tuple[Segment, ...]:
    """Join a line's words into segments: words in one face and colour, one space apart, are
    one string (the PDF's own space, widened by the line's word spacing, keeps them apart). A
    face whose space is not the layout's starts a new segment at its exact place."""
    segments: list[Segment] = []
    text: list[str] = []
    start = 0.0
    face = color = None
    spaces_match: dict = {}  # face -> its space is the layout's: words in it may share a string
    word_start = False
    for pieces, _width in words:
        for run, piece_face, width in pieces:
            if run.icon is not None:
                if text:
                    segments.append(Segment(start, "".join(text), face, color))
                    text = []
                face = None
                segments.append(Segment(x, "", None, run.style.color, run.icon))
            else:
                run_color = run.style.color
                joins = text and piece_face is face and run_color == color
                if joins and word_start:
                    joins = spaces_match.get(face)
                    if joins is None:
                        joins = spaces_match[face] = abs(face.width(" ") - space) < 1e-9
                    if joins:
                        text.append(" ")
                if not joins:
                    if text:
                        segments.append(Segment(start, "".join(text), face, color))
                        text = []
                    start, face, color = x, piece_face, run_color
                text.append(run.text)
            word_start = False
            x += width * size
        x += gap
        word_start = True
    if text:
        segments.append(Segment(start, "".join(text), face, color))
    return tuple(segments)
