"""Faces the shop takes only turned: a landscape card whose product's template is upright.

A shop takes every card of a product the one way up (The Game Crafter's poker PNG is 825 x
1125 px, DriveThruCards' poker page 2.75 x 3.75 in), so a landscape card goes to it turned a
quarter: its front clockwise and its back counter-clockwise. Turned so, the pair is the same
card: a back is upright when its card is turned over left to right (as cardgen prints backs
at home), and a shop turns a card over left to right, about the upright card's long axis,
which is the landscape card's short one; the back's quarter turn the other way makes up for it.
"""
from __future__ import annotations

import io

import pikepdf
from PIL import Image

from ..model import CardType
from .products import product_of

CLOCKWISE, COUNTER_CLOCKWISE = "cw", "ccw"


def turn_of(card_type: CardType, shop: str, side: str) -> str | None:
    """How a face of ``card_type`` is turned for ``shop`` (None: as drawn)."""
    product = product_of(card_type, shop)
    if product is None or abs(product.w - product.h) < 1e-9:
        return None
    size = card_type.size
    if (size.w > size.h) == (product.w > product.h):
        return None
    return CLOCKWISE if side == "front" else COUNTER_CLOCKWISE


def turn_page(pdf: pikepdf.Pdf, page: pikepdf.Page, turn: str) -> None:
    """Turn ``page`` (of ``pdf``) a quarter: its drawing, and its boxes with it."""
    x0, y0, x1, y1 = (float(v) for v in page.obj.MediaBox)
    if (x0, y0) != (0, 0):
        raise ValueError("a per-card page starts at 0 0")
    if turn == CLOCKWISE:  # (x, y) -> (y, w - x)
        matrix, point = f"0 -1 1 0 0 {x1:g}", lambda x, y: (y, x1 - x)
    else:  # (x, y) -> (h - y, x)
        matrix, point = f"0 1 -1 0 {y1:g} 0", lambda x, y: (y1 - y, x)
    page.contents_add(pdf.make_stream(f"q {matrix} cm\n".encode()), prepend=True)
    page.contents_add(pdf.make_stream(b"\nQ\n"), prepend=False)
    for name in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox"):
        if name in page.obj:
            a, b, c, d = (float(v) for v in page.obj[name])
            (p, q), (r, s) = point(a, b), point(c, d)
            page.obj[name] = pikepdf.Array([min(p, r), min(q, s), max(p, r), max(q, s)])


def turn_png(data: bytes, turn: str, dpi: float) -> bytes:
    from ..proof.raster import png_bytes

    with Image.open(io.BytesIO(data)) as image:
        turned = image.transpose(Image.Transpose.ROTATE_270 if turn == CLOCKWISE else Image.Transpose.ROTATE_90)
    return png_bytes(turned, dpi)
