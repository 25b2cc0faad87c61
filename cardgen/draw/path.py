"""``<path>``: any outline in SVG path syntax: lines, cubic and quadratic curves, arcs."""
from __future__ import annotations

from .attributes import Attr, PAINT
from . import shape
from .svgpath import bounds, parse_path, pdf_path

TAG = "path"
DOC = ('An outline in SVG path syntax (`M L H V C S Q T A Z`, lower case relative), filled with the '
       'non-zero rule; banners, ribbons, shields.')

ATTRIBUTES = {
    "d": Attr(parse_path, 'path data such as "M 5 5 L 20 5 Q 25 10 20 15 Z" (mm)', required=True),
    **PAINT,
}


direct = shape.direct


def outline(attrs, geometry) -> tuple[str, tuple]:
    segments = attrs["d"]
    left, top, right, bottom = bounds(segments)
    return pdf_path(segments, geometry), (geometry.x(left), geometry.y(bottom), geometry.x(right), geometry.y(top))


def draw(canvas, element, geometry, prepared=None) -> None:
    shape.draw_outlined(outline, canvas, element, geometry)
