"""What a primitive needs to draw one face: the face's height and the markup-to-PDF mapping."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..units import PT_PER_MM


@dataclass(frozen=True)
class FaceGeometry:
    """Card markup is y-down from the trim's top-left in mm; PDF is y-up in pt from its bottom-left."""

    w: float  # trim, mm
    h: float

    def x(self, x_mm: float) -> float:
        return x_mm * PT_PER_MM

    def y(self, y_mm: float) -> float:
        return (self.h - y_mm) * PT_PER_MM

    @staticmethod
    def pt(length_mm: float) -> float:
        return length_mm * PT_PER_MM


def apply_paint(canvas, attrs) -> tuple[bool, bool]:
    """Set fill/stroke from an element's attributes; return (fill?, stroke?)."""
    fill, stroke = attrs.get("fill"), attrs.get("stroke")
    opacity = attrs.get("opacity", 1.0)
    if fill is not None:
        canvas.setFillColor(fill)
        if opacity < 1:
            canvas.setFillAlpha(opacity)
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(attrs["stroke-width"] * PT_PER_MM)
        if opacity < 1:
            canvas.setStrokeAlpha(opacity)
    return fill is not None, stroke is not None


def rotation(geometry: FaceGeometry, angle: float, cx_mm: float, cy_mm: float) -> str:
    """The operators that rotate clockwise by ``angle`` about a point in markup coordinates."""
    cx, cy = geometry.x(cx_mm), geometry.y(cy_mm)
    cos, sin = math.cos(math.radians(-angle)), math.sin(math.radians(-angle))
    return (f"1 0 0 1 {cx:.3f} {cy:.3f} cm {cos:.6f} {sin:.6f} {-sin:.6f} {cos:.6f} 0 0 cm "
            f"1 0 0 1 {-cx:.3f} {-cy:.3f} cm")


def rotated(canvas, geometry: FaceGeometry, angle: float, cx_mm: float, cy_mm: float) -> None:
    """Rotate the canvas clockwise by ``angle`` about a point given in markup coordinates."""
    if angle:
        cx, cy = geometry.x(cx_mm), geometry.y(cy_mm)
        canvas.translate(cx, cy)
        canvas.rotate(-angle)
        canvas.translate(-cx, -cy)
