"""Boards and mats larger than the paper, tiled over pages like a poster.

Each tile page shows a part of the face (bleed included) inside the paper's margins; tiles
overlap by ``TILE_OVERLAP`` so that one can be cut along its leading edge and glued onto the
next. Every tile is placed by the same arithmetic, so the art of neighbouring tiles lines up
exactly: a point of the face sits ``step`` mm further left on the next tile to the right (and
further up on the next tile down). Each tile carries:

- alignment ticks in its margins where the overlap begins: lay the next tile's cut edge on them;
- crop marks in the margins where the face's trim lies on this tile;
- a label naming the tile (``B2``: row B, column 2), the grid and the overlap.

A page map goes first: the face's outline divided into its tiles, each named.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

from ..model import Face, Placement, Slot
from .marks import LineMark, TextMark
from .sizes import fmt

TILE_OVERLAP = 10.0  # mm shared by neighbouring tiles
LABEL_BAND = 6.0  # mm at the foot of the tile area for its label
TICK = 3.0  # mm: alignment and crop ticks in the margin
LABEL_PT = 7.0


@dataclass(frozen=True)
class TileGrid:
    page_w: float
    page_h: float
    margin: float
    face_w: float  # bleed box, mm
    face_h: float
    overlap: float

    @property
    def area(self) -> tuple[float, float]:
        """The part of a page a tile's art fills."""
        return self.page_w - 2 * self.margin, self.page_h - 2 * self.margin - LABEL_BAND

    def count(self, length: float, room: float) -> int:
        if length <= room + 1e-9:
            return 1
        return math.ceil((length - self.overlap) / (room - self.overlap) - 1e-9)

    @property
    def columns(self) -> int:
        return self.count(self.face_w, self.area[0])

    @property
    def rows(self) -> int:
        return self.count(self.face_h, self.area[1])

    @property
    def step(self) -> tuple[float, float]:
        cw, ch = self.area
        return cw - self.overlap, ch - self.overlap

    def region(self, row: int, column: int) -> tuple[float, float, float, float]:
        """(x, y, w, h) of the tile's part of the bleed box, from its top-left, mm."""
        cw, ch = self.area
        sx, sy = self.step
        x, y = column * sx, row * sy
        return x, y, min(cw, self.face_w - x), min(ch, self.face_h - y)


def tile_name(row: int, column: int) -> str:
    letters = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{column + 1}"


def best_grid(face: Face, pages: list[tuple[float, float]], margin: float, overlap: float = TILE_OVERLAP) -> TileGrid:
    """The page orientation that needs the fewest tiles (ties: the first, portrait)."""
    size, bleed = face.card_type.size, face.card_type.bleed
    grids = [TileGrid(w, h, margin, size.w + 2 * bleed, size.h + 2 * bleed, overlap) for w, h in pages]
    usable = [g for g in grids if min(g.area) > overlap + 1]
    if not usable:
        raise ValueError(f"the paper leaves no room for a {fmt(overlap)} mm tile overlap inside its margins")
    return min(usable, key=lambda g: g.rows * g.columns)


def check_tile_count(face: Face, grid: TileGrid, paper: str) -> None:
    """Refuse a face that would take more pages than the limit, before they are made: a 100 m
    board, or one on paper little larger than the overlap, made pages for hours."""
    from ..errors import Problem
    from ..limits import BOARD_TILES, LimitReached, limit, limit_message

    tiles = grid.rows * grid.columns
    if tiles > limit(BOARD_TILES):
        size = face.card_type.size
        detail = (f"a {fmt(size.w)} x {fmt(size.h)} mm card is tiled over {grid.rows:,} x {grid.columns:,} = "
                  f"{tiles:,} pages of {paper} paper")
        raise LimitReached(Problem(limit_message(BOARD_TILES, detail), face.card_type.source or face.card.source,
                                   face.card.name))


def tile_pages(book, face: Face, grid: TileGrid, side: str = "front") -> Iterator[tuple]:
    """The page map, then a page per tile, each with its one placement of ``face``."""
    size, bleed = face.card_type.size, face.card_type.bleed
    m, w, h = grid.margin, grid.page_w, grid.page_h
    top = h - m  # y of the tile area's top edge, from the page's bottom
    yield book.page(w, h, _page_map(grid, face, side)), ()
    for row in range(grid.rows):
        for column in range(grid.columns):
            x0, y0, rw, rh = grid.region(row, column)
            marks = _tile_marks(grid, row, column, (x0, y0, rw, rh), bleed, size.w, size.h, face, side)
            page = book.page(w, h, marks)
            trim_x = m - x0 + bleed
            trim_top = top + y0 - bleed
            clip = (m, top - rh, m + rw, top)
            slot = Slot(page.number, trim_x, trim_top - size.h, size.w, size.h, "rect", 0, clip)
            yield page, (Placement(face, slot),)


def _tile_marks(grid: TileGrid, row: int, column: int, region, bleed: float, trim_w: float, trim_h: float,
                face: Face, side: str) -> list:
    m, w, h = grid.margin, grid.page_w, grid.page_h
    x0, y0, rw, rh = region
    top, bottom = h - m, h - m - rh
    left, right = m, m + rw
    sx, sy = grid.step
    marks: list = []

    def vertical(x, kind):  # ticks above and below the art at x
        marks.append(LineMark(x, top + 0.5, x, min(h - 0.5, top + TICK), kind))
        marks.append(LineMark(x, max(0.5, bottom - TICK), x, bottom - 0.5, kind))

    def horizontal(y, kind):
        marks.append(LineMark(max(0.5, left - TICK), y, left - 0.5, y, kind))
        marks.append(LineMark(right + 0.5, y, min(w - 0.5, right + TICK), y, kind))

    # where the next tile's cut edge goes: the overlap begins one step in
    if column < grid.columns - 1:
        vertical(left + sx, "align")
    if row < grid.rows - 1:
        horizontal(top - sy, "align")
    # the face's trim, where it lies on this tile (crop marks for the final cut)
    for trim_x in (bleed, bleed + trim_w):
        if x0 - 1e-9 <= trim_x <= x0 + rw + 1e-9:
            vertical(left + trim_x - x0, "crop")
    for trim_y in (bleed, bleed + trim_h):
        if y0 - 1e-9 <= trim_y <= y0 + rh + 1e-9:
            horizontal(top - (trim_y - y0), "crop")
    name = tile_name(row, column)
    what = f"{face.card.name}{' (back)' if side == 'back' else ''}"
    text = (f"Tile {name} of {grid.rows} x {grid.columns} ({tile_name(grid.rows - 1, grid.columns - 1)}): {what}. "
            f"Cut the right and lower neighbours along their edge and lay it on the ticks; "
            f"overlap {fmt(grid.overlap)} mm.")
    marks.append(TextMark(m, m + 1.5, text, LABEL_PT, 0.0, "note"))
    return marks


def _page_map(grid: TileGrid, face: Face, side: str) -> list:
    """The face's outline scaled into the page, divided into its named tiles."""
    m, w, h = grid.margin, grid.page_w, grid.page_h
    room_w, room_h = w - 2 * m, h - 2 * m - 20
    scale = min(room_w / grid.face_w, room_h / grid.face_h)
    ox = m + (room_w - grid.face_w * scale) / 2
    oy = h - m - 14  # top of the drawing
    marks: list = [TextMark(m, h - m - 6, f"Page map: {face.card.name}{' (back)' if side == 'back' else ''}, "
                                        f"{fmt(face.card_type.size.w)} x {fmt(face.card_type.size.h)} mm, "
                                        f"{grid.rows} x {grid.columns} tiles", 10.0, 0.0, "note")]

    def box(x, y, bw, bh):  # a rectangle in face mm from the bleed box's top-left
        x1, y1 = ox + x * scale, oy - y * scale
        x2, y2 = ox + (x + bw) * scale, oy - (y + bh) * scale
        return [LineMark(x1, y1, x2, y1, "cut"), LineMark(x2, y1, x2, y2, "cut"), LineMark(x2, y2, x1, y2, "cut"),
                LineMark(x1, y2, x1, y1, "cut")]

    for row in range(grid.rows):
        for column in range(grid.columns):
            x0, y0, rw, rh = grid.region(row, column)
            marks += box(x0, y0, rw, rh)
            marks.append(TextMark(ox + (x0 + rw / 2) * scale - 3, oy - (y0 + rh / 2) * scale, tile_name(row, column),
                                  12.0, 0.0, "note"))
    return marks
