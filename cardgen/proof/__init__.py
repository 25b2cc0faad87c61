"""Proofs: a 300 dpi PNG of every face, rasterised from the very PDF drawing a build prints
(a per-card build into a temporary folder), a contact sheet and an HTML gallery per set.

    <out>/<set>/<card slug>-<copy>-<side>.png, contact.png, index.html, proof.json

A face whose content (its manifest hash, the overlay, the dpi) already has a PNG in the folder
is not rasterised again, so a rerun after changing one card rasterises only that card's faces.
"""
from __future__ import annotations

import hashlib
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from PIL import Image

from .. import pipeline
from .contact import contact_sheet, thumbnail
from ..load.setfile import load_set
from .gallery import assets, gallery, gallery_data
from .names import card_slugs, face_file
from .raster import DPI, Rasteriser, png_bytes
from .store import ProofFolder, content_key
from ..write.manifest import load_manifest

CONTACT = "contact.png"
GALLERY = "index.html"


@dataclass(frozen=True)
class ProofResult:
    name: str
    folder: Path
    faces: int
    rasterised: int  # pages rasterised this run
    written: int  # face files written (rasterised, or copied from a face of the same content)
    removed: int  # files of faces that are gone

    @property
    def line(self) -> str:
        return (f"{self.name}: {self.faces} faces in {self.folder}, {self.rasterised} rasterised, "
                f"{self.faces - self.written} unchanged")


def _entries(faces: list[dict], overlay: bool, dpi: float) -> list[dict]:
    slugs = card_slugs(f["card"] for f in faces)
    return [{"file": face_file(slugs[f["card"]], f["copy"], f["side"]), "key": content_key(f["hash"], overlay, dpi),
             "card": f["card"], "type": f["type"], "copy": f["copy"], "side": f["side"], "page": f["page"]}
            for f in faces]


def _contact_keys(entries: list[dict]) -> list[tuple[str, str]]:
    """(key, file) of each card's first front, then of each different back once."""
    fronts, backs, seen = {}, {}, set()
    for e in entries:
        if e["side"] == "front":
            fronts.setdefault(e["card"], (e["key"], e["file"]))
        elif e["key"] not in seen:
            seen.add(e["key"])
            backs[e["key"]] = (e["key"], e["file"])
    return list(fronts.values()) + list(backs.values())


def _thumb(folder: ProofFolder, key: str, file: str) -> Image.Image:
    path = folder.thumb_path(key)
    if path.is_file():
        return Image.open(path).convert("RGB")
    with Image.open(folder.folder / file) as image:
        thumb = thumbnail(image.convert("RGB"))
    folder.write(str(path.relative_to(folder.folder)), png_bytes(thumb, DPI / 4))
    return thumb


def _write_faces(folder: ProofFolder, pdf: Path, todo: list[dict], dpi: float) -> int:
    """Write the files of ``todo``, rasterising each new content once; return the pages rasterised."""
    pages = {e["key"]: e["page"] - 1 for e in todo}

    def encode(key: str, image: Image.Image) -> bytes:
        folder.write(str(folder.thumb_path(key).relative_to(folder.folder)), png_bytes(thumbnail(image), dpi / 4))
        return png_bytes(image, dpi)

    with Rasteriser(pdf, dpi) as raster:
        folder.fill(todo, lambda key: raster.page(pages[key]), encode)
        return raster.count


def proof_set(name: str, session: pipeline.Session, out: Path, overlay: bool = False, dpi: float = DPI) -> ProofResult:
    options = pipeline.BuildOptions(layout="per-card", proof_boxes=overlay)
    with tempfile.TemporaryDirectory(prefix="cardgen-proof-") as temporary:
        built = pipeline.build_set(name, session, Path(temporary), options)
        document = load_manifest(built.manifest)
        folder = ProofFolder(Path(out) / name)
        entries = _entries(document["faces"], overlay, dpi)
        todo = [e for e in entries if not folder.holds(e["file"], e["key"])]
        rasterised = _write_faces(folder, built.pdf, todo, dpi)
    contact = _contact_keys(entries)
    signature = hashlib.sha256(repr(contact).encode()).hexdigest()
    if todo or folder.contact != signature or not (folder.folder / CONTACT).is_file():
        sheet = contact_sheet([_thumb(folder, key, file) for key, file in contact])
        folder.write(CONTACT, png_bytes(sheet, dpi / 4))
    html = gallery(gallery_data(load_set(name, session.root), entries, built.warnings, CONTACT))
    for asset_name, data in assets().items():
        folder.write(asset_name, data)
    folder.write(GALLERY, html.encode("utf-8"))
    removed = folder.finish(entries, signature)
    return ProofResult(name, folder.folder, len(entries), rasterised, len(todo), len(removed))


def proof(names: Sequence[str] | None = None, root: Path | str = ".", out: Path | str | None = None,
          overlay: bool = False) -> tuple[list[ProofResult], float]:
    """Proof sets (default: every set) into ``out`` (default ``<root>/output/proofs``)."""
    started = time.perf_counter()
    root = Path(root).resolve()
    session = pipeline.Session(root)
    out = Path(out) if out is not None else root / "output" / "proofs"
    results = [proof_set(name, session, out, overlay) for name in pipeline.resolve_names(names, root)]
    return results, time.perf_counter() - started
