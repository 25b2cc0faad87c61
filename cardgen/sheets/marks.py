"""Printer's marks as data (mm from the page's bottom-left) and their drawing.

Crop marks are short lines on the extension of every cut line, beyond the bleed of every face
on the sheet: they never touch a face's trim or bleed box. Cut lines (optional) run the whole
length of the page. Circle sheets get cut outlines; gutter-fold pages a dashed fold line with
a small "fold" label. Marks are drawn in registration-free 100% black (K only), 0.25 pt wide.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..units import mm_to_pt
from .template import Box, TemplateSlot

MARK_GAP = 0.5  # mm between the bleed (or 1.5 mm beyond the trim, if more) and a crop mark
MARK_MIN_OFFSET = 1.5  # mm: crop marks start at least this far beyond the trim, plus the gap
MARK_MIN = 2.5  # mm: the shortest crop mark worth printing
MARK_MAX = 5.0  # mm
LINE_WIDTH_PT = 0.25
FOLD_DASH = (1.0, 1.0)  # mm on, mm off
FOLD_LABEL_PT = 6.0
FOLD_LABEL_GAP = 0.6  # mm between the fold line and the label's baseline


@dataclass(frozen=True)
class LineMark:
    x0: float
    y0: float
    x1: float
    y1: float
    kind: str = "crop"  # crop | cut | fold
    dash: tuple[float, ...] = ()  # mm on, mm off


@dataclass(frozen=True)
class CircleMark:
    cx: float
    cy: float
    r: float
    kind: str = "cut"


@dataclass(frozen=True)
class TextMark:
    x: float  # start of the baseline
    y: float
    text: str
    size: float = FOLD_LABEL_PT  # points
    angle: float = 0.0  # degrees, counter-clockwise
    kind: str = "fold"


def mark_offset(bleed: float) -> float:
    """Distance from the cut area to where crop marks start."""
    return max(bleed, MARK_MIN_OFFSET) + MARK_GAP


def mark_room(bleed: float) -> float:
    """Room a grid needs outside its cut area for its bleed and the shortest crop marks."""
    return mark_offset(bleed) + MARK_MIN


def _edges(slots: list[TemplateSlot]) -> tuple[list[float], list[float]]:
    def unique(values):
        out: list[float] = []
        for value in sorted(values):
            if not out or value - out[-1] > 1e-6:
                out.append(value)
        return out

    xs = unique([s.x for s in slots] + [s.x + s.w for s in slots])
    ys = unique([s.y for s in slots] + [s.y + s.h for s in slots])
    return xs, ys


def _bounds(slots: list[TemplateSlot]) -> Box:
    return (min(s.x for s in slots), min(s.y for s in slots),
            max(s.x + s.w for s in slots), max(s.y + s.h for s in slots))


def crop_marks(slots: list[TemplateSlot], page_w: float, page_h: float, margin: float,
               bleed: float) -> list[LineMark]:
    """Marks at both ends of every cut line, outside the bleed of the whole sheet."""
    if not slots:
        return []
    xs, ys = _edges(slots)
    x0, y0, x1, y1 = _bounds(slots)
    offset = mark_offset(bleed)
    marks: list[LineMark] = []

    def run(start: float, limit: float, direction: int):
        """(near, far) of a mark starting at ``start`` towards ``limit``, or None if too short."""
        end = start + direction * MARK_MAX
        end = min(end, limit) if direction > 0 else max(end, limit)
        return (start, end) if abs(end - start) >= MARK_MIN - 1e-9 else None

    for x in xs:
        for near, far in filter(None, (run(y0 - offset, margin, -1), run(y1 + offset, page_h - margin, 1))):
            marks.append(LineMark(x, min(near, far), x, max(near, far)))
    for y in ys:
        for near, far in filter(None, (run(x0 - offset, margin, -1), run(x1 + offset, page_w - margin, 1))):
            marks.append(LineMark(min(near, far), y, max(near, far), y))
    return marks


def cut_lines(slots: list[TemplateSlot], page_w: float, page_h: float, margin: float) -> list[LineMark]:
    """Full-length lines along every cut line, from margin to margin."""
    if not slots:
        return []
    xs, ys = _edges(slots)
    return ([LineMark(x, margin, x, page_h - margin, "cut") for x in xs]
            + [LineMark(margin, y, page_w - margin, y, "cut") for y in ys])


def outlines(slots: list[TemplateSlot]) -> list[LineMark | CircleMark]:
    """The cut outline of each slot (for a circle punch or scissors)."""
    marks: list[LineMark | CircleMark] = []
    for s in slots:
        if s.shape == "circle":
            marks.append(CircleMark(s.x + s.w / 2, s.y + s.h / 2, s.w / 2))
        else:
            x1, y1 = s.x + s.w, s.y + s.h
            marks += [LineMark(s.x, s.y, x1, s.y, "cut"), LineMark(x1, s.y, x1, y1, "cut"),
                      LineMark(x1, y1, s.x, y1, "cut"), LineMark(s.x, y1, s.x, s.y, "cut")]
    return marks


def fold_marks(fold: str, page_w: float, page_h: float, margin: float) -> list[LineMark | TextMark]:
    """A dashed line along the fold (the page's centre line) and a "fold" label beside its
    start, in the gutter that the grids keep clear of faces."""
    if fold == "vertical":
        x = page_w / 2
        return [LineMark(x, margin, x, page_h - margin, "fold", FOLD_DASH),
                TextMark(x - FOLD_LABEL_GAP, margin, "fold", angle=90.0)]
    y = page_h / 2
    return [LineMark(margin, y, page_w - margin, y, "fold", FOLD_DASH),
            TextMark(margin, y + FOLD_LABEL_GAP, "fold")]


def draw_marks(canvas, page) -> None:
    """Draw ``page.marks`` on a reportlab canvas (points, origin at the page's bottom-left)."""
    if not page.marks:
        return
    if all(mark.__class__ is LineMark for mark in page.marks):
        canvas._code.append(_line_marks(page.marks))
        return
    canvas.saveState()
    canvas.setStrokeColorCMYK(0, 0, 0, 1)
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.setLineWidth(LINE_WIDTH_PT)
    canvas.setLineCap(0)
    dash = None
    for mark in page.marks:
        if isinstance(mark, LineMark):
            if mark.dash != dash:
                canvas.setDash([mm_to_pt(d) for d in mark.dash] if mark.dash else [])
                dash = mark.dash
            # written directly: a sheet has dozens of marks, and reportlab's number formatting is slow
            canvas._code.append(f"{mm_to_pt(mark.x0):.3f} {mm_to_pt(mark.y0):.3f} m "
                                f"{mm_to_pt(mark.x1):.3f} {mm_to_pt(mark.y1):.3f} l S")
        elif isinstance(mark, CircleMark):
            canvas.setDash([])
            dash = None
            canvas.circle(mm_to_pt(mark.cx), mm_to_pt(mark.cy), mm_to_pt(mark.r), stroke=1, fill=0)
        elif isinstance(mark, TextMark):
            canvas.saveState()
            canvas.translate(mm_to_pt(mark.x), mm_to_pt(mark.y))
            canvas.rotate(mark.angle)
            canvas.setFont(canvas._initialFontName, mark.size)  # the project's embedded font, set by the writer
            canvas.drawString(0, 0, mark.text)
            canvas.restoreState()
        else:
            raise TypeError(f"not a mark: {mark!r}")
    canvas.restoreState()


@lru_cache(maxsize=64)
def _line_marks(marks: tuple) -> str:
    """Marks that are all lines, as one string of operators: every page of a sheet has the same."""
    ops = ["q 0 0 0 1 K 0 0 0 1 k", f"{LINE_WIDTH_PT} w 0 J"]
    dash = ()
    for mark in marks:
        if mark.dash != dash:
            ops.append(f"[{' '.join(f'{mm_to_pt(d):.3f}' for d in mark.dash)}] 0 d")
            dash = mark.dash
        ops.append(f"{mm_to_pt(mark.x0):.3f} {mm_to_pt(mark.y0):.3f} m {mm_to_pt(mark.x1):.3f} {mm_to_pt(mark.y1):.3f} l S")
    ops.append("Q")
    return " ".join(ops)
