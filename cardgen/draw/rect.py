"""``<rect>``: a rectangle, optionally with rounded corners."""
from __future__ import annotations

from .attributes import FILL, OPACITY, ROTATE, STROKE, STROKE_WIDTH, Attr, length, positive_length
from . import pdfops
from .context import apply_paint, rotated

TAG = "rect"
DOC = "A rectangle; `r` rounds its corners."
ATTRIBUTES = {
    "x": Attr(length, "left edge", required=True),
    "y": Attr(length, "top edge", required=True),
    "w": Attr(positive_length, "width", required=True),
    "h": Attr(positive_length, "height", required=True),
    "r": Attr(length, "corner radius", 0.0),
    "fill": FILL, "stroke": STROKE, "stroke-width": STROKE_WIDTH, "opacity": OPACITY, "rotate": ROTATE,
}


def check(attrs: dict) -> None:
    if attrs["r"] < 0 or attrs["r"] > min(attrs["w"], attrs["h"]) / 2:
        raise ValueError("r must be between 0 and half the shorter side")


def direct(attrs) -> bool:
    """Whether the rectangle is drawn with PDF operators alone (see draw/__init__.py)."""
    return not attrs["rotate"] and attrs["opacity"] >= 1


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    fill, stroke = a["fill"], a["stroke"]
    if fill is None and stroke is None:
        return
    x, y = geometry.x(a["x"]), geometry.y(a["y"] + a["h"])
    w, h = geometry.pt(a["w"]), geometry.pt(a["h"])
    if not direct(a):  # the general way, through reportlab
        canvas.saveState()
        apply_paint(canvas, a)
        rotated(canvas, geometry, a["rotate"], a["x"] + a["w"] / 2, a["y"] + a["h"] / 2)
        if a["r"]:
            canvas.roundRect(x, y, w, h, geometry.pt(a["r"]), stroke=int(stroke is not None), fill=int(fill is not None))
        else:
            canvas.rect(x, y, w, h, stroke=int(stroke is not None), fill=int(fill is not None))
        canvas.restoreState()
        return
    path = pdfops.round_rect(x, y, w, h, geometry.pt(a["r"])) if a["r"] else pdfops.rect(x, y, w, h)
    canvas._code.append(pdfops.painted(path, fill, stroke, geometry.pt(a["stroke-width"])))  # written directly
