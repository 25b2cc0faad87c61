"""Drawing primitives, one module each, with their attributes (argument checking and docs)."""
from __future__ import annotations

from . import circle, clip, ellipse, group, image, line, path, polygon, rect, text

PRIMITIVES = {module.TAG: module for module in (rect, circle, ellipse, line, polygon, path, image, text, group,
                                                clip)}
CONTAINERS = ("group", "clip")  # elements that hold others; flattened into a start and an end
GROUP_END = group.GROUP_END


def draw_element(canvas, element, geometry, prepared=None) -> None:
    if element.tag == GROUP_END:
        group.draw_end(canvas, element, geometry, prepared)
        return
    PRIMITIVES[element.tag].draw(canvas, element, geometry, prepared)


def direct(element) -> bool:
    """Whether an element is drawn with PDF operators alone, which mean the same in any document
    and leave reportlab's own record of the graphics state as it was: such a drawing can be
    kept and replayed (draw/content.py). Images, transparency and rotated shapes go through
    reportlab, which registers resources and may set the PDF version: they are drawn anew."""
    if element.tag == GROUP_END:
        return True
    return PRIMITIVES[element.tag].direct(element.attrs)
