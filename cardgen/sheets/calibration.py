"""A two-sided test sheet that measures a printer's drift between the sides of a duplex sheet.

Each side carries two vernier scales, one across the page (it measures x) and one up it (y).
The front's lines are ``PITCH`` mm apart; the back's lines, printed behind them, ``PITCH +
STEP`` mm apart, so that for any drift one pair of lines (one front, one back) continues
straight, and each step along the scale stands for ``STEP`` mm of drift (the pitch is more than
twice the range read, so that within it no other pair of lines meets). Each pair is numbered,
on both sides, with the ``--back-offset`` value that cancels the drift it shows: held against a
light, the number where the lines meet is the offset to build with. The back page is printed
with the offset it is given (the user's current one), so the number read is always the whole
offset, never a correction to add.

Geometry in mm from the page's bottom-left; the back page is designed in the front's
coordinates (where each line should land) and mirrored about the duplex edge to be drawn.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import fail
from .duplex import back_axis
from .sizes import fmt

PITCH = 6.5  # mm between the front's lines: more than twice the range, so that no other pair meets
STEP = 0.25  # mm of drift between two numbered pairs
STEPS = 12  # pairs each way from the middle: the scales read drifts up to STEPS x STEP = 3 mm
LONG, SHORT = 9.0, 6.0  # mm: the length of the middle line, and of the others, on each side of the meeting line
OVERLAP = 2.0  # mm each side's lines reach past the meeting line, so that a drift across it still meets
LINE_PT = 0.3
LABEL_PT = 5.0
TEXT_PT = 8.0


@dataclass(frozen=True)
class Tick:
    """One line of a scale: from (x0, y0) to (x1, y1), its number written at (tx, ty)."""

    x0: float
    y0: float
    x1: float
    y1: float
    label: str
    tx: float
    ty: float
    angle: float  # of the label, degrees counter-clockwise


@dataclass(frozen=True)
class Scale:
    axis: str  # "x" (lines across the page, read left to right) or "y"
    front: tuple[Tick, ...]
    back: tuple[Tick, ...]  # in the front's coordinates: where each back line lands


def offset_label(index: int, axis: str, mirror: str, current: float) -> str:
    """The offset that makes pair ``index`` meet: the back page, shifted by ``t`` (its offset
    plus the drift), meets the front at pair ``index`` when t = +index x STEP on a page whose
    back mirrors that axis (the back's x runs the other way), else -index x STEP; the offset
    that cancels the drift is current - t."""
    shift = index * STEP if mirror == axis else -index * STEP
    value = current - shift
    return fmt(value + 0.0) if abs(value) > 1e-9 else "0"


def scales(page_w: float, page_h: float, duplex: str, offset: tuple[float, float]) -> tuple[Scale, Scale]:
    """The x scale across the upper part of the page and the y scale up its middle."""
    mirror = back_axis(page_w, page_h, duplex)
    length = 2 * STEPS * (PITCH + STEP)
    x_line, y_line = page_h - 60.0, page_w / 2  # the meeting lines
    x_mid, y_mid = page_w / 2, (page_h - 60.0 - 25.0) / 2 + 5.0
    if length > page_w - 20 or y_mid - length / 2 < 10:
        raise fail(f"the calibration sheet needs paper of at least {fmt(length + 20)} x {fmt(length + 95)} mm, "
                   f"got {fmt(page_w)} x {fmt(page_h)} mm")
    out = []
    for axis, mid, meet in (("x", x_mid, x_line), ("y", y_mid, y_line)):
        front, back = [], []
        for index in range(-STEPS, STEPS + 1):
            label = offset_label(index, axis, mirror, offset[0] if axis == "x" else offset[1])
            reach = LONG if index == 0 else SHORT
            f, b = mid + index * PITCH, mid + index * (PITCH + STEP)
            if axis == "x":  # front lines above the meeting line, back lines below, numbers beyond
                front.append(Tick(f, meet - OVERLAP, f, meet + reach, label, f, meet + reach + 1.0, 90.0))
                back.append(Tick(b, meet - reach, b, meet + OVERLAP, label, b, meet - reach - 1.0, 90.0))
            else:  # front lines right of the meeting line, back lines left of it
                front.append(Tick(meet - OVERLAP, f, meet + reach, f, label, meet + reach + 1.0, f, 0.0))
                back.append(Tick(meet - reach, b, meet + OVERLAP, b, label, meet - reach - 1.0, b, 0.0))
        out.append(Scale(axis, tuple(front), tuple(back)))
    return out[0], out[1]


def instructions(paper: str, duplex: str, offset: tuple[float, float]) -> list[str]:
    flip = f"flip on {duplex} edge"
    return [
        f"cardgen duplex calibration: {paper}, {flip}, printed with back offset {fmt(offset[0])},{fmt(offset[1])} mm",
        f"1. Print both pages on one sheet, double-sided, {flip}, at actual size (no scaling, no fit to page).",
        "2. Hold the sheet against a light with this side towards you. On each scale one line of this side",
        "   continues a line of the back straight on: its number (the same on both sides) is the offset.",
        "3. Build with  cardgen build --back-offset X,Y  (X from the scale across, Y from the scale up the page).",
        "   A scale with no straight pair reads beyond 3 mm: print this sheet again with --back-offset near its end.",
    ]


def write_calibration(path: Path, paper: str | tuple, duplex: str = "long",
                      offset: tuple[float, float] = (0.0, 0.0), font: str = "Helvetica") -> None:
    """Write the two-page calibration PDF to ``path`` (``font``: a registered font's name)."""
    from reportlab.pdfgen.canvas import Canvas

    from ..units import mm_to_pt
    from .sizes import paper_name, paper_size

    page_w, page_h = paper_size(paper)
    mirror = back_axis(page_w, page_h, duplex)
    x_scale, y_scale = scales(page_w, page_h, duplex, offset)
    canvas = Canvas(str(path), pagesize=(mm_to_pt(page_w), mm_to_pt(page_h)), invariant=1, pageCompression=1,
                    initialFontName=font)
    canvas.setTitle(f"cardgen duplex calibration ({paper_name(paper)}, flip on {duplex} edge)")
    canvas.setCreator("cardgen")
    canvas.setProducer("cardgen")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if duplex == "long" else "DuplexFlipShortEdge")

    def where(x: float, y: float, back: bool) -> tuple[float, float]:
        if not back:
            return mm_to_pt(x), mm_to_pt(y)
        if mirror == "x":
            x = page_w - x
        else:
            y = page_h - y
        return mm_to_pt(x + offset[0]), mm_to_pt(y + offset[1])

    def draw_scale(ticks: tuple[Tick, ...], back: bool) -> None:
        canvas.setLineWidth(LINE_PT)
        for tick in ticks:
            canvas.line(*where(tick.x0, tick.y0, back), *where(tick.x1, tick.y1, back))
        canvas.setFont(font, LABEL_PT)
        for tick in ticks:
            x, y = where(tick.tx, tick.ty, back)
            canvas.saveState()
            canvas.translate(x, y)
            canvas.rotate(tick.angle)
            # numbers read outwards from their line: away from the meeting line on either side
            outward = (tick.ty > tick.y1) if tick.angle else (tick.tx > tick.x1)
            if back and ((mirror == "y" and tick.angle) or (mirror == "x" and not tick.angle)):
                outward = not outward
            if outward:
                canvas.drawString(0, -LABEL_PT * 0.35, tick.label)
            else:
                canvas.drawRightString(0, -LABEL_PT * 0.35, tick.label)
            canvas.restoreState()

    for back in (False, True):
        canvas.setStrokeColorCMYK(0, 0, 0, 1)
        canvas.setFillColorCMYK(0, 0, 0, 1)
        draw_scale(x_scale.front if not back else x_scale.back, back)
        draw_scale(y_scale.front if not back else y_scale.back, back)
        canvas.setFont(font, TEXT_PT)
        lines = instructions(paper_name(paper), duplex, offset)
        if back:
            lines = [f"Back of the calibration sheet ({paper_name(paper)}, flip on {duplex} edge, "
                     f"back offset {fmt(offset[0])},{fmt(offset[1])} mm). Read the scales from the other side."]
        if not back:  # name the scales beside their first lines
            first_x, first_y = x_scale.front[0], y_scale.front[-1]
            canvas.setFont(font, 2 * TEXT_PT)
            canvas.drawRightString(mm_to_pt(first_x.x0 - 4.0), mm_to_pt(first_x.y0 + 2.0), "X")
            canvas.drawString(mm_to_pt(first_y.x0 - 2.0), mm_to_pt(first_y.y0 + 5.0), "Y")
            canvas.setFont(font, TEXT_PT)
        top = page_h - 15.0
        for number, line in enumerate(lines):
            x, y = mm_to_pt(15.0), mm_to_pt(top - number * 4.2)
            if back:
                x, y = x + mm_to_pt(offset[0]), y + mm_to_pt(offset[1])
            canvas.drawString(x, y, line)
        canvas.showPage()
    canvas.save()
