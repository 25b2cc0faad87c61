"""Put faces on pages: group by size, pick or load the sheet, fill slots, add backs and marks.

Faces of one size (w, h, shape, bleed) and one back share sheets, groups in order of first
appearance (so that a sheet never mixes the backs of two decks; ``mix_backs`` groups by size
alone); slots fill row by row from the top-left. Gutter fold puts faces without a back on plain
single-sided sheets. Rectangular faces go on a centred card grid, round
faces on a circle-cut sheet (cut outlines for a punch), unless the sheet template has slots
of their shape (a label product, a set's own template): then they go on it, single-sided
label products taking a face's back as the next label.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import chain

from ..errors import CardgenError
from ..model import CardType, Face, Page, Placement, Slot, new_placement, new_slot
from ..streams import batches
from .duplex import back_axis, back_slot, fold_axis
from .marks import crop_marks, cut_lines, fold_marks, outlines
from .marks import TextMark
from .notes import NOTE_MIN_PT, NOTE_PT, duplex_note, shifted, text_size
from .choice import FIT_TOLERANCE, best_sheet, face_problem, fitting, gutter_sheet, paper_pages, sheet_or_problem
from .options import Imposition, SheetOptions, check_options
from .sizes import fmt
from .template import CIRCLE_CUT, SheetTemplate, TemplateSlot, mirror_slot
from .shapes import HEXES, hex_growth

Pair = tuple[Face, Face | None]


PagePlacements = tuple[Page, tuple[Placement, ...]]


class _Book:
    """Numbers pages in output order, and shares marks between pages."""

    def __init__(self) -> None:
        self.pages = 0
        self._marks: dict[tuple, tuple[SheetTemplate, tuple]] = {}  # ids of a sheet and slots -> (sheet, marks)
        self._mirrored: dict[tuple, tuple[SheetTemplate, list[TemplateSlot]]] = {}

    def marks(self, sheet: SheetTemplate, used: list[TemplateSlot], options: SheetOptions, bleed: float,
              axis: str | None = None, note: str | tuple[str, ...] | None = None) -> tuple:
        """A page's marks; pages with the same sheet and slots share one tuple (and its drawing).
        ``note``: a line of small type in the margin (how to turn a duplex sheet), or such lines,
        the longest first: the first that finds room between the marks beyond the art is printed,
        else the first that finds room over the outer bleed (on a white box); else the same at
        ``NOTE_MIN_PT``."""
        # by identity: hashing the slots themselves cost more than the rest of a sheet's imposing
        key = (id(sheet), tuple(map(id, used)), bleed, axis, note)
        known = self._marks.get(key)
        if known is None or known[0] is not sheet:  # kept with the sheet (and so its slots): no id is reused
            slots = self._slots(sheet, axis)
            marks = _marks(sheet, slots, used, options, bleed, axis)
            turn = None
            # the first that fits: beyond the art if any does, else over the outer bleed, else smaller
            for size, over_bleed in ((NOTE_PT, False), (NOTE_PT, True), (NOTE_MIN_PT, False), (NOTE_MIN_PT, True)):
                for text in () if not note else (note,) if isinstance(note, str) else note:
                    turn = duplex_note(text, slots, marks, sheet.w, sheet.h, options.margin, size, bleed=bleed,
                                       over_bleed=over_bleed)
                    if turn is not None:
                        break
                if turn is not None:
                    marks.append(turn)
                    break
            if axis and options.back_offset != (0.0, 0.0):
                marks = shifted(marks, *options.back_offset)
            known = self._marks[key] = (sheet, tuple(marks))
        return known[1]

    def _slots(self, sheet: SheetTemplate, axis: str | None) -> list[TemplateSlot]:
        """The sheet's slots as its front pages (``axis`` None) or its back pages see them:
        mirrored once a sheet, not once a page (a sheet of tiny faces has many thousands)."""
        if not axis:
            return list(sheet.slots)
        key = (id(sheet), axis)
        known = self._mirrored.get(key)
        if known is None or known[0] is not sheet:
            known = self._mirrored[key] = (sheet, [mirror_slot(s, axis, sheet.w, sheet.h) for s in sheet.slots])
        return known[1]

    def page(self, w: float, h: float, marks: Iterable = (), **boxes) -> Page:
        self.pages += 1
        return Page(self.pages, w, h, marks=tuple(marks), **boxes)


def group_of(card_type: CardType, options: SheetOptions) -> tuple:
    """Which sheets a card type's faces go on: faces of one size (w, h, shape, bleed) and one
    back (one deck) share them; with ``mix_backs``, faces of one size, except that gutter fold
    keeps faces without a back apart; per-card pages take every face in order."""
    if options.layout == "per-card":
        return ()
    back: object = card_type.back
    if options.mix_backs:
        back = card_type.back is not None if options.layout == "gutter-fold" else None
    return card_type.size.w, card_type.size.h, card_type.size.shape, card_type.bleed, back


def impose(pairs: Sequence[Pair], options: SheetOptions) -> Imposition:
    """Lay out (front, back-or-None) pairs, in print order, on pages."""
    groups: dict[tuple, list[Pair]] = {}
    for pair in pairs:
        groups.setdefault(group_of(pair[0].card_type, options), []).append(pair)
    pages, placements = [], []
    for page, placed in impose_groups(groups.values(), options):
        pages.append(page)
        placements.extend(placed)
    return Imposition(tuple(pages), tuple(placements))


def impose_groups(groups: Iterable[Iterable[Pair]], options: SheetOptions) -> Iterator[PagePlacements]:
    """Pages, each with its placements, as the pairs of each group (see ``group_of``, groups in
    order) come in: a large set is imposed a sheet at a time."""
    check_options(options)
    book = _Book()
    template = None
    if options.layout != "per-card" and options.template and options.template != CIRCLE_CUT:
        from .labels import load_template  # label sheets only: gLabels and YAML sheet readers

        template = load_template(options.template, options.root, options.source)
    asked = options.template_everywhere and options.layout != "per-card" and bool(options.template)
    applied, left_out = False, None  # whether a face went on the asked-for sheet; the first that did not
    for group in groups:
        pairs = _checked(group)
        first = next(pairs, None)
        if first is None:
            continue
        pairs = chain((first,), pairs)
        front = first[0]
        shape, bleed = front.card_type.size.shape, front.card_type.bleed
        on_template = (template is not None and shape in template.shapes) or (
            options.template == CIRCLE_CUT and shape == "circle")
        applied = applied or on_template
        if asked and not on_template and left_out is None:
            left_out = front
        if options.layout == "per-card":
            yield from _per_card(book, pairs)
        elif template is not None and shape in template.shapes:
            sheet = fitting(template.of_shape(shape), front)
            if sheet.duplex:
                yield from _fill_duplex(book, sheet, pairs, options, bleed)
            else:
                yield from _fill_single(book, sheet, pairs, options, bleed)
        elif options.layout == "gutter-fold" and (front.card_type.back is not None or first[1] is not None):
            yield from _fill_gutter(book, gutter_sheet(front, options), pairs, options, bleed)
        else:  # sheets, or gutter fold's faces without a back: plain sheets
            sheet = best_sheet(front.card_type, options, face=front)
            if shape == "rect" and options.layout == "sheets" and not sheet.slots:
                yield from _tiled(book, pairs, options)  # a board larger than the paper
            else:
                yield from _fill_duplex(book, sheet_or_problem(sheet, front, options, ""), pairs, options, bleed,
                                        grid=True)
    if asked and not applied and left_out is not None:
        # a sheet asked for on the command line that takes none of the faces: not silently ignored
        raise _not_on_template(left_out, options.template, template)


def _not_on_template(face: Face, name: str, template: SheetTemplate | None) -> CardgenError:
    """A sheet asked for on the command line that has no slot of the shape of any face (faces of
    other shapes go on grids beside the ones it takes)."""
    size = face.card_type.size
    kinds = ("round",) if template is None else sorted("round" if s == "circle" else "rectangular"
                                                       for s in template.shapes)
    what = "round" if size.shape == "circle" else "rectangular"
    return face_problem(face, f'sheet "{name}" does not apply to this card: the sheet has {" and ".join(kinds)} '
                          f'slots only, and "{face.card.name}" (type {face.card_type.name}) is a '
                          f"{fmt(size.w)} x {fmt(size.h)} mm {what} card")


def _checked(pairs: Iterable[Pair]) -> Iterator[Pair]:
    checked: dict[int, CardType] = {}  # a type's faces are checked by its size and bleed alone: once a type
    for pair in pairs:
        card_type = pair[0].card_type
        if checked.get(id(card_type)) is not card_type:
            _check_face(pair[0])
            checked[id(card_type)] = card_type
        yield pair


def _check_face(face: Face) -> None:
    size = face.card_type.size
    if size.shape not in ("rect", "circle", *HEXES) and not size.shape.startswith("path:"):
        raise face_problem(face, f'shape must be rect, circle, hex-pointy, hex-flat or a path, got "{size.shape}"')
    if size.w <= 0 or size.h <= 0 or face.card_type.bleed < 0:
        raise face_problem(face, f"card size {fmt(size.w)} x {fmt(size.h)} mm with {fmt(face.card_type.bleed)} "
                             "mm bleed: sizes must be greater than 0 and the bleed 0 or more")
    if size.shape == "circle" and abs(size.w - size.h) > FIT_TOLERANCE:
        raise face_problem(face, f"a round card needs w equal to h, got {fmt(size.w)} x {fmt(size.h)} mm")


# -- placing faces -------------------------------------------------------------------------

def _place(face: Face, cell: TemplateSlot, page: int) -> Slot:
    """The face's trim box centred in the cell; its art clip reaches the bleed, never beyond
    the cell's room."""
    size, bleed = face.card_type.size, face.card_type.bleed
    if size.w > cell.w + FIT_TOLERANCE or size.h > cell.h + FIT_TOLERANCE:
        # a label smaller than the face (its safe zone fits, see choice.fitting): the label's die is
        # the trim, and the face is drawn centred on it (the writer centres faces in slots).
        size = type(size)(cell.w, cell.h, size.name, size.shape)
    x = cell.x + (cell.w - size.w) / 2
    y = cell.y + (cell.h - size.h) / 2
    left, bottom, right, top = cell.room
    if size.shape == "circle":
        reach = min(bleed, min(cell.room) + (cell.w - size.w) / 2)
        clip = (x - reach, y - reach, x + size.w + reach, y + size.h + reach)
    elif size.shape in HEXES:  # the hexagon grown by the bleed: the writer clips to it
        grow = hex_growth(size.shape, size.w, size.h, min(bleed, min(cell.room)))
        half_w, half_h = size.w * grow / 2, size.h * grow / 2
        cx, cy = x + size.w / 2, y + size.h / 2
        clip = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
    else:
        clip = (max(x - bleed, cell.x - left), max(y - bleed, cell.y - bottom),
                min(x + size.w + bleed, cell.x + cell.w + right), min(y + size.h + bleed, cell.y + cell.h + top))
    return Slot(page, x, y, size.w, size.h, size.shape, 0, clip)


def _marks(sheet: SheetTemplate, slots: list[TemplateSlot], used: list[TemplateSlot], options: SheetOptions,
           bleed: float, axis: str | None = None) -> list:
    """``slots``: the sheet's, mirrored on a back page (``axis``) as the page's marks are."""
    if axis:  # a back page: the front page's marks mirrored
        used = [mirror_slot(s, axis, sheet.w, sheet.h) for s in used]
    folded: list = []
    if sheet.fold:  # both halves of a gutter-fold page
        fold = fold_axis(sheet.fold)
        slots = slots + [mirror_slot(s, fold, sheet.w, sheet.h) for s in slots]
        folded = [mirror_slot(s, fold, sheet.w, sheet.h) for s in used]
        used = used + folded
    marks: list = []
    if sheet.marks == "crop":
        if options.crop_marks:
            marks += crop_marks(slots, sheet.w, sheet.h, options.margin, bleed, used)
        if options.cut_lines:
            marks += cut_lines(used, sheet.w, sheet.h, options.margin)
    elif sheet.marks == "outline":
        # the folded half's outlines are the mirror images of the front half's, so that the two
        # coincide once the page is folded (a path shape need not be symmetric)
        marks += outlines(used[:len(used) - len(folded)], axis)
        if folded:
            marks += outlines(folded, None if axis == fold else fold)
    if sheet.fold:
        marks += fold_marks(sheet.fold, sheet.w, sheet.h, options.margin)
    return marks


def _fill_duplex(book: _Book, sheet: SheetTemplate, group: Iterable[Pair], options: SheetOptions,
                 bleed: float, grid: bool = False) -> Iterator[PagePlacements]:
    """Front pages, each followed by a back page when any of its faces has a back (or by a blank
    one, in a document printed double-sided: ``blank_backs``); both say in their margin how to
    turn the sheet, and the back page is shifted by ``back_offset``. ``grid``: the sheet is a
    built-in card grid, whose part-filled page prints the bleed towards its empty slots
    (``_opened``)."""
    axis = back_axis(sheet.w, sheet.h, options.duplex)
    dx, dy = options.back_offset
    flip = f"flip on {options.duplex} edge"
    back_note: str | tuple[str, str] = f"Back side: {flip}"
    if (dx, dy) != (0.0, 0.0):  # said where there is room (a long line finds none between dense marks)
        back_note = (f"{back_note} (back offset {fmt(dx)}, {fmt(dy)} mm)", back_note)
    # each cell's front and back slot for a card type, but for the page number: every sheet of
    # the group repeats them (cell index, type's id) -> (type, front slot, back slot)
    placed: dict[tuple[int, int], tuple] = {}
    for chunk in batches(group, len(sheet.slots)):
        cells = list(sheet.slots[:len(chunk)])
        has_backs = any(back is not None for _, back in chunk)
        note = f"Print double-sided, {flip}" if has_backs or options.blank_backs else None
        page = book.page(sheet.w, sheet.h, book.marks(sheet, cells, options, bleed, note=note))
        number = page.number
        fronts, backed = [], []
        opened = _opened(sheet, len(chunk), bleed) if grid and len(chunk) < len(sheet.slots) else None
        for index, ((front, back), cell) in enumerate(zip(chunk, cells)):
            card_type = front.card_type
            known = placed.get((index, id(card_type))) if opened is None else None
            if known is None or known[0] is not card_type:
                slot = _place(front, cell if opened is None else opened[index], 0)
                back_at = _moved(back_slot(slot, axis, sheet.w, sheet.h, 0), dx, dy)
                known = (card_type, _geometry(slot), _geometry(back_at))
                if opened is None:  # every full sheet of the group repeats it
                    placed[index, id(card_type)] = known
            fronts.append(new_placement(front, new_slot(number, *known[1])))
            if back is not None:
                backed.append((back, known[2], cell))
        yield page, tuple(fronts)
        if backed:
            used = [cell for _, _, cell in backed]
            page = book.page(sheet.w, sheet.h, book.marks(sheet, used, options, bleed, axis, back_note),
                             flip=options.duplex)
            number = page.number
            yield page, tuple(new_placement(back, new_slot(number, *geometry)) for back, geometry, _ in backed)
        elif options.blank_backs:
            yield _blank(book, sheet, options), ()


def _opened(sheet: SheetTemplate, used: int, bleed: float) -> list[TemplateSlot]:
    """The first ``used`` cells of a built-in card grid (grid.cells: row by row from the
    top-left) on a part-filled page, each with its whole bleed towards an empty cell: butted
    cards lose their bleed only where they meet another card (a card beside or above an empty
    cell was cut there without any). The cell to the right of cell i is i + 1, unless i ends a
    row, and the one below is i + ncols, unless i is in the last row: the grid's edges keep
    their outer bleed, as far as the margin. Cells are never opened left or up: those come
    first."""
    slots = sheet.slots
    ncols = sum(1 for s in slots if s.y == slots[0].y)
    out = []
    for index, cell in enumerate(slots[:used]):
        left, bottom, right, top = cell.room
        if cell.shape == "rect" and index + 1 >= used and (index + 1) % ncols:
            right = max(right, bleed)
        if cell.shape == "rect" and index + ncols >= used and index + ncols < len(slots):
            bottom = max(bottom, bleed)
        out.append(cell if (right, bottom) == (cell.room[2], cell.room[1])
                   else replace(cell, room=(left, bottom, right, top)))
    return out


def _geometry(slot: Slot) -> tuple:
    """A slot's fields but its page number."""
    return slot.x, slot.y, slot.w, slot.h, slot.shape, slot.rotation, slot.clip


def _blank(book: _Book, sheet: SheetTemplate, options: SheetOptions) -> Page:
    """The blank back of a single-sided sheet in a document printed double-sided: without it
    the next sheet's front would print on this one's back, and every later back on the wrong
    sheet. It says why it is blank."""
    text = "Back side: blank (the front has no backs)"
    width, ascent, descent = text_size(text)
    mark = TextMark((sheet.w - width) / 2, options.margin + descent, text, NOTE_PT, 0.0, "note")
    return book.page(sheet.w, sheet.h, (mark,), flip=options.duplex)


def _moved(slot: Slot, dx: float, dy: float) -> Slot:
    if not dx and not dy:
        return slot
    clip = slot.clip and (slot.clip[0] + dx, slot.clip[1] + dy, slot.clip[2] + dx, slot.clip[3] + dy)
    return replace(slot, x=slot.x + dx, y=slot.y + dy, clip=clip)


def _fill_single(book: _Book, sheet: SheetTemplate, group: Iterable[Pair], options: SheetOptions,
                 bleed: float) -> Iterator[PagePlacements]:
    """Single-sided label sheets: each face's back is the next label (in a document printed
    double-sided, each sheet then has a blank back page)."""
    faces = (face for pair in group for face in pair if face is not None)
    for chunk in batches(faces, len(sheet.slots)):
        cells = list(sheet.slots[:len(chunk)])
        page = book.page(sheet.w, sheet.h, book.marks(sheet, cells, options, bleed))
        yield page, tuple(Placement(face, _place(face, cell, page.number)) for face, cell in zip(chunk, cells))
        if options.blank_backs:
            yield _blank(book, sheet, options), ()


def _fill_gutter(book: _Book, sheet: SheetTemplate, group: Iterable[Pair], options: SheetOptions,
                 bleed: float) -> Iterator[PagePlacements]:
    """Fronts on one half, each back on the mirror image of its front across the fold."""
    axis = fold_axis(sheet.fold)
    rotation = 180 if sheet.fold == "horizontal" else 0
    for chunk in batches(group, len(sheet.slots)):
        cells = list(sheet.slots[:len(chunk)])
        page = book.page(sheet.w, sheet.h, book.marks(sheet, cells, options, bleed))
        spots = _opened(sheet, len(chunk), bleed) if len(chunk) < len(sheet.slots) else cells
        fronts = [Placement(front, _place(front, cell, page.number)) for (front, _), cell in zip(chunk, spots)]
        backs = [Placement(back, back_slot(placed.slot, axis, sheet.w, sheet.h, page.number, rotation))
                 for (_, back), placed in zip(chunk, fronts) if back is not None]
        yield page, tuple(fronts + backs)


def _tiled(book: _Book, pairs: Iterable[Pair], options: SheetOptions) -> Iterator[PagePlacements]:
    """Faces larger than the paper, each over several pages (see tiles.py): its page map and
    tiles, then its back's."""
    from .sizes import paper_name
    from .tiles import best_grid, check_tile_count, tile_pages  # only faces larger than the paper are tiled

    for front, back in pairs:
        try:
            grid = best_grid(front, paper_pages(options), options.margin)
        except ValueError as exc:
            raise face_problem(front, str(exc)) from None
        check_tile_count(front, grid, paper_name(options.paper))
        yield from tile_pages(book, front, grid)
        if back is not None:
            yield from tile_pages(book, back, grid, "back")


def _per_card(book: _Book, pairs: Iterable[Pair]) -> Iterator[PagePlacements]:
    """One face a page at trim size plus bleed, in upload order: front 1, back 1, front 2..."""
    for pair in pairs:
        for face in pair:
            if face is None:
                continue
            size, bleed = face.card_type.size, face.card_type.bleed
            w, h = size.w + 2 * bleed, size.h + 2 * bleed
            page = book.page(w, h, trim_box=(bleed, bleed, bleed + size.w, bleed + size.h),
                             bleed_box=(0.0, 0.0, w, h))
            yield page, (Placement(face, Slot(page.number, bleed, bleed, size.w, size.h, size.shape, 0,
                                              (0.0, 0.0, w, h))),)
