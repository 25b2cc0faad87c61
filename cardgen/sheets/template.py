"""Sheet templates as data: a page, its slots (label or card cells) and the kind of marks.

The built-in card grids (grid.py), the label products (labels/glabels.py) and a set's own
YAML templates (labels/yamlsheet.py) all become a :class:`SheetTemplate`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..errors import Source

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm from the page's bottom-left
UNLIMITED = (math.inf, math.inf, math.inf, math.inf)
CIRCLE_CUT = "circle-cut"  # the sheet computed for each face size (grid.py), not a file or a product


@dataclass(frozen=True)
class TemplateSlot:
    """A cell: a card's trim box or a label's bounding box, mm from the page's bottom-left.

    ``room`` is how far art may reach beyond the cell (left, bottom, right, top): the bleed at a
    grid's outer edges, 0 where butted cards meet, a label's overprint ("waste")."""

    x: float
    y: float
    w: float
    h: float
    shape: str = "rect"
    room: Box = UNLIMITED

    @property
    def box(self) -> Box:
        return (self.x, self.y, self.x + self.w, self.y + self.h)


@dataclass(frozen=True)
class SheetTemplate:
    """``marks``: crop (crop marks round the cut area), outline (the cut outline of every
    used slot) or none (label products: the labels are die-cut). ``duplex``: back pages mirror
    the front page; False (label products) puts a face's back in the next slot. ``fold``:
    "vertical" or "horizontal" for a gutter-fold page whose slots are the front half."""

    name: str
    w: float
    h: float
    slots: tuple[TemplateSlot, ...]
    marks: str = "crop"
    duplex: bool = True
    fold: str | None = None
    source: Source | None = None

    @property
    def shapes(self) -> frozenset[str]:
        return frozenset(slot.shape for slot in self.slots)

    def of_shape(self, shape: str) -> "SheetTemplate":
        return replace(self, slots=tuple(s for s in self.slots if s.shape == shape))


def mirror_box(box: Box, axis: str, page_w: float, page_h: float) -> Box:
    """Mirror a box across the page's vertical centre line (axis "x") or horizontal one ("y")."""
    x0, y0, x1, y1 = box
    if axis == "x":
        return (page_w - x1, y0, page_w - x0, y1)
    return (x0, page_h - y1, x1, page_h - y0)


def mirror_slot(slot: TemplateSlot, axis: str, page_w: float, page_h: float) -> TemplateSlot:
    x0, y0, x1, y1 = mirror_box(slot.box, axis, page_w, page_h)
    left, bottom, right, top = slot.room
    room = (right, bottom, left, top) if axis == "x" else (left, top, right, bottom)
    return replace(slot, x=x0, y=y0, room=room)
