"""Build a set's tuck boxes: ``output/<set>.box-<name>.pdf``, one sheet each.

The box's layout is a template like a card's, drawn over the whole flat net (its ``w`` and
``h``); it sees ``box`` (every panel's x, y, w, h, and the inside and depth), ``count``,
``cards`` (the names it holds), the box's ``fields`` and ``set``. cardgen adds the cut outline
(solid) and the fold lines (dashed) over the art, and a line saying how to put it together.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from reportlab.pdfgen.canvas import Canvas

from ..draw.svgpath import parse_path, pdf_path
from ..draw.context import FaceGeometry
from ..errors import CardgenError, fail
from ..model import BoxSpec, Card, CardSet, CardSize, CardType
from ..rendered import render_set
from ..spelled import spelled
from ..sheets.sizes import fmt, paper_size
from ..units import PT_PER_MM
from ..write.atomic import Batch, staged
from ..write.face import FaceDrawing, draw_face
from ..write.info import apply as apply_info, document_info
from .tuckbox import TuckBox

BLEED = 3.0  # mm of art beyond the cut outline
MARGIN = 5.0  # mm kept clear at the paper's edge (home printers)
CUT_WIDTH = 0.25  # pt
FOLD_DASH = (2.0, 1.5)  # mm on, off
NOTE = "Cut on the solid lines, fold on the dashed ones; glue the narrow flap behind the far side."


def box_paths(card_set: CardSet, out: Path) -> list[Path]:
    return [Path(out) / f"{card_set.name}.box-{name}.pdf" for name in card_set.boxes]


def held_cards(card_set: CardSet, spec: BoxSpec) -> list[tuple[Card, int]]:
    """The cards a box holds, with their copies."""
    if spec.deck is not None:
        from ..validate import deck_cards, load_deck

        return [(card, card.count) for card in deck_cards(load_deck(card_set, spec.deck))]
    held = []
    for card in card_set.cards:
        if all(_matches(card.fields.get(key, card.type if key == "type" else None), wanted)
               for key, wanted in spec.where.items()):
            held.append((card, card.count))
    return held


def _matches(value, wanted) -> bool:
    if isinstance(wanted, (list, tuple)):
        return any(_matches(value, w) for w in wanted)
    return str(value) == str(wanted)


def tuck_box(card_set: CardSet, spec: BoxSpec) -> tuple[TuckBox, list[tuple[Card, int]]]:
    held = held_cards(card_set, spec)
    count = sum(copies for _, copies in held)
    if count == 0:
        raise fail(f'box "{spec.name}" holds no card: nothing matches {spelled(dict(spec.where)) if spec.where else "the deck list"}',
                   spec.source)
    sizes = {(card_set.types[card.type].size.w, card_set.types[card.type].size.h) for card, _ in held}
    if len(sizes) > 1:
        listed = ", ".join(f"{fmt(w)} x {fmt(h)} mm" for w, h in sorted(sizes))
        raise fail(f'box "{spec.name}" holds cards of different sizes ({listed}): a box holds one size',
                   spec.source)
    (card_w, card_h), = sizes
    return TuckBox.for_cards(card_w, card_h, count, spec.thickness, spec.clearance), held


def check_boxes(card_set: CardSet, paper="letter") -> None:
    """What can be known of every box without drawing it (its cards, their sizes, the paper it
    needs): checked before the set's own files are written, so a box that cannot be made fails
    the build while the earlier output is still as it was."""
    for spec in card_set.boxes.values():
        box, _ = tuck_box(card_set, spec)
        _page(box, paper, spec)


def build_boxes(card_set: CardSet, session, out: Path, paper="letter", batch: Batch | None = None,
                conversion=None) -> list[Path]:
    """Write every tuck box of the set; each file whole or not at all (with ``batch``: all put
    in place with the rest of the batch). ``conversion``: a CMYK build's (color/build.py), which
    the boxes go through as the set's PDF does."""
    written = []
    for spec, target in zip(card_set.boxes.values(), box_paths(card_set, out)):
        write_box(card_set, session, spec, target, paper, batch, conversion)
        written.append(target)
    return written


def write_box(card_set: CardSet, session, spec: BoxSpec, target: Path, paper="letter",
              batch: Batch | None = None, conversion=None) -> TuckBox:
    box, held = tuck_box(card_set, spec)
    card_type = CardType(name=f"box {spec.name}", template=spec.template, back=None,
                         size=CardSize(box.w, box.h, "tuck box"), bleed=BLEED, safe=0.0, source=spec.source)
    fields = {**spec.fields, "name": spec.name, "type": card_type.name, "count": sum(c for _, c in held),
              "cards": [card.name for card, _ in held], "box": box.template_values()}
    card = Card(spec.name, card_type.name, 1, MappingProxyType(fields), spec.source)
    boxed = replace(card_set, types=MappingProxyType({**card_set.types, card_type.name: card_type}))
    rendered = render_set(boxed, session)
    pairs = list(rendered.pairs([card]))
    if rendered.renderer.problems():
        raise CardgenError(rendered.renderer.problems())
    laid = rendered.lay_out(pairs[0][0])
    page_w, page_h = _page(box, paper, spec)
    resources = rendered.resources
    font = session.fonts.face(None).pdf_name
    with staged(target, batch=batch) as (temporary,):
        canvas = Canvas(str(temporary), pagesize=(page_w * PT_PER_MM, page_h * PT_PER_MM), invariant=1,
                        pageCompression=1, initialFontName=font)
        # the set's own author, subject and date, as its PDF has them (write/info.py): reportlab's
        # invariant date was 2000-01-01 whatever the set's date: or files said, and its author and
        # subject "anonymous" and "unspecified" whatever set.yaml's author: and subject: said
        info = document_info(card_set, f"{card_set.title}: {spec.name} tuck box printed by cardgen")
        apply_info(canvas, info)
        canvas.setTitle(f"{card_set.title}: {spec.name} tuck box")
        canvas.setCreator("cardgen")
        canvas.setProducer("cardgen")
        left, bottom = (page_w - box.w) / 2, (page_h - box.h) / 2
        canvas.saveState()
        canvas.translate(left * PT_PER_MM, bottom * PT_PER_MM)
        geometry = FaceGeometry(box.w, box.h)
        outline = pdf_path(parse_path(box.outline()), geometry)
        # the art is not clipped: what it draws beyond the outline is bleed, cut away
        draw_face(canvas, card_type, FaceDrawing(face_named=resources.fonts.face_named,
                                                 paint_icon=resources.paint_icon, laid=laid))
        # lines seen on any ground: white under black (cut) and under grey (fold)
        canvas._code.append(f"q 1 1 1 RG {3 * CUT_WIDTH:.2f} w 1 j {outline} S "
                            f"0 0 0 RG {CUT_WIDTH:.2f} w {outline} S Q")
        dash = " ".join(f"{d * PT_PER_MM:.3f}" for d in FOLD_DASH)
        folds = " ".join(f"{geometry.x(x1):.3f} {geometry.y(y1):.3f} m {geometry.x(x2):.3f} {geometry.y(y2):.3f} l"
                         for x1, y1, x2, y2 in box.folds())
        canvas._code.append(f"q [{dash}] 0 d 1 1 1 RG {3 * CUT_WIDTH:.2f} w {folds} S "
                            f"0.35 0.35 0.35 RG {CUT_WIDTH:.2f} w {folds} S Q")
        canvas.restoreState()
        canvas.setFont(font, 7)
        canvas.setFillGray(0.3)
        canvas.drawCentredString(page_w / 2 * PT_PER_MM, (bottom - BLEED - 4) * PT_PER_MM
                                 if bottom - BLEED - 4 > MARGIN else (MARGIN - 2) * PT_PER_MM, NOTE)
        canvas.showPage()
        # as the set's sheets: print dialogs preselect actual size, one-sided (a box scaled to
        # fit the printable area, 97% or so, no longer holds its cards)
        canvas.setViewerPreference("PrintScaling", "None")
        canvas.setViewerPreference("Duplex", "Simplex")
        canvas.save()
        if conversion is not None:  # a CMYK build's box was RGB beside the set's CMYK PDF
            conversion.convert_drawn(temporary)
    return box


def _page(box: TuckBox, paper, spec: BoxSpec) -> tuple[float, float]:
    """The paper (mm), turned so that the net and its bleed fit inside the margins."""
    w, h = paper_size(paper, spec.source)
    need_w, need_h = box.w + 2 * (BLEED + MARGIN), box.h + 2 * (BLEED + MARGIN)
    for page in ((w, h), (h, w)):
        if need_w <= page[0] and need_h <= page[1]:
            return page
    raise fail(f'box "{spec.name}" ({fmt(box.w)} x {fmt(box.h)} mm flat) does not fit on '
               f"{fmt(w)} x {fmt(h)} mm paper with its bleed: choose a larger --paper", spec.source)
