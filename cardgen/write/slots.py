"""A face put in its slot on a page: the clip to the slot's shape (grown by the bleed), the move
to its trim's corner (turned for a gutter-fold back), and proof boxes drawn over it."""
from __future__ import annotations

from typing import Callable

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from ..draw import pdfops
from ..model import Placement
from ..sheets.shapes import HEXES, hexagon
from ..streams import Latest
from ..units import PT_PER_MM

PROOF_TRIM = HexColor("#0070c0")
PROOF_BLEED = HexColor("#d00000")
PROOF_SAFE = HexColor("#00a050")


def place(canvas: Canvas, placement: Placement, draw: Callable[[], None], pure: bool = True) -> None:
    """Draw a face in its slot. A ``pure`` drawing (operators only) is wrapped in a plain q/Q;
    others also save and restore reportlab's own record of the graphics state."""
    if pure:
        canvas._code.append("q")
    else:
        canvas.saveState()
    into_slot(canvas, placement)
    draw()
    if pure:
        canvas._code.append("Q")
    else:
        canvas.restoreState()


def into_slot(canvas: Canvas, placement: Placement) -> None:
    """The operators that clip to a face's slot and move the origin to its trim's corner."""
    slot = placement.slot
    size = placement.face.card_type.size
    if not slot.rotation and slot.shape not in _CLIPPED_TO_SHAPE:  # the usual slot: its operators made once
        key = (slot.x, slot.y, slot.w, slot.h, slot.clip, size.w, size.h)
        position = _POSITIONS.get(key)
        if position is None:
            position = _POSITIONS[key] = _position(slot, size)
        canvas._code.append(position)
    else:
        _turned_or_round(canvas, slot, size)


_CLIPPED_TO_SHAPE = ("circle", *HEXES)
_POSITIONS = Latest(512)  # a slot's clip and placement operators: every sheet repeats its slots


def _position(slot, size) -> str:
    return _move(slot, size) if slot.clip is None else f"{_clip(slot)}\n{_move(slot, size)}"


def _clip(slot) -> str:
    x0, y0, x1, y1 = (v * PT_PER_MM for v in slot.clip)
    return f"{pdfops.rect(x0, y0, x1 - x0, y1 - y0)} W n"


def _move(slot, size) -> str:
    """The face's centre on the slot's centre (a die-cut label may be a little smaller than the
    face it carries)."""
    k = PT_PER_MM
    return pdfops.translate((slot.x + (slot.w - size.w) / 2) * k, (slot.y + (slot.h - size.h) / 2) * k)


def _turned_or_round(canvas: Canvas, slot, size) -> None:
    """A round slot's clip; a back on a gutter-fold page, which turns about its centre."""
    k = PT_PER_MM
    if slot.clip is not None and slot.shape == "circle":
        x0, y0, x1, y1 = (v * k for v in slot.clip)
        path = canvas.beginPath()
        path.ellipse(x0, y0, x1 - x0, y1 - y0)
        canvas.clipPath(path, stroke=0, fill=0)
    elif slot.clip is not None and slot.shape in HEXES:  # the hexagon grown by the bleed
        x0, y0, x1, y1 = slot.clip
        corners = hexagon(slot.shape, x0, y0, x1 - x0, y1 - y0)
        canvas._code.append(" ".join([f"{corners[0][0] * k:.3f} {corners[0][1] * k:.3f} m"]
                                     + [f"{cx * k:.3f} {cy * k:.3f} l" for cx, cy in corners[1:]] + ["h W n"]))
    elif slot.clip is not None:
        canvas._code.append(_clip(slot))
    if slot.rotation:
        canvas.translate((slot.x + slot.w / 2) * k, (slot.y + slot.h / 2) * k)
        canvas.rotate(slot.rotation)
        canvas.translate(-size.w / 2 * k, -size.h / 2 * k)
    else:
        canvas._code.append(_move(slot, size))


def draw_proof_boxes(canvas: Canvas, placement: Placement) -> None:
    slot, card_type = placement.slot, placement.face.card_type
    k = PT_PER_MM
    canvas.saveState()
    canvas.setLineWidth(0.25)
    for color, inset, dashed in ((PROOF_BLEED, -card_type.bleed, False), (PROOF_TRIM, 0.0, False),
                                 (PROOF_SAFE, card_type.safe, True)):
        canvas.setStrokeColor(color)
        canvas.setDash([2, 2] if dashed else [])
        x, y, w, h = slot.x + inset, slot.y + inset, slot.w - 2 * inset, slot.h - 2 * inset
        if slot.shape == "circle":
            canvas.ellipse(x * k, y * k, (x + w) * k, (y + h) * k, stroke=1, fill=0)
        else:
            canvas.rect(x * k, y * k, w * k, h * k, stroke=1, fill=0)
    canvas.restoreState()
