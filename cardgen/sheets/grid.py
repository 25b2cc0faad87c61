"""The built-in sheets computed for any paper and face size: card grids, circle-cut sheets and
gutter-fold pages. Every grid is centred exactly on the page (or on the fold line), so that a
mirrored grid coincides with itself and backs land exactly behind fronts.

How many faces a page takes (the same rule for every size and paper): a rectangular grid's cut
area keeps ``margin + MARK_EDGE_ROOM`` (4 + 2 mm by default) from every paper edge, room for
the shortest crop mark between the margin and the trim; the outer bleed is printed as far as
the margin. So a 3 x 3 poker grid fits portrait Letter (6.35 mm above and below it) and A4.
Round faces keep ``margin + bleed``: their cut outline is the mark."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from .marks import MARK_EDGE_ROOM
from .shapes import HEXES, hex_sheet, is_shaped
from .template import SheetTemplate, TemplateSlot

CIRCLE_GAP = 2.0  # mm at least between punched circles
FOLD_GAP = 2.5  # mm between the fold line and the nearest bleed


def fit(length: float, cell: float, gap: float) -> int:
    """How many cells of ``cell`` mm with ``gap`` mm between them fit in ``length`` mm."""
    if length < cell - 1e-9:
        return 0
    return int(math.floor((length + gap) / (cell + gap) + 1e-9))


def span(count: int, cell: float, gap: float) -> float:
    return count * cell + (count - 1) * gap


def cells(left: float, top: float, ncols: int, nrows: int, w: float, h: float, gap: float,
          shape: str, outer: float | tuple[float, float, float, float]) -> tuple[TemplateSlot, ...]:
    """Row-major from the top-left. Room beyond a cell: half the gap towards a neighbour,
    ``outer`` (the bleed, or (left, bottom, right, top) of it) at the grid's edges."""
    inner = gap / 2
    o_left, o_bottom, o_right, o_top = outer if isinstance(outer, tuple) else (outer,) * 4
    slots = []
    for row in range(nrows):
        for col in range(ncols):
            room = (
                inner if col > 0 else o_left,
                inner if row < nrows - 1 else o_bottom,
                inner if col < ncols - 1 else o_right,
                inner if row > 0 else o_top,
            )
            x = left + col * (w + gap)
            y = top - h - row * (h + gap)
            slots.append(TemplateSlot(x, y, w, h, shape, room))
    return tuple(slots)


def spacing_gap(shape: str, spacing: str, bleed: float) -> float:
    if is_shaped(shape):  # cut one by one along their outline: each keeps its whole bleed
        return max(2 * bleed, CIRCLE_GAP)
    return 0.0 if spacing == "butt" else 2 * bleed


def edge_room(shape: str, bleed: float, margin: float, crop_marks: bool) -> float:
    """Room from the paper edge to the cut area: the margin, then room for the shortest crop
    mark (drawn over the outer bleed where the bleed is wider), or, without crop marks, as much
    of the bleed as that. Circles carry their cut outline instead of crop marks: margin and bleed."""
    if shape == "rect":
        return margin + (MARK_EDGE_ROOM if crop_marks else min(bleed, MARK_EDGE_ROOM))
    return margin + bleed


def outer_bleed(left: float, bottom: float, right: float, top: float, page_w: float, page_h: float,
                bleed: float, margin: float) -> tuple[float, float, float, float]:
    """The bleed printed beyond a grid's cut area (left, bottom, right, top): as far as the margin."""
    return (max(0.0, min(bleed, left - margin)), max(0.0, min(bleed, bottom - margin)),
            max(0.0, min(bleed, page_w - right - margin)), max(0.0, min(bleed, page_h - top - margin)))


@dataclass(frozen=True)
class GridPlan:
    """A built-in sheet before its cells are made: how many faces it takes, and ``sheet()``
    makes it. A grid of tiny faces holds hundreds of thousands of cells, so the sheets a set
    could go on are compared by ``count`` and only the chosen one is made."""

    count: int
    make: Callable[[], SheetTemplate]

    def sheet(self) -> SheetTemplate:
        return self.make()


def face_plan(page_w: float, page_h: float, w: float, h: float, shape: str, bleed: float,
              spacing: str, margin: float, crop_marks: bool) -> GridPlan:
    """The default sheet for one face size: a centred grid (may hold no slot at all)."""
    gap = spacing_gap(shape, spacing, bleed)
    if shape in HEXES:
        nest = hex_sheet(page_w, page_h, w, h, shape, bleed, gap, margin)
        return GridPlan(len(nest.slots), lambda: nest)
    edge = edge_room(shape, bleed, margin, crop_marks)
    ncols = fit(page_w - 2 * edge, w, gap)
    nrows = fit(page_h - 2 * edge, h, gap)
    if not ncols or not nrows:
        return GridPlan(0, lambda: SheetTemplate("grid", page_w, page_h, ()))

    def make() -> SheetTemplate:
        left = (page_w - span(ncols, w, gap)) / 2
        top = (page_h + span(nrows, h, gap)) / 2
        name = "circle-cut" if shape == "circle" else "grid"
        marks = "outline" if is_shaped(shape) else "crop"
        outer = outer_bleed(left, top - span(nrows, h, gap), left + span(ncols, w, gap), top, page_w, page_h,
                            bleed, margin)
        return SheetTemplate(name, page_w, page_h, cells(left, top, ncols, nrows, w, h, gap, shape, outer), marks)

    return GridPlan(ncols * nrows, make)


def face_sheet(page_w: float, page_h: float, w: float, h: float, shape: str, bleed: float,
               spacing: str, margin: float, crop_marks: bool) -> SheetTemplate:
    return face_plan(page_w, page_h, w, h, shape, bleed, spacing, margin, crop_marks).sheet()


def gutter_plan(page_w: float, page_h: float, fold: str, w: float, h: float, shape: str,
                bleed: float, spacing: str, margin: float, crop_marks: bool) -> GridPlan:
    """The front half of a gutter-fold page; the fold line is the page's centre line
    ("vertical": fronts on the left, "horizontal": fronts on the top half)."""
    gap = spacing_gap(shape, spacing, bleed)
    edge = edge_room(shape, bleed, margin, crop_marks)
    inner = bleed + FOLD_GAP
    if fold == "vertical":
        ncols = fit(page_w / 2 - inner - edge, w, gap)
        nrows = fit(page_h - 2 * edge, h, gap)
    else:
        ncols = fit(page_w - 2 * edge, w, gap)
        nrows = fit(page_h / 2 - inner - edge, h, gap)
    if not ncols or not nrows:
        return GridPlan(0, lambda: SheetTemplate("gutter-fold", page_w, page_h, (), fold=fold))

    def make() -> SheetTemplate:
        if fold == "vertical":
            left = page_w / 2 - inner - span(ncols, w, gap)
            top = (page_h + span(nrows, h, gap)) / 2
        else:
            left = (page_w - span(ncols, w, gap)) / 2
            top = page_h / 2 + inner + span(nrows, h, gap)
        marks = "outline" if is_shaped(shape) else "crop"
        outer = outer_bleed(left, top - span(nrows, h, gap), left + span(ncols, w, gap), top, page_w, page_h,
                            bleed, margin)
        slots = cells(left, top, ncols, nrows, w, h, gap, shape, outer)
        return SheetTemplate("gutter-fold", page_w, page_h, slots, marks, fold=fold)

    return GridPlan(ncols * nrows, make)


def gutter_sheet(page_w: float, page_h: float, fold: str, w: float, h: float, shape: str,
                 bleed: float, spacing: str, margin: float, crop_marks: bool) -> SheetTemplate:
    return gutter_plan(page_w, page_h, fold, w, h, shape, bleed, spacing, margin, crop_marks).sheet()
