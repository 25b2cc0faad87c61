"""``<circle>``: a circle given by its centre and radius."""
from __future__ import annotations

from .attributes import DASH, FILL, OPACITY, STROKE, STROKE_WIDTH, Attr, length, positive_length
from . import shape
from .ellipse import draw_oval, oval

TAG = "circle"
DOC = "A circle around (`cx`, `cy`) with radius `r`."
ATTRIBUTES = {
    "cx": Attr(length, "centre, from the left", required=True),
    "cy": Attr(length, "centre, from the top", required=True),
    "r": Attr(positive_length, "radius", required=True),
    "fill": FILL, "stroke": STROKE, "stroke-width": STROKE_WIDTH, "dash": DASH, "opacity": OPACITY,
}


def direct(attrs) -> bool:
    """Whether the shape is drawn with PDF operators alone (see draw/__init__.py)."""
    return shape.direct(attrs)


def outline(attrs, geometry) -> tuple[str, tuple]:
    return oval(geometry, attrs["cx"], attrs["cy"], attrs["r"], attrs["r"])


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    draw_oval(canvas, geometry, a["cx"], a["cy"], a["r"], a["r"], a)
