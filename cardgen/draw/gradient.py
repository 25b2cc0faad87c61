"""Gradient fills: ``linear-gradient(ANGLE, COLOUR [STOP%], ...)`` and ``radial-gradient(COLOUR
[STOP%], ...)``, written as a fill value of any shape and drawn as a PDF shading (vector).

As in CSS, a linear gradient's angle is in degrees clockwise from "to the top" (0 runs upwards,
90 to the right, 180 downwards), and its line is just long enough that the box's corners take
the first and last colours; a radial gradient runs from the box's centre to its farthest corner.
Stops without a position are spread evenly between their neighbours.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from reportlab.lib.colors import CMYKColor

from ..units import parse_number

_GRADIENT = re.compile(r"\s*(linear|radial)-gradient\((.*)\)\s*", re.S)


@dataclass(frozen=True)
class Gradient:
    """A linear or radial gradient: its angle, its colours and where each one stops."""

    kind: str  # "linear" or "radial"
    angle: float  # degrees, linear only
    colors: tuple  # reportlab colours
    positions: tuple[float, ...]  # 0..1, one per colour, increasing


def is_gradient(value: str) -> bool:
    return bool(_GRADIENT.fullmatch(value))


def parse_gradient(value: str, parse_color) -> Gradient:
    match = _GRADIENT.fullmatch(value)
    kind, body = match.groups()
    parts = [p.strip() for p in _split_commas(body)]
    angle = 180.0  # CSS: "to bottom"
    if kind == "linear" and parts and re.fullmatch(r"[-+]?[\d.]+(deg)?", parts[0]):
        angle = parse_number(parts.pop(0).removesuffix("deg"))
    if len(parts) < 2:
        raise ValueError(f"a {kind} gradient needs at least two colours, got {len(parts)}")
    colors, stops = [], []
    for part in parts:
        pieces = part.rsplit(None, 1)
        stop = None
        if len(pieces) == 2 and pieces[1].endswith("%"):
            try:
                stop = parse_number(pieces[1][:-1]) / 100
            except ValueError:
                raise ValueError(f'a gradient stop is a percentage such as "40%", got "{pieces[1]}"') from None
            part = pieces[0]
        color = parse_color(part)
        if color is None:
            raise ValueError("a gradient colour cannot be none")
        colors.append(color)
        stops.append(stop)
    if len({color.__class__ is CMYKColor for color in colors}) > 1:  # one shading has one colour space
        raise ValueError("a gradient's colours are all cmyk() or all RGB (#rrggbb or names), not both")
    return Gradient(kind, angle, tuple(colors), _positions(stops))


def _split_commas(body: str) -> list[str]:
    """Split at commas outside parentheses (a colour may be cmyk(0, 0, 0, 100))."""
    parts, depth, current = [], 0, []
    for char in body:
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += (char == "(") - (char == ")")
        current.append(char)
    parts.append("".join(current))
    return parts


def _positions(stops: list) -> tuple[float, ...]:
    stops = list(stops)
    if stops[0] is None:
        stops[0] = 0.0
    if stops[-1] is None:
        stops[-1] = 1.0
    index = 0
    while index < len(stops):
        if stops[index] is None:  # spread a run of missing stops evenly
            end = index
            while stops[end] is None:
                end += 1
            start_value, end_value = stops[index - 1], stops[end]
            for k in range(index, end):
                stops[k] = start_value + (end_value - start_value) * (k - index + 1) / (end - index + 1)
            index = end
        index += 1
    for i in range(1, len(stops)):  # CSS: a stop before an earlier one takes that one's place
        stops[i] = max(stops[i], stops[i - 1])
    if not all(0 <= s <= 1 for s in stops):
        raise ValueError("gradient stops must lie between 0% and 100%")
    return tuple(stops)


def shade(canvas, gradient: Gradient, path_ops: str, box: tuple[float, float, float, float]) -> None:
    """Fill a path (PDF operators, PDF coordinates) with the gradient; ``box`` is the path's
    bounds in PDF coordinates (left, bottom, right, top)."""
    left, bottom, right, top = box
    cx, cy = (left + right) / 2, (bottom + top) / 2
    w, h = right - left, top - bottom
    canvas.saveState()
    canvas._code.append(f"{path_ops} W n")
    if gradient.kind == "linear":
        t = math.radians(gradient.angle)
        dx, dy = math.sin(t), math.cos(t)  # PDF y up: 0 degrees runs upwards
        half = (abs(w * dx) + abs(h * dy)) / 2
        geometry = ("linear", round(cx - dx * half, 3), round(cy - dy * half, 3), round(cx + dx * half, 3),
                    round(cy + dy * half, 3))
    else:
        geometry = ("radial", round(cx, 3), round(cy, 3), round(math.hypot(w, h) / 2, 3))
    # every card of a layout fills the same box the same way: one shading object a document
    shared = canvas.__dict__.setdefault("_cardgen_shadings", {})
    key = (geometry, gradient)
    name = shared.get(key)
    if name is None:
        code = canvas._code
        start = len(code)
        if gradient.kind == "linear":
            canvas.linearGradient(*geometry[1:], list(gradient.colors), list(gradient.positions), extend=True)
        else:
            canvas.radialGradient(*geometry[1:], list(gradient.colors), list(gradient.positions), extend=True)
        name = shared[key] = code[start].split()[0][1:]  # reportlab wrote "/ShN sh"
    else:
        canvas._shadingUsed[name] = name
        canvas._code.append(f"/{name} sh")
    canvas.restoreState()
