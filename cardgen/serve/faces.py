"""A preview's faces as images: drawn a page each into a temporary PDF, exactly as a build
draws them (with the preview's clipped overflowing text), and rasterised with pdfium."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from .. import pipeline, sheets
from ..errors import Problem
from ..model import Face
from ..proof.raster import Rasteriser, png_bytes, render_and_encode
from ..write.pdf import write_pdf
from .store import FaceStore
from ..scratch import scratch_folder

GRID_DPI = 120  # the page's cards: sharp at their size on screen, quick to rasterise
GRID_PIXELS = 300  # ... and at least this wide, so that a small token is as sharp as a card


def grid_dpi(card_type) -> int:
    """The resolution of a face in the grid: GRID_DPI, or more for a face narrower than GRID_PIXELS."""
    inches = (card_type.size.w + 2 * card_type.bleed) / 25.4
    return max(GRID_DPI, math.ceil(GRID_PIXELS / inches / 10) * 10)


class RenderMemo:
    """Renderings of the set's faces kept between refreshes, in memory (see render/faces.py,
    RenderMemo): after a save, only the cards whose values changed are rendered. It stands
    where the build's face cache would, and keeps no drawing: a preview's drawing may hold
    text clipped to its box, which a build must never reuse."""

    LIMIT = 100_000  # renderings kept; past it the memo starts again

    def __init__(self):
        self.prefix = ""
        self.renderings: dict[str, Any] = {}

    def recall(self, key: str) -> Any:
        return self.renderings.get(key)

    def remember(self, key: str, value: Any) -> None:
        if len(self.renderings) >= self.LIMIT:
            self.renderings.clear()
        self.renderings[key] = value

    def get(self, key: str) -> None:  # a face's drawing: never kept
        return None

    def put(self, key: str, parts) -> None:
        pass


def draw_faces(store: FaceStore, rendered, faces: list[Face], dpi: float | None = None) -> dict[str, list[Problem]]:
    """Draw ``faces`` a page each into a temporary PDF and store their images at ``dpi``
    (None: each at its grid resolution); return each face's overflow problems (text drawn
    clipped)."""
    card_set = rendered.resources.card_set
    layout = pipeline.sheet_options(card_set, pipeline.BuildOptions(layout="per-card"))
    pages: dict[str, tuple[int, float]] = {}
    drawn: dict[str, list[Problem]] = {}
    overflows = rendered.resources.overflows

    def on_page(page, placements) -> None:
        for placement in placements:
            face = placement.face
            pages.setdefault(face.content_hash, (page.number - 1, dpi or grid_dpi(face.card_type)))
            drawn[placement.face.content_hash] = list(overflows)
            overflows.clear()

    # each face once, and its overflow problems told apart by drawing it on a page of its own
    with scratch_folder("cardgen-serve-") as temporary:
        pdf = Path(temporary) / "faces.pdf"
        write_pdf(pdf, sheets.impose_groups([[(face, None) for face in faces]], layout), rendered.drawing,
                  card_set.title, sheets.draw_marks, rendered.resources.fonts.face(None).pdf_name,
                  on_page=on_page)
        jobs = [(face_hash, page, face_dpi) for face_hash, (page, face_dpi) in pages.items()]

        def render(job):
            raster.dpi = job[2]
            return raster.page(job[1])

        with Rasteriser(pdf, GRID_DPI) as raster:
            for (face_hash, _, face_dpi), data in render_and_encode(
                    jobs, render, lambda job, image: png_bytes(image, job[2])):
                store.write(face_hash, face_dpi, data)
    return drawn

