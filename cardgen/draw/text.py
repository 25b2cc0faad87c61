"""``<text>``: a box of rich text, auto-fitted between ``size`` and ``min-size``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .attributes import ROTATE, Attr, choice, color, length, positive_length, positive_number, text
from .context import rotated

TAG = "text"
DOC = "A text box; its content is rich text (see Rich text), fitted to the box."
ATTRIBUTES = {
    "name": Attr(text, "the box's name in error messages", None),
    "x": Attr(length, "left edge", required=True),
    "y": Attr(length, "top edge", required=True),
    "w": Attr(positive_length, "width", required=True),
    "h": Attr(positive_length, "height", required=True),
    "font": Attr(text, "font family from fonts/fonts.yaml", None),
    "weight": Attr(choice("normal", "bold"), "normal or bold", "normal"),
    "style": Attr(choice("normal", "italic"), "normal or italic", "normal"),
    "size": Attr(positive_number, "largest size, pt", 10.0),
    "min-size": Attr(positive_number, "smallest size auto-fit may use, pt (default: size, no shrinking)", None),
    "leading": Attr(positive_number, "line height as a multiple of the size", 1.2),
    "align": Attr(choice("left", "center", "right", "justify"), "horizontal alignment", "left"),
    "valign": Attr(choice("top", "middle", "bottom"), "vertical alignment", "top"),
    "color": Attr(color, "text colour", color("#000000")),
    "markup": Attr(choice("rich", "plain"), "`rich` reads the card markup, `plain` prints every character as is", "rich"),
    "rotate": ROTATE,
}


def check(attrs: dict) -> None:
    if attrs["min-size"] is None:
        attrs["min-size"] = attrs["size"]
    if attrs["min-size"] > attrs["size"]:
        raise ValueError("min-size must not be larger than size")


@dataclass(frozen=True)
class PreparedText:
    laid: Any  # cardgen.text.fit.LaidText
    icon_painters: Mapping[str, Callable]  # name -> paint(canvas, x, baseline, size, color)


def draw(canvas, element, geometry, prepared: PreparedText) -> None:
    a = element.attrs
    laid = prepared.laid
    box_color = a["color"]
    left, top = geometry.x(a["x"]), geometry.y(a["y"])
    canvas.saveState()
    rotated(canvas, geometry, a["rotate"], a["x"] + a["w"] / 2, a["y"] + a["h"] / 2)
    size = laid.size
    text_object = canvas.beginText()
    current_font = current_color = None
    icons = []
    for line in laid.lines:
        baseline = top - line.baseline
        for placed in line.pieces:
            piece = placed.piece
            run_color = color(piece.run.style.color) if piece.run.style.color else box_color
            if piece.run.icon is not None:
                icons.append((piece.run.icon, left + placed.x, baseline, run_color))
                continue
            if piece.face.pdf_name != current_font:
                text_object.setFont(piece.face.pdf_name, size)
                current_font = piece.face.pdf_name
            if run_color != current_color:
                text_object.setFillColor(run_color)
                current_color = run_color
            text_object.setTextOrigin(left + placed.x, baseline)
            text_object.textOut(piece.run.text)
    canvas.drawText(text_object)
    for name, x, baseline, run_color in icons:
        prepared.icon_painters[name](canvas, x, baseline, size, run_color)
    canvas.restoreState()
