"""SVG transform lists (``rotate(30 10 20) translate(5) scale(2)``) as one affine matrix.

A matrix is (a, b, c, d, e, f): a point (x, y) goes to (a x + c y + e, b x + d y + f), in card
markup coordinates (mm, y down), as in SVG, so a positive rotation turns clockwise on the card.
"""
from __future__ import annotations

import math
import re

from ..units import parse_angle, parse_length, parse_number

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
MAX_STRETCH = 10_000  # a transform that magnifies or shrinks more than this prints nothing of its content
_FUNCTION = re.compile(r"\s*([a-zA-Z]+)\s*\(([^)]*)\)\s*,?")
_ARITY = {"matrix": (6,), "translate": (1, 2), "scale": (1, 2), "rotate": (1, 3), "skewX": (1,), "skewY": (1,)}


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """The matrix that applies ``n`` first, then ``m``."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def inverse(m: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if abs(det) < 1e-12:
        raise ValueError("the transform flattens everything to a line (scale 0?)")
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return (ia, ib, ic, id_, -(ia * e + ic * f), -(ib * e + id_ * f))


def rotate_about(angle: float, cx: float, cy: float) -> Matrix:
    """A clockwise turn on the card by ``angle`` degrees about (cx, cy)."""
    return _one("rotate", [angle, cx, cy])


def parse_transform(value: str) -> Matrix:
    """One matrix for an SVG transform list; raises ValueError naming what cannot be read."""
    result = IDENTITY
    pos = 0
    text = value.strip()
    if not text:
        raise ValueError("a transform is empty")
    while pos < len(text):
        match = _FUNCTION.match(text, pos)
        if not match:
            raise ValueError(f'expected rotate(), translate(), scale(), skewX(), skewY() or matrix(), '
                             f'got "{text[pos:].strip()}"')
        name, args_text = match.groups()
        if name not in _ARITY:
            raise ValueError(f'unknown transform "{name}" (known: {", ".join(_ARITY)})')
        parts = [p for p in re.split(r"[\s,]+", args_text.strip()) if p]
        if len(parts) not in _ARITY[name]:
            raise ValueError(f"{name}() takes {' or '.join(map(str, _ARITY[name]))} numbers, got {len(parts)}")
        numbers = [_read_argument(name, i, p) for i, p in enumerate(parts)]
        if name in ("skewX", "skewY") and not abs(math.tan(math.radians(numbers[0]))) <= MAX_STRETCH:
            raise ValueError(f"{name}({numbers[0]:g}) slants the content by 90 degrees, or so near it that it "
                             f"becomes a line: nothing would print")
        result = multiply(result, _one(name, numbers))
        pos = match.end()
    inverse(result)  # refuses a transform that flattens its content
    check_stretch(result, "the transform")
    return result


def _read_argument(name: str, index: int, text: str) -> float:
    if name == "rotate":
        return parse_angle(text) if index == 0 else parse_length(text)
    return parse_number(text) if name in ("skewX", "skewY", "scale", "matrix") else parse_length(text)


def check_stretch(m: Matrix, what: str) -> None:
    """Refuse a transform (alone, or with the groups around it: ``what``) that magnifies or
    shrinks its content past any print."""
    largest, smallest = _stretches(m)
    if not largest <= MAX_STRETCH:  # nan or inf too: scale(1e200) scale(1e200)
        raise ValueError(f"{what} magnifies its content more than {MAX_STRETCH:,} times: nothing of it "
                         f"would print on the card")
    if smallest < 1 / MAX_STRETCH:
        raise ValueError(f"{what} shrinks its content more than {MAX_STRETCH:,} times: nothing of it "
                         f"would print visibly")


def _stretches(m: Matrix) -> tuple[float, float]:
    """How much the transform lengthens a line at most and at least (the singular values of its
    linear part); inf when its numbers are past what a float holds."""
    a, b, c, d = m[:4]
    square = a * a + b * b + c * c + d * d
    det = a * d - b * c
    spread = square * square - 4 * det * det
    if not math.isfinite(spread):
        return math.inf, 0.0
    largest = math.sqrt((square + math.sqrt(max(0.0, spread))) / 2)
    return largest, abs(det) / largest


def _one(name: str, n: list[float]) -> Matrix:
    if name == "matrix":
        return tuple(n)  # type: ignore[return-value]
    if name == "translate":
        return (1.0, 0.0, 0.0, 1.0, n[0], n[1] if len(n) > 1 else 0.0)
    if name == "scale":
        sx = n[0]
        sy = n[1] if len(n) > 1 else sx
        return (sx, 0.0, 0.0, sy, 0.0, 0.0)
    if name == "rotate":
        t = math.radians(n[0])
        cos, sin = math.cos(t), math.sin(t)
        rot = (cos, sin, -sin, cos, 0.0, 0.0)
        if len(n) == 3:
            cx, cy = n[1], n[2]
            return multiply((1.0, 0.0, 0.0, 1.0, cx, cy), multiply(rot, (1.0, 0.0, 0.0, 1.0, -cx, -cy)))
        return rot
    if name == "skewX":
        return (1.0, 0.0, math.tan(math.radians(n[0])), 1.0, 0.0, 0.0)
    return (1.0, math.tan(math.radians(n[0])), 0.0, 1.0, 0.0, 0.0)  # skewY


def pdf_matrix(m: Matrix, geometry) -> str:
    """The ``cm`` operator that applies markup matrix ``m`` to content drawn in a face's PDF
    coordinates: PDF -> markup, then ``m``, then markup -> PDF."""
    k = geometry.pt(1.0)
    h = geometry.h
    to_markup = (1 / k, 0.0, 0.0, -1 / k, 0.0, h)
    to_pdf = (k, 0.0, 0.0, -k, 0.0, h * k)
    a, b, c, d, e, f = multiply(to_pdf, multiply(m, to_markup))
    return f"{a:.6f} {b:.6f} {c:.6f} {d:.6f} {e:.3f} {f:.3f} cm"
