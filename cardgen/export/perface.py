"""A set drawn one face a page (trim plus bleed), with the bleed an export needs.

Exports draw the set again with every card type's bleed changed (``dataclasses.replace`` on
the loaded types): templates draw their backgrounds out to ``-bleed``, so a set built with 3 mm
of bleed fills the 1/8 in (3.175 mm) a print shop asks for. The drawing is the build's own:
the same render, layout, imposition (layout "per-card") and PDF writer.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

from .. import pipeline
from ..errors import CardgenError
from ..load.setfile import load_set
from ..model import CardSet, CardType
from ..write.manifest import load_manifest


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
    path = Path(path)
    manifest_path = path.with_suffix(".json")
    pipeline.write_set(card_set, session, path, manifest_path, pipeline.BuildOptions(layout="per-card"))
    return load_manifest(manifest_path)["faces"]


def first_pages(faces) -> dict[str, int]:
    """The page (1-based) each face content (by its hash) is first drawn on, of a PDF's manifest
    faces. The PDF writer draws a content on its first page and places it as a form on every
    later one (write/pdf.py), and pdfium rasterises text in a form a little differently from
    the same text drawn on the page: every raster of a content is taken from its first page, so
    that its pixels do not depend on which copy was rasterised. A proof or a shop's PNG of a
    card changed when a copy of it was added, removed or listed later (the last one was
    rasterised, a form when there were two), and a rerun kept whichever raster it had."""
    first: dict[str, int] = {}
    for face in faces:
        page = face.get("page")
        if page is not None and page < first.get(face["hash"], page + 1):
            first[face["hash"]] = page
    return first


def page_mm(card_type: CardType) -> tuple[float, float]:
    size, bleed = card_type.size, card_type.bleed
    return size.w + 2 * bleed, size.h + 2 * bleed


def face_pairs(faces: list[dict]) -> list[tuple[dict, dict | None]]:
    """Each front of a per-card PDF's manifest faces with its own back (None: its type has
    none), in order. A per-card PDF draws a card's back right after its front: a back is its
    front's of the same card name and copy met last. Paired by name and copy alone, a front took
    the back of another card of its name (two rows may name one card): a back of another type
    printed behind it, and a shop's PNG was rasterised from another page (a form, drawn a little
    differently), so that a rerun's file differed from a fresh export's."""
    pairs: list[list] = []
    open_fronts: dict[tuple, int] = {}  # (card, copy) -> the index of its last front without a back
    for face in faces:
        key = (face["card"], face["copy"])
        if face["side"] == "front":
            open_fronts[key] = len(pairs)
            pairs.append([face, None])
        else:
            at = open_fronts.pop(key, None)
            if at is not None:
                pairs[at][1] = face
    return [(front, back) for front, back in pairs]
