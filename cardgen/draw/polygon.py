"""``<polygon>``: a closed shape through a list of points."""
from __future__ import annotations

from .attributes import FILL, OPACITY, STROKE, STROKE_WIDTH, Attr, points
from .context import apply_paint

TAG = "polygon"
DOC = 'A closed shape through `points` ("x,y x,y x,y ...").'
ATTRIBUTES = {
    "points": Attr(points, 'corner points, "x,y" pairs separated by spaces', required=True),
    "fill": FILL, "stroke": STROKE, "stroke-width": STROKE_WIDTH, "opacity": OPACITY,
}


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    canvas.saveState()
    fill, stroke = apply_paint(canvas, a)
    if fill or stroke:
        path = canvas.beginPath()
        (x0, y0), *rest = a["points"]
        path.moveTo(geometry.x(x0), geometry.y(y0))
        for x, y in rest:
            path.lineTo(geometry.x(x), geometry.y(y))
        path.close()
        canvas.drawPath(path, stroke=int(stroke), fill=int(fill))
    canvas.restoreState()
