"""Fit rich text into a box: measure every word once at 1 pt, then search the size by arithmetic.

Line breaking at size s depends only on (box width / s), so each trial size costs one binary
search a line over the measured widths (breaking.py); no text is measured again.
"""
from __future__ import annotations

from dataclasses import dataclass, fields as dataclass_fields, replace
from typing import Callable, NamedTuple

from .breaking import PARAGRAPH_GAP, Lines, height_in_lines
from .fonts import FontBook, FontFace
from .hyphenate import HYPHEN, SOFT_HYPHEN, Hyphenator, hyphenated
from .rich import Group, Paragraph, Run, Style

ICON_HEIGHT = 0.9  # an inline icon's height, as a fraction of the text size
SIZE_STEP = 0.05  # pt: the precision of auto-fit


class MissingGlyph(ValueError):
    def __init__(self, char: str, font):  # font: the font file's path
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
    """A text laid out in its box: the size chosen, the lines, and the height they take."""

    size: float
    lines: tuple[LaidLine, ...]
    height: float  # pt actually used
    overflow: str | None = None  # preview only: why the text is over its box (drawn clipped)


@dataclass(frozen=True)
class TextStyle:
    """How a text box sets its text: font, leading, alignment, letter spacing and hyphenation."""

    family: str | None
    bold: bool
    italic: bool
    leading: float
    align: str
    valign: str
    letter_spacing: float = 0.0  # em: added after every character (PDF's Tc)
    hyphenator: Hyphenator | None = None  # None: words never break
    soft_hyphens: bool = False  # the text holds U+00AD: not printed unless a word breaks there


class MeasuredLine(NamedTuple):
    """A hard line's words, measured at 1 pt. A word is plain (one run of text: its text and
    its (face, colour) key) or mixed (its pieces); plain words of one key side by side are
    written as one string."""

    widths: list[float]
    texts: list  # a plain word's text, or None
    keys: list  # a plain word's (face, colour), or None
    pieces: dict[int, list[Piece]]  # word index -> the pieces of a mixed word


_new_tuple = tuple.__new__  # a named tuple made without its __new__'s own call: made per word and line


def measure(paragraphs: tuple[Paragraph, ...], fonts: FontBook, style: TextStyle,
            icon_width: Callable[[str], float]) -> list[list[MeasuredLine]]:
    """Paragraph -> hard line -> measured words. Raises MissingGlyph."""
    faces: dict[tuple[bool, bool], FontFace] = {}
    keys: dict[Style, tuple] = {}  # one (face, colour) tuple per style: compared by identity

    def face_of(run_style: Style) -> FontFace:
        bold, italic = style.bold or run_style.bold, style.italic or run_style.italic
        face = faces.get((bold, italic))
        if face is None:
            face = faces[bold, italic] = fonts.face(style.family, bold, italic)
        return face

    measured = []
    for paragraph in paragraphs:
        lines = []
        for line in paragraph:
            widths: list[float] = []
            texts: list = []
            line_keys: list = []
            mixed: dict[int, list[Piece]] = {}
            for item in line:
                if item.__class__ is Group:
                    key = keys.get(item.style)
                    if key is None:
                        key = keys[item.style] = fonts.run_key(style.family, style.bold, style.italic, item.style)
                    face = key[0]
                    if style.soft_hyphens or style.letter_spacing:
                        group_widths = [_width(face, text.replace(SOFT_HYPHEN, "")) for text in item.texts]
                        if style.letter_spacing:
                            group_widths = [width + style.letter_spacing * len(text.replace(SOFT_HYPHEN, ""))
                                            for width, text in zip(group_widths, item.texts)]
                    else:
                        group_widths = list(map(face._widths.get, item.texts))
                        if None in group_widths:
                            group_widths = [_width(face, text) for text in item.texts]
                    widths += group_widths
                    texts += item.texts
                    line_keys += [key] * len(item.texts)
                    continue
                pieces = []
                total = 0.0
                for run in item:
                    if run.icon is not None:
                        width = icon_width(run.icon)
                        pieces.append(_new_tuple(Piece, (run, None, width)))
                    else:
                        face = face_of(run.style)
                        if style.soft_hyphens:  # a word of mixed styles never breaks: drop them
                            run = run._replace(text=run.text.replace(SOFT_HYPHEN, ""))
                        width = _width(face, run.text) + style.letter_spacing * len(run.text)
                        pieces.append(_new_tuple(Piece, (run, face, width)))
                    total += width
                mixed[len(widths)] = pieces
                widths.append(total)
                texts.append(None)
                line_keys.append(None)
            lines.append(_new_tuple(MeasuredLine, (widths, texts, line_keys, mixed)))
        measured.append(lines)
    return measured


def _width(face: FontFace, text: str) -> float:
    width = face.checked_width(text)
    if width.__class__ is str:
        raise MissingGlyph(width, face.path)
    return width


def fit(measured, fonts: FontBook, style: TextStyle, box_w: float, box_h: float,
        max_size: float, min_size: float, overflow: bool = False) -> LaidText:
    """Lay the text out at the largest size in [min_size, max_size] that fits (pt). Text that
    does not fit raises DoesNotFit, or with ``overflow`` (the live preview) is laid out at
    ``min_size`` from the box's top, past its bottom, the reason kept in ``overflow``."""
    space = fonts.face(style.family, style.bold, style.italic).width(" ") + style.letter_spacing
    lines = Lines(measured, space)
    gaps = PARAGRAPH_GAP * (len(measured) - 1)
    if style.hyphenator is not None or style.soft_hyphens:
        return _fit_hyphenating(measured, lines, fonts, style, space, gaps, box_w, box_h, max_size, min_size,
                                overflow)

    def fits(size: float) -> bool:
        count = lines.count(box_w / size)
        return count is not None and style.leading * (count + gaps) * size <= box_h + 1e-6

    count = lines.count(box_w / max_size)
    if count is not None and style.leading * (count + gaps) * max_size <= box_h + 1e-6:
        size = max_size
    else:
        # Greedy breaking never needs more lines at a smaller size, so the size at which the
        # lines needed at max_size just fill the box fits too: a lower bound to start from.
        low = box_h / (style.leading * (count + gaps)) if count is not None else 0.0
        low_count = None  # lines needed at ``low``, once a break was counted there
        if low < min_size:
            if not fits(min_size):
                reason = f"the text does not fit at the minimum size {min_size:g} pt"
                if not overflow:
                    raise DoesNotFit(reason)
                return _overflowing(lines, fonts, style, space, min_size, box_w, box_h, reason)
            low = min_size
        high = min(max_size, lines.largest_possible(box_w, box_h, style.leading, gaps))
        # Bounds on the lines a size needs: at least low_count above ``low`` (once counted there),
        # at most high_count below ``high`` (the count at max_size bounds every smaller size).
        # A size whose bound already settles whether it fits is not counted: the count is
        # monotonic in the size, so the same sizes are kept and the same size chosen.
        high_count = count
        while high - low > SIZE_STEP:
            middle = (low + high) / 2
            if low_count is not None and low_count == high_count:
                middle_count = low_count  # every size between needs that many lines
            elif high_count is not None and style.leading * (high_count + gaps) * middle <= box_h + 1e-6:
                low = middle  # fits even with the most lines it can need
                continue
            elif low_count is not None and style.leading * (low_count + gaps) * middle > box_h + 1e-6:
                high = middle  # too high even with the fewest lines it can need
                continue
            else:
                middle_count = lines.count(box_w / middle)
            if middle_count is not None and style.leading * (middle_count + gaps) * middle <= box_h + 1e-6:
                low, low_count = middle, middle_count
            elif middle_count is not None:
                high, high_count = middle, middle_count
            else:  # a word wider than the line: no count here, the bound above still holds
                high = middle
        size = low
    return _place(lines.broken(box_w / size), fonts, style, space, size, box_w, box_h)


def _overflowing(lines: Lines, fonts: FontBook, style: TextStyle, space: float, size: float, box_w: float,
                 box_h: float, reason: str) -> LaidText:
    """Text that does not fit, laid out at ``size`` from the box's top and past its bottom (the
    live preview draws it clipped and marked)."""
    laid = _place(lines.broken(box_w / size), fonts, replace(style, valign="top"), space, size, box_w, box_h)
    return LaidText(laid.size, laid.lines, laid.height, reason)


def _fit_hyphenating(measured, lines: Lines, fonts: FontBook, style: TextStyle, space: float, gaps: float,
                     box_w: float, box_h: float, max_size: float, min_size: float,
                     overflow: bool = False) -> LaidText:
    """Auto-fit that breaks words before it shrinks: the largest size at which the text, with
    words hyphenated at the lines' ends, fits."""
    hyphenator = style.hyphenator or Hyphenator(None)
    ls = style.letter_spacing

    def word_width(key, text: str) -> float:
        return _width(key[0], text) + ls * len(text)

    def hyphen_width(key) -> float:
        return _width(key[0], HYPHEN) + ls

    def broken_at(size: float):
        split = hyphenated(measured, box_w / size, space, hyphen_width, word_width, hyphenator)
        return Lines(split, space)

    def fits(size: float) -> Lines | None:
        count = lines.count(box_w / size)  # unbroken words first: hyphens only where needed
        if count is not None and style.leading * (count + gaps) * size <= box_h + 1e-6:
            return lines
        split = broken_at(size)
        count = split.count(box_w / size)
        if count is not None and style.leading * (count + gaps) * size <= box_h + 1e-6:
            return split
        return None

    size = max_size
    chosen = fits(max_size)
    if chosen is None:
        if fits(min_size) is None:
            reason = f"the text does not fit at the minimum size {min_size:g} pt"
            if not overflow:
                raise DoesNotFit(reason)
            return _without_soft_hyphens(_overflowing(broken_at(min_size), fonts, style, space, min_size, box_w,
                                                      box_h, reason), style)
        low, high = min_size, max_size
        while high - low > SIZE_STEP:
            middle = (low + high) / 2
            if fits(middle) is not None:
                low = middle
            else:
                high = middle
        size = low
        chosen = fits(size)
    return _without_soft_hyphens(_place(chosen.broken(box_w / size), fonts, style, space, size, box_w, box_h),
                                 style)


def _without_soft_hyphens(laid: LaidText, style: TextStyle) -> LaidText:
    """Soft hyphens print only where a word breaks, and then as the hyphen added there."""
    if not style.soft_hyphens:
        return laid
    return replace(laid, lines=tuple(line._replace(segments=tuple(
        segment._replace(text=segment.text.replace(SOFT_HYPHEN, "")) for segment in line.segments))
        for line in laid.lines))


def _place(broken, fonts: FontBook, style: TextStyle, space: float, size: float, box_w: float,
           box_h: float) -> LaidText:
    face = fonts.face(style.family, style.bold, style.italic)
    band = style.leading * size
    glyphs = (face.ascent + face.descent) * size
    height = height_in_lines(broken, style.leading) * size
    valign = style.valign
    top = 0.0 if valign == "top" else (box_h - height) / 2 if valign == "middle" else box_h - height
    align = style.align
    justify, center, right = align == "justify", align == "center", align == "right"
    joinable: dict = {}  # (face, colour) -> its space is the layout's: its words may share a string
    lines: list[LaidLine] = []
    y = top
    half_leading, ascent = (band - glyphs) / 2, face.ascent * size
    space_pt = space * size
    for index, paragraph in enumerate(broken):
        if index:
            y += PARAGRAPH_GAP * band
        for hard_line, start, end, used, last in paragraph:
            baseline = y + half_leading + ascent
            y += band
            extra = box_w - used * size
            x = extra / 2 if center else extra if right else 0.0
            word_space = extra / (end - start - 1) if justify and not last and end - start > 1 else 0.0
            keys = hard_line.keys
            key = keys[start] if end > start else None
            if key is not None and keys[start:end].count(key) == end - start:
                joins = joinable.get(key)
                if joins is None:
                    joins = joinable[key] = abs(key[0].width(" ") + style.letter_spacing - space) < 1e-9
                if joins:  # the usual line: one string
                    segments = (_new_tuple(Segment, (x, " ".join(hard_line.texts[start:end]), key[0], key[1], None)),)
                    lines.append(_new_tuple(LaidLine, (baseline, segments, word_space)))
                    continue
            gap = space_pt + word_space if word_space else space_pt
            lines.append(_new_tuple(LaidLine, (baseline, _segments(hard_line, start, end, x, gap, size, space, joinable,
                                                                   style.letter_spacing), word_space)))
    return _laid_text(size, tuple(lines), height)


def _laid_text(size: float, lines: tuple, height: float) -> LaidText:
    """``LaidText(size, lines, height)``, its fields set without its __init__'s call of
    ``object.__setattr__`` a field (a text box makes one)."""
    laid = _new_object(LaidText)
    fields = laid.__dict__
    fields["size"], fields["lines"], fields["height"], fields["overflow"] = size, lines, height, None
    return laid


_new_object = object.__new__
if tuple(f.name for f in dataclass_fields(LaidText)) != ("size", "lines", "height", "overflow"):
    raise TypeError("LaidText's fields are not the ones _laid_text sets")


def _segments(hard_line: MeasuredLine, start: int, end: int, x: float, gap: float, size: float, space: float,
              joinable: dict, letter_spacing: float = 0.0) -> tuple[Segment, ...]:
    """Join a line's words into segments: words in one face and colour, one space apart, are
    one string (the PDF's own space, widened by the line's word spacing, keeps them apart). A
    face whose space is not the layout's starts a new segment at its exact place."""
    segments: list[Segment] = []
    text: list[str] = []
    segment_x = 0.0
    face = color = None
    joining = None  # the (face, colour) key of the text being gathered when a next word of it joins it
    texts, keys, widths, mixed = hard_line.texts, hard_line.keys, hard_line.widths, hard_line.pieces
    for index in range(start, end):
        word_text = texts[index]
        if word_text is not None:
            key = keys[index]
            if key is joining:  # the usual word: the text goes on, one space on
                text.append(" ")
                text.append(word_text)
                x += widths[index] * size
                x += gap
                continue
            pieces = ((key, word_text, widths[index]),)
        else:
            pieces = [((piece.face, piece.run.style.color), piece.run.text if piece.run.icon is None else None,
                       piece.width) if piece.face is not None else (piece.run, None, piece.width)
                      for piece in mixed[index]]
        word_start = index > start
        for key, piece_text, width in pieces:
            if piece_text is None:  # an icon
                if text:
                    segments.append(_new_tuple(Segment, (segment_x, "".join(text), face, color, None)))
                    text = []
                face = None
                segments.append(_new_tuple(Segment, (x, "", None, key.style.color, key.icon)))
            else:
                piece_face, piece_color = key
                joins = text and piece_face is face and piece_color == color
                if joins and word_start:
                    joins = joinable.get(key)
                    if joins is None:
                        joins = joinable[key] = abs(piece_face.width(" ") + letter_spacing - space) < 1e-9
                    if joins:
                        text.append(" ")
                if not joins:
                    if text:
                        segments.append(_new_tuple(Segment, (segment_x, "".join(text), face, color, None)))
                        text = []
                    segment_x, face, color = x, piece_face, piece_color
                text.append(piece_text)
            word_start = False
            x += width * size
        x += gap
        joining = key if word_text is not None and joinable.get(key) else None
    if text:
        segments.append(_new_tuple(Segment, (segment_x, "".join(text), face, color, None)))
    return tuple(segments)
