"""``<ellipse>``: an ellipse given by its centre and radii."""
from __future__ import annotations

from .attributes import Attr, PAINT, length, positive_length
from . import pdfops, shape

TAG = "ellipse"
DOC = "An ellipse around (`cx`, `cy`) with radii `rx` and `ry`."
ATTRIBUTES = {
    "cx": Attr(length, "centre, from the left", required=True),
    "cy": Attr(length, "centre, from the top", required=True),
    "rx": Attr(positive_length, "horizontal radius", required=True),
    "ry": Attr(positive_length, "vertical radius", required=True),
    **PAINT,
}


def oval(geometry, cx, cy, rx, ry) -> tuple[str, tuple]:
    """An oval's path (PDF operators) and bounds (PDF coordinates)."""
    x, y, w, h = geometry.x(cx), geometry.y(cy), geometry.pt(rx), geometry.pt(ry)
    return pdfops.ellipse(x, y, w, h), (x - w, y - h, x + w, y + h)


direct = shape.direct


def outline(attrs, geometry) -> tuple[str, tuple]:
    return oval(geometry, attrs["cx"], attrs["cy"], attrs["rx"], attrs["ry"])


def draw(canvas, element, geometry, prepared=None) -> None:
    shape.draw_outlined(outline, canvas, element, geometry)
