"""Pages of a cardgen PDF to pixels with pypdfium2, and PNG files that are the same bytes for
the same input (no time stamps; fixed compression; the dpi in the pHYs chunk)."""
from __future__ import annotations

import io
import math
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeVar

import pypdfium2
from PIL import Image

from ..units import MM_PER_INCH

DPI = 300
PT_PER_INCH = 72.0
PNG_COMPRESSION = 3  # zlib level: as small as 6 within a few percent, a third faster
Job = TypeVar("Job")
Result = TypeVar("Result")


def pixels(mm: float, dpi: float = DPI) -> int:
    """The pixels pdfium gives a page side of ``mm`` at ``dpi``: a partial pixel counts whole.
    (Rounded to 4 places first, as reportlab writes page sizes, so 2.75 in is 825, not 826.)"""
    return math.ceil(round(mm / MM_PER_INCH * dpi, 4))


class Rasteriser:
    """One PDF's pages at ``dpi``, counting the pages rasterised."""

    def __init__(self, pdf: Path, dpi: float = DPI):
        self.document = pypdfium2.PdfDocument(str(pdf))
        self.dpi = dpi
        self.count = 0

    def __len__(self) -> int:
        return len(self.document)

    def page(self, index: int) -> Image.Image:
        """The whole page (trim plus bleed on a per-card page), RGB on white."""
        page = self.document[index]
        try:
            bitmap = page.render(scale=self.dpi / PT_PER_INCH, fill_color=(255, 255, 255, 255), rev_byteorder=True)
            image = bitmap.to_pil()
            if image.mode != "RGB":
                image = image.convert("RGB")
        finally:
            page.close()
        self.count += 1
        return image

    def close(self) -> None:
        self.document.close()

    def __enter__(self) -> "Rasteriser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def png_bytes(image: Image.Image, dpi: float = DPI) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=PNG_COMPRESSION)
    return buffer.getvalue()


def render_and_encode(jobs: Sequence[Job], render: Callable[[Job], Image.Image],
                      encode: Callable[[Job, Image.Image], Result]) -> Iterator[tuple[Job, Result]]:
    """``render`` each job here (pdfium is not thread-safe) and ``encode`` the pictures in
    threads (PNG compression releases the GIL), a few at a time so that memory stays small.
    Yields (job, encoded) in the order of ``jobs``."""
    workers = max(1, min(4, os.cpu_count() or 1))
    batch = 2 * workers
    with ThreadPoolExecutor(workers) as pool:
        for start in range(0, len(jobs), batch):
            futures = [(job, pool.submit(encode, job, render(job))) for job in jobs[start:start + batch]]
            for job, future in futures:
                yield job, future.result()


def crop_centred(image: Image.Image, page_mm: tuple[float, float], size_px: tuple[int, int],
                 dpi: float = DPI) -> Image.Image:
    """Exactly ``size_px`` about the page's centre (where a per-card page has its trim's centre).

    The centre is taken from the page's true size in mm, not from the rendered pixels (pdfium
    counts a partial pixel whole), so the crop is off by at most half a pixel."""
    centre_x = page_mm[0] / MM_PER_INCH * dpi / 2
    centre_y = page_mm[1] / MM_PER_INCH * dpi / 2
    left, top = round(centre_x - size_px[0] / 2), round(centre_y - size_px[1] / 2)
    if left < 0 or top < 0 or left + size_px[0] > image.width or top + size_px[1] > image.height:
        raise ValueError(f"a {size_px[0]} x {size_px[1]} px crop does not fit a {image.width} x {image.height} px page")
    return image.crop((left, top, left + size_px[0], top + size_px[1]))
