"""Print-shop files: a PNG per face (tgc, mpc) or one PDF (drivethru).

PNG shops: the set is drawn with at least the shop's bleed plus ``MARGIN`` on every side (more
when the set's own bleed is larger), rasterised at 300 dpi, and each face cropped about its
trim's centre to exactly the shop's pixel size: no scaling, so a pixel is a 300 dpi pixel.
DriveThruCards: the set drawn with exactly 1/8 in of bleed, so that its pages are the shop's
trim plus bleed, with TrimBox and BleedBox.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from .. import pipeline
from ..proof.names import card_slugs, face_file
from ..proof.raster import Rasteriser, crop_centred, png_bytes
from ..proof.store import ProofFolder
from .perface import load_checked, page_mm, per_card_pdf, with_bleed
from .shops import DPI, Shop

MARGIN = 0.5  # mm beyond the shop's bleed that the crop cuts away (no half-covered edge pixels)
INDEX = "export.json"


def export_pngs(name: str, session: pipeline.Session, shop: Shop, out: Path) -> tuple[Path, int, int]:
    """PNG per face into ``out/<set>/``; (folder, faces, pages rasterised). A rerun rasterises
    only faces whose content changed, and removes the files of faces that are gone."""
    card_set = load_checked(name, session.root)
    needed = shop.bleed_mm + MARGIN
    card_set = with_bleed(card_set, lambda t: max(t.bleed, needed))
    folder = ProofFolder(Path(out) / name, INDEX)
    with tempfile.TemporaryDirectory(prefix="cardgen-export-") as temporary:
        pdf = Path(temporary) / f"{name}.pdf"
        faces = per_card_pdf(card_set, session, pdf)
        slugs = card_slugs(f["card"] for f in faces)
        entries = [{"file": face_file(slugs[f["card"]], f["copy"], f["side"]), "key": f"{f['hash']}:{shop.name}",
                    "card": f["card"], "type": f["type"], "copy": f["copy"], "side": f["side"]} for f in faces]
        todo = [(face, entry) for face, entry in zip(faces, entries) if not folder.holds(entry["file"], entry["key"])]
        first = {entry["key"]: face for face, entry in reversed(todo)}

        def render(key: str):
            face = first[key]
            card_type = card_set.types[face["type"]]
            return crop_centred(raster.page(face["page"] - 1), page_mm(card_type), shop.pixels(card_type))

        with Rasteriser(pdf, DPI) as raster:
            folder.fill([entry for _, entry in todo], render, lambda key, image: png_bytes(image, DPI))
            rasterised = raster.count
    folder.finish(entries, "")
    return folder.folder, len(entries), rasterised


def export_pdf(name: str, session: pipeline.Session, shop: Shop, out: Path) -> tuple[Path, int]:
    """One PDF ``out/<set>.pdf``: a face a page at trim plus exactly the shop's bleed."""
    card_set = with_bleed(load_checked(name, session.root), lambda t: shop.bleed_mm)
    target = Path(out) / f"{name}.pdf"
    faces = per_card_pdf(card_set, session, target)  # written whole or not at all, manifest beside it
    return target, len(faces)
