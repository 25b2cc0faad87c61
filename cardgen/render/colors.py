"""Colour arithmetic for layouts: WCAG relative luminance and contrast."""
from __future__ import annotations

from ..draw.attributes import color as parse_color


def luminance(value: str) -> float:
    rgb = parse_color(value)
    if rgb is None:
        raise ValueError(f'"{value}" has no luminance')

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(rgb.red) + 0.7152 * channel(rgb.green) + 0.0722 * channel(rgb.blue)


def contrast_ratio(first: str, second: str) -> float:
    a, b = sorted((luminance(first), luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def contrast(background: str) -> str:
    """Black or white, whichever contrasts more with ``background`` (Jinja filter)."""
    black, white = "#000000", "#ffffff"
    return black if contrast_ratio(background, black) >= contrast_ratio(background, white) else white


def mix(first: str, second: str, t: float) -> str:
    """The colour ``t`` of the way from ``first`` to ``second`` (0: first, 1: second), as
    ``#rrggbb`` (Jinja global and filter): solid tints that print alike on every RIP."""
    a, b = parse_color(first), parse_color(second)
    if a is None or b is None:
        raise ValueError(f'mix needs two colours, got "{first}" and "{second}"')
    channels = (int(round(x * 255)) + (int(round(y * 255)) - int(round(x * 255))) * t
                for x, y in ((a.red, b.red), (a.green, b.green), (a.blue, b.blue)))
    return "#" + "".join(f"{round(c):02x}" for c in channels)
