"""``<path>``: any outline in SVG path syntax: lines, cubic and quadratic curves, arcs."""
from __future__ import annotations

from .attributes import DASH, FILL, OPACITY, STROKE, STROKE_WIDTH, Attr
from . import shape
from .svgpath import bounds, parse_path, pdf_path

TAG = "path"
DOC = ('An outline in SVG path syntax (`M L H V C S Q T A Z`, lower case relative), filled with the '
       'non-zero rule; banners, ribbons, shields.')


def _path_data(value: str):
    return parse_path(value)


_path_data.__doc__ = "SVG path data"

ATTRIBUTES = {
    "d": Attr(_path_data, 'path data such as "M 5 5 L 20 5 Q 25 10 20 15 Z" (mm)', required=True),
    "fill": FILL, "stroke": STROKE, "stroke-width": STROKE_WIDTH, "dash": DASH, "opacity": OPACITY,
}


def direct(attrs) -> bool:
    """Whether the path is drawn with PDF operators alone (see draw/__init__.py)."""
    return shape.direct(attrs)


def outline(attrs, geometry) -> tuple[str, tuple]:
    segments = attrs["d"]
    left, top, right, bottom = bounds(segments)
    return pdf_path(segments, geometry), (geometry.x(left), geometry.y(bottom), geometry.x(right), geometry.y(top))


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    if a["fill"] is None and a["stroke"] is None:
        return
    path, box = outline(a, geometry)
    shape.paint_path(canvas, geometry, a, path, box)
