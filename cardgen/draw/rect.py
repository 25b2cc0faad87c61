"""``<rect>``: a rectangle, optionally with rounded corners."""
from __future__ import annotations

from .attributes import DASH, FILL, OPACITY, ROTATE, STROKE, STROKE_WIDTH, Attr, length, positive_length
from . import pdfops, shape
from .context import rotation

TAG = "rect"
DOC = "A rectangle; `r` rounds its corners."
ATTRIBUTES = {
    "x": Attr(length, "left edge", required=True),
    "y": Attr(length, "top edge", required=True),
    "w": Attr(positive_length, "width", required=True),
    "h": Attr(positive_length, "height", required=True),
    "r": Attr(length, "corner radius", 0.0),
    "fill": FILL, "stroke": STROKE, "stroke-width": STROKE_WIDTH, "dash": DASH, "opacity": OPACITY,
    "rotate": ROTATE,
}


def check(attrs: dict) -> None:
    half = min(attrs["w"], attrs["h"]) / 2
    if attrs["r"] < 0 or attrs["r"] > half:  # said as an attribute's problem is: which element, and the numbers
        raise ValueError(f'<{TAG}> r: must be between 0 and half the shorter side ({half:g} mm), got {attrs["r"]:g}')


def direct(attrs) -> bool:
    """Whether the rectangle is drawn with PDF operators alone (see draw/__init__.py)."""
    return not attrs["rotate"] and shape.direct(attrs)


def outline(attrs, geometry) -> tuple[str, tuple]:
    """The rectangle's path (PDF operators) and its bounds (PDF coordinates)."""
    x, y = geometry.x(attrs["x"]), geometry.y(attrs["y"] + attrs["h"])
    w, h = geometry.pt(attrs["w"]), geometry.pt(attrs["h"])
    path = pdfops.round_rect(x, y, w, h, geometry.pt(attrs["r"])) if attrs["r"] else pdfops.rect(x, y, w, h)
    return path, (x, y, x + w, y + h)


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    if a["fill"] is None and a["stroke"] is None:
        return
    path, box = outline(a, geometry)
    prefix = rotation(geometry, a["rotate"], a["x"] + a["w"] / 2, a["y"] + a["h"] / 2) if a["rotate"] else ""
    shape.paint_path(canvas, geometry, a, path, box, prefix)
