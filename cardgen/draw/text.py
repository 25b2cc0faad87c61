"""``<text>``: a box of rich text, auto-fitted between ``size`` and ``min-size``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .attributes import ROTATE, Attr, choice, color, ink, length, number, positive_length, positive_number, text
from . import pdfops
from .content import TEXT, replay
from .context import rotation

MIN_LETTER_SPACING = -0.5  # em: i, l and the period are narrower: past it the text runs backwards


def em(value: str) -> float:
    """A length in em (a fraction of the text size): "0.05" or "0.05em"."""
    try:
        spacing = number(value.strip().removesuffix("em"))
    except ValueError:
        raise ValueError(f'expected a number of em such as "0.05em", got "{value}"') from None
    if spacing < MIN_LETTER_SPACING:
        raise ValueError(f"must be at least {MIN_LETTER_SPACING:g}em: closer, most letters print over the one "
                         f'before, got "{value}"')
    return spacing


MIN_TEXT_SIZE = 1.0  # pt: smaller text prints as specks, not letters (and 1e-320 was written as 0)


def text_size(value: str) -> float:
    size = positive_number(value)
    if size < MIN_TEXT_SIZE:
        raise ValueError(f"must be at least {MIN_TEXT_SIZE:g} pt: smaller text does not print as letters, "
                         f"got {value}")
    return size


def language(value: str) -> str:
    if value not in ("auto", "none"):
        from ..text.hyphenate import dictionary

        dictionary(value)  # raises, naming the languages known
    return value


TAG = "text"
DOC = "A text box; its content is rich text (see Rich text), fitted to the box."
ATTRIBUTES = {
    "name": Attr(text, "the box's name in error messages", None),
    "x": Attr(length, "left edge", required=True),
    "y": Attr(length, "top edge", required=True),
    "w": Attr(positive_length, "width", required=True),
    "h": Attr(positive_length, "height", required=True),
    "font": Attr(text, "font family: cardgen's own, the project's fonts/, or a declared system font "
                 "(`cardgen fonts` lists them)", None),
    "weight": Attr(choice("normal", "bold"), "normal or bold", "normal"),
    "style": Attr(choice("normal", "italic"), "normal or italic", "normal"),
    "size": Attr(text_size, "largest size, pt", 10.0),
    "min-size": Attr(text_size, "smallest size auto-fit may use, pt (default: size, no shrinking)", None),
    "leading": Attr(positive_number, "line height as a multiple of the size", 1.2),
    "align": Attr(choice("left", "center", "right", "justify"),
                  "horizontal alignment: left, center, right, or justify (every line but the last of a "
                  "paragraph, or before a newline, fills the width)", "left"),
    "valign": Attr(choice("top", "middle", "bottom"), "vertical alignment of the text block in the box: top, "
                   "middle or bottom", "top"),
    "color": Attr(ink, "text colour", color("#000000")),
    "letter-spacing": Attr(em, 'space after every character, in em (fractions of the size) such as "0.05em"',
                           0.0),
    "hyphenate": Attr(language, "break long words at a line's end: `auto` (in the set's `language`, if it "
                      "names one), `none`, or a language such as `en_US` or `de`", "auto"),
    "markup": Attr(choice("rich", "plain"), "`rich` reads the card markup, `plain` prints every character as is", "rich"),
    "rotate": ROTATE,
}


def check(attrs: dict) -> None:
    if attrs["min-size"] is None:
        attrs["min-size"] = attrs["size"]
    if attrs["min-size"] > attrs["size"]:
        raise ValueError(f'<text> min-size: must not be larger than size ({attrs["size"]:g} pt), got {attrs["min-size"]:g}')


@dataclass(frozen=True)
class PreparedText:
    """A text box ready to draw: its laid-out lines and how its icons are drawn."""

    laid: Any  # cardgen.text.fit.LaidText
    icon_parts: Mapping[str, Callable]  # name -> parts(x, baseline, size, color): an icon's drawing
    paint_icon: Callable  # (canvas, name, x, baseline, size): draws an image icon (an "I" part)


def direct(attrs) -> bool:
    """Text is written as operators (see ``record``). Image icons in it are separate parts,
    drawn anew when replayed (see draw/content.py)."""
    return True


def record(element, geometry, prepared: PreparedText) -> list:
    """The box's drawing as parts (see draw/content.py). Text operators are written directly:
    reportlab's text object re-measures every string to advance its cursor, which layout has
    already done."""
    a = element.attrs
    laid = prepared.laid
    left, top = geometry.x(a["x"]), geometry.y(a["y"])
    parts: list = ["q"]
    if a["rotate"]:
        parts.append(rotation(geometry, a["rotate"], a["x"] + a["w"] / 2, a["y"] + a["h"] / 2))
    size = pdfops.number(laid.size)
    box_color = a["color"]
    items: list = [f"{a['letter-spacing'] * laid.size:.3f} Tc"] if a["letter-spacing"] else []
    append = items.append
    current_color = None
    icons = []
    word_space = 0.0
    line_x = line_y = 0  # the text line start in force, in hundredths of a point
    moves = _MOVES
    for line_baseline, segments, line_word_space in laid.lines:
        baseline = top - line_baseline
        if line_word_space != word_space:
            word_space = line_word_space
            append("%.3f Tw" % word_space)  # reportlab's subsets keep the space at code 32 (% formats fastest)
        at_y = None
        for x, text_run, face, run_color, icon in segments:
            run_color = color(run_color) if run_color else box_color
            if icon is not None:
                icons.append((icon, left + x, baseline, run_color))
                continue
            if run_color is not current_color:
                append(_fill(run_color))
                current_color = run_color
            # Td moves from the last line start: shorter than a matrix, and exact, because
            # positions are whole hundredths of a point
            at_x = round((left + x) * 100)
            if at_y is None:
                at_y = round(baseline * 100)
            move = (at_x - line_x, at_y - line_y)
            operator = moves.get(move)
            if operator is None:  # most moves are a line down, or back to the box's left
                if len(moves) >= _MOVES_KEPT:
                    moves.clear()
                operator = moves[move] = f"{move[0] / 100:.2f} {move[1] / 100:.2f} Td"
            append(operator)
            line_x, line_y = at_x, at_y
            append((face.pdf_name, size, text_run))
    width, height = geometry.pt(a["w"]), geometry.pt(a["h"])
    if laid.overflow:  # the live preview: clipped to the box
        parts.append(f"q {left:.2f} {top - height:.2f} {width:.2f} {height:.2f} re W n")
    parts.append((TEXT, tuple(items)))
    for name, x, baseline, run_color in icons:
        parts.extend(prepared.icon_parts[name](x, baseline, laid.size, run_color))
    if laid.overflow:
        parts.append("Q")
        parts.append(overflow_mark(left, top, width, height))
    parts.append("Q")
    return parts


_MOVES: dict[tuple[int, int], str] = {}  # (dx, dy) in hundredths of a point -> its Td operator
_MOVES_KEPT = 4096
_FILLS: dict[int, tuple[Any, str]] = {}  # id of a colour -> (the colour, its fill operator)
_FILLS_KEPT = 256


def _fill(value) -> str:
    """``pdfops.color(value)``, once per colour object: a box's colour is one object for every
    card of its layout (its attributes are shared, see render/markup.py)."""
    known = _FILLS.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    operator = pdfops.color(value)
    if len(_FILLS) >= _FILLS_KEPT:  # colours made card by card ([color=...] runs): memory stays flat
        _FILLS.clear()
    _FILLS[id(value)] = (value, operator)
    return operator


def overflow_mark(left: float, top: float, width: float, height: float) -> str:
    """The live preview's mark on a box whose text is over: a dashed red outline and a red
    tab with a down arrow at its bottom edge."""
    bottom, middle = top - height, left + width / 2
    return (f"q 0.84 0.1 0.1 RG 0.84 0.1 0.1 rg 0.8 w [2 1.5] 0 d {left:.2f} {bottom:.2f} {width:.2f} {height:.2f} re S "
            f"[] 0 d {middle - 7:.2f} {bottom:.2f} m {middle + 7:.2f} {bottom:.2f} l {middle:.2f} {bottom - 6:.2f} l f Q")


def draw(canvas, element, geometry, prepared: PreparedText) -> None:
    from ..text.fonts import FontBook  # the faces layout loaded

    replay(canvas, record(element, geometry, prepared), FontBook.loaded, None,
           lambda *icon: prepared.paint_icon(canvas, *icon))
