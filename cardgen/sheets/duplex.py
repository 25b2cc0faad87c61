"""Where backs go so that each lands exactly behind its front.

A duplex printer turns the sheet over about one of its edges; the back page is the front page
mirrored across the centre line parallel to that edge:

- ``long``: on a portrait page the long edge is vertical, so columns mirror: the back of the
  face in column c goes to column ncols-1-c of the same row. On a landscape page the long edge
  is horizontal, so the rows reverse instead (the printer rotates landscape pages onto the
  paper, and turns the paper over its long edge).
- ``short``: on a portrait page the column stays and the rows reverse; on a landscape page the
  columns mirror.

Gutter fold: the fold line is the page's centre line, and the back of each face is its front
slot mirrored across it. A vertical fold (fronts left, backs right) keeps backs upright; a
horizontal fold (fronts on the top half, backs below) rotates backs by 180 degrees so that,
once folded, a card turned over sideways shows its back upright, as with long-edge duplex.

Every back slot is computed by mirroring its front slot's coordinates (x' = W - x - w or
y' = H - y - h): the grids are centred on the page, so the mirror is exactly a grid slot.
"""
from __future__ import annotations

from ..model import Slot
from .template import mirror_box


def back_axis(page_w: float, page_h: float, duplex: str) -> str:
    """"x" when the back page mirrors x (columns), "y" when it mirrors y (rows)."""
    portrait = page_w <= page_h
    return "x" if (duplex == "long") == portrait else "y"


def fold_axis(fold: str) -> str:
    return "x" if fold == "vertical" else "y"


def back_slot(front: Slot, axis: str, page_w: float, page_h: float, page: int, rotation: int = 0) -> Slot:
    """The slot exactly behind ``front`` (or its mirror across the fold)."""
    x0, y0, _, _ = mirror_box((front.x, front.y, front.x + front.w, front.y + front.h), axis, page_w, page_h)
    clip = mirror_box(front.clip, axis, page_w, page_h) if front.clip else None
    # Slot(...) rather than dataclasses.replace: a back a card, and replace costs several times more
    return Slot(page, x0, y0, front.w, front.h, front.shape, rotation, clip)
