"""``<circle>``: a circle given by its centre and radius."""
from __future__ import annotations

from .attributes import Attr, PAINT, length, positive_length
from . import shape
from .ellipse import oval

TAG = "circle"
DOC = "A circle around (`cx`, `cy`) with radius `r`."
ATTRIBUTES = {
    "cx": Attr(length, "centre, from the left", required=True),
    "cy": Attr(length, "centre, from the top", required=True),
    "r": Attr(positive_length, "radius", required=True),
    **PAINT,
}


direct = shape.direct


def outline(attrs, geometry) -> tuple[str, tuple]:
    return oval(geometry, attrs["cx"], attrs["cy"], attrs["r"], attrs["r"])


def draw(canvas, element, geometry, prepared=None) -> None:
    shape.draw_outlined(outline, canvas, element, geometry)
