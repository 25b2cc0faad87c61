"""``<group>``: elements drawn together under one transform, optionally clipped.

In the markup a group holds other elements; the parser flattens it into a start (this tag),
its content, and an end (``GROUP_END``, in the package), so every later stage sees a flat list of elements,
and a group costs two operator strings.
"""
from __future__ import annotations

from .attributes import Attr
from .svgpath import parse_path, pdf_path
from .transform import parse_transform, pdf_matrix

TAG = "group"
DOC = ("Elements drawn together: `transform` moves, turns or scales them all (text up the side of a "
       "card), `clip` cuts them to an outline.")
ATTRIBUTES = {
    "transform": Attr(parse_transform, 'SVG transforms applied in turn from the right, such as '
                      '"rotate(-90 31.75 44.45)", "translate(5 0)", "scale(0.5)" (mm, degrees clockwise)', None),
    "clip": Attr(parse_path, "an outline in SVG path syntax (see `<path>`) that clips the content", None),
}


def direct(attrs) -> bool:
    return True


def draw(canvas, element, geometry, prepared=None) -> None:
    a = element.attrs
    ops = ["q"]
    if a["transform"] is not None:
        ops.append(pdf_matrix(a["transform"], geometry))
    if a["clip"] is not None:
        ops.append(pdf_path(a["clip"], geometry) + " W n")
    canvas._code.append(" ".join(ops))


def draw_end(canvas, element, geometry, prepared=None) -> None:
    canvas._code.append("Q")
