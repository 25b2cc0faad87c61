"""Print-shop PNGs (tgc, mpc), in a folder per product; DriveThruCards' PDF/X files are
drivethru.py's.

The set is drawn with at least the shop's bleed plus ``MARGIN`` on every side (more
when the set's own bleed is larger), rasterised at 300 dpi, and each face cropped about its
trim's centre to exactly the shop's pixel size: no scaling, so a pixel is a 300 dpi pixel.
"""
from __future__ import annotations

import csv
import functools
import io
from contextlib import closing
from pathlib import Path

from PIL import Image

from .. import pipeline
from ..errors import Problem
from ..proof.names import card_slugs, slug
from ..proof.raster import centred_box, png_bytes
from ..proof.store import ProofFolder
from ..proof.workers import chunks, close_rasterisers, open_rasteriser, ordered_map
from .perface import face_pairs, first_pages, load_checked, page_mm, per_card_pdf, with_bleed
from .products import at_product_sizes, plain_back_warnings, product_files, product_key, refuse_nothing_sent
from .shops import DPI, Shop
from .turn import turn_of, turn_png
from ..scratch import scratch_folder

MARGIN = 0.5  # mm beyond the shop's bleed that the crop cuts away (no half-covered edge pixels)
INDEX = "export.json"
UPLOAD = "upload.csv"


def export_pngs(name: str, session: pipeline.Session, shop: Shop, out: Path, jobs: int = 1) \
        -> tuple[Path, int, int, list[Problem], list[str]]:
    """PNG files into ``out/<set>/<product>-<back>/``, a folder per product the shop makes:
    one image per distinct front (copies that look alike share it), the back (``back.png``,
    or one per front when backs differ; a plain paper-white one when the type has none), and
    ``upload.csv``, what to upload with the number of copies. Faces at sizes the shop does not
    make are left out and returned as warnings. Return (set folder, files, pages rasterised,
    warnings, product folders). A rerun rasterises only faces whose content changed, and
    removes the files of faces that are gone. Faces are rasterised in ``jobs`` processes."""
    card_set, resized = at_product_sizes(load_checked(name, session.root), shop.name, shop.title)
    needed = shop.bleed_mm + MARGIN
    card_set = with_bleed(card_set, lambda t: max(t.bleed, needed))
    with scratch_folder("cardgen-export-") as temporary:
        pdf = Path(temporary) / f"{name}.pdf"
        faces = per_card_pdf(card_set, session, pdf)
        products, warnings = _products(card_set, faces, shop)
        folder = ProofFolder(Path(out) / name, INDEX)  # made once there is something to send
        warnings = resized + warnings
        entries, uploads = [], {}
        names = product_files(products, _slug)
        for key, pairs in products.items():
            entries_of, rows = _product_files(names[key], pairs, card_set, shop)
            entries.extend(entries_of)
            uploads[names[key]] = rows
        todo = [entry for entry in entries if not folder.holds(entry["file"], entry["key"])]
        first = {entry["key"]: entry for entry in reversed(todo)}
        pages = first_pages({"hash": entry["key"], "page": entry.get("page")} for entry in entries)

        def job(key: str) -> tuple:
            """(key, page index or None for a plain back, crop box or pixel size, quarter turn)."""
            entry = first[key]
            card_type = card_set.types[entry["type"]]
            turn = turn_of(card_type, shop.name, entry["side"])
            if entry.get("page") is None:  # a plain back: paper white, the way up the shop takes
                return key, None, _pixels(shop, card_type), None
            return key, pages[key] - 1, centred_box(page_mm(card_type), shop.pixels(card_type), DPI), turn

        def make(files: dict[str, list[str]]):
            work = functools.partial(_shop_chunk, folder, str(pdf))
            with closing(ordered_map(work, chunks([job(key) + (names,) for key, names in files.items()], jobs),
                                     jobs)) as results:  # stopped half-way: the workers end at once
                for made in results:
                    yield from made

        try:
            made = folder.fill(todo, make)
        finally:
            close_rasterisers(pdf)
        rasterised = sum(1 for key in made if first[key].get("page") is not None)
    for product_folder, rows in uploads.items():
        folder.write(f"{product_folder}/{UPLOAD}", _upload_csv(rows))
    folder.finish(entries, "")
    for old in folder.folder.glob(f"*/{UPLOAD}"):  # lists of products that are gone
        if old.parent.name not in uploads:
            old.unlink()
    return folder.folder, len(entries), rasterised, warnings, sorted(uploads)


def _shop_chunk(folder: ProofFolder, pdf: str, chunk: list[tuple]) -> list[str]:
    """Write the PNG of each face of ``chunk`` (see ``job`` in export_pngs, and the files to
    write); return their keys."""
    made = []
    for key, page, box, turn, files in chunk:
        if page is None:
            folder.write_all(files, png_bytes(Image.new("RGB", box, "white"), DPI))
        else:
            raster = open_rasteriser(pdf, DPI)
            width, height = box[2:]
            crop = raster.rows(page, scratch=True).crop(*box, into=raster.scratch(height * (3 * width + 1)))
            data = crop.png(DPI)
            folder.write_all(files, data if turn is None else turn_png(data, turn, DPI))
        made.append(key)
    return made


def _pixels(shop: Shop, card_type) -> tuple[int, int]:
    """The shop's pixel size for the type, the way up the shop takes it (turn.py)."""
    w, h = shop.pixels(card_type)
    return (h, w) if turn_of(card_type, shop.name, "front") else (w, h)


def _key(face: dict, card_type, shop: Shop) -> str:
    """What a face's file shows: its content, the shop, and how it is turned."""
    turn = turn_of(card_type, shop.name, face["side"])
    return f"{face['hash']}:{shop.name}" + (f":turned-{turn}" if turn else "")


def _slug(text: str) -> str:
    return slug(text)


def _products(card_set, faces: list[dict], shop: Shop):
    """Fronts (with their back face, or None) by (product, back); warnings for the rest."""
    products: dict[tuple[str, str], list] = {}
    left_out: dict[str, int] = {}
    for front, back in face_pairs(faces):
        key = product_key(card_set.types[front["type"]], shop.name)
        if key is None:
            left_out[front["type"]] = left_out.get(front["type"], 0) + 1
            continue
        products.setdefault(key, []).append((front, back))
    warnings, left_warnings = [], []
    sent = dict.fromkeys(front["type"] for pairs in products.values() for front, _ in pairs)
    warnings.extend(plain_back_warnings(card_set, sent, shop.title))
    for type_name, count in left_out.items():
        card_type = card_set.types[type_name]
        size = card_type.size
        left_warnings.append(Problem(f'{shop.title} makes no {size.w:g} x {size.h:g} mm {size.shape} cards: {count} face'
                                f'{"s" * (count != 1)} of type "{type_name}" left out of the export',
                                card_type.source, None, "warning"))
    refuse_nothing_sent(products, left_warnings)
    return products, warnings + left_warnings


def _product_files(product_folder: str, pairs: list, card_set, shop: Shop) -> tuple[list[dict], list[dict]]:
    """The index entries (one per distinct front, and the backs) and the upload rows."""
    slugs = card_slugs(front["card"] for front, _ in pairs)
    back_hashes = {back["hash"] if back else None for _, back in pairs}
    shared_back = len(back_hashes) == 1
    entries: dict[str, dict] = {}  # file -> entry
    rows: dict[tuple, dict] = {}  # (front file, back file) -> upload row
    looks: dict[tuple[str, str], str] = {}  # (card, front hash) -> its file
    for front, back in pairs:
        file = looks.get((front["card"], front["hash"]))
        if file is None:
            base = slugs[front["card"]]
            taken = sum(1 for card, _ in looks if card == front["card"])
            file = f"{product_folder}/{base}{f'-{taken + 1}' if taken else ''}.png"
            looks[(front["card"], front["hash"])] = file
            entries[file] = {"file": file, "key": _key(front, card_set.types[front["type"]], shop),
                             "card": front["card"], "type": front["type"], "side": "front", "page": front["page"]}
        if back is not None:
            back_file = f"{product_folder}/back.png" if shared_back else file[:-4] + "-back.png"
            entries.setdefault(back_file, {"file": back_file, "key": _key(back, card_set.types[front["type"]], shop),
                                           "card": back["card"], "type": back["type"], "side": "back",
                                           "page": back["page"]})
        else:
            back_file = f"{product_folder}/back.png" if shared_back else file[:-4] + "-back.png"
            pixels = _pixels(shop, card_set.types[front["type"]])
            entries.setdefault(back_file, {"file": back_file, "key": f"plain:{pixels[0]}x{pixels[1]}:{shop.name}",
                                           "card": front["card"], "type": front["type"], "side": "back",
                                           "page": None})
        row = rows.setdefault((file, back_file), {"front": file.split("/", 1)[1], "back": back_file.split("/", 1)[1],
                                                  "copies": 0, "card": front["card"]})
        row["copies"] += 1
    return list(entries.values()), list(rows.values())


def _upload_csv(rows: list[dict]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["front", "back", "copies", "card"])
    for row in rows:
        writer.writerow([row["front"], row["back"], row["copies"], row["card"]])
    return out.getvalue().encode("utf-8")
