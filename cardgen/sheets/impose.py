"""Put faces on pages: group by size, pick or load the sheet, fill slots, add backs and marks.

Faces of one size (w, h, shape, bleed) share sheets, groups in order of first appearance;
slots fill row by row from the top-left. Rectangular faces go on a centred card grid, round
faces on a circle-cut sheet (cut outlines for a punch), unless the sheet template has slots
of their shape (a label product, a set's own template): then they go on it, single-sided
label products taking a face's back as the next label.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import CardgenError, Problem
from ..model import Face, Page, Placement, Slot
from .duplex import back_axis, back_slot, fold_axis
from .grid import face_sheet, gutter_sheet
from .labels import CIRCLE_CUT, load_template
from .marks import crop_marks, cut_lines, fold_marks, outlines
from .options import Imposition, SheetOptions, check_options
from .sizes import fmt, paper_name, paper_size
from .template import SheetTemplate, TemplateSlot, mirror_slot

Pair = tuple[Face, Face | None]
FIT_TOLERANCE = 1e-6  # mm


class _Book:
    """Pages and placements in output order."""

    def __init__(self) -> None:
        self.pages: list[Page] = []
        self.placements: list[Placement] = []
        self._marks: dict[tuple, tuple] = {}

    def marks(self, sheet: SheetTemplate, used: list[TemplateSlot], options: SheetOptions, bleed: float,
              axis: str | None = None) -> tuple:
        """A page's marks; pages with the same sheet and slots share one tuple (and its drawing)."""
        key = (id(sheet), tuple(used), bleed, axis)
        marks = self._marks.get(key)
        if marks is None:
            marks = self._marks[key] = tuple(_marks(sheet, used, options, bleed, axis))
        return marks

    def page(self, w: float, h: float, marks: Iterable = (), **boxes) -> int:
        number = len(self.pages) + 1
        self.pages.append(Page(number, w, h, marks=tuple(marks), **boxes))
        return number

    def put(self, face: Face, slot: Slot) -> Slot:
        self.placements.append(Placement(face, slot))
        return slot


def impose(pairs: Sequence[Pair], options: SheetOptions) -> Imposition:
    """Lay out (front, back-or-None) pairs, in print order, on pages."""
    check_options(options)
    pairs = list(pairs)
    for front, _ in pairs:
        _check_face(front)
    book = _Book()
    if options.layout == "per-card":
        _per_card(book, pairs)
        return Imposition(tuple(book.pages), tuple(book.placements))
    template = None
    if options.template and options.template != CIRCLE_CUT:
        template = load_template(options.template, options.root, options.source)
    for group in _groups(pairs):
        front = group[0][0]
        shape, bleed = front.card_type.size.shape, front.card_type.bleed
        if template is not None and shape in template.shapes:
            sheet = _fitting(template.of_shape(shape), front)
            if sheet.duplex:
                _fill_duplex(book, sheet, group, options, bleed)
            else:
                _fill_single(book, sheet, group, options, bleed)
        elif options.layout == "gutter-fold":
            _fill_gutter(book, _gutter(front, options), group, options, bleed)
        else:
            _fill_duplex(book, _grid(front, options), group, options, bleed)
    return Imposition(tuple(book.pages), tuple(book.placements))


def _groups(pairs: list[Pair]) -> list[list[Pair]]:
    groups: dict[tuple, list[Pair]] = {}
    for pair in pairs:
        t = pair[0].card_type
        groups.setdefault((t.size.w, t.size.h, t.size.shape, t.bleed), []).append(pair)
    return list(groups.values())


def _problem(face: Face, message: str) -> CardgenError:
    return CardgenError(Problem(message, face.card_type.source or face.card.source, face.card.name))


def _check_face(face: Face) -> None:
    size = face.card_type.size
    if size.shape not in ("rect", "circle"):
        raise _problem(face, f'shape must be rect or circle, got "{size.shape}"')
    if size.w <= 0 or size.h <= 0 or face.card_type.bleed < 0:
        raise _problem(face, f"card size {fmt(size.w)} x {fmt(size.h)} mm with {fmt(face.card_type.bleed)} "
                             "mm bleed: sizes must be greater than 0 and the bleed 0 or more")
    if size.shape == "circle" and abs(size.w - size.h) > FIT_TOLERANCE:
        raise _problem(face, f"a round card needs w equal to h, got {fmt(size.w)} x {fmt(size.h)} mm")


# -- choosing the sheet --------------------------------------------------------------------

def _pages(options: SheetOptions) -> list[tuple[float, float]]:
    w, h = paper_size(options.paper, options.source)
    if options.orientation == "portrait" or w == h:
        return [(w, h)]
    if options.orientation == "landscape":
        return [(h, w)]
    return [(w, h), (h, w)]  # auto: the first of equals wins, so ties go to portrait


def _best(candidates: list[SheetTemplate], face: Face, options: SheetOptions, what: str) -> SheetTemplate:
    best = max(candidates, key=lambda s: len(s.slots))  # max keeps the first of equals
    if best.slots:
        return best
    size, bleed = face.card_type.size, face.card_type.bleed
    shape = "round " if size.shape == "circle" else ""
    room = " and room for crop marks" if options.crop_marks and size.shape == "rect" else ""
    w, h = paper_size(options.paper, options.source)
    raise _problem(face, f"a {fmt(size.w)} x {fmt(size.h)} mm {shape}card with {fmt(bleed)} mm bleed does "
                         f"not fit{what} on {paper_name(options.paper)} paper ({fmt(w)} x {fmt(h)} mm) "
                         f"with a {fmt(options.margin)} mm margin{room}")


def _grid(face: Face, options: SheetOptions) -> SheetTemplate:
    t = face.card_type
    sheets = [face_sheet(w, h, t.size.w, t.size.h, t.size.shape, t.bleed, options.spacing, options.margin,
                         options.crop_marks) for w, h in _pages(options)]
    return _best(sheets, face, options, "")


def _gutter(face: Face, options: SheetOptions) -> SheetTemplate:
    """Page orientation and fold fitting the most pairs; ties: portrait, then the fold
    parallel to the page's long edge."""
    t = face.card_type
    sheets = []
    for w, h in _pages(options):
        folds = ("vertical", "horizontal") if w <= h else ("horizontal", "vertical")
        sheets += [gutter_sheet(w, h, fold, t.size.w, t.size.h, t.size.shape, t.bleed, options.spacing,
                                options.margin, options.crop_marks) for fold in folds]
    return _best(sheets, face, options, " twice (front and back, gutter fold)")


def _fitting(sheet: SheetTemplate, face: Face) -> SheetTemplate:
    """The template's slots that can take the face: it fits, or, for a die-cut label a little
    smaller than the face, the face's safe zone still fits (the die then is the trim)."""
    size, safe = face.card_type.size, face.card_type.safe
    slots = tuple(s for s in sheet.slots
                  if (size.w <= s.w + FIT_TOLERANCE and size.h <= s.h + FIT_TOLERANCE)
                  or (sheet.marks != "crop" and size.w - 2 * safe <= s.w + FIT_TOLERANCE
                      and size.h - 2 * safe <= s.h + FIT_TOLERANCE))
    if not slots:
        label = sheet.slots[0]
        kind = "round " if size.shape == "circle" else ""
        raise _problem(face, f"a {fmt(size.w)} x {fmt(size.h)} mm {kind}card does not fit the "
                             f"{fmt(label.w)} x {fmt(label.h)} mm labels of sheet template {sheet.name}")
    return SheetTemplate(sheet.name, sheet.w, sheet.h, slots, sheet.marks, sheet.duplex, sheet.fold, sheet.source)


# -- placing faces -------------------------------------------------------------------------

def _place(face: Face, cell: TemplateSlot, page: int) -> Slot:
    """The face's trim box centred in the cell; its art clip reaches the bleed, never beyond
    the cell's room."""
    size, bleed = face.card_type.size, face.card_type.bleed
    if size.w > cell.w + FIT_TOLERANCE or size.h > cell.h + FIT_TOLERANCE:
        # a label smaller than the face (its safe zone fits, see _fitting): the label's die is
        # the trim, and the face is drawn centred on it (the writer centres faces in slots).
        size = type(size)(cell.w, cell.h, size.name, size.shape)
    x = cell.x + (cell.w - size.w) / 2
    y = cell.y + (cell.h - size.h) / 2
    left, bottom, right, top = cell.room
    if size.shape == "circle":
        reach = min(bleed, min(cell.room) + (cell.w - size.w) / 2)
        clip = (x - reach, y - reach, x + size.w + reach, y + size.h + reach)
    else:
        clip = (max(x - bleed, cell.x - left), max(y - bleed, cell.y - bottom),
                min(x + size.w + bleed, cell.x + cell.w + right), min(y + size.h + bleed, cell.y + cell.h + top))
    return Slot(page, x, y, size.w, size.h, size.shape, 0, clip)


def _chunks(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _marks(sheet: SheetTemplate, used: list[TemplateSlot], options: SheetOptions, bleed: float,
           axis: str | None = None) -> list:
    slots = list(sheet.slots)
    if axis:  # a back page: the front page's marks mirrored
        slots = [mirror_slot(s, axis, sheet.w, sheet.h) for s in slots]
        used = [mirror_slot(s, axis, sheet.w, sheet.h) for s in used]
    if sheet.fold:  # both halves of a gutter-fold page
        fold = fold_axis(sheet.fold)
        slots += [mirror_slot(s, fold, sheet.w, sheet.h) for s in slots]
        used = used + [mirror_slot(s, fold, sheet.w, sheet.h) for s in used]
    marks: list = []
    if sheet.marks == "crop":
        if options.crop_marks:
            marks += crop_marks(slots, sheet.w, sheet.h, options.margin, bleed)
        if options.cut_lines:
            marks += cut_lines(slots, sheet.w, sheet.h, options.margin)
    elif sheet.marks == "outline":
        marks += outlines(used)
    if sheet.fold:
        marks += fold_marks(sheet.fold, sheet.w, sheet.h, options.margin)
    return marks


def _fill_duplex(book: _Book, sheet: SheetTemplate, group: list[Pair], options: SheetOptions,
                 bleed: float) -> None:
    """Front pages, each followed by a back page when any of its faces has a back."""
    axis = back_axis(sheet.w, sheet.h, options.duplex)
    for chunk in _chunks(group, len(sheet.slots)):
        cells = list(sheet.slots[:len(chunk)])
        number = book.page(sheet.w, sheet.h, book.marks(sheet, cells, options, bleed))
        fronts = [book.put(front, _place(front, cell, number)) for (front, _), cell in zip(chunk, cells)]
        backed = [(back, slot, cell) for (_, back), slot, cell in zip(chunk, fronts, cells) if back is not None]
        if backed:
            used = [cell for _, _, cell in backed]
            number = book.page(sheet.w, sheet.h, book.marks(sheet, used, options, bleed, axis))
            for back, slot, _ in backed:
                book.put(back, back_slot(slot, axis, sheet.w, sheet.h, number))


def _fill_single(book: _Book, sheet: SheetTemplate, group: list[Pair], options: SheetOptions,
                 bleed: float) -> None:
    """Single-sided label sheets: each face's back is the next label."""
    faces = [face for pair in group for face in pair if face is not None]
    for chunk in _chunks(faces, len(sheet.slots)):
        cells = list(sheet.slots[:len(chunk)])
        number = book.page(sheet.w, sheet.h, book.marks(sheet, cells, options, bleed))
        for face, cell in zip(chunk, cells):
            book.put(face, _place(face, cell, number))


def _fill_gutter(book: _Book, sheet: SheetTemplate, group: list[Pair], options: SheetOptions,
                 bleed: float) -> None:
    """Fronts on one half, each back on the mirror image of its front across the fold."""
    axis = fold_axis(sheet.fold)
    rotation = 180 if sheet.fold == "horizontal" else 0
    for chunk in _chunks(group, len(sheet.slots)):
        cells = list(sheet.slots[:len(chunk)])
        number = book.page(sheet.w, sheet.h, book.marks(sheet, cells, options, bleed))
        fronts = [book.put(front, _place(front, cell, number)) for (front, _), cell in zip(chunk, cells)]
        for (_, back), slot in zip(chunk, fronts):
            if back is not None:
                book.put(back, back_slot(slot, axis, sheet.w, sheet.h, number, rotation))


def _per_card(book: _Book, pairs: list[Pair]) -> None:
    """One face a page at trim size plus bleed, in upload order: front 1, back 1, front 2..."""
    for pair in pairs:
        for face in pair:
            if face is None:
                continue
            size, bleed = face.card_type.size, face.card_type.bleed
            w, h = size.w + 2 * bleed, size.h + 2 * bleed
            number = book.page(w, h, trim_box=(bleed, bleed, bleed + size.w, bleed + size.h),
                               bleed_box=(0.0, 0.0, w, h))
            book.put(face, Slot(number, bleed, bleed, size.w, size.h, size.shape, 0, (0.0, 0.0, w, h)))
