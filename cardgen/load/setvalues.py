"""The values set.yaml is made of, each read with its own check: a length, a text, a date, a
card's shape, a mapping's keys. Errors name set.yaml's line (``at``: see setfile.py)."""
from __future__ import annotations

import math
from typing import Any

from ..errors import Source, fail
from ..spelled import quoted
from ..units import parse_length
from .yamlfile import line_of


def check_date(value: str, where: Source) -> None:
    import datetime

    try:
        datetime.date.fromisoformat(value[:10]) if len(value) <= 10 else datetime.datetime.fromisoformat(value)
    except ValueError:
        raise fail(f'date must be a date such as 2024-05-01 (or 2024-05-01T12:00:00), got {quoted(value)}', where) from None


def card_shape(value: Any, where: Source) -> str:
    """rect, circle, hex-pointy (or hexagon), hex-flat, or {path: "M ... Z"} (see sheets/shapes.py)."""
    from ..sheets.shapes import ALIASES, HEXES, path_shape

    if isinstance(value, dict):
        if set(value) != {"path"}:
            raise fail('a shape given as a mapping is {path: "M ... Z"}, an outline in SVG path syntax (mm)', where)
        from ..draw.svgpath import encloses_area, parse_path, subpaths

        try:
            segments = parse_path(str(value["path"]))
        except ValueError as exc:
            raise fail(f"shape: {exc}", where) from None
        if not encloses_area(subpaths(segments)):  # its cut line, its trim, would be a point or a line
            raise fail("shape: the outline encloses no area (it is a point or a line): the card would have no shape "
                       "to cut", where)
        return path_shape(str(value["path"]))
    shape = ALIASES.get(str(value), str(value))
    if shape not in ("rect", "circle", *HEXES):
        raise fail(f'shape must be rect, circle, hex-pointy (or hexagon), hex-flat or {{path: "M ... Z"}}, '
                   f'got {quoted(value)}', where)
    return shape


def length(container: Any, key: str, default: float, at) -> float:
    if key not in container:
        return default
    try:
        value = parse_length(container[key])
    except ValueError as exc:
        raise fail(f"{key}: {exc}", at(container, key)) from None
    if value < 0:
        raise fail(f"{key} must not be negative", at(container, key))
    return value


def text(container: Any, key: str, at, what: str | None = None) -> str | None:
    """A value written as words (or a number, or a date: ``version: 1.0``), or None when absent.
    A list, a mapping, true/false or nan would print as Python's own spelling of it."""
    value = container.get(key) if isinstance(container, dict) else None
    if value is None:
        return None
    if isinstance(value, bool) or isinstance(value, (dict, list)) or (
            isinstance(value, float) and not math.isfinite(value)):
        kind = ("a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict)
                else "true or false" if isinstance(value, bool) else str(value))
        raise fail(f"{what or key} must be text, got {kind}", at(container, key))
    return str(value)


def unknown_keys(mapping: dict, allowed: set[str], file: str, what: str) -> None:
    for key in mapping:
        if str(key) not in allowed:
            raise fail(f'{what}: unknown key "{key}" (known: {", ".join(sorted(allowed))})',
                       Source(file, line_of(mapping, key)))
