"""What a build is asked to do, and how that resolves against a set's own settings: the paper,
the sheet options, the colour conversion and the names of the files it writes. The pipeline
(pipeline.py) runs the stages with what this decides."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .units import parse_length

if TYPE_CHECKING:  # the sheets and the model are the build's: a build that skips its sets needs neither
    from . import sheets
    from .model import CardSet


@dataclass(frozen=True)
class BuildOptions:
    """What the command line's build options set. ``None`` means: the set's own setting, or the default."""

    paper: str | tuple | None = None  # letter, a4, a3, or (w, h) as lengths; None: the set's sheet.paper, else letter
    orientation: str | None = None
    layout: str = "sheets"  # sheets | per-card | gutter-fold
    duplex: str = "long"
    spacing: str | None = None
    crop_marks: bool | None = None
    cut_lines: bool | None = None
    sheet: str | None = None  # a sheet template name or file, overriding the set's
    margin: float | None = None  # mm along every paper edge where nothing is printed (default 4)
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm every duplex back page is shifted by
    mix_backs: bool = False  # faces of one size share sheets whatever their back
    proof_boxes: bool = False
    stamp: bool = False  # print the set's version and the PDF's date (write/info.py) in each face's bleed
    stamp_date: str | None = None  # the date printed by ``stamp`` (default: the PDF's date)
    deck: Path | None = None
    changed_since: Path | None = None  # an earlier manifest: print only the faces changed since
    cache: bool = True  # reuse faces drawn by earlier builds (<root>/.cardgen-cache/)
    color: str | None = None  # rgb | cmyk: overrides the set's `color:` (see cardgen/color/)
    subject: str | None = None  # the PDF's Subject when the set gives none
    # a set whose inputs and output are as its last build left them is not built again
    # (unchanged.py): what `cardgen build` asks for; the Python API builds whenever it is called
    skip_unchanged: bool = False
    jobs: int | None = None  # processes that lay out faces (None: every usable core; 1: this process alone)


def build_paper(card_set: CardSet, options: BuildOptions) -> str | tuple:
    """The paper a build prints on: --paper, else the set's ``sheet: paper:``, else letter."""
    paper = options.paper or dict(card_set.sheet).get("paper") or "letter"
    if isinstance(paper, str):
        return paper.strip().lower()
    if isinstance(paper, dict):  # {w: 300, h: 200} in set.yaml
        return paper.get("w"), paper.get("h")
    return paper


def sheet_options(card_set: CardSet, options: BuildOptions) -> sheets.SheetOptions:
    settings = dict(card_set.sheet)
    paper = build_paper(card_set, options)
    template = options.sheet or settings.get("template")
    if isinstance(template, dict):
        template = template.get(paper if isinstance(paper, str) else "custom")
    spacing = options.spacing
    if spacing is None and options.stamp:
        spacing = "bleed"  # the stamp lives in the bleed, which butted cards cut away where they meet
    chosen = {"orientation": options.orientation, "spacing": spacing,
              "crop_marks": options.crop_marks, "cut_lines": options.cut_lines}
    values = {key: (value if value is not None else settings.get(key.replace("_", "-")))
              for key, value in chosen.items()}
    values = {k: v for k, v in values.items() if v is not None}
    if options.margin is not None:
        values["margin"] = options.margin
    elif "margin" in settings:
        values["margin"] = parse_length(settings["margin"])  # checked when set.yaml was read
    from .sheets import SheetOptions

    return SheetOptions(paper=paper, layout=options.layout, duplex=options.duplex,
                        template=template, root=card_set.directory, source=card_set.source,
                        template_everywhere=options.sheet is not None,
                        back_offset=tuple(float(v) for v in options.back_offset),
                        mix_backs=options.mix_backs, **values)


def color_converter(card_set: CardSet, options: BuildOptions):
    """The set's RGB -> CMYK conversion, or None for an RGB build."""
    from .color.settings import ColorSettings

    settings = card_set.color or ColorSettings()
    if options.color is not None and options.color != settings.mode:
        settings = replace(settings, mode=options.color)
    if not settings.cmyk:
        return None
    from .color.build import BuildConversion  # paid only by CMYK builds

    return BuildConversion(settings)


def output_stem(name: str, options: BuildOptions = BuildOptions()) -> str:
    """The file name (without .pdf/.json) a build of set ``name`` writes: ``<set>`` for the whole
    set, ``<set>.deck-<deck>`` for a deck list, ``<set>.reprint`` (or ``<set>.deck-<deck>.reprint``)
    for the faces changed since a manifest. A build of part of a set never replaces the full
    build's files, and a reprint never replaces the manifest it is compared with."""
    stem = name
    if options.deck is not None:
        stem += f".deck-{Path(options.deck).stem}"
    if options.changed_since is not None:
        stem += ".reprint"
    return stem
