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


def page_chars(path: Path) -> list[dict]:
    """Each page's ``height`` and ``chars`` as pdfplumber names them (``text``, ``x0``, ``x1``,
    ``top``, ``bottom`` in points from the page's top-left corner, ``matrix`` and
    ``non_stroking_color`` as 0..1 RGB), in drawing order, read by pdfium in an eighth of
    pdfplumber's time. The box is pdfium's loose one (the font's ascent to descent), as
    pdfplumber's; the characters pdfium makes up (spaces and line ends between runs) are left out."""
    import ctypes

    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = []
        box, matrix = raw.FS_RECTF(), raw.FS_MATRIX()
        rgba = [ctypes.c_uint() for _ in range(4)]
        for number in range(len(pdf)):
            page = pdf[number]
            height = page.get_height()
            textpage = page.get_textpage()  # kept while its raw handle is read
            text = textpage.raw
            chars = []
            for index in range(raw.FPDFText_CountChars(text)):
                if raw.FPDFText_IsGenerated(text, index):
                    continue
                raw.FPDFText_GetLooseCharBox(text, index, box)
                raw.FPDFText_GetMatrix(text, index, matrix)
                raw.FPDFText_GetFillColor(text, index, *rgba)
                chars.append({"text": chr(raw.FPDFText_GetUnicode(text, index)), "x0": box.left, "x1": box.right,
                              "top": height - box.top, "bottom": height - box.bottom,
                              "matrix": (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f),
                              "non_stroking_color": tuple(c.value / 255 for c in rgba[:3])})
            pages.append({"height": height, "chars": chars})
        return pages
    finally:
        pdf.close()
