"""The contact sheet: every card's front (and each different back once) small, on one PNG."""
from __future__ import annotations

import math
from typing import Sequence

from PIL import Image

THUMB_REDUCTION = 4  # 300 dpi faces -> 75 dpi thumbnails
GAP = 12  # px between thumbnails and around the sheet
MAX_PIXELS = 16_000_000  # larger sets get smaller thumbnails, so the sheet stays openable


def thumbnail(image: Image.Image) -> Image.Image:
    return image.reduce(THUMB_REDUCTION)


def contact_sheet(thumbs: Sequence[Image.Image]) -> Image.Image:
    """Thumbnails row by row in a grid of equal cells (the largest thumbnail), about square."""
    if not thumbs:
        return Image.new("RGB", (2 * GAP, 2 * GAP), "white")
    cell_w = max(t.width for t in thumbs)
    cell_h = max(t.height for t in thumbs)
    count = len(thumbs)
    columns = min(count, max(1, round(math.sqrt(count * cell_h / cell_w))))
    rows = math.ceil(count / columns)
    scale = min(1.0, math.sqrt(MAX_PIXELS / (columns * rows * (cell_w + GAP) * (cell_h + GAP))))
    if scale < 1.0:
        thumbs = [t.resize((max(1, round(t.width * scale)), max(1, round(t.height * scale))), Image.Resampling.BOX)
                  for t in thumbs]
        cell_w, cell_h = max(t.width for t in thumbs), max(t.height for t in thumbs)
    sheet = Image.new("RGB", (GAP + columns * (cell_w + GAP), GAP + rows * (cell_h + GAP)), "white")
    for index, thumb in enumerate(thumbs):
        row, column = divmod(index, columns)
        x = GAP + column * (cell_w + GAP) + (cell_w - thumb.width) // 2
        y = GAP + row * (cell_h + GAP) + (cell_h - thumb.height) // 2
        sheet.paste(thumb, (x, y))
    return sheet
