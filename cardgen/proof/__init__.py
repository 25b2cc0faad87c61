"""Proofs: a 300 dpi PNG of every face, rasterised from the very PDF drawing a build prints
(a per-card build into a temporary folder), a contact sheet and an HTML gallery per set.

    <out>/<set>/<card slug>-<copy>-<side>.png, contact.png, index.html, proof.json

A face whose content (its manifest hash, the overlay, the dpi) already has a PNG in the folder
is not rasterised again, so a rerun after changing one card rasterises only that card's faces.
"""
from __future__ import annotations

import functools
import hashlib
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from PIL import Image

from .. import pipeline
from .contact import THUMB_REDUCTION, ContactSheet, thumbnail
from ..load.setfile import load_set
from .gallery import assets, gallery, gallery_data
from .names import card_rows, card_slugs, face_file
from .raster import DPI, Rasteriser, png_bytes
from .store import ProofFolder, content_key
from .workers import chunks, close_rasterisers, default_jobs, open_rasteriser, ordered_map
from ..export.perface import first_pages
from ..write.manifest import load_manifest
from ..scratch import scratch_folder

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
        return (f"{self.name}: {self.faces} face{'s' * (self.faces != 1)} in {self.folder}, {self.rasterised} rasterised, "
                f"{self.faces - self.written} unchanged")


def _entries(faces: list[dict], overlay: bool, dpi: float) -> list[dict]:
    rows = card_rows(faces)
    slugs = card_slugs(rows)
    return [{"file": face_file(slugs[row], f["copy"], f["side"]), "key": content_key(f["hash"], overlay, dpi),
             "card": f["card"], "type": f["type"], "copy": f["copy"], "side": f["side"], "page": f["page"]}
            for f, row in zip(faces, rows)]


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


def _proof_chunk(folder: ProofFolder, pdf: str, dpi: float, contact: ContactSheet | None,
                 index_of: dict[str, list[int]], chunk: list[tuple[str, int, list[str]]]) -> list[tuple]:
    """Rasterise the (key, page, files) of ``chunk`` and write each face's files and its
    thumbnail; return (key, the thumbnail's pixels as ``contact`` pastes them, or None when
    the contact sheet does not show the key) for each."""
    raster = open_rasteriser(pdf, dpi)
    made = []
    for key, page, files in chunk:
        rows = raster.rows(page, scratch=True)
        thumb = thumbnail(rows.image())
        folder.write_all(files, rows.png(dpi))
        folder.write(str(folder.thumb_path(key).relative_to(folder.folder)), png_bytes(thumb, dpi / 4))
        made.append((key, contact.fit(index_of[key][0], thumb).tobytes() if key in index_of else None))
    return made


def _first_pages(entries: list[dict]) -> dict[str, int]:
    """The page index each content (key) is rasterised from: the first it is on (export/perface.first_pages)."""
    firsts = first_pages({"hash": e["key"], "page": e["page"]} for e in entries)
    return {key: page - 1 for key, page in firsts.items()}


def _write_faces(folder: ProofFolder, pdf: Path, todo: list[dict], pages: dict[str, int], dpi: float, jobs: int,
                 sheet: tuple[ContactSheet, dict[str, list[int]]] | None) -> tuple[int, set[str]]:
    """Write the files of ``todo``, rasterising each new content once, from its page of ``pages``
    (in ``jobs`` processes, which write the files), and paste the thumbnails of the new faces
    that ``sheet`` (a contact sheet and the indexes of each key on it) shows; return the pages
    rasterised and the keys pasted."""
    contact, index_of = sheet if sheet else (None, {})
    pasted: set[str] = set()

    def make(files: dict[str, list[str]]):
        work = functools.partial(_proof_chunk, folder, str(pdf), dpi, contact, index_of)
        with closing(ordered_map(work, chunks([(key, pages[key], names) for key, names in files.items()], jobs),
                                 jobs)) as results:  # stopped half-way: the workers end at once
            for made in results:
                for key, pixels in made:
                    if pixels is not None:
                        for index in index_of[key]:
                            contact.paste_fitted(index, pixels)
                        pasted.add(key)
                    yield key

    try:
        return len(folder.fill(todo, make)), pasted
    finally:
        close_rasterisers(pdf)


def _contact_sheet(pdf: Path, entries: list[dict], contact: list[tuple[str, str]], dpi: float) \
        -> tuple[ContactSheet, dict[str, list[int]]]:
    """The contact sheet laid out for the faces of ``contact``, its thumbnails' sizes read
    from the PDF's pages, and the indexes of each key on it: cards whose fronts are alike (the
    Warp's Capture Challenge cards) share a key, and each has its place on the sheet."""
    pages = _first_pages(entries)
    with Rasteriser(pdf, dpi) as raster:
        sizes = [raster.size(pages[key]) for key, _ in contact]
    thumbs = [tuple(-(-side // THUMB_REDUCTION) for side in size) for size in sizes]  # as Image.reduce rounds
    index_of: dict[str, list[int]] = {}
    for index, (key, _) in enumerate(contact):
        index_of.setdefault(key, []).append(index)
    return ContactSheet(thumbs), index_of


def _check_pixels(pdf: Path, entries: list[dict], dpi: float, name: str, root: Path) -> None:
    """Refuse a face whose raster would pass the image pixel limit, before it is rasterised: a
    5 m board was 59,000 pixels a side at 300 dpi, and its proof took 23 GB of memory."""
    from ..errors import Problem
    from ..limits import IMAGE_PIXELS, LimitReached, limit, limit_message

    most = limit(IMAGE_PIXELS)
    with Rasteriser(pdf, dpi) as raster:
        for entry in entries:
            width, height = raster.size(entry["page"] - 1)
            if width * height > most:
                card_type = load_set(name, root).types[entry["type"]]
                size = card_type.size
                detail = (f"a {size.w:g} x {size.h:g} mm face is {width:,} x {height:,} = {width * height:,} pixels "
                          f"at the proof's {dpi:g} dpi")
                raise LimitReached(Problem(limit_message(IMAGE_PIXELS, detail), card_type.source, entry["card"]))


def proof_set(name: str, session: pipeline.Session, out: Path, overlay: bool = False, dpi: float = DPI,
              jobs: int = 1) -> ProofResult:
    """Proof one set, rasterising in ``jobs`` processes."""
    options = pipeline.BuildOptions(layout="per-card", proof_boxes=overlay)
    with scratch_folder("cardgen-proof-") as temporary:
        built = pipeline.build_set(name, session, Path(temporary), options)
        document = load_manifest(built.manifest)
        entries = _entries(document["faces"], overlay, dpi)
        _check_pixels(built.pdf, entries, dpi, name, session.root)
        folder = ProofFolder(Path(out) / name)
        todo = [e for e in entries if not folder.holds(e["file"], e["key"])]
        contact = _contact_keys(entries)
        signature = hashlib.sha256(repr(contact).encode()).hexdigest()
        sheet = None
        if todo or folder.contact != signature or not (folder.folder / CONTACT).is_file():
            sheet = _contact_sheet(built.pdf, entries, contact, dpi)
        rasterised, pasted = _write_faces(folder, built.pdf, todo, _first_pages(entries), dpi, jobs, sheet)
    if sheet is not None:
        contact_image, index_of = sheet
        for key, file in dict(contact).items():  # faces not rasterised this run: their thumbnails are in the folder
            if key not in pasted:
                thumb = _thumb(folder, key, file)
                for index in index_of[key]:
                    contact_image.paste(index, thumb)
        folder.write(CONTACT, png_bytes(contact_image.image, dpi / 4))
    html = gallery(gallery_data(load_set(name, session.root), entries, built.warnings, CONTACT))
    for asset_name, data in assets().items():
        folder.write(asset_name, data)
    folder.write(GALLERY, html.encode("utf-8"))
    removed = folder.finish(entries, signature)
    return ProofResult(name, folder.folder, len(entries), rasterised, len(todo), len(removed))


def proof(names: Sequence[str] | None = None, root: Path | str = ".", out: Path | str | None = None,
          overlay: bool = False, jobs: int | None = None) -> tuple[list[ProofResult], float]:
    """Proof sets (default: every set) into ``out`` (default ``<root>/output/proofs``), rasterising
    in ``jobs`` processes (default: one a core)."""
    jobs = default_jobs() if jobs is None else jobs
    started = time.perf_counter()
    root = Path(root).resolve()
    names = pipeline.resolve_names(names, root)  # before the session makes a cache folder
    session = pipeline.Session(root)
    out = Path(out) if out is not None else root / "output" / "proofs"
    results = [proof_set(name, session, out, overlay, DPI, jobs) for name in names]
    return results, time.perf_counter() - started
