"""Printer's marks as data (mm from the page's bottom-left) and their drawing.

Crop marks are short lines on the extension of every cut line of the faces on the page, outside
the sheet's whole grid (a partly filled page marks only the cut lines of its faces, and nothing
round its empty slots), never closer to the paper's edge than the margin (what a home printer
can print). Where there is room they start beyond the bleed; where the grid leaves less room
than that (a 3 x 3 poker grid on Letter keeps only 6.35 mm above and below it), they reach into
the outer bleed, which is cut away, stopping ``MARK_TRIM_GAP`` short of the trim, and are drawn
over a white halo so that they show on any art. Cut lines (optional) run the whole length of the
page. Circle sheets get cut outlines; gutter-fold pages a dashed fold line with a small "fold"
label. Marks are drawn in registration-free 100% black (K only), 0.25 pt wide.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..streams import Latest
from ..units import mm_to_pt
from .template import Box, TemplateSlot

MARK_GAP = 0.5  # mm between the bleed (or 1.5 mm beyond the trim, if more) and a crop mark
MARK_MIN_OFFSET = 1.5  # mm: crop marks start at least this far beyond the trim, plus the gap
MARK_MIN = 2.5  # mm: the shortest crop mark worth printing beyond the bleed
MARK_MAX = 5.0  # mm
MARK_TRIM_GAP = 0.5  # mm: a mark reaching into the outer bleed stops this far from the trim
MARK_EDGE_MIN = 1.5  # mm: the shortest mark drawn over the outer bleed
MARK_EDGE_ROOM = MARK_TRIM_GAP + MARK_EDGE_MIN  # mm between the margin and a grid's cut area
LINE_WIDTH_PT = 0.25
HALO_WIDTH_PT = 1.25  # the white line under a mark drawn over art
OUTLINE_HALO_PT = 1.0  # the white line beside a cut outline, on its outer side (the bleed, cut away)
HALO_REACH_MM = (LINE_WIDTH_PT / 2 + OUTLINE_HALO_PT) * 25.4 / 72  # how far beyond the outline it reaches
FOLD_DASH = (1.0, 1.0)  # mm on, mm off
FOLD_LABEL_PT = 6.0
FOLD_LABEL_GAP = 0.6  # mm between the fold line and the label's baseline


@dataclass(frozen=True)
class LineMark:
    """A line drawn on a sheet (mm): a crop mark, a cut or fold line, or a board's alignment mark."""

    x0: float
    y0: float
    x1: float
    y1: float
    kind: str = "crop"  # crop | cut | fold | align (where a board's next tile is laid)
    dash: tuple[float, ...] = ()  # mm on, mm off
    halo: bool = False  # drawn over a white line: the mark lies on a face's outer bleed
    outline: bool = False  # an edge of a shaped face's cut outline: its halo runs outside the shape


@dataclass(frozen=True)
class CircleMark:
    """A circle drawn on a sheet (mm): a round face's cut line."""

    cx: float
    cy: float
    r: float
    kind: str = "cut"
    halo: bool = False  # a white ring just outside it (see outlines)


@dataclass(frozen=True)
class TextMark:
    """Words printed on a sheet (mm): a fold line's label or a note."""

    x: float  # start of the baseline
    y: float
    text: str
    size: float = FOLD_LABEL_PT  # points
    angle: float = 0.0  # degrees, counter-clockwise
    kind: str = "fold"  # fold | note
    ground: bool = False  # on a white box: the words lie over a face's outer bleed (cut away)


def mark_offset(bleed: float) -> float:
    """Distance from the cut area to where crop marks start."""
    return max(bleed, MARK_MIN_OFFSET) + MARK_GAP


def mark_room(bleed: float) -> float:
    """Room a grid needs outside its cut area for its bleed and the shortest crop marks, kept
    clear of the bleed."""
    return mark_offset(bleed) + MARK_MIN


def mark_span(room: float, margin: float, bleed: float) -> tuple[float, float, bool] | None:
    """Where a crop mark goes beyond one side of a grid, as distances from the grid's cut edge
    (near, far, over the bleed), given ``room`` mm from that edge to the paper's edge: beyond
    the bleed if a mark of ``MARK_MIN`` fits there, else from the margin into the outer bleed
    (only as far as needed for ``MARK_MIN``, and ``MARK_TRIM_GAP`` short of the trim at most);
    None when not even ``MARK_EDGE_MIN`` fits."""
    limit = room - margin  # the farthest a mark may reach
    near = mark_offset(bleed)
    if limit - near >= MARK_MIN - 1e-9:
        return near, min(limit, near + MARK_MAX), False
    near = max(MARK_TRIM_GAP, limit - MARK_MIN)
    if limit - near < MARK_EDGE_MIN - 1e-9:
        return None
    return near, limit, near <= bleed + 1e-9  # on or touching the bleed: over a halo


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
               bleed: float, used: list[TemplateSlot] | None = None) -> list[LineMark]:
    """Marks at both ends of every cut line of the ``used`` slots (default: all), outside the
    whole grid of ``slots`` (see ``mark_span``)."""
    if not slots or used == []:
        return []
    xs, ys = _edges(slots if used is None else used)
    x0, y0, x1, y1 = _bounds(slots)
    marks: list[LineMark] = []
    below, above = mark_span(y0, margin, bleed), mark_span(page_h - y1, margin, bleed)
    left, right = mark_span(x0, margin, bleed), mark_span(page_w - x1, margin, bleed)
    for x in xs:
        if below:
            marks.append(LineMark(x, y0 - below[1], x, y0 - below[0], halo=below[2]))
        if above:
            marks.append(LineMark(x, y1 + above[0], x, y1 + above[1], halo=above[2]))
    for y in ys:
        if left:
            marks.append(LineMark(x0 - left[1], y, x0 - left[0], y, halo=left[2]))
        if right:
            marks.append(LineMark(x1 + right[0], y, x1 + right[1], y, halo=right[2]))
    return marks


def cut_lines(slots: list[TemplateSlot], page_w: float, page_h: float, margin: float) -> list[LineMark]:
    """Full-length lines along every cut line, from margin to margin."""
    if not slots:
        return []
    xs, ys = _edges(slots)
    return ([LineMark(x, margin, x, page_h - margin, "cut") for x in xs]
            + [LineMark(margin, y, page_w - margin, y, "cut") for y in ys])


def outlines(slots: list[TemplateSlot], axis: str | None = None) -> list[LineMark | CircleMark]:
    """The cut outline of each slot (for a circle punch or scissors), following its shape; on a
    back page (``axis``: the page was mirrored across "x" or "y") a path outline is mirrored too."""
    from .shapes import outline_points

    marks: list[LineMark | CircleMark] = []
    for s in slots:
        # a white line beside the outline, on its outer side, where the slot's room (the bleed,
        # or half the gap to a neighbour) takes it: never on a touching neighbour's face
        halo = min(s.room) >= HALO_REACH_MM - 1e-9
        if s.shape == "circle":
            marks.append(CircleMark(s.x + s.w / 2, s.y + s.h / 2, s.w / 2, halo=halo))
            continue
        points = outline_points(s.shape, s.x, s.y, s.w, s.h)
        if axis == "x" and s.shape.startswith("path:"):
            points = [(2 * s.x + s.w - px, py) for px, py in points]
        elif axis == "y" and s.shape.startswith("path:"):
            points = [(px, 2 * s.y + s.h - py) for px, py in points]
        marks += [LineMark(x0, y0, x1, y1, "cut", halo=halo, outline=True)
                  for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]) if (x0, y0) != (x1, y1)]
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
    marks = page.marks
    if not marks:
        return
    # pages of one sheet share one tuple of marks (impose.py): its line marks are found by its
    # id (the tuple is kept with them, so its id is not reused), not by hashing every mark
    known = _LINES.get(id(marks))
    if known is None or known[0] is not marks:
        lines = tuple(mark for mark in marks if mark.__class__ is LineMark)
        known = _LINES[id(marks)] = (marks, _line_marks(lines) if lines else None, len(lines) == len(marks))
    _, line_code, only_lines = known
    if line_code is not None:
        canvas._code.append(line_code)
    if only_lines:
        return
    # the other marks (a sheet's note, a fold label) go through reportlab, a millisecond a page;
    # once drawn, the same marks in the same text state are the same operators (the codes of
    # their characters in the document's font subsets are fixed once given)
    drawn = getattr(canvas, "_cardgen_marks", None)
    if drawn is None:
        drawn = canvas._cardgen_marks = Latest(64)
    key = (id(marks), canvas._initialFontName, canvas._charSpace, canvas._wordSpace, canvas._horizScale,
           canvas._textRenderMode, canvas._rise)
    code = drawn.get(key)
    if code is not None and code[0] is marks:
        canvas._code.extend(code[1])
        return
    start = len(canvas._code)
    _draw_other_marks(canvas, page)
    drawn[key] = (marks, canvas._code[start:])


_LINES = Latest(64)  # id of a page's marks -> (the marks, their line marks' operators or None, only lines?)


_HALO_OFFSET_PT = (LINE_WIDTH_PT + OUTLINE_HALO_PT) / 2  # the outline halo's centre from the cut line


def _draw_other_marks(canvas, page) -> None:
    canvas.saveState()
    canvas.setStrokeColorCMYK(0, 0, 0, 1)
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.setLineWidth(LINE_WIDTH_PT)
    canvas.setLineCap(0)
    for mark in page.marks:
        if isinstance(mark, LineMark):
            continue
        if isinstance(mark, CircleMark) and mark.halo:
            # a white ring just outside the cut line (on the bleed, cut away), so that the line
            # shows on dark art: black on navy, it could hardly be seen, let alone cut along
            canvas.setStrokeColorCMYK(0, 0, 0, 0)
            canvas.setLineWidth(OUTLINE_HALO_PT)
            canvas.circle(mm_to_pt(mark.cx), mm_to_pt(mark.cy), mm_to_pt(mark.r) + _HALO_OFFSET_PT, stroke=1, fill=0)
            canvas.setStrokeColorCMYK(0, 0, 0, 1)
            canvas.setLineWidth(LINE_WIDTH_PT)
        if isinstance(mark, CircleMark):
            canvas.circle(mm_to_pt(mark.cx), mm_to_pt(mark.cy), mm_to_pt(mark.r), stroke=1, fill=0)
        elif isinstance(mark, TextMark):
            canvas.saveState()
            canvas.translate(mm_to_pt(mark.x), mm_to_pt(mark.y))
            canvas.rotate(mark.angle)
            if mark.ground:
                from .notes import text_size

                width, ascent, descent = text_size(mark.text, mark.size)
                canvas.setFillColorCMYK(0, 0, 0, 0)
                canvas.rect(0, -mm_to_pt(descent), mm_to_pt(width), mm_to_pt(ascent + descent), stroke=0, fill=1)
                canvas.setFillColorCMYK(0, 0, 0, 1)
            canvas.setFont(canvas._initialFontName, mark.size)  # the project's embedded font, set by the writer
            canvas.drawString(0, 0, mark.text)
            canvas.restoreState()
        else:
            raise TypeError(f"not a mark: {mark!r}")
    canvas.restoreState()


def _rings(edges) -> list[list[tuple[float, float]]]:
    """The closed outlines that cut-outline edges, given one after another, go round (pt)."""
    rings: list[list[tuple[float, float]]] = []
    end = None
    for mark in edges:
        start = (mm_to_pt(mark.x0), mm_to_pt(mark.y0))
        if start != end or not rings or len(rings[-1]) > 1 and rings[-1][0] == end:
            rings.append([start])
        end = (mm_to_pt(mark.x1), mm_to_pt(mark.y1))
        rings[-1].append(end)
    return rings


def _outside_halo(ring: list[tuple[float, float]]) -> str:
    """A white band along a cut outline, clipped to the outline's outside (even-odd: a box
    round it, less the shape), so that it never reaches the piece, inward corners included:
    each edge's line moved outward crossed its neighbour's at an inward corner and printed white
    up to 0.2 mm onto the piece. The black outline is drawn over its inner half afterwards."""
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    room = 2 * _HALO_OFFSET_PT + 1
    left, bottom = min(xs) - room, min(ys) - room
    box = f"{left:.3f} {bottom:.3f} {max(xs) + room - left:.3f} {max(ys) + room - bottom:.3f} re"
    shape = " ".join(f"{x:.3f} {y:.3f} {'m' if i == 0 else 'l'}" for i, (x, y) in enumerate(ring)) + " h"
    width = LINE_WIDTH_PT + 2 * OUTLINE_HALO_PT  # centred on the cut line: its outer half is the band
    return f"q {box} {shape} W* n 0 0 0 0 K {width:g} w 1 j {shape} S Q"


@lru_cache(maxsize=64)
def _line_marks(marks: tuple) -> str:
    """Line marks as one string of operators (every page of a sheet has the same): white halos
    first, under every mark that lies on art, then the marks. Written directly: a sheet has
    dozens of marks, and reportlab's number formatting is slow."""
    ops = ["q 0 J"]

    def path(mark) -> str:
        return f"{mm_to_pt(mark.x0):.3f} {mm_to_pt(mark.y0):.3f} m {mm_to_pt(mark.x1):.3f} {mm_to_pt(mark.y1):.3f} l S"

    halos = [path(mark) for mark in marks if mark.halo and not mark.outline]
    if halos:
        ops += ["0 0 0 0 K", f"{HALO_WIDTH_PT} w", *halos]
    for ring in _rings(mark for mark in marks if mark.halo and mark.outline):
        ops.append(_outside_halo(ring))
    ops += ["0 0 0 1 K 0 0 0 1 k", f"{LINE_WIDTH_PT} w"]
    dash = ()
    for mark in marks:
        if mark.dash != dash:
            ops.append(f"[{' '.join(f'{mm_to_pt(d):.3f}' for d in mark.dash)}] 0 d")
            dash = mark.dash
        ops.append(path(mark))
    ops.append("Q")
    return " ".join(ops)
