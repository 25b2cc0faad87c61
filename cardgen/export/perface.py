"""A set drawn one face a page (trim plus bleed), with the bleed an export needs.

Exports draw the set again with every card type's bleed changed (``dataclasses.replace`` on
the loaded types): templates draw their backgrounds out to ``-bleed``, so a set built with 3 mm
of bleed fills the 1/8 in (3.175 mm) a print shop asks for. The drawing is the build's own:
the same render, layout, imposition (layout "per-card") and PDF writer.
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Callable

from .. import pipeline, sheets
from ..errors import CardgenError
from ..load.setfile import load_set
from ..model import CardSet, CardType
from ..write.manifest import manifest
from ..write.pdf import write_pdf


def with_bleed(card_set: CardSet, bleed: Callable[[CardType], float]) -> CardSet:
    types = {name: replace(card_type, bleed=bleed(card_type)) for name, card_type in card_set.types.items()}
    return replace(card_set, types=types)


def load_checked(name: str, root: Path) -> CardSet:
    """The set, refused like a build refuses it: when its rules fail."""
    card_set = load_set(name, root)
    errors = [p for p in pipeline.check_problems(card_set) if p.is_error]
    if errors:
        raise CardgenError(errors)
    return card_set


def per_card_pdf(card_set: CardSet, session: pipeline.Session, path: Path) -> list[dict]:
    """Write the set one face a page (TrimBox and BleedBox set) to ``path``; return the
    manifest's face entries (card, type, copy, side, page, hash...), page by page."""
    rendered, laid, _ = pipeline.render_set(card_set, session)
    imposition = sheets.impose(rendered.pairs, sheets.SheetOptions(layout="per-card", source=card_set.source))
    write_pdf(Path(path), imposition.pages, imposition.placements, laid, card_set.title, sheets.draw_marks,
              session.fonts.face(None).pdf_name)
    document = manifest(card_set, imposition.placements, len(imposition.pages))
    return json.loads(json.dumps(document["faces"]))  # plain JSON values, as a manifest file has them


def page_mm(card_type: CardType) -> tuple[float, float]:
    size, bleed = card_type.size, card_type.bleed
    return size.w + 2 * bleed, size.h + 2 * bleed
