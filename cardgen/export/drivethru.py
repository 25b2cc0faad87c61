"""DriveThruCards: PDF/X-1a:2003 files, one per product (card size and back).

Each file is a page per face at trim plus 1/8 in bleed (TrimBox and BleedBox set), every front
followed by its back: the order DriveThruCards reads a two-sided card file in. A card type with
no back gets a plain paper-white back page, so that the order holds (preflight warns about it).
Faces at sizes the shop does not make (products.yaml) are left out and listed in a warning.

The set is drawn by the build's own pipeline (per-card layout), then converted to CMYK with
transparency pre-mixed (color/pdf.py) and finished as PDF/X-1a (color/pdfx.py).
"""
from __future__ import annotations

import zlib
from dataclasses import replace
from pathlib import Path

import pikepdf

from .. import pipeline
from ..color import ColorSettings
from ..color.convert import Converter
from ..color.pdf import PdfConverter
from ..color.pdfx import finish_pdfx, save_pdfx
from ..errors import Problem
from ..write.atomic import staged
from ..write.info import document_info
from .perface import face_pairs, load_checked, per_card_pdf, with_bleed
from ..proof.names import slug
from .products import at_product_sizes, plain_back_warnings, product_files, product_key, refuse_nothing_sent
from .shops import Shop
from .turn import turn_of, turn_page
from ..scratch import scratch_folder


def _slug(text: str) -> str:
    return slug(text, "cards")  # a back named "Rückseite" is "ruckseite", not "r-ckseite"


def export_drivethru(name: str, session: pipeline.Session, shop: Shop, out: Path) \
        -> tuple[list[tuple[Path, int]], list[Problem]]:
    """Write ``out/<set>/<product>-<back>.pdf`` files; return [(path, pages)] and warnings."""
    card_set, resized = at_product_sizes(load_checked(name, session.root), shop.name, shop.title)
    card_set = with_bleed(card_set, lambda t: shop.bleed_mm)
    settings = card_set.color or ColorSettings()
    settings = replace(settings, mode="cmyk")
    info = document_info(card_set, f"{card_set.title}: DriveThruCards print file (PDF/X-1a:2003)")
    folder = Path(out) / name
    warnings: list[Problem] = list(resized)
    with scratch_folder("cardgen-drivethru-") as temporary:
        drawn = Path(temporary) / f"{name}.pdf"
        faces = per_card_pdf(card_set, session, drawn)
        products: dict[tuple[str, str], list[tuple[dict, dict | None]]] = {}
        left_out: dict[str, list[str]] = {}
        for front, back in face_pairs(faces):
            card_type = card_set.types[front["type"]]
            key = product_key(card_type, shop.name)
            if key is None:
                left_out.setdefault(front["type"], []).append(front["card"])
                continue
            products.setdefault(key, []).append((front, back))
        left_warnings = []
        for type_name, cards in left_out.items():
            size = card_set.types[type_name].size
            left_warnings.append(Problem(
                f'{shop.title} makes no {size.w:g} x {size.h:g} mm {size.shape} cards: {len(cards)} face'
                f'{"s" * (len(cards) != 1)} of type "{type_name}" left out of the export',
                card_set.types[type_name].source, None, "warning"))
        refuse_nothing_sent(products, left_warnings)
        warnings.extend(left_warnings)
        sent = dict.fromkeys(front["type"] for pairs in products.values() for front, _ in pairs)
        warnings.extend(plain_back_warnings(card_set, sent, shop.title))
        names = product_files(products, _slug)
        targets = [folder / f"{names[key]}.pdf" for key in products]
        written = []
        converter = PdfConverter(Converter(settings), flatten=True)
        with pikepdf.open(drawn) as source, staged(*targets) as temporaries:
            for (key, pairs), temporary, target in zip(products.items(), temporaries, targets):
                with pikepdf.new() as pdf:
                    for front, back in pairs:
                        card_type = card_set.types[front["type"]]
                        _append(pdf, source.pages[front["page"] - 1], turn_of(card_type, shop.name, "front"))
                        if back is not None:
                            _append(pdf, source.pages[back["page"] - 1], turn_of(card_type, shop.name, "back"))
                        else:
                            pdf.pages.append(_plain_back(pdf, pdf.pages[-1]))
                    converter.convert(pdf)
                    finish_pdfx(pdf, info, settings.intent)
                    save_pdfx(pdf, temporary)
                    written.append((target, len(pdf.pages)))
    _remove_gone(folder, targets)
    return written, warnings


def _remove_gone(folder: Path, targets: list[Path]) -> None:
    """Remove the print files of products an earlier export made and this one does not (a back
    renamed, a card type gone): the folder is what to upload, and a fresh export holds only the
    files it wrote. Called once the new files are in place, so a failed export leaves the last."""
    kept = {target.name for target in targets}
    for old in folder.glob("*.pdf"):
        if old.name not in kept and old.is_file() and not old.is_symlink() and _print_file_of_ours(old):
            old.unlink(missing_ok=True)


def _print_file_of_ours(path: Path) -> bool:
    """Whether ``path`` is a print file this export wrote (cardgen its Creator and Producer, a
    PDF/X version given): any other PDF in the folder, one the designer put there to upload
    beside the cards (rules, a box), is theirs and is never removed."""
    try:
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            return (str(info.get("/Creator", "")) == str(info.get("/Producer", "")) == "cardgen"
                    and "/GTS_PDFXVersion" in info)
    except Exception:  # unreadable, damaged, not a PDF: not ours to remove
        return False


def _append(pdf: pikepdf.Pdf, page: pikepdf.Page, turn: str | None) -> None:
    """``page`` at the end of ``pdf``, turned a quarter when the shop takes its card only turned
    (turn.py): a landscape card's page among the product's upright ones was refused."""
    pdf.pages.append(page)
    if turn is not None:
        turn_page(pdf, pdf.pages[-1], turn)


def _plain_back(pdf: pikepdf.Pdf, front: pikepdf.Page) -> pikepdf.Page:
    """A back page of paper white with the front's boxes (copied as numbers: a box written as an
    object of the drawn file is foreign to ``pdf``, and pikepdf refused the page).

    Its empty content is written already compressed: qpdf, compressing on save, marked an empty
    stream /FlateDecode with no bytes at all, which is no Flate data (Ghostscript: "error
    reading a stream", on every plain back)."""
    def box(name):
        return pikepdf.Array(list(front.obj[name]))

    contents = pdf.make_stream(zlib.compress(b""))
    contents.Filter = pikepdf.Name.FlateDecode
    page = pikepdf.Page(pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=box("/MediaBox"),
                                           TrimBox=box("/TrimBox"), BleedBox=box("/BleedBox"),
                                           Resources=pikepdf.Dictionary(), Contents=contents))
    return page
