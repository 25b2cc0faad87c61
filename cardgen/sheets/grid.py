"""The built-in sheets computed for any paper and face size: card grids, circle-cut sheets and
gutter-fold pages. Every grid is centred exactly on the page (or on the fold line), so that a
mirrored grid coincides with itself and backs land exactly behind fronts."""
from __future__ import annotations

import math

from .marks import mark_room
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
          shape: str, outer: float) -> tuple[TemplateSlot, ...]:
    """Row-major from the top-left. Room beyond a cell: half the gap towards a neighbour,
    ``outer`` (the bleed) at the grid's edges."""
    inner = gap / 2
    slots = []
    for row in range(nrows):
        for col in range(ncols):
            room = (
                inner if col > 0 else outer,
                inner if row < nrows - 1 else outer,
                inner if col < ncols - 1 else outer,
                inner if row > 0 else outer,
            )
            x = left + col * (w + gap)
            y = top - h - row * (h + gap)
            slots.append(TemplateSlot(x, y, w, h, shape, room))
    return tuple(slots)


def spacing_gap(shape: str, spacing: str, bleed: float) -> float:
    if shape == "circle":
        return max(2 * bleed, CIRCLE_GAP)
    return 0.0 if spacing == "butt" else 2 * bleed


def edge_room(shape: str, bleed: float, margin: float, crop_marks: bool) -> float:
    """Room from the paper edge to the cut area: margin, then crop marks (which start beyond
    the bleed) or just the bleed. Circles carry their cut outline instead of crop marks."""
    if shape == "rect" and crop_marks:
        return margin + mark_room(bleed)
    return margin + bleed


def face_sheet(page_w: float, page_h: float, w: float, h: float, shape: str, bleed: float,
               spacing: str, margin: float, crop_marks: bool) -> SheetTemplate:
    """The default sheet for one face size: a centred grid (may hold no slot at all)."""
    gap = spacing_gap(shape, spacing, bleed)
    edge = edge_room(shape, bleed, margin, crop_marks)
    ncols = fit(page_w - 2 * edge, w, gap)
    nrows = fit(page_h - 2 * edge, h, gap)
    if not ncols or not nrows:
        return SheetTemplate("grid", page_w, page_h, ())
    left = (page_w - span(ncols, w, gap)) / 2
    top = (page_h + span(nrows, h, gap)) / 2
    name = "circle-cut" if shape == "circle" else "grid"
    marks = "outline" if shape == "circle" else "crop"
    return SheetTemplate(name, page_w, page_h, cells(left, top, ncols, nrows, w, h, gap, shape, bleed), marks)


def gutter_sheet(page_w: float, page_h: float, fold: str, w: float, h: float, shape: str,
                 bleed: float, spacing: str, margin: float, crop_marks: bool) -> SheetTemplate:
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
        return SheetTemplate("gutter-fold", page_w, page_h, (), fold=fold)
    if fold == "vertical":
        left = page_w / 2 - inner - span(ncols, w, gap)
        top = (page_h + span(nrows, h, gap)) / 2
    else:
        left = (page_w - span(ncols, w, gap)) / 2
        top = page_h / 2 + inner + span(nrows, h, gap)
    marks = "outline" if shape == "circle" else "crop"
    slots = cells(left, top, ncols, nrows, w, h, gap, shape, bleed)
    return SheetTemplate("gutter-fold", page_w, page_h, slots, marks, fold=fold)
