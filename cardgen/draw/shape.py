"""Painting a closed outline: what every shape shares once it has its path.

A shape is written as PDF operators alone (kept and replayed, see draw/__init__.py) unless it
needs a document's resources: transparency, or a gradient, whose shading is a resource.
"""
from __future__ import annotations

from . import pdfops
from .gradient import Gradient, shade


def direct(attrs) -> bool:
    """Whether the shape is drawn with PDF operators alone (see draw/__init__.py)."""
    return attrs.get("opacity", 1.0) >= 1 and not isinstance(attrs.get("fill"), Gradient)


def draw_outlined(outline, canvas, element, geometry) -> None:
    """Draw a shape given its ``outline(attrs, geometry) -> (path operators, bounds)``."""
    a = element.attrs
    if a["fill"] is None and a["stroke"] is None:
        return
    path, box = outline(a, geometry)
    paint_path(canvas, geometry, a, path, box)


def paint_path(canvas, geometry, attrs, path_ops: str, box_pt, prefix: str = "") -> None:
    """Fill and stroke a path given as PDF operators; ``box_pt`` is its bounds in PDF
    coordinates (left, bottom, right, top), which a gradient spans; ``prefix`` operators (a
    rotation) apply to both."""
    fill, stroke = attrs.get("fill"), attrs.get("stroke")
    if fill is None and stroke is None:
        return
    width = geometry.pt(attrs.get("stroke-width", 0.25))
    dash = attrs.get("dash")
    dash_pt = tuple(geometry.pt(d) for d in dash) if dash else None
    if direct(attrs) and not prefix:
        canvas._code.append(pdfops.painted(path_ops, fill, stroke, width, dash_pt))
        return
    canvas.saveState()
    if prefix:
        canvas._code.append(prefix)
    opacity = attrs.get("opacity", 1.0)
    if opacity < 1:  # a graphics state each, only for what is painted
        if fill is not None:
            canvas.setFillAlpha(opacity)
        if stroke is not None:
            canvas.setStrokeAlpha(opacity)
    if isinstance(fill, Gradient):
        shade(canvas, fill, path_ops, box_pt)
        fill = None
    if fill is not None or stroke is not None:
        canvas._code.append(pdfops.painted(path_ops, fill, stroke, width, dash_pt))
    canvas.restoreState()
