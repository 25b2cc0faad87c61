"""``<text>``: a box of rich text, auto-fitted between ``size`` and ``min-size``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .attributes import ROTATE, Attr, choice, color, length, positive_length, positive_number, text
from .context import rotated
from .encoding import encode

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
    left, top = geometry.x(a["x"]), geometry.y(a["y"])
    canvas.saveState()
    rotated(canvas, geometry, a["rotate"], a["x"] + a["w"] / 2, a["y"] + a["h"] / 2)
    size = laid.size
    # Text operators are written directly: reportlab's text object re-measures every string
    # to advance its cursor, which layout has already done.
    doc = canvas._doc
    box_color = a["color"]
    code = ["BT"]
    current_font = current_color = None
    icons = []
    word_space = 0.0
    for line in laid.lines:
        baseline = top - line.baseline
        if line.word_space != word_space:
            word_space = line.word_space
            code.append(f"{word_space:.3f} Tw")  # reportlab's subsets keep the space at code 32
        for x, text_run, face, run_color, icon in line.segments:
            run_color = color(run_color) if run_color else box_color
            if icon is not None:
                icons.append((icon, left + x, baseline, run_color))
                continue
            if run_color is not current_color:
                code.append(f"{run_color.red:.4g} {run_color.green:.4g} {run_color.blue:.4g} rg")
                current_color = run_color
            code.append(f"1 0 0 1 {left + x:.2f} {baseline:.2f} Tm")
            for subset, chunk in encode(face.ttf, text_run, doc):
                font = face.ttf.getSubsetInternalName(subset, doc)
                if font != current_font:
                    code.append(f"{font} {size:.4g} Tf")
                    current_font = font
                code.append(f"({chunk}) Tj")
    code.append("ET")
    canvas._code.append(" ".join(code))
    for name, x, baseline, run_color in icons:
        prepared.icon_painters[name](canvas, x, baseline, size, run_color)
    canvas.restoreState()
