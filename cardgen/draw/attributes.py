"""Attribute kinds of card markup: each parses a string and says what it accepts."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from reportlab.lib import colors

from ..units import parse_angle, parse_length, parse_number


@dataclass(frozen=True)
class Attr:
    """An attribute of a drawing primitive: how its value is read, what it means, its default."""

    parse: Callable[[str], Any]
    doc: str
    default: Any = None
    required: bool = False


def length(value: str) -> float:
    return parse_length(value)


def number(value: str) -> float:
    return parse_number(value)


def _positive(parse: Callable[[str], float]) -> Callable[[str], float]:
    def parse_positive(value: str) -> float:
        result = parse(value)
        if result <= 0:
            raise ValueError(f"must be greater than 0, got {value}")
        return result
    return parse_positive


MIN_SIZE = 0.0001  # mm: the PDF writes 0.001 pt steps (0.00035 mm); a smaller size is written as 0


def positive_length(value: str) -> float:
    """A size: more than 0, and not so small that it prints nothing (1e-320 read as a size)."""
    result = _positive(length)(value)
    if result < MIN_SIZE:
        raise ValueError(f"must be at least {MIN_SIZE:g} mm: a smaller size prints nothing, got {value}")
    return result


positive_number = _positive(number)


def fraction(value: str) -> float:
    result = number(value)
    if not 0 <= result <= 1:
        raise ValueError(f"must be between 0 and 1, got {value}")
    return result


_CMYK = re.compile(r"cmyk\(\s*([0-9.]+)\s*,\s*([0-9.]+)\s*,\s*([0-9.]+)\s*,\s*([0-9.]+)\s*\)", re.IGNORECASE)


@lru_cache(maxsize=512)
def color(value: str):
    """``#rrggbb``, ``#rgb``, a CSS colour name, ``cmyk(c,m,y,k)`` (percentages of ink, written
    to the PDF as they are: DeviceCMYK), or ``none`` (None)."""
    text = value.strip()
    if text.lower() in ("none", "transparent"):  # reportlab's "transparent" is black with alpha 0: drawn black
        return None
    match = _CMYK.fullmatch(text)
    if match:
        try:
            inks = [float(v) for v in match.groups()]
        except ValueError:
            inks = [-1.0]
        if any(not 0 <= ink <= 100 for ink in inks):
            raise ValueError(f'cmyk() takes four percentages from 0 to 100, got "{value}"')
        return colors.CMYKColor(*(ink / 100 for ink in inks))
    if re.fullmatch(r"#[0-9a-fA-F]{3}", text):
        text = "#" + "".join(c * 2 for c in text[1:])
    if re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        return colors.HexColor(text)
    named = getattr(colors, text.lower(), None)
    if isinstance(named, colors.Color):
        return named
    raise ValueError(f'expected a colour such as "#c8102e", "#fff", "black", "cmyk(0,0,0,100)" or "none", '
                     f'got "{value}"')


def ink(value: str):
    """A colour that must print: text's and an icon's. ``none`` would set the letters invisible,
    where a shape's ``none`` leaves out a fill or outline nobody needs."""
    result = color(value)
    if result is None:
        raise ValueError(f'"{value.strip()}" would print the text invisible: give a colour such as "#000000", '
                         f"or leave the text out")
    return result


def paint(value: str):
    """A fill: a colour (see ``color``) or a ``linear-gradient(...)`` / ``radial-gradient(...)``."""
    from .gradient import is_gradient, parse_gradient

    if is_gradient(value):
        return parse_gradient(value, color)
    return color(value)


def choice(*options: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value not in options:
            raise ValueError(f'expected one of {", ".join(options)}, got "{value}"')
        return value
    parse.options = options  # type: ignore[attr-defined]
    return parse


def text(value: str) -> str:
    return value


def points(value: str) -> tuple[tuple[float, float], ...]:
    pairs = []
    for pair in value.split():
        parts = pair.split(",")
        if len(parts) != 2:
            raise ValueError(f'points are "x,y x,y ...", got "{pair}"')
        pairs.append((parse_length(parts[0]), parse_length(parts[1])))
    if len(pairs) < 3:
        raise ValueError("a polygon needs at least 3 points")
    return tuple(pairs)


def dash(value: str) -> tuple[float, ...]:
    parts = tuple(parse_length(p) for p in value.replace(",", " ").split())
    if not parts or any(p <= 0 for p in parts):
        raise ValueError(f'a dash pattern is lengths such as "1 0.5", got "{value}"')
    return parts


# Attributes shared by the shapes.
FILL = Attr(paint, "fill colour, `linear-gradient(...)` or `radial-gradient(...)` (`none` for no fill)", None)
STROKE = Attr(color, "outline colour (`none` for no outline)", None)
STROKE_WIDTH = Attr(positive_length, "outline width", 0.25)
OPACITY = Attr(fraction, "opacity from 0 (invisible) to 1", 1.0)
DASH = Attr(dash, 'dash pattern of the outline, lengths on and off such as "1 0.5"', None)
# The paint of every closed shape.
PAINT = {"fill": FILL, "stroke": STROKE, "stroke-width": STROKE_WIDTH, "dash": DASH, "opacity": OPACITY}
ROTATE = Attr(parse_angle, "rotation in degrees, clockwise, about the element's centre", 0.0)
