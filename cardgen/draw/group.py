"""``<group>``: elements drawn together under one transform, optionally clipped.

In the markup a group holds other elements; the parser flattens it into a start (this tag),
its content, and an end (``GROUP_END``, in the package), so every later stage sees a flat list of elements,
and a group costs two operator strings.
"""
from __future__ import annotations

from .attributes import Attr
from .svgpath import encloses_area, parse_path, pdf_path, subpaths
from .transform import parse_transform, pdf_matrix


def clip_outline(value: str):
    """Path data that encloses some area: an outline of a point or a line ("M 0 0") clips the
    group's whole content away, and the card would print without it, silently."""
    segments = parse_path(value)
    if not encloses_area(subpaths(segments)):
        raise ValueError("the outline encloses no area (it is a point or a line): nothing in the group would print")
    return segments


TAG = "group"
DOC = ("Elements drawn together: `transform` moves, turns or scales them all (text up the side of a "
       "card), `clip` cuts them to an outline.")
ATTRIBUTES = {
    "transform": Attr(parse_transform, 'SVG transforms applied in turn from the right, such as '
                      '"rotate(-90 31.75 44.45)", "translate(5 0)", "scale(0.5)" (mm, degrees clockwise)', None),
    "clip": Attr(clip_outline, "an outline in SVG path syntax (see `<path>`) that clips the content", None),
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
