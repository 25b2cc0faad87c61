"""The contact sheet: every card's front (and each different back once) small, on one PNG.

Thumbnails go row by row in their order, each at its own size (a set mixes poker cards, large
reference cards and small tokens), rows as tall as their tallest, the sheet about square.
"""
from __future__ import annotations

import math
from typing import Sequence

from PIL import Image

THUMB_REDUCTION = 4  # 300 dpi faces -> 75 dpi thumbnails
GAP = 12  # px between thumbnails and around the sheet
MAX_PIXELS = 16_000_000  # larger sets get smaller thumbnails, so the sheet stays openable


def thumbnail(image: Image.Image) -> Image.Image:
    return image.reduce(THUMB_REDUCTION)


def layout(sizes: Sequence[tuple[int, int]]) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """(top-left of each thumbnail, sheet size): rows filled left to right up to a width that
    makes the sheet about square; each row's thumbnails aligned on their top edge."""
    if not sizes:
        return [], (2 * GAP, 2 * GAP)
    area = sum((w + GAP) * (h + GAP) for w, h in sizes)
    width = max(max(w for w, _ in sizes) + GAP, math.ceil(math.sqrt(area)))  # without the outer gap
    positions, x, y, row_height = [], 0, 0, 0
    for w, h in sizes:
        if x > 0 and x + w + GAP > width:
            x, y, row_height = 0, y + row_height, 0
        positions.append((GAP + x, GAP + y))
        x += w + GAP
        row_height = max(row_height, h + GAP)
    sheet_width = GAP + max(px - GAP + w + GAP for (px, _), (w, _) in zip(positions, sizes))
    return positions, (sheet_width, GAP + y + row_height)


class ContactSheet:
    """A contact sheet laid out from its thumbnails' sizes alone, so that each thumbnail is
    pasted as it is made and none has to be kept: a set of 10,000 cards does not hold 10,000
    thumbnails at once."""

    def __init__(self, sizes: Sequence[tuple[int, int]]):
        self.sizes = list(sizes)  # as pasted: smaller than made on a sheet of more than MAX_PIXELS
        positions, size = layout(self.sizes)
        self.scale = min(1.0, math.sqrt(MAX_PIXELS / (size[0] * size[1])))
        if self.scale < 1.0:
            self.sizes = [(max(1, round(w * self.scale)), max(1, round(h * self.scale))) for w, h in self.sizes]
            positions, size = layout(self.sizes)
        self.positions = positions
        self.image = Image.new("RGB", size, "white")

    def paste(self, index: int, thumb: Image.Image) -> None:
        self.image.paste(self.fit(index, thumb), self.positions[index])

    def fit(self, index: int, thumb: Image.Image) -> Image.Image:
        """Thumbnail ``index`` as pasted: made smaller on a sheet of more than MAX_PIXELS."""
        if self.scale < 1.0:
            thumb = thumb.resize(self.sizes[index], Image.Resampling.BOX)
        if thumb.size != self.sizes[index]:
            raise ValueError(f"thumbnail {index} is {thumb.size}, not the {self.sizes[index]} laid out")
        return thumb

    def paste_fitted(self, index: int, pixels: bytes) -> None:
        """Paste the RGB ``pixels`` of ``fit(index, ...)`` (made in another process)."""
        self.image.paste(Image.frombytes("RGB", self.sizes[index], pixels), self.positions[index])


def contact_sheet(thumbs: Sequence[Image.Image]) -> Image.Image:
    sheet = ContactSheet([t.size for t in thumbs])
    for index, thumb in enumerate(thumbs):
        sheet.paste(index, thumb)
    return sheet.image
