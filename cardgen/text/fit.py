"""Fit rich text into a box: measure every word once at 1 pt, then search the size by arithmetic.

Line breaking at size s depends only on (box width / s), so each trial size costs one pass over
word widths; no text is re-measured.
"""
from __future__ import annotations

from dataclasses import dataclass
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


def _break(measured, space: float, width1: float):
    """Greedy line breaks for a line width of ``width1`` (in 1-pt units); None if a word is too wide."""
    out = []
    for paragraph in measured:
        para_lines = []
        for hard_line in paragraph:
            current: list = []
            used = 0.0
            for word in hard_line:
                w = word[1]
                if w > width1 + 1e-9:
                    return None
                if current and used + space + w > width1 + 1e-9:
                    para_lines.append((current, used, False))
                    current, used = [word], w
                else:
                    used = used + space + w if current else w
                    current.append(word)
            para_lines.append((current, used, True))  # a hard break ends the line: never justified
        out.append(para_lines)
    return out


def _height(broken, leading: float) -> float:
    """Height in 1-pt units."""
    lines = sum(len(p) for p in broken)
    return leading * (lines + PARAGRAPH_GAP * (len(broken) - 1))


def _line_count(widths: list[list[float]], space: float, width1: float) -> int | None:
    """How many lines greedy breaking needs at a line width of ``width1`` (1-pt units); None
    if a word is wider than a line. Only counts: trial sizes need nothing more."""
    limit = width1 + 1e-9
    count = 0
    for hard_line in widths:
        used = -1.0
        for w in hard_line:
            if w > limit:
                return None
            if used < 0:
                used = w
            elif used + space + w > limit:
                count += 1
                used = w
            else:
                used += space + w
        count += 1
    return count


def fit(measured, fonts: FontBook, style: TextStyle, box_w: float, box_h: float,
        max_size: float, min_size: float) -> LaidText:
    """Lay the text out at the largest size in [min_size, max_size] that fits (pt)."""
    space = fonts.face(style.family, style.bold, style.italic).width(" ")
    widths = [[w for _, w in hard_line] for paragraph in measured for hard_line in paragraph]
    gaps = PARAGRAPH_GAP * (len(measured) - 1)

    def fits(size: float) -> bool:
        lines = _line_count(widths, space, box_w / size)
        return lines is not None and style.leading * (lines + gaps) * size <= box_h + 1e-6

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
    return _place(_break(measured, space, box_w / size), fonts, style, space, size, box_w, box_h)


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

    def flush():
        if text:
            segments.append(Segment(start, "".join(text), face, color))
            text.clear()

    for word_index, (pieces, _width) in enumerate(words):
        for piece_index, piece in enumerate(pieces):
            run = piece.run
            if run.icon is not None:
                flush()
                face = None
                segments.append(Segment(x, "", None, run.style.color, run.icon))
            else:
                joins = text and piece.face is face and run.style.color == color
                if joins and piece_index == 0 and word_index > 0:
                    joins = abs(face.width(" ") - space) < 1e-9
                    if joins:
                        text.append(" ")
                if not joins:
                    flush()
                    start, face, color = x, piece.face, run.style.color
                text.append(run.text)
            x += piece.width * size
        x += gap
    flush()
    return tuple(segments)
