"""``<polygon>``: a closed shape through a list of points."""
from __future__ import annotations

from .attributes import Attr, PAINT, points
from . import shape

TAG = "polygon"
DOC = 'A closed shape through `points` ("x,y x,y x,y ...").'
ATTRIBUTES = {
    "points": Attr(points, 'corner points, "x,y" pairs separated by spaces', required=True),
    **PAINT,
}


direct = shape.direct


def outline(attrs, geometry) -> tuple[str, tuple]:
    (x0, y0), *rest = attrs["points"]
    path = " ".join([f"{geometry.x(x0):.3f} {geometry.y(y0):.3f} m"]
                    + [f"{geometry.x(x):.3f} {geometry.y(y):.3f} l" for x, y in rest] + ["h"])
    xs = [geometry.x(x) for x, _ in attrs["points"]]
    ys = [geometry.y(y) for _, y in attrs["points"]]
    return path, (min(xs), min(ys), max(xs), max(ys))


def draw(canvas, element, geometry, prepared=None) -> None:
    shape.draw_outlined(outline, canvas, element, geometry)
