"""Small type in a sheet's margin (how to turn a duplex sheet), and back pages moved as a whole.

A note goes in the widest free stretch of a paper edge: between the margin and the printed art
(faces and their bleed), clear of crop marks, along the bottom or top edge if the band there is
tall enough, else up the left or right edge. Widths are estimated (the writer's font is not
known here) generously, at ``CHAR_EM`` em a character.
"""
from __future__ import annotations

import math
from dataclasses import replace

from ..units import PT_PER_MM
from .marks import MARK_TRIM_GAP, CircleMark, LineMark, TextMark
from .template import TemplateSlot

NOTE_PT = 6.0
NOTE_MIN_PT = 5.0  # a note that finds no room at NOTE_PT: a grid that fills the page to the margin
CHAR_EM = 0.6  # estimated advance of a character, in em (most fonts average about 0.5)
ASCENT, DESCENT = 0.8, 0.25  # em above and below the baseline
CLEARANCE = 1.0  # mm between a note and a crop mark along the edge


def text_size(text: str, size_pt: float = NOTE_PT) -> tuple[float, float, float]:
    """(width, ascent, descent) of a note in mm, width estimated."""
    em = size_pt / PT_PER_MM
    return len(text) * CHAR_EM * em, ASCENT * em, DESCENT * em


def _art(slots: list[TemplateSlot], bleed: float) -> tuple[float, float, float, float]:
    """The box round every slot and the art printed beyond it: its room, or where the room is
    unlimited (a YAML sheet's outer slots without ``waste``) the faces' bleed, which is then
    printed whole (impose._place)."""
    def reach(value: float) -> float:
        return value if math.isfinite(value) else bleed

    return (min(s.x - reach(s.room[0]) for s in slots), min(s.y - reach(s.room[1]) for s in slots),
            max(s.x + s.w + reach(s.room[2]) for s in slots), max(s.y + s.h + reach(s.room[3]) for s in slots))


def _free(lo: float, hi: float, blocked: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The stretches of [lo, hi] outside the blocked intervals."""
    out, start = [], lo
    for a, b in sorted(blocked):
        if a > start:
            out.append((start, min(a, hi)))
        start = max(start, b)
    if start < hi:
        out.append((start, hi))
    return [(a, b) for a, b in out if b > a]


def _along(length: float, free: list[tuple[float, float]], centre: float) -> float | None:
    """Where a note of ``length`` starts: centred on the page if that stretch takes it, else
    centred in the widest stretch that does; None if none does."""
    for a, b in free:
        if a <= centre - length / 2 and centre + length / 2 <= b:
            return centre - length / 2
    fitting = [(b - a, a, b) for a, b in free if b - a >= length]
    if not fitting:
        return None
    _, a, b = max(fitting, key=lambda f: (f[0], -f[1]))
    return (a + b - length) / 2


def duplex_note(text: str, slots: list[TemplateSlot], marks: list, page_w: float, page_h: float,
                margin: float, size_pt: float = NOTE_PT, *, bleed: float, over_bleed: bool = False) -> TextMark | None:
    """The note's mark, in the margin band of the first edge that takes it (None: none does).
    ``bleed``: of the faces on the page. ``over_bleed``: the bands reach from the margin to
    ``MARK_TRIM_GAP`` short of the cut area, over the outer bleed (which is cut away), and the
    note is printed on a white box: for a grid whose art reaches the margin on every side."""
    if not slots:
        return None
    width, ascent, descent = text_size(text, size_pt)
    height = ascent + descent
    if over_bleed:
        x0, y0, x1, y1 = (min(s.x for s in slots) - MARK_TRIM_GAP, min(s.y for s in slots) - MARK_TRIM_GAP,
                          max(s.x + s.w for s in slots) + MARK_TRIM_GAP, max(s.y + s.h for s in slots) + MARK_TRIM_GAP)
    else:
        x0, y0, x1, y1 = _art(slots, bleed)
    lines = [m for m in marks if isinstance(m, LineMark)]
    circles = [m for m in marks if isinstance(m, CircleMark)]

    def blocked_x(lo: float, hi: float) -> list[tuple[float, float]]:  # marks crossing a band of y
        out = [(min(m.x0, m.x1) - CLEARANCE, max(m.x0, m.x1) + CLEARANCE) for m in lines
               if min(m.y0, m.y1) <= hi and max(m.y0, m.y1) >= lo]
        return out + [(c.cx - c.r - CLEARANCE, c.cx + c.r + CLEARANCE) for c in circles
                      if c.cy - c.r <= hi and c.cy + c.r >= lo]

    def blocked_y(lo: float, hi: float) -> list[tuple[float, float]]:  # marks crossing a band of x
        out = [(min(m.y0, m.y1) - CLEARANCE, max(m.y0, m.y1) + CLEARANCE) for m in lines
               if min(m.x0, m.x1) <= hi and max(m.x0, m.x1) >= lo]
        return out + [(c.cy - c.r - CLEARANCE, c.cy + c.r + CLEARANCE) for c in circles
                      if c.cx - c.r <= hi and c.cx + c.r >= lo]

    bands = (("bottom", margin, y0), ("top", y1, page_h - margin),
             ("left", margin, x0), ("right", x1, page_w - margin))
    for side, lo, hi in bands:
        if hi - lo < height:
            continue
        middle = (lo + hi) / 2
        band = (middle - height / 2, middle + height / 2)
        if side in ("bottom", "top"):
            start = _along(width, _free(margin, page_w - margin, blocked_x(*band)), page_w / 2)
            if start is not None:
                return TextMark(start, middle - (ascent - descent) / 2, text, size_pt, 0.0, "note", over_bleed)
        else:  # up the edge, read with the sheet turned a quarter clockwise
            start = _along(width, _free(margin, page_h - margin, blocked_y(*band)), page_h / 2)
            if start is not None:
                return TextMark(middle + (ascent - descent) / 2, start, text, size_pt, 90.0, "note", over_bleed)
    return None


def shifted(marks: list, dx: float, dy: float) -> list:
    """Marks moved by (dx, dy) mm: a back page shifted to meet its front."""
    out = []
    for mark in marks:
        if isinstance(mark, LineMark):
            mark = replace(mark, x0=mark.x0 + dx, y0=mark.y0 + dy, x1=mark.x1 + dx, y1=mark.y1 + dy)
        elif isinstance(mark, CircleMark):
            mark = replace(mark, cx=mark.cx + dx, cy=mark.cy + dy)
        else:
            mark = replace(mark, x=mark.x + dx, y=mark.y + dy)
        out.append(mark)
    return out
