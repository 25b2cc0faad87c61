"""Pages of a cardgen PDF to pixels with pypdfium2, and PNG files that are the same bytes for
the same input (no time stamps; fixed compression; the dpi in the pHYs chunk: png.py)."""
from __future__ import annotations

import ctypes
import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeVar

import pypdfium2
import pypdfium2.raw as pdfium_c
from PIL import Image

from ..units import MM_PER_INCH
from .png import png_from_rows, png_of_image

DPI = 300
PT_PER_INCH = 72.0
# what pypdfium2's render passes by default (annotations drawn), bytes in RGB order
RENDER_FLAGS = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER
Job = TypeVar("Job")
Result = TypeVar("Result")


def pixels(mm: float, dpi: float = DPI) -> int:
    """The pixels pdfium gives a page side of ``mm`` at ``dpi``: a partial pixel counts whole.
    (Rounded to 4 places first, as reportlab writes page sizes, so 2.75 in is 825, not 826.)"""
    return math.ceil(round(mm / MM_PER_INCH * dpi, 4))


@dataclass(frozen=True)
class Rows:
    """An RGB picture laid out as a PNG's rows: row ``y`` is a zero (PNG filter "none") at
    ``y * stride`` and ``width`` x 3 bytes after it (``stride`` = 3 x ``width`` + 1). pdfium
    renders straight into this layout, so a PNG of a page needs no copy of its pixels."""
    width: int
    height: int
    data: bytearray  # at least height x stride bytes

    @property
    def stride(self) -> int:
        return 3 * self.width + 1

    def png(self, dpi: float) -> bytes:
        return png_from_rows(self.width, self.height, (memoryview(self.data)[:self.height * self.stride],), dpi)

    def image(self) -> Image.Image:
        """A Pillow copy (RGB)."""
        pixels = memoryview(self.data)[1:1 + self.height * self.stride]
        return Image.frombuffer("RGB", (self.width, self.height), pixels, "raw", "RGB", self.stride, 1)

    def crop(self, left: int, top: int, width: int, height: int, into: bytearray | None = None) -> "Rows":
        """The rows of a ``width`` x ``height`` px part, in a new buffer or in ``into`` (large
        enough; reused by a caller that crops page after page)."""
        if left < 0 or top < 0 or left + width > self.width or top + height > self.height:
            raise ValueError(f"a {width} x {height} px crop does not fit a {self.width} x {self.height} px page")
        stride, size = 3 * width + 1, 3 * width
        if into is None:
            into = bytearray(height * stride)
        elif len(into) < height * stride:
            raise ValueError(f"a buffer of {len(into)} bytes cannot hold {height} rows of {width} px")
        cropped = Rows(width, height, into)
        source, target = memoryview(self.data), memoryview(into)
        target[0:height * stride:stride] = bytes(height)  # each row's filter byte: 0
        for y in range(height):
            start = (top + y) * self.stride + 1 + 3 * left
            target[y * stride + 1:y * stride + 1 + size] = source[start:start + size]
        return cropped


class Rasteriser:
    """One PDF's pages at ``dpi``, counting the pages rasterised."""

    def __init__(self, pdf: Path, dpi: float = DPI):
        self.document = pypdfium2.PdfDocument(str(pdf))
        self.dpi = dpi
        self.count = 0
        self._scratch = bytearray()  # the pages of ``rows(..., scratch=True)``
        self._crop = bytearray()  # ``scratch``

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

    def size(self, index: int) -> tuple[int, int]:
        """The pixels ``page`` and ``rows`` give page ``index``, without rendering it."""
        width, height = self.document.get_page_size(index)
        scale = self.dpi / PT_PER_INCH
        return math.ceil(width * scale), math.ceil(height * scale)

    def rows(self, index: int, scratch: bool = False) -> Rows:
        """The whole page, as ``page`` draws it (the same pixels), in PNG row layout: pdfium
        draws straight into the rows, on white set by filling the bytes rather than by pdfium.

        ``scratch``: in this rasteriser's own buffer, which the next ``scratch`` call draws
        over. A fresh buffer of a few MB a page costs more than the drawing's fill: the memory
        allocator hands it back to the system when it is freed and takes it again, page fault by
        page fault, for the next (a quarter of an export's time)."""
        page = self.document[index]
        try:
            scale = self.dpi / PT_PER_INCH
            width, height = math.ceil(page.get_width() * scale), math.ceil(page.get_height() * scale)
            stride = 3 * width + 1
            size = height * stride + 1
            if not scratch:
                data = bytearray(b"\xff") * size
            else:
                if len(self._scratch) < size:
                    self._scratch = bytearray(size)
                data = self._scratch
                ctypes.memset((ctypes.c_ubyte * size).from_buffer(data), 0xFF, size)
            rows = Rows(width, height, data)
            first_row = (ctypes.c_ubyte * (height * stride)).from_buffer(rows.data, 1)
            bitmap = pdfium_c.FPDFBitmap_CreateEx(width, height, pdfium_c.FPDFBitmap_BGR, first_row, stride)
            try:
                pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, RENDER_FLAGS)
            finally:
                pdfium_c.FPDFBitmap_Destroy(bitmap)
            del first_row
        finally:
            page.close()
        self.count += 1
        rows.data[0:height * stride:stride] = bytes(height)  # each row's filter byte: 0
        return rows

    def scratch(self, size: int) -> bytearray:
        """A buffer of at least ``size`` bytes kept for this rasteriser's next calls (see
        ``rows``): a crop of each page goes into the same one."""
        if len(self._crop) < size:
            self._crop = bytearray(size)
        return self._crop

    def close(self) -> None:
        self.document.close()

    def __enter__(self) -> "Rasteriser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def png_bytes(image: Image.Image, dpi: float = DPI) -> bytes:
    return png_of_image(image, dpi)


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


def centred_box(page_mm: tuple[float, float], size_px: tuple[int, int], dpi: float = DPI) -> tuple[int, int, int, int]:
    """(left, top, width, height): exactly ``size_px`` about the page's centre (where a per-card
    page has its trim's centre).

    The centre is taken from the page's true size in mm, not from the rendered pixels (pdfium
    counts a partial pixel whole), so the crop is off by at most half a pixel."""
    centre_x = page_mm[0] / MM_PER_INCH * dpi / 2
    centre_y = page_mm[1] / MM_PER_INCH * dpi / 2
    return round(centre_x - size_px[0] / 2), round(centre_y - size_px[1] / 2), size_px[0], size_px[1]


def crop_centred(image: Image.Image, page_mm: tuple[float, float], size_px: tuple[int, int],
                 dpi: float = DPI) -> Image.Image:
    """``image`` cropped to ``centred_box``."""
    left, top, width, height = centred_box(page_mm, size_px, dpi)
    if left < 0 or top < 0 or left + width > image.width or top + height > image.height:
        raise ValueError(f"a {width} x {height} px crop does not fit a {image.width} x {image.height} px page")
    return image.crop((left, top, left + width, top + height))
