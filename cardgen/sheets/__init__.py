"""Imposition: faces on printable pages with bleed, crop marks, duplex backs, gutter fold,
per-card pages and label sheets. Geometry in millimetres from each page's bottom-left corner.

    imposition = impose([(front, back_or_None), ...], SheetOptions(paper="a4"))
    for page in imposition.pages: ... draw_marks(canvas, page)

See options.py (the settings), duplex.py (where backs go), grid.py (the built-in sheets),
labels/ (label products in gLabels XML, a set's own YAML sheet templates), marks.py, notes.py
(small type in the margin: how to turn a duplex sheet), capacity.py (faces per page, the
README's table) and calibration.py (the duplex test sheet of ``cardgen calibrate``).
"""
from .impose import group_of, impose, impose_groups
from .marks import CircleMark, LineMark, TextMark, draw_marks
from .options import Imposition, SheetOptions
from .sizes import CARD_SIZES, PAPER_SIZES, card_size

__all__ = [
    "CARD_SIZES", "PAPER_SIZES", "CircleMark", "Imposition", "LineMark", "SheetOptions", "TextMark",
    "card_size", "draw_marks", "group_of", "impose", "impose_groups",
]
