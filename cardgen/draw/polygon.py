"""``<polygon>``: a closed shape through a list of points."""
from __future__ import annotations

from .attributes import FILL, OPACITY, STROKE, STROKE_WIDTH, Attr, points
from . import pdfops
from .context import apply_paint

TAG = "polygon"
DOC = 'A closed shape through `points` ("x,y x,y x,y ...").'
ATTRIBUTES = {
    "points": Attr(points, 'corner points, "x,y" pairs separated by spaces', required=True),
    "fill": FILL, "stroke": STROKE, "stroke-width": STROKE_WIDTH, "opacity": OPACITY,
}


def direct(attrs) -> bool:
    """Whether the polygon is drawn with PDF operators alone (see draw/__init__.py)."""
    return attrs["opacity"] >= 1


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    fill, stroke = a["fill"], a["stroke"]
    if fill is None and stroke is None:
        return
    (x0, y0), *rest = a["points"]
    if direct(a):  # written directly: reportlab's colour setters also touch transparency
        path = " ".join([f"{geometry.x(x0):.3f} {geometry.y(y0):.3f} m"]
                        + [f"{geometry.x(x):.3f} {geometry.y(y):.3f} l" for x, y in rest] + ["h"])
        canvas._code.append(pdfops.painted(path, fill, stroke, geometry.pt(a["stroke-width"])))
        return
    canvas.saveState()
    apply_paint(canvas, a)
    path = canvas.beginPath()
    path.moveTo(geometry.x(x0), geometry.y(y0))
    for x, y in rest:
        path.lineTo(geometry.x(x), geometry.y(y))
    path.close()
    canvas.drawPath(path, stroke=int(stroke is not None), fill=int(fill is not None))
    canvas.restoreState()
