"""The text of a PDF cardgen writes, read with pdfium (pypdfium2).

For tests that need the words, not where each character sits: pdfium reads the text in the
order it was drawn (card by card) about a hundred times faster than pdfplumber, whose layout
analysis (lines across the page, character by character) is for tests of geometry.
"""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

PT_PER_MM = 72 / 25.4


def page_texts(path: Path) -> list[str]:
    """Each page's text, in drawing order."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[number].get_textpage().get_text_range() for number in range(len(pdf))]
    finally:
        pdf.close()


def face_texts(path: Path, faces: list[dict]) -> list[str]:
    """The text printed inside each face's trim box, as the manifest places it (``page``, and
    ``x_mm``, ``y_mm``, ``w_mm``, ``h_mm`` from the page's bottom-left corner)."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = {}
        texts = []
        for face in faces:
            if face["page"] not in pages:
                pages[face["page"]] = pdf[face["page"] - 1].get_textpage()
            left, bottom = face["x_mm"] * PT_PER_MM, face["y_mm"] * PT_PER_MM
            right, top = left + face["w_mm"] * PT_PER_MM, bottom + face["h_mm"] * PT_PER_MM
            texts.append(pages[face["page"]].get_text_bounded(left, bottom, right, top))
        return texts
    finally:
        pdf.close()
