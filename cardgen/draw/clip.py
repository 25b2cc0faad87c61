"""``<clip>``: its first element is an outline (any shape, not drawn) that clips the rest.

Like ``<group>``, it is flattened by the parser into a start, its content and an end; the
start carries the shape's tag and attributes.
"""
from __future__ import annotations

from .svgpath import encloses_area, subpaths
from .transform import inverse, pdf_matrix, rotate_about

TAG = "clip"
DOC = ("Clips its content to a shape: the first element inside (a `<rect>` with `r` for rounded "
       "corners, `<circle>`, `<ellipse>`, `<polygon>` or `<path>`) is the outline and is not drawn.")
ATTRIBUTES: dict = {}
SHAPES = ("rect", "circle", "ellipse", "polygon", "path")


def check_outline(tag: str, a) -> None:
    """An outline of no area (a path or polygon along a line, a shape thinner than a press
    prints) clips the whole content away: refused, as the group's ``clip`` is."""
    if tag == "path":
        point_lists = subpaths(a["d"])
    elif tag == "polygon":
        point_lists = [list(a["points"])]
    elif tag == "rect":
        point_lists = [[(a["x"], a["y"]), (a["x"] + a["w"], a["y"]), (a["x"], a["y"] + a["h"])]]
    else:
        rx, ry = (a["r"], a["r"]) if tag == "circle" else (a["rx"], a["ry"])
        point_lists = [[(a["cx"] - rx, a["cy"]), (a["cx"] + rx, a["cy"]), (a["cx"], a["cy"] + ry)]]
    if not encloses_area(point_lists):
        raise ValueError(f"<clip>'s outline, a <{tag}>, encloses no area (it is a point or a line): nothing in the "
                         f"clip would print")


def direct(attrs) -> bool:
    return True


def draw(canvas, element, geometry, prepared=None) -> None:
    from . import PRIMITIVES

    tag, a = element.attrs["shape"], element.attrs["shape_attrs"]
    path, _box = PRIMITIVES[tag].outline(a, geometry)
    if tag == "rect" and a["rotate"]:  # the outline turns, the content does not
        turn = rotate_about(a["rotate"], a["x"] + a["w"] / 2, a["y"] + a["h"] / 2)
        path = f"{pdf_matrix(turn, geometry)} {path} W n {pdf_matrix(inverse(turn), geometry)}"
        canvas._code.append(f"q {path}")
        return
    canvas._code.append(f"q {path} W n")
