"""Choosing the sheet a card type's faces go on: the built-in grid of the page orientation (and,
for gutter fold, the fold) that fits the most, or the slots of a sheet template that fit them;
and the problem a face that fits none of them is.
"""
from __future__ import annotations

from ..errors import CardgenError, Problem
from ..limits import GRID_SLOTS, LimitReached, limit, limit_message
from ..model import CardType, Face
from .grid import face_plan, gutter_plan
from .options import SheetOptions
from .sizes import fmt, paper_name, paper_size
from .template import SheetTemplate

FIT_TOLERANCE = 1e-6  # mm


def face_problem(face: Face, message: str) -> CardgenError:
    """``message`` about ``face``, said at its card type's line (or its card's) and its card."""
    return CardgenError(Problem(message, face.card_type.source or face.card.source, face.card.name))


def paper_pages(options: SheetOptions) -> list[tuple[float, float]]:
    w, h = paper_size(options.paper, options.source)
    if options.orientation == "portrait" or w == h:
        return [(w, h)]
    if options.orientation == "landscape":
        return [(h, w)]
    return [(w, h), (h, w)]  # auto: the first of equals wins, so ties go to portrait


def best_sheet(card_type: CardType, options: SheetOptions, gutter: bool = False,
               face: Face | None = None) -> SheetTemplate:
    """The built-in sheet a card type's faces go on: the page orientation (and, for gutter fold,
    the fold) fitting the most faces; ties: portrait, then the fold parallel to the page's long
    edge. It may have no slot: the faces do not fit. A size so small that the sheet would hold
    more slots than the limit is refused before its slots are made (a 0.001 mm card
    put billions on a page, and the build never ended); ``face`` names the card it is said at."""
    t = card_type
    plans = []
    for w, h in paper_pages(options):
        if not gutter:
            plans.append(face_plan(w, h, t.size.w, t.size.h, t.size.shape, t.bleed, options.spacing,
                                   options.margin, options.crop_marks))
            continue
        folds = ("vertical", "horizontal") if w <= h else ("horizontal", "vertical")
        plans += [gutter_plan(w, h, fold, t.size.w, t.size.h, t.size.shape, t.bleed, options.spacing,
                              options.margin, options.crop_marks) for fold in folds]
    best = max(plans, key=lambda plan: plan.count)  # max keeps the first of equals
    if best.count > limit(GRID_SLOTS):
        detail = (f"a {t.size.w:g} x {t.size.h:g} mm card puts {best.count:,} faces on one "
                  f"{paper_name(options.paper)} sheet")
        raise LimitReached(Problem(limit_message(GRID_SLOTS, detail), t.source or (face and face.card.source),
                                   face and face.card.name))
    return best.sheet()


def sheet_or_problem(best: SheetTemplate, face: Face, options: SheetOptions, what: str) -> SheetTemplate:
    if best.slots:
        return best
    size, bleed = face.card_type.size, face.card_type.bleed
    shape = "round " if size.shape == "circle" else ""
    room = " and room for crop marks" if options.crop_marks and size.shape == "rect" else ""
    w, h = paper_size(options.paper, options.source)
    raise face_problem(face, f"a {fmt(size.w)} x {fmt(size.h)} mm {shape}card with {fmt(bleed)} mm bleed does "
                         f"not fit{what} on {paper_name(options.paper)} paper ({fmt(w)} x {fmt(h)} mm) "
                         f"with a {fmt(options.margin)} mm margin{room}")


def gutter_sheet(face: Face, options: SheetOptions) -> SheetTemplate:
    return sheet_or_problem(best_sheet(face.card_type, options, gutter=True, face=face), face, options,
                 " twice (front and back, gutter fold)")


def fitting(sheet: SheetTemplate, face: Face) -> SheetTemplate:
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
        raise face_problem(face, f"a {fmt(size.w)} x {fmt(size.h)} mm {kind}card does not fit the "
                             f"{fmt(label.w)} x {fmt(label.h)} mm labels of sheet template {sheet.name}")
    return SheetTemplate(sheet.name, sheet.w, sheet.h, slots, sheet.marks, sheet.duplex, sheet.fold, sheet.source)
