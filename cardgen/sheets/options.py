"""What the caller asks of the imposition, and what it gets back."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ..errors import Source, fail
from ..model import Page, Placement

CHOICES = {
    "orientation": ("auto", "portrait", "landscape"),
    "layout": ("sheets", "per-card", "gutter-fold"),
    "duplex": ("long", "short"),
    "spacing": ("butt", "bleed"),
}


@dataclass(frozen=True)
class SheetOptions:
    """How faces go on paper.

    ``paper``: "letter", "a4", "a3" or (w_mm, h_mm). ``orientation``: auto picks the orientation
    that fits the most faces (ties: portrait). ``layout``: sheets (fronts, then a back page after
    each front page that has backs), per-card (one face a page at trim + bleed, for print shops)
    or gutter-fold. ``duplex``: the edge the sheet turns over for back pages. ``spacing``: butt
    (cards touch; bleed trimmed where cards meet) or bleed (full bleed round every card, gap
    2 x bleed). ``margin``: mm along every paper edge where nothing is placed (a home printer's
    unprintable border; 4 mm by default). ``template``: a sheet template name, or a path
    (relative to ``root``) to a gLabels XML file (``file.xml`` or ``file.xml#PART``) or a
    sheet-template YAML file; ``template_everywhere``: the template was asked for on the command
    line, so it is an error if it takes none of the faces (a set's own template may serve none
    of a build's faces, a deck list's say). Either way faces of a shape it has no slots for go
    on the built-in sheets. ``back_offset``: (x, y) mm every back page is shifted by, to correct a
    printer's drift between the sides (``cardgen calibrate`` measures it). ``mix_backs``: faces
    of one size share sheets whatever their back; by default each back (each deck) has its own
    sheets, so that a sheet never mixes backs of different decks. ``blank_backs``: the document
    is printed double-sided (some faces have backs), so a sheet with no backs gets a blank back
    page and every sheet stays one front page and its back. ``source``: where these settings
    were written (set.yaml line); errors about them name it.
    """

    paper: str | tuple[float, float] = "letter"
    orientation: str = "auto"
    layout: str = "sheets"
    duplex: str = "long"
    spacing: str = "butt"
    crop_marks: bool = True
    cut_lines: bool = False
    margin: float = 4.0
    template: str | None = None
    root: Path | None = None
    template_everywhere: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    mix_backs: bool = False
    blank_backs: bool = False
    source: Source | None = None


@dataclass(frozen=True)
class Imposition:
    """Where the faces go: the pages in output order and the faces placed on them."""

    pages: tuple[Page, ...]  # numbered from 1 in output order
    placements: tuple[Placement, ...]  # page by page, in slot order


def check_options(options: SheetOptions) -> None:
    for name, allowed in CHOICES.items():
        value = getattr(options, name)
        if value not in allowed:
            raise fail(f'sheet {name} must be one of {", ".join(allowed)}, got "{value}"', options.source)
    if not isinstance(options.margin, (int, float)) or isinstance(options.margin, bool) or options.margin < 0:
        raise fail(f"sheet margin must be a length of 0 mm or more, got {options.margin!r}", options.source)
    offset = options.back_offset
    if (not isinstance(offset, tuple) or len(offset) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in offset)):
        raise fail(f"sheet back offset must be two lengths (x, y) in mm, got {offset!r}", options.source)
