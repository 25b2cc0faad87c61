"""Drawing primitives, one module each, with their attributes (argument checking and docs)."""
from __future__ import annotations

from . import circle, ellipse, image, line, polygon, rect, text

PRIMITIVES = {module.TAG: module for module in (rect, circle, ellipse, line, polygon, image, text)}


def draw_element(canvas, element, geometry, prepared=None) -> None:
    PRIMITIVES[element.tag].draw(canvas, element, geometry, prepared)
