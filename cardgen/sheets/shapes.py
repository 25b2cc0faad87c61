"""Shaped components: hexagons (pointy or flat top) and any outline in SVG path syntax, beside
rectangles and circles. Their cut lines follow the shape, and hexagons nest on the sheet.

A card type's ``shape`` is ``rect``, ``circle``, ``hex-pointy`` (or ``hexagon``), ``hex-flat``
or ``{path: "M ... Z"}`` (mm in the trim box, y down, as card markup). The sheets carry a path
shape as ``path:<data>`` in their slots' shape, so that marks can draw its outline.

A hexagon fills its trim box: pointy-top hexagons have vertices at the top and bottom centre,
flat-top ones at the left and right centre. A regular hexagon is ``w = 0.866 h`` (pointy) or
``h = 0.866 w`` (flat). Nested, neighbours are ``2 x bleed`` (at least ``CIRCLE_GAP``) apart
across their shared edge direction, and each face's art is clipped to its hexagon grown by the
bleed, so no bleed ever prints on a neighbour.
"""
from __future__ import annotations

import math

from .template import SheetTemplate, TemplateSlot

HEXES = ("hex-pointy", "hex-flat")
ALIASES = {"hexagon": "hex-pointy"}
CURVE_STEPS = 12  # straight pieces a curve of a path outline is cut into, for its cut line


def is_shaped(shape: str) -> bool:
    """A shape whose cut line is its own outline (every shape but the rectangle)."""
    return shape != "rect"


def path_shape(data: str) -> str:
    return f"path:{data}"


def hexagon(shape: str, x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    """The hexagon filling the box (mm from the page's bottom-left, y up), as its six corners."""
    if shape == "hex-pointy":
        return [(x + w / 2, y + h), (x + w, y + 0.75 * h), (x + w, y + 0.25 * h), (x + w / 2, y),
                (x, y + 0.25 * h), (x, y + 0.75 * h)]
    return [(x, y + h / 2), (x + 0.25 * w, y + h), (x + 0.75 * w, y + h), (x + w, y + h / 2),
            (x + 0.75 * w, y), (x + 0.25 * w, y)]


def outline_points(shape: str, x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    """A closed outline as points (page mm, y up) for the cut line of a slot of ``shape``."""
    if shape in HEXES:
        return hexagon(shape, x, y, w, h)
    if shape.startswith("path:"):
        from ..draw.svgpath import parse_path

        points: list[tuple[float, float]] = []
        current = (0.0, 0.0)
        for op, pts in parse_path(shape[5:]):
            if op in ("M", "L"):
                current = (pts[0], pts[1])
                points.append(current)
            elif op == "C":
                x0, y0 = current
                x1, y1, x2, y2, x3, y3 = pts
                for step in range(1, CURVE_STEPS + 1):
                    t = step / CURVE_STEPS
                    u = 1 - t
                    points.append((u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                                   u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
                current = (x3, y3)
        return [(x + px, y + h - py) for px, py in points]  # trim mm, y down -> page mm, y up
    if shape == "rect":
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    raise ValueError(f"no straight outline for shape {shape}")


def hex_growth(shape: str, w: float, h: float, bleed: float) -> float:
    """The scale about its centre that moves every edge of the hexagon out by ``bleed``."""
    apothem = w / 2 if shape == "hex-pointy" else h / 2  # the distance to the two parallel edges
    return (apothem + bleed) / apothem


def hex_sheet(page_w: float, page_h: float, w: float, h: float, shape: str, bleed: float, gap: float,
              margin: float) -> SheetTemplate:
    """Hexagons nested in offset rows (pointy) or columns (flat), centred on the page, keeping
    ``margin + bleed`` from its edges."""
    edge = margin + bleed
    room_w, room_h = page_w - 2 * edge, page_h - 2 * edge
    s = hex_growth(shape, w, h, gap / 2)  # a hexagon grown by half the gap touches its neighbours
    if shape == "hex-pointy":
        pitch_x, pitch_y, shift = w * s, 0.75 * h * s, (w * s) / 2
        ncols = int(math.floor((room_w - w - shift) / pitch_x + 1e-9)) + 1 if room_w >= w + shift else 0
        nrows = int(math.floor((room_h - h) / pitch_y + 1e-9)) + 1 if room_h >= h else 0
        if ncols < 1 or nrows < 1:
            return SheetTemplate("hex-nest", page_w, page_h, ())
        span_w = w + (ncols - 1) * pitch_x + (shift if nrows > 1 else 0)
        span_h = h + (nrows - 1) * pitch_y
        left, bottom = (page_w - span_w) / 2, (page_h - span_h) / 2
        cells = [(left + c * pitch_x + (shift if r % 2 else 0), bottom + span_h - h - r * pitch_y)
                 for r in range(nrows) for c in range(ncols)]
    else:
        pitch_x, pitch_y, shift = 0.75 * w * s, h * s, (h * s) / 2
        ncols = int(math.floor((room_w - w) / pitch_x + 1e-9)) + 1 if room_w >= w else 0
        nrows = int(math.floor((room_h - h - shift) / pitch_y + 1e-9)) + 1 if room_h >= h + shift else 0
        if ncols < 1 or nrows < 1:
            return SheetTemplate("hex-nest", page_w, page_h, ())
        span_w = w + (ncols - 1) * pitch_x
        span_h = h + (nrows - 1) * pitch_y + (shift if ncols > 1 else 0)
        left, bottom = (page_w - span_w) / 2, (page_h - span_h) / 2
        cells = [(left + c * pitch_x, bottom + span_h - h - r * pitch_y - (shift if c % 2 else 0))
                 for r in range(nrows) for c in range(ncols)]
    room = (bleed,) * 4
    return SheetTemplate("hex-nest", page_w, page_h, tuple(TemplateSlot(x, y, w, h, shape, room) for x, y in cells),
                         "outline")
