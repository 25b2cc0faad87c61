"""``<ellipse>``: an ellipse given by its centre and radii."""
from __future__ import annotations

from .attributes import FILL, OPACITY, STROKE, STROKE_WIDTH, Attr, length, positive_length
from . import pdfops
from .context import apply_paint

TAG = "ellipse"
DOC = "An ellipse around (`cx`, `cy`) with radii `rx` and `ry`."
ATTRIBUTES = {
    "cx": Attr(length, "centre, from the left", required=True),
    "cy": Attr(length, "centre, from the top", required=True),
    "rx": Attr(positive_length, "horizontal radius", required=True),
    "ry": Attr(positive_length, "vertical radius", required=True),
    "fill": FILL, "stroke": STROKE, "stroke-width": STROKE_WIDTH, "opacity": OPACITY,
}


def draw_oval(canvas, geometry, cx, cy, rx, ry, attrs) -> None:
    fill, stroke = attrs["fill"], attrs["stroke"]
    if fill is None and stroke is None:
        return
    if direct(attrs):  # the common case, written directly (see pdfops)
        path = pdfops.ellipse(geometry.x(cx), geometry.y(cy), geometry.pt(rx), geometry.pt(ry))
        canvas._code.append(pdfops.painted(path, fill, stroke, geometry.pt(attrs["stroke-width"])))
        return
    fill, stroke = apply_paint(canvas, attrs)
    if fill or stroke:
        canvas.saveState()
        canvas.ellipse(geometry.x(cx - rx), geometry.y(cy + ry), geometry.x(cx + rx), geometry.y(cy - ry),
                       stroke=int(stroke), fill=int(fill))
        canvas.restoreState()


def direct(attrs) -> bool:
    """Whether the shape is drawn with PDF operators alone (see draw/__init__.py)."""
    return attrs["opacity"] >= 1


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    draw_oval(canvas, geometry, a["cx"], a["cy"], a["rx"], a["ry"], a)
