"""``<ellipse>``: an ellipse given by its centre and radii."""
from __future__ import annotations

from .attributes import DASH, FILL, OPACITY, STROKE, STROKE_WIDTH, Attr, length, positive_length
from . import pdfops, shape

TAG = "ellipse"
DOC = "An ellipse around (`cx`, `cy`) with radii `rx` and `ry`."
ATTRIBUTES = {
    "cx": Attr(length, "centre, from the left", required=True),
    "cy": Attr(length, "centre, from the top", required=True),
    "rx": Attr(positive_length, "horizontal radius", required=True),
    "ry": Attr(positive_length, "vertical radius", required=True),
    "fill": FILL, "stroke": STROKE, "stroke-width": STROKE_WIDTH, "dash": DASH, "opacity": OPACITY,
}


def oval(geometry, cx, cy, rx, ry) -> tuple[str, tuple]:
    """An oval's path (PDF operators) and bounds (PDF coordinates)."""
    x, y, w, h = geometry.x(cx), geometry.y(cy), geometry.pt(rx), geometry.pt(ry)
    return pdfops.ellipse(x, y, w, h), (x - w, y - h, x + w, y + h)


def draw_oval(canvas, geometry, cx, cy, rx, ry, attrs) -> None:
    if attrs["fill"] is None and attrs["stroke"] is None:
        return
    path, box = oval(geometry, cx, cy, rx, ry)
    shape.paint_path(canvas, geometry, attrs, path, box)


def direct(attrs) -> bool:
    """Whether the shape is drawn with PDF operators alone (see draw/__init__.py)."""
    return shape.direct(attrs)


def outline(attrs, geometry) -> tuple[str, tuple]:
    return oval(geometry, attrs["cx"], attrs["cy"], attrs["rx"], attrs["ry"])


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    draw_oval(canvas, geometry, a["cx"], a["cy"], a["rx"], a["ry"], a)
